pip install -r ./requirements.txt
