# Install PyTorch
conda install -c pytorch pytorch

# Install PyTorch without GPU
conda install pytorch torchvision cpuonly -c pytorch

# Install Torch Vision
conda install -c pytorch torchvision

# Alternative way to install PyTorch and Torch Vision with Specific Cuda and Cudnn
#conda install pytorch torchvision cudatoolkit=10.1 cudnn -c pytorch

# You can use below link to get appropriate PyTorch installation command for your system.
#https://pytorch.org/
