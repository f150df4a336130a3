from setuptools import setup

setup(name='emBench',
      version='0.2',
      install_requires=['numpy', 'matplotlib', 'sklearn', 'numba', 'gensim'])

