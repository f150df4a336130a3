
pip install numpy
pip install matplotlib
pip install pandas
pip install tqdm
pip install seaborn

pip install scikit-learn
pip install scikit-optimize

pip install spacy
pip install portalocker
pip install ray[tune]
pip install emoji

pip install lightgbm
pip install catboost
pip install ngboost

pip install transformers[torch]
pip install xformers

