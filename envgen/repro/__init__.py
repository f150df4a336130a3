"""Reproducing other people's environments.

entry        `envgen import`: a file, a command line or a repository -> project.yaml
importer/    the front end: one reader per format -> Evidence -> resolution -> project.yaml
             (its __init__ maps the modules; a repository walk is importer/repository.py)
shell        a bounded interpreter of install scripts (bash, batch): their default route
carry        conda dependencies carried across to pip when an import moves to pip
wheels       which python every exact pin has a wheel for, as of the file's date
eras         facts about releases older than the matrix
reading      bounded reads of untrusted files
base_images  Docker base images -> torch / CUDA facts (base_image_rows: their row model)
"""
