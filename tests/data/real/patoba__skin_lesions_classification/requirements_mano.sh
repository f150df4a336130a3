#!/bin/bash

pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu114
pip install pandas
pip install pytorch-lightning
pip install jupyterlab
pip install sklearn
pip install matplotlib
pip install torchmetrics
