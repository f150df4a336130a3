#!/bin/bash

sudo apt-get update

sudo apt install python3-pip

sudo pip3 install torch==1.3.0+cpu torchvision==0.4.1+cpu -f https://download.pytorch.org/whl/torch_stable.html
sudo pip3 install tensorboard

sudo pip3 install gym

pip3 install matplotlib==2.0.0

sudo apt-get install python3-tk 

pip3 install transforms3d

pip3 install psutil

pip3 install shapely

sudo pip3 install pygame

pip3 install networkx
