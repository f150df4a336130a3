pipenv run pip install torch==1.8.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html
