conda install pytorch torchvision torchaudio cudatoolkit=11.3 -c pytorch
n
