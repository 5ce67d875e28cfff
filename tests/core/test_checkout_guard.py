"""The guard of ``tests/checkout_guard.py``: a run whose tests leave a file in the
checkout fails (exit code 1) and names the file, with pytest-xdist too; a clean
run passes; outside a git checkout the guard says nothing."""

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
import checkout_guard

def pytest_sessionstart(session):
    checkout_guard.sessionstart(session)

def pytest_sessionfinish(session):
    checkout_guard.sessionfinish(session)
"""

WRITES = """
from pathlib import Path

def test_writes_a_table_into_the_checkout():
    Path(__file__).parent.joinpath("results").mkdir(exist_ok=True)
    Path(__file__).parent.joinpath("results", "tutto-win-200-abc.json").write_text("{}")

def test_changes_a_tracked_file():
    Path(__file__).parent.joinpath("notes.txt").write_text("changed")
"""

CLEAN = """
def test_writes_into_tmp_path(tmp_path):
    (tmp_path / "w.json").write_text("{}")
"""


def _folder(tmp_path, body, git=True):
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "conftest.py").write_text(CONFTEST)
    (root / "test_it.py").write_text(body)
    (root / "notes.txt").write_text("as committed")
    (root / ".gitignore").write_text("/results/\n__pycache__/\n.pytest_cache/\n")
    if git:
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
               "GIT_COMMITTER_EMAIL": "t@t"}
        for cmd in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "start"]):
            subprocess.run(["git", *cmd], cwd=root, check=True, env=env, capture_output=True)
    return root


def _pytest(root, *args):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=root, capture_output=True, text=True, timeout=300)


def test_a_run_that_leaves_files_in_the_checkout_fails_and_names_them(tmp_path):
    root = _folder(tmp_path, WRITES)
    run = _pytest(root)
    assert "2 passed" in run.stdout, run.stdout + run.stderr
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the tests left files in the checkout" in run.stdout
    assert "results/tutto-win-200-abc.json" in run.stdout
    assert "notes.txt" in run.stdout


def test_with_two_worker_processes_the_controller_fails_the_run_once(tmp_path):
    root = _folder(tmp_path, WRITES)
    run = _pytest(root, "-n", "2")
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.count("the tests left files in the checkout") == 1
    assert run.stdout.count("results/tutto-win-200-abc.json") == 1


def test_a_clean_run_passes(tmp_path):
    root = _folder(tmp_path, CLEAN)
    run = _pytest(root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "left files" not in run.stdout


def test_outside_a_git_checkout_the_guard_is_quiet(tmp_path):
    root = _folder(tmp_path, WRITES, git=False)
    run = _pytest(root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "left files" not in run.stdout and "skipped" not in run.stdout
