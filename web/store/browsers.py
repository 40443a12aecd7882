"""What the store knows of a browser (by its token's hash): the games it keeps score of, its merged spellings."""

from scorer.limits import MAX_KEPT

from .database import now, writing


def keep(db, browser, ids):
    """This browser keeps score of these games (again: the newest first in its list)."""
    stamp = now()
    with writing(db):
        for game_id in ids:
            db.execute('insert or replace into kept (browser, game_id, since) values (?, ?, ?)', [browser, game_id, stamp])


def keeps(db, browser, game_id):
    """Whether this browser keeps score of the game."""
    return bool(list(db.query('select 1 from kept where browser = ? and game_id = ?', [browser, game_id])))


def keeps_any(db, browser):
    """Whether this browser keeps score of any game (a scorekeeper, with budgets of its own)."""
    return bool(list(db.query('select 1 from kept where browser = ? limit 1', [browser])))


def kept(db, browser):
    """The ids of the games this browser keeps score of (at most MAX_KEPT, the most recently kept first)."""
    return [row['game_id'] for row in db.query('select game_id from kept where browser = ? order by since desc '
                                                f'limit {MAX_KEPT}', [browser])]


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
