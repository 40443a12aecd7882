"""The sheet and the audit in Spanish and in Portuguese, in Chromium at a phone's size, with screenshots."""

import pytest

from tests.browser import expect, no_horizontal_scroll, phone, phone_in, shot, start_game, tap_cards
from tests.helpers import TRANSLATED

WORDS = {
    'es': {'new': 'Nueva partida', 'seat': 'Asiento', 'start': 'Empezar la partida', 'enter': 'Anotar la ronda 1',
           'out': 'salió', 'tap': 'Elegir cartas', 'penalty': 'Penalización 22', 'save': 'Guardar la ronda 1',
           'saved': 'Ronda 1 guardada', 'back': 'Volver a la hoja de puntos', 'standings': 'Clasificación',
           'audit': 'Revisar', 'minimum': 'Penalización mínima: 26', 'verdict': 'declaró 43, pero el mínimo es 26',
           'claim': 'Revisar lo declarado', 'claimed': 'Puntuación declarada', 'check': 'Revisar',
           'wild': 'Los treses son comodines', 'hand': '4C 5C 6C 7T QP 9D',      # corazones, tréboles, picas
           'carla': '4C 3E 6C'},
    'pt': {'new': 'Nova partida', 'seat': 'Lugar', 'start': 'Começar a partida', 'enter': 'Anotar a rodada 1',
           'out': 'bateu', 'tap': 'Escolher cartas', 'penalty': 'Penalidade 22', 'save': 'Salvar a rodada 1',
           'saved': 'Rodada 1 salva', 'back': 'Voltar ao placar', 'standings': 'Classificação',
           'audit': 'Conferir', 'minimum': 'Penalidade mínima: 26', 'verdict': 'declarou 43, mas o mínimo é 26',
           'claim': 'Conferir uma declaração', 'claimed': 'Pontuação declarada', 'check': 'Conferir',
           'wild': 'Os 3s são curingas', 'hand': '4C 5C 6C 7P QE 9O',          # copas, paus, espadas, ouros
           'carla': '4C 3E 6C'},
}


@pytest.mark.parametrize('lang', TRANSLATED)
def test_sheet_and_audit_in_the_tables_language(browser, server, lang):
    w = WORDS[lang]
    context = phone(browser)
    context.set_extra_http_headers({'Accept-Language': f'{lang},{lang}-BR;q=0.9'})
    page = context.new_page()
    page.goto(server.url + '/')
    page.get_by_role('link', name=w['new']).click()
    for seat, name in enumerate(['Ana', 'Bruno', 'Carla'], 1):
        page.get_by_label(f"{w['seat']} {seat}", exact=True).fill(name)
    page.locator('#first_dealer').select_option('0')
    page.get_by_role('button', name=w['start']).click()
    page.get_by_role('link', name=w['enter']).click()
    expect(page.locator('.banner.now')).to_contain_text(w['wild'])
    page.locator('#player-0').get_by_label(w['out']).check()
    tap_cards(page, 1, ['KH', '5C', '7D'])
    expect(page.locator('#player-1 .preview')).to_contain_text(w['penalty'])
    page.locator('#player-2 .cards-input').fill(w['carla'])    # 4♥ 3♠ 6♥ in the page's letters
    page.get_by_role('button', name=w['save']).click()
    expect(page.get_by_text(w['saved'])).to_be_visible()
    page.get_by_role('link', name=w['back']).click()
    expect(page.get_by_role('heading', name=w['standings'])).to_be_visible()
    assert no_horizontal_scroll(page)
    shot(page, f'sheet-{lang}')

    page.get_by_role('link', name=w['audit'], exact=True).click()
    page.locator('#cards').fill(w['hand'])                     # 4♥ 5♥ 6♥ 7♣ Q♠ 9♦, as the table writes it
    page.locator('#wild').select_option('3')
    page.get_by_text(w['claim']).click()
    page.get_by_label(w['claimed']).fill('43')
    page.get_by_role('button', name=w['check'], exact=True).click()
    expect(page.get_by_text(w['minimum'])).to_be_visible()
    expect(page.locator('.verdict')).to_contain_text(w['verdict'])
    assert no_horizontal_scroll(page)
    shot(page, f'audit-{lang}')
    assert context.outside == [] and context.errors == []
    context.close()


@pytest.mark.parametrize('lang, typed, saved', [('es', '7C 8C 9C', '7H 8H 9H'), ('pt', '7C 8C 9C', '7H 8H 9H'),
                                                ('es', '7T 8T 9T', '7C 8C 9C'), ('pt', '7P 8P 9P', '7C 8C 9C')])
def test_typed_suit_letters_are_read_in_the_pages_language(browser, server, lang, typed, saved):
    """A Spanish or Portuguese player typing 7C means corazones or copas: the chips, the preview and
    the saved round all say hearts (and T, P say clubs); symbols go back into the field."""
    context = phone_in(browser, server, lang)
    try:
        page = context.new_page()
        game = start_game(page, server.url, ['Ana', 'Bruno'])
        page.goto(game + '/rounds/1')
        page.locator('#went_out-0').check()
        field = page.locator('#entries-1-cards')
        field.fill(typed)
        suit = '♥' if saved.startswith('7H') else '♣'
        expect(page.locator('.chips[data-seat="1"] .chip').first).to_have_text(f'7{suit}')
        expect(page.locator('.preview[data-seat="1"]')).to_contain_text(f'7{suit}')
        shot(page, f'typed-suits-{lang}-{typed[1]}')
        page.locator('.save-bar button').click()
        page.wait_for_url('**/rounds/1?saved=1')
        assert page.request.get(game + '/export.json').json()['rounds'][0]['entries'][1]['cards'] == saved
    finally:
        context.close()


@pytest.mark.parametrize('lang, choose', [('es', 'Elegir un archivo'), ('pt', 'Escolher um arquivo')])
def test_the_file_to_import_is_chosen_with_the_pages_words(browser, server, lang, choose, tmp_path):
    """The browser's own file field speaks the browser's language; the page's button speaks the page's."""
    game = tmp_path / 'partida.json'
    game.write_text('{"version": 1, "players": ["Ana", "Bruno"], "rules": {}, "first_dealer": 0, "rounds": []}')
    context = phone_in(browser, server, lang)
    try:
        page = context.new_page()
        page.goto(server.url + '/')
        button = page.get_by_text(choose, exact=True)
        expect(button).to_be_visible()
        with page.expect_file_chooser() as chooser:
            button.click()
        chooser.value.set_files(str(game))
        expect(page.locator('.file-chosen')).to_have_text('partida.json')
        shot(page, f'import-{lang}')
    finally:
        context.close()
