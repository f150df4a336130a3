#!/bin/sh
pip install future==0.18.2 numpy==1.18.4 Pillow==7.1.2 ptflops==0.6.2 tqdm==4.43.0
pip install torch==1.5.0+cu101 torchvision==0.6.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html