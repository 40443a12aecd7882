"""Every limit of the app, once: the forms, the store, the game file and the pages all read them here."""

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_NAME = 30           # characters in a player's name
MAX_TEXT = 80           # characters in a game's title or place
MAX_FIELD = 200         # characters read from a cards or points field
MAX_MELDS_FIELD = 300   # characters of claimed melds on the audit form
MAX_HAND = 15           # cards in one hand: the largest a game deals (14), and the card drawn
MAX_POINTS = 9999       # points one player can score in one round
MAX_ROUNDS = 99         # a round number read from a URL (no game has more than 11)
MAX_NUMBER_DIGITS = 6   # digits read from any number typed (a longer one is no number of this game)
MAX_ALIASES = 40       # merged spellings one browser keeps (in its session cookie)
MAX_KEPT = 500          # games one browser lists as its own (one edit-key cookie each)
MAX_KEY = 64            # characters of an edit key as posted
MAX_PICTURE_FONTS = 16  # font files the shared picture takes its characters from (a hostile title can't make it slow)
MAX_EARLIER = 50        # earlier versions of one round a game file brings back
UNDO_SECONDS = 60       # how long after a save the sheet offers to undo it
MAX_TABLE_NAME = 60     # characters in a table's name ("Sunday at Grandma's")
MAX_TABLE_GAMES = 2000  # games one table holds (and its file carries)
MAX_TABLE_PEOPLE = 200  # merged names, and colours, one table keeps
MAX_TABLE_FILE = 32 * 1024 * 1024   # bytes of a table file read (2,000 games of 8 players, with their sheets)
MAX_TABLE_FILE_MB = MAX_TABLE_FILE // 2 ** 20   # the same in MB, as the import page and its refusal say it
MAX_GAME_ID = 64        # characters of a game's id in a table file
