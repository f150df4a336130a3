"""Reproducing other people's environments, and judging machines.

entry        `envgen import`: a file, a command line or a repository -> project.yaml
importer     environment files (requirements, environment.yml, setup.py, ...) -> a project.yaml
formats      the less common formats, turned into what importer understands
repository   a whole repository: find its environment files, merge them
reading      bounded reads of untrusted files
base_images  Docker base images -> torch / CUDA facts (base_image_rows: their row model)
doctor       the host's driver and GPUs against a variant
verify       matrix rows against what the indexes serve
"""
