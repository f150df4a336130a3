pip install torch==1.11+cu113 torchvision==0.12 torchaudio==0.11.0 -f https://download.pytorch.org/whl/torch_stable.html
pip install keras==2.7.0
pip install opencv-python==4.5.5.64
pip install pandas==1.3.1
pip install Pillow==8.2.0
pip install scikit-learn==0.24.2
pip install scikit-image==0.18.1
pip install tqdm==4.61.0
pip install pyyaml==5.4.1
pip install tensorboard==2.7.0
pip install Kornia==0.5.0
pip install imageio
pip install seaborn==0.11.2
pip install shap==0.40.0
pip install grad-cam==1.3.9