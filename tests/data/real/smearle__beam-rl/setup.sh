# Bash script for installing dependencies

conda install pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch
python -m pip install -r requirements.txt
