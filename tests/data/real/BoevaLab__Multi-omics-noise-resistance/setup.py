from setuptools import setup, find_packages
setup(name='noise_resistance', version='1.0', packages=find_packages())