from setuptools import setup, find_packages

setup(
    name="torchsummary",
    version="1.5.1",
    description="Model summary in PyTorch similar to `model.summary()` in Keras",
    url="https://github.com/sksq96/pytorch-summary",
    author="Shubham Chandel @sksq96",
    author_email="shubham.zeez@gmail.com",
    packages=["torchsummary"],
)
