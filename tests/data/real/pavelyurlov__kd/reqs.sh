pip install torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0 \
    transformers
pip install flash-attn --no-build-isolation
pip install datasets \
    accelerate \
    sentencepiece \
    peft \
    trl \
    evaluate rouge-score bert-score
pip install -U numpy pandas
pip install wandb clearml
pip install black
pip install qwen-vl-utils scikit-learn
