"""What the templates call, for both places they are rendered: the server (Flask) and the phone
(web/phone.py in Pyodide, offline). One list, so a template reads the same in both; the keypad's
tables (the letters, a card's copies, the most cards a hand holds) all come from scorer/."""

import json
from datetime import date
from functools import lru_cache

from babel import dates as babel_dates
from markupsafe import Markup

import scorer.limits
from scorer.cards import JOKER, SUITS, SYMBOL, Card, copies, rank_plural, rank_text, tokens
from scorer.reading import LANGUAGES, card, legend, letters_of, symbols, tables
from scorer.i18n import _, language, ngettext, sentence
from scorer.chart import COLOURS, marker, shape
from scorer.referee import kind_word, wild_words
from scorer.rules import DECKS, GAMES, THREE_THIRTEEN_KIND, RulesError, make_rules, rules_words


def bdi(name):
    """A name isolated from the text around it (a right-to-left name never reorders the sentence)."""
    return Markup('<bdi>%s</bdi>') % name


def suit_class(c):
    """A card's CSS class: suit-hearts, suit-joker, …"""
    return f'suit-{c.suit or "joker"}'.lower()


def day(iso):
    """A date (YYYY-MM-DD) as the page's language writes it: 29 nov 2026, Nov 29, 2026."""
    return day_in(iso, language())


@lru_cache(maxsize=4096)
def day_in(iso, locale):
    """day() for a locale, remembered (a history page writes hundreds of dates, most of them alike)."""
    try:
        return babel_dates.format_date(date.fromisoformat(iso), 'medium', locale=locale)
    except (TypeError, ValueError):
        return iso or ''


def as_json_block(data):
    """Data for a <script type="application/json"> block: nothing in it can close the tag."""
    return Markup(json.dumps(data, ensure_ascii=False).replace('<', '\\u003c'))


_picker_words = {}

def as_sentence(message, names=()):
    """scorer.i18n.sentence for a template: what was markup stays markup."""
    shaped = sentence(message, names)
    return Markup(shaped) if isinstance(message, Markup) else shaped


# How web.access.device_words joins a browser and its system ('Chrome on Android'), as kept.
DEVICE_JOIN = ' on '


def device(kept):
    """A browser of the keepers list in the page's language ('Chrome en Android'): the names are
    what the browser calls itself, the word between them is the page's."""
    program, _join, system = str(kept).partition(DEVICE_JOIN)
    return _('%(browser)s on %(system)s', browser=program, system=system) if system else kept

# The counts a script is given a counted word's form for (0..COUNTED_UP_TO; a larger count takes the last).
COUNTED_UP_TO = 20


def counted(message):
    """A counted message for the page's scripts, message(n) being its ngettext: its form for each
    count 0..COUNTED_UP_TO, as the language's plural rule chooses it (static/js/words.js picks one
    by the message's {count})."""
    return [message(n) for n in range(COUNTED_UP_TO + 1)]


def picker_words():
    """The card picker's words in the page's language, as JSON (made once per language)."""
    if language() not in _picker_words:
        _picker_words[language()] = as_json_block({
            'tapCards': _('Tap cards'), 'done': _('Done'), 'undo': _('Undo the last card'),
            'suit': _('Suit'), 'rank': _('Rank'), 'count': _('{count} / {size}'),
            'tooMany': counted(lambda n: ngettext('{count} card: {why}.', '{count} cards: {why}.', n)),
            'holds': counted(lambda n: ngettext('{name} already holds {count} card: {why}.',
                                                '{name} already holds {count} cards: {why}.', n)),
            'copies': counted(lambda n: ngettext('{card} is already in this round (1 deck).',
                                                 'All {count} {card} are already in this round ({count} decks).', n)),
            'jokers': counted(lambda n: ngettext('The joker is already in this round.',
                                                 'All {count} jokers are already in this round.', n)),
            'penalty': _('Penalty {points}'), 'counts': _('counts {points}'),
            'remove': _('Remove {card}'), 'cardsOf': _('Cards of {name}'),
            'pickerFor': _('Card picker for {name}'), 'wild': _('wild'), 'joker': _('joker'),
            'ignored': _('That tap came as the page changed, so it did nothing: tap again.'),
            'wentOut': _('Went out'), 'updating': _('Updating…'),
        })
    return _picker_words[language()]


# A finger lands ~300 ms after it aimed: a tap landing sooner than that after the keypad opens or
# closes, or after the page moved on, was aimed at what was there before, and is dropped, with a
# sign (static/js/keypad/guard.js, which has no timing of its own); one landing later was aimed at
# what is there now, and is taken (a Send that appeared as the last card closed the keypad, tapped
# 0.4 s after that card). So the guard holds for the aim and a little more. The app's
# FINGER_SETTLE_MS; the phone offline draws with this one.
SETTLE_MS = 350


# How often a phone holding what the server has not had yet (rounds, games made offline) tries to
# send it again (static/js/offline.js, offline/start-page.js): the app's OFFLINE_SEND_AGAIN_MS.
SEND_AGAIN_MS = 15_000

# How long a print page waits for its type (web/context.py PRINT_FONTS) before it offers its Print
# button anyway (static/js/print.js): a network that fails answers at once, but one that does not
# answer (a phone gone offline with the fonts not kept) would hold the button back for ever; past
# it, the names are set for the fallback type (print.js FALLBACK_WIDER). The app's PRINT_TYPE_WAIT_MS.
PRINT_TYPE_WAIT_MS = 5_000


def picker_timing(settle_ms=SETTLE_MS):
    """The keypad's timing, as JSON for its data block: {"settleMs": 350}."""
    return as_json_block({'settleMs': settle_ms})


def keypad_deck(rules):
    """The keypad's keys for a game's deck (static/js/picker.js), as JSON: each suit's letter, symbol
    and word in the page's language, in the deck's order, then its ranks as cards write them."""
    words = {'S': _('spades'), 'H': _('hearts'), 'D': _('diamonds'), 'C': _('clubs'), 'X': _('stars')}
    return as_json_block({'suits': [[s, SYMBOL[s], words[s]] for s in rules.deck.suits],
                          'ranks': [rank_text(r) for r in rules.deck.ranks]})


def keypad_games(rules):
    """The keypad of each game the audit's game field offers, as JSON, so the keypad follows the field
    at once (static/js/picker.js): each game's rules as make_rules() makes them from the page's
    (its own deck, copies and jokers): its keys (keypad_deck), copies, jokers and letters' legend."""
    games = {}
    for game in GAMES:
        try:
            kind = make_rules({'game': game}, base=rules)
        except RulesError:
            continue                    # a house rule of the page's game that this one does not take
        games[game] = {**json.loads(keypad_deck(kind)), 'copies': json.loads(copies_table(kind)),
                       'jokers': kind.jokers, 'legend': suit_legend(kind.deck.suits)}
    return as_json_block(games)


def suit_legend(suits=SUITS):
    """'Letters: P or E ♠ · C ♥ · D ♦ · T ♣ · R = K': the letters this page reads a game's cards in
    (scorer.reading.legend), shown unfolded beside every field where cards are typed."""
    suits, ranks = legend(LANGUAGES[letters_of(language())], suits)
    return _('Letters: %(legend)s', legend=' · '.join(suits + ranks))


def fixed_in(key):
    """The kinds of game that decide a setting themselves ('five_crowns' for decks): a form does not
    offer it there (the field says so, and app.js hides it)."""
    return ' '.join(kind for kind, deck in DECKS.items() if key in deck.fixed)


def page_letters():
    """The language whose letters this page reads cards in: a form sends it along with what was typed."""
    return letters_of(language())


_card_tables = {}


def card_tables():
    """scorer/cards.py's tables for the browser's card parser, in the page's language, as JSON."""
    if language() not in _card_tables:
        _card_tables[language()] = as_json_block(tables(language()))
    return _card_tables[language()]


def copies_table(rules):
    """{'10H': 2, 'JK': 1, ...}: how many of each card of the game's pack there are (scorer.cards.copies),
    for the keypad, which refuses a card the round already holds every copy of."""
    cards = [Card(rank, suit) for suit in rules.deck.suits for rank in rules.deck.ranks] + [JOKER]
    return json.dumps({str(c): copies(c, rules.decks, rules.jokers) for c in cards}, separators=(',', ':'))


def key_values(rules, wild):
    """{'3': 3, '7': 20, 'K': 13, 'JK': 50}: what a card of each key of the keypad counts this round
    (Rules.value), for a game whose leftovers count as they lie (each key shows it); '' otherwise."""
    if not rules.as_they_lie:
        return ''
    values = {rank_text(r): rules.value(Card(r, rules.deck.suits[0]), wild) for r in rules.deck.ranks}
    if rules.jokers:
        values['JK'] = rules.value(JOKER, wild)
    return json.dumps(values, separators=(',', ':'))


GLOBALS = dict(day=day, copies_table=copies_table, key_values=key_values, picker_words=picker_words, picker_timing=picker_timing,
               send_again_ms=lambda: SEND_AGAIN_MS, home_mark=THREE_THIRTEEN_KIND[1],
               card_tables=card_tables,
               keypad_deck=keypad_deck, keypad_games=keypad_games, suit_legend=suit_legend,
               page_letters=page_letters, fixed_in=fixed_in,
               rank_text=rank_text, rank_plural=rank_plural, rules_words=rules_words, wild_words=wild_words,
               kind_word=kind_word, symbols=symbols, zip=zip, marker=marker, shape=shape, COLOURS=COLOURS, suit_class=suit_class,
               **{name: value for name, value in vars(scorer.limits).items() if name.startswith('MAX_')})

FILTERS = dict(bdi=bdi, device=device, sentence=as_sentence, names=lambda players: Markup(', ').join(map(bdi, players)),
               cards=lambda text: ' '.join(card(t).pretty for t in tokens(text)))
