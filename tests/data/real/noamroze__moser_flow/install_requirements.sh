conda install pytorch==1.7.1 torchvision==0.8.2 torchaudio==0.7.2 cudatoolkit=10.1 -c pytorch
# conda install -y pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch
conda install -y -c conda-forge igl
conda install -y matplotlib
conda install -y pandas
conda install -y plotly

pip install gputil
pip install plyfile
pip install pyevtk
pip install pyyaml
pip install rtree
pip install submitit
pip install sklearn
pip install scikit-image
pip install tensorboard
pip install torch
pip install torchdiffeq
pip install tqdm
pip install trimesh