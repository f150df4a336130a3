#!/usr/bin/env bash


pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117 torchaudio==0.13.1+cu117 -f https://download.pytorch.org/whl/torch_stable.html

pip install imageio==2.9.0 imageio-ffmpeg matplotlib==3.5.2 opencv-python opencv-python-headless pillow scikit-image scipy tensorboard==2.9.1 setuptools==59.5.0
