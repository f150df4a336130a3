pip install -r requirements.txt
# pip install torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0 --index-url https://download.pytorch.org/whl/cu124
pip install torch==2.3.1 torchvision==0.18.1 --index-url https://download.pytorch.org/whl/cu121
pip install natten==0.17.1+torch230cu121 -f https://shi-labs.com/natten/wheels/
pip install timm==0.6.12

python models/deep_hough_transform/dht_module/_cdht/setup.py install
python models/deep_hough_transform/idht_module/_ciht/setup.py install

git config --global user.name "Elm Forest"
git config --global user.email  timbrightland@gmail.com