#!/bin/bash
sudo apt-get update \
    && apt-get install -y --no-install-recommends \
        build-essential \
        curl \
        libcudnn7=${CUDNN}+cuda${CUDA} \
        libfreetype6-dev \
        libhdf5-serial-dev \
        libzmq3-dev \
        pkg-config \
        software-properties-common \
        zip \
        unzip

# Repo dependencies    
sudo apt-get update -y \
    && sudo apt-get install -y --no-install-recommends \
        build-essential \
        curl \
        git \
        gnupg2 \
        make \
        cmake \
        ffmpeg \
        swig \
        libz-dev \
        unzip \
        zlib1g-dev \
        libglfw3 \
        libglfw3-dev \
        libxrandr2 \
        libxinerama-dev \
        libxi6 \
        libxcursor-dev \
        libgl1-mesa-dev \
        libgl1-mesa-glx \
        libglew-dev \
        libosmesa6-dev \
        lsb-release \
        ack-grep \
        patchelf \
        vim \
        wget \
        xpra \
        xserver-xorg-dev \
        xvfb


conda config --set restore_free_channel true
conda env update -f oyster/docker/environment.yml \
    && conda clean --all -y
