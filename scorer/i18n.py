"""Words for people in the table's language.

scorer/ marks every message with _() (or ngettext() where a number decides the form) and
stays free of Flask: a caller chooses the language with ask(source), where source() gives
(gettext translations, language code) for the current context. Without one, messages are
English. Placeholders are named, as in gettext: '%(card)s'.
"""

from contextvars import ContextVar

_translations = ContextVar('translations', default=None)
_language = ContextVar('language', default='en')
_source = None


def ask(source):
    """Ask `source()` for (translations, language) whenever none were set; a web app
    passes one that reads its current request, so nothing is done for requests that say nothing."""
    global _source
    _source = source


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


def ngettext(singular, plural, n, /, **values):
    """The singular or plural message for n (languages differ in where the plural starts)."""
    t = current()[0]
    out = t.ngettext(singular, plural, n) if t is not None else (singular if n == 1 else plural)
    return out % {'num': n, **values}


def N_(text):
    """Mark a message for translation without translating it yet (translated where it is shown)."""
    return text


def listing(items):
    """'8♥', '8♥ and 10♥', '8♥, 9♥ and 10♥' (names of players, cards or melds)."""
    items = list(items)
    if len(items) <= 1:
        return ''.join(items)
    return ', '.join(items[:-1]) + ' ' + _('and') + ' ' + items[-1]
