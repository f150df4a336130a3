pip install torch==1.10.1+cu111 torchvision==0.11.2+cu111 torchaudio==0.10.1 -f https://download.pytorch.org/whl/cu111/torch_stable.html
pip install tensorboard
pip install setuptools==59.5.0
pip install yaml
pip install pyyaml
pip install torchgeometry

pip install matplotlib
pip install numba
pip install joblib
pip install scipy
pip install smplx==0.1.20
pip install trimesh
pip install pyrender