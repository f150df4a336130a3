pip install opencv-python
pip install pillow
pip install torch==1.13.1+cu117 torchvision==0.14.1+cu117 torchaudio==0.13.1 --extra-index-url https://download.pytorch.org/whl/cu117
pip install diffusers==0.27.2
pip install huggingface-hub==0.23.5
pip install transformers
pip install einops
pip install scipy
pip install timm==0.6.7
pip install matplotlib
pip install omegaconf
pip install albumentations
pip install accelerate
pip install gradio
