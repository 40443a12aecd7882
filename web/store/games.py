"""Games: made, loaded, listed and deleted, with their edit keys (to share or hand over), revision,
colours and settings, the game's last change of a round, the ids of deleted games (never used again),
and games made on a phone offline (by the phone's id and key)."""

import hmac
import json
import sqlite3
from functools import lru_cache

from scorer.gamefile import entry_data, read_entry
from scorer.limits import MAX_KEPT
from scorer.rules import kind_of, make_rules
from scorer.sheet import Game, hand_keys, next_round

from .browsers import MAKERS, end_link, keep_row, payer
from .database import insert, key_hash, local_day, new_id, new_key, now, writing
from .solutions import drop_solutions, keep_solutions


def entries_json(entries):
    return json.dumps([entry_data(e) for e in entries], ensure_ascii=False)


def create_game(db, game, game_id=None, earlier=None, table_id=None, solutions=None):
    """Store a new game (with any rounds it already has, as an import does, and their `earlier`
    versions: {round: [(entries, when replaced)]}, oldest first, kept as their history), under
    `game_id` (a phone's, for a game made offline) or a new one, in the table `table_id` if given;
    returns (id, edit key). sqlite3.IntegrityError when that id is taken, or was a deleted game's (an
    id is never used twice). `solutions`, the solver's answers for its hands, are stored with it
    (store/solutions.py)."""
    with writing(db):
        made = insert_game(db, game, game_id, earlier, table_id)
        keep_solutions(db, solutions)
        return made


def taken(db, game_id):
    """Whether a game has this id, or had it and was deleted."""
    return bool(list(db.query('select 1 from games where id = ? union all select 1 from deleted where id = ?',
                              [game_id, game_id])))


def insert_game(db, game, game_id=None, earlier=None, table_id=None):
    """create_game() inside a write already begun."""
    if game_id is None:
        game_id = new_id()
        while taken(db, game_id):            # 96 random bits: never, but an id is never used twice
            game_id = new_id()
    elif list(db.query('select 1 from deleted where id = ?', [game_id])):
        raise sqlite3.IntegrityError(f'the id {game_id} was a deleted game\'s')
    key, stamp = new_key(), now()
    insert(db, 'games', {'id': game_id, 'title': game.title, 'players': json.dumps(list(game.players)),
                        'rules': json.dumps(game.rules.to_dict()), 'first_dealer': game.first_dealer,
                        'created': stamp, 'updated': stamp, 'key_hash': key_hash(key), 'revision': 0,
                        'place': game.place, 'date': game.date or local_day(), 'table_id': table_id})
    if table_id:
        db.execute('update tables set revision = revision + 1 where id = ?', [table_id])
    for number, entries in game.rounds.items():
        changes = (earlier or {}).get(number, ())
        made = [entries_json(versions) for versions, _when in changes] + [entries_json(entries)]
        for version, (_entries, when) in enumerate(changes, 1):      # version n, replaced by version n + 1
            insert(db, 'history', {'game_id': game_id, 'number': number, 'before': made[version - 1],
                                   'after': made[version], 'changed': when or stamp, 'version': version + 1})
        insert(db, 'rounds', {'game_id': game_id, 'number': number, 'entries': made[-1],
                              'version': len(made), 'saved': stamp})
    return game_id, key


def create_made_here(db, game, made_id, made_key=None, browser=''):
    """A game a phone made offline, sent with the id it gave it and a key of its own (kept as a
    hash): (id, how), how being 'new' (made under the phone's id), 'again' (sent before: the same
    game, whether or not the answer got back), 'moved' (the phone's id was taken, or a deleted
    game's: made under a new one, remembered for the next send) or 'gone' (sent before, and deleted
    since). A phone from before keys is recognised as the game's sender by `browser` keeping it."""
    made_hash = key_hash(made_key) if made_key else None
    with writing(db):
        if made_hash:
            sent = list(db.query('select game_id from made_here where made_id = ? and key_hash = ?', [made_id, made_hash]))
            if sent:
                game_id = sent[0]['game_id']
                there = list(db.query('select 1 from games where id = ?', [game_id]))
                return game_id, 'again' if there else 'gone'
        elif browser and list(db.query('select 1 from kept where browser = ? and game_id = ?', [browser, made_id])):
            return made_id, 'again'
        moved = taken(db, made_id)
        game_id, _key = insert_game(db, game, None if moved else made_id)
        if made_hash:
            insert(db, 'made_here', {'made_id': made_id, 'key_hash': made_hash, 'game_id': game_id, 'made': now()})
    return game_id, 'moved' if moved else 'new'


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


def kept_alike(db, browser, game):
    """The ids of the games this browser keeps that have the same players in the same seats as `game`
    (stored as create_game stores them): the games it could be a copy of."""
    return [row['id'] for row in db.query(
        'select g.id from kept k join games g on g.id = k.game_id where k.browser = ? and g.players = ?',
        [browser, json.dumps(list(game.players))])]


def edit_key_hash(db, game_id):
    """The hash of the game's edit key ('' for a game from before keys); None when there is no such game."""
    rows = list(db.query('select key_hash from games where id = ?', [game_id]))
    return (rows[0]['key_hash'] or '') if rows else None


def new_edit_key(db, game_id, mode='share', giver=''):
    """A new edit key for the game (the one before stops working): returned once, kept as a hash.
    Whoever opens it keeps score too ('share'), or instead of `giver`, the browser that made it
    ('handover')."""
    key = new_key()
    with writing(db):
        db.execute('update games set key_hash = ?, link_mode = ?, link_giver = ? where id = ?',
                   [key_hash(key), mode, giver, game_id])
    return key


def take_keeping(db, game_id, key, browser, device=''):
    """A browser opened a scorekeeper link: if `key` is the game's, it keeps score from now on, and
    for a handover the browser that made the link stops, and the link is used up. Returns the
    link's mode ('share' or 'handover'), or None for a wrong key; all in one transaction, so a
    handover link opened twice at once hands over once."""
    with writing(db):
        rows = list(db.query('select key_hash, link_mode, link_giver from games where id = ?', [game_id]))
        if not rows or not rows[0]['key_hash'] or not hmac.compare_digest(rows[0]['key_hash'], key_hash(key or '')):
            return None
        mode, giver = rows[0]['link_mode'] or 'share', rows[0]['link_giver'] or ''
        how = 'link'
        if mode == 'handover':           # the maker's place passes on only from the maker (MAKERS)
            hows = [r['how'] for r in db.query('select how from kept where game_id = ? and browser = ?', [game_id, giver])]
            how = 'handover' if any(h in MAKERS for h in hows) else 'link'
        keep_row(db, browser, game_id, device, how, (payer(db, giver) or giver) if giver else '')
        if how == 'handover':            # a keeper already, now the maker too
            db.execute("update kept set how = 'handover' where game_id = ? and browser = ?", [game_id, browser])
        if mode == 'handover':
            if giver and giver != browser:
                db.execute('delete from kept where game_id = ? and browser = ?', [game_id, giver])
            end_link(db, game_id)                # used up
        else:
            db.execute('update games set revision = revision + 1 where id = ?', [game_id])
    return mode


def last_change(db, game_id):
    """The game's last change of a round: {'number', 'version', 'saved', 'undo'}, or None. Its time
    is the round's own while the round is as that change left it."""
    rows = list(db.query('select g.last_number, g.last_version, coalesce(r.saved, g.last_saved) as saved, g.last_undo '
                         'from games g left join rounds r on r.game_id = g.id and r.number = g.last_number '
                         'and r.version = g.last_version where g.id = ?', [game_id]))
    if not rows or rows[0]['last_number'] is None:
        return None
    row = rows[0]
    return {'number': row['last_number'], 'version': row['last_version'], 'saved': row['saved'],
            'undo': bool(row['last_undo'])}


def key_revision_kept(db, game_id, browser):
    """(the hash of the game's edit key, its save count, whether `browser` keeps score of it) in one
    look-up; (None, None, False) when there is no such game. `db` a sqlite-utils Database or a plain
    sqlite3 connection (the live hub's: web/live.py Hub.look)."""
    rows = db.execute('select key_hash, revision, exists (select 1 from kept where browser = ? and game_id = games.id) '
                      'from games where id = ?', [browser, game_id]).fetchall()
    return ((rows[0][0] or ''), rows[0][1], bool(rows[0][2])) if rows else (None, None, False)


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


def list_games(db, ids=None, table_id=None):
    """Games, newest first, with their players, rules and how many rounds are in; only `ids` if
    given, or only the table's."""
    where, args = '', []
    if table_id is not None:
        where, args = 'where g.table_id = ?', [table_id]
    elif ids is not None:
        ids = list(ids)[:MAX_KEPT]
        if not ids:
            return []
        where = f"where g.id in ({', '.join('?' for _ in ids)})"
        args = ids
    sql = f'''select g.id, g.title, g.place, g.date, g.players, g.rules, g.created, g.updated, g.revision,
                    count(r.number) as rounds, group_concat(r.number) as numbers
             from games g left join rounds r on r.game_id = g.id {where}
             group by g.id order by g.updated desc, g.created desc, g.rowid desc'''
    games = []
    for row in db.query(sql, args):
        rules, numbers = rules_of(row['rules']), row.pop('numbers')
        entered = {int(n) for n in numbers.split(',')} if numbers else set()
        games.append({**row, 'players': json.loads(row['players']), 'kind': kind_of(rules.game), 'own_kind': rules.own_kind,
                      'last_round': rules.last_round, 'next_round': next_round(rules, entered),
                      'finished': row['rounds'] >= rules.last_round})
    return games


def delete_game(db, game_id):
    """Delete a game with its rounds, history, seats, drafts and its hands' answers, in one transaction;
    its id stays taken (an old share link or printed QR code never opens another game)."""
    with writing(db):
        game = load_game(db, game_id)
        if game is not None:
            versions = [(h['number'], tuple(read_entry(e, '', lenient=True) for e in json.loads(entries)))
                        for h in db.query('select number, before, after from history where game_id = ?', [game_id])
                        for entries in (h['before'], h['after'])]
            drop_solutions(db, hand_keys(game, versions))
        db.execute('delete from summaries where game_id = ?', [game_id])
        db.execute('delete from kept where game_id = ?', [game_id])
        db.execute('delete from drafts where game_id = ?', [game_id])
        db.execute('delete from seats where game_id = ?', [game_id])
        db.execute('delete from history where game_id = ?', [game_id])
        db.execute('delete from rounds where game_id = ?', [game_id])
        gone = db.execute('delete from games where id = ?', [game_id]).rowcount
        if gone:
            db.execute('insert or ignore into deleted (id, deleted) values (?, ?)', [game_id, now()])


def was_deleted(db, game_id):
    """Whether a game had this id and was deleted."""
    return bool(list(db.query('select 1 from deleted where id = ?', [game_id])))


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
