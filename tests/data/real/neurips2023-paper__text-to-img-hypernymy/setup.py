"""Project setup."""

from setuptools import setup

setup(
    name="diffusion_hierarchy",
    py_modules=["src"],
)
