# install pytorch cuda12.8 torch2.9.0

pip install torch torchvision torchaudio

pip install -r requirements.txt

pip install "Cython<3"