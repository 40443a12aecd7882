"""Random sequences of what two scorekeeper phones, a seated player and the network do to one game
(saves and edits from forms opened earlier, Undo offers seen earlier, restores, players' own hands,
handovers and shares, a keeper removed, conflict choices after a stale send), driven by hypothesis'
stateful testing against a model of what each acknowledged action must have done. After every
step: the game's export reads back as the game, every round is as the last acknowledged change left
it (a save is gone only if a person undid it, or chose the other version), and every version that
was replaced is listed among its round's earlier versions."""

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.conftest import new_app
from scorer.gamefile import read_game
from tests.hands import examples, steps
from tests.helpers import LOOSE_RATES, new_game_form, save_confirmed

PLAYERS = ('Ana', 'Bruno', 'Carla')
PHONES = ('A', 'B', 'C')             # A and B keep score (at times), C takes Carla's seat
STEPS = {'count': 0, 'runs': 0}      # what the runs did, for the closing note (printed at the end)


def entries_of(form):
    """The entries a round form saves, as the game file writes them."""
    out = int(form['went_out'])
    return [{'player': p, 'went_out': True} if i == out else {'player': p, 'points': int(form[f'entries-{i}-points'])}
            for i, p in enumerate(PLAYERS)]


APP = {}


def shared_app():
    """One app and database for every run of the machine in this process: each run is a new game
    played by new browsers (their own cookies), so no run sees another's, and none pays for making
    an app."""
    if 'app' not in APP:
        APP['folder'] = tempfile.TemporaryDirectory()
        APP['app'] = new_app({'TESTING': True, 'DATABASE': str(Path(APP['folder'].name) / 'sm.sqlite'),
                              'SECRET_KEY': 'sm', 'WTF_CSRF_ENABLED': False, **LOOSE_RATES})
    return APP['app']


class Table(RuleBasedStateMachine):

    def __init__(self):
        super().__init__()
        self.app = shared_app()
        self.phones = {name: self.app.test_client() for name in PHONES}
        r = self.phones['A'].post('/games/new', data=new_game_form(PLAYERS, first_dealer='0'))
        self.url = r.headers['Location']
        self.keepers = {'A'}
        self.maker = 'A'                  # no other keeper can remove it; a handover from it passes that on
        self.rounds = {}                 # the model: round -> entries as the last acknowledged change left them
        self.replaced = {}               # round -> every version some change replaced (must be in its history)
        self.forms = {}                  # (phone, round) -> the version its open form was made from
        self.offers = {}                 # phone -> the Undo offer it last saw: (round, version)
        self.last = None                 # the game's last change of a round: (round, version, entries before) or None
        self.versions = {}               # round -> its version on the server, as the model knows it
        self.made = {}                   # round -> the last version any change of it made
        self.pending = {}                # phone -> (round, form) refused as a conflict, waiting for a choice
        self.seated = False
        self.last_undo = False
        STEPS['runs'] += 1

    def next_round(self):
        return max(self.rounds, default=0) + 1

    def change(self, number, entries, undo=False):
        """An acknowledged change of a round (a save, a restore, an Undo): the model follows it."""
        self.last_undo = undo
        before = self.rounds.get(number)
        if before is not None and before != entries:
            self.replaced.setdefault(number, []).append(before)
        self.made[number] = self.made.get(number, 0) + 1             # a version is never used twice
        self.versions[number] = self.made[number] if entries is not None else 0   # an unsaved round reads as 0
        self.last = (number, self.made[number], before)
        if entries is None:
            self.rounds.pop(number, None)
        else:
            self.rounds[number] = entries

    # What the phones do

    @rule(phone=st.sampled_from(PHONES[:2]), edit=st.booleans(), data=st.data())
    def open_round(self, phone, edit, data):
        """A scorekeeper opens a round's page (the next one, or one saved before): its form keeps the version."""
        number = data.draw(st.sampled_from(sorted(self.rounds))) if edit and self.rounds else self.next_round()
        if number > 11:
            return
        r = self.phones[phone].get(f'{self.url}/rounds/{number}')
        if phone not in self.keepers:
            assert r.status_code == 403
            return
        assert r.status_code == 200
        self.forms[(phone, number)] = int(re.search(r'name="version" value="(\d+)"', r.get_data(as_text=True)).group(1))

    @rule(data=st.data(), out=st.integers(0, 2), points=st.lists(st.integers(0, 60), min_size=3, max_size=3))
    @precondition(lambda self: self.forms)
    def save(self, data, out, points):
        """A phone saves the form it opened (maybe long ago, maybe offline meanwhile)."""
        phone, number = data.draw(st.sampled_from(sorted(self.forms)))
        version = self.forms.pop((phone, number))
        form = {'went_out': str(out), 'version': str(version)}
        for i in range(3):
            form.update({f'entries-{i}-cards': '', f'entries-{i}-points': '' if i == out else str(points[i])})
        r = save_confirmed(self.phones[phone], self.url, number, form)     # a doubt confirmed, as a keeper would
        entries = entries_of(form)
        if phone not in self.keepers:
            assert r.status_code == 403
        elif version == self.versions.get(number, 0) or self.rounds.get(number) == entries:
            assert r.status_code == 302, r.get_data(as_text=True)[:500]
            if number not in self.rounds and number != self.next_round():
                assert 'saved=1' not in r.headers['Location']          # "enter round n first": nothing saved
            else:
                assert 'saved=1' in r.headers['Location']
                if self.rounds.get(number) != entries:
                    self.change(number, entries)
                self.offers[phone] = self.offer(phone)
        else:
            assert r.status_code == 409                               # both shown: nothing saved yet
            server = int(re.search(r'name="version" value="(\d+)"', r.get_data(as_text=True)).group(1))
            assert server == self.versions.get(number, 0)
            self.pending[phone] = (number, form, server)

    @rule(phone=st.sampled_from(PHONES[:2]), mine=st.booleans())
    def choose(self, phone, mine):
        """After a conflict: send mine (with the version the box showed), or keep theirs (mine set aside)."""
        if phone not in self.pending:
            return
        number, form, shown = self.pending.pop(phone)
        if not mine:
            return                                                    # theirs stays: nothing sent
        r = save_confirmed(self.phones[phone], self.url, number, {**form, 'version': str(shown)})   # a doubt confirmed
        entries = entries_of(form)
        if phone not in self.keepers:
            assert r.status_code == 403
        elif shown == self.versions.get(number, 0) or self.rounds.get(number) == entries:
            if number in self.rounds or number == self.next_round():
                assert r.status_code == 302 and 'saved=1' in r.headers['Location']
                if self.rounds.get(number) != entries:
                    self.change(number, entries)
        else:
            assert r.status_code == 409                               # moved again: the box is drawn anew

    def offer(self, phone):
        """The Undo the phone's sheet offers now: (round, version), or None."""
        page = self.phones[phone].get(self.url).get_data(as_text=True)
        found = re.search(r'/rounds/(\d+)/undo"[^>]*data-seconds="\d+" data-last-save="(\d+):(\d+)"', page)
        return (int(found.group(2)), int(found.group(3))) if found else None

    @rule(phone=st.sampled_from(PHONES[:2]))
    def look_at_sheet(self, phone):
        """A phone looks at the sheet: the Undo offered there is the game's last save, or none."""
        if phone not in self.keepers:
            return
        self.offers[phone] = offer = self.offer(phone)
        if offer is not None:
            assert self.last is not None and offer == self.last[:2]

    @rule(phone=st.sampled_from(PHONES[:2]))
    def undo(self, phone):
        """A phone taps the Undo it saw last (the offer may be stale: another phone saved since)."""
        offer = self.offers.pop(phone, None)
        if offer is None:
            return
        number, version = offer
        r = self.phones[phone].post(f'{self.url}/rounds/{number}/undo', data={'version': str(version)})
        if phone not in self.keepers:
            assert r.status_code == 403
            return
        assert r.status_code == 302
        flash = self.phones[phone].get(self.url).get_data(as_text=True)
        if self.last is not None and (number, version) == self.last[:2] and not self.last_undo:
            assert 'is back as it was before that save' in flash
            self.change(number, self.last[2], undo=True)
        else:
            assert 'not undone' in flash or 'nothing was undone' in flash

    @rule(phone=st.sampled_from(PHONES[:2]), data=st.data())
    @precondition(lambda self: self.replaced)
    def restore(self, phone, data):
        """A phone puts an earlier version of a round back from the round's page."""
        number = data.draw(st.sampled_from(sorted(self.replaced)))
        r = self.phones[phone].get(f'{self.url}/rounds/{number}')
        if phone not in self.keepers:
            return
        page = r.get_data(as_text=True)
        ids = re.findall(r'name="history" value="(\d+)"><input type="hidden" name="version" value="(\d+)"', page)
        if not ids:
            return
        history, version = data.draw(st.sampled_from(ids))
        r = self.phones[phone].post(f'{self.url}/rounds/{number}/restore', data={'history': history, 'version': version})
        assert r.status_code == 302
        if 'saved=1' in r.headers['Location']:
            now = self.export().get(number)
            if now != self.rounds.get(number):                        # the same entries again change nothing
                self.change(number, now)

    @rule(giver=st.sampled_from(PHONES[:2]), taker=st.sampled_from(PHONES[:2]), handover=st.booleans())
    def hand_over(self, giver, taker, handover):
        """A scorekeeper link, shared or handed over, opened on the other phone."""
        r = self.phones[giver].post(self.url + '/keeper-link', data={'mode': 'handover' if handover else 'share'})
        if giver not in self.keepers:
            assert r.status_code == 403
            return
        key = re.search(r'/keeper#([^"]+)"', r.get_data(as_text=True)).group(1)
        assert self.phones[taker].post(self.url + '/keeper', data={'key': key}).status_code == 302
        self.keepers.add(taker)
        if handover and giver != taker:
            self.keepers.discard(giver)
            if self.maker == giver:
                self.maker = taker

    @rule(phone=st.sampled_from(PHONES[:2]))
    def remove_the_other(self, phone):
        """A scorekeeper takes the other phone's scorekeeping away."""
        if phone not in self.keepers:
            return
        handles = re.findall(r'name="handle" value="([^"]+)"', self.phones[phone].get(self.url).get_data(as_text=True))
        for handle in handles:
            self.phones[phone].post(self.url + '/keepers/remove', data={'handle': handle})
        self.keepers = {phone} | ({self.maker} & self.keepers)

    @rule(points=st.integers(0, 40))
    def own_hand(self, points):
        """Carla enters her own hand for the round being played (nothing is saved by it)."""
        phone = self.phones['C']
        if not self.seated:
            phone.post(self.url + '/seats/2')
            self.seated = True
        number = self.next_round()
        if number <= 11:
            phone.post(self.url + '/hand', data={'round': str(number), 'points': str(points)})

    # What must hold after every step

    def export(self):
        r = self.app.test_client().get(self.url + '/export.json')
        assert r.status_code == 200
        data = r.get_data()
        game = read_game(data)
        with self.app.app_context():
            from web import store
            from web.db import get_db
            assert game == store.load_game(get_db(), self.url.rsplit('/', 1)[1])      # it reads back as the game
        return {r['round']: r['entries'] for r in r.get_json()['rounds']}

    @invariant()
    def every_acknowledged_change_holds(self):
        STEPS['count'] += 1
        assert self.export() == self.rounds
        assert sorted(self.rounds) == list(range(1, len(self.rounds) + 1))            # no gap: it imports

    @invariant()
    def every_replaced_version_is_listed(self):
        with self.app.app_context():
            from web import store
            from web.db import get_db
            history = store.round_history(get_db(), self.url.rsplit('/', 1)[1])
        listed = {}
        for h in history:
            listed.setdefault(h['number'], []).append(h['before'])
        for number, versions in self.replaced.items():
            for entries in versions:
                assert entries in listed.get(number, []), (number, entries)


Table.TestCase.settings = settings(examples(100), stateful_step_count=steps(40), deadline=None)
test_two_phones_and_a_network = pytest.mark.long(5)(Table.TestCase)


def teardown_module():
    if 'folder' in APP:
        APP.pop('folder').cleanup()
        APP.clear()
    print(f"\nstate machine: {STEPS['runs']} runs, {STEPS['count']} steps checked")
