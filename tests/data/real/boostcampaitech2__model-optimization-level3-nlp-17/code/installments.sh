#!/bin/bash

pip install torch==1.6.0
pip install torchvision==0.7.0
pip install optuna==2.4.0
pip install pandas==1.1.5
pip install scikit-learn==0.24.1
pip install psycopg2-binary
pip install numpy
pip install Cython==0.29.24
pip install pre-commit==2.9.3
pip install split-folders==0.4.3
pip install ptflops
pip install matplotlib
pip install ipywidgets