"""Count what one round save does: the project's functions called (and in how many modules), and
the SQL statements run, split into those inside the write lock and schema look-ups.

    .venv/bin/python bench/save_path.py

A save is the scorekeeper's POST of round 2 of a four-player game (three hands of cards).
"""

import sqlite3
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from tests.helpers import LOOSE_RATES, new_game_form, round_form  # noqa: E402

SCHEMA = ('sqlite_master', 'pragma_table_info', 'PRAGMA table_info', 'PRAGMA index_list', 'PRAGMA foreign_key_list',
          'PRAGMA table_xinfo', 'sqlite_schema')


def main():
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({'TESTING': True, 'DATABASE': str(Path(folder) / 'save.sqlite'), 'SECRET_KEY': 'count',
                          'WTF_CSRF_ENABLED': False, **LOOSE_RATES})
        client = app.test_client()
        url = client.post('/games/new', data=new_game_form(('Ana', 'Bruno', 'Carla', 'Dan'))).headers['Location']
        client.post(url + '/rounds/1', data=round_form(0, cards=[None, 'KS QS 2D', '5H 6H 9C', '7C 8C 4D']))
        client.get(url)                    # what a save does, not what the first request of a process does
        statements, calls = [], Counter()
        connect = sqlite3.connect

        def traced(*args, **kwargs):
            conn = connect(*args, **kwargs)
            conn.set_trace_callback(lambda sql: statements.append(sql.strip()))
            return conn

        def profile(frame, event, arg):
            if event == 'call':
                code = frame.f_code
                path = code.co_filename
                if path.startswith(str(ROOT)) and '/.venv/' not in path and '/tests/' not in path \
                        and '/bench/' not in path:
                    calls[(Path(path).relative_to(ROOT).as_posix(), code.co_name)] += 1

        sqlite3.connect = traced
        sys.setprofile(profile)
        try:
            r = client.post(url + '/rounds/2', data=round_form(
                1, cards=['KS QS 2D 9H', None, '5H 6H 9C 4S', '7C 8C 4D 10D']))
        finally:
            sys.setprofile(None)
            sqlite3.connect = connect
        assert r.status_code == 302, r.status_code
    locked, holding = [], False             # between BEGIN IMMEDIATE and its COMMIT: the write lock
    for sql in statements:
        holding = holding or sql.upper().startswith('BEGIN IMMEDIATE')
        if holding:
            locked.append(sql)
        holding = holding and sql.upper() not in ('COMMIT', 'ROLLBACK')
    schema = [sql for sql in locked if any(s.lower() in sql.lower() for s in SCHEMA)]
    modules = {module for module, _ in calls}
    print(f'One round save: {len(calls)} project functions in {len(modules)} modules '
          f'({sum(calls.values())} calls); {len(statements)} SQL statements, {len(locked)} of them holding '
          f'the write lock, {len(schema)} of those schema look-ups.')
    for sql in statements if '-v' in sys.argv else []:
        print('  ', sql[:110])
    for (module, name), n in sorted(calls.items()) if '-f' in sys.argv else []:
        print(f'   {module}:{name} {n}')


if __name__ == '__main__':
    main()
