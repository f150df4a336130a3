#pip install torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0 --index-url https://download.pytorch.org/whl/cu124
pip install transformers
pip install accelerate
pip install bitsandbytes
pip install scikit-learn
pip install tensorboard
pip install peft
pip install pandas
pip install pycocotools
pip install librosa