"""The Flask side: thin views over scorer/ (the game) and store (the SQLite file)."""
