"""Every command that writes a result (issue 35): a full disk saves it in the
temporary folder and says where; a second run says it replaced the first;
an empty ``--out`` / ``--out-dir`` is refused; an existing folder is a folder.

The full disk is injected: ``os.replace`` into the result's place fails with
ENOSPC (the last step of every write, ``core.cli.atomic_write`` and the
report's and the advisor's folders alike), the temporary folder is the
test's own."""

from __future__ import annotations

import errno
import json
import os
import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest

from conftest import run_cli


@pytest.fixture
def full_disk(tmp_path, monkeypatch):
    """``target``: a folder on a "full disk" (every rename into it fails with
    ENOSPC); ``tmp``: the system's temporary folder for this test."""
    target, tmp = tmp_path / "full", tmp_path / "tmp"
    target.mkdir()
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    real = os.replace

    def replace(src, dst, *a, **k):
        if str(Path(dst).resolve()).startswith(str(target.resolve()) + os.sep):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", replace)
    return target, tmp


def _rescued(err: str, place: Path, tmp: Path) -> Path:
    """The one warning line: cannot write ``place`` (the reason), saved in a
    path in ``tmp``; that path."""
    lines = [x for x in err.splitlines() if x.startswith("warning: cannot write")]
    found = [x for x in lines if f"cannot write {place} (No space left on device)" in x
             and "the results are saved in" in x]
    assert len(found) == 1, err
    saved = Path(found[0].rsplit("saved in ", 1)[1])
    assert saved.parent == tmp and saved.exists(), (saved, err)
    return saved


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# -- export-policy ---------------------------------------------------------------------------

@pytest.mark.parametrize("game, fmt", [("tutto", "json"), ("tutto", "csv"), ("macke", "json"),
                                       ("volle-lotte", "csv")])
def test_a_full_disk_keeps_the_policy_table(capsys, tmp_path, full_disk, game, fmt):
    target, tmp = full_disk
    place = target / f"policy.{fmt}"
    code, out, err = run_cli(capsys, "export-policy", "--game", game, "--format", fmt,
                             "--out", str(place))
    assert code == 0, err
    saved = _rescued(err, place, tmp)
    assert saved.suffix == f".{fmt}" and f"wrote {saved} (" in out, out
    assert list(target.iterdir()) == []  # nothing half-written in the full place
    ok = tmp_path / "ok" / place.name  # the same file as a run on a disk with room
    code, _, err = run_cli(capsys, "export-policy", "--game", game, "--format", fmt,
                           "--out", str(ok))
    assert code == 0, err
    assert saved.read_bytes() == ok.read_bytes()
    if fmt == "json":  # a policy file that passes every check
        if game == "tutto":
            from tutto_sim.tutto.policy import load_policy as load
        else:
            from tutto_sim.macke.policy import load_macke_policy as load
        load(saved)


# -- the win tables of solve --objective win ---------------------------------------------------

@pytest.mark.parametrize("game, players", [("tutto", "2"), ("macke", "2"), ("tutto", "3")])
def test_a_full_disk_keeps_the_win_table(capsys, tmp_path, full_disk, game, players, monkeypatch):
    target, tmp = full_disk
    if game == "macke":  # the floor at -300, not -2500: what is tested is the write (13 s -> 1 s)
        import functools

        from tutto_sim.macke.win import solve_n

        monkeypatch.setattr(solve_n, "solve_macke_win",
                            functools.partial(solve_n.solve_macke_win, floor=-300))
    place = target / "win.json"
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", game, "--target",
                             "200", "--players", players, "--out", str(place), "--json")
    assert code == 0, err
    saved = _rescued(err, place, tmp)
    assert json.loads(out)["policy_file"] == str(saved)
    assert list(target.iterdir()) == []
    d = json.loads(saved.read_text())
    assert d["kind"] == "win-table" and d["game"] == game and d["rules"]["target"] == 200
    if players == "3":  # its checkpoint could not be kept either: said once, the solve went on
        assert err.count("the solve goes on without keeping its work") == 1, err
    if players == "2":
        from tutto_sim.core.registry import by_name

        load = (__import__(f"tutto_sim.{game}.win.table", fromlist=["load_win_table"])
                .load_win_table)
        load(saved, by_name(game).rules_type(target=200))


# -- report (a folder) -------------------------------------------------------------------------

def _tiny_report(monkeypatch):
    """The Tutto report's build replaced by one page through the real writer
    (``core.report.ReportWriter``: the PDF, a PNG, README.md): seconds, not minutes."""
    import matplotlib.figure

    import tutto_sim.tutto.report as report_tutto
    from tutto_sim.core.report import ReportWriter

    def build(out_dir, rules, seed=1, phase=None, turns=None, **_):
        w = ReportWriter(out_dir, "tutto-report", "A tiny report", rules, seed)
        fig = matplotlib.figure.Figure(figsize=(2, 2))
        fig.add_subplot().plot([0, 1], [1, 0])
        w.add(fig, "01-line", "A line", "One line, falling.")
        return w.close("A report of one page.")

    monkeypatch.setattr(report_tutto, "build", build)


def test_a_full_disk_keeps_the_report_folder(capsys, tmp_path, full_disk, monkeypatch):
    _tiny_report(monkeypatch)
    target, tmp = full_disk
    place = target / "report"
    code, out, err = run_cli(capsys, "report", "--out", str(place))
    assert code == 0, err
    saved = _rescued(err, place, tmp)
    assert saved.is_dir() and f"in {saved}" in out, out
    files = _files(saved)
    assert sorted(files) == ["01-line.png", "README.md", "tutto-report.pdf"], sorted(files)
    assert files["tutto-report.pdf"].startswith(b"%PDF") and files["tutto-report.pdf"].rstrip().endswith(b"%%EOF")
    assert files["01-line.png"].startswith(b"\x89PNG")
    assert "01-line.png" in files["README.md"].decode()
    assert [p for p in place.rglob("*") if p.is_file()] == []  # nothing half-written there


# -- ladder: the chart and the JSON beside it --------------------------------------------------

LADDER = ("ladder", "--game", "tutti", "--bots", "heuristic,random", "--games-per-pair", "2")


def test_a_full_disk_keeps_the_ladder_chart(capsys, full_disk):
    target, tmp = full_disk
    place = target / "ladder.png"
    code, out, err = run_cli(capsys, *LADDER, "--out", str(place), "--json")
    assert code == 0, err
    chart = _rescued(err, place, tmp)
    d = json.loads(out)
    assert d["chart"] == str(chart) and chart.read_bytes().startswith(b"\x89PNG")
    beside = Path(d["json"])
    assert beside == chart.with_suffix(".json")  # the JSON beside the chart, in the temporary folder
    assert json.loads(beside.read_text())["ratings"] == d["ratings"]
    assert list(target.iterdir()) == []


# -- the advisor (a folder) --------------------------------------------------------------------

def test_a_full_disk_keeps_the_advisor(capsys, tmp_path, full_disk):
    target, tmp = full_disk
    place = target / "site"
    code, out, err = run_cli(capsys, "advisor", "--out", str(place))
    assert code == 0, err
    saved = _rescued(err, place, tmp)
    assert f"to {saved}" in out and f"open {saved / 'index.html'}" in out, out
    code, _, err = run_cli(capsys, "advisor", "--out", str(tmp_path / "ok"))  # a disk with room
    assert code == 0, err
    assert _files(saved) == _files(tmp_path / "ok")  # the whole page, every table
    assert [p for p in place.rglob("*") if p.is_file()] == []


# -- optimize: Rutsmieter's policy file and chart (--method td), the CSVs -------------------------

def test_a_full_disk_keeps_the_learned_weights_and_chart(capsys, full_disk):
    from tutto_sim.rutsmieter.policy import load_weights_policy

    target, tmp = full_disk
    place = target / "td.json"
    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--method", "td",
                             "--players", "2", "--games", "150", "--seed", "2",
                             "--out", str(place), "--json")
    assert code == 0, err
    policy = _rescued(err, place, tmp)
    d = json.loads(out)
    assert d["policy_file"] == str(policy)
    load_weights_policy(policy)
    chart = Path(d["chart"])
    assert chart.parent == tmp and chart.read_bytes().startswith(b"\x89PNG"), err
    assert f"saved in {chart}" in err
    assert list(target.iterdir()) == []


def test_a_full_disk_keeps_an_analysis_csv(capsys, full_disk):
    target, tmp = full_disk
    code, out, err = run_cli(capsys, "analyze", "seats", "--game", "tutti", "--games", "6",
                             "--players", "2", "--out-dir", str(target), "--json")
    assert code == 0, err
    csv = Path(json.loads(out)["csv"])
    place = re.search(r"cannot write (\S+) \(", err).group(1)
    assert re.fullmatch(re.escape(str(target)) + r"/seats-tutti-seed1-[0-9a-f]{10}\.csv", place), err
    assert _rescued(err, Path(place), tmp) == csv
    assert set(pd.read_csv(csv)["players"]) == {2}
    assert list(target.iterdir()) == []


# -- a saved measurement (scripts/save_measured.py, bench_tutti_search.py) -----------------------

def test_a_full_disk_keeps_a_saved_measurement(capsys, full_disk):
    from tutto_sim.core.measured import read_measured, write_measured
    from tutto_sim.tutti.rules import TuttiRules

    target, tmp = full_disk
    place = target / "m.json"
    saved = write_measured(place, game="tutti", bot="a", budget=None, against="b",
                           rules=TuttiRules(), unit="hand", n=10, wins=6, ties=0, seed=1,
                           command="x")
    assert saved.rescued and saved.parent == tmp
    _rescued(capsys.readouterr().err, place, tmp)
    assert read_measured(saved).wins == 6
    assert list(target.iterdir()) == []


def test_nowhere_to_write_is_one_line(capsys, tmp_path, monkeypatch):
    """The place fails and the temporary folder too: one line naming both
    reasons, exit 2, no half file anywhere."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()

    def replace(src, dst, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", replace)
    code, out, err = run_cli(capsys, "export-policy", "--out", str(tmp_path / "p.csv"),
                             "--format", "csv")
    assert code == 0, err  # the rescue writes the temporary file itself: no rename needed
    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda *a, **k: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    code, out, err = run_cli(capsys, "export-policy", "--out", str(tmp_path / "q.csv"),
                             "--format", "csv")
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"tutto-sim: error: cannot write {tmp_path / 'q.csv'} (No space left "
                          "on device), nor in the temporary folder (No space left on device)"), err
    assert not (tmp_path / "q.csv").exists()
    assert [p.name for p in (tmp_path / "tmp").iterdir() if p.name.startswith("q-")] == []


# -- a second run says it replaced the first (every kind of writer) ---------------------------

def _replaced_cases():
    """(the command's arguments given a folder, the line of the first run, of the second)."""
    shown = " (replaced the earlier file)"
    return {
        "export-policy": (lambda d: ["export-policy", "--out", str(d / "p.json")],
                          lambda d: f"wrote {d / 'p.json'} (", lambda d: f"replaced {d / 'p.json'} ("),
        "solve win": (lambda d: ["solve", "--objective", "win", "--target", "200", "--out",
                                 str(d / "w.json")],
                      lambda d: f"win table written to {d / 'w.json'}\n",
                      lambda d: f"win table written to {d / 'w.json'}{shown}\n"),
        "tournament": (lambda d: ["tournament", "--game", "tutti", "--games", "6", "--out-dir", str(d)],
                       lambda d: re.compile(r"CSV: \S+\.csv\n"),
                       lambda d: re.compile(r"CSV: \S+\.csv" + re.escape(shown) + "\n")),
        "analyze seats": (lambda d: ["analyze", "seats", "--game", "tutti", "--games", "6",
                                     "--players", "2", "--out-dir", str(d)],
                          lambda d: re.compile(r"in the CSV: \S+\.csv\n"),
                          lambda d: re.compile(r"in the CSV: \S+\.csv" + re.escape(shown) + "\n")),
        "ladder": (lambda d: [*LADDER, "--out", str(d)],
                   lambda d: re.compile(r"chart: \S+\.png; JSON: \S+\.json\n"),
                   lambda d: re.compile(r"chart: \S+\.png" + re.escape(shown) + r"; JSON: \S+\.json"
                                        + re.escape(shown) + "\n")),
        "advisor": (lambda d: ["advisor", "--out", str(d / "site")],
                    lambda d: "wrote the advisor (", lambda d: "replaced the advisor ("),
        "report": (lambda d: ["report", "--out", str(d / "r")],
                   lambda d: f"wrote {d / 'r' / 'tutto-report.pdf'} (1 pages)",
                   lambda d: f"replaced {d / 'r' / 'tutto-report.pdf'} (1 pages)"),
        "optimize td": (lambda d: ["optimize", "--game", "rutsmieter", "--method", "td", "--players",
                                   "2", "--games", "150", "--seed", "2", "--out", str(d / "td.json")],
                        lambda d: f"policy file: {d / 'td.json'} (play it",
                        lambda d: f"policy file: {d / 'td.json'}{shown} (play it"),
    }


@pytest.mark.parametrize("kind", sorted(_replaced_cases()))
def test_a_second_run_says_it_replaced_the_first(capsys, tmp_path, monkeypatch, kind):
    _tiny_report(monkeypatch)
    args, first, second = _replaced_cases()[kind]

    def said(expected, text):
        return bool(expected.search(text)) if isinstance(expected, re.Pattern) else expected in text

    outputs = []
    for _ in range(2):
        code, out, err = run_cli(capsys, *args(tmp_path))
        assert code == 0, err
        outputs.append(out + err)
    assert said(first(tmp_path), outputs[0]) and "replaced" not in outputs[0], outputs[0]
    assert said(second(tmp_path), outputs[1]), outputs[1]


# -- an empty --out / --out-dir is refused, by every command that has one -----------------------

def _place_options():
    """(the command's words, its flag, whether it asks for a folder) for every
    ``--out`` and ``--out-dir`` of the app."""
    import typer.main

    from tutto_sim.cli import app

    found = []

    def walk(command, words):
        for p in getattr(command, "params", ()):
            for flag in ("--out", "--out-dir"):
                if flag in getattr(p, "opts", ()):
                    found.append((words, flag))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(app), ())
    return found


PLACES = _place_options()


def test_the_place_options_are_found():
    """The walk sees the commands that write (else the test below tests nothing)."""
    words = {w for w, _ in PLACES}
    assert {("export-policy",), ("tournament",), ("report",), ("ladder",), ("advisor",),
            ("optimize",), ("solve",), ("analyze", "seats")} <= words, sorted(words)


@pytest.mark.parametrize("words, flag", PLACES, ids=[" ".join(w) + " " + f for w, f in PLACES])
@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_place_is_refused(capsys, tmp_path, monkeypatch, words, flag, empty):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *words, flag, empty)
    assert code == 2, (out, err)
    folder = flag == "--out-dir" or words in (("report",), ("advisor",))
    asked = "a folder (. for this one)" if folder else "a file name"
    assert err == f"tutto-sim: error: {flag} is empty; give {asked}\n", err
    assert list(tmp_path.iterdir()) == []  # nothing written into the current folder


# -- ladder --out: an existing folder is a folder, whatever its name ---------------------------

@pytest.mark.parametrize("name", ["run.1", "run.png"])
def test_ladder_takes_an_existing_folder_with_a_dot(capsys, tmp_path, name):
    folder = tmp_path / "results" / name
    folder.mkdir(parents=True)
    code, out, err = run_cli(capsys, *LADDER, "--out", str(folder), "--json")
    assert code == 0, err
    d = json.loads(out)
    chart = Path(d["chart"])
    assert chart.parent == folder and re.fullmatch(r"ladder-tutti-2p-seed1-[0-9a-f]{10}\.png",
                                                   chart.name), chart
    assert chart.read_bytes().startswith(b"\x89PNG") and Path(d["json"]) == chart.with_suffix(".json")
    assert folder.is_dir() and sorted(p.name for p in folder.iterdir()) == sorted(
        [chart.name, chart.with_suffix(".json").name])
