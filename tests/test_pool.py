"""Heavy work never runs on the event loop (web/pool.py): the shared picture and the import check
are made by the pool's own processes, so the server's worker spends almost none of that CPU; the
pool is bounded (a job past WAITING is refused, one past JOB_SECONDS ended), a job's own error comes
back as it was, and many asking for one picture at once have it drawn once.

How much a bystander notices is a benchmark's to say (bench/stalls.py, docs/speed.md), not a test's:
these check where the CPU goes, which no load on the machine changes."""

import re
import threading
import time

import pytest

from scorer.gamefile import GameFileError
from tests.browser import Browser
from tests.helpers import LANGUAGES, PATIENCE, round_form, wait_for
from tests.jobs import broken, held, slow
from tests.server import Gunicorn, children, cpu_seconds

CJK = ['王小明', '李华', '张伟', '田中太郎', '山田花子', '김민준', '이서연', '陈静']


@pytest.mark.slow
@pytest.mark.serial          # CPU time compared between processes: the machine to itself
def test_pictures_and_imports_are_made_by_the_pool_not_the_worker(tmp_path):
    server = Gunicorn(tmp_path / 'pool.sqlite', workers=1).start()
    try:
        keeper = Browser(server.url)
        names = [(name * 10)[:28] for name in CJK]
        game = keeper.new_game(names, title='周末的牌局 · 東京 · 서울').replace(server.url, '')
        _, page = keeper.get(game + '/rounds/1')
        keeper.post(game + '/rounds/1', {**round_form(0, points=[None] + ['12'] * 7), 'csrf_token': Browser.token(page)})
        [worker] = server.workers_pids()
        before = cpu_seconds(worker)
        for language in LANGUAGES:
            for kind in ('png', 'svg?theme=dark'):
                with keeper.opener.open(f'{server.url}{game}/picture.{kind}{"&" if "?" in kind else "?"}lang={language}',
                                        timeout=60) as r:
                    assert r.status == 200 and len(r.read()) > 1000
        spent = cpu_seconds(worker) - before
        drawers = children(worker)
        assert drawers, 'no process of the pool drew the pictures'
        drawn = sum(cpu_seconds(pid) for pid in drawers)
        assert spent < 0.2 * drawn, (spent, drawn)

        with keeper.opener.open(server.url + game + '/export.json', timeout=10) as r:
            data = r.read()
        from tests.test_budgets import upload
        before, drawn_before = cpu_seconds(worker), sum(cpu_seconds(pid) for pid in children(worker))
        for n in range(15):
            _, page = keeper.get('/')
            assert upload(keeper, server, Browser.token(page), data.replace('王小明'.encode(), f'王{n}'.encode())) == 302
        spent, checked = cpu_seconds(worker) - before, sum(cpu_seconds(pid) for pid in children(worker)) - drawn_before
        assert checked > 0 and spent < 3 * checked + 0.5, (spent, checked)
    finally:
        server.stop()


def test_the_pool_is_bounded(tmp_path):
    """One process and one job waiting: while the process is held, of two more jobs one waits and the
    other is refused (nowhere to wait), and the pool goes on after. No job is timed: the first runs
    until the test lets it go, and each step waits for what the one before it did."""
    from web import pool
    jobs = pool.Pool(processes=1, waiting=1, seconds=PATIENCE)
    started, release = tmp_path / 'started', tmp_path / 'release'
    results, refused = [], []

    def run(function, *args):
        try:
            results.append(jobs.run(function, *args))
        except pool.Busy:
            refused.append(args)
    first = threading.Thread(target=run, args=(held, started, release))
    first.start()
    wait_for(started.exists, 'the first job running in its process')
    others = [threading.Thread(target=run, args=(slow, seconds)) for seconds in (0.1, 0.2)]
    for thread in others:
        thread.start()
    wait_for(lambda: refused, 'a job refused')                 # the later of the two: the first holds the process
    release.touch()
    for thread in [first, *others]:
        thread.join()
    [(late,)] = refused                                        # whichever of the two asked second
    assert sorted(results, key=str) == sorted({'held', 0.1, 0.2} - {late}, key=str)
    assert jobs.run(slow, 0) == 0


@pytest.mark.serial          # a job held to one second
def test_a_job_too_long_is_ended_and_its_process_replaced():
    from web import pool
    jobs = pool.Pool(processes=1, waiting=0, seconds=30)
    assert jobs.run(slow, 0) == 0                      # (a process's first job imports this module: not timed here)
    [process] = jobs.idle
    jobs.seconds = 1                                   # the longest a job may take, for the next one
    with pytest.raises(pool.Busy):
        jobs.run(slow, 60)
    assert process.process.poll() is not None          # killed
    jobs.seconds = 30
    assert jobs.run(slow, 0.1) == 0.1 and jobs.idle[0] is not process


def test_a_jobs_own_error_comes_back_as_it_was():
    from web import pool
    jobs = pool.Pool(processes=1, waiting=0, seconds=10)
    with pytest.raises(GameFileError, match='the file says hello'):
        jobs.run(broken, 'hello')
    assert jobs.run(slow, 0) == 0 and len(jobs.idle) == 1      # the same process, still fine


def test_many_asking_for_one_picture_at_once_have_it_drawn_once():
    from web import pool
    once, made = pool.Once(), []

    def make():
        made.append(1)
        time.sleep(0.3)
        return 'drawn'
    got = []
    threads = [threading.Thread(target=lambda: got.append(once('key', make))) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == ['drawn'] * 10 and made == [1]
    assert once('key', lambda: 'again') == 'again'     # made once at a time, not remembered (the caches do that)


def test_the_picture_in_the_pool_is_the_picture_drawn_here(app, client, make_game):
    """The pool's process draws what the server draws itself (POOL_PROCESSES 0), in every language."""
    def drawn():
        url = make_game(('Ana', '王小明', 'Zoë'))
        client.post(url + '/rounds/1', data=round_form(0, points=[None, '3', '8']))
        return {lang: client.get(f'{url}/picture.svg?lang={lang}').get_data(as_text=True) for lang in LANGUAGES}
    pooled = drawn()
    app.config['POOL_PROCESSES'] = 0
    here = drawn()
    fonts = re.compile(r'base64,[^)]*')                # fontTools stamps each font it cuts with the time
    assert {k: fonts.sub('', v) for k, v in here.items()} == {k: fonts.sub('', v) for k, v in pooled.items()}
    assert 'Clasificación' not in pooled['en'] and here['es'] != here['pt']


def test_the_solvers_pages_ask_the_solvers_own_pool(app, client, monkeypatch):
    """/api/solve, /api/audit, /audit and the preview solve in the solver's pool (never behind a picture);
    when it is full they say the server is busy (503), in JSON for the API."""
    from web import pool
    asked = []
    run = pool.run
    monkeypatch.setattr(pool, 'run', lambda config, job, *args, kind='heavy': asked.append((job.__name__, kind))
                        or run(config, job, *args, kind=kind))
    query = 'cards=7H+8H+9H+KS&round=3'
    for path in ('/api/solve', '/api/audit', '/audit', '/audit/preview'):
        assert client.get(f'{path}?{query}').status_code == 200, path
    assert asked == [('solve', 'solver'), ('audit', 'solver'), ('audit', 'solver'), ('preview', 'solver')]

    def busy(*args, **kwargs):
        raise pool.Busy('full')
    monkeypatch.setattr(pool, 'run', busy)
    r = client.get(f'/api/solve?{query}')
    assert r.status_code == 503 and 'too busy' in r.get_json()['error']
    assert client.get(f'/api/audit?{query}').status_code == 503 and 'too busy' in client.get(
        f'/api/audit?{query}').get_json()['error']
    assert client.get(f'/audit?{query}').status_code == 503


def test_a_server_process_starts_the_solvers_first_process_at_its_first_request(tmp_path):
    """A scorekeeper's first preview of the day waits for no process to start: the first request a
    server process answers, whatever it is, has the solver's pool start one in the background."""
    from app import create_app
    from web import pool
    app = create_app({'TESTING': True, 'DATABASE': str(tmp_path / 'ahead.sqlite'), 'SECRET_KEY': 'ahead',
                      'SOLVER_POOL_PROCESSES': 1, 'SOLVER_POOL_SECONDS': 29})    # a pool of its own
    key = (pool.os.getpid(), 'solver', 1, app.config['SOLVER_POOL_WAITING'], 29)
    assert key not in pool._pools
    assert app.test_client().get('/').status_code == 200
    ready = pool._pools[key]
    for _ in range(600):                        # a hang guard: a process starts in a second or so
        if ready.idle:
            break
        time.sleep(0.05)
    assert len(ready.idle) == 1
    answer = app.test_client().get('/audit/preview', query_string={'cards': '3S 4S 5D', 'round': '1'})
    assert answer.status_code == 200 and ready.idle and ready.idle[0].jobs == 1    # that process answered
    for process in ready.idle:
        process.end()
