"""Whole numbers as people type them: ASCII digits only, and never more than a game can hold."""

from .limits import MAX_NUMBER_DIGITS


def read_whole(text, most):
    """A whole number from 0 to `most` written in ASCII digits ('12', ' 7 '), else None.

    '３' (a full-width digit), '٣' (Arabic-Indic), '1_0', '+5', '1.0' and a number of 4,301
    digits are not numbers here: int() would take some of them, a form must not.
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 0 <= text <= most else None
    if not isinstance(text, str):
        return None
    word = text.strip()
    if not word or len(word) > MAX_NUMBER_DIGITS or not (word.isascii() and word.isdigit()):
        return None
    value = int(word)
    return value if value <= most else None
