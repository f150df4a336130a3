call "D:\AI_VENV_4D_TEST\py39_torch1.11.0_cu113_env\Scripts\activate.bat"
python -mpip install torch==1.11.0+cu113 torchvision==0.12.0+cu113 torchaudio==0.11.0 --extra-index-url https://download.pytorch.org/whl/cu113
@echo -----------------------------------------------
@echo --------- YOU CAN CLOSE THIS WINDOW  ----------
@echo -----------------------------------------------