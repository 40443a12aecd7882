"""Summaries of finished games, kept per revision so that history and stats never recompute a game."""

import json

from scorer.limits import MAX_KEPT

from .database import writing


SUMMARY_ROUNDS = ('went_out', 'round_numbers', 'scores')      # the part of a summary only the stats read


def summaries(db, ids, rounds=False):
    """{game id: summary data} for those of `ids` whose summary is of their current revision; the
    round-by-round part only when asked (the history needs the result alone)."""
    ids = list(ids)[:MAX_KEPT]
    if not ids:
        return {}
    rows = db.query(f"""select s.game_id, s.result, s.rounds from summaries s join games g on g.id = s.game_id
                        and g.revision = s.revision where s.game_id in ({', '.join('?' for _ in ids)})""", ids)
    return {row['game_id']: {**json.loads(row['result']), **(json.loads(row['rounds']) if rounds else {})}
            for row in rows}


def keep_summary(db, game_id, revision, data):
    """Keep a game's summary for this revision (replacing an older one)."""
    result = {k: v for k, v in data.items() if k not in SUMMARY_ROUNDS}
    rounds = {k: data[k] for k in SUMMARY_ROUNDS}
    with writing(db):
        db.execute('insert or replace into summaries (game_id, revision, result, rounds) values (?, ?, ?, ?)',
                   [game_id, revision, json.dumps(result, ensure_ascii=False), json.dumps(rounds, ensure_ascii=False)])
