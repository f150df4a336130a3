export NCCL_DEBUG=""
# conda install pytorch==2.1.2 torchvision==0.16.2 torchaudio==2.1.2 pytorch-cuda=12.1 -c pytorch -c nvidia
# pip install transformers==4.42.4
pip install vllm==0.5.0
pip install deepspeed
pip install nltk
pip install numerize
pip install rouge-score
pip install torchtyping
pip install rich
pip install accelerate
pip install datasets
pip install sentencepiece
pip install protobuf
pip install peft