python3.7 -m pip install torch==1.7.1+cu101 -f https://download.pytorch.org/whl/torch_stable.html
python3.7 -m pip install torchtext==0.8.1