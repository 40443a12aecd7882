"""The Three-Thirteen scorekeeper: the Flask application factory."""

import os

from flask import Flask
from flask_wtf.csrf import CSRFProtect

import scorer.limits
from web import db, errors, i18n
from web.secret import secret_key

csrf = CSRFProtect()

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def create_app(test_config=None):
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.environ.get('SCORER_DATABASE', os.path.join(app.instance_path, 'scorer.sqlite')),
        WTF_CSRF_TIME_LIMIT=None,           # a page left open through a long game must still save
        MAX_CONTENT_LENGTH=256 * 1024,
        LANGUAGES=i18n.LANGUAGES,
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
    app.jinja_env.globals.update(
        rank_text=rank_text, rank_plural=rank_plural, rules_words=rules_words, wild_words=wild_words,
        kind_word=kind_word, zip=zip, suit_class=lambda c: f'suit-{c.suit or "joker"}'.lower(),
        **{name: value for name, value in vars(scorer.limits).items() if name.startswith('MAX_')})

    db.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)

    from web import api, audit, games, pwa, stats
    for blueprint in (games.bp, stats.bp, api.bp, audit.bp, pwa.bp):
        app.register_blueprint(blueprint)

    @app.after_request
    def security_headers(response):
        """No inline script or style anywhere, no framing, no sniffing, no referrer (links carry keys)."""
        response.headers.setdefault('Content-Security-Policy', CSP)
        response.headers.setdefault('X-Content-Type-Options', 'nosniff')
        response.headers.setdefault('Referrer-Policy', 'no-referrer')
        response.headers.setdefault('X-Frame-Options', 'DENY')
        return response

    return app
