pip install -r requirements.txt --index-url=https://download.pytorch.org/whl/cu118 --extra-index-url=https://pypi.douban.com/simple/
pause