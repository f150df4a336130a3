conda create -n torch python=3.6
conda install pytorch torchvision cudatoolkit=10.1 -y -c pytorch
conda install -y pandas
conda install -y -c anaconda numpy
conda install -y -c conda-forge tensorflow
conda install -y -c conda-forge nibabel
conda install -y -c conda-forge tqdm
conda install -y -c conda-forge typed-ast
conda install -y -c conda-forge imageio
conda install -y -c conda-forge ipython
conda install -y -c conda-forge matplotlib
conda install -y -c conda-forge scikit-image
conda install -y -c conda-forge pillow