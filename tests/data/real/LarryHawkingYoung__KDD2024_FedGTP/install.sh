conda install -y numpy pandas jupyter matplotlib scikit-learn tqdm networkx
conda install -y pytorch torchvision cudatoolkit -c pytorch