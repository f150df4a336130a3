conda create -n myenv python=3.9
conda activate myenv
conda install pytorch torchvision cudatoolkit=11.3 -c pytorch
conda install -c anaconda cmake
pip install pykeops
conda install -c conda-forge pkg-config 
conda install -c conda-forge libjpeg-turbo 
conda install -c conda-forge opencv 
pip install numba
pip install cupy-cuda113
pip install ffcv
pip install timm
pip install PyYAML
pip install yacs
conda install pytorch-scatter -c pyg
pip install termcolor
