#!/bin/bash

conda install -y pytorch==1.8.1 torchvision==0.9.1 cudatoolkit=10.1 -c pytorch
conda install -y tqdm
pip install PyYAML
pip install easydict
pip install cython
pip install pycocotools
pip install opencv-python
pip install tb-nightly
pip install pandas
pip install jpeg4py
pip install tikzplotlib
pip install colorama
pip install scipy
pip install visdom
