"""The app in the table's language: complete catalogs, every page in English, Spanish and
Portuguese, no string left untranslated (checked with a pseudo-language), cards as players
name them, and numbers and dates in the locale's format."""

import html
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.dates import get_month_names
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from app import create_app
from scorer.cards import CardError
from scorer.reading import parse_cards, parse_rank
from tests.helpers import LANGUAGES, LOOSE_RATES, TRANSLATED, new_game, new_game_form, play_rounds, round_form

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r'%\(\w+\)[sdr]|\{\w+\}')


def catalog(lang):
    with open(ROOT / 'translations' / lang / 'LC_MESSAGES' / 'messages.po', 'rb') as f:
        return read_po(f)


def template():
    with open(ROOT / 'translations' / 'messages.pot', 'rb') as f:
        return read_po(f)


# The Makefile's `translations` target's keywords: gettext's, lazy ones, and message contexts.
KEYWORDS = ['-k', 'N_', '-k', '_l', '-k', 'lazy_gettext', '-k', 'pgettext:1c,2', '-k', 'npgettext:1c,2,3',
            '-k', '_lp:1c,2', '-k', 'lazy_pgettext:1c,2']


def extracted(out, locations=False):
    """The messages of the code, extracted as `make translations` does (with where each is used)."""
    subprocess.run([sys.executable, '-m', 'babel.messages.frontend', 'extract', '-F', 'babel.cfg', *KEYWORDS,
                    *([] if locations else ['--no-location']), '--sort-output', '-o', str(out), '.'],
                   cwd=ROOT, check=True, capture_output=True)
    with open(out, 'rb') as f:
        return [m for m in read_po(f) if m.id]


def test_the_makefile_extracts_with_these_keywords():
    makefile = (ROOT / 'Makefile').read_text()
    assert [k for k in KEYWORDS[1::2] if f'-k {k} ' not in makefile] == []


def test_the_template_holds_every_message_in_the_code(tmp_path):
    fresh = {(m.context, m.id) for m in extracted(tmp_path / 'fresh.pot')}
    kept = {(m.context, m.id) for m in template() if m.id}
    assert fresh - kept == set(), 'run make translations: messages missing from translations/messages.pot'
    assert kept - fresh == set(), 'run make translations: translations/messages.pot has messages no longer used'


@pytest.mark.parametrize('lang', TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    translated = {m.id: m for m in catalog(lang) if m.id}
    for m in template():
        if not m.id:
            continue
        assert m.id in translated, f'{lang}: no entry for {m.id!r}'
        entry = translated[m.id]
        assert not entry.fuzzy, f'{lang}: fuzzy {m.id!r}'
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        want = set(PLACEHOLDER.findall(' '.join(ids)))
        # a form may leave out the count ('El joker ya está en esta ronda'): what only the plural says
        may_go = {'%(num)d'} | set(PLACEHOLDER.findall(ids[-1])) - set(PLACEHOLDER.findall(ids[0]))
        for s in strings:
            assert s, f'{lang}: empty translation of {m.id!r}'
            got = set(PLACEHOLDER.findall(s))
            assert got <= want and want - got <= may_go, f'{lang}: placeholders differ in {m.id!r}: {s!r}'


@pytest.fixture
def pseudo(tmp_path):
    """A pseudo-language ('eo') where every message is wrapped in ⟦ ⟧: text shown outside them was
    never translated."""
    pseudo_catalog = Catalog(locale='eo')
    for m in template():
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            pseudo_catalog.add(m.id, tuple(f'⟦{s}⟧' for s in m.id), context=m.context)
        else:       # (a message with a context, pgettext's, under its context)
            pseudo_catalog.add(m.id, f'⟦{m.id}⟧', context=m.context)
    folder = tmp_path / 'pseudo' / 'eo' / 'LC_MESSAGES'
    folder.mkdir(parents=True)
    with open(folder / 'messages.mo', 'wb') as f:
        write_mo(f, pseudo_catalog)
    return str(tmp_path / 'pseudo')


def pages(client, hand_link=True):
    """Every kind of page, with a game that has rounds, claims, errors and stats to show."""
    url = new_game(client, ['Ana', 'Bruno'], title='Noche', place='Casa')
    play_rounds(client, url, 11, 2, cards=['K♥ 5♣', 'Q♠ 2♦'])          # seat n % 2 goes out, the other holds its pair
    game_id = url.rsplit('/', 1)[1]
    return [
        '/', '/games/new', url, url + '?edit=1', url + '/live', url + '/rounds/1?saved=1', url + '/print',
        url + '/delete', '/history', '/stats', '/nope',
        '/audit', '/audit?cards=7H 8H 9H KS 5C QD&round=3', '/audit?cards=2S 3H 3H 2H 10S 3S 4H&wild=K',
        '/audit?cards=4H 5H 6H 7C QS 9D&wild=3&claim=43&melds=4H 5H 7C | 7H 9H JH',
        '/audit?cards=4H 5H 6H 9C&round=1', '/audit?cards=4H 6H 8C 9C&round=1', '/audit?cards=7H 1X&round=3',
        '/audit?cards=7H&wild=3&aces=up', f'/audit?cards=QH KH AH&round=1&game_id={game_id}',
    ], url


ALLOWED = {'Ana', 'Bruno', 'Noche', 'Casa', 'Three', 'Thirteen', 'English', 'Español', 'Português', 'CSV', 'JSON',
           'HOST', 'make', 'run', 'http', 'localhost', 'games', 'keeper', 'A4'}


def untranslated(page):
    """Words of the page's visible text that stand outside every ⟦translated⟧ message."""
    text = re.sub(r'<(script|style)\b.*?</\1>', ' ', page, flags=re.S)
    text = re.sub(r'<svg\b.*?</svg>', ' ', text, flags=re.S)
    text = html.unescape(re.sub(r'<[^>]+>', ' ', text))
    text = re.sub(r'https?://\S+', ' ', text)                 # links shown as text (the share links)
    while True:
        inner = re.sub(r'⟦[^⟦⟧]*⟧', ' ', text)
        if inner == text:
            break
        text = inner
    words = re.findall(r'[A-Za-zÀ-ÿ]{3,}', text)
    months = set(get_month_names('abbreviated', locale='eo').values()) | set(get_month_names(locale='eo').values())
    return sorted({w for w in words if w not in ALLOWED and w.strip('.') not in months})


def test_no_page_shows_an_untranslated_word(tmp_path, pseudo):
    app = create_app({'TESTING': True, 'WTF_CSRF_ENABLED': False, 'SECRET_KEY': 'i18n',
                      'DATABASE': str(tmp_path / 'i18n.sqlite'), 'BABEL_TRANSLATION_DIRECTORIES': pseudo,
                      'EXTRA_LANGUAGES': ['eo'], **LOOSE_RATES})
    client = app.test_client()
    client.set_cookie('lang', 'eo')
    paths, url = pages(client)
    bad_round = client.post(url + '/rounds/1', data=round_form(1, cards=['7H 1X', 'KH 5C 9D 9D'], points=[None, 'x']))
    bad_game = client.post('/games/new', data=new_game_form(['Ana']))
    doubts = client.post(url + '/rounds/1', data=round_form('', cards=[None, '7H'], points=['3'], version=1))
    assert 'name="confirm"' in doubts.get_data(as_text=True)
    found = {}
    for path in paths:
        found[path] = untranslated(client.get(path).get_data(as_text=True))
    found['bad round'] = untranslated(bad_round.get_data(as_text=True))
    found['bad game'] = untranslated(bad_game.get_data(as_text=True))
    found['doubts'] = untranslated(doubts.get_data(as_text=True))
    assert {p: w for p, w in found.items() if w} == {}


TAG = {'en': 'en', 'es': 'es', 'pt': 'pt-BR'}          # the Portuguese is Brazilian; the Spanish neutral


@pytest.mark.parametrize('lang, words', [
    ('en', ['Scoresheet', 'Standings', 'Minimal penalty', 'Goes out by discarding']),
    ('es', ['Hoja de puntos', 'Clasificación', 'Penalización mínima', 'Sale descartando']),
    ('pt', ['Placar', 'Classificação', 'Penalidade mínima', 'Bate descartando']),
])
def test_every_page_renders_in_each_language(client, lang, words):
    client.set_cookie('lang', lang)
    paths, url = pages(client)
    text = ''
    for path in paths:
        r = client.get(path)
        assert r.status_code in (200, 404), path
        text += r.get_data(as_text=True)
        if not path.endswith('/live'):                    # the live fragment is not a whole page
            assert f'<html lang="{TAG[lang]}" data-language="{lang}">' in r.get_data(as_text=True)
    for w in words:
        assert w in text, w


def test_language_comes_from_the_browser_and_the_switcher_is_remembered(client):
    page = client.get('/', headers={'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.5'}).get_data(as_text=True)
    assert 'Nova partida' in page
    r = client.get('/language/es?next=/audit', headers={'Accept-Language': 'pt-BR'})
    assert r.status_code == 302 and r.headers['Location'] == '/audit'
    assert 'Revisar una mano' in client.get('/audit', headers={'Accept-Language': 'pt-BR'}).get_data(as_text=True)
    assert client.get('/language/es?next=//evil.example').headers['Location'] == '/'


def test_a_printed_sheet_in_any_language(client, make_game):
    url = make_game(('Ana', 'Bruno'))
    assert "Firma del anotador" in client.get(url + '/print?lang=es').get_data(as_text=True)
    assert 'Assinatura do marcador' in client.get(url + '/print?lang=pt').get_data(as_text=True)
    assert "Scorekeeper's signature" in client.get(url + '/print').get_data(as_text=True)


def test_errors_and_the_referee_speak_the_language(client):
    client.set_cookie('lang', 'es')
    r = client.get('/api/solve?cards=7♥ 1X&wild=5&lang=es')
    assert r.get_json()['error'] == '“1X” no es una carta'
    page = client.get('/audit?cards=7H 9H JH 2C&wild=3&melds=7H 9H JH').get_data(as_text=True)
    assert '7♥ 9♥ J♥ no es una escalera: faltan 8♥ y 10♥ y no tiene comodín' in page
    client.set_cookie('lang', 'pt')
    page = client.get('/audit?cards=7H 7H 7H&round=3').get_data(as_text=True)
    assert 'Três 7♥, mas só há 2 baralhos.' in page


def test_numbers_and_dates_in_the_locales_format(client):
    from flask_babel import force_locale
    from web.i18n import decimal
    from web.templating import day
    with client.application.test_request_context():
        with force_locale('es'):
            assert decimal(27.5) == '27,5' and day('2026-11-29') == '29 nov 2026'
        with force_locale('pt'):
            assert decimal(1234.5) == '1.234,5' and 'nov' in day('2026-11-29')
        with force_locale('en'):
            assert decimal(1234.5) == '1,234.5' and day('2026-11-29') == 'Nov 29, 2026'


@pytest.mark.parametrize('language, typed, canonical', [
    ('es', 'Rey♥', 'KH'), ('es', 'reina♠', 'QS'), ('es', 'JotaD', None), ('es', 'As♣', 'AC'), ('pt', 'Ás♥', 'AH'),
    ('pt', 'ValeteS', None), ('pt', 'Dama♦', 'QD'), ('pt', 'Rei♣', 'KC'), ('pt', 'VC', 'JH'), ('pt', 'R♦', 'KD'),
    ('en', 'AS', 'AS'), ('en', 'Rey♥', None), ('es', 'sota♣', 'JC'), ('es', 'RC', 'KH'), ('pt', 'DE', None),
])
def test_cards_as_spanish_and_portuguese_tables_name_them(language, typed, canonical):
    """A rank word is glued to a suit symbol (rey♥) or says its suit in words; letters glue to letters
    (pt VC: valete de copas). Each page reads its own language's words only."""
    if canonical is None:
        with pytest.raises(CardError):
            parse_cards(typed, jokers=2, language=language)
    else:
        assert [str(c) for c in parse_cards(typed, jokers=2, language=language)] == [canonical]


def test_a_rank_is_read_with_the_same_words_as_a_card():
    """Issue 40: the wild-rank field refused 'sota' and Portuguese 'D' though cards took them."""
    assert parse_rank('Reina', 'es') == 12 and parse_rank('rey', 'es') == 13 and parse_rank('sota', 'es') == 11
    assert parse_rank('D', 'pt') == 12 and parse_rank('valete', 'pt') == 11 and parse_rank('K') == 13
    with pytest.raises(CardError):
        parse_rank('D')                   # D is no rank in English (nor in Spanish)


RANK_WORDS = {'es': ['ases', 'doses', 'treses', 'cuatros', 'cincos', 'seises', 'sietes', 'ochos', 'nueves', 'dieces',
                     'jotas', 'reinas', 'reyes'],
              'pt': ['ases', '2s', '3s', '4s', '5s', '6s', '7s', '8s', '9s', '10s',   # 'os três' reads 'all three'
                     'valetes', 'damas', 'reis']}
FEMININE = {'es': {'jotas', 'reinas'}, 'pt': {'damas'}}
ARTICLES = {'es': ('los', 'las'), 'pt': ('os', 'as')}


@pytest.mark.parametrize('language', TRANSLATED)
def test_the_round_banner_agrees_for_every_wild_rank(client, language):
    """'Las reinas son comodines', never 'Los reinas'; 'As damas são curingas', never 'Os damas'."""
    client.set_cookie('lang', language)
    masculine, feminine = ARTICLES[language]
    for rank, word in zip(['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'], RANK_WORDS[language]):
        for jokers in (0, 2):
            page = client.get('/audit', query_string={'cards': '7H', 'wild': rank, 'jokers': jokers}).get_data(as_text=True)
            banner = re.search(r'<p class="banner now">([^<]+)</p>', page).group(1)
            article = feminine if word in FEMININE[language] else masculine
            assert banner.startswith(f'{article.capitalize()} {word} '), banner
            assert f'{masculine} {masculine} ' not in banner.lower() and f'{feminine} {feminine} ' not in banner.lower()


def test_zero_reads_as_plural_in_portuguese(client, make_game):
    client.set_cookie('lang', 'pt')
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, '1']))
    page = client.get(url).get_data(as_text=True)
    # each figure of the standings whole in its own span (issue 48)
    assert '>0 pontos<' in page and '>0 rodadas zeradas<' in page and '>1 ponto<' in page
    assert '>0 ponto<' not in page and '0 rodada zerada<' not in page


@pytest.mark.parametrize('language, word, message', [
    ('es', 'comodín', 'dice que una carta es comodín, no qué carta es'),
    ('pt', 'curinga', 'diz que uma carta é curinga, não qual carta é'),
    ('pt', 'coringa', 'diz que uma carta é curinga, não qual carta é'),
])
def test_the_tables_word_for_a_wild_card_gets_a_message_in_its_language(client, language, word, message):
    client.set_cookie('lang', language)
    r = client.get('/api/solve', query_string={'cards': f'7♥ {word}', 'wild': '5', 'lang': language})
    assert r.status_code == 400 and message in r.get_json()['error']


def test_a_line_that_starts_a_sentence_starts_with_a_capital(client, make_game):
    client.set_cookie('lang', 'es')
    url = make_game(('Ana', 'Bruno'), game='short')
    play_rounds(client, url, 8, 2, went_out=0, points=5)
    assert 'Partida terminada.</strong> Gana Ana con 0.' in client.get(url).get_data(as_text=True)


# Forms a native player would correct (issue 26's review): grammar, calques, a second word for one
# concept, English-looking ordinals. Every msgstr is read against them.
FORBIDDEN = {
    'es': ['si quizá', 'como sí misma', 'caducado', 'Empatados comparten', 'Este teléfono es %(player)s',
           'Tocar cartas', 'Volver a esta', 'puntaje', 'Puntaje', 'tomar su lugar', 'Toma tu lugar', 'toma tu lugar',
           'El lugar de', 'igual al tamaño de la mano', 'cartas, %(wild)s comodín',
           # issue 40's review
           'Quedarse con', 'Sitio', 'Demasiadas preguntas', 'Unir dos grafías', '(3-13)', 'quien anota',
           'juego corto', 'Juego: ', 'un juego', 'Las {count} {card}', ', todos', 'penalización media',
           # issue 51's review
           'pasar la cuenta', 'Pasar la cuenta', 'Quitarle la cuenta', 'recibió la cuenta', 'se declaran', 'revisor',
           'eis-catorce', 'como mucho', 'grafía', 'la carta misma', 'día del calendario', 'Se dibujaron', 'Puntuada',
           # issue 51's fresh review: a save said as software's noun, the scorekeeping as 'la cuenta' beside
           # 'anotar', a calque with no object, a bare adjective as a page title, two words for the app,
           # 'lugar' (the venue) for a seat, a clipped 'estas', the ordinal of 'el puesto'
           'el guardado', 'la guardada', 'lleva la cuenta', 'llevar la cuenta', 'como anotador', 'Demasiado ocupado',
           'Demasiado lento', 'la app', 'tu lugar', 'su lugar', 'estas no combinan', '.ª',
           # issue 51's second review: a bare 'Su' label read as usted, 'cambiar la mesa' (swap tables) for
           # changing it, a permission said as a habit, the phone as 'el anotador de' a game
           'Su idioma', 'cambiar la mesa', 'la cambian', 'es anotador de'],
    'pt': ['se talvez', 'como ela mesma', 'todo coringa é curinga', 'Tirar {card}', 'Tocar cartas',
           'Voltar a esta', 'Seis-catorze', 'seis-catorze', 'Ligar', 'Desligar', '.ª', 'de um jogo',
           'um jogo pode', 'num jogo', 'cartas, %(wild)s curinga',
           # the score sheet is 'placar', never 'folha' (a printed page is 'uma folha A4')
           ' a folha', 'A folha', 'na folha', 'da folha', 'folha de',
           # issue 40's review
           'agora é %(player)s', 'Para a mesa', 'link de acompanhar', 'Toque um', 'Toque uma', 'Perguntas demais',
           'olicitaç', 'arquivo da partida', 'quem anota', '(3-13)', 'partida curto', 'As {count} {card}',
           ', todos', ', os dois', 'os três são', 'os seis são', 'os dez são', 'os dois são', 'numa só página',
           # issue 51's review
           'marcação', 'rodada dobrada', 'conferidor', 'eis-quatorze', 'grafia', 'liga o valor', 'dia do calendário',
           'foram desenhadas', 'Pontuada', 'leem este código',
           # issue 51's fresh review: 'a salva' (a volley), 'salvamento' (a rescue), English's 'Too many X were'
           # order, a calque with no object, 'em um momento', two words for the app, a clipped 'estas'
           'a salva', 'salvamento', ' demais foram', 'Requisições demais', 'Conexões demais', 'como marcador',
           'em um momento', 'do app', 'o app', 'estas não combinam', 'Ocupado demais', 'Lento demais',
           # issue 51's second review: 'mudar a mesa' (move or switch tables) for editing it, a form's
           # 'remover da administração', 'Abra isto' before any link exists, the phone as 'o marcador de' a game
           'mudar a mesa', 'mudá-la', 'Remover da', 'Abra isto', 'é marcador de'],
}


@pytest.mark.parametrize('language', sorted(FORBIDDEN))
def test_no_translation_uses_a_form_a_native_player_would_correct(language):
    from babel.messages.pofile import read_po
    with open(ROOT / 'translations' / language / 'LC_MESSAGES' / 'messages.po', 'rb') as f:
        catalog = read_po(f)
    found = [(m.id, bad) for m in catalog if m.id
             for text in (m.string if isinstance(m.string, tuple) else (m.string,))
             for bad in FORBIDDEN[language] if bad in (text or '')]
    assert found == []


@pytest.mark.parametrize('language, items, alternatives, joined', [
    ('es', ['Ana', 'Inés'], False, 'Ana e Inés'),
    ('es', ['Ana', 'Bruno', 'Hilda'], False, 'Ana, Bruno e Hilda'),
    ('es', ['Ana', 'Hierro'], False, 'Ana y Hierro'),          # a diphthong: the y stays
    ('es', ['Ana', 'Bruno'], False, 'Ana y Bruno'),
    ('es', ['K♠', '8♥'], True, 'K♠ u 8♥'),                    # ocho
    ('es', ['siete', 'ocho'], True, 'siete u ocho'),
    ('es', ['K♠', '7♥'], True, 'K♠ o 7♥'),
    ('pt', ['Ana', 'Inês'], False, 'Ana e Inês'),
    ('pt', ['K♠', '8♥'], True, 'K♠ ou 8♥'),
    ('en', ['Ana', 'Inés'], False, 'Ana and Inés'),
])
def test_joined_lists_follow_the_language(app, language, items, alternatives, joined):
    """Spanish y before an i sound is e, and o before an o sound is u (issue 26)."""
    from scorer.i18n import listing
    with app.test_request_context(f'/?lang={language}'):
        assert listing(items, alternatives) == joined


@pytest.mark.parametrize('language', LANGUAGES)
def test_a_wild_rank_takes_the_rank_words_and_letters_a_card_takes(client, language):
    """One reading of a rank (scorer.reading.rank_of): 'sota', 'rey', pt 'D' or 'valete' are a wild
    rank wherever a card takes them, in the API, its audit and the CLI's reader, and what no card
    takes ('13♥', '1♥', 'D♥' in English) is no wild rank either."""
    from scorer.cards import RANK_TEXT
    from scorer.reading import LANGUAGES as READERS, card
    table = READERS[language]
    for word, rank in {**table.rank_letters, **table.rank_words}.items():
        for typed in {word, word.lower(), word.capitalize()}:
            assert card(typed + '♥', language).rank == parse_rank(typed, language) == rank, typed
            asked = {'cards': '7♥ 8♥', 'lang': language}
            got = client.get('/api/audit', query_string={**asked, 'wild': typed})
            want = client.get('/api/audit', query_string={**asked, 'wild': RANK_TEXT[rank]})
            assert got.status_code == want.status_code == 200, (typed, got.get_json())
            assert got.get_json()['intro'] == want.get_json()['intro'], typed
            assert client.get('/api/solve', query_string={**asked, 'wild': typed}).status_code == 200, typed
    others = {w for t in READERS.values() for w in (*t.rank_letters, *t.rank_words)}
    for typed in ['0', '1', '11', '12', '13', '14', *sorted(others - set(table.rank_letters) - set(table.rank_words))]:
        with pytest.raises(CardError):
            card(typed + '♥', language)
        with pytest.raises(CardError):
            parse_rank(typed, language)
        r = client.get('/api/solve', query_string={'cards': '7♥ 8♥', 'lang': language, 'wild': typed})
        said = {'en': 'wild: ', 'es': 'comodín: ', 'pt': 'curinga: '}[language]
        assert r.status_code == 400 and r.get_json()['error'].startswith(said), (typed, r.get_json())


@pytest.mark.parametrize('lang, tag', [('en', 'en'), ('es', 'es'), ('pt', 'pt-BR')])
def test_the_page_and_the_manifest_name_the_language_by_its_tag(client, lang, tag):
    """The Portuguese is Brazilian: `<html lang="pt-BR">`, the switcher's links and the manifest say
    so (web.i18n.language_tag, the one place); the catalog's code stays on the page for the phone's
    offline scorer (data-language), which reads its catalog by it."""
    from web.i18n import language_tag
    assert language_tag(lang) == tag
    client.set_cookie('lang', lang)
    page = client.get('/').get_data(as_text=True)
    assert f'<html lang="{tag}" data-language="{lang}">' in page
    assert 'hreflang="pt-BR"' in page or lang == 'pt'
    assert 'lang="pt"' not in page
    manifest = client.get('/manifest.webmanifest').get_json(force=True)
    assert manifest['lang'] == tag


@pytest.mark.parametrize('language', TRANSLATED)
def test_the_audit_field_shows_its_cards_with_symbols_every_language_reads(client, language):
    """A link to an audit carries canonical letters (7H QS); the page's own field reads the table's
    letters (in Spanish 7H is no card), so the field shows the cards with suit symbols, which every
    language reads alike; text that is no cards stays as it was typed."""
    client.set_cookie('lang', language)
    page = client.get('/audit', query_string={'cards': '7H JK QS', 'round': 1, 'jokers': 2}).get_data(as_text=True)
    assert 'value="7♥ 🃏 Q♠"' in page
    page = client.get('/audit', query_string={'cards': '7H 1X', 'round': 1}).get_data(as_text=True)
    assert 'value="7H 1X"' in page


# Every English text used from more than one file, without a message context, and the one role it
# plays in all of them (read by a reviewer: one translation has to fit each place). A text that
# plays two roles ('Not allowed': an error page's title and the all-wild-melds option, which es/pt
# make a feminine plural) takes a context (pgettext) in one of them, and so leaves this list.
ONE_ROLE = {
    "a column or row of the scoresheet, its print and its file": {
        'Cards', 'Cards left', 'Dealer', 'Place', 'Points', 'Rd', 'Round', 'Total', 'Went out', 'Wild', 'Zero',
        'Zero rounds', 'went out', 'Avg', 'Best', 'Worst', 'Wins', 'Shared', 'Player'},
    'a link, button or page title naming where it goes or what it does': {
        'All games', 'Back to the scoresheet', 'Correct round %(n)d', 'Delete game', 'Edit round %(n)d',
        'Enter round %(n)d', 'Games', 'History', 'How to play offline', 'New game', 'Player stats', 'Print',
        'Sheet', 'Undo', 'Big screen', 'Choose a file', 'No file chosen', 'Import', 'Merge', 'New table'},
    'a heading of a part of a page': {
        'Current round', 'Round %(n)d', 'Round %(n)d cannot be scored', 'Rules', 'Running totals by round',
        'Scoresheet', 'Standings', 'of %(last)d', 'Seat %(n)d', 'Not sent yet ({n})', 'Finished', 'In progress',
        'Head to head', 'Wins, game after game', 'Tables'},
    "the app's name": {'Three-Thirteen', 'Three-Thirteen scorekeeper'},
    'an option of the new-game form, and the rules line that repeats it': {'J, Q, K count 10'},
    "which game is played (Three-Thirteen, Five Crowns): the new-game form's field, the table CSV's column": {'Game'},
    'a count or a fact shown beside a name or a round': {
        '%(dealer)s deals', ('%(num)d card', '%(num)d cards'), ('%(num)d point', '%(num)d points'),
        ('%(num)d zero round', '%(num)d zero rounds'), 'round %(n)d of %(last)d', 'This phone', 'Another phone',
        'since %(when)s', '%(spelling)s counts as %(name)s', '%(first)s %(a)d, %(second)s %(b)d',
        ('%(num)d finished game counted.', '%(num)d finished games counted.'),
        ('%(num)d game together', '%(num)d games together')},
    'a sentence said to a person': {
        'Cannot go out: the best discard, %(card)s, still leaves %(points)d.', 'Game over.',
        'Goes out by discarding %(cards)s.', 'Made here, not sent yet.', 'No finished game yet.',
        'Not taken: export the game file.', 'Note: %(note)s', 'Nothing was saved: fix the problem above.',
        'Reconnecting… the sheet below is as it was at {time}.', 'Round %(round)d saved.',
        'The form could not be checked; reload the page and try again.',
        'The scorekeeper enters every hand in this game.',
        'The server was too busy to answer: nothing was changed. Try again in a moment.', 'This game was deleted.',
        '%(spelling)s counts on its own again.', '%(spelling)s now counts as %(name)s.', 'Choose two names from the list.',
        'It is shown this once: the app keeps no copy. Making another stops this one working.', 'No game in progress.',
        'Nothing was imported: %(error)s.',
        'The server was too busy to read the file: nothing was imported. Try again in a moment.',
        'Avg: penalty per round · Zero: zero rounds · Best and Worst: game totals',
        'No finished game here yet: the standings appear once a game is over.'},
    'an error about what was asked or read': {
        'a query is an object like %(example)s', ('at most %(most)d character, not %(count)d',
                                                  'at most %(most)d characters, not %(count)d'),
        'no cards given (%(example)s)', "no game '%(game)s'",
        'round %(round)s is not in a %(game)s game (rounds 1-%(last)d)',
        'rules must be an object of settings, like %(example)s', "unknown parameter '%(name)s'"},
}


def test_a_text_used_in_several_places_plays_one_role_there(tmp_path):
    """Issue 51: one English text in two roles gets one translation that fits only one of them
    (the 405 page titled "No permitidas"). A text used from several files is listed above with its
    one role, or takes a context where it plays another."""
    shared = {m.id for m in extracted(tmp_path / 'located.pot', locations=True)
              if m.context is None and len({path for path, line in m.locations}) > 1}
    listed = [text for texts in ONE_ROLE.values() for text in texts]
    assert len(listed) == len(set(listed)), 'a text listed under two roles needs a context in one of them'
    assert sorted(map(str, shared - set(listed))) == []


@pytest.mark.parametrize('lang, title, option', [('es', 'Acción no permitida', 'No permitidas'),
                                                 ('pt', 'Ação não permitida', 'Não permitidas')])
def test_the_405_page_and_the_all_wild_option_each_have_their_words(client, lang, title, option):
    client.set_cookie('lang', lang)
    page = client.delete('/games/new').get_data(as_text=True)
    assert f'<h1>{title}</h1>' in page and option not in page
    assert f'>{option}</option>' in client.get('/games/new').get_data(as_text=True)


# A number followed by what it counts ('%(count)d cards', '{count} jokers', '%(most)d characters').
COUNTED = re.compile(r'(?:%\(\w+\)d|\{\w+\}) (?:\w+ )?(?:cards?|jokers?|points?|times?|decks?|rounds?|seconds?|'
                     r'characters?|wilds?|spellings?|digits?|players?|versions?)\b')


def test_every_message_with_a_count_has_a_plural():
    """Issue 51: '1 puntos anotados', 'Ya están en esta ronda los 1 jokers': a message that counts goes
    through ngettext, so each language writes its singular itself."""
    single = [m.id for m in template() if m.id and not isinstance(m.id, tuple) and COUNTED.search(m.id)]
    assert single == []


def fill(text, n):
    """A counted message with every placeholder given the count (a name placeholder, the count too)."""
    text = re.sub(r'\{\w+\}', str(n), text)
    return text % {name: n for name in re.findall(r'%\((\w+)\)', text)}


@pytest.mark.parametrize('lang', LANGUAGES)
def test_each_counted_message_reads_right_with_0_1_2_and_5(lang):
    """Each plural message rendered with 0, 1, 2 and 5 in every language: the form for 1 is a singular
    (not the plural's words with a 1 in them), and 0, 2 and 5 take the plural, as these languages say."""
    import gettext
    from scorer.i18n import catalog as compiled
    t = compiled(lang) or gettext.NullTranslations()
    for m in template():
        if not isinstance(m.id, tuple):
            continue
        singular, plural = m.id
        forms = {n: t.ngettext(singular, plural, n) for n in (0, 1, 2, 5)}
        rendered = {n: fill(forms[n], n) for n in forms}
        assert rendered[1] != fill(forms[5], 1), (lang, m.id, rendered[1])
        assert forms[0] == forms[2] == forms[5] != forms[1], (lang, m.id, rendered)
        assert all(str(n) in rendered[n] for n in (0, 2, 5)) or '%(num)d' not in plural + forms[5], (lang, m.id)


@pytest.mark.parametrize('lang, count, said', [
    ('es', 1, '<bdi>Bruno</bdi></strong>: <span class="score">1</span>\n        <span class="quiet">punto anotado</span>'),
    ('pt', 1, '<bdi>Bruno</bdi></strong>: <span class="score">1</span>\n        <span class="quiet">ponto anotado</span>'),
    ('es', 5, '<bdi>Bruno</bdi></strong>: <span class="score">5</span>\n        <span class="quiet">puntos anotados</span>')])
def test_points_as_entered_agree_with_the_score(client, make_game, lang, count, said):
    client.set_cookie('lang', lang)
    url = make_game(('Ana', 'Bruno'))
    client.post(url + '/rounds/1', data=round_form(0, points=[None, str(count)]))
    assert said in client.get(url + '/rounds/1?saved=1').get_data(as_text=True)


@pytest.mark.parametrize('lang, one, two', [
    ('es', 'El joker ya está en esta ronda.', 'Ya están en esta ronda los 2 jokers.'),
    ('pt', 'O joker já está nesta rodada.', 'Os 2 jokers já estão nesta rodada.'),
    ('en', 'The joker is already in this round.', 'All 2 jokers are already in this round.')])
def test_the_keypad_says_one_joker_in_the_singular(app, lang, one, two):
    """The keypad's counted words go to its script as one form per count (words.js picks by {count})."""
    import json
    from web.templating import picker_words
    with app.test_request_context(f'/?lang={lang}'):
        words = json.loads(str(picker_words()))
    assert words['jokers'][1] == one and words['jokers'][2].replace('{count}', '2') == two


# What may stand in a Spanish or Portuguese page or CLI answer though English has it too: the names
# of the test's players and places, the games' and browsers' names, formats, and the command line's
# own words (commands, options, the rules' values, which are typed as they are).
NAMES = {'Ana', 'Bruno', 'Noche', 'Casa', 'Three', 'Thirteen', 'Five', 'Crowns', 'Six', 'Fourteen', 'English',
         'Chrome', 'Linux', 'Android', 'Safari', 'iPhone', 'JSON', 'CSV', 'UTF', 'A4', 'QR', 'SVG', 'PNG', 'PDF',
         'HTTP', 'HTTPS', 'URL', 'id'}
COMMAND_LINE = re.compile(r'--?[\w-]+|\b(?:python|scorer|check|solve|sheet|docs|rules|md|jsonl|[a-z]+_[a-z_]+|'
                          r'standard|short|ten|ranked|low|true|false|none|es|pt|en)\b|\{[^}]*\}|\S+\|\S+|'
                          r'HOST=\S+ make run|\b(?:de|of) (?:game|decks|jokers|aces) \(')
# English the app's catalogs never hold, seen in leaks: a JSON parser's message, argparse's words.
LEAKS = {'expecting', 'delimiter', 'char', 'value', 'usage', 'error', 'required', 'following', 'arguments', 'help',
         'show', 'message', 'exit', 'invalid', 'choice', 'positional', 'options', 'on'}


def english_words(lang):
    """Words of the app's English messages (and known leaks) that the language's catalog never uses."""
    words, theirs = set(LEAKS), set()
    for m in catalog(lang):
        if not m.id:
            continue
        for text in (m.id if isinstance(m.id, tuple) else (m.id,)):
            words |= {w.lower() for w in re.findall(r'[A-Za-z]{2,}', PLACEHOLDER.sub(' ', text))}
        for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
            theirs |= {w.lower() for w in re.findall(r'[A-Za-zÀ-ÿ]{2,}', PLACEHOLDER.sub(' ', text))}
    return words - theirs - {n.lower() for n in NAMES}


def shown(page):
    """What a person is told by a page: its text, and every alt, title, aria-label and SVG <title>."""
    said = re.findall(r'\b(?:alt|title|aria-label|placeholder)="([^"]*)"', page)
    said += re.findall(r'<title[^>]*>([^<]*)</title>', page)
    text = re.sub(r'<(script|style)\b.*?</\1>', ' ', page, flags=re.S)
    text = html.unescape(re.sub(r'<[^>]+>', ' ', text) + ' ' + ' '.join(said))
    return re.sub(r'https?://\S+', ' ', text)


def english_in(text, lang, vocabulary):
    text = COMMAND_LINE.sub(' ', text)
    return sorted({w for w in re.findall(r'[A-Za-zÀ-ÿ]{2,}', text) if w.lower() in vocabulary and w not in NAMES})


@pytest.mark.parametrize('lang', TRANSLATED)
def test_no_english_inside_a_translated_page_or_command_line(client, lang):
    """Issue 51: the keepers list's 'Chrome on Linux', a broken file's '(Expecting ',' delimiter)', the
    command line's --help and argparse's errors under --lang: every page (its text, alt, title and
    aria-label too) and the CLI's help and errors say nothing in English but names."""
    vocabulary = english_words(lang)
    client.environ_base['HTTP_USER_AGENT'] = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36'
    client.set_cookie('lang', lang)
    paths, url = pages(client)
    found = {path: english_in(shown(client.get(path).get_data(as_text=True)), lang, vocabulary) for path in paths}
    broken = client.post('/import', data={'game_file': (io.BytesIO(b'{"version": 1 "players": []}'), 'g.json')},
                         content_type='multipart/form-data')
    found['a broken file'] = english_in(shown(broken.get_data(as_text=True)), lang, vocabulary)
    from tests.test_cli import said_in
    found.update({line: english_in(out, lang, vocabulary) for line, out in said_in(lang).items()})
    assert {where: words for where, words in found.items() if words} == {}


@pytest.mark.parametrize('lang', TRANSLATED)
def test_quoted_text_takes_the_languages_quotes(lang):
    """Issue 51: 'ana' in straight quotes reads as code; Spanish and Portuguese quote with “ ”
    (docs/glossary.md)."""
    straight = [m.id for m in catalog(lang) if m.id
                for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if re.search(r"'[^']+'", s or '')]
    assert straight == []


@pytest.mark.parametrize('lang, players, said', [
    ('es', ['Ana'], 'Una partida tiene de 2 a 8 jugadores, no 1.'),
    ('pt', ['Ana'], 'Uma partida tem de 2 a 8 jogadores, não 1.'),
    ('es', ['ana', 'Ana'], 'Dos jugadores se llaman “Ana”.'),
    ('pt', ['ana', 'Ana'], 'Dois jogadores se chamam “Ana”.')])
def test_an_error_line_is_a_sentence(client, lang, players, said):
    """Issue 51: an error shown as a whole line starts with a capital and ends with a full stop."""
    client.set_cookie('lang', lang)
    page = html.unescape(client.post('/games/new', data=new_game_form(players)).get_data(as_text=True))
    assert said in page


def test_a_round_error_that_starts_with_a_name_keeps_it_as_typed(client, make_game):
    from scorer.i18n import sentence
    assert sentence('ana holds 9 cards', names=['ana']) == 'ana holds 9 cards.'
    assert sentence('la ronda 99 no existe') == 'La ronda 99 no existe.'
    assert sentence('¿Qué?') == '¿Qué?'


@pytest.mark.parametrize('lang, joined', [('es', 'Ana, Bruno y Carla'), ('pt', 'Ana, Bruno e Carla'),
                                          ('en', 'Ana, Bruno and Carla')])
def test_a_deleted_games_players_end_with_and(client, make_game, lang, joined):
    client.set_cookie('lang', lang)
    url = make_game(('Ana', 'Bruno', 'Carla'))
    page = client.post(url + '/delete', follow_redirects=True).get_data(as_text=True)
    assert f'{joined}.' in page or f'{joined} foi apagada.' in page


# Portuguese speaks to the player as você: never tu's pronouns, nor tu's imperative where a message
# tells what to do after a colon or a semicolon ("não é uma carta: liga o valor ao naipe").
TU_WORDS = re.compile(r'\b(?:tu|teu|tua|teus|tuas|ti|contigo)\b', re.I)
TU_IMPERATIVE = re.compile(r'[:;] (?:liga|escreve|toca|digita|escolhe|abre|usa|tenta|apaga|junta|anota|olha|carrega|'
                           r'corrige|guarda|volta|pede|entra|sai|vê|faz|põe|diz)\b')


def test_portuguese_says_voce_everywhere():
    """Issue 51: 'liga o valor ao naipe' is a tu form in a você app."""
    found = [(m.id, s) for m in catalog('pt') if m.id
             for s in (m.string if isinstance(m.string, tuple) else (m.string,))
             if TU_WORDS.search(s) or TU_IMPERATIVE.search(s)]
    assert found == []


# A run of cards or a range of ranks or numbers: Q-K-A, K-A-2, 2-10, 7-8 players.
CARD_RUN = re.compile(r'(?<![\w-])(?:[AKQJ]|10|[2-9])-(?:[AKQJ]|10|[2-9])(?![\w-])')


def test_a_run_of_cards_never_breaks_at_its_hyphens():
    """Issue 51's fresh review: "(K- / A-2)" split over two lines at 360 px. Every run of cards and
    range of ranks or numbers in a message, English or translated, is joined by non-breaking hyphens (U+2011)."""
    found = [(lang, m.id, text) for lang in ['en'] + TRANSLATED for m in (template() if lang == 'en' else catalog(lang))
             if m.id for text in ((m.id if isinstance(m.id, tuple) else (m.id,)) if lang == 'en' else
                                  (m.string if isinstance(m.string, tuple) else (m.string,)))
             if CARD_RUN.search(text or '')]
    assert found == []


@pytest.mark.parametrize('lang', TRANSLATED)
def test_the_six_fourteen_rules_line_says_what_its_aces_are(lang):
    """Issue 51's fresh review: "…; con 14 cartas, los ases" stopped mid-sentence. The line says the
    aces are wild as the round banner says it ("los ases son comodines")."""
    from scorer.i18n import catalog as compiled, speaking
    from scorer.referee import wild_words
    from scorer.rules import Rules, make_rules, rules_words
    rules = make_rules({'game': 'six_fourteen'})
    with speaking(compiled(lang), lang):
        assert wild_words(1, Rules()) in rules_words(rules)[0]


def test_wtforms_own_messages_are_read_once_a_language_not_at_every_page(client, make_game, monkeypatch):
    """A follower's sheet page makes forms (the seats'); wtforms' catalog for the page's language is
    read from disk once a process, not at each page (flask_wtf reads it for every request)."""
    from babel import support
    from web import forms
    forms.wtforms_words.cache_clear()
    url = make_game()
    read, load = [], support.Translations.load
    monkeypatch.setattr(support.Translations, 'load',
                        lambda *args, **kwargs: read.append(kwargs.get('domain')) or load(*args, **kwargs))
    follower = client.application.test_client()
    for _ in range(3):
        assert follower.get(url, headers={'Accept-Language': 'es'}).status_code == 200
    assert read.count('wtforms') == 1
    page = follower.post('/games/new', data={'players-0': 'Ana'}, headers={'Accept-Language': 'es'})
    assert read.count('wtforms') == 1 and 'Ana' in page.get_data(as_text=True)


@pytest.mark.parametrize('path', ['/', '/games/new?lang=pt', '/api/solve?cards=KH', '/api/solve?lang=es&cards=KH'])
@pytest.mark.parametrize('accept, cookie', [('es-MX,es;q=0.9', ''), ('pt-BR', 'es'), ('fr, pt;q=0.4', ''),
                                            ('de', ''), ('', 'pt'), ('en-GB,es;q=0.8', 'xx')])
def test_a_refused_connection_speaks_the_language_its_page_would(app, path, accept, cookie):
    """The production worker answers a client over its connections 429 itself, before the app (web/worker.py):
    its words are in the language the app would have answered that request in, chosen by the same
    function (web/i18n.py choose_language), for pages and the JSON API alike."""
    from flask_babel import get_locale

    from web.worker import language_of
    headers = {'Accept-Language': accept, **({'Cookie': f'lang={cookie}'} if cookie else {})}
    head = f'GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n' + ''.join(f'{k}: {v}\r\n' for k, v in headers.items()) + '\r\n'
    with app.test_request_context(path, headers=headers):
        page = str(get_locale())
    assert language_of(head.encode('latin-1')) == page
