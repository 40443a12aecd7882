"""The store: games and rounds in SQLite through sqlite-utils, with the history of every edit.

What people entered is kept (players, rules, first dealer, each round's entries); totals,
places and dealers are computed from it, never stored. Saving a round is one transaction;
changing a round already saved keeps a history row with what it was and what it became.
"""

import json
import secrets
from datetime import datetime, timezone

from sqlite_utils import Database, Migrations

from scorer.gamefile import entry_data, read_entry
from scorer.rules import make_rules
from scorer.sheet import Game

migrations = Migrations('threethirteen')


@migrations()
def create_tables(db):
    db['games'].create({'id': str, 'title': str, 'players': str, 'rules': str, 'first_dealer': int,
                        'created': str, 'updated': str}, pk='id')
    db['rounds'].create({'game_id': str, 'number': int, 'entries': str, 'version': int, 'saved': str},
                        pk=('game_id', 'number'), foreign_keys=[('game_id', 'games', 'id')])
    db['history'].create({'id': int, 'game_id': str, 'number': int, 'before': str, 'after': str,
                          'changed': str}, pk='id', foreign_keys=[('game_id', 'games', 'id')])
    db['history'].create_index(['game_id', 'number'])


def now():
    return datetime.now(timezone.utc).isoformat(timespec='seconds')


def connect(path):
    """Open the database file: WAL, foreign keys on, schema brought up to date."""
    db = Database(path)
    db.execute('PRAGMA busy_timeout = 5000')
    db.enable_wal()
    db.execute('PRAGMA foreign_keys = ON')
    migrations.apply(db)
    return db


def new_id():
    """An unguessable game id."""
    return secrets.token_urlsafe(12)


def entries_json(entries):
    return json.dumps([entry_data(e) for e in entries], ensure_ascii=False)


def create_game(db, game):
    """Store a new game (with any rounds it already has, as an import does); returns its id."""
    game_id = new_id()
    stamp = now()
    with db.atomic():
        db['games'].insert({'id': game_id, 'title': game.title, 'players': json.dumps(list(game.players)),
                            'rules': json.dumps(game.rules.to_dict()), 'first_dealer': game.first_dealer,
                            'created': stamp, 'updated': stamp})
        for number, entries in game.rounds.items():
            db['rounds'].insert({'game_id': game_id, 'number': number, 'entries': entries_json(entries),
                                 'version': 1, 'saved': stamp})
    return game_id


def load_game(db, game_id):
    """The Game stored under this id, or None."""
    rows = list(db.query('select * from games where id = ?', [game_id]))
    if not rows:
        return None
    row = rows[0]
    rounds = {r['number']: tuple(read_entry(e, f"round {r['number']}") for e in json.loads(r['entries']))
              for r in db.query('select number, entries from rounds where game_id = ? order by number', [game_id])}
    return Game(tuple(json.loads(row['players'])), make_rules(json.loads(row['rules'])),
                row['first_dealer'], rounds, row['title'] or '')


def game_info(db, game_id):
    rows = list(db.query('select id, title, created, updated from games where id = ?', [game_id]))
    return rows[0] if rows else None


def list_games(db):
    """Every game, newest first, with its players, rules and how many rounds are in."""
    sql = '''select g.id, g.title, g.players, g.rules, g.created, g.updated, count(r.number) as rounds
             from games g left join rounds r on r.game_id = g.id
             group by g.id order by g.updated desc, g.created desc'''
    games = []
    for row in db.query(sql):
        rules = make_rules(json.loads(row['rules']))
        games.append({**row, 'players': json.loads(row['players']), 'last_round': rules.last_round,
                      'finished': row['rounds'] >= rules.last_round})
    return games


def save_round(db, game_id, number, entries):
    """Save a round in one transaction; a changed round keeps a history row. Returns its new version."""
    after = entries_json(entries)
    stamp = now()
    with db.atomic():
        old = list(db.query('select entries, version from rounds where game_id = ? and number = ?',
                            [game_id, number]))
        if old and old[0]['entries'] == after:
            return old[0]['version']
        version = old[0]['version'] + 1 if old else 1
        if old:
            db['history'].insert({'game_id': game_id, 'number': number, 'before': old[0]['entries'],
                                  'after': after, 'changed': stamp})
        db['rounds'].upsert({'game_id': game_id, 'number': number, 'entries': after, 'version': version,
                             'saved': stamp}, pk=('game_id', 'number'))
        db.execute('update games set updated = ? where id = ?', [stamp, game_id])
    return version


def round_history(db, game_id, number=None):
    """Earlier versions of a game's rounds, newest first."""
    sql = 'select number, before, after, changed from history where game_id = ?'
    args = [game_id]
    if number is not None:
        sql += ' and number = ?'
        args.append(number)
    return [{**h, 'before': json.loads(h['before']), 'after': json.loads(h['after'])}
            for h in db.query(sql + ' order by id desc', args)]
