pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 --index-url https://download.pytorch.org/whl/cu121 

pip install --no-build-isolation flash-attn==2.7.3 

pip install video2dataset==1.3.0 --no-deps