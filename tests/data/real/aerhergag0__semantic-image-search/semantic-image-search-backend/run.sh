pip install fastapi
pip install uvicorn
pip install sqlmodel
pip install pgvector
pip install pydantic-settings
pip install psycopg2-binary
pip install transformers[torch]
pip install -U sentence-transformers
pip install numpy==1.25.2
pip install datasets
pip install torch==2.2.0 torchvision==0.17.0 torchaudio==2.2.0 --index-url https://download.pytorch.org/whl/cpu
#pip install torch==2.2.0 --no-cache-dir
pip install python-multipart