# python3 -m venv venv
# source venv/bin/activate
pip install --upgrade pip
pip install --no-cache-dir torch torchvision --index-url https://download.pytorch.org/whl/cpu
pip install -r requirements.txt