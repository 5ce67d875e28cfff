"""No result is lost to another run: every default result name carries the run
digest of the settings that change its figures (``core.runs``), the same one
the JSON and the CSV rows give, and files get the usual permissions (0666
less the umask), not mkstemp's 0600.
"""

import json
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
from conftest import result_file, run_cli

#: A quick Berliner Macke tournament between kernel bots (compiled once for the suite).
BASE = ("tournament", "--game", "macke", "--bots", "cautious,reckless", "--games", "40",
        "--seed", "3")
SMALL_OPTIMIZE = ("--turns", "20000", "--search-turns", "4000")


def _run_json(capsys, *args):
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def _name_digest(path) -> str:
    """The run digest in a result's name: the 10 hex digits before the suffix."""
    m = re.fullmatch(r".*-([0-9a-f]{10})(-interrupted)?\.[a-z]+", Path(path).name)
    assert m, path
    return m.group(1)


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# ---- two runs, two files ------------------------------------------------------------------


def test_two_tournaments_with_other_bots_keep_two_files(capsys, tmp_path):
    first_args = (*BASE, "--out-dir", str(tmp_path))
    other_args = ("tournament", "--game", "macke", "--bots", "cautious,threshold:300",
                  "--games", "40", "--seed", "3", "--out-dir", str(tmp_path))
    first = _run_json(capsys, *first_args)
    other = _run_json(capsys, *other_args)
    assert first["csv"] != other["csv"] and first["run_digest"] != other["run_digest"]
    for d in (first, other):  # the readable part stays in front of the digest
        assert Path(d["csv"]).name == f"tournament-macke-2p-seed3-{d['run_digest']}.csv"
        frame = pd.read_csv(d["csv"])
        assert set(frame["run_digest"]) == {d["run_digest"]}
    assert set(pd.read_csv(first["csv"])["name"]) >= {"cautious", "reckless"}
    assert set(pd.read_csv(other["csv"])["name"]) >= {"cautious", "threshold:300"}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        Path(d["csv"]).name for d in (first, other))

    # the first run again: it replaces its own file (a new file renamed over
    # it), and the other run's file is untouched
    other_bytes, other_inode = Path(other["csv"]).read_bytes(), os.stat(other["csv"]).st_ino
    first_inode = os.stat(first["csv"]).st_ino
    again = _run_json(capsys, *first_args)
    assert again["csv"] == first["csv"] and again["run_digest"] == first["run_digest"]
    assert os.stat(first["csv"]).st_ino != first_inode
    assert Path(other["csv"]).read_bytes() == other_bytes
    assert os.stat(other["csv"]).st_ino == other_inode
    assert len(list(tmp_path.iterdir())) == 2


def test_the_digest_follows_every_figure_changing_setting_and_not_the_threads(capsys, tmp_path):
    def digest(*extra, folder="a"):
        d = _run_json(capsys, *BASE, *extra, "--out-dir", str(tmp_path / folder))
        assert _name_digest(d["csv"]) == d["run_digest"]
        return d["run_digest"]

    base = digest()
    changed = {
        "bots": digest("--bots", "cautious,threshold:300"),
        "bot order": digest("--bots", "reckless,cautious"),
        "budget": digest("--bots", "cautious,threshold:350"),
        "games": digest("--games", "41"),
        "seed": digest("--seed", "4"),
        "a rule": digest("--target", "3000"),
        "a house rule": digest("--bust", "zero"),
        "a variant": digest("--variant", "jackpot"),
    }
    assert base not in changed.values()
    assert len(set(changed.values())) == len(changed)
    # what no figure depends on: threads, the engine (both play the same games,
    # tests/*/test_tournament.py), the folder, --json
    assert digest("--threads", "1") == digest("--threads", "2") == base
    assert digest("--engine", "reference") == digest("--engine", "kernel") == base
    assert digest(folder="elsewhere") == base
    code, out, err = run_cli(capsys, *BASE, "--out-dir", str(tmp_path / "text"))
    assert code == 0, err
    shown = re.search(r"CSV: (\S+)", out).group(1)
    assert _name_digest(shown) == base


def test_a_bot_file_that_changes_is_another_run(capsys, tmp_path):
    """``table:FILE``: the digest covers the file's bytes, not only its name."""
    code, out, err = run_cli(capsys, "export-policy", "--game", "macke", "--out",
                             str(tmp_path / "p.json"))
    assert code == 0, err
    spec = ("--bots", f"table:{tmp_path / 'p.json'},reckless")
    before = _run_json(capsys, *BASE, *spec, "--out-dir", str(tmp_path / "r"))
    same = _run_json(capsys, *BASE, *spec, "--out-dir", str(tmp_path / "r"))
    assert same["run_digest"] == before["run_digest"]
    policy = tmp_path / "p.json"
    policy.write_text(policy.read_text().replace('"created_by":', '"created_by": ', 1))
    after = _run_json(capsys, *BASE, *spec, "--out-dir", str(tmp_path / "r"))
    assert after["run_digest"] != before["run_digest"]
    assert len(list((tmp_path / "r").iterdir())) == 2


def test_optimize_and_analysis_digests(capsys, tmp_path):
    """optimize and an analysis: another size or seed is another file; threads are not."""
    opt = ("optimize", "--card", "bonus300", *SMALL_OPTIMIZE, "--out-dir", str(tmp_path))
    a = _run_json(capsys, *opt, "--threads", "1")
    b = _run_json(capsys, *opt, "--threads", "2")
    c = _run_json(capsys, *opt, "--turns", "20001")
    d = _run_json(capsys, *opt, "--card", "bonus400")  # the stem says the card too
    assert a["csv"] == b["csv"] and a["run_digest"] == b["run_digest"]
    assert len({a["csv"], c["csv"], d["csv"]}) == 3
    assert Path(a["csv"]).name == f"optimize-tutto-bonus300-seed1-{a['run_digest']}.csv"
    assert set(pd.read_csv(a["csv"])["run_digest"]) == {a["run_digest"]}
    tute = ("analyze", "tute", "--game", "tutti", "--tables", "2", "--deals", "2000",
            "--out-dir", str(tmp_path))
    t1 = _run_json(capsys, *tute)
    t2 = _run_json(capsys, *tute, "--deals", "2001")
    t3 = _run_json(capsys, *tute, "--tables", "2,3")
    assert len({t1["csv"], t2["csv"], t3["csv"]}) == 3
    assert Path(t1["csv"]).name == f"tute-tutti-seed1-{t1['run_digest']}.csv"


# ---- win tables: saved where the next run looks ---------------------------------------------


def test_a_saved_win_table_is_found_by_the_digest_of_its_rules(capsys, tmp_path, monkeypatch):
    import tutto_sim.tutto.win.solve2 as solve2

    monkeypatch.chdir(tmp_path)
    solved = _run_json(capsys, "solve", "--objective", "win", "--game", "tutto", "--target", "300")
    path = Path(solved["policy_file"])
    assert path.parent == Path("results")
    assert path.name == f"tutto-win-300-{solved['run_digest']}.json"

    solves = []

    def no_solving(rules, *a, **k):
        solves.append(rules)
        raise RuntimeError("solved again")

    monkeypatch.setattr(solve2, "solve_win", no_solving)
    solve2.cached_solution.cache_clear()  # nothing solved earlier in this process serves
    # the deck is no rule of the win table: the table solved with the real deck serves
    game = ("tournament", "--game", "tutto", "--players", "2", "--bots", "winopt,optimal",
            "--target", "300", "--games", "30", "--seed", "2")
    d = _run_json(capsys, *game, "--deck", "iid", "--out-dir", str(tmp_path / "t"))
    assert solves == [] and d["bots"]["winopt"]["games"] == 30
    # a rule the table depends on: no file of that digest, so it would be solved
    code, _, err = run_cli(capsys, *game, "--x2-scope", "card", "--out-dir", str(tmp_path / "t"))
    assert code != 0 and len(solves) == 1 and solves[0].x2_scope == "card", err
    assert sorted(p.name for p in Path("results").iterdir()) == [path.name]


# ---- permissions -----------------------------------------------------------------------------


def test_results_tables_and_reports_get_the_usual_mode(capsys, tmp_path, monkeypatch):
    """Under umask 022 every file is 0644; under 027, 0640: the umask decides."""
    monkeypatch.chdir(tmp_path)
    with umask(0o022):
        made = [
            _run_json(capsys, *BASE)["csv"],
            _run_json(capsys, "optimize", "--card", "x2", *SMALL_OPTIMIZE)["csv"],
            _run_json(capsys, "analyze", "tute", "--game", "tutti", "--tables", "2",
                      "--deals", "2000")["csv"],
            _run_json(capsys, "solve", "--objective", "win", "--game", "tutto",
                      "--target", "300")["policy_file"],
        ]
        code, _, err = run_cli(capsys, "export-policy", "--game", "macke")
        assert code == 0, err
        made.append(result_file(tmp_path / "results", "macke-policy", ".json"))
        for path in made:
            assert _mode(path) == 0o644, path
    with umask(0o027):
        d = _run_json(capsys, *BASE, "--seed", "9")
        assert _mode(d["csv"]) == 0o640


def test_a_reports_files_get_the_usual_mode(capsys, tmp_path, monkeypatch):
    """``report``: the PDF, the PNGs and README.md, built in a private staging
    folder and moved in (the game's pages replaced by one small figure)."""
    import tutto_sim.tutti.report as tutti_report
    from tutto_sim.core.report import Sheet, new_figure, write_report

    def build(out_dir, rules, seed=1, games=1, phase=None, **kw):
        def page(number):
            fig, _ = new_figure(4, 3, "a caption")
            fig.add_subplot().plot([0, 1], [0, 1])
            return Sheet(fig, f"{number:02d}-line", "a line", "a caption")

        def cover(titles):
            fig, _ = new_figure(4, 3, "cover")
            return Sheet(fig, None, "cover", "cover")

        return write_report(out_dir, "tutti-report", "Tutti", rules, seed, "", [page], cover,
                            "", phase)

    monkeypatch.setattr(tutti_report, "build", build)
    monkeypatch.chdir(tmp_path)
    with umask(0o022):
        code, out, err = run_cli(capsys, "report", "--game", "tutti", "--games", "10")
    assert code == 0, err
    (folder,) = (tmp_path / "results").iterdir()
    assert re.fullmatch(r"report-tutti-[0-9a-f]{10}", folder.name), folder.name
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["01-line.png", "README.md", "tutti-report.pdf"]
    for p in folder.iterdir():
        assert _mode(p) == 0o644, p
    # another seed: another folder; the first one stays as it was
    with umask(0o022):
        code, out, err = run_cli(capsys, "report", "--game", "tutti", "--games", "10",
                                 "--seed", "2")
    assert code == 0, err
    assert len(list((tmp_path / "results").iterdir())) == 2


def test_atomic_write_and_the_rescue_follow_the_umask(tmp_path, monkeypatch):
    import tempfile

    import tutto_sim.core.cli as cli

    for mask, mode in ((0o022, 0o644), (0o002, 0o664), (0o077, 0o600)):
        with umask(mask):
            path = cli.atomic_write(tmp_path / f"x{mask:o}.txt", lambda tmp: tmp.write_text("x"))
        assert _mode(path) == mode, oct(mask)

    def full_disk(path, write):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli, "atomic_write", full_disk)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    said = []
    with umask(0o022):
        rescue = cli.save_csv(tmp_path / "r" / "x.csv", [{"a": 1}], warn=said.append)
    assert rescue.parent == tmp_path / "tmp" and "No space left" in said[0]
    assert _mode(rescue) == 0o644
    assert list(pd.read_csv(rescue)["a"]) == [1]
