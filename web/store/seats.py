"""Seats: taken by one browser each, atomically, and the hands their players enter before a round is saved."""

import hmac

from .database import insert, key_hash, new_key, now, writing


def seats_taken(db, game_id):
    """{seat: when it was taken} for the seats that a phone holds."""
    return {r['seat']: r['taken'] for r in db.query('select seat, taken from seats where game_id = ?', [game_id])}


def take_seat(db, game_id, seat, browser=None):
    """Give the seat to this phone: its new key, or None when the seat is taken or this browser
    already holds a seat of the game (both checked in the one transaction that gives it)."""
    key = new_key()
    with writing(db):
        if list(db.query('select 1 from seats where game_id = ? and (seat = ? or browser = ?)',
                         [game_id, seat, browser])):
            return None
        insert(db, 'seats', {'game_id': game_id, 'seat': seat, 'key_hash': key_hash(key), 'taken': now(),
                            'browser': browser})
        db.execute('update games set revision = revision + 1 where id = ?', [game_id])
    return key


def seat_of_browser(db, game_id, browser):
    """The seat this browser holds in the game, or None."""
    rows = list(db.query('select seat from seats where game_id = ? and browser = ?', [game_id, browser]))
    return rows[0]['seat'] if rows else None


def seat_holder(db, game_id, seat, key):
    """Whether `key` is the key of the phone that holds this seat (compared in constant time)."""
    rows = list(db.query('select key_hash from seats where game_id = ? and seat = ?', [game_id, seat]))
    return bool(rows) and hmac.compare_digest(rows[0]['key_hash'], key_hash(key or ''))


def free_seat(db, game_id, seat):
    with writing(db):
        db.execute('delete from seats where game_id = ? and seat = ?', [game_id, seat])
        db.execute('update games set revision = revision + 1 where id = ?', [game_id])


def save_draft(db, game_id, number, seat, went_out, cards, points):
    """Keep what a player entered for their own seat in a round not yet saved (replacing what was there)."""
    with writing(db):
        if list(db.query('select 1 from rounds where game_id = ? and number = ?', [game_id, number])):
            return False                    # the scorekeeper saved the round meanwhile
        insert(db, 'drafts', {'game_id': game_id, 'number': number, 'seat': seat, 'went_out': int(went_out),
                              'cards': cards or '', 'points': points or '', 'updated': now()},
                       key=('game_id', 'number', 'seat'))
    return True


def drafts(db, game_id, number):
    """{seat: {'went_out', 'cards', 'points', 'updated'}}: what the players entered for this round."""
    return {r['seat']: {'went_out': bool(r['went_out']), 'cards': r['cards'], 'points': r['points'],
                        'updated': r['updated']}
            for r in db.query('select * from drafts where game_id = ? and number = ?', [game_id, number])}
