"""One answer for a hand, wherever it is asked: every reader (the round form, my hand, the audit page,
/api/solve, /api/audit, the command line, the phone's offline scorer) given the same text in the same
language reads the same cards and gives the same penalty; and the solver's own best arrangement,
claimed, holds everywhere a claim is checked."""

import io
import json
import re

from hypothesis import given
from hypothesis import strategies as st

from scorer.__main__ import main
from scorer.cards import JOKER, RANK_TEXT, SUITS, SYMBOL, Card
from scorer.i18n import catalog
from scorer.reading import LANGUAGES, canonical
from scorer.rules import make_rules
from scorer.solver import solve
from tests.hands import examples
from tests.helpers import new_game, play_rounds, round_form

RULES = make_rules(jokers=2)


def spell(card, language, style):
    """A card as a table speaking `language` may type it: its letters, the suit symbol, or words."""
    lang = LANGUAGES[language]
    if card == JOKER:
        return 'JK' if style != 'words' else 'joker'
    rank_letter = next(l for l, r in lang.rank_letters.items() if r == card.rank)
    suit_letter = next(l for l, s in lang.suit_letters.items() if s == card.suit)
    if style == 'letters':
        return rank_letter + suit_letter.lower()
    if style == 'symbols':
        return rank_letter + SYMBOL[card.suit]
    rank_word = next((w for w, r in lang.rank_words.items() if r == card.rank), rank_letter)
    suit_word = next(w for w, s in lang.suit_words.items() if s == card.suit)
    return f'{rank_word.lower()} {lang.joining[0].lower()} {suit_word.lower()}'


@st.composite
def typed_hands(draw):
    """(language, hand, text, round): a hand of 3 to 13 cards from two decks and two jokers, often
    with melds, typed in one language in a mix of its letters, symbols and words."""
    language = draw(st.sampled_from(sorted(LANGUAGES)))
    size = draw(st.integers(3, 13))
    suits = draw(st.sampled_from([SUITS, 'H', 'HS', 'SDC']))
    low = draw(st.integers(1, 9))
    pack = [Card(r, s) for r in range(low, min(13, low + 6) + 1) for s in suits] * 2 + [JOKER] * 2
    pack += [Card(size, s) for s in SUITS]
    hand = draw(st.permutations(pack))[:size]
    hand = [c for i, c in enumerate(hand) if hand[:i].count(c) < 2][:size]
    text = ' '.join(spell(c, language, draw(st.sampled_from(['letters', 'symbols', 'words']))) for c in hand)
    return language, hand, text, len(hand) - 2


def cli(*args, stdin=''):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def page_penalty(page):
    return int(re.search(r'class="big">[^<]*?(\d+)</span>', page).group(1))


@examples(120)
@given(typed_hands())
def test_every_reader_reads_the_same_cards_and_gives_the_same_penalty(app, typed):
    language, hand, text, round = typed
    if round < 1:
        return
    solution = solve(hand, RULES.wild_rank(round), RULES)
    cards = ' '.join(map(str, hand))
    assert canonical(text, language) == cards
    keeper = app.test_client()
    keeper.set_cookie('lang', language)
    url = new_game(keeper, ['Ana', 'Bruno', 'Carla'], jokers=2)
    game_id = url.rsplit('/', 1)[1]
    play_rounds(keeper, url, round - 1, 3, went_out=0, points=1)
    # My hand: Carla types it on her own phone, in her language.
    carla = app.test_client()
    carla.set_cookie('lang', language)
    carla.post(f'{url}/seats/2')
    sent = carla.post(url + '/hand', data={'round': str(round), 'cards': text, 'letters': language})
    assert sent.status_code == 303, sent.get_data(as_text=True)[-400:]
    drafts = keeper.get(f'{url}/rounds/{round}/drafts').get_json()
    assert canonical(drafts['2']['cards']) == cards
    # The round form: the scorekeeper types it for Bruno.
    r = keeper.post(f'{url}/rounds/{round}', data={**round_form(0, cards=[None, text], points=[None, None, '5'],
                                                                 version=0), 'letters': language})
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    saved = keeper.get(url + '/export.json').get_json()
    assert saved['rounds'][-1]['entries'][1]['cards'] == cards
    assert saved['sheet']['rounds'][-1]['scores']['Bruno'] == solution.penalty
    # The phone's offline scorer, given the same text.
    from web import phone
    from scorer.gamefile import game_data, read_game
    game = read_game(json.dumps(saved))
    asked = {'language': language, 'args': {'game': game_data(game), 'number': round, 'out': [0],
                                            'typed': [{'cards': '', 'points': ''}, {'cards': text, 'points': ''},
                                                      {'cards': '', 'points': '5'}]}}
    answer = json.loads(phone.call('enter', json.dumps(asked)))['ok']
    assert canonical(answer['shown'][1]) == cards
    assert read_game(json.dumps(answer['game'])).rounds[round][1].cards == cards
    # The audit page, the API and the command line.
    audit = keeper.get('/audit', query_string={'letters': language, 'cards': text, 'round': round,
                                               'game': game_id})
    assert audit.status_code == 302
    assert page_penalty(keeper.get(audit.headers['Location']).get_data(as_text=True)) == solution.penalty
    for path in ('/api/solve', '/api/audit'):
        answer = keeper.get(path, query_string={'cards': text, 'round': round, 'lang': language,
                                                'jokers': 2}).get_json()
        assert answer['penalty'] == solution.penalty and answer['letters'] == language, answer
    line = json.dumps({'id': 1, 'cards': text, 'round': round, 'jokers': 2, 'lang': language})
    code, out, err = cli('solve', '--jsonl', stdin=line + '\n')
    answer = json.loads(out)
    assert answer['penalty'] == solution.penalty and answer['letters'] == language
    # The solver's own arrangement, claimed, holds in the audit (page and API) and on the command line.
    melds = ' | '.join(' '.join(spell(c, language, 'symbols') for c in m.cards) for m in solution.melds)
    query = {'cards': text, 'round': round, 'melds': melds, 'claim': solution.penalty}
    claim = keeper.get('/api/audit', query_string={**query, 'lang': language, 'jokers': 2}).get_json()['claim']
    assert claim['holds'], claim
    page = keeper.get('/audit', query_string={**query, 'letters': language, 'game': game_id})
    assert 'class="verdict good"' in keeper.get(page.headers['Location']).get_data(as_text=True)
    code, out, err = cli('check', text, '--round', str(round), '--jokers', '2', '--lang', language,
                         '--melds', melds, '--claim', str(solution.penalty))
    holds = (catalog(language).gettext('Claim holds: %(why)s') if language != 'en' else 'Claim holds: %(why)s')
    assert code == 0 and any(line.startswith(holds.split('%')[0]) for line in out.splitlines()), out


def test_the_letters_of_each_language_spell_every_card():
    for language in LANGUAGES:
        for card in [Card(r, s) for r in RANK_TEXT for s in SUITS] + [JOKER]:
            for style in ('letters', 'symbols', 'words'):
                assert canonical(spell(card, language, style), language) == str(card), (language, card, style)
