"""Chunks of seeded work in this process or on a Dask cluster: the same numbers either way.

Game-independent. The runners (``core.tournament.run_tournament``, the turn
simulations of the dice games) cut their work into fixed chunks of
consecutive games or turns; every game or turn reads its own stream
``(seed, index)`` and a chunk's result is integer sums or per-game arrays.
:func:`run_chunks` hands the chunks to ``work(offset, n)`` and gives every
result to ``take(offset, n, result)`` **in chunk order**:

- by default in this process, one chunk after the other (each chunk uses
  numba's threads);
- inside :func:`using` a cluster (``--cluster local:N`` or
  ``--cluster tcp://HOST:PORT``), one Dask task per chunk. The chunks are the
  same whatever the cluster's size, a task runs on one thread of its worker,
  and the results are combined in chunk order, so the same seed gives the
  same results as in this process, on any cluster.

What travels to a worker: ``work`` is pickled once per run (a
``functools.partial`` of a module-level function: the function by its name,
the arguments by value: rules, bots, the kernel's small tables, the seed),
sent once as its own task, and each chunk task carries only ``(offset, n)``.
A worker that dies loses nothing: the scheduler runs its chunks (and, if
needed, the unpickling task) again on another worker, and as every chunk is a
pure function of its offset the result is the same.

Ctrl-C: the pending tasks are cancelled, the finished chunks are given to
``take`` (in chunk order) and :class:`KeyboardInterrupt` goes on to the
runner, which keeps what finished as it does on threads.

Work that is not one range of games (the candidates of a search, positions,
several start positions) goes through :func:`run_tasks`: a list of
independent tasks, taken in list order, one after the other here and side
by side on a cluster.

A long solve whose rounds of tasks all read large tables that change a
little between rounds (the win solvers' levels and sweeps) keeps them on the
workers (:class:`KeptTables`): each table goes to every worker once, and
before each round only the values written since the round before.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterator

#: The forms of ``--cluster``, for one-line errors.
FORMS = "local, local:N (N worker processes on this machine) or tcp://HOST:PORT (a running Dask scheduler)"
#: How to install what ``--cluster`` needs.
INSTALL = "pip install -e '.[cluster]'"
#: Seconds to wait for a scheduler before giving up, and for its first worker.
CONNECT_TIMEOUT = 3
WORKER_TIMEOUT = 60
#: The most local worker processes (more is a typing error).
MAX_LOCAL = 256


class ClusterError(ValueError):
    """A cluster that cannot be used; the message is one line."""


@dataclass(frozen=True)
class ClusterSpec:
    """A parsed ``--cluster``: ``local`` with ``workers`` processes, or a scheduler's ``address``."""

    kind: str  # "local" | "scheduler"
    workers: int = 0
    address: str = ""

    def label(self) -> str:
        return f"local:{self.workers}" if self.kind == "local" else self.address


def parse_spec(text: str) -> ClusterSpec:
    """``local`` (one worker per core), ``local:N`` or ``tcp://HOST:PORT``.

    >>> parse_spec("local:2")
    ClusterSpec(kind='local', workers=2, address='')
    >>> parse_spec("tcp://10.0.0.5:8786").address
    'tcp://10.0.0.5:8786'
    >>> parse_spec("local:0")
    Traceback (most recent call last):
    ...
    tutto_sim.core.cluster.ClusterError: --cluster must be local, local:N (N worker processes on this machine) or tcp://HOST:PORT (a running Dask scheduler), not 'local:0'
    """
    import os

    bad = ClusterError(f"--cluster must be {FORMS}, not {text!r}")
    text = text.strip()
    if text == "local":
        return ClusterSpec("local", os.cpu_count() or 1)
    if text.startswith("local:"):
        n = text[len("local:"):]
        if not n.isdigit() or not 1 <= int(n) <= MAX_LOCAL:
            raise bad
        return ClusterSpec("local", int(n))
    if text.startswith("tcp://"):
        host, _, port = text[len("tcp://"):].rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise bad
        return ClusterSpec("scheduler", address=text)
    raise bad


#: The client of the cluster in use (inside :func:`using`), else None.
_client = None
#: Chunks sent to the cluster inside the current :func:`using`.
_sent = 0
#: The cluster of the current :func:`using` block, else None.
_spec: ClusterSpec | None = None


def active() -> bool:
    """Whether the runners send their chunks to a cluster now."""
    return _client is not None


def current() -> ClusterSpec | None:
    """The cluster the runners use now (inside :func:`using`), else None: for
    a command's output, which says where its work ran."""
    return _spec if _client is not None else None


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask's distributed package: {INSTALL}") from None
    return distributed


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


def local_cluster(workers: int):
    """A ``LocalCluster`` of ``workers`` single-threaded worker processes, quiet,
    its dashboard on a free port, without Dask's ``MALLOC_TRIM_THRESHOLD_``
    (see :func:`_tune_malloc`), its workers deaf to Ctrl-C (the command
    handles it)."""
    distributed = _distributed()
    import dask.config

    environ = {k: v for k, v in dask.config.get("distributed.nanny.pre-spawn-environ", {}).items()
               if k != "MALLOC_TRIM_THRESHOLD_"}
    # one task at a time per single-threaded worker: the tasks share out evenly
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ,
                          "distributed.scheduler.worker-saturation": 1.0}), _no_sigint():
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=":0",
                                        scheduler_kwargs={"dashboard": False},
                                        silence_logs=logging.ERROR)


@contextlib.contextmanager
def _no_sigint():
    """Processes started inside ignore SIGINT: Ctrl-C at the terminal reaches the
    whole process group, and the command (not its workers) handles it."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def using(spec: str | None) -> Iterator[ClusterSpec | None]:
    """Send the runners' chunks to the cluster of ``spec`` (None: this process).

    ``local[:N]`` starts a ``LocalCluster`` of N single-threaded worker
    processes for the block and closes it after; ``tcp://HOST:PORT``
    connects to a running scheduler (:class:`ClusterError` if it cannot be
    reached within :data:`CONNECT_TIMEOUT` seconds or its workers cannot
    import this version of tutto-sim)."""
    global _client
    if spec is None:
        yield None
        return
    parsed = parse_spec(spec)
    distributed = _distributed()
    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = None
    if parsed.kind == "local":
        cluster = local_cluster(parsed.workers)
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(parsed.address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {parsed.address}: "
                               f"{_first_line(e)}") from None
    global _sent, _spec
    previous, sent, spec_before = _client, _sent, _spec
    try:
        _check_workers(client, parsed)
        _client, _sent, _spec = client, 0, parsed
        yield parsed
        if _sent == 0:  # the command's work has no runner that goes to a cluster
            import sys

            print(f"note: nothing of this command ran on the cluster {parsed.label()}: its "
                  "work runs in this process", file=sys.stderr)
    finally:
        for kept in list(_kept_sets):
            if kept.client is client:
                kept.drop()
        _client, _sent, _spec = previous, sent, spec_before
        client.close()
        if cluster is not None:
            cluster.close()


def _worker_version() -> str:
    """The package's version and a digest of its source files: workers with
    other code would give other numbers."""
    import hashlib
    from pathlib import Path

    from tutto_sim import __version__

    root = Path(__file__).resolve().parents[1]  # the package: core/ is one level down
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return f"{__version__} (source {h.hexdigest()[:12]})"


def _check_workers(client, spec: ClusterSpec) -> None:
    """At least one worker, and every worker imports the same tutto-sim."""
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except TimeoutError:
        raise ClusterError(f"the Dask scheduler at {spec.label()} has no workers after "
                           f"{WORKER_TIMEOUT} s; start some with: dask worker {spec.label()} "
                           "--nthreads 1") from None
    mine = _worker_version()
    try:
        theirs = client.run(_worker_version)
    except Exception as e:  # noqa: BLE001 - a worker without the package: one line
        raise ClusterError(f"the workers of {spec.label()} cannot import tutto_sim "
                           f"({_first_line(e)}); install the same version there") from None
    other = {w: v for w, v in theirs.items() if v != mine}
    if other:
        w, v = next(iter(other.items()))
        raise ClusterError(f"worker {w} has tutto-sim {v}, this machine {mine}; "
                           "install the same version on every worker")


#: Blocks per task on a cluster: tasks of a few seconds at most, the same for any cluster.
CLUSTER_BLOCKS = 8


def task_chunk(chunk: int, block: int) -> int:
    """The chunk a runner uses: its own in this process, at most
    :data:`CLUSTER_BLOCKS` of its blocks per task on a cluster (more tasks share
    out better; the results are the same for any chunk)."""
    return min(chunk, CLUSTER_BLOCKS * block) if _client is not None else chunk


def run_chunks(work: Callable[[int, int], Any], total: int, chunk: int,
               take: Callable[[int, int, Any], None],
               progress: Callable[[int], None] | None = None, weight: int = 1,
               python: bool = False) -> int:
    """``take(offset, n, work(offset, n))`` for the chunks ``offset = 0, chunk,
    2·chunk, …`` of ``total``, in that order; ``progress(n * weight)`` after
    each finished chunk. In this process one chunk after the other, on a
    cluster (:func:`using`) one task per chunk. ``python``: the work is
    single-threaded Python (the reference engine's games, search bots), which
    inside :func:`processes` runs in worker processes side by side
    (:func:`_on_processes`). KeyboardInterrupt passes through after the
    finished chunks were taken. Returns the number of worker processes the
    chunks ran in (1: this process; on a cluster 1 as well, each task on one
    thread of its worker)."""
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1, not {chunk}")
    if _client is None:
        workers = python_workers() if python else 1
        if workers > 1 and total > chunk:
            used = _on_processes(workers, work, total, chunk, take, progress, weight)
            if used:
                return used
        for offset in range(0, total, chunk):
            n = min(chunk, total - offset)
            take(offset, n, work(offset, n))
            if progress is not None:
                progress(n * weight)
        return 1
    _on_cluster(_client, work, total, chunk, take, progress, weight)
    return 1


def _task_list(fn: Callable, tasks: list, offset: int, n: int) -> list:
    """Tasks ``offset .. offset + n - 1`` of :func:`run_tasks` (on a worker or here)."""
    return [fn(*tasks[i]) for i in range(offset, offset + n)]


def run_tasks(fn: Callable, tasks, take: Callable[[int, Any], None], per_task: int = 1,
              kept: "KeptTables | None" = None) -> None:
    """``take(i, fn(*tasks[i]))`` for every task, in task order: in this process
    one after the other, on a cluster (:func:`using`) ``per_task`` of them per
    Dask task. For work that is not a range of games: candidates of a search,
    positions, deals of several kinds; ``fn`` is a module-level function and
    every task a pure function of its arguments (seed and game numbers
    among them), so the results do not depend on where they ran. The task
    list travels once per call, by value. Ctrl-C: the tasks finished before
    the first unfinished one are taken (never a gap), then KeyboardInterrupt
    passes on. ``kept``: the tasks read tables kept on the workers
    (:class:`KeptTables`) and run only on the workers that hold them."""
    tasks = list(tasks)
    given = 0

    def take_chunk(offset: int, n: int, results: list) -> None:
        nonlocal given
        if offset != given:  # after Ctrl-C on a cluster: a gap, and nothing after it
            return
        for k, result in enumerate(results):
            take(offset + k, result)
        given = offset + n

    if kept is not None and _client is not None:
        kept.flush()
        _on_cluster(_client, functools.partial(_task_list, fn, tasks), len(tasks), per_task,
                    take_chunk, None, 1, workers=kept.workers)
        return
    run_chunks(functools.partial(_task_list, fn, tasks), len(tasks),
               per_task if _client is not None else 1, take_chunk)


def add_up(work: Callable[[int, int], Any], sums, total: int, chunk: int, block: int,
           progress: Callable[[int], None] | None = None, catch_interrupt: bool = True,
           weight: int = 1) -> tuple[int, bool]:
    """``sums += work(offset, n)`` over the chunks of ``total`` turns (at most
    :data:`CLUSTER_BLOCKS` blocks of ``block`` per task on a cluster); returns
    (turns added up, interrupted). On Ctrl-C the finished chunks stay added
    (``catch_interrupt``) or KeyboardInterrupt passes on."""
    done = 0

    def take(offset: int, n: int, result) -> None:
        nonlocal done
        sums[...] += result
        done += n

    try:
        run_chunks(work, total, task_chunk(chunk, block), take, progress, weight)
    except KeyboardInterrupt:
        if not catch_interrupt:
            raise
        return done, True
    return done, False


def _load(payload: bytes):
    import cloudpickle

    return cloudpickle.loads(payload)


#: Whether this worker process has set glibc's thresholds (:func:`_tune_malloc`).
_malloc_tuned = False


def _tune_malloc() -> None:
    """Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_`` set, which
    turns off glibc's adaptive mmap threshold: every array above 128 KiB is
    then fresh pages from the kernel, and code that allocates large scratch
    arrays per call (a card game's search) runs 2.5 times slower. Fixed thresholds of
    32 MiB give the reuse back. Nothing on other C libraries."""
    global _malloc_tuned
    _malloc_tuned = True
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, 64 << 20)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


def _call(work, offset: int, n: int):
    """One chunk on a worker, on the task's own thread only."""
    import numba

    if not _malloc_tuned:
        _tune_malloc()
    numba.set_num_threads(1)
    return work(offset, n)


def _on_cluster(client, work, total: int, chunk: int, take, progress, weight: int,
                workers: list | None = None) -> None:
    import cloudpickle
    from distributed import as_completed

    try:
        payload = cloudpickle.dumps(work)
    except Exception as e:  # noqa: BLE001 - e.g. a bot holding a lock: one line
        raise ClusterError(f"this run cannot travel to the Dask workers ({_first_line(e)}); "
                           "run it without --cluster") from None
    global _sent
    run = uuid.uuid4().hex[:12]
    loaded = client.submit(_load, payload, key=f"tutto-sim-work-{run}", pure=False)
    chunks = [(offset, min(chunk, total - offset)) for offset in range(0, total, chunk)]
    _sent += len(chunks)
    index = {}
    for i, (offset, n) in enumerate(chunks):
        pin = {} if workers is None else {"workers": workers, "allow_other_workers": False}
        fut = client.submit(_call, loaded, offset, n, key=f"tutto-sim-chunk-{run}-{i}", pure=False,
                            **pin)
        index[fut.key] = (i, fut)

    def finished():
        for fut in as_completed([f for _, f in index.values()]):
            i, _ = index[fut.key]
            result = fut.result()  # a task's error is raised here
            fut.release()
            yield i, result

    try:
        _take_in_order(finished(), chunks, take, progress, weight,
                       lambda: client.cancel([f for _, f in index.values()] + [loaded]))
    finally:
        loaded.release()


def _take_in_order(finished, chunks: list, take, progress, weight: int, stop) -> None:
    """``take`` each chunk's result in chunk order as ``finished`` (pairs of
    chunk index and result, in the order they finish) brings them;
    ``progress`` at once. Ctrl-C or an error: ``stop()`` the rest; after
    Ctrl-C the finished chunks are taken (in chunk order, a gap for each lost
    one) and KeyboardInterrupt goes on."""
    done: dict[int, Any] = {}
    given = 0
    try:
        for i, result in finished:
            done[i] = result
            if progress is not None:
                progress(chunks[i][1] * weight)
            while given in done:
                take(*chunks[given], done.pop(given))
                given += 1
    except KeyboardInterrupt:
        stop()
        for i in sorted(done):
            take(*chunks[i], done[i])
        raise
    except BaseException:
        stop()
        raise


# --------------------------------------------------------------------------
# tables kept on the workers (a long solve: sent once, then only what changed)
# --------------------------------------------------------------------------

#: On a worker: the kept tables, ``{token: {name: array}}`` (:class:`KeptTables`).
_kept_store: dict = {}
#: Here: the :class:`KeptTables` of the current :func:`using` block, dropped at its end.
_kept_sets: list = []


@dataclass(frozen=True)
class Kept:
    """A task's reference to an array kept on its worker: resolve it there with
    :func:`kept_array`."""

    token: str
    name: int


def kept_array(ref):
    """The array ``ref`` (a :class:`Kept`) names on this worker; anything else
    is returned as it is (a task run in this process gets the arrays
    themselves)."""
    if not isinstance(ref, Kept):
        return ref
    try:
        return _kept_store[ref.token][ref.name]
    except KeyError:
        raise RuntimeError(f"this worker does not hold table {ref.name} of {ref.token}: "
                           "a worker that joined after the solve started") from None


def _kept_put(token: str, name: int, array) -> int:
    _kept_store.setdefault(token, {})[name] = array
    return int(array.nbytes)


def _kept_update(token: str, changes: list) -> int:
    tables = _kept_store[token]
    for name, index, values in changes:
        tables[name][index] = values
    return len(changes)


def _kept_drop(token: str, names: list | None) -> None:
    if names is None:
        _kept_store.pop(token, None)
        return
    tables = _kept_store.get(token, {})
    for name in names:
        tables.pop(name, None)


def traffic_line(stats: dict) -> str:
    """What went to each worker (:attr:`KeptTables.stats`), in one line for stderr."""
    return (f"to each worker: {stats['tables_sent']} tables once "
            f"({stats['table_bytes'] / 1e6:,.1f} MB), then {stats['update_bytes'] / 1e6:,.1f} MB "
            f"of changed values in {stats['updates_sent']:,} updates, over "
            f"{stats['rounds']:,} rounds of tasks")


class KeptTables:
    """Arrays that a long computation's tasks read, kept on the workers of the
    current cluster instead of travelling with every round of tasks.

    :meth:`refs` sends an array to every worker the first time a round of
    tasks reads it (``client.run``: once per worker) and gives the tasks a
    :class:`Kept` reference; arrays the round does not read any more are
    dropped on the workers. The computation reports each write it makes to a
    kept array with :meth:`wrote` (the index it wrote); the values written
    are sent to every worker before the next round of tasks (:meth:`flush`,
    called by :func:`run_tasks`), so a worker's copy is the array itself
    whenever a task reads it, and the results are the same bytes as in this
    process. The tasks run only on the workers that hold the tables
    (``workers``). ``stats``: arrays sent whole and their bytes, updates and
    their bytes, and the rounds of tasks with the bytes the arrays they read
    would have taken had they travelled with every round, for the command's
    output."""

    def __init__(self):
        if _client is None:
            raise RuntimeError("KeptTables needs a cluster (inside cluster.using)")
        self.client = _client
        self.token = "tutto-sim-kept-" + uuid.uuid4().hex[:12]
        self.workers = sorted(self.client.scheduler_info()["workers"])
        self._arrays: dict[int, tuple[int, Any]] = {}  # id -> (name, array)
        self._pending: list = []
        self._next = 0
        self.stats = {"tables_sent": 0, "table_bytes": 0, "updates_sent": 0, "update_bytes": 0,
                      "rounds": 0, "round_bytes": 0}
        _kept_sets.append(self)

    def current(self) -> bool:
        """Whether these tables are on the cluster in use now (a new ``--cluster``
        block needs its own)."""
        return self.client is _client

    def refs(self, *arrays) -> list:
        """:class:`Kept` references to ``arrays`` for this round's tasks."""
        now = {id(a): a for a in arrays}
        self.stats["rounds"] += 1
        self.stats["round_bytes"] += sum(int(a.nbytes) for a in now.values())
        gone = [k for k in self._arrays if k not in now]
        if gone:
            names = [self._arrays.pop(k)[0] for k in gone]
            self._pending = [c for c in self._pending if c[0] not in names]
            self.client.run(_kept_drop, self.token, names, workers=self.workers)
        out = []
        for a in arrays:
            if id(a) not in self._arrays:
                self.flush()  # the writes to other arrays first: one order on every worker
                name = self._next
                self._next += 1
                self.client.run(_kept_put, self.token, name, a, workers=self.workers)
                self._arrays[id(a)] = (name, a)
                self.stats["tables_sent"] += 1
                self.stats["table_bytes"] += int(a.nbytes)
            out.append(Kept(self.token, self._arrays[id(a)][0]))
        return out

    def wrote(self, array, index) -> None:
        """The computation wrote ``array[index]``: the workers get those values
        before the next round of tasks (nothing when the array is not kept)."""
        entry = self._arrays.get(id(array))
        if entry is not None:
            values = array[index]
            self._pending.append((entry[0], index, values.copy()))

    def flush(self) -> None:
        if not self._pending:
            return
        changes, self._pending = self._pending, []
        self.client.run(_kept_update, self.token, changes, workers=self.workers)
        self.stats["updates_sent"] += len(changes)
        self.stats["update_bytes"] += sum(int(v.nbytes) for _, _, v in changes)

    def drop(self) -> None:
        """Forget every kept array here and on the workers."""
        self._arrays.clear()
        self._pending = []
        if self in _kept_sets:
            _kept_sets.remove(self)
        try:
            self.client.run(_kept_drop, self.token, None, workers=self.workers)
        except Exception:  # noqa: BLE001 - a cluster that is gone keeps nothing either
            pass


# --------------------------------------------------------------------------
# worker processes on this machine (Python work: the reference engine)
# --------------------------------------------------------------------------

#: Whether Python work outside a cluster runs in worker processes (:func:`processes`).
_processes = False
#: The pool of worker processes, kept for the process's later runs: (size, executor).
_pool = None


@contextlib.contextmanager
def processes():
    """Inside (the commands' blocks that run off a cluster), :func:`run_chunks`
    runs Python work (``python=True``) in as many worker processes as numba
    has threads (``--threads`` caps them): the same chunks as in this
    process, taken in chunk order, so the same seed gives the same numbers
    for any number of processes."""
    global _processes
    before, _processes = _processes, True
    try:
        yield
    finally:
        _processes = before


def python_workers() -> int:
    """The worker processes Python work runs in now (1: this process)."""
    import numba

    return numba.get_num_threads() if _processes and _client is None else 1


def _dumps(work) -> bytes | None:
    """``work`` pickled for worker processes (cloudpickle when installed: it takes
    a ``py:FILE.py`` bot's class by value), None if it cannot travel."""
    try:
        import cloudpickle as pickler
    except ImportError:
        import pickle as pickler
    try:
        return pickler.dumps(work)
    except Exception:  # noqa: BLE001 - a bot that cannot travel plays in this process
        return None


def _start_worker() -> None:
    """A worker process: deaf to Ctrl-C (the command handles it), one numba thread."""
    import signal

    import numba

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    numba.set_num_threads(1)


#: In a worker process: the work of the current run, (run id, work).
_worker_work: tuple = ("", None)


def _process_call(run: str, path: str, offset: int, n: int):
    """One chunk in a worker process; the run's work is read once from ``path``."""
    global _worker_work
    if _worker_work[0] != run:
        import pickle
        from pathlib import Path

        _worker_work = (run, pickle.loads(Path(path).read_bytes()))
    return _worker_work[1](offset, n)


def _executor(workers: int):
    """The pool of ``workers`` spawned processes, started once and kept."""
    global _pool
    if _pool is not None and _pool[0] == workers:
        return _pool[1]
    _close_pool()
    import atexit
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with _no_sigint():
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker)
    if _pool is None:
        atexit.register(_close_pool)
    _pool = (workers, pool)
    return pool


def _close_pool(kill: bool = False) -> None:
    """Stop the worker processes (``kill``: at once, after Ctrl-C)."""
    global _pool
    if _pool is None:
        return
    pool, _pool = _pool[1], None
    if kill:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
    pool.shutdown(wait=not kill, cancel_futures=True)


def _on_processes(workers: int, work, total: int, chunk: int, take, progress, weight: int) -> int:
    """The chunks in up to ``workers`` worker processes, taken in chunk order;
    0 (nothing run) if the work cannot be pickled. The work travels once per
    run, in a temporary file each worker reads once; each task carries only
    ``(offset, n)``. Ctrl-C: the workers are stopped, the finished chunks are
    taken (in chunk order) and KeyboardInterrupt goes on."""
    import os
    import tempfile
    from concurrent.futures import as_completed

    payload = _dumps(work)
    if payload is None:
        return 0
    chunks = [(offset, min(chunk, total - offset)) for offset in range(0, total, chunk)]
    workers = min(workers, len(chunks))
    fd, path = tempfile.mkstemp(prefix="tutto-sim-work-", suffix=".pickle")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        pool = _executor(workers)
        run = uuid.uuid4().hex[:12]
        index = {pool.submit(_process_call, run, path, offset, n): i
                 for i, (offset, n) in enumerate(chunks)}
        finished = ((index[fut], fut.result()) for fut in as_completed(index))
        _take_in_order(finished, chunks, take, progress, weight, lambda: _close_pool(kill=True))
    finally:
        os.unlink(path)
    return workers
