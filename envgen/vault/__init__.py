"""The vault: every artifact a variant's lock names, kept so the lock still installs years on.

locks     the ONE adapter that reads a variant's lock files into what the vault needs
store     the vault directory: blobs by sha256, the PEP 503 index, the conda channel, the
          manifest, `gc` and `check`
s3        push and pull a vault to S3-compatible object storage (boto3)
pack      a built environment as one relocatable archive, and its unpacking
orchestrate  what `envgen vault` and `envgen build --vault` do per variant

Index pages are read and files downloaded by envgen.infra.simple_api (shared with pylock.toml).

A vault is static files only: any web server, an S3 bucket or a plain folder serves it to pip,
uv and conda without envgen (see docs/how-to/keep-a-lock-installable.md).
"""
