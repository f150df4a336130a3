# Assumes python3 (64-bit) with pip is installed
# The Torch library is quite large (ca. 700 MB). Please be patient :)

sudo python3 -m pip install --upgrade pip
sudo python3 -m pip install torch -f https://download.pytorch.org/whl/torch_stable.html
sudo python3 -m pip install torchvision numpy scipy matplotlib
