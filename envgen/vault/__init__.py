"""The vault: every artifact a variant's lock names, kept so the lock still installs years on.

locks     the ONE adapter that reads a variant's lock files into what the vault needs
fetch     find a pinned file on its index (PEP 691 JSON or PEP 503 HTML) and download it
store     the vault directory: blobs by sha256, the PEP 503 index, the conda channel, the
          manifest, `gc` and `check`
s3        push and pull a vault to S3-compatible object storage (boto3)
pack      a built environment as one relocatable archive, and its unpacking

A vault is static files only: any web server, an S3 bucket or a plain folder serves it to pip,
uv and conda without envgen (see docs/how-to/keep-a-lock-installable.md).
"""
