from setuptools import setup


setup(
    install_requires=[
        'gym==0.17.2',
        'matplotlib==3.3.2',
        'numpy==1.19.2',
        'torch==1.5.1',
        'torchvision==0.6.1',
        'Box2D',
        'pyglet==1.3.2',
        'tensorboardX',
        'imageio==2.9.0'
    ],
)