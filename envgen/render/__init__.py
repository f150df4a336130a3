"""The render stage: variants -> files. Deterministic text; writes go through envgen.infra.files.

header        the generated-file header (Header, parse_header, regenerate_command), FORMAT_VERSION
indexes       index URLs and channels: the spec's or the user's mirrors (index_urls, IndexUrls,
              conda_channel_map)
templating    render_template: the templates in templates/, through the subset of Jinja2 they use
              (no Jinja2 import) or through Jinja2
plan          which files a spec generates, and writing them (what `envgen lock --pins-only` writes)
requirements  requirements.txt (pip pins)
environment   environment.yml (conda)
makefile      the project's Makefile
commands      install commands a user would type (pip / conda lines)
dockerfile    Dockerfiles and their base images
ci            CI workflows (GitHub, GitLab)
export        uv / pixi project files
"""
