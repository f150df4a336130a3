conda install pytorch torchvision -c pytorch
conda install -c anaconda numpy
conda install -c anaconda scipy
conda install -c anaconda pillow
conda install -c anaconda cython
conda install -c conda-forge matplotlib
conda install -c anaconda scikit-image
conda install -c conda-forge opencv
conda install -c anaconda ipython
conda install -c conda-forge tqdm
conda install -c anaconda scikit-learn
conda install -c anaconda pandas
