conda create --name clvc python==3.7
source activate clvc
conda install pytorch torchvision cudatoolkit=10.2 -c pytorch
conda install pip
