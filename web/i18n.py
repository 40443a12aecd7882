"""The table's language: choosing it, the switcher, gettext for templates and scorer/, dates and numbers."""

import json
from datetime import date
from functools import lru_cache
from urllib.parse import urlsplit

from babel import dates as babel_dates
from flask import Blueprint, current_app, g, has_request_context, redirect, request
from flask_babel import Babel, format_decimal, get_locale, get_translations
from flask_babel import gettext as _
from markupsafe import Markup

import scorer.i18n
from scorer.cards import SUIT_LETTERS, SYMBOL, tables
from scorer.i18n import listing

LANGUAGES = {'en': 'English', 'es': 'Español', 'pt': 'Português'}
ONE_YEAR = 365 * 24 * 3600

bp = Blueprint('i18n', __name__)


def known_languages():
    """Codes a page may be shown in: the switcher's, and any the config adds (a test's pseudo-language)."""
    return [*current_app.config['LANGUAGES'], *current_app.config.get('EXTRA_LANGUAGES', ())]


def select_locale():
    """The language: ?lang= (a printout in another language), the switcher's cookie, else the browser's."""
    languages = known_languages()
    for choice in (request.args.get('lang'), request.cookies.get('lang')):
        if choice in languages:
            return choice
    return request.accept_languages.best_match(list(current_app.config['LANGUAGES'])) or 'en'


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


def day(iso):
    """A date (YYYY-MM-DD) as the locale writes it: 29 nov 2026, Nov 29, 2026."""
    return day_in(iso, str(get_locale()))


@lru_cache(maxsize=4096)
def day_in(iso, locale):
    """day() for a locale, remembered (a history page writes hundreds of dates, most of them alike)."""
    try:
        return babel_dates.format_date(date.fromisoformat(iso), 'medium', locale=locale)
    except (TypeError, ValueError):
        return iso or ''


def decimal(value):
    """A number with one decimal, as the locale writes it: 27.5, 27,5."""
    return format_decimal(value, format='#,##0.0')


def as_json_block(data):
    """Data for a <script type="application/json"> block: nothing in it can close the tag."""
    return Markup(json.dumps(data, ensure_ascii=False).replace('<', '\\u003c'))


_picker_words = {}


def picker_words():
    """The card picker's words in the request's language, as JSON (made once per language)."""
    locale = str(get_locale())
    if locale not in _picker_words:
        _picker_words[locale] = as_json_block({
            'tapCards': _('Tap cards'), 'done': _('Done'), 'undo': _('Undo the last card'),
            'suit': _('Suit'), 'rank': _('Rank'), 'count': _('{count} / {size}'),
            'tooMany': _('{count} cards: {why}.'),
            'holds': _('{name} already holds {count} cards: {why}.'),
            'copies': _('All {count} {card} are already in this round ({decks} decks).'),
            'copy': _('{card} is already in this round (1 deck).'),
            'jokers': _('All {count} jokers are already in this round.'),
            'penalty': _('Penalty {points}'),
            'notCard': _("'{token}' is not a card"), 'remove': _('Remove {card}'), 'cardsOf': _('Cards of {name}'),
            'pickerFor': _('Card picker for {name}'), 'wild': _('wild'), 'joker': _('joker'),
            'spades': _('spades'), 'hearts': _('hearts'), 'diamonds': _('diamonds'), 'clubs': _('clubs'),
        })
    return _picker_words[locale]


def suit_legend():
    """'Suits: C ♥ corazones · P ♠ picas · D ♦ diamantes · T ♣ tréboles': how this page reads suit
    letters, where they are not the English ones ('' in English)."""
    letters = SUIT_LETTERS.get(str(get_locale()))
    if not letters:
        return ''
    words = {'S': _('spades'), 'H': _('hearts'), 'D': _('diamonds'), 'C': _('clubs')}
    return _('Suits: %(legend)s', legend=' · '.join(f'{letter} {SYMBOL[suit]} {words[suit]}'
                                                     for letter, suit in letters.items()))


_card_tables = {}


def card_tables():
    """scorer/cards.py's tables for the browser's card parser, in the page's language, as JSON."""
    locale = str(get_locale())
    if locale not in _card_tables:
        _card_tables[locale] = as_json_block(tables(locale))
    return _card_tables[locale]


def same_site(target):
    """`target` when it is a path on this site, else '/': no scheme, no host, no backslash or control character."""
    if not isinstance(target, str) or not target.startswith('/') or any(c in target for c in '\\\r\n\t\x00'):
        return '/'
    if any(ord(c) < 32 or ord(c) == 127 for c in target):
        return '/'
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith('//'):
        return '/'
    return target


@bp.get('/language/<code>')
def choose_language(code):
    """The language switcher: remembered in a cookie; back to the page it was chosen on (on this site only)."""
    response = redirect(same_site(request.args.get('next', '/')))
    if code in current_app.config['LANGUAGES']:
        response.set_cookie('lang', code, max_age=ONE_YEAR, samesite='Lax', secure=request.is_secure, httponly=True)
    return response


def init_app(app):
    """Babel with our locale choice, gettext in templates, scorer/ in the request's language."""
    app.config.setdefault('LANGUAGES', LANGUAGES)
    Babel(app, locale_selector=select_locale)
    scorer.i18n.ask(request_language)
    app.jinja_env.install_gettext_callables(
        lambda text: translations().ugettext(text),
        lambda singular, plural, n: translations().ungettext(singular, plural, n), newstyle=True)
    app.jinja_env.globals.update(day=day, decimal=decimal, picker_words=picker_words, card_tables=card_tables,
                                  suit_legend=suit_legend, listing=listing)

    @app.context_processor
    def languages():
        return {'languages': app.config['LANGUAGES'], 'locale': str(get_locale())}

    app.register_blueprint(bp)
