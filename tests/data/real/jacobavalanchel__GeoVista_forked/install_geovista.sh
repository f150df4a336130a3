pip install torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0
pip install pyarrow==19.0.0 
pip install tiktoken==0.8.0
pip install langchain==0.3.27
pip install evaluate
pip install blake3
pip install depyf==0.18.0
pip install llguidance==0.7.9
pip install python-json-logger
pip install torchaudio==2.6.0
pip install xgrammer
pip install compressed-tensors==0.9.2
pip install lm-format-enforcer==0.10.11
pip install mistral_common[opencv]==1.5.4
pip install numba==0.60.0
pip install outlines==0.1.11
pip install ray==2.42.1
pip install vllm==0.8.2 --no-deps
pip install -U pynvml
pip install mathruler
pip install pydantic --upgrade
pip install openai --upgrade
pip install tensordict==0.6.2
pip install triton==3.2.0
pip install qwen_vl_utils --no-deps
pip install math_verify
pip install trl==0.14.0
pip install validators
pip install matplotlib
pip install tabulate
pip install sty
pip install maze_dataset
pip install langchain-openai==0.3.29
pip install pillow
pip install autogen
pip install pyautogen
pip install google-generativeai==0.8.5
pip install transformers==4.51.0 datasets==3.3.2
# pip install click==8.2.1
