conda install pytorch torchvision torchaudio -c pytorch
conda install mamba -n base -c conda-forge
mamba install -c conda-forge librosa=0.8.1
mamba install -c conda-forge pydub=0.23.1
mamba install -c conda-forge PyAudio=0.2.11
mamba install -c conda-forge requests
mamba install -c conda-forge matplotlib
mamba install -c conda-forge numpy=1.21.2
mamba install -c conda-forge scipy=1.7.3
mamba install -c conda-forge mysql-connector-python=8.0.28
mamba install -c conda-forge requests=2.27.1
mamba install -c conda-forge termcolor
mamba install -c conda-forge tqdm
mamba install -c conda-forge fastapi

