from setuptools import find_packages, setup

setup(
    name="spn-pytorch-experiments",
    packages=find_packages(),
    version="0.1.0",
    description="Experiments with Sum-Product and Deep neural Networks.",
    author="Steven Lang",
    license="MIT",
)
