#!/bin/bash

pip install torch==2.0.1 torchvision==0.15.2 torchaudio==2.0.2

conda install -c anaconda cudnn

pip install -U imageio googledrivedownloader tqdm