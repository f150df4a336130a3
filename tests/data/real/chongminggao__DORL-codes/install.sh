#!/bin/bash

pip install  --upgrade --no-cache-dir torch tensorflow scipy scikit-learn tqdm logzero pandas seaborn numba gym paramiko jupyterlab

#pip install -i https://mirrors.aliyun.com/pypi/simple/ --upgrade torch

#pip install -i https://mirrors.aliyun.com/pypi/simple/  --upgrade --no-cache-dir tensorflow

