    "stable,pip,linux,cudanone,python2.7":
      "pip install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp27-cp27mu-linux_x86_64.whl<br/>pip install torchvision <br/><br/> # if the above command does not work, then you have python 2.7 UCS2, use this command<br/>pip install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp27-cp27m-linux_x86_64.whl",

    "stable,pip,linux,cuda8,python2.7":
      "pip install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp27-cp27mu-linux_x86_64.whl<br/>pip install torchvision<br/><br/># if the above command does not work, then you have python 2.7 UCS2, use this command<br/>pip install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp27-cp27m-linux_x86_64.whl",

    "stable,pip,linux,cuda9.0,python2.7": "pip install torch torchvision",

    "stable,pip,linux,cuda9.2,python2.7":
      "pip install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp27-cp27mu-linux_x86_64.whl<br/>pip install torchvision<br/><br/># if the above command does not work, then you have python 2.7 UCS2, use this command<br/>pip install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp27-cp27m-linux_x86_64.whl",

    "stable,pip,linux,cudanone,python3.5":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp35-cp35m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda8,python3.5":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp35-cp35m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda9.0,python3.5": "pip3 install torch torchvision",

    "stable,pip,linux,cuda9.2,python3.5":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp35-cp35m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cudanone,python3.6":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp36-cp36m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda8,python3.6":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp36-cp36m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda9.0,python3.6": "pip3 install torch torchvision",

    "stable,pip,linux,cuda9.2,python3.6":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp36-cp36m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cudanone,python3.7":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1.post2-cp37-cp37m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda8,python3.7":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1.post2-cp37-cp37m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,linux,cuda9.0,python3.7": "pip3 install torch torchvision",

    "stable,pip,linux,cuda9.2,python3.7":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1.post2-cp37-cp37m-linux_x86_64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cudanone,python2.7":
      "# PyTorch does not support Python 2.7 on Windows. Please install with Python 3.",

    "stable,pip,windows,cuda8,python2.7":
      "# PyTorch does not support Python 2.7 on Windows. Please install with Python 3.",

    "stable,pip,windows,cuda9.0,python2.7":
      "# PyTorch does not support Python 2.7 on Windows. Please install with Python 3.",

    "stable,pip,windows,cuda9.2,python2.7":
      "# PyTorch does not support Python 2.7 on Windows. Please install with Python 3.",

    "stable,pip,windows,cudanone,python3.5":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp35-cp35m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda8,python3.5":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp35-cp35m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.0,python3.5":
      "pip3 install http://download.pytorch.org/whl/cu90/torch-0.4.1-cp35-cp35m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.2,python3.5":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp35-cp35m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cudanone,python3.6":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp36-cp36m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda8,python3.6":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp36-cp36m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.0,python3.6":
      "pip3 install http://download.pytorch.org/whl/cu90/torch-0.4.1-cp36-cp36m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.2,python3.6":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp36-cp36m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cudanone,python3.7":
      "pip3 install http://download.pytorch.org/whl/cpu/torch-0.4.1-cp37-cp37m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda8,python3.7":
      "pip3 install http://download.pytorch.org/whl/cu80/torch-0.4.1-cp37-cp37m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.0,python3.7":
      "pip3 install http://download.pytorch.org/whl/cu90/torch-0.4.1-cp37-cp37m-win_amd64.whl<br/>pip3 install torchvision",

    "stable,pip,windows,cuda9.2,python3.7":
      "pip3 install http://download.pytorch.org/whl/cu92/torch-0.4.1-cp37-cp37m-win_amd64.whl<br/>pip3 install torchvision",
