pip install torch==1.9.1+cu111 torchvision==0.10.1+cu111 torchaudio==0.9.1 -f https://download.pytorch.org/whl/torch_stable.html
pip install transformers==4.25.1
pip install nltk spacy==2.1.6
pip install torch-scatter==2.0.9 -f https://data.pyg.org/whl/torch-1.9.1+cu111.html
pip install torch-sparse==0.6.12 -f https://data.pyg.org/whl/torch-1.9.1+cu111.html
pip install torch-geometric==2.1.0 -f https://data.pyg.org/whl/torch-1.9.1+cu111.html
pip install wandb
pip install rouge
pip install tensorboardX
python -m pip install -U matplotlib

