pip install torch==1.8.1+cu111 torchvision==0.9.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html
pip install torchtext==0.9.1
pip install numpy scipy pandas torch_optimizer transformers
