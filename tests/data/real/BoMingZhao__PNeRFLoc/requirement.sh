# pip install torch==2.0.1 torchvision==0.15.2 --index-url https://download.pytorch.org/whl/cu118
pip install torch==1.13.1 torchvision==0.14.1 --extra-index-url https://download.pytorch.org/whl/cu116
pip install imageio scikit-image h5py, Ninja, prettytable
pip install matplotlib kornia tqdm inplace_abn open3d
pip install lpips --no-deps
pip install plyfile, einops, ipdb, torch_scatter