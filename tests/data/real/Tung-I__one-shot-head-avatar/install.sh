conda install pytorch torchvision torchaudio pytorch-cuda=11.8 -c pytorch -c nvidia
pip install onnx
pip install onnxruntime-gpu
pip install opencv-python
pip install scikit-learn
pip install scikit-image
pip install kornia
pip install trimesh
BASICSR_EXT=True BASICSR_JIT=True pip install basicsr
pip install torchvision==0.15.1
pip install "git+https://github.com/facebookresearch/pytorch3d.git"
