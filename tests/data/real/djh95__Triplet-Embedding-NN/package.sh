python 3.8
conda install pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch
pip install opencv-python
conda install -c conda-forge notebook
conda install -c conda-forge tensorboard
pip install git+https://github.com/philferriere/cocoapi.git#subdirectory=PythonAPI
pip install tqdm
pip install GPUtil
pip install jupyterplot
pip install genism
cp coco
