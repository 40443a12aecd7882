"""The work that would hold a server process's CPU for long (drawing the shared picture, checking a
game file to import) runs in a small pool of processes of its own, so the server's event loop goes
on answering everyone else meanwhile.

Why processes, not threads: under gunicorn's gevent workers every request of a process runs on one
OS thread, and Python code holds the GIL. A thread of gevent's thread pool drawing a picture (font
cutting in fontTools, the layout: Python; resvg: native code) would still take the GIL from the
event loop for its 5 ms slices, so every page of that worker would wait behind it; a process has its
own interpreter and GIL, and runs at a lower priority (POOL_NICE), so the kernel gives the server the
CPU first; and every pool process of the machine runs on one core (the last), so that the workers
always have the others to themselves, however many pictures are asked. docs/speed.md has the figures.

Each server process has its own pool (`run`): at most PROCESSES processes, started when first needed
and kept; at most WAITING more jobs wait for one, and the next is refused at once (Busy: the page says
the server is busy, 503). A job that takes longer than JOB_SECONDS has its process killed and is
refused the same way. The processes talk to the server over a socket pair: pickles, each with its
length; they end when the server process does (their socket closes). `once` makes sure that many
requests for the same picture at once draw it once.
"""

import os
import pickle
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from .settings import setting

ROOT = Path(__file__).resolve().parent.parent

PROCESSES = 1          # processes a server process keeps for heavy work (gunicorn's workers: one each)
WAITING = 8            # jobs that may wait for a process; one more is refused (Busy)
JOB_SECONDS = 60       # the longest one job may take (a low-priority process on a busy machine is slow); then killed
JOBS_PER_PROCESS = 500  # a process is replaced after this many jobs (what it keeps for later stays bounded)
START_SECONDS = 30     # the longest a new process may take to be ready
SOLVER_WAITING = 64    # hands that may wait for the solver's process (each a millisecond, mostly)
SOLVER_SECONDS = 10    # the longest one hand may take (the slowest the app accepts: a tenth of a second)
SOLVER_HANDS = 16      # hands one solver job may take (a stored sheet's missing ones): the slowest, within SOLVER_SECONDS
POOL_NICE = 10         # the pool's processes run at a lower priority (a ninth of a worker's weight)

HEADER = struct.Struct('!Q')


class Busy(Exception):
    """Every process of the pool is working and WAITING jobs already wait, or the job took too long."""


def send(sock, data):
    sock.sendall(HEADER.pack(len(data)) + data)


def receive(sock):
    """One message, or None when the other end closed the socket."""
    head = exactly(sock, HEADER.size)
    return None if head is None else exactly(sock, HEADER.unpack(head)[0])


def exactly(sock, size):
    parts, got = [], 0
    while got < size:
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        got += len(chunk)
    return b''.join(parts)


def child_environment():
    """The server's environment, with the app's folder first on the path: `-m web.pool` finds this
    app's module even where the current folder is left off sys.path (PYTHONSAFEPATH) and another
    distribution installs a `web` of its own (the installed app: web/launch.py)."""
    return {**os.environ, 'PYTHONPATH': os.pathsep.join(filter(None, [str(ROOT), os.environ.get('PYTHONPATH')]))}


class Process:
    """One process of the pool, and the server's end of its socket: ready once it has loaded the
    jobs' modules (a second or so, not counted against its first job's JOB_SECONDS)."""

    def __init__(self, warm=()):
        mine, theirs = socket.socketpair()
        self.sock, self.jobs = mine, 0
        self.process = subprocess.Popen([sys.executable, '-m', 'web.pool', str(theirs.fileno()), *warm],
                                        pass_fds=[theirs.fileno()], cwd=ROOT, env=child_environment(),
                                        stdin=subprocess.DEVNULL, process_group=0)
        theirs.close()
        try:
            self.sock.settimeout(START_SECONDS)
            ready = receive(self.sock)
        except OSError:
            ready = None
        if ready != b'ready':
            self.end()
            raise Busy('the pool process did not start')

    def call(self, function, args, seconds):
        """function(*args) in this process; its exception is raised here."""
        self.jobs += 1
        self.sock.settimeout(seconds)
        send(self.sock, pickle.dumps((function, args)))
        answer = receive(self.sock)
        if answer is None:
            raise Busy('the pool process ended during the job')
        try:
            ok, value = pickle.loads(answer)
        except Exception as e:
            raise Busy(f'the answer could not be read: {e}') from None
        if not ok:
            raise value
        return value

    def end(self):
        self.sock.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class Pool:
    """Up to `processes` processes and `waiting` jobs waiting for one (see the module's docstring)."""

    def __init__(self, processes=PROCESSES, waiting=WAITING, seconds=JOB_SECONDS, warm=()):
        self.seconds, self.size, self.warm = seconds, processes, tuple(warm)
        self.admitted = threading.BoundedSemaphore(processes + waiting)
        self.free = threading.Semaphore(processes)
        self.lock = threading.Lock()
        self.idle = []
        self.pid = os.getpid()
        self.starting = False

    def prepare(self):
        """A process started ahead, in the background, and kept idle for the next job: the first job
        of a server process (an entry page's first preview), or the first after a process retired,
        waits for no start (half a second quiet, seconds on a busy machine)."""
        with self.lock:
            if self.idle or self.starting:
                return
            self.starting = True

        def start():
            try:
                process = Process(self.warm)
            except Busy:
                return
            finally:
                with self.lock:
                    self.starting = False
            with self.lock:
                self.idle.append(process)
        threading.Thread(target=start, daemon=True).start()

    def run(self, function, *args):
        """function(*args) run by one of the pool's processes; Busy when it cannot be run now."""
        if not self.admitted.acquire(blocking=False):
            raise Busy('too many jobs are waiting')
        try:
            if not self.free.acquire(timeout=self.seconds):
                raise Busy('no process was free in time')
            try:
                return self.call(function, args)
            finally:
                self.free.release()
        finally:
            self.admitted.release()

    def call(self, function, args):
        with self.lock:
            process = self.idle.pop() if self.idle else None
        process = process or Process(self.warm)     # Busy if it cannot start
        try:
            value = process.call(function, args, self.seconds)
        except (OSError, Busy, EOFError, pickle.UnpicklingError) as e:
            process.end()                      # killed, timed out or broken: a new one next time
            raise Busy(str(e)) from None
        except BaseException:
            self.keep(process)                 # the job's own exception: the process is fine
            raise
        self.keep(process)
        return value

    def keep(self, process):
        if process.jobs >= JOBS_PER_PROCESS:
            process.end()
            self.prepare()                     # its successor starts now, not at the next job
            return
        with self.lock:
            self.idle.append(process)


_pools = {}
_pools_lock = threading.Lock()

# The pools a server process keeps, by what they are for: their settings' prefix in the app's config,
# and the modules a new process loads before its first job. The solver has a pool of its own, so an
# entry page's preview never waits behind a picture being drawn.
KINDS = {'heavy': ('POOL', ('web.drawing',)), 'solver': ('SOLVER_POOL', ('web.solving',))}


def pool(processes=PROCESSES, waiting=WAITING, seconds=JOB_SECONDS, kind='heavy'):
    """This process's pool of that kind (a forked server worker makes its own)."""
    key = (os.getpid(), kind, processes, waiting, seconds)
    with _pools_lock:
        if key not in _pools:
            _pools[key] = Pool(processes, waiting, seconds, KINDS[kind][1])
        return _pools[key]


def ahead(config, kind='solver'):
    """At a server process's first request, its pool of that kind (where the config has one) starts
    a process ahead (Pool.prepare): by the time a scorekeeper taps the first card, it is ready."""
    prefix = KINDS[kind][0]
    processes = config.get(f'{prefix}_PROCESSES', PROCESSES)
    key = (os.getpid(), kind, processes, config.get(f'{prefix}_WAITING', WAITING),
           config.get(f'{prefix}_SECONDS', JOB_SECONDS))
    if processes and key not in _pools:
        pool(*key[2:], kind=kind).prepare()


def words():
    """(the app's folders of catalogs, the page's language): what a job needs to speak as the page does."""
    from flask import current_app
    from flask_babel import get_locale
    folders = current_app.config.get('BABEL_TRANSLATION_DIRECTORIES', 'translations').split(';')
    return (tuple(os.path.join(current_app.root_path, folder) for folder in folders), str(get_locale()))


TIMERS = []          # f(kind, seconds) told of every job done (web/metrics.py, when on)


def run(config, function, *args, kind='heavy'):
    """function(*args) in the pool of that kind that the app's config describes (its PROCESSES 0: here)."""
    prefix = KINDS[kind][0]
    processes = config.get(f'{prefix}_PROCESSES', PROCESSES)
    started = time.perf_counter()
    try:
        if not processes:
            return function(*args)
        return pool(processes, config.get(f'{prefix}_WAITING', WAITING), config.get(f'{prefix}_SECONDS', JOB_SECONDS),
                    kind).run(function, *args)
    finally:
        for timer in TIMERS:
            timer(kind, time.perf_counter() - started)


class Once:
    """What many requests ask for at the same moment made once: the first makes it, the others wait
    for that and get the same. If making it failed (that client was over its budget, say), each of
    the others tries again on its own."""

    def __init__(self):
        self.lock = threading.Lock()
        self.making = {}                       # key -> (Event, [result or exception])

    def __call__(self, key, make):
        with self.lock:
            first = key not in self.making
            if first:
                self.making[key] = (threading.Event(), [])
            done, result = self.making[key]
        if first:
            try:
                result.append((True, make()))
            except BaseException as e:
                result.append((False, e))
                raise
            finally:
                with self.lock:
                    self.making.pop(key, None)
                done.set()
            return result[0][1]
        done.wait()
        ok, value = result[0]
        return value if ok else self(key, make)


def serve(fd, warm=()):
    """A pool process: run each job sent on the socket and send back its result (or its exception).
    It ends, quietly, when the server process does (its socket closes, or breaks mid-answer). It runs
    in a process group of its own (Process), so a terminal's Ctrl-C or a signal to the server's group is
    the server's to act on, and never a KeyboardInterrupt's traceback here, even while it starts."""
    import importlib
    os.nice(int(setting('POOL_NICE', POOL_NICE)))
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) > 1:                         # every pool process on one core: the workers keep the others
        os.sched_setaffinity(0, cores[-1:])
    sock = socket.socket(fileno=fd)
    sock.setblocking(True)                     # the server's end is gevent's, which made both ends non-blocking
    for name in warm:                          # the jobs' modules, loaded before the first job
        importlib.import_module(name)
    try:
        send(sock, b'ready')
        answer_each(sock)
    except OSError:                            # the server process is gone: BrokenPipe, ConnectionReset
        pass


def answer_each(sock):
    """Each job's answer, until the server closes the socket."""
    while True:
        message = receive(sock)
        if message is None:
            return
        try:
            function, args = pickle.loads(message)
            answer = (True, function(*args))
        except Exception as e:                 # the job's failure goes back to the server, as it was
            answer = (False, e)
        try:
            data = pickle.dumps(answer)
        except Exception as e:
            data = pickle.dumps((False, RuntimeError(f'{type(e).__name__}: {e}')))
        send(sock, data)


if __name__ == '__main__':
    sys.path.insert(0, str(ROOT))
    serve(int(sys.argv[1]), sys.argv[2:])
