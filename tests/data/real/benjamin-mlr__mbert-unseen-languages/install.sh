
conda create -n transfer python=3.6
source activate transfer
#conda install pytorch torchvision cudatoolkit=10.1 -c pytorch
pip install torch==1.5.1 torchvision==0.6.1
pip install scikit-learn==0.23
pip install gitpython
pip install tensorboardX
pip install gspread
pip install oauth2client
pip install boto3
pip install unidecode
pip install transformers==2.8.0
