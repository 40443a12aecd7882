"""The Flask side, thin: a view parses a form (or a query), calls scorer/ (the game) or the store (the
SQLite file), and renders a page."""

__version__ = '1.0.0'         # the release: the package's version (pyproject.toml reads it here), /health, --version
