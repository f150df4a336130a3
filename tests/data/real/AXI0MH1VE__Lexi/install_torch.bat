@echo off
call d:\lex7\env\Scripts\activate.bat
pip install torch torchvision torchaudio
echo Torch installed.
