pip install torch==1.10.1+cu111 torchvision==0.11.2+cu111 -f https://download.pytorch.org/whl/cu111/torch_stable.html
pip install pytorch_lightning==1.5.10 lpips test-tube
pip install opencv-python matplotlib kornia
pip install -U scikit-learn
pip install omegaconf addict einops faiss-gpu opencv-python imageio-ffmpeg
pip install git+https://github.com/NVlabs/tiny-cuda-nn/#subdirectory=bindings/torch
