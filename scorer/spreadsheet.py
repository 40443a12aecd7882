"""CSV for spreadsheet programs, safe to open: a text cell that begins like a formula (=, +, -, @,
tab, CR) is written with a leading apostrophe, as OWASP advises, so opening the file never runs
anything. The game's CSV (web/export.py) and the table's (scorer/tablefile.py) write with it."""

import csv

FORMULA_START = ('=', '+', '-', '@', '\t', '\r')


def cell(value):
    """A CSV cell that a spreadsheet shows as text, never runs as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose text cells are made safe for spreadsheets."""

    def __init__(self, out, delimiter=','):
        self.writer = csv.writer(out, delimiter=delimiter)

    def writerow(self, row):
        self.writer.writerow([cell(v) for v in row])
