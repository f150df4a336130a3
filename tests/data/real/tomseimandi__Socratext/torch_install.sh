#!/bin/bash
pip install torch --force-reinstall --index-url https://download.pytorch.org/whl/cu118
pip install torchvision --force-reinstall --index-url https://download.pytorch.org/whl/cu118