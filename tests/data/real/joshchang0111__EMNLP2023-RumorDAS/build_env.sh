pip install ipdb
pip install tqdm
pip install wandb
pip install emoji
pip install numpy
pip install scipy
pip install pandas
pip install sklearn
pip install matplotlib

# ** NLP Tools **
pip install nltk
pip install rouge-score
pip install tweet-preprocessor

# ** Hugging Face **
pip install transformers==4.18.0
pip install datasets
pip install evaluate

# ** PyTorch **
pip install torch==1.11.0+cu102 --extra-index-url https://download.pytorch.org/whl/cu102
pip install torch-cluster==1.6.0 -f https://data.pyg.org/whl/torch-1.11.0+cu102.html
pip install torch-scatter==2.0.9 -f https://data.pyg.org/whl/torch-1.11.0+cu102.html
pip install torch-sparse==0.6.15 -f https://data.pyg.org/whl/torch-1.11.0+cu102.html
pip install torch-geometric==2.2.0