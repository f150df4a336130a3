python3 -m venv SuryaKiran_taskA_venv

source SuryaKiran_taskA_venv/bin/activate
pip install -r requirements.txt

deactivate
