"""One word for one thing: docs/glossary.md decides each game word once per language, and every
message of the catalogs says it with that word, and never with another."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.helpers import TRANSLATED

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r'%\(\w+\)[sdr]|\{\w+\}')

# How a term is found in a message's English (its placeholders left out): 'round' but not 'wraps
# round', 'hand' but not 'hand over', a meld's 'set' but not 'set aside'.
ENGLISH = {
    'set': r'\b(a|the|one) set\b|^set$|\bsets\b',
    'book': r'\bbooks?\b',
    'run': r'(?<!whoever )\bruns?\b',
    'meld': r'\bmeld(s|ed)?\b',
    'wild': r'\bwilds?\b',
    'joker': r'\bjokers?\b',
    'deadwood': r'\bdeadwood\b|\bunmelded\b',
    'penalty': r'\bpenalty\b',
    'go out': r'\b(go|goes|going|went|gone) out\b|^Out$',
    'dealer': r'\bdealer\b',
    'round': r'(?<!wraps )\brounds?\b',
    'hand': r'\bhands?\b(?! over)',
    'zero round': r'\bzero rounds?\b|\brounds? at zero\b',
    'scorekeeper': r'\bscorekeeper',
    'scoresheet': r'\bscoresheet\b|^Sheet$|\b(the|a|its) sheet\b',
    'stars': r'\bstars?\b',
    'seat': r'\bseats?\b',
    'table': r'\btables?\b(?! above)',          # not the HTML table the chart's figures are in
}

# Messages that speak of a term without its word, and why.
WITHOUT_THE_WORD = {
    ('pt', 'seat', '2 to 8 players; the deal passes to the next seat each round. Leave the rest empty.'):
        'the deal said as a table says it: "quem dá as cartas muda a cada rodada, seguindo a mesa"',
    ('es', 'hand', '%(rounds)d round of %(first)d to %(last)d cards; the wild rank is the hand size'):
        'the hand size said as the cards dealt: "la carta del mismo número que las cartas repartidas"',
    **{(lang, 'round', 'rounds must be a list'): "`rounds` is the game file's key, not a word" for lang in TRANSLATED},
    **{(lang, term, 'give --round N or --wild RANK'): 'the options are typed as they are' for lang in TRANSLATED
       for term in ('round', 'wild')},
}


def glossary():
    """{term: {'es': forms, 'pt': forms, 'never es': words, 'never pt': words}} from the glossary's
    first table (its English cell names the term)."""
    text = (ROOT / 'docs' / 'glossary.md').read_text(encoding='utf-8')
    table = text.split('\n\n| idea |', 1)[1].split('\n\n', 1)[0]
    rows = [[c.strip() for c in line.strip().strip('|').split('|')] for line in table.splitlines()[2:]]
    words = lambda cell: [] if cell in ('–', '') else [w.strip() for w in cell.split(',')]
    return {english: {'es': words(es), 'pt': words(pt), 'never es': words(never_es), 'never pt': words(never_pt)}
            for _idea, english, es, pt, never_es, never_pt, _texts in rows}


def messages(lang):
    """(English, translation) of every message of a catalog, each plural form on its own."""
    with open(ROOT / 'translations' / lang / 'LC_MESSAGES' / 'messages.po', 'rb') as f:
        catalog = read_po(f)
    for m in catalog:
        if not m.id:
            continue
        english = ' '.join(m.id) if isinstance(m.id, tuple) else m.id
        for string in (m.string if isinstance(m.string, tuple) else (m.string,)):
            yield m.id[0] if isinstance(m.id, tuple) else m.id, PLACEHOLDER.sub(' ', english), string


def says(text, word):
    """Whether a text uses a word (or a phrase) as a whole, whatever its case."""
    return re.search(r'(?<!\w)' + re.escape(word) + r'(?!\w)', text, re.I) is not None


def begins(text, word):
    """Whether a text has a word beginning with `word` (so 'coringa' finds 'coringas' too)."""
    return re.search(r'(?<!\w)' + re.escape(word), text, re.I) is not None


def test_the_glossary_decides_every_game_word():
    words = glossary()
    assert sorted(words) == sorted(ENGLISH)
    for term, decided in words.items():
        for lang in TRANSLATED:
            assert decided[lang], f'the glossary gives no {lang} word for {term!r}'
            assert not set(decided[lang]) & set(decided['never ' + lang]), term


@pytest.mark.parametrize('lang', TRANSLATED)
def test_every_message_says_a_term_with_the_glossarys_word(lang):
    words = glossary()
    wrong = []
    for msgid, english, string in messages(lang):
        for term, pattern in ENGLISH.items():
            if (re.search(pattern, english, re.I) and
                    (lang, term, msgid) not in WITHOUT_THE_WORD and
                    not any(says(PLACEHOLDER.sub(' ', string), w) for w in words[term][lang])):
                wrong.append((term, msgid, string))
    assert wrong == []


@pytest.mark.parametrize('lang', TRANSLATED)
def test_no_message_says_a_term_with_another_word(lang):
    """'coringa' is never the wild card nor the joker in Portuguese; 'repartidor' never the dealer in Spanish."""
    words = glossary()
    never = {w: term for term, decided in words.items() for w in decided['never ' + lang]}
    found = [(never[w], w, msgid, string) for msgid, _english, string in messages(lang) for w in never
             if begins(string, w)]
    assert found == []


def test_every_exception_is_still_needed():
    """An exception left in WITHOUT_THE_WORD after its message changed would hide a wrong word."""
    for lang, term, msgid in WITHOUT_THE_WORD:
        found = [string for m, _english, string in messages(lang) if m == msgid]
        assert found, msgid
        assert not any(says(s, w) for s in found for w in glossary()[term][lang]), msgid
