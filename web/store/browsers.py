"""What the store knows of a browser (by its token's hash): the games it keeps score of (when it
joined each, what it is, how it came), its merged spellings, and the key its tokens are signed with."""

import secrets

from scorer.limits import MAX_KEPT

from .database import key_hash, new_key, now, writing

HOW = ('made', 'link', 'handover', 'import', 'rematch', 'old')    # how a browser came to keep a game
# The ways of coming that make a browser the game's maker, whom no other keeper can remove: it made
# the game (new, imported, a rematch), or the maker handed it the game (a handover from any other
# keeper comes as 'link': it passes on what that keeper had).
MAKERS = ('made', 'import', 'rematch', 'handover')


def keep(db, browser, ids, device='', how='made'):
    """This browser keeps score of these games (again: the newest first in its list; when it first
    joined, what it is and how it came stay as they were)."""
    with writing(db):
        for game_id in ids:
            keep_row(db, browser, game_id, device, how)


def keep_row(db, browser, game_id, device='', how='made', payer=''):
    """keep() of one game, inside a write already begun; `payer`: whose budgets it spends, if not its own."""
    stamp = now()
    db.execute('insert into kept (browser, game_id, since, joined, device, how, handle, payer) '
               'values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (browser, game_id) do update set since = excluded.since',
               [browser, game_id, stamp, stamp, (device or '')[:80], how, secrets.token_urlsafe(9),
                '' if payer == browser else payer])


def keeps_any(db, browser):
    """Whether this browser keeps score of any game (a scorekeeper, with budgets of its own)."""
    return bool(list(db.query('select 1 from kept where browser = ? limit 1', [browser])))


def payer(db, browser):
    """Whose budgets this browser spends (web/ratelimit.py): its own if it keeps a game it did not come
    to by a scorekeeper link (made, imported, a rematch), else those of the keeper whose link it came
    by first (that keeper's own payer, so a chain of links is still one person); None when it keeps
    no game at all (it is counted by its address)."""
    rows = list(db.query('select coalesce(payer, \'\') as payer from kept where browser = ? '
                         'order by payer != \'\', coalesce(joined, since), rowid limit 1', [browser]))
    if not rows:
        return None
    return rows[0]['payer'] or browser


def kept(db, browser):
    """The ids of the games this browser keeps score of (at most MAX_KEPT, the most recently kept first)."""
    return [row['game_id'] for row in db.query('select game_id from kept where browser = ? order by since desc '
                                                f'limit {MAX_KEPT}', [browser])]


def keepers(db, game_id, browser=''):
    """The browsers that keep score of the game, the first to join first: [{'handle', 'joined',
    'device', 'how', 'mine', 'maker'}] (`mine`: the browser asking; `maker`: no other keeper can remove it)."""
    found = {}
    for r in db.query('select browser, handle, joined, since, device, how from kept where game_id = ? '
                      'order by coalesce(joined, since), rowid', [game_id]):
        mine = r['browser'] == browser
        if r['handle'] not in found or mine:      # a token from before and its successor: one browser
            found[r['handle']] = {'handle': r['handle'], 'joined': r['joined'] or r['since'],
                                  'device': r['device'] or '', 'how': r['how'] or '', 'mine': mine,
                                  'maker': r['how'] in MAKERS}
    return list(found.values())


def remove_keeper(db, game_id, handle, browser):
    """Another browser stops keeping score of the game: 'removed', 'maker' (the game's maker, whom no
    other keeper can remove: nothing changed) or 'gone' (no such keeper: nothing changed). A keeper
    cannot remove itself here. Removal is final: the scorekeeper link ends with it (end_link), so the
    removed browser cannot come back by it, and the game's revision moves, so every page of it shows
    who keeps score now."""
    with writing(db):
        rows = list(db.query('select how from kept where game_id = ? and handle = ? and browser != ?',
                             [game_id, handle, browser]))
        if not rows:
            return 'gone'
        if any(r['how'] in MAKERS for r in rows):
            return 'maker'
        db.execute('delete from kept where game_id = ? and handle = ? and browser != ?', [game_id, handle, browser])
        end_link(db, game_id)
    return 'removed'


def end_link(db, game_id):
    """Inside a write: the game's scorekeeper link stops working (its key becomes one nobody was
    shown; only a new link lets anyone in), and the game's revision moves."""
    db.execute('update games set key_hash = ?, link_mode = null, link_giver = null, revision = revision + 1 '
               'where id = ?', [key_hash(new_key()), game_id])


def known(db, browser):
    """Whether the store holds anything of this browser (games it keeps, spellings it merged)."""
    return bool(list(db.query('select 1 from kept where browser = ? union all select 1 from merges where browser = ? '
                              'limit 1', [browser, browser])))


def copy_browser(db, old, new):
    """What the store holds of one browser, held by another too (a token from before is replaced)."""
    with writing(db):
        db.execute('insert or ignore into kept (browser, game_id, since, joined, device, how, handle, payer) '
                   'select ?, game_id, since, joined, device, how, handle, payer from kept where browser = ?', [new, old])
        db.execute('insert or ignore into merges (browser, spelling, name) select ?, spelling, name from merges '
                   'where browser = ?', [new, old])


def signing_key(db):
    """The key browser tokens are signed with (made by the migration, kept in the database)."""
    rows = list(db.query("select value from secrets where name = 'browser'"))
    return rows[0]['value'].encode()


def kept_players(db, browser):
    """The names of the players of the games this browser keeps, each once (SQLite reads them: a
    browser keeping 500 games costs a query, not 500 games read)."""
    return [row['name'] for row in db.query(
        'select distinct p.value as name from kept k join games g on g.id = k.game_id, json_each(g.players) p '
        'where k.browser = ?', [browser])]


def merges(db, browser):
    """This browser's merged spellings: {spelling (case-folded): name}."""
    return {row['spelling']: row['name'] for row in db.query('select spelling, name from merges where browser = ?',
                                                              [browser])}


def set_merges(db, browser, merged):
    """Replace this browser's merged spellings."""
    with writing(db):
        db.execute('delete from merges where browser = ?', [browser])
        for spelling, name in merged.items():
            db.execute('insert into merges (browser, spelling, name) values (?, ?, ?)', [browser, spelling, name])
