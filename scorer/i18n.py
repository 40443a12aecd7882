"""Words for people in the table's language: _() and ngettext() for scorer's messages; the caller
picks the language.

scorer/ marks every message with _() (or ngettext() where a number decides the form) and
stays free of Flask: a caller chooses the language with ask(source), where source() gives
(gettext translations, language code) for the current context. Without one, messages are
English. Placeholders are named, as in gettext: '%(card)s'.
"""

import gettext
import os
from contextvars import ContextVar

_translations = ContextVar('translations', default=None)
_language = ContextVar('language', default='en')
_source = None


def ask(source):
    """Ask `source()` for (translations, language) whenever none were set; a web app
    passes one that reads its current request, so nothing is done for requests that say nothing."""
    global _source
    _source = source


class speaking:
    """Messages from these translations, in this language, inside the block: for a caller with no
    request to ask (the phone's offline worker, each line of `solve --jsonl`). A class, not a
    generator: entered once a line of a batch, it costs a third of what @contextmanager did."""

    __slots__ = ('translations', 'language', 'told')

    def __init__(self, translations, language):
        self.translations, self.language = translations, language

    def __enter__(self):
        self.told = _translations.set(self.translations), _language.set(self.language)

    def __exit__(self, *exc):
        _translations.reset(self.told[0])
        _language.reset(self.told[1])


# The compiled catalogs, beside scorer/: a plain path (pathlib and what it imports were 8 % of the
# instructions `python -m scorer solve --jsonl` spends starting, callgrind).
CATALOGS = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), 'translations')


def catalog(language):
    """The compiled catalog of a language for a caller without Flask (the command line); English, or a
    catalog not compiled yet (make catalogs), gives the messages as written."""
    if language == 'en':
        return None
    return gettext.translation('messages', CATALOGS, [language], fallback=True)


def current():
    t = _translations.get()
    if t is None and _source is not None:
        return _source()
    return t, _language.get()


def language():
    return current()[1]


def _(message, /, **values):
    """The message in the current language, its %(name)s placeholders filled."""
    t = current()[0]
    out = t.gettext(message) if t is not None else message
    return out % values if values else out


def pgettext(context, message, /, **values):
    """The message in the current language as it reads in this context (one English text that
    serves two places: a sentence, and a part of a "·" line)."""
    t = current()[0]
    out = t.pgettext(context, message) if t is not None else message
    return out % values if values else out


def ngettext(singular, plural, n, /, **values):
    """The singular or plural message for n (languages differ in where the plural starts)."""
    t = current()[0]
    out = t.ngettext(singular, plural, n) if t is not None else (singular if n == 1 else plural)
    return out % {'num': n, **values}


def N_(text):
    """Mark a message for translation without translating it yet (translated where it is shown)."""
    return text


def listing(items, alternatives=False):
    """'8♥', '8♥ and 10♥', '8♥, 9♥ and 10♥' (names of players, cards or melds); with
    `alternatives`, '8♥ or 10♥'. In Spanish the word follows the sound that comes next: Ana e
    Inés, K♠ u 8♥."""
    items = list(items)
    if len(items) <= 1:
        return ''.join(items)
    word = _('or') if alternatives else _('and')
    return ', '.join(items[:-1]) + ' ' + euphonic(word, items[-1]) + ' ' + items[-1]


def sentence(message, names=()):
    """A message shown as a whole line, shaped as a sentence: a capital first letter and a full stop
    at the end ('una partida tiene de 2 a 8 jugadores, no 1' → 'Una partida tiene de 2 a 8
    jugadores, no 1.'). A message that starts with one of `names` (or a quoted text) keeps it as the
    player typed it; one that ends in . ? ! … or : already ends."""
    text = str(message).strip()
    if not text:
        return text
    if text[0].islower() and not any(text.startswith(str(name)) for name in names if name):
        text = text[0].upper() + text[1:]
    return text if text[-1] in '.?!…:' else text + '.'


def euphonic(word, following):
    """Spanish y before an i sound is e (Ana e Inés, not before a diphthong: Ana y Hierro), and o
    before an o sound is u (siete u ocho, K♠ u 8♥)."""
    if language() != 'es':
        return word
    text = str(following).lstrip().lower()
    if word == 'y' and text[:1] == 'i' and text[1:2] not in ('a', 'e', 'o', 'u') or \
            word == 'y' and text[:2] == 'hi' and text[2:3] not in ('a', 'e', 'o', 'u'):
        return 'e'
    if word == 'o' and (text[:1] in ('o', 'ó', '8') or text[:2] in ('ho', 'hó')):
        return 'u'
    return word
