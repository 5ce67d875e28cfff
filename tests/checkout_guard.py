"""The tests leave the checkout as they found it (they write only into temporary
folders): ``pytest_sessionstart`` notes the checkout's files by ``git status``
(ignored files too, so ``results/`` counts), ``pytest_sessionfinish`` looks again
and fails the run (exit code 1) listing every file the tests added, changed or
removed. Only the controller looks (pytest-xdist's workers have
``config.workerinput``); outside a git checkout the guard does nothing.

Caches of the tools are not results and do not count: ``__pycache__`` (numba's
``*.nbi``/``*.nbc`` among them), ``.pytest_cache``, ``.hypothesis``, the
virtual environments and the editable install's ``*.egg-info``."""

import subprocess
from pathlib import Path

import pytest

#: Path parts of caches the tools keep in the checkout (not written by the tests).
CACHES = {"__pycache__", ".pytest_cache", ".hypothesis", ".venv", ".venv-ci", ".git"}

BEFORE = pytest.StashKey[set]()


def checkout_files(root: Path) -> set[str] | None:
    """``git status`` lines of ``root``'s checkout (untracked and ignored files one by
    one), caches left out; None when ``root`` is no git checkout (or git is missing)."""
    try:
        run = subprocess.run(["git", "status", "--porcelain", "-z", "--ignored", "--untracked-files=all"],
                             cwd=root, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if run.returncode != 0:
        return None
    lines = set()
    for entry in run.stdout.split("\0"):
        parts = Path(entry[3:]).parts
        if entry and not (CACHES & set(parts) or any(p.endswith(".egg-info") for p in parts)):
            lines.add(entry)
    return lines


def _controller(config) -> bool:
    return not hasattr(config, "workerinput")


def sessionstart(session) -> None:
    if _controller(session.config):
        before = checkout_files(session.config.rootpath)
        if before is not None:
            session.config.stash[BEFORE] = before


def sessionfinish(session) -> None:
    config = session.config
    before = config.stash.get(BEFORE, None)
    if not _controller(config) or before is None:
        return
    after = checkout_files(config.rootpath) or set()
    left = sorted(after - before) + sorted(f"gone: {e}" for e in before - after)
    if not left:
        return
    tr = config.pluginmanager.get_plugin("terminalreporter")
    head = "the tests left files in the checkout (tests write only into tmp_path)"
    if tr:
        tr.line("")  # after the progress dots of -q
        tr.write_sep("=", head, red=True)
        for e in left:
            tr.write_line(f"  {e}", red=True)
    else:
        print("\n".join([head + ":", *(f"  {e}" for e in left)]))
    if session.exitstatus == 0:
        session.exitstatus = 1
