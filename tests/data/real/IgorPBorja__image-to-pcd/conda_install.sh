#!/bin/bash

conda install pytorch==2.3.0 torchvision==0.18.0 torchaudio==2.3.0 nvidia::cuda-toolkit=12.1 -c pytorch