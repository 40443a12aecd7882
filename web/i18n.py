"""The table's language: choosing it, gettext for templates and scorer/, dates and numbers. No routes:
the switcher is web/switcher.py's."""

import functools

from flask import current_app, g, has_request_context, request
from flask_babel import Babel, format_decimal, get_locale, get_translations

import scorer.i18n
from scorer.i18n import listing

LANGUAGES = {'en': 'English', 'es': 'Español', 'pt': 'Português'}
# The language as a page and the manifest name it (BCP 47), where it says more than the catalog's
# folder: the Portuguese is Brazilian; the Spanish a neutral Latin-American one, so plain 'es'.
TAGS = {'pt': 'pt-BR'}


def known_languages():
    """Codes a page may be shown in: the switcher's, and any the config adds (a test's pseudo-language)."""
    return [*current_app.config['LANGUAGES'], *current_app.config.get('EXTRA_LANGUAGES', ())]


def select_locale():
    """The request's language (choose_language): Babel's locale selector."""
    return choose_language(request.path, request.args.get('lang'), request.cookies.get('lang'),
                           request.headers.get('Accept-Language', ''), tuple(known_languages()),
                           tuple(current_app.config['LANGUAGES']))


def choose_language(path, asked, cookie, accept_language, languages=tuple(LANGUAGES), offered=tuple(LANGUAGES)):
    """The language a request is answered in, decided here only (every page, and the worker's 429 to a
    client over its connections: web/worker.py language_of): ?lang= (`asked`: a printout in another
    language), the switcher's `cookie`, else the browser's Accept-Language among the `offered`. The
    JSON API speaks only what it is asked for (?lang=), English by default: the same request gets the
    same answer from any browser."""
    if path.startswith('/api/'):
        return asked if asked in languages else 'en'
    for choice in (asked, cookie):
        if choice in languages:
            return choice
    return accepted(accept_language, offered)


@functools.lru_cache(maxsize=512)
def accepted(accept_language, offered):
    """The language of `offered` an Accept-Language header asks for first, 'en' if none: parsed once a
    process per header (a process sees few; a refusal a thousand times a second parses none)."""
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header
    return parse_accept_header(accept_language, LanguageAccept).best_match(list(offered)) or 'en'


def translations():
    """The request's translations, looked up once per request (templates ask for dozens)."""
    if 'translations' not in g:
        g.translations = get_translations()
    return g.translations


def request_language():
    """scorer/ speaks the request's language too (its messages, the referee's words)."""
    if not has_request_context():
        return None, 'en'
    return translations(), str(get_locale())


def language_tag(code):
    """The tag of a language of the app for `<html lang>`, hreflang and the manifest: 'pt' → 'pt-BR'."""
    return TAGS.get(str(code), str(code))


def decimal(value):
    """A number with one decimal, as the locale writes it: 27.5, 27,5."""
    return format_decimal(value, format='#,##0.0')


def init_app(app):
    """Babel with our locale choice, gettext in templates, scorer/ in the request's language."""
    app.config.setdefault('LANGUAGES', LANGUAGES)
    Babel(app, locale_selector=select_locale)
    scorer.i18n.ask(request_language)
    app.jinja_env.install_gettext_callables(
        lambda text: translations().ugettext(text),
        lambda singular, plural, n: translations().ungettext(singular, plural, n), newstyle=True,
        pgettext=lambda context, text: translations().upgettext(context, text),
        npgettext=lambda context, singular, plural, n: translations().unpgettext(context, singular, plural, n))
    app.jinja_env.globals.update(decimal=decimal, listing=listing, language_tag=language_tag)

    @app.context_processor
    def languages():
        return {'languages': app.config['LANGUAGES'], 'locale': str(get_locale()), 'html_lang': language_tag(get_locale())}
