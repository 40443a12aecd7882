"""Player names: text, not tricks. NFC, no control or format characters, no two alike at a table.

A name is kept in Unicode's composed form (NFC), with control and format characters taken out
(a NUL byte, a right-to-left override that would flip the rest of a line, a zero-width space),
and white space folded to single spaces. The zero-width joiner stays: emoji such as 👩‍👩‍👧 are
made with it. Two names at one table may not look the same: not 'Ana' and 'ana', nor 'Ana' and
'Аna' with a Cyrillic А (Unicode's table of confusable characters, from the
`confusable-homoglyphs` package: a letter of another script that looks like a Latin one
counts as that Latin letter).
"""

import re
import unicodedata
from functools import lru_cache

from .i18n import _, ngettext
from .limits import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS

ZWJ = '\u200d'


class BadName(ValueError):
    """A name, or a list of names, that cannot be used; the message says why."""


def clean_name(text):
    """The name as it is kept: NFC, no control or format character (but the emoji joiner), spaces folded."""
    text = unicodedata.normalize('NFC', text)
    kept = ''.join(c for c in text if c == ZWJ or unicodedata.category(c) not in ('Cc', 'Cf', 'Cs', 'Co', 'Cn')
                   or c in ' \t\n')
    return re.sub(r'\s+', ' ', kept).strip()


def look(name):
    """What a name looks like, for telling two apart: case folded, compatibility forms and joiners gone."""
    return unicodedata.normalize('NFKC', name).casefold().replace(ZWJ, '')


@lru_cache(maxsize=4096)
def latin_twin(char):
    """The Latin letter a character of another script looks like ('А' Cyrillic: 'A'), else the character.
    Its table (900 KB of JSON, read as the module is imported) is imported when a name is first checked:
    the phone's scorer, started on every page, would read it on each (docs/speed.md)."""
    from confusable_homoglyphs import confusables
    found = confusables.is_confusable(char, preferred_aliases=['latin'], greedy=True)
    for homoglyph in (found[0]['homoglyphs'] if found else ()):
        if homoglyph['n'].startswith('LATIN '):
            return homoglyph['c']
    return char


def skeleton(name):
    """What a name looks like on screen: each look-alike letter as its Latin twin, then look()."""
    return look(''.join(latin_twin(c) for c in look(name)))


def looks_the_same(a, b):
    return look(a) == look(b) or skeleton(a) == skeleton(b)


def check_names(names):
    """Players: 2-8 names, cleaned, none empty, none longer than MAX_NAME, no two that look the same."""
    names = [clean_name(n) for n in names]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadName(_('a game has 2 to 8 players, not %(count)d', count=len(names)))
    for i, name in enumerate(names):
        if not name:
            raise BadName(_('a player has no name'))
        if len(name) > MAX_NAME:
            raise BadName(ngettext("'%(name)s…' is longer than %(most)d character",
                                   "'%(name)s…' is longer than %(most)d characters", MAX_NAME,
                                   name=name[:MAX_NAME], most=MAX_NAME))
        for other in names[:i]:
            if look(name) == look(other):
                raise BadName(_("two players are called '%(name)s'", name=name))
            if looks_the_same(name, other):
                raise BadName(_("'%(name)s' looks the same as '%(other)s': tell them apart (add an initial)",
                                   name=name, other=other))
    return tuple(names)
