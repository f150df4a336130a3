pip install torch==2.6.0
pip install pillow==11.1.0
pip install torchvision==0.21.0
pip install transformers==4.37.2
pip install einops==0.6.1
pip install einops-exts==0.0.4
pip install timm==0.9.12
pip install bitsandbytes==0.42.0
pip install accelerate==1.5.2
pip install flash-attn --no-build-isolation