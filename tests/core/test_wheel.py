"""The package as users install it (``pip install .``, not ``-e``): the wheel holds
everything a command reads at run time (the shipped policy tables, saved
measurements and ladders of ``tutto_sim/data``, the schemas, the advisor page and
its JavaScript), and commands run from it outside the checkout.

The wheel is built from a copy of the working tree in a temporary folder (a
build writes ``build/`` and ``*.egg-info`` beside the sources: never in the
checkout), unpacked into another, and run with that folder first on
``PYTHONPATH`` (ahead of the editable install's finder) and the current folder
outside the checkout."""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Not sources: caches, environments, results, builds.
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv*", "results", "build", "dist", "*.egg-info", "__pycache__",
                                     ".pytest_cache", ".hypothesis", "node_modules", "*.pyc", "*.nbi", "*.nbc")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCES)
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                          "--no-index", "-q", "-w", str(tmp / "dist")],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    (whl,) = (tmp / "dist").glob("tutto_sim-*.whl")
    return whl


def _package_files(root: Path) -> set[str]:
    """The files of the package in the source tree, as the wheel names them."""
    skip = {"__pycache__"}
    return {p.relative_to(root).as_posix() for p in (root / "tutto_sim").rglob("*")
            if p.is_file() and not skip & set(p.parts) and p.suffix not in (".pyc", ".nbi", ".nbc")}


def test_every_file_of_the_package_is_in_the_wheel(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = _package_files(ROOT)
    data = {n for n in shipped if n.startswith("tutto_sim/data/")}
    assert {"tutto_sim/data/policies/tutto-default.json", "tutto_sim/data/measured/tutti-pimc-heuristic.json",
            "tutto_sim/data/ladders/rutsmieter-2p.json"} <= data
    assert sorted(shipped - names) == []


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """The wheel unpacked as pip installs it (a folder on sys.path) and a run(*args) that runs
    ``tutto-sim ARGS`` from it in a folder outside the checkout."""
    tmp = tmp_path_factory.mktemp("installed")
    site, work = tmp / "site", tmp / "work"
    work.mkdir()
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}

    def run(*args, code=None):
        cmd = ["-m", "tutto_sim.cli", *args] if code is None else ["-c", code]
        return subprocess.run([sys.executable, *cmd], cwd=work, env=env, capture_output=True, text=True,
                              timeout=900)

    return site, work, run


def test_the_package_runs_from_the_wheel_not_the_checkout(installed):
    site, _, run = installed
    got = run(code="import tutto_sim, tutto_sim.core.bots as b; print(tutto_sim.__file__); print(b.POLICY_DIR)")
    assert got.returncode == 0, got.stderr
    module, policies = (Path(line) for line in got.stdout.split())
    assert module == site / "tutto_sim" / "__init__.py" and policies == site / "tutto_sim" / "data" / "policies"
    assert not module.is_relative_to(ROOT)


def test_the_advisor_page_from_the_wheel_has_every_shipped_table(installed):
    site, work, run = installed
    got = run("advisor", "--out", "page")
    assert got.returncode == 0, got.stderr
    page = work / "page"
    for name in ("index.html", "advisor.js", "advisor.css", "boot.js", "policy.mjs"):
        assert (page / name).is_file(), name
    for game in ("tutto", "macke", "volle-lotte", "rutsmieter"):
        copied = page / "policies" / f"{game}-default.json"
        assert copied.read_bytes() == (ROOT / "tutto_sim" / "data" / "policies" / copied.name).read_bytes()
        assert json.loads(copied.read_text())["game"] in (game, "macke")


def test_shipped_weights_play_by_their_name_from_the_wheel(installed):
    _, work, run = installed
    got = run("tournament", "--game", "rutsmieter", "--bots", "tuned,weights:rutsmieter-tuned-v1.json",
              "--games", "4", "--engine", "reference", "--json", "--out-dir", "out")
    assert got.returncode == 0, got.stderr
    d = json.loads(got.stdout)
    assert d["games"] == 4 and Path(d["csv"]).parent == Path("out")
    assert (work / d["csv"]).is_file()


def test_ci_runs_the_installed_wheel_through_every_command_of_the_issue():
    """``.ci/run`` runs ``.ci/wheel`` after the README's test command (and stops before it when
    that command fails), and ``.ci/wheel`` installs the wheel (not ``-e``) outside the checkout
    and runs the README's first command, the advisor export and every game's report there."""
    import re

    from tutto_sim.core.report import report_games

    run = (ROOT / ".ci" / "run").read_text().splitlines()
    code = [line for line in run if line.strip() and not line.lstrip().startswith("#")]
    readme = next(i for i, line in enumerate(code) if line.endswith("ruff check . && pytest"))
    assert code[readme + 1:] == ['status=$?', '[ "$status" -eq 0 ] || exit "$status"', ".ci/wheel"]
    wheel = (ROOT / ".ci" / "wheel").read_text()
    assert os.access(ROOT / ".ci" / "wheel", os.X_OK)
    assert 'tmp=$(mktemp -d)' in wheel and 'cd "$tmp/work"' in wheel and "pip install -e" not in wheel
    assert re.search(r'pip install -q "\$tmp"/dist/tutto_sim-\*\.whl', wheel)
    runs = re.findall(r"\brun ((?:optimize|advisor|report) [^&\\\n]*?)\s*(?:&&|\\|;|\n)", wheel)
    assert "optimize --card bonus400" in runs and "advisor --out site" in runs
    reported = [re.match(r"report --game (\S+)", r).group(1) for r in runs if r.startswith("report")]
    assert sorted(reported) == sorted(report_games()) and "volle-lotte" in reported
    assert "lane1 & one=$!" in wheel and "lane2 & two=$!" in wheel
