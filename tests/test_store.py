"""The store: games and rounds survive, a failing save changes nothing, every edit keeps history."""

import pytest

from scorer.rules import make_rules
from scorer.sheet import Entry, Game
from web import store


@pytest.fixture
def db(tmp_path):
    return store.connect(str(tmp_path / 'store.sqlite'))


ROUND = [Entry('Ana', True), Entry('Bruno', cards='KH 5C 7D')]


def test_schema_wal_and_foreign_keys(db):
    assert db.execute('pragma journal_mode').fetchone()[0] == 'wal'
    assert db.execute('pragma foreign_keys').fetchone()[0] == 1
    assert {'games', 'rounds', 'history'} <= set(db.table_names())


def test_migrations_run_once(tmp_path):
    path = str(tmp_path / 'again.sqlite')
    store.connect(path).close()
    db = store.connect(path)
    assert [m.name for m in store.migrations.applied(db)] == [
        'create_tables', 'add_edit_key_and_revision', 'add_place_date_and_aliases', 'drop_shared_aliases',
        'add_seats_and_drafts', 'add_colours', 'add_rematch', 'add_seat_browser', 'add_summaries', 'add_kept_games_and_merges', 'hash_edit_keys',
        'add_keepers', 'add_last_change', 'add_deleted_and_made_here', 'add_browser_signing',
        'add_payer', 'add_tables', 'add_solutions']


def test_game_round_trip(db):
    game = Game(('Ana', 'Bruno'), make_rules(aces='high_or_low'), 1, {}, 'Friday', 'The cabin', '2026-11-27')
    game_id, key = store.create_game(db, game)
    assert len(game_id) >= 16
    assert store.load_game(db, game_id) == game
    store.save_round(db, game_id, 1, ROUND)
    assert store.load_game(db, game_id).rounds == {1: tuple(ROUND)}
    assert store.load_game(db, 'nope') is None


def test_edit_keeps_history(db):
    game_id, _ = store.create_game(db, Game(("Ana", "Bruno")))
    assert store.save_round(db, game_id, 1, ROUND) == 1
    assert store.save_round(db, game_id, 1, ROUND) == 1          # no change, no history
    assert store.round_history(db, game_id) == []
    edited = [Entry('Ana', True), Entry('Bruno', points=7)]
    assert store.save_round(db, game_id, 1, edited) == 2
    (h,) = store.round_history(db, game_id, 1)
    assert h['before'] == [{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'cards': 'KH 5C 7D'}]
    assert h['after'] == [{'player': 'Ana', 'went_out': True}, {'player': 'Bruno', 'points': 7}]


def test_a_failing_save_leaves_the_previous_state(db, monkeypatch):
    game_id, _ = store.create_game(db, Game(("Ana", "Bruno")))
    store.save_round(db, game_id, 1, ROUND)
    before = store.load_game(db, game_id)
    from web.store import rounds
    real_insert = rounds.insert

    def broken(db, table, row, key=()):
        if table == 'rounds':                       # after the history row is written
            raise RuntimeError('disk gone')
        real_insert(db, table, row, key)

    monkeypatch.setattr(rounds, 'insert', broken)
    with pytest.raises(RuntimeError):
        store.save_round(db, game_id, 1, [Entry('Ana', True), Entry('Bruno', points=99)])
    monkeypatch.setattr(rounds, 'insert', real_insert)
    assert store.load_game(db, game_id) == before
    assert store.round_history(db, game_id) == []                # the history row was rolled back too


def test_list_games_newest_first(db):
    first, _ = store.create_game(db, Game(("Ana", "Bruno")))
    second, _ = store.create_game(db, Game(("Carla", "Dan")))
    db.execute("update games set updated = '2000-01-01' where id = ?", [first])
    assert [g['id'] for g in store.list_games(db)] == [second, first]


def test_a_new_game_is_dated_today(db):
    from datetime import date
    game_id, _ = store.create_game(db, Game(('Ana', 'Bruno')))
    assert store.load_game(db, game_id).date == date.today().isoformat()


def test_delete_removes_rounds_and_history(db):
    game_id, _ = store.create_game(db, Game(('Ana', 'Bruno')))
    store.save_round(db, game_id, 1, ROUND)
    store.save_round(db, game_id, 1, [Entry('Ana', True), Entry('Bruno', points=3)])
    store.delete_game(db, game_id)
    assert store.load_game(db, game_id) is None
    assert db.execute('select count(*) from rounds').fetchone()[0] == 0
    assert db.execute('select count(*) from history').fetchone()[0] == 0


def test_answers_stay_while_a_stored_round_or_version_holds_their_hand_and_go_with_the_game(db):
    """The solver's answers are never trimmed from under a stored round: 120,000 of them (more than
    the newest 100,000 once kept) all stay, the first round's among them; deleting a game drops the
    answers of its rounds and earlier versions, and no other."""
    from scorer.reading import parse_hand
    from scorer.sheet import Solved, key_text, solve_hand
    rules = make_rules()

    def answer(cards, number):
        key = Solved.key(tuple(parse_hand(cards, rules)), rules.wild_rank(number), rules)
        return key, solve_hand(key[0], key[1], rules)
    first, corrected, other = answer('KH 5C 7D', 1), answer('9H 9D 2S', 1), answer('QD QS 4H', 1)
    game_id, _ = store.create_game(db, Game(('Ana', 'Bruno'), rules))
    store.save_round(db, game_id, 1, ROUND, solutions=dict([first]))
    store.save_round(db, game_id, 1, [Entry('Ana', True), Entry('Bruno', cards='9H 9D 2S')], solutions=dict([corrected]))
    kept_id, _ = store.create_game(db, Game(('Carla', 'Dana'), rules))
    store.save_round(db, kept_id, 1, [Entry('Carla', True), Entry('Dana', cards='QD QS 4H')], solutions=dict([other]))
    filler = [(f'filler {n}', '[0,[],[]]') for n in range(120_000)]
    with store.writing(db):
        db.conn.executemany('insert into solutions (key, solution) values (?, ?)', filler)
        store.keep_solutions(db, dict([answer('2C 2D 2H', 1)]))
    assert store.stored_solution(db, first[0]) == first[1]
    assert db.execute('select count(*) from solutions').fetchone()[0] == 120_004
    store.delete_game(db, game_id)
    assert store.stored_solution(db, first[0]) is None and store.stored_solution(db, corrected[0]) is None
    assert store.stored_solution(db, other[0]) == other[1]
    assert db.execute('select count(*) from solutions where key = ?', [key_text(other[0])]).fetchone()[0] == 1
    assert db.execute('select count(*) from solutions').fetchone()[0] == 120_002


def test_edit_keys_in_clear_from_before_become_hashes_and_still_hand_a_game_over(tmp_path):
    """A database of the version before: its games' edit keys are hashed by the migration, and a
    browser holding one in its old per-game cookie is still their scorekeeper."""
    from app import create_app
    from sqlite_utils import Database
    path = str(tmp_path / 'old.sqlite')
    old = Database(path)
    store.migrations.apply(old, stop_before='hash_edit_keys')
    old['games'].insert({'id': 'g1', 'title': '', 'players': '["Ana", "Bruno"]', 'rules': '{}', 'first_dealer': 0,
                         'created': '2026-11-01T00:00:00+00:00', 'updated': '2026-11-01T00:00:00+00:00',
                         'edit_key': 'old-key-in-clear-from-before-0000', 'revision': 0, 'date': '2026-11-01'})
    old.close()
    app = create_app({'TESTING': True, 'DATABASE': path, 'SECRET_KEY': 't', 'WTF_CSRF_ENABLED': False})
    with open(path, 'rb') as f:
        assert b'old-key-in-clear-from-before-0000' not in f.read()
    browser = app.test_client()
    browser.set_cookie('keeper_g1', 'old-key-in-clear-from-before-0000')
    assert browser.get('/games/g1/rounds/1').status_code == 200


def test_a_save_holds_the_write_lock_for_plain_sql_only(db):
    """No schema look-up (sqlite-utils' insert and upsert make several) while other writers wait."""
    game_id, _ = store.create_game(db, Game(("Ana", "Bruno")))
    store.save_round(db, game_id, 1, ROUND)
    seen = []
    db.conn.set_trace_callback(seen.append)
    store.save_round(db, game_id, 1, [Entry('Ana', True), Entry('Bruno', points=9)], based_on=1)
    db.conn.set_trace_callback(None)
    locked = seen[seen.index('BEGIN IMMEDIATE'):seen.index('COMMIT') + 1]
    assert not [sql for sql in locked if 'sqlite_master' in sql or 'PRAGMA' in sql.upper()]
    assert [sql.split()[0].lower() for sql in locked if not sql.startswith(('SAVEPOINT', 'RELEASE'))] == [
        'begin', 'select', 'insert', 'insert', 'update', 'commit']


def test_a_table_holds_its_games_and_its_keepers(db):
    """A game joins one table at most; a reader holds a table but keeps none of it; a keeper removed
    stays a reader and its keeper link ends; deleting a game takes it out of its table."""
    table = store.create_table(db, 'Club', 'es', 'maker')
    other = store.create_table(db, 'Otra', 'en', 'maker')
    game_id, _key = store.create_game(db, Game(('Ana', 'Bruno'), make_rules({}), 0, {}), table_id=table)
    assert store.table_of(db, game_id) == table
    assert not store.join_table(db, game_id, other)                    # one table at most
    store.hold_table(db, 'reader', table)
    assert store.keeps_table(db, 'maker', table) and not store.keeps_table(db, 'reader', table)
    key = store.new_table_key(db, table)
    assert store.take_table_keeping(db, table, key, 'friend')
    friend = [k for k in store.table_keepers(db, table) if not k['maker']]
    assert store.remove_table_keeper(db, table, friend[0]['handle'], 'maker') == 'removed'
    assert not store.keeps_table(db, 'friend', table)
    assert not store.take_table_keeping(db, table, key, 'friend')        # its link ended with it
    maker = [k for k in store.table_keepers(db, table) if k['maker']]
    assert store.remove_table_keeper(db, table, maker[0]['handle'], 'friend') == 'maker'
    assert [t['id'] for t in store.held_tables(db, 'friend')] == [table]  # it still reads the table
    before = store.table_stamp(db, table)
    store.delete_game(db, game_id)
    assert store.list_games(db, table_id=table) == [] and store.table_stamp(db, table) != before


def test_an_earlier_database_gets_tables(tmp_path):
    from sqlite_utils import Database
    path = str(tmp_path / 'old.sqlite')
    old = Database(path)
    store.migrations.apply(old, stop_before='add_tables')
    old.close()
    db = store.connect(path)
    assert {'tables', 'held'} <= set(db.table_names()) and 'table_id' in db['games'].columns_dict
