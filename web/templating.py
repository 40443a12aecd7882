"""What the templates call, for both places they are rendered: the server (Flask) and the phone
(web/phone.py in Pyodide, offline). One list, so a template reads the same in both."""

from markupsafe import Markup

import scorer.limits
from scorer.cards import card, rank_plural, rank_text, tokens
from scorer.chart import COLOURS, marker
from scorer.referee import kind_word, wild_words
from scorer.rules import rules_words


def bdi(name):
    """A name isolated from the text around it (a right-to-left name never reorders the sentence)."""
    return Markup('<bdi>%s</bdi>') % name


def suit_class(c):
    """A card's CSS class: suit-hearts, suit-joker, …"""
    return f'suit-{c.suit or "joker"}'.lower()


GLOBALS = dict(rank_text=rank_text, rank_plural=rank_plural, rules_words=rules_words, wild_words=wild_words,
               kind_word=kind_word, zip=zip, marker=marker, COLOURS=COLOURS, suit_class=suit_class,
               **{name: value for name, value in vars(scorer.limits).items() if name.startswith('MAX_')})

FILTERS = dict(bdi=bdi, names=lambda players: Markup(', ').join(map(bdi, players)),
               cards=lambda text: ' '.join(card(t).pretty for t in tokens(text)))
