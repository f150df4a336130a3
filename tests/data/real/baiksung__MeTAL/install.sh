# Change the cuda version if necessary
conda install pytorch=1.4.0 torchvision=0.2.1 cudatoolkit=10.1 -c pytorch
conda install -c conda-forge tensorboard
conda install numpy=1.19.2 scipy=1.1.0 matplotlib=3.2.1
conda install -c conda-forge pbzip2 pydrive
conda install pillow=7.1.2 tqdm
