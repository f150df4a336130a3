pip install -e .
pip install -r requirements.txt