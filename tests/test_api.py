"""/api/solve answers like one line of `solve --jsonl`."""

def test_solve_by_wild_and_by_round(client):
    r = client.get('/api/solve?cards=7H 8H 9H KS 5C&wild=5')
    assert r.status_code == 200
    assert r.get_json()['penalty'] == 10
    assert r.get_json()['deadwood'] == ['KS']
    assert client.get('/api/solve?cards=QH KH AH&round=1&aces=high_or_low').get_json()['penalty'] == 0


def test_solve_errors_are_clear(client):
    for query, message in [('cards=7H 1X&wild=5', "'1X' is not a card"),
                           ('cards=7H&round=12', 'round 12 is not in a standard game'),
                           ('cards=7H', 'give the wild rank'),
                           ('cards=&wild=5', 'no cards given'),
                           ('cards=7H&wild=5&aces=up', "'up' is not a value of aces"),
                           ('cards=7H&wild=5&colour=red', "unknown parameter 'colour'"),
                           ('cards=2H 3H 4H 5H 6H&round=1', '5 cards, but round 1 deals 3 (at most 4 with the card drawn)')]:
        r = client.get('/api/solve?' + query)
        assert r.status_code == 400, query
        assert message in r.get_json()['error']


def test_solve_with_a_games_rules(client, make_game):
    url = make_game(('Ana', 'Bruno'), jokers=2)
    game_id = url.rsplit('/', 1)[1]
    assert client.get(f'/api/solve?cards=JK JK 7H&round=1&game_id={game_id}').get_json()['penalty'] == 0
    assert client.get('/api/solve?cards=JK JK 7H&round=1').status_code == 400     # no jokers by default
    assert client.get('/api/solve?cards=7H&round=1&game_id=nope').status_code == 404
    # An address made before the id had its own name (game=<id>) still reads the game's rules.
    assert client.get(f'/api/solve?cards=JK JK 7H&round=1&game={game_id}').get_json()['penalty'] == 0
    assert client.get('/api/solve?cards=7H&round=1&game=nope').status_code == 404


def test_game_may_name_the_game_setting(client):
    # Round 7 of the short game deals 11 cards, so jacks are wild (standard: 9 cards, nines).
    assert client.get('/api/solve?cards=JS&round=7&game=short').get_json()['penalty'] == 15
    assert client.get('/api/solve?cards=JS&round=7').get_json()['penalty'] == 10


def test_a_hand_may_hold_the_rounds_cards_and_the_one_drawn(client):
    """With round=N a hand holds at most the round's size + 1; with only the wild rank, up to MAX_HAND."""
    from scorer.limits import MAX_HAND
    assert client.get('/api/solve?cards=2H 3H 4H 6C&round=1').status_code == 200
    assert client.get('/api/solve?cards=2H 3H 4H 6C 7C&round=1').status_code == 400
    most = ' '.join(f'{rank}{suit}' for suit in 'HS' for rank in '2 3 4 5 6 7 8 9 10 J Q K A'.split())
    most = ' '.join(most.split()[:MAX_HAND])
    assert client.get(f'/api/solve?cards={most}&wild=5').status_code == 200
    r = client.get(f'/api/solve?cards={most} QD&wild=5')
    assert r.status_code == 400 and f'{MAX_HAND + 1} cards, but a hand holds at most {MAX_HAND}' in r.get_json()['error']


def test_a_client_asking_too_fast_is_told_to_wait(app, client):
    """The second fence around the solver: SOLVER_RATE answers per client, then 429 saying why."""
    app.config['SOLVER_RATE'] = '5 per minute'
    codes = [client.get('/api/solve?cards=7H+8H+9H&wild=5').status_code for _ in range(5)]
    assert codes == [200] * 5
    r = client.get('/api/audit?cards=7H+8H+9H&wild=5')
    assert r.status_code == 429 and 'wait a moment' in r.get_json()['error']
    r = client.get('/audit?cards=7H+8H+9H&wild=5')
    assert r.status_code == 429 and 'wait a moment' in r.get_data(as_text=True)
    assert client.get('/').status_code == 200                  # nothing else is fenced


def test_wild_and_round_together_must_agree(client):
    """One reading everywhere: the round gives the wild rank and the hand size; a wild rank that says
    otherwise is refused, on the API, the audit page and the command line alike."""
    assert client.get('/api/solve?cards=3S 3H KD&wild=3&round=1').status_code == 200
    r = client.get('/api/solve?cards=3S 3H KD&wild=5&round=1')
    assert r.status_code == 400 and r.get_json()['error'] == (
        'wild 5 does not match round 1, whose wild rank is 3: give one of them')
    assert client.get('/api/audit?cards=3S 3H KD&wild=5&round=1').status_code == 400
    page = client.get('/audit?cards=3S 3H KD&wild=5&round=1').get_data(as_text=True)
    assert 'Wild 5 does not match round 1' in page and 'Minimal penalty' not in page


def test_a_setting_that_cannot_take_effect_is_noted(client):
    """ace_penalty with aces low, joker_penalty with no jokers, wild_penalty with no wild rank."""
    data = client.get('/api/solve?cards=AS 7D&wild=none&ace_penalty=1&joker_penalty=25&wild_penalty=0').get_json()
    assert data['penalty'] == 8
    assert data['notes'] == ['ace_penalty counts only when aces are high or low: an ace counts 1',
                             'joker_penalty counts only with jokers in play',
                             'wild_penalty counts only with a wild rank']
    assert 'notes' not in client.get('/api/solve?cards=AS 7D&wild=5').get_json()
    page = client.get('/audit?cards=AS 7D&wild=5&ace_penalty=1').get_data(as_text=True)
    assert 'Note: ace_penalty counts only when aces are high or low' in page
    aces_wild = client.get('/api/audit?cards=AS 7D&wild=A&aces=high_or_low&ace_penalty=1').get_json()
    assert aces_wild['notes'] == ['ace_penalty does not count in a round where aces are wild: an unmelded ace '
                                  'costs the wild_penalty']


HEADERS = [{}, {'Accept-Language': 'es'}, {'Accept-Language': 'pt-BR,pt;q=0.9'}, {'Cookie': 'lang=es'},
           {'Accept-Language': 'es', 'Cookie': 'lang=pt'}]


def test_the_api_answers_the_same_request_the_same_way_whatever_the_browser_says(client):
    """Issue 35: /api/audit read 7C as 7♥ for a Spanish browser while /api/solve read it as clubs.
    Both read the canonical letters and speak English unless the query asks (lang=, letters=)."""
    for path in ('/api/solve?cards=7C 8C 9C KS&wild=5', '/api/audit?cards=7C 8C 9C KS&wild=5',
                 '/api/solve?cards=7C 1X&wild=5', '/api/audit?cards=7C 8X&wild=5&claim=3'):
        answers = []
        for headers in HEADERS:
            client.delete_cookie('lang')
            r = client.get(path, headers=headers)
            answers.append((r.status_code, r.get_json()))
        assert all(a == answers[0] for a in answers), path
        assert answers[0][1]['letters'] == 'en'
    assert client.get('/api/solve?cards=7C 8C 9C KS&wild=5').get_json()['melds'][0]['cards'] == ['7C', '8C', '9C']


def test_a_caller_asks_for_its_languages_letters_and_is_told_which_it_got(client):
    spanish = client.get('/api/solve?cards=7C 8C 9C KP&wild=5&lang=es').get_json()
    assert spanish['letters'] == 'es' and spanish['melds'][0]['cards'] == ['7H', '8H', '9H']
    assert spanish['deadwood'] == ['KS']
    letters_only = client.get('/api/audit?cards=7C 8C 9C KP&wild=5&letters=es').get_json()
    assert letters_only['letters'] == 'es' and letters_only['intro'] == 'Fives are wild.'
    words = client.get('/api/audit?cards=7C 8C 9C KP&wild=rey&lang=es').get_json()
    assert words['intro'] == 'Los reyes son comodines.' and words['wild'] == 'K'
    r = client.get('/api/solve?cards=7H&wild=5&lang=xx')
    assert r.status_code == 400 and "'xx' is not a language of the app" in r.get_json()['error']


API_BATCH = ['cards=7H 8H 9H&wild=5&decks=true', 'cards=7H 8H 9H&wild=5&decks=1', 'cards=7H 8H 9H&wild=5&decks=1.0',
             'cards=KS KH 5C&wild=5&all_wild_melds=1', 'cards=KS KH 5C&wild=5&all_wild_melds=true',
             'cards=JK JK 7H&wild=5&jokers=2&max_wilds_per_meld=true',
             'cards=JK JK 7H&wild=5&jokers=2&max_wilds_per_meld=1', 'cards=7C 8C 9C&wild=5&lang=es',
             'cards=7C 8C 9C&wild=5']


def test_an_answer_never_depends_on_the_request_before_it(client):
    """Issue 35: the settings cache, shared by a worker's callers, made one caller's answer depend on
    what another asked before. The same batch in any order gets the same answers."""
    import random

    def answers(batch):
        return {q: (r.status_code, r.get_json()) for q in batch for r in [client.get('/api/solve?' + q)]}
    first = answers(API_BATCH)
    assert first['cards=7H 8H 9H&wild=5&decks=true'][0] == 400
    assert first['cards=7H 8H 9H&wild=5&decks=1'][0] == 200
    rng = random.Random(35)
    for _ in range(5):
        batch = API_BATCH[:]
        rng.shuffle(batch)
        assert answers(batch) == first
