"""The store: games and rounds in SQLite through sqlite-utils, with the history of every edit; one
module a job, every name read as store.<name>.

What people entered is kept (players, rules, first dealer, each round's entries); totals,
places and dealers are computed from it, never stored. Saving a round is one transaction;
changing a round already saved keeps a history row with what it was and what it became.

The store is a package of small modules by job; everything is read as `store.<name>`.
"""

from .schema import ReadOnly, connect, migrations, open_file, upgrade
from .disk import FULL, READ_ONLY, trouble as disk_trouble
from .database import (BUSY_TIMEOUT_MS, GAME_ID, LOCK_WAIT_MS, READ_WAIT_MS, Conflict, begin_writing, cannot_write, insert, is_busy, waited, waiting,
                       is_game_id, key_hash, out_of_files, local_day, new_id, new_key, now, writing)
from .games import (colours, create_game, create_made_here, delete_game, edit_key_hash, edit_key_hashes, entries_json,
                    key_revision_kept, kept_alike, last_change, last_round, list_games, load_game, new_edit_key,
                    rematch_of, revision, self_entry, set_colours, set_rematch, set_self_entry, take_keeping, taken,
                    was_deleted)
from .rounds import NotUndone, earlier_versions, history_entry, round_history, round_version, save_round, undo_round
from .browsers import (HOW, copy_browser, keep, keepers, keeps_any, kept, kept_players, known, merges, payer,
                       remove_keeper, set_merges, signing_key)
from .seats import drafts, free_seat, save_draft, seat_holder, seat_of_browser, seats_taken, take_seat
from .solutions import drop_solutions, keep_solutions, stored_solution
from .summaries import SUMMARY_ROUNDS, keep_summary, summaries
from .tables import (TABLE_HOW, create_table, held_tables, hold_table, import_table, join_table, keeps_table, load_table,
                     new_table_key, remove_table_keeper, set_table_colours, set_table_merges, table_keepers, table_of,
                     table_stamp, table_summaries, take_table_keeping)

__all__ = [  # what the rest of the app reads as store.<name>
    'ReadOnly', 'connect', 'migrations', 'open_file', 'upgrade', 'FULL', 'READ_ONLY', 'disk_trouble', 'BUSY_TIMEOUT_MS', 'GAME_ID', 'LOCK_WAIT_MS', 'READ_WAIT_MS', 'Conflict', 'begin_writing', 'waited', 'waiting',
    'cannot_write', 'insert', 'is_busy', 'out_of_files', 'is_game_id', 'key_hash', 'local_day', 'new_id', 'new_key', 'now', 'writing',
    'colours', 'create_game', 'create_made_here', 'delete_game', 'edit_key_hash', 'edit_key_hashes', 'entries_json',
    'key_revision_kept', 'kept_alike', 'last_change', 'last_round', 'list_games', 'load_game', 'new_edit_key',
    'rematch_of', 'revision', 'self_entry', 'set_colours', 'set_rematch', 'set_self_entry', 'take_keeping', 'taken',
    'was_deleted', 'NotUndone', 'earlier_versions', 'history_entry', 'round_history', 'round_version', 'save_round',
    'undo_round', 'HOW', 'copy_browser', 'keep', 'keepers', 'keeps_any', 'kept', 'kept_players', 'known', 'payer',
    'merges', 'remove_keeper', 'set_merges', 'signing_key', 'drafts', 'free_seat', 'save_draft', 'seat_holder',
    'seat_of_browser', 'seats_taken',
    'take_seat', 'drop_solutions', 'keep_solutions', 'stored_solution', 'SUMMARY_ROUNDS', 'keep_summary', 'summaries',
    'TABLE_HOW', 'create_table', 'held_tables', 'hold_table', 'import_table', 'join_table', 'keeps_table', 'load_table',
    'new_table_key', 'remove_table_keeper', 'set_table_colours', 'set_table_merges', 'table_keepers', 'table_of',
    'table_stamp', 'table_summaries', 'take_table_keeping'
]
