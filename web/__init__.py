"""The Flask side: thin views over scorer/ (the game) and store (the SQLite file)."""

__version__ = '1.0.0'         # the release: the package's version (pyproject.toml reads it here), /health, --version
