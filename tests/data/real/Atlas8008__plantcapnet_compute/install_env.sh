conda create -n plantcapnet_c python==3.10 r
conda activate plantcapnet_c
conda install -c conda-forge r-vegan
pip install -r requirements.txt