"""Games: made, loaded, listed and deleted, with their edit keys, revision, colours and settings."""

import json
from functools import lru_cache

from scorer.gamefile import entry_data, read_entry
from scorer.limits import MAX_KEPT
from scorer.rules import make_rules
from scorer.sheet import Game, next_round

from .database import insert, key_hash, local_day, new_id, new_key, now, writing


def entries_json(entries):
    return json.dumps([entry_data(e) for e in entries], ensure_ascii=False)


def create_game(db, game, game_id=None):
    """Store a new game (with any rounds it already has, as an import does), under `game_id` (a
    phone's, for a game made offline) or a new one; returns (id, edit key). sqlite3.IntegrityError
    when that id is taken."""
    game_id, key = game_id or new_id(), new_key()
    stamp = now()
    with writing(db):
        insert(db, 'games', {'id': game_id, 'title': game.title, 'players': json.dumps(list(game.players)),
                            'rules': json.dumps(game.rules.to_dict()), 'first_dealer': game.first_dealer,
                            'created': stamp, 'updated': stamp, 'key_hash': key_hash(key), 'revision': 0,
                            'place': game.place, 'date': game.date or local_day()})
        for number, entries in game.rounds.items():
            insert(db, 'rounds', {'game_id': game_id, 'number': number, 'entries': entries_json(entries),
                                  'version': 1, 'saved': stamp})
    return game_id, key


def set_rematch(db, game_id, rematch_id):
    """Say that `rematch_id` is the rematch of `game_id` (the old game's followers are told)."""
    with writing(db):
        db.execute('update games set rematch = ?, revision = revision + 1 where id = ?', [rematch_id, game_id])


def rematch_of(db, game_id):
    """The id of the game's rematch, if one was started (and still exists)."""
    rows = list(db.query('select r.id from games g join games r on r.id = g.rematch where g.id = ?', [game_id]))
    return rows[0]['id'] if rows else None


def load_game(db, game_id):
    """The Game stored under this id, or None."""
    rows = list(db.query('select * from games where id = ?', [game_id]))
    if not rows:
        return None
    row = rows[0]
    rounds = {r['number']: tuple(read_entry(e, f"round {r['number']}", lenient=True) for e in json.loads(r['entries']))
              for r in db.query('select number, entries from rounds where game_id = ? order by number', [game_id])}
    return Game(tuple(json.loads(row['players'])), make_rules(json.loads(row['rules'])),
                row['first_dealer'], rounds, row['title'] or '', row['place'] or '', row['date'] or '')


def edit_key_hash(db, game_id):
    """The hash of the game's edit key ('' for a game from before keys); None when there is no such game."""
    rows = list(db.query('select key_hash from games where id = ?', [game_id]))
    return (rows[0]['key_hash'] or '') if rows else None


def new_edit_key(db, game_id):
    """A new edit key for the game (the one before stops working): returned once, kept as a hash."""
    key = new_key()
    with writing(db):
        db.execute('update games set key_hash = ? where id = ?', [key_hash(key), game_id])
    return key


def key_and_revision(db, game_id):
    """The hash of the game's edit key and its save count in one look-up; (None, None) when there is no such game."""
    rows = list(db.query('select key_hash, revision from games where id = ?', [game_id]))
    return ((rows[0]['key_hash'] or ''), rows[0]['revision']) if rows else (None, None)


def edit_key_hashes(db, ids):
    """{game id: the hash of its edit key} for those of `ids` that exist."""
    ids = list(ids)[:MAX_KEPT]
    if not ids:
        return {}
    rows = db.query(f"select id, key_hash from games where id in ({', '.join('?' for _ in ids)})", ids)
    return {row['id']: row['key_hash'] or '' for row in rows}


def revision(db, game_id):
    """How many saves the game has had; None when there is no such game."""
    rows = list(db.query('select revision from games where id = ?', [game_id]))
    return rows[0]['revision'] if rows else None


@lru_cache(maxsize=256)
def rules_of(rules_json):
    """The rules of a game as stored (a list of games asks for few kinds)."""
    return make_rules(json.loads(rules_json))


def last_round(rules_json):
    """The last round of a game with these rules as stored."""
    return rules_of(rules_json).last_round


def list_games(db, ids=None):
    """Games, newest first, with their players, rules and how many rounds are in; only `ids` if given."""
    where, args = '', []
    if ids is not None:
        ids = list(ids)[:MAX_KEPT]
        if not ids:
            return []
        where = f"where g.id in ({', '.join('?' for _ in ids)})"
        args = ids
    sql = f'''select g.id, g.title, g.place, g.date, g.players, g.rules, g.created, g.updated, g.revision,
                    count(r.number) as rounds, group_concat(r.number) as numbers
             from games g left join rounds r on r.game_id = g.id {where}
             group by g.id order by g.updated desc, g.created desc'''
    games = []
    for row in db.query(sql, args):
        rules, numbers = rules_of(row['rules']), row.pop('numbers')
        entered = {int(n) for n in numbers.split(',')} if numbers else set()
        games.append({**row, 'players': json.loads(row['players']),
                      'last_round': rules.last_round, 'next_round': next_round(rules, entered),
                      'finished': row['rounds'] >= rules.last_round})
    return games


def delete_game(db, game_id):
    """Delete a game with its rounds, history, seats and drafts, in one transaction."""
    with writing(db):
        db.execute('delete from summaries where game_id = ?', [game_id])
        db.execute('delete from kept where game_id = ?', [game_id])
        db.execute('delete from drafts where game_id = ?', [game_id])
        db.execute('delete from seats where game_id = ?', [game_id])
        db.execute('delete from history where game_id = ?', [game_id])
        db.execute('delete from rounds where game_id = ?', [game_id])
        db.execute('delete from games where id = ?', [game_id])


def self_entry(db, game_id):
    """Whether the game's players may enter their own hands."""
    rows = list(db.query('select self_entry from games where id = ?', [game_id]))
    return bool(rows and rows[0]['self_entry'])


def set_self_entry(db, game_id, allowed):
    with writing(db):
        db.execute('update games set self_entry = ?, revision = revision + 1 where id = ?', [int(allowed), game_id])


def colours(db, game_id):
    """The players' colours (indexes into scorer.chart.COLOURS, by seat); seat order when never chosen."""
    rows = list(db.query('select colours, players from games where id = ?', [game_id]))
    if not rows:
        return []
    players = len(json.loads(rows[0]['players']))
    chosen = json.loads(rows[0]['colours']) if rows[0]['colours'] else []
    return [chosen[i] if i < len(chosen) else i for i in range(players)]


def set_colours(db, game_id, chosen):
    with writing(db):
        db.execute('update games set colours = ?, revision = revision + 1 where id = ?', [json.dumps(chosen), game_id])
