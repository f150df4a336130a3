pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/cu116
