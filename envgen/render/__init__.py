"""The render stage: variants -> files. Deterministic text; writes go through envgen.infra.files.

base          the generated-file header, index URLs (index_urls, conda_channel_map), FORMAT_VERSION
templating    the subset of Jinja2 the templates use, rendered without importing Jinja2
plan          which files a spec generates, and writing them (what `envgen lock --pins-only` writes)
requirements  requirements.txt (pip pins)
environment   environment.yml (conda)
makefile      the project's Makefile
commands      install commands a user would type (pip / conda lines)
dockerfile    Dockerfiles and their base images
ci            CI workflows (GitHub, GitLab)
export        uv / pixi project files
"""
