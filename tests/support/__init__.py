"""envgen test support: fake wheels, PyTorch-like indexes, an HTTP server, conda channels."""
