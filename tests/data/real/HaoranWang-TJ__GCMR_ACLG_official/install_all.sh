pip install torch==1.10.0+cu113 torchvision==0.11.0+cu113 torchaudio==0.10.0 -f https://download.pytorch.org/whl/torch_stable.html
pip install tensorboard==2.11.2
pip install pandas==1.3.5
pip install gym==0.23.1
pip install mujoco==2.3.3
pip install mujoco_py==2.1.2.14
pip install opencv-python
pip install tqdm
pip install matplotlib
pip install seaborn
pip install scikit-learn==1.0.2
pip install protobuf==3.20.2
pip install setuptools==58.0.4
pip install gym-robotics==0.1.0
pip install "cython<3"