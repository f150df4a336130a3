# conda create -n p312 python=3.12 --yes
conda activate p312
conda install --yes --file requirements.txt