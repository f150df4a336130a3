#!/bin/bash
conda install pytorch torchvision torchaudio pytorch-cuda=11.6 -c pytorch -c nvidia