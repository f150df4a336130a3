pip install torch torchvision torchaudio --extra-index-url https://download.pytorch.org/whl/cu113
pip install transformers datasets
pip install jsons appdirs blobfile cached-property httpx typer whoosh more_itertools jupyter openai
pip install --upgrade protobuf==3.20.0