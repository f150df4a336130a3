export CUDA=cu101
# conda install pytorch torchvision torchaudio cudatoolkit=10.1 -c pytorch
pip install torch==1.6.0+cu101 torchvision==0.7.0+cu101 torchaudio -f https://download.pytorch.org/whl/torch_stable.html
pip install torch-scatter -f https://pytorch-geometric.com/whl/torch-1.6.0+${CUDA}.html
pip install torch-sparse -f https://pytorch-geometric.com/whl/torch-1.6.0+${CUDA}.html
pip install torch-cluster -f https://pytorch-geometric.com/whl/torch-1.6.0+${CUDA}.html
pip install torch-spline-conv -f https://pytorch-geometric.com/whl/torch-1.6.0+${CUDA}.html
pip install torch-geometric==1.6.3
pip install tensorflow-gpu==1.15.0