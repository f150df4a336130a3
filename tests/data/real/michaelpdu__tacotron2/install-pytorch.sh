conda install pytorch=1.0.1 torchvision cudatoolkit=10.0 -c pytorch
