conda install -c anaconda cudnn=7.6.5 cudatoolkit=10.0.130 -y
conda install -c pytorch pytorch torchvision -y
conda install lightgbm numpy scikit-learn tqdm opencv matplotlib pandas pillow=6.2.1 scipy=1.1.0 -y
conda install -c conda-forge imgaug=0.3.0 tensorboardX -y
pip install keras==2.1.5 keras-applications==1.0.8 keras-preprocessing==1.1.0 keras-resnet==0.1.0 tensorflow-gpu==1.15.2