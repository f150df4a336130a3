#!/bin/bash

#torch CPU - Linux
pip3 install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cpu

#torch GPU - linux cudo1.2.1
#pip3 install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121

pip3 install numpy pandas matplotlib scikit-learn
