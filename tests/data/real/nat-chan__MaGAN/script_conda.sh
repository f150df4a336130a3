#https://pytorch.org/get-started/previous-versions/
#anaconda3-5.2.0 3.6.10
conda install pytorch==1.1.0 torchvision==0.3.0 cudatoolkit=9.0 -c pytorch
conda install dill scikit-image scipy==1.1.0
conda install -c conda-forge dominate
conda install pillow=6.1
conda install -c anaconda tensorflow-gpu
conda install -c anaconda configargparse
conda install -c conda-forge tensorboardx
conda instal tqdm

# development
conda install -c anaconda ruby
conda install -c conda-forge tmux
conda install -c conda-forge nbstripout
conda install -c conda-forge nbdime
conda install -c conda-forge debugpy