#!/bin/bash

pip install \
    torch==2.1.1 \
    torchvision==0.16.1 \
    numpy==1.26.2 \
    matplotlib==3.8.2 \
    tqdm==4.66.1 \
    pytorch-lightning==2.1.2 \
    accelerate==0.24.1