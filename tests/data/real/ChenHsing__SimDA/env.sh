pip install torch==1.12.1
pip install torchvision==0.13.1
pip install diffusers[torch]==0.11.1
pip install transformers>=4.25.1
pip install bitsandbytes==0.35.4
pip install decord==0.6.0
pip install accelerate
pip install tensorboard
pip install modelcards
pip install omegaconf
pip install einops
pip install imageio
pip install ftfy
pip install torch==1.12.0+cu116 torchvision==0.13.0+cu116 torchaudio==0.12.0 --extra-index-url https://download.pytorch.org/whl/cu116
pip install -U xformers
