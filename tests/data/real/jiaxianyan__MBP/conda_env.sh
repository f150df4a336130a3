conda install pytorch==1.9.0 torchvision==0.10.0 torchaudio==0.9.0 cudatoolkit=10.2 -c pytorch
conda install -y -c dglteam dgl-cuda10.2
conda install -y -c conda-forge prody
conda install -y -c conda-forge openbabel
conda install -y -c rdkit rdkit
conda install -y -c conda-forge biopandas
conda install -y -c anaconda yaml
conda install -y -c conda-forge pyyaml
conda install -y -c conda-forge easydict
conda install -y -c conda-forge psutil
conda install -y -c conda-forge gpustat
conda install -y -c conda-forge tqdm
conda install -y -c anaconda joblib
conda install -y -c anaconda scikit-learn
