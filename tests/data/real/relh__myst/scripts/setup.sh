mamba install pytorch torchvision torchaudio pytorch-cuda -c pytorch -c nvidia
mamba install scipy scikit-image
mamba install -c conda-forge diffusers transformers ftfy accelerate
pip install opencv-python
pip install -U gradio
pip install pytorch-lightning einops omegaconf
pip install timm
