"""The scoresheet: a game's rounds scored, running totals, zero rounds, places and winners;
score_entry() and too_many_copies(), the rules one entry and one round are held to; doubts(), what a
scorable round holds that is most often an entry mistake (a short hand, nobody or two gone out),
saved only once confirmed.

docs/rules.md, "Scoring a round" and "Winning and ties": the player who went out scores 0; every
other player scores the minimal penalty of the cards they hold (or the points entered when
the cards were not recorded), doubled in the final round when `double_last_round` is on.
The lowest total wins. With `tie_break: zero_rounds` a tie on total goes to the player with
more zero rounds; players still tied share the place (1, 1, 3), and a shared first place is
a shared win. With `tie_break: none` equal totals share the place.
"""

import hashlib
import json
import re
import threading
from collections import Counter, OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import CARDS, Card, CardError, copies, number_word, order, pretty, text, tokens

from .reading import LANGUAGES, canonical, parse_hand
from .i18n import _, language, listing, ngettext
from .limits import MAX_POINTS
from .melds import Meld
from .positions import Solution
from .rules import DEFAULT, Rules
from .solver import counted, solve as solve_hand


class Solved:
    """The solver, remembered: a sheet is scored again at every view, its hands do not change. A hand
    is known by its canonical form (its cards sorted: `key`), so the same hand in another order is not
    solved again; at most `size` hands, the least recently asked forgotten first. What a job of
    the server's solver pool solved is remembered by the server too (`noting`, `remember`); and what
    another process solved and stored (the server keeps a round's answers with the round) is read,
    within `reading(lookup)`, before any hand is solved here."""

    def __init__(self, size):
        self.size, self.answers, self.noted = size, OrderedDict(), None
        self.local = threading.local()          # the lookup of `reading`, one a thread (a greenlet under gevent)

    @staticmethod
    def key(hand, wild, rules):
        """What a hand's answer is known by: its cards in canonical order, the wild rank and the rules."""
        return tuple(sorted(hand, key=order)), wild, rules

    def __call__(self, hand, wild, rules):
        key = self.key(hand, wild, rules)
        answer = self.answers.get(key)
        if answer is None:
            lookup = getattr(self.local, 'lookup', None)
            answer = lookup(key) if lookup else None
        if answer is None:
            missing = getattr(self.local, 'missing', None)
            if missing is not None:             # asked for, not solved: what is computed now is thrown away
                missing.add(key)
                return Solution(0, (), key[0])
            answer = solve_hand(key[0], wild, rules)
        self.remember({key: answer})
        if self.noted is not None:
            self.noted[key] = answer
        return answer

    def remember(self, answers):
        for key, answer in answers.items():
            self.answers[key] = answer
            self.answers.move_to_end(key)
        while len(self.answers) > self.size:
            self.answers.popitem(last=False)

    @contextmanager
    def noting(self):
        """{(hand, wild, rules): solution} of every hand asked for within, to remember elsewhere."""
        self.noted = {}
        try:
            yield self.noted
        finally:
            self.noted = None

    @contextmanager
    def reading(self, lookup, missing=None):
        """Within, a hand not remembered here is looked up (lookup(key): its Solution, or None) before
        it is solved; given a set `missing`, a hand found nowhere is not solved but added to it and
        answered by a stand-in (penalty 0), so what is computed within is to be thrown away unless
        `missing` stays empty (read_through)."""
        self.local.lookup, self.local.missing = lookup, missing
        try:
            yield
        finally:
            self.local.lookup = self.local.missing = None

    def clear(self):
        self.answers.clear()


def key_text(key):
    """A hand's key (Solved.key) as text, the same in every process: its cards, the wild, the rules."""
    hand, wild, rules = key
    return json.dumps([text(hand), wild, rules.to_dict()], sort_keys=True, separators=(',', ':'))


def solution_text(solution):
    """A Solution as JSON text, every card as [rank, suit] (a wild in a set plays as a rank alone)."""
    cards = lambda cs: [[c.rank, c.suit] for c in cs]                # noqa: E731
    return json.dumps([solution.penalty, [[m.kind, cards(m.cards), cards(m.plays)] for m in solution.melds],
                       cards(solution.deadwood)], separators=(',', ':'))


def solution_from_text(stored):
    """The Solution solution_text() wrote."""
    penalty, melds, deadwood = json.loads(stored)
    cards = lambda cs: tuple(CARDS.get(Card(r, s), Card(r, s)) for r, s in cs)     # noqa: E731
    return Solution(penalty, tuple(Meld(kind, cards(cs), cards(plays)) for kind, cs, plays in melds), cards(deadwood))


solve = Solved(8192)


@dataclass(frozen=True)
class Entry:
    """What was entered for one player in one round: went out, the cards left, or plain points."""
    player: str
    went_out: bool = False
    cards: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Game:
    """Players in seating order, the house rules, the first dealer (an index) and the rounds entered.

    `rounds` maps a round number to its entries, one per player in seating order.
    """
    players: tuple
    rules: Rules = DEFAULT
    first_dealer: int = 0
    rounds: dict = field(default_factory=dict)
    title: str = ''
    place: str = ''
    date: str = ''          # the day it was played, YYYY-MM-DD

    def dealer(self, round):
        """The dealer of a round: the deal passes to the left (the next seat) every round."""
        return self.players[(self.first_dealer + round - 1) % len(self.players)]


@dataclass(frozen=True)
class Score:
    """One cell of the sheet."""
    score: int
    went_out: bool
    from_cards: bool
    cards: tuple = ()
    solution: object = None
    points: int | None = None


@dataclass(frozen=True)
class Row:
    round: int
    hand_size: int
    wild: int
    dealer: str
    scores: dict          # player -> Score
    totals: dict          # player -> running total after this round


@dataclass(frozen=True)
class Standing:
    player: str
    total: int
    zero_rounds: int
    place: int


@dataclass(frozen=True)
class Sheet:
    game: Game
    rows: list
    totals: dict
    zero_rounds: dict
    standings: list
    winners: list
    next_round: int | None      # the first round not yet entered; None when the game is over
    tie_break: str              # the tie-break in words, when it decided or shared a place
    broken: dict = field(default_factory=dict)   # round -> why it cannot be scored (left out of the sheet)

    @property
    def finished(self):
        return self.next_round is None

    @property
    def places(self):
        """Each player's place: {player: 1, ...} (shared places as in sport)."""
        return {s.player: s.place for s in self.standings}

    @property
    def leaders(self):
        return [s.player for s in self.standings if s.place == 1] if self.rows else []


class RoundError(ValueError):
    """A round that cannot be scored.

    `errors` maps a player (or '' for the whole round) to messages; `fields` maps a player
    to the fields at fault ('cards', 'points', 'went_out').
    """

    def __init__(self, errors, fields=None):
        self.errors = errors
        self.fields = fields or {}
        super().__init__('; '.join(m for ms in errors.values() for m in ms))

    def __reduce__(self):                 # whole through the solver pool's pickles
        return RoundError, (self.errors, self.fields)


POINTS_RE = re.compile(r'\s*[0-9]{1,4}(\s*\+\s*[0-9]{1,4})*\s*')


def read_points(text):
    """Points as typed: '12', or a sum such as '10+15+8'; None when blank; ValueError otherwise."""
    if text is None:
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0 or text > MAX_POINTS:
            raise ValueError(_("'%(text)s' is not a score from 0 to %(most)d", text=text, most=MAX_POINTS))
        return text
    text = str(text).strip()
    if not text:
        return None
    if not POINTS_RE.fullmatch(text):
        raise ValueError(_("'%(text)s' is not a number of points (a sum like 10+15+8 is fine)", text=text[:40]))
    total = sum(int(part) for part in text.split('+'))
    if total > MAX_POINTS:
        raise ValueError(ngettext("'%(text)s' makes %(total)d: a round scores at most %(most)d point",
                                  "'%(text)s' makes %(total)d: a round scores at most %(most)d points", MAX_POINTS,
                                  text=text, total=total, most=MAX_POINTS))
    return total


class EntryError(ValueError):
    """One player's entry that cannot be scored; `field` is the one at fault ('cards' or 'points')."""

    def __init__(self, message, field=''):
        super().__init__(message)
        self.field = field

    def __reduce__(self):
        return EntryError, (str(self), self.field)


def score_entry(game, number, e):
    """Score one player's entry for a round: (Score, the hand held), or EntryError saying why.

    Cards are scored with their minimal penalty (or as they lie: `leftovers`), points as entered;
    the player who went out scores 0, and cards entered for them must meld completely.
    """
    hand, points = held(game, number, e)
    return scored(game, number, e, hand, points), hand


def held(game, number, e):
    """One player's entry read and checked without the solver: (the hand held, the points), or
    EntryError saying why (the cards no card, more than the round deals, cards and points both,
    points for who went out, nothing entered)."""
    rules = game.rules
    hand_size, player = rules.hand_size(number), e.player
    hand = ()
    if e.cards and e.cards.strip():
        try:
            hand = tuple(parse_hand(e.cards, rules))
        except CardError as err:
            raise EntryError(f'{player}: {err}', 'cards') from None
        if len(hand) > rules.most_held(number):
            raise EntryError(ngettext('%(player)s holds %(count)d card, but round %(round)d deals %(size)d',
                                      '%(player)s holds %(count)d cards, but round %(round)d deals %(size)d',
                                      len(hand), player=player, count=len(hand), round=number, size=hand_size), 'cards')
    try:
        points = read_points(e.points)
    except ValueError as err:
        raise EntryError(f'{player}: {err}', 'points') from None
    if hand and points is not None:
        raise EntryError(_('%(player)s: enter cards or points, not both', player=player), 'points')
    if e.went_out and points:
        raise EntryError(_('%(player)s went out and scores 0: clear the points', player=player), 'points')
    if not e.went_out and not hand and points is None:
        raise EntryError(_("enter %(player)s's cards or points", player=player), 'points')
    return hand, points


def scored(game, number, e, hand, points):
    """The Score of an entry read by held(): the solver's minimal penalty of the hand, 0 for who went
    out (EntryError when the cards entered for them do not meld), or the points."""
    rules, player, wild = game.rules, e.player, game.rules.wild_rank(number)
    if e.went_out:
        solution = solve(hand, wild, rules) if hand else None
        if solution and solution.penalty:
            raise EntryError(ngettext('%(player)s went out but %(cards)s does not meld',
                                      '%(player)s went out but %(cards)s do not meld', len(solution.deadwood),
                                      player=player, cards=pretty(solution.deadwood)), 'cards')
        return Score(0, True, bool(hand), hand, solution, None)
    if hand:
        solution = counted(hand, wild, rules, solve)
        return Score(solution.penalty, False, True, hand, solution, None)
    return Score(points, False, False, (), None, points)


def too_many_copies(hands, rules):
    """Cards the pack could not have dealt in one round: [(message, the players holding them)].

    `hands` maps each player to the cards they hold; across the whole round no card can appear
    more often than there are decks, nor jokers more often than are in play.
    """
    held, holders = Counter(), {}
    for player, hand in hands.items():
        held.update(hand)
        for c in set(hand):
            holders.setdefault(c, []).append(player)
    found = []
    for c, n in sorted(held.items(), key=lambda item: str(item[0])):
        who = listing(holders[c])
        if n <= copies(c, rules.decks, rules.jokers):
            continue
        if c.is_joker:
            found.append((ngettext('%(count)d joker in this round (%(players)s), but only %(jokers)d in play',
                                   '%(count)d jokers in this round (%(players)s), but only %(jokers)d in play', n,
                                   count=n, players=who, jokers=rules.jokers), holders[c]))
        else:
            found.append((ngettext('%(count)s %(card)s in this round (%(players)s) but only %(num)d deck',
                                   '%(count)s %(card)s in this round (%(players)s) but only %(num)d decks',
                                   rules.decks, count=number_word(n), card=c.pretty, players=who), holders[c]))
    return found


def score_round(game, number, entries):
    """Score one round's entries, or raise RoundError naming every problem by player."""
    rules = game.rules
    errors, fields = {}, {}

    def fail(who, message, field=''):
        errors.setdefault(who, []).append(message)
        if field:
            fields.setdefault(who, set()).add(field)

    by_player = {e.player: e for e in entries}
    seen = set()
    for e in entries:
        if e.player not in game.players:
            fail('', _("'%(player)s' is not a player in this game", player=e.player))
        elif e.player in seen:
            fail('', _('two entries for %(player)s', player=e.player))
        seen.add(e.player)
    read, hands = {}, {}
    for player in game.players:
        e = by_player.get(player)
        if e is None:
            fail(player, _('%(player)s has no entry', player=player))
            continue
        try:
            read[player] = held(game, number, e)
            hands[player] = read[player][0]
        except EntryError as err:
            fail(player, str(err), err.field)
    copied = too_many_copies(hands, rules)
    for message, holders in copied:
        fail('', message)
        for p in holders:
            fields.setdefault(p, set()).add('cards')
    if copied:                            # a pack could not have dealt it: refused before any hand is solved
        raise RoundError(errors, fields)
    scores = {}
    for player, (hand, points) in read.items():
        if errors and not by_player[player].went_out:
            continue                      # refused anyway: only what went out is checked (it must meld)
        try:
            scores[player] = scored(game, number, by_player[player], hand, points)
        except EntryError as err:
            fail(player, str(err), err.field)
    if errors:
        raise RoundError(errors, fields)
    if rules.double_last_round and number == rules.last_round:
        scores = {p: Score(s.score * 2, s.went_out, s.from_cards, s.cards, s.solution, s.points)
                  for p, s in scores.items()}
    return scores


class Doubt(NamedTuple):
    """Something odd about a round: `what` names it ('short:Bo:10', 'nobody', 'several', 'unchecked:Bo'),
    `message` says it, `player` is whose hand is in doubt ('' for the others)."""
    what: str
    message: str
    player: str = ''


def doubts(game, number, entries, seated=()):
    """What is odd about a round that can be scored, in words: [Doubt], empty when nothing is.

    docs/rules.md: a round normally has exactly one player who went out, and every other player holds
    the round's hand size at the end. A hand entered with fewer cards, nobody gone out, or two
    players gone out are most often entry mistakes; they are kept only once someone confirms them.
    So is a player gone out with nothing entered whose own phone enters their hand (`seated`: those
    players' names): cards entered for who went out must meld completely, and with none that was
    never checked (their hand may not have reached the scorekeeper yet).
    `what` names the doubt ('short:Bo:10', 'nobody', 'several', 'unchecked:Bo'), so a confirmation
    holds only for the doubts it was given for.
    """
    size = game.rules.hand_size(number)
    found = []
    out = [e.player for e in entries if e.went_out]
    if not out:
        found.append(Doubt('nobody', _('nobody went out')))
    elif len(out) > 1:
        found.append(Doubt('several', _('all %(count)s went out: %(players)s', count=number_word(len(out)),
                                        players=listing(out)) if len(out) > 2 else
                           _('%(players)s both went out', players=listing(out))))
    for e in entries:
        if e.went_out and e.player in seated and not (e.cards and e.cards.strip()) and e.points is None:
            found.append(Doubt(f'unchecked:{e.player}', _('%(player)s went out, but no cards of theirs were entered: '
                                                        'whether they meld completely was not checked',
                                                        player=e.player), e.player))
        if e.went_out or not (e.cards and e.cards.strip()) or game.rules.as_they_lie:
            continue                  # as they lie, the cards entered are what was left out of melds
        held = len(tokens(e.cards))           # a round that can be scored: each token is a card
        if held < size:
            found.append(Doubt(f'short:{e.player}:{held}', ngettext(
                '%(player)s: %(count)d of %(size)d card', '%(player)s: %(count)d of %(size)d cards', size,
                player=e.player, count=held, size=size), e.player))
    return found


def doubts_key(found):
    """A short key naming these doubts, which a confirmation must send back: the same doubts, the same key."""
    if not found:
        return ''
    return hashlib.sha256('\n'.join(d.what for d in found).encode()).hexdigest()[:16]


def clean_entries(game, number, entries):
    """The entries as they are kept: checked (RoundError if not), points summed, cards in canonical
    text (the hands the scoring read, so each is read once)."""
    scores = score_round(game, number, entries)
    return tuple(Entry(e.player, e.went_out, ' '.join(map(str, scores[e.player].cards)) or None,
                       read_points(e.points)) for e in entries)


def typed_cards(player, text, letters=None):
    """A player's cards as typed on a page, read in the letters of its language (`letters`, else the
    current language: 7C is 7♥ on a Spanish page), in canonical text, or None; EntryError for the
    cards field if one is no card."""
    if not text or not text.strip():
        return None
    try:
        return canonical(text, letters if letters in LANGUAGES else language()) or None
    except CardError as e:
        raise EntryError(f'{player}: {e}', 'cards') from None


def read_round(game, number, out, typed, letters=None):
    """A round as typed ({'cards', 'points'} a seat, `out` the seats gone out), checked and in the
    form it is kept (clean_entries); RoundError names every problem, a card that is none among them.
    The server's round page and the phone offline (web/phone.py) both read a round with this."""
    entries, errors, fields = [], {}, {}
    for i, p in enumerate(game.players):
        try:
            cards = typed_cards(p, typed[i]['cards'], letters)
        except EntryError as e:
            errors[p], fields[p], cards = [str(e)], {'cards'}, None
        entries.append(Entry(p, i in out, cards, typed[i]['points'] or None))
    try:
        clean = clean_entries(game, number, entries)
    except RoundError as e:
        e.errors.update(errors)               # what an entry without its unreadable cards was told
        e.fields.update(fields)
        raise
    if errors:
        raise RoundError(errors, fields)
    return clean


def places(players, totals, zero_rounds, tie_break):
    """Standings, best first, with places shared as in sport (1, 1, 3)."""
    def key(p):
        return (totals[p], -zero_rounds[p]) if tie_break == 'zero_rounds' else (totals[p],)
    ranked = sorted(players, key=lambda p: (key(p), players.index(p)))
    standings = []
    for i, p in enumerate(ranked):
        place = standings[-1].place if standings and key(ranked[i - 1]) == key(p) else i + 1
        standings.append(Standing(p, totals[p], zero_rounds[p], place))
    return standings


def next_round(rules, entered):
    """The round played now: the first of the game's rounds not entered yet (None once every one is).
    The sheet, the big screen and the lists of games all say it from here."""
    return next((n for n in rules.rounds if n not in entered), None)


def compute_sheet(game, skip_broken=False):
    """Score every round entered and rank the players.

    A round that cannot be scored raises RoundError naming it; with `skip_broken` it is left out
    of the sheet instead, and `Sheet.broken` says why, so its scorekeeper can still correct it.
    """
    rules = game.rules
    totals = {p: 0 for p in game.players}
    zeros = {p: 0 for p in game.players}
    rows, broken = [], {}
    for number in sorted(game.rounds):
        try:
            scores = score_round(game, number, game.rounds[number])
        except RoundError as e:
            if skip_broken:
                broken[number] = str(e)
                continue
            raise RoundError({'': [_('round %(round)d: %(error)s', round=number, error=e)]}) from None
        for p, s in scores.items():
            totals[p] += s.score
            zeros[p] += s.score == 0
        rows.append(Row(number, rules.hand_size(number), rules.wild_rank(number), game.dealer(number),
                        scores, dict(totals)))
    next_up = next_round(rules, {r.round for r in rows})
    standings = places(list(game.players), totals, zeros, rules.tie_break)
    winners = [s.player for s in standings if s.place == 1] if next_up is None else []
    return Sheet(game, rows, totals, zeros, standings, winners, next_up,
                 tie_break_words(standings, rules.tie_break, bool(rows)), broken)


def hand_keys(game, versions=()):
    """The keys (Solved.key) of every hand the game's rounds, and `versions` ((round number, entries)
    pairs: its earlier versions), give the solver: each entry held() reads with cards (one it cannot
    read is never solved)."""
    keys = set()
    for number, entries in [*game.rounds.items(), *versions]:
        for e in entries:
            try:
                hand, _points = held(game, number, e)
            except EntryError:
                continue
            if hand:
                keys.add(Solved.key(hand, game.rules.wild_rank(number), game.rules))
    return keys


def read_through(compute, lookup, solve_elsewhere):
    """(compute(), {key: Solution} of the hands solved for it) without the solver running here:
    compute (a sheet, a summary, a round's earlier versions scored) has each hand's answer from
    `solve` as remembered in this process, else lookup(key)'s (the answers stored with the rounds),
    else solve_elsewhere(keys)'s ({key: Solution}), called once with every hand found nowhere (the
    server's solver pool: a round stored before its answers were, or whose answers were trimmed).
    When every answer is known, compute runs once."""
    missing = set()
    with solve.reading(lookup, missing):
        value = compute()
    if not missing:
        return value, {}
    found = solve_elsewhere(list(missing))
    solve.remember(found)
    with solve.reading(lambda key: found.get(key) or lookup(key)):
        return compute(), found


def tie_break_words(standings, tie_break, started=True, final=False):
    """'Ana and Bruno tie on 48; Ana leads on zero rounds, 4 to 3' (at the end: '... wins ...')."""
    if not standings or not started:
        return ''
    best = standings[0].total
    tied = [s for s in standings if s.total == best]
    if len(tied) < 2:
        return ''
    who = listing(s.player for s in tied)
    if tie_break != 'zero_rounds':
        return _('%(players)s tie on %(total)d; they share first place', players=who, total=best)
    first = [s for s in tied if s.place == 1]
    counts = '\u00a0' + _('to') + '\u00a0'      # '6 to 4' is one phrase: never broken across lines
    counts = counts.join(str(s.zero_rounds) for s in tied)
    if len(first) == len(tied):
        return _('%(players)s tie on %(total)d and on zero rounds (%(counts)s); they share first place',
                 players=who, total=best, counts=counts)
    leaders = listing(s.player for s in first)
    if final:
        return ngettext('%(players)s tie on %(total)d; %(leaders)s wins on zero rounds, %(counts)s',
                        '%(players)s tie on %(total)d; %(leaders)s win on zero rounds, %(counts)s', len(first),
                        players=who, total=best, leaders=leaders, counts=counts)
    return ngettext('%(players)s tie on %(total)d; %(leaders)s leads on zero rounds, %(counts)s',
                    '%(players)s tie on %(total)d; %(leaders)s lead on zero rounds, %(counts)s', len(first),
                    players=who, total=best, leaders=leaders, counts=counts)


def winner_words(sheet):
    """The end of the game in words: who won, and how a tie was broken."""
    if not sheet.finished:
        return ''
    return final_words(sheet.standings, sheet.game.rules.tie_break, bool(sheet.rows))


def final_words(standings, tie_break, started=True):
    """Who won, from the final standings: the tie-break in words, or '… wins with …'."""
    line = tie_break_words(standings, tie_break, started, final=True)
    if line:
        return line
    w = standings[0]
    return _('%(player)s wins with %(total)d', player=w.player, total=w.total)


def sheet_data(sheet):
    """The sheet as JSON-ready data."""
    from .cards import rank_text
    return {
        'rounds': [{'round': r.round, 'hand_size': r.hand_size, 'wild': rank_text(r.wild),
                    'dealer': r.dealer,
                    'went_out': next((p for p, s in r.scores.items() if s.went_out), None),
                    'scores': {p: r.scores[p].score for p in sheet.game.players}}
                   for r in sheet.rows],
        'totals': dict(sheet.totals),
        'zero_rounds': dict(sheet.zero_rounds),
        'standings': [{'player': s.player, 'total': s.total, 'zero_rounds': s.zero_rounds, 'place': s.place}
                      for s in sheet.standings],
        'winners': list(sheet.winners),
    }


def sheet_text(sheet):
    """The sheet as a plain-text table; * marks the player who went out."""
    from .cards import rank_text
    players = list(sheet.game.players)
    width = max([6] + [len(p) for p in players])
    head = f"{'Round':>5} {'Cards':>5} {'Wild':>4}  {'Dealer':<{width}}" + ''.join(f' {p:>{width}}' for p in players)
    lines = [sheet.game.title] if sheet.game.title else []
    lines += [head, '-' * len(head)]
    for r in sheet.rows:
        cells = ''.join(f" {str(r.scores[p].score) + ('*' if r.scores[p].went_out else ''):>{width}}"
                        for p in players)
        lines.append(f'{r.round:>5} {r.hand_size:>5} {rank_text(r.wild):>4}  {r.dealer:<{width}}{cells}')
    lines.append('-' * len(head))
    pad = ' ' * (5 + 1 + 5 + 1 + 4 + 2)
    for label, values in (('Total', sheet.totals), ('Zero rounds', sheet.zero_rounds), ('Place', sheet.places)):
        lines.append(f'{label:<{len(pad) + width}}' + ''.join(f' {values[p]:>{width}}' for p in players))
    lines.append('* went out')
    if sheet.finished:
        lines.append(winner_words(sheet))
    else:
        lines.append(f'Next: round {sheet.next_round}, {sheet.game.rules.hand_size(sheet.next_round)} cards, '
                     f'{rank_text(sheet.game.rules.wild_rank(sheet.next_round))} wild, '
                     f'{sheet.game.dealer(sheet.next_round)} deals')
    if sheet.tie_break and not sheet.finished:
        lines.append(sheet.tie_break)
    return '\n'.join(lines)
