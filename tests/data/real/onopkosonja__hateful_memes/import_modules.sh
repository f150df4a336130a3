#!/usr/bin/env bash
python -m pip install torchvision
python -m pip install Pillow
python -m pip install psutil
python -m pip install neptune-client
python -m pip install kornia==0.3.1
python -m pip install torch==1.5.1+cu101 #torchvision==0.6.1+cu101 -f https://download.pytorch.org/whl/torch_stable.html
python -m pip install pytorch-lightning==0.9.0rc2
