"""Infrastructure shared by the stages; no stage logic here.

proc       the only module that starts processes (argv lists, process groups, signals, redaction)
files      atomic writes and link-safe reads below the user's folder
mutex      the project lock (.envgen.lock)
network    the HTTP client
settings   the user's settings (environment variables), resolved once
safe_yaml  bounded YAML loading
resources  paths of shipped data (matrices/, templates/) and the cache
mirror     local PEP 503 mirrors of a wheel folder
progress   what each variant's long step is doing (events the CLI draws)
"""
