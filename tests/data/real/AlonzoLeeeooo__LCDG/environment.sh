# pip installation
pip install torch==1.10.1 torchvision==0.11.2 torchaudio==0.10.1
pip install pytorch_lightning==1.4.2
pip install torchmetrics==0.6.0
pip install omegaconf
pip install einops
pip install test-tube
pip install opencv-python
pip install albumentations
pip install lmdb
pip install clip
pip install transformers
pip install kornia
pip uninstall -y torchtext
