conda install pytorch==1.11.0 torchvision==0.12.0 torchaudio==0.11.0 cudatoolkit=11.3 -c pytorch
conda install shapely rtree graph-tool pyembree -c conda-forge
conda install -c fvcore -c iopath -c conda-forge fvcore iopath
conda install -c bottler nvidiacub
conda install pytorch3d -c pytorch3d
pip install trimesh[all]==3.9.36 opencv-python==3.4.8.29 imageio
pip install  imageio scipy scikit-learn numba loguru tensorboard dominate yattag visdom ray scikit-image ipdb
pip install -U "ray[default]"
pip install open3d==0.13.0
pip install loguru, visdom, numba
