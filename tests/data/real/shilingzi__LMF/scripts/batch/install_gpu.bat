@echo off
pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu121
pause 