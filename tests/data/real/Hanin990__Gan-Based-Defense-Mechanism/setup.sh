pip install -r requirements.txt
pip install torch==1.12.1+cu116 torchvision==0.13.1+cu116 torchaudio==0.12.1 --extra-index-url https://download.pytorch.org/whl/
pip install matplotlib==3.5
pip install pandas==1.2.5
pip install numpy==1.19.5
pip install evaluate
pip install wandb
pip install datasets
pip install transformers==4.25.1