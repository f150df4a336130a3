# Ubuntu 22.04
# 1. install driver with additional-driver app
# 2. install cuda sdk 12.1
# 3. install anaconda
# 4. create conda env and install below packages
conda install pytorch torchvision torchaudio pytorch-cuda=12.1 -c pytorch -c nvidia