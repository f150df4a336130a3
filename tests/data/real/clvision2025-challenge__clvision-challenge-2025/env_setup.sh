pip install transformers==4.40.0
pip install torch==2.2.1 torchvision xformers==0.0.25 --index-url https://download.pytorch.org/whl/cu118
pip install flash-attn==2.5.7 --no-build-isolation
pip install peft==0.11.0 ftfy onedrivedownloader bitsandbytes pandas kornia opencv-python timm torch_optimizer easydict pycocoevalcap sentencepiece protobuf trl==0.8.6 deepspeed==0.14.0 loguru captum POT jsonlines
pip install -U scikit-learn
