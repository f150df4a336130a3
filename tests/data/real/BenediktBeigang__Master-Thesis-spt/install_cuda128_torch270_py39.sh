#!/bin/bash

# Local variables
PROJECT_NAME=spt_cuda128
PYTHON=3.9
TORCH=2.7.0
CUDA_SUPPORTED=(12.8)
NUMPY=1.26.4

# Check if torchsparse should be installed
INSTALL_TORCHSPARSE=false
if [[ "$1" == "with_torchsparse" ]]; then
    INSTALL_TORCHSPARSE=true
elif [[ -n "$1" ]]; then
    echo "Unknown argument: $1"
    echo "Usage: ./install.sh [with_torchsparse]"
    echo "  with_torchsparse: Install TorchSparse (optional dependency)"
    exit 1
fi


# Recover the project's directory from the position of the install.sh
# script and move there. Not doing so would install some dependencies in
# the wrong place
HERE=`dirname $0`
HERE=`realpath $HERE`
cd $HERE


# Installation of Superpoint Transformer in a conda environment
echo "_____________________________________________"
echo
echo "         🧩 Superpoint Transformer 🤖        "
echo "                  Installer                  "
echo
echo "_____________________________________________"
echo
echo
echo "⭐ Searching for installed CUDA"
echo
# Recover the CUDA version using nvcc
CUDA_VERSION=`nvcc --version | grep release | sed 's/.* release //' | sed 's/, .*//'`
CUDA_MAJOR=`echo ${CUDA_VERSION} | sed 's/\..*//'`
CUDA_MINOR=`echo ${CUDA_VERSION} | sed 's/.*\.//'`

# If CUDA version not supported, print error and exit
if [[ ! " ${CUDA_SUPPORTED[*]} " =~ " ${CUDA_VERSION} " ]]
then
    echo "Found CUDA ${CUDA_VERSION} installed, which is not among the supported versions: "`echo ${CUDA_SUPPORTED[*]}`
    echo "Please update CUDA to one of the supported versions."
    exit 1
fi

echo
echo
echo "⭐ Searching for installed conda"
echo
# Recover the path to conda on your machine
# First search the default '~/miniconda3' and '~/anaconda3' paths. If
# those do not exist, ask for user input
CONDA_DIR=`realpath ~/miniconda3`
if (test -z $CONDA_DIR) || [ ! -d $CONDA_DIR ]
then
  CONDA_DIR=`realpath ~/anaconda3`
fi

while (test -z $CONDA_DIR) || [ ! -d $CONDA_DIR ]
do
    echo "Could not find conda at: "$CONDA_DIR
    read -p "Please provide your conda install directory: " CONDA_DIR
    CONDA_DIR=`realpath $CONDA_DIR`
done

echo "Using conda conda found at: ${CONDA_DIR}/etc/profile.d/conda.sh"
source ${CONDA_DIR}/etc/profile.d/conda.sh

echo
echo
echo "⭐ Creating conda environment '${PROJECT_NAME}'"
echo
# Create deep_view_aggregation environment from yml
conda create --name ${PROJECT_NAME} python=${PYTHON} -y

# Activate the env
source ${CONDA_DIR}/etc/profile.d/conda.sh  
conda activate ${PROJECT_NAME}

echo
echo
echo "⭐ Pinning build/runtime basics (pip/setuptools/numpy) with constraints"
echo

CONSTRAINTS_FILE="$HERE/constraints_${PROJECT_NAME}.txt"
cat > "$CONSTRAINTS_FILE" <<EOF
numpy==${NUMPY}
setuptools<81
EOF

# Make every subsequent pip install obey the constraints automatically
export PIP_CONSTRAINT="$CONSTRAINTS_FILE"

python -m pip install -U pip
python -m pip install -U wheel "setuptools<81"
python -m pip install -U "numpy==${NUMPY}"
python -c "import numpy; print('Pinned numpy:', numpy.__version__)"

echo
echo
echo "⭐ Installing conda and pip dependencies"
echo
conda install pip nb_conda_kernels -y
pip install matplotlib
pip install plotly==5.9.0
pip install "jupyterlab>=3" "ipywidgets>=7.6" jupyter-dash
pip install "notebook>=5.3" "ipywidgets>=7.5"
pip install ipykernel
pip3 install torch==${TORCH} torchvision --index-url https://download.pytorch.org/whl/cu${CUDA_MAJOR}${CUDA_MINOR}
pip install torchmetrics==0.11.4
pip install pyg_lib torch_scatter torch_cluster -f https://data.pyg.org/whl/torch-${TORCH}+cu${CUDA_MAJOR}${CUDA_MINOR}.html
pip install torch_geometric==2.3.0
pip install plyfile
pip install h5py
pip install colorhash
pip install seaborn
pip install numba
pip install pytorch-lightning
pip install pyrootutils
pip install hydra-core --upgrade
pip install hydra-colorlog
pip install hydra-submitit-launcher
pip install "rich<=14.0"
pip install torch_tb_profiler
pip install wandb
pip install open3d
pip install gdown
pip install ipyfilechooser
pip install torch-ransac3d
pip install pgeof
pip install pycut-pursuit
pip install pygrid-graph
pip install torch-graph-components
pip install laspy

echo
echo
echo "⭐ Installing FRNN"
echo

FRNN_DIR="src/dependencies/FRNN"

# 1) clone or update (idempotent)
if [ -d "$FRNN_DIR/.git" ]; then
  echo "FRNN already exists -> updating"
  git -C "$FRNN_DIR" pull
  git -C "$FRNN_DIR" submodule update --init --recursive
else
  rm -rf "$FRNN_DIR"
  git clone --recursive https://github.com/lxxue/FRNN.git "$FRNN_DIR"
fi

# 2) build/install with torch available (disable build isolation)
python -c "import torch; print('Torch:', torch.__version__); print('CUDA:', torch.cuda.is_available())"

# install prefix_sum first
pip install --no-build-isolation -v "$FRNN_DIR/external/prefix_sum"

# install FRNN
pip install --no-build-isolation -v "$FRNN_DIR"

# install TorchSparse (optional)
if [[ "$INSTALL_TORCHSPARSE" == true ]]; then
    echo
    echo
    echo "⭐ Installing TorchSparse"
    echo
    git clone https://github.com/mit-han-lab/torchsparse.git src/dependencies/torchsparse
    pip install backports.cached-property
    pip install rootpath
    conda install -y google-sparsehash -c bioconda
    cd src/dependencies/torchsparse
    pip install .
    cd ../../../
fi

# let user know
echo
echo
echo "🚀 Successfully installed SPT"

echo
echo "⭐ Verifying environment consistency"
python -m pip check || true
python -c "import numpy; print('Final numpy:', numpy.__version__)"
python -c "import pycut_pursuit; print('pycut_pursuit import OK')" || true
