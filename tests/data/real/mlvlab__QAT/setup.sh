pip install torch==1.8.1+cu102 -f https://download.pytorch.org/whl/cu102/torch_stable.html
pip install torch-scatter==2.0.6 -f https://data.pyg.org/whl/torch-1.8.1+cu102.html
pip install torch-sparse==0.6.9 -f https://data.pyg.org/whl/torch-1.8.1+cu102.html
pip install torch-cluster==1.5.9 -f https://data.pyg.org/whl/torch-1.8.1+cu102.html
pip install torch-spline-conv==1.2.1 -f https://data.pyg.org/whl/torch-1.8.1+cu102.html
pip install torch-geometric==1.7.0 -f https://data.pyg.org/whl/torch-1.8.1+cu102.html
pip install transformers==2.2.0
pip install nltk spacy sentencepiece numpy tqdm tensorboard
python -m spacy download en
