# conda activate ...

pip install -r requirements.txt

# cuda 11.7
conda install pytorch torchvision torchaudio pytorch-cuda=11.7 -c pytorch -c nvidia

# cpu only
#conda install pytorch torchvision cpuonly -c pytorch

