# This file will contain everything required to setup and be able run EXPERIMENT.sh on a reasonable linux machine

# PyTorch 1.7.0 framework: https://pytorch.org/get-started/locally/
pip install torch===1.7.0 torchvision===0.8.1 torchaudio===0.7.0 -f https://download.pytorch.org/whl/torch_stable.html

# Transformers for convenient Transfer Learning models
pip install transformers
