from setuptools import setup

setup(
    install_requires=[
        "torch",
        "numpy",
        "scipy",
        "tqdm",
        "graphviz",
        "torchview",
    ]
)
