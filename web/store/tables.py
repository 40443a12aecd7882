"""Tables: a group that plays together (its name, language, merged spellings and each player's
colour), the games that belong to it (a game to one table at most), and the browsers that hold it:
its readers (whoever opened its link) and its keepers (who made it, or came by its keeper link),
listed and removable as a game's keepers are, for good."""

import hmac
import json
import secrets

from scorer.limits import MAX_KEPT

from .database import key_hash, new_id, new_key, now, writing
from .solutions import keep_solutions
from .games import insert_game

# How a browser came to hold a table: it made it, imported its file, opened its keeper link, or
# only opened its link (a reader). The maker no other keeper can remove.
TABLE_HOW = ('made', 'import', 'link', 'read')
TABLE_MAKERS = ('made', 'import')


def table_taken(db, table_id):
    """Whether a table (or a game: one kind of id, one address space of links) has this id."""
    return bool(list(db.query('select 1 from tables where id = ? union all select 1 from games where id = ? '
                              'union all select 1 from deleted where id = ?', [table_id] * 3)))


def insert_table(db, name, language, browser, device='', how='made', merges=None, colours=None):
    """A new table inside a write already begun, held by `browser` as its keeper: its id."""
    table_id = new_id()
    while table_taken(db, table_id):
        table_id = new_id()
    stamp = now()
    db.execute('insert into tables (id, name, language, merges, colours, key_hash, revision, created, updated) '
               'values (?, ?, ?, ?, ?, ?, 0, ?, ?)',
               [table_id, name, language, json.dumps(merges or {}, ensure_ascii=False),
                json.dumps(colours or {}, ensure_ascii=False), key_hash(new_key()), stamp, stamp])
    hold_row(db, browser, table_id, device, how, keeper=True)
    return table_id


def create_table(db, name, language, browser, device=''):
    """A new table, its maker `browser` its first keeper: its id."""
    with writing(db):
        return insert_table(db, name, language, browser, device)


def import_table(db, name, language, merges, colours, games, browser, device='', solutions=None):
    """A table read from its file, with all its games ([(Game, earlier versions)]) and the solver's
    answers for their hands (`solutions`, store/solutions.py), in one transaction: all of it or
    nothing. Returns the table's id."""
    with writing(db):
        table_id = insert_table(db, name, language, browser, device, 'import', merges, colours)
        for game, earlier in games:
            insert_game(db, game, earlier=earlier, table_id=table_id)
        keep_solutions(db, solutions)
    return table_id


def hold_row(db, browser, table_id, device='', how='read', keeper=False):
    """Inside a write: this browser holds the table (a keeper now, if `keeper`; a reader never
    loses keeping by reading)."""
    stamp = now()
    db.execute('insert into held (browser, table_id, since, joined, device, how, handle, keeper) '
               'values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (browser, table_id) do update set since = excluded.since, '
               'keeper = max(keeper, excluded.keeper), how = case when excluded.keeper > keeper then excluded.how '
               'else how end, device = case when excluded.keeper > keeper then excluded.device else device end',
               [browser, table_id, stamp, stamp, (device or '')[:80], how, secrets.token_urlsafe(9), int(keeper)])


def hold_table(db, browser, table_id, device=''):
    """A browser that opened the table's link holds it from now on (listed on its start page, in the
    order it first opened each): written once, so that reading the table costs no write after."""
    if list(db.query('select 1 from held where browser = ? and table_id = ?', [browser, table_id])):
        return
    with writing(db):
        hold_row(db, browser, table_id, device)


def load_table(db, table_id):
    """The table: {'id', 'name', 'language', 'merges', 'colours', 'revision'}, or None."""
    rows = list(db.query('select id, name, language, merges, colours, revision from tables where id = ?', [table_id]))
    if not rows:
        return None
    row = rows[0]
    return {**row, 'merges': json.loads(row['merges'] or '{}'), 'colours': json.loads(row['colours'] or '{}')}


def keeps_table(db, browser, table_id):
    """Whether this browser keeps the table (made it, or came by its keeper link and was not removed)."""
    return bool(browser) and bool(list(db.query('select 1 from held where browser = ? and table_id = ? and keeper = 1',
                                                [browser, table_id])))


def held_tables(db, browser):
    """The tables this browser holds, the newest first: [{'id', 'name', 'keeper'}]."""
    return [{**row, 'keeper': bool(row['keeper'])} for row in db.query(
        'select t.id, t.name, h.keeper from held h join tables t on t.id = h.table_id where h.browser = ? '
        f'order by h.since desc limit {MAX_KEPT}', [browser])]


def table_keepers(db, table_id, browser=''):
    """The browsers that keep the table, the first to join first: [{'handle', 'joined', 'device',
    'how', 'mine', 'maker'}], as store.keepers lists a game's."""
    return [{'handle': r['handle'], 'joined': r['joined'], 'device': r['device'] or '', 'how': r['how'],
             'mine': r['browser'] == browser, 'maker': r['how'] in TABLE_MAKERS}
            for r in db.query('select browser, handle, joined, device, how from held where table_id = ? and keeper = 1 '
                              'order by joined, rowid', [table_id])]


def remove_table_keeper(db, table_id, handle, browser):
    """Another browser stops keeping the table: 'removed', 'maker' (nothing changed) or 'gone'
    (nothing changed). Final: it stays a reader, and the keeper link ends with it."""
    with writing(db):
        rows = list(db.query('select how from held where table_id = ? and handle = ? and browser != ? and keeper = 1',
                             [table_id, handle, browser]))
        if not rows:
            return 'gone'
        if rows[0]['how'] in TABLE_MAKERS:
            return 'maker'
        db.execute("update held set keeper = 0, how = 'read' where table_id = ? and handle = ?", [table_id, handle])
        end_table_link(db, table_id)
    return 'removed'


def end_table_link(db, table_id):
    """Inside a write: the table's keeper link stops working, and the table's revision moves."""
    db.execute('update tables set key_hash = ?, revision = revision + 1 where id = ?', [key_hash(new_key()), table_id])


def new_table_key(db, table_id):
    """A new keeper key for the table (the one before stops working): returned once, kept as a hash."""
    key = new_key()
    with writing(db):
        db.execute('update tables set key_hash = ? where id = ?', [key_hash(key), table_id])
    return key


def take_table_keeping(db, table_id, key, browser, device=''):
    """A browser opened the table's keeper link: if `key` is the table's, it keeps the table from now
    on. Whether it did."""
    with writing(db):
        rows = list(db.query('select key_hash from tables where id = ?', [table_id]))
        if not rows or not hmac.compare_digest(rows[0]['key_hash'] or '', key_hash(key or '')):
            return False
        hold_row(db, browser, table_id, device, 'link', keeper=True)
        db.execute('update tables set revision = revision + 1 where id = ?', [table_id])
    return True


def table_of(db, game_id):
    """The id of the table the game belongs to, or None."""
    rows = list(db.query('select table_id from games where id = ?', [game_id]))
    return rows[0]['table_id'] if rows else None


def join_table(db, game_id, table_id):
    """The game joins the table, if it belongs to none yet: whether it joined."""
    with writing(db):
        done = db.execute('update games set table_id = ? where id = ? and table_id is null', [table_id, game_id]).rowcount
        if done:
            db.execute('update tables set revision = revision + 1 where id = ?', [table_id])
    return bool(done)


def table_stamp(db, table_id):
    """What every figure of the table's page is made from, as one value that moves whenever any of
    it moves: the table's revision, and its games' count and saves (a game deleted, saved or joined)."""
    row = list(db.query('select t.revision, count(g.id) as games, coalesce(sum(g.revision), 0) as saves, '
                        'coalesce(max(g.updated), \'\') as updated from tables t left join games g on g.table_id = t.id '
                        'where t.id = ? group by t.id', [table_id]))
    return tuple(row[0].values()) if row else None


def table_summaries(db, table_id):
    """{game id: summary data, round by round} of the table's games whose summary is of their
    current revision (the others are made by the caller and kept with store.keep_summary)."""
    rows = db.query('select s.game_id, s.result, s.rounds from summaries s join games g on g.id = s.game_id '
                    'and g.revision = s.revision where g.table_id = ?', [table_id])
    return {row['game_id']: {**json.loads(row['result']), **json.loads(row['rounds'])} for row in rows}


def set_table_merges(db, table_id, merged):
    """Replace the table's merged spellings."""
    with writing(db):
        db.execute('update tables set merges = ?, revision = revision + 1 where id = ?',
                   [json.dumps(merged, ensure_ascii=False), table_id])


def set_table_colours(db, table_id, colours):
    """Replace the table's colours: {player (case-folded): index into scorer.chart.COLOURS}."""
    with writing(db):
        db.execute('update tables set colours = ?, revision = revision + 1 where id = ?',
                   [json.dumps(colours, ensure_ascii=False), table_id])
