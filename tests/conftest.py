"""Shared fixtures: the default rules and the exact Fraction tools tests use; the guard
that fails the run when the tests leave files in the checkout (``checkout_guard``)."""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import checkout_guard
import pytest

from tutto_sim.tutto.rules import TuttoRules


#: Test files whose tests share a costly module fixture (a report built twice, a solved table):
#: with ``-n 2`` each runs whole in one worker process, so the fixture is built once. The
#: ``xdist_group`` mark would say the same, but pytest 9.2 no longer lets pytest-xdist group by
#: it (the tests are then spread over both workers and each builds the fixture: 100 s of the
#: suite's time; pytest-xdist issue 1386), so the grouping is by file, here.
SHARED_FIXTURE_FILES = (
    "tests/tutto/test_report.py",
    "tests/tutto/test_exact_validation.py",
    "tests/tutto/test_winopt_value.py",
    "tests/macke/test_report_macke.py",
    "tests/rutsmieter/test_rutsmieter_report.py",
    "tests/tutti/test_tutti_report.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (pyproject.toml): every test its own unit of work but those of a
    file of :data:`SHARED_FIXTURE_FILES`, which go to one worker together."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ByFile(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in SHARED_FIXTURE_FILES else super()._split_scope(nodeid)

    return ByFile(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    checkout_guard.sessionstart(session)


def pytest_sessionfinish(session):
    checkout_guard.sessionfinish(session)


@pytest.fixture(scope="session")
def rules():
    return TuttoRules()


@pytest.fixture
def in_tmp_dir(tmp_path, monkeypatch):
    """The test runs in ``tmp_path``: what the code saves under ``results/`` of the current
    folder (the ``winopt`` bot's win table when none is saved) lands there, not in the checkout."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_cli(capsys, *args):
    """Run ``tutto-sim ARGS`` in-process: (exit code, stdout, stderr)."""
    from tutto_sim.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
        raise SystemExit(0)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err


def one_line(code, out, err):
    """A refusal: exit code 2, nothing on stdout, one line ``tutto-sim: error: ...``
    on stderr and no traceback; returns the line."""
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tutto-sim: error: ") and "Traceback" not in err
    return lines[0]


def result_file(folder, stem, suffix=".csv"):
    """The one file ``stem-<run digest>suffix`` in ``folder`` (the run digest
    of ``core.runs``: 10 hex digits); fails unless there is exactly one."""
    import re
    from pathlib import Path

    name = re.compile(re.escape(stem) + r"-[0-9a-f]{10}" + re.escape(suffix))
    found = sorted(p for p in Path(folder).iterdir() if name.fullmatch(p.name))
    assert len(found) == 1, (stem, suffix, sorted(p.name for p in Path(folder).iterdir()))
    return found[0]


# -- real processes (Ctrl-C) --

#: The tutto-sim script of this environment.
SCRIPT = str(Path(sys.executable).with_name("tutto-sim"))


def start_cli(args: list[str], cwd: Path, env: dict | None = None, stdin=None) -> subprocess.Popen:
    """``tutto-sim ARGS`` as a real process in ``cwd`` (pipes for its output; ``env`` added)."""
    return subprocess.Popen([SCRIPT, *args], cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})


def read_until(proc: subprocess.Popen, stream, pattern: str, seconds: float = 900) -> str:
    """What ``stream`` of ``proc`` said until ``pattern`` (a regex) showed, within ``seconds``."""
    os.set_blocking(stream.fileno(), False)
    seen, t0 = "", time.monotonic()
    while not re.search(pattern, seen):
        assert proc.poll() is None, f"the process ended ({proc.returncode}) before {pattern!r}: {seen}"
        assert time.monotonic() - t0 < seconds, f"no {pattern!r} in {seconds} s: {seen}"
        ready, _, _ = select.select([stream], [], [], 1.0)
        if ready:
            seen += stream.read() or ""
    return seen


def interrupt(proc: subprocess.Popen) -> tuple[int, str, str]:
    """Ctrl-C: SIGINT, then (exit code, stdout, stderr)."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def stop_when(proc: subprocess.Popen, pattern: str) -> tuple[str, str]:
    """Ctrl-C once ``proc``'s stderr shows ``pattern``: demands exit code 130 and
    one ``tutto-sim: interrupted: …`` line; returns (that line, all of stderr)."""
    said = read_until(proc, proc.stderr, pattern)
    code, _, err = interrupt(proc)
    err = said + err
    assert code == 130, err
    line = [x for x in err.splitlines() if x.startswith("tutto-sim: interrupted: ")]
    assert len(line) == 1, err
    return line[0], err
