"""The Three-Thirteen scorekeeper: the Flask application factory."""

import json
import os
import secrets
import time
from pathlib import Path

from datetime import date

from flask import Flask, current_app, g, has_request_context, redirect, render_template, request, send_from_directory
from flask_babel import Babel, format_date, format_decimal, get_locale, get_translations
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from markupsafe import Markup

import scorer.i18n

from web import db

csrf = CSRFProtect()
LANGUAGES = {'en': 'English', 'es': 'Español', 'pt': 'Português'}
ONE_YEAR = 365 * 24 * 3600


def select_locale():
    """The language: ?lang= (a printout in another language), the switcher's cookie, else the browser's."""
    languages = current_languages()
    for choice in (request.args.get('lang'), request.cookies.get('lang')):
        if choice in languages:
            return choice
    return request.accept_languages.best_match(list(languages)) or 'en'


def current_languages():
    return current_app.config['LANGUAGES']


def day(iso):
    """A date (YYYY-MM-DD) as the locale writes it: 29 nov 2026, Nov 29, 2026."""
    try:
        return format_date(date.fromisoformat(iso), 'medium')
    except (TypeError, ValueError):
        return iso or ''


_picker_words = {}


def picker_words():
    """The card picker's words in the request's language, as JSON (made once per language)."""
    locale = str(get_locale())
    if locale not in _picker_words:
        words = {
            'tapCards': _('Tap cards'), 'done': _('Done'), 'hint': _('Tap a rank, then a suit.'),
            'rankFirst': _('Tap a rank first.'), 'holds': _('{name} already holds {count} cards: {why}.'),
            'copies': _('All {count} {card} are already in this round ({decks} decks).'),
            'copy': _('{card} is already in this round (1 deck).'),
            'jokers': _('All {count} jokers are already in this round.'),
            'penalty': _('Penalty {points}'), 'melds': _('every card melds'),
            'notMeld': _('went out, but these do not meld'), 'left': _('left:'),
            'notCard': _("'{token}' is not a card"), 'remove': _('Remove {card}'), 'cardsOf': _('Cards of {name}'),
            'pickerFor': _('Card picker for {name}'), 'wild': _('wild'), 'joker': _('joker'),
            'spades': _('spades'), 'hearts': _('hearts'), 'diamonds': _('diamonds'), 'clubs': _('clubs'),
            'set': _('set'), 'run': _('run'),
        }
        _picker_words[locale] = Markup(json.dumps(words, ensure_ascii=False).replace('<', '\\u003c'))
    return _picker_words[locale]


def decimal(value):
    """A number with one decimal, as the locale writes it: 27.5, 27,5."""
    return format_decimal(value, format='#,##0.0')

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def secret_key(instance_path):
    """The secret key: from SCORER_SECRET_KEY, else made once and kept in instance/ (mode 0600)."""
    if os.environ.get('SCORER_SECRET_KEY'):
        return os.environ['SCORER_SECRET_KEY']
    path = Path(instance_path) / 'secret_key'
    if not path.exists():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:         # another worker made it first
            pass
        else:
            with os.fdopen(fd, 'w') as f:
                f.write(secrets.token_hex(32))
    for attempt in range(50):           # wait for the other worker to finish writing it
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f'{path} is empty')


def create_app(test_config=None):
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.environ.get('SCORER_DATABASE', os.path.join(app.instance_path, 'scorer.sqlite')),
        WTF_CSRF_TIME_LIMIT=None,           # a page left open through a long game must still save
        MAX_CONTENT_LENGTH=256 * 1024,
        LANGUAGES=LANGUAGES,
    )
    if test_config is None:
        app.config.from_pyfile('config.py', silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get('SECRET_KEY'):
        app.config['SECRET_KEY'] = secret_key(app.instance_path)

    from scorer.cards import rank_plural, rank_text
    from scorer.referee import kind_word, wild_words
    from scorer.rules import rules_words
    app.jinja_env.globals.update(rank_text=rank_text, rank_plural=rank_plural, rules_words=rules_words,
                                 wild_words=wild_words, kind_word=kind_word, day=day, decimal=decimal,
                                 picker_words=picker_words,
                                 zip=zip, suit_class=lambda c: f'suit-{c.suit or "joker"}'.lower())

    db.init_app(app)
    csrf.init_app(app)
    Babel(app, locale_selector=select_locale)

    def request_language():
        """scorer/ speaks the request's language too (its messages, the referee's words)."""
        if not has_request_context():
            return None, 'en'
        return get_translations(), str(get_locale())

    scorer.i18n.ask(request_language)

    def translations():
        """The request's translations, looked up once per request (templates ask for dozens)."""
        if 'translations' not in g:
            g.translations = get_translations()
        return g.translations

    app.jinja_env.install_gettext_callables(
        lambda text: translations().ugettext(text),
        lambda singular, plural, n: translations().ungettext(singular, plural, n), newstyle=True)

    @app.context_processor
    def languages():
        return {'languages': app.config['LANGUAGES'], 'locale': str(get_locale())}

    @app.get('/language/<code>')
    def choose_language(code):
        """The language switcher: remembered in a cookie; back to the page it was chosen on."""
        target = request.args.get('next', '/')
        if not target.startswith('/') or target.startswith('//'):
            target = '/'
        response = redirect(target)
        if code in app.config['LANGUAGES']:
            response.set_cookie('lang', code, max_age=ONE_YEAR, samesite='Lax', secure=request.is_secure)
        return response
    app.cli.add_command(db.backup_command)

    from web import api, audit, games, stats
    app.register_blueprint(games.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(audit.bp)

    @app.after_request
    def security_headers(response):
        """No inline script or style anywhere, no framing, no sniffing, no referrer (links carry keys)."""
        response.headers.setdefault('Content-Security-Policy', CSP)
        response.headers.setdefault('X-Content-Type-Options', 'nosniff')
        response.headers.setdefault('Referrer-Policy', 'no-referrer')
        response.headers.setdefault('X-Frame-Options', 'DENY')
        return response

    @app.get('/sw.js')
    def service_worker():
        """The service worker, served from the root so that it covers the whole app."""
        return send_from_directory(app.static_folder, 'sw.js', mimetype='text/javascript', max_age=0)

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return render_template('error.html', title=_('Form expired'),
                               message=_('This form could not be checked (it may be from another session). '
                                         'Go back, reload the page and try again.')), 400

    @app.errorhandler(403)
    def forbidden(e):
        return render_template('error.html', title=_('Only the scorekeeper can edit'),
                               message=_("This game is edited from the scorekeeper's phone. Open the private "
                                         'scorekeeper link on this phone to edit it here.')), 403

    @app.errorhandler(404)
    def not_found(e):
        return render_template('error.html', title=_('Not found'),
                               message=_('There is nothing at this address.')), 404

    @app.errorhandler(413)
    def too_large(e):
        return render_template('error.html', title=_('Too large'),
                               message=_('What was sent is too large.')), 413

    @app.errorhandler(500)
    def server_error(e):
        return render_template('error.html', title=_('Something went wrong'),
                               message=_('Nothing you entered was lost. Go back and try again.')), 500

    return app
