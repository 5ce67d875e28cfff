"""``--cluster``: the same seed gives the same JSON in this process, on a
``LocalCluster`` and on a ``dask scheduler`` with ``dask worker`` processes;
a worker killed mid-run loses nothing; bad clusters are one line, exit 2.

The scheduler and two single-threaded workers are real processes on
127.0.0.1 (random free ports), started once for the module and always
killed at the end. The reference for every comparison is the run without
``--cluster`` (numba threads in this process), which shares no code with the
cluster's task scheduling; the chunk sizes differ too (32,768 games per chunk
in this process, 4,096 per task on a cluster), so equal results also show
that no game depends on its chunk.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import distributed  # the [cluster] extra is part of [test]: CI runs these, never skips them
import pytest
from conftest import run_cli

from tutto_sim.core import cluster
from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
#: Keys that say how and where a run went, not what it found.
RUN_KEYS = ("seconds", "threads", "processes", "cluster", "csv")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str) -> list[str]:
    exe = Path(sys.executable).parent / "dask"
    return [str(exe), *args] if exe.exists() else [sys.executable, "-m", "dask", *args]


class Scheduler:
    """A ``dask scheduler`` and single-threaded ``dask worker`` processes (no nanny:
    a killed worker stays dead)."""

    def __init__(self, workers: int):
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
        self.procs = [subprocess.Popen(
            _dask("scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                  "--no-dashboard"),
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        self.workers = [self.add_worker() for _ in range(workers)]

    def add_worker(self) -> subprocess.Popen:
        p = subprocess.Popen(_dask("worker", self.address, "--nthreads", "1", "--no-nanny",
                                   "--host", "127.0.0.1", "--no-dashboard"),
                             cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        self.procs.append(p)
        return p

    def wait_for(self, n: int, timeout: float = 90) -> None:
        with distributed.Client(self.address, timeout=timeout) as client:
            client.wait_for_workers(n, timeout=timeout)

    def count(self) -> int:
        with distributed.Client(self.address, timeout=10) as client:
            return len(client.scheduler_info()["workers"])

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
        for p in self.procs:
            p.wait(timeout=30)


@pytest.fixture(scope="module")
def scheduler():
    s = Scheduler(2)
    try:
        s.wait_for(2)
        yield s
    finally:
        s.stop()


def _json(capsys, *args):
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    assert "nothing of this command ran on the cluster" not in err  # it did run there
    d = json.loads(out)
    for k in RUN_KEYS:
        d.pop(k, None)
    return d


def _same_three_ways(capsys, scheduler, *args, local=False):
    """The command's JSON in this process, on the scheduler's workers and
    (``local``) on ``--cluster local:2``: all equal."""
    here = _json(capsys, *args)
    there = _json(capsys, *args, "--cluster", scheduler.address)
    assert there == here
    if local:
        assert _json(capsys, *args, "--cluster", "local:2") == here
    return here


def test_tutto_tournament_same_json_in_process_local_cluster_and_scheduler(capsys, scheduler, tmp_path):
    d = _same_three_ways(capsys, scheduler, "tournament", "--bots", "cautious,threshold:400",
                         "--games", "8192", "--seed", "5", "--out-dir", str(tmp_path), local=True)
    assert d["games"] == 8192 and not d["interrupted"]


def test_tutti_tournaments_kernel_and_reference_engine_same_json(capsys, scheduler, tmp_path):
    kern = _same_three_ways(capsys, scheduler, "tournament", "--game", "tutti", "--bots",
                            "heuristic,random", "--games", "3000", "--seed", "3",
                            "--out-dir", str(tmp_path))
    assert kern["engine"] == "kernel"
    # pimc and cheat play only in the reference engine: Python bots travel to the workers
    ref = _same_three_ways(capsys, scheduler, "tournament", "--game", "tutti", "--bots",
                           "pimc:2,cheat", "--games", "100", "--seed", "4",
                           "--out-dir", str(tmp_path))
    assert ref["engine"] == "reference" and ref["games"] == 100


def test_rutsmieter_tournaments_python_bot_and_analyze_seats_same_json(capsys, scheduler, tmp_path):
    _same_three_ways(capsys, scheduler, "tournament", "--game", "rutsmieter", "--players", "3",
                     "--bots", "tuned,aggressive,random", "--games", "1500", "--seed", "9",
                     "--out-dir", str(tmp_path))
    # a Python bot from a file travels with its code
    careful = f"py:{ROOT / 'examples' / 'rutsmieter_bot.py'}:Careful"
    ref = _same_three_ways(capsys, scheduler, "tournament", "--game", "rutsmieter", "--bots",
                           f"{careful},random", "--games", "100", "--seed", "3",
                           "--out-dir", str(tmp_path))
    assert ref["engine"] == "reference" and "careful" in ref["bots"]
    seats = _same_three_ways(capsys, scheduler, "analyze", "seats", "--game", "macke",
                             "--players", "2,3", "--games", "5000", "--seed", "2",
                             "--out-dir", str(tmp_path))
    assert set(seats["players"]) == {"2", "3"}


def test_validate_and_optimize_turns_run_on_the_cluster_with_the_same_json(capsys, scheduler, tmp_path):
    checks = _same_three_ways(capsys, scheduler, "validate", "--game", "macke", "--turns", "50000",
                              "--seed", "6")
    assert checks["turns"] == 50000
    best = _same_three_ways(capsys, scheduler, "optimize", "--turns", "30000", "--search-turns",
                            "10000", "--seed", "8", "--out-dir", str(tmp_path))
    assert best["turns"] == 30000


def test_work_that_does_not_go_to_the_cluster_says_so(capsys, scheduler):
    # every command with --cluster now sends work there (``_json`` checks that no
    # note is printed); a block that sends none still says so in one line
    with cluster.using(scheduler.address):
        pass
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"note: nothing of this command ran on the cluster {scheduler.address}: its work runs "
        "in this process"]


def test_a_worker_killed_mid_tournament_loses_nothing(scheduler):
    from tutto_sim.tutto.game import GameConfig
    from tutto_sim.tutto.rules import TuttoRules

    rules = TuttoRules()
    bots = parse_bots("optimal,cautious", rules)
    games = 12 * 4096  # twelve tasks of 4,096 games
    here = run_tournament(bots, 2, games, 77, GameConfig(rules))
    victim = scheduler.workers[0]
    finished = []

    def progress(n):  # in the client, after each finished task
        finished.append(n)
        if len(finished) == 1:
            victim.send_signal(signal.SIGKILL)

    try:
        with cluster.using(scheduler.address):
            t0 = time.monotonic()
            there = run_tournament(bots, 2, games, 77, GameConfig(rules), progress=progress)
            assert time.monotonic() - t0 < 240
        assert victim.wait(timeout=30) == -signal.SIGKILL
        assert scheduler.count() == 1  # the scheduler saw it go: the rest ran on the other
    finally:  # a fresh worker for the other tests
        scheduler.workers[0] = scheduler.add_worker()
        scheduler.wait_for(2)
    assert sum(finished) == games and not there.interrupted
    assert there.to_dict() | {"seconds": 0, "threads": 0} == here.to_dict() | {"seconds": 0, "threads": 0}


def test_ctrl_c_cancels_pending_tasks_and_keeps_finished_games(scheduler):
    from tutto_sim.tutto.game import GameConfig
    from tutto_sim.tutto.rules import TuttoRules

    rules = TuttoRules()
    bots = parse_bots("optimal,cautious", rules)
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with cluster.using(scheduler.address):
        res = run_tournament(bots, 2, 40 * 4096, 5, GameConfig(rules), progress=progress)
        with distributed.Client(scheduler.address, timeout=10) as client:
            deadline = time.monotonic() + 30  # the cancelled tasks leave the scheduler
            while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0
    assert res.interrupted
    # the finished tasks count, whole: 4,096 games each, every game in two seats
    assert res.games % 4096 == 0 and 2 * 4096 <= res.games < 40 * 4096
    assert int(res.sums.bot[:, 0].sum()) == 2 * res.games


def test_the_games_own_analyses_keep_their_options_and_take_cluster(capsys):
    for name in ("rules", "pieces", "lead", "tute"):
        code, out, err = run_cli(capsys, "analyze", name, "--help")
        assert code == 0, err
        assert "--json" in out and "--as-json" not in out and "--cluster" in out, out


def test_bad_cluster_specs_are_one_line_exit_2(capsys):
    for spec in ("local:0", "foo", "local:x", "tcp://nohost", "tcp://h:99999"):
        code, out, err = run_cli(capsys, "tournament", "--games", "10", "--cluster", spec)
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "local, local:N" in lines[0] and "tcp://HOST:PORT" in lines[0], err
        assert repr(spec) in lines[0]


def test_unreachable_scheduler_is_one_line_exit_2_within_seconds(capsys, tmp_path):
    address = f"tcp://127.0.0.1:{_free_port()}"  # nobody listens there
    t0 = time.monotonic()
    code, out, err = run_cli(capsys, "tournament", "--games", "10", "--out-dir", str(tmp_path),
                             "--cluster", address)
    seconds = time.monotonic() - t0
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"tutto-sim: error: cannot reach the Dask scheduler at {address}: "), err
    assert seconds < 3 * cluster.CONNECT_TIMEOUT


def test_without_the_extra_one_line_names_the_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for cmd in (("tournament", "--games", "10"), ("validate", "--turns", "10"),
                ("analyze", "seats", "--games", "10")):
        code, out, err = run_cli(capsys, *cmd, "--cluster", "local:2")
        assert code == 2, err
        assert err.strip().splitlines() == [
            "tutto-sim: error: --cluster needs Dask's distributed package: pip install -e '.[cluster]'"]


# -- the games' own searches and analyses (one task per candidate or position and chunk) --------


@pytest.fixture(scope="module")
def local2():
    """A ``LocalCluster`` of two worker processes, as ``--cluster local:2`` starts
    (``cluster.local_cluster``), once for the module: its scheduler's address."""
    with cluster.local_cluster(2) as lc:
        yield lc.scheduler_address


def _threads_and_cluster(capsys, address, *args, chunks=()):
    """The command's JSON in this process and on the cluster at ``address``:
    equal. ``chunks``: (module, name, size) set only for the cluster's run, so
    that its tasks cut the work where this process does not."""
    here = _json(capsys, *args)
    with pytest.MonkeyPatch.context() as mp:
        for module, name, size in chunks:
            mp.setattr(module, name, size)
        there = _json(capsys, *args, "--cluster", address)
    assert there == here
    return here


def test_rutsmieter_weight_search_same_json_on_local_cluster(capsys, local2, tmp_path):
    from tutto_sim.rutsmieter import optimize

    d = _threads_and_cluster(
        capsys, local2, "optimize", "--game", "rutsmieter", "--players", "2", "--field",
        "first,random", "--candidates", "5", "--search-games", "150", "--games", "200",
        "--seed", "4", "--out", str(tmp_path / "w.json"), "--out-dir", str(tmp_path),
        chunks=[(optimize, "CHUNK", 128)])  # 300 search games: 3 tasks per candidate
    assert d["search"]["candidates"] == 6 and d["fresh"]["games_per_bot"] == 200
    assert d["free_weights"] and not d["interrupted"]


def test_rutsmieter_pieces_same_json_on_local_cluster(capsys, local2, tmp_path):
    from tutto_sim.rutsmieter import analysis

    here = _threads_and_cluster(
        capsys, local2, "analyze", "pieces", "--players", "2", "--games", "300", "--positions",
        "12", "--position-games", "8", "--seed", "3", "--out-dir", str(tmp_path),
        chunks=[(analysis, "PIECE_CHUNK", 128), (analysis, "SAMPLE_TASK", 5),
                (analysis, "EVENT_TASK", 5)])
    assert here["capture"]["positions_done"] == 12 and here["capture"]["sample_games"] >= 12
    assert len(here["first_piece_out"]["seats"]) == 2


def test_tutti_exchange_and_declare_same_json_on_local_cluster(capsys, local2, tmp_path):
    from tutto_sim.tutti import analysis

    ex = _threads_and_cluster(capsys, local2, "analyze", "exchange", "--deals", "12", "--seed",
                              "2", "--out-dir", str(tmp_path),
                              chunks=[(analysis, "ABSTAIN_TASK", 5)])
    assert list(ex["tables"]) == ["2"] and ex["tables"]["2"]["deals"] == 12
    de = _threads_and_cluster(capsys, local2, "analyze", "declare", "--tables", "3,4p",
                              "--deals", "8", "--seed", "2", "--out-dir", str(tmp_path),
                              chunks=[(analysis, "ABSTAIN_TASK", 3)])
    assert list(de["tables"]) == ["3", "4p"]


def test_tutti_trump_and_tute_same_json_on_local_cluster_and_scheduler(capsys, local2, scheduler,
                                                                       tmp_path):
    from tutto_sim.tutti import analysis

    tr = _threads_and_cluster(capsys, local2, "analyze", "trump", "--tables", "2,4p", "--deals",
                              "3000", "--seed", "5", "--out-dir", str(tmp_path),
                              chunks=[(analysis, "HAND_CHUNK", 1024)])
    assert sum(r["hands"] for r in tr["tables"]["2"].values()) == 3000
    args = ("analyze", "tute", "--tables", "2,4", "--deals", "40000", "--seed", "5", "--out-dir",
            str(tmp_path))
    tu = _threads_and_cluster(capsys, local2, *args, chunks=[(analysis, "DEAL_CHUNK", 8192)])
    assert _json(capsys, *args, "--cluster", scheduler.address) == tu
    assert tu["p_dealt_tute"]["4"]["deals"] == 40000


def test_run_tasks_takes_results_in_task_order_and_only_a_prefix_after_ctrl_c(scheduler):
    import math

    tasks = [(float(i),) for i in range(30)]
    for where in (None, scheduler.address):
        got = []
        with cluster.using(where):
            cluster.run_tasks(math.sqrt, tasks, lambda i, r: got.append((i, r)), per_task=4)
        assert got == [(i, math.sqrt(i)) for i in range(30)]
        taken = []

        def take(i, r):
            taken.append(i)
            if i == 5:  # Ctrl-C while the sixth result is taken
                raise KeyboardInterrupt

        with cluster.using(where), pytest.raises(KeyboardInterrupt):
            cluster.run_tasks(math.sqrt, tasks, take, per_task=2)
        assert taken == list(range(6))  # the tasks finished later are never taken: no gap


def test_kept_tables_are_sent_once_and_follow_every_write(scheduler):
    """``KeptTables``: an array goes to the workers once; each write reported
    with ``wrote`` reaches every worker before the next round of tasks (the
    tasks read their worker's copy: equal to the array here; both workers
    hold one); an array a round no longer reads is dropped there."""
    import numpy as np

    a = np.arange(12.0).reshape(3, 4)
    b = np.ones(5)
    with cluster.using(scheduler.address):
        kept = cluster.KeptTables()
        assert len(kept.workers) == 2
        ra, rb = kept.refs(a, b)
        for step in range(3):
            a[step, [1, 3]] += 10.0 * (step + 1)  # written here, reported, read there
            kept.wrote(a, (step, [1, 3]))
            b[step] = -step
            kept.wrote(b, step)
            got = []
            cluster.run_tasks(cluster.kept_array, [(ra,), (rb,)] * 8,
                              lambda i, r: got.append(r), kept=kept)
            assert all(np.array_equal(g, a if i % 2 == 0 else b) for i, g in enumerate(got))
            assert kept.refs(a, b) == [ra, rb]  # not sent again
        assert kept.stats["tables_sent"] == 2
        assert kept.stats["table_bytes"] == a.nbytes + b.nbytes
        assert kept.stats["updates_sent"] == 6
        assert kept.stats["update_bytes"] == 3 * (2 * 8 + 8)
        kept.refs(a)  # b is not read any more: gone from the workers
        with pytest.raises(RuntimeError, match="does not hold table"):
            cluster.run_tasks(cluster.kept_array, [(rb,)], lambda i, r: None, kept=kept)
        # each worker answers from its own copy
        token = kept.token
        ran = cluster._client.run(lambda: sorted(cluster._kept_store.get(token, {})))
        assert sorted(ran) == kept.workers and all(v == [0] for v in ran.values())
    assert cluster._kept_sets == []  # the block's end drops them


# -- where the work ran: the analyses say it as tournaments do ----------------------------------


def _where_ran(capsys, *args):
    """The command in this process (``--threads 1``) and on ``--cluster local:2``:
    the JSON keys and the text line that say where it ran, and the same figures."""
    code, here_text, err = run_cli(capsys, *args, "--threads", "1")
    assert code == 0, err
    assert "1 thread;" in here_text and "Dask" not in here_text
    code, there_text, err = run_cli(capsys, *args, "--cluster", "local:2")
    assert code == 0, err
    assert "played on the Dask cluster local:2;" in there_text
    assert " thread" not in there_text  # the cluster's words instead of a thread count
    code, out, err = run_cli(capsys, *args, "--threads", "1", "--json")
    assert code == 0, err
    here = json.loads(out)
    code, out, err = run_cli(capsys, *args, "--cluster", "local:2", "--json")
    assert code == 0, err
    there = json.loads(out)
    assert (here["threads"], "cluster" in here) == (1, False)
    assert (there["threads"], there["cluster"]) == (1, "local:2")
    figures = lambda d: {k: v for k, v in d.items() if k not in RUN_KEYS}  # noqa: E731
    assert figures(there) == figures(here)
    return here


def test_rutsmieter_pieces_and_tutti_tute_say_they_ran_on_the_cluster(capsys, tmp_path):
    pieces = _where_ran(capsys, "analyze", "pieces", "--players", "2", "--games", "200",
                        "--positions", "3", "--position-games", "4", "--seed", "7",
                        "--out-dir", str(tmp_path))
    assert pieces["capture"]["positions_done"] == 3
    tute = _where_ran(capsys, "analyze", "tute", "--tables", "2", "--deals", "20000", "--seed",
                      "7", "--out-dir", str(tmp_path))
    assert tute["p_dealt_tute"]["2"]["deals"] == 20000


def test_ran_on_names_the_cluster_or_the_threads():
    from tutto_sim.core.commands_games import ran_on

    here = ran_on(3)
    assert (here.json(), here.words()) == ({"threads": 3}, "3 threads")
    there = ran_on(3, cluster.parse_spec("tcp://10.0.0.5:8786"))
    assert there.json() == {"threads": 1, "cluster": "tcp://10.0.0.5:8786"}
    assert there.words() == "played on the Dask cluster tcp://10.0.0.5:8786"
