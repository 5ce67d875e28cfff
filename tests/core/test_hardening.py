"""Bad input gets one line and exit code 2; no finished result is ever lost.

Each case here was a traceback or silently accepted nonsense once: damaged
policy files, output places that cannot be written (checked *before* any
computing), absurd run sizes, flags of the other game, interrupted runs.
"""

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import result_file, run_cli

ROOT = Path(__file__).resolve().parents[2]
POLICIES = ROOT / "tutto_sim" / "data" / "policies"
SMALL = ("--turns", "20000", "--search-turns", "4000")


def one_line_error(code, err, *words):
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tutto-sim: error: "), err
    for w in words:
        assert w in lines[0], (w, err)


@pytest.fixture
def binary_file(tmp_path):
    path = tmp_path / "policy.json"
    path.write_bytes(b"\xff\xfe\x00\x9c" + bytes(range(256)) * 3)
    return path


@pytest.fixture
def never(monkeypatch):
    """Make every long computation fail loudly: a refused run must refuse first."""
    def boom(*a, **k):
        raise AssertionError("computed although the input was refused")

    import tutto_sim.core.analysis as analysis
    import tutto_sim.core.tournament as tournament
    import tutto_sim.macke.analysis as macke_analysis
    import tutto_sim.macke.optimize as macke
    import tutto_sim.macke.solver as macke_dp
    import tutto_sim.tutto.optimize as optimize
    import tutto_sim.tutto.solver as solve

    for mod, name in ((optimize, "optimize_card"), (macke, "optimize_macke"),
                      (tournament, "run_tournament"), (analysis, "seat_advantage"),
                      (macke_analysis, "explore_macke"), (solve, "solve_tutto"),
                      (macke_dp, "solve_macke")):
        monkeypatch.setattr(mod, name, boom)


# ---- 1. tracebacks seen: damaged policy files, unwritable output places ----------

@pytest.mark.parametrize("game", ["tutto", "macke"])
@pytest.mark.parametrize("how", ["validate", "table", "endgame"])
def test_a_binary_policy_file_is_one_line(capsys, binary_file, game, how):
    if how == "validate":
        args = ("validate", "--game", game, "--policy", str(binary_file), "--turns", "100")
    else:
        args = ("tournament", "--game", game, "--bots", f"{how}:{binary_file},cautious",
                "--games", "10")
    code, _, err = run_cli(capsys, *args)
    one_line_error(code, err, str(binary_file), "not UTF-8")


@pytest.mark.parametrize("damage", [b"[" * 100_000, b'{"format": 1e999999}', b"\x00" * 10])
def test_absurd_json_is_refused_as_damage(capsys, tmp_path, damage):
    path = tmp_path / "p.json"
    path.write_bytes(damage)
    code, _, err = run_cli(capsys, "validate", "--policy", str(path), "--turns", "100")
    one_line_error(code, err, str(path))


def _blocked_places(tmp_path):
    afile = tmp_path / "a-file"
    afile.write_text("not a folder")
    return {"under a file": afile / "sub", "a file": afile,
            "impossible": Path("/proc/tutto-sim-no-such-place/x")}


COMMANDS_WITH_OUT_DIR = [
    ("optimize", "--card", "x2", *SMALL),
    ("optimize", "--game", "macke", *SMALL),
    ("tournament", "--games", "10"),
    ("tournament", "--game", "volle-lotte", "--games", "10"),
    ("explore", "--min-score", "300"),
    ("analyze", "seats", "--players", "2", "--games", "10"),
]


@pytest.mark.parametrize("args", COMMANDS_WITH_OUT_DIR, ids=lambda a: " ".join(a[:3]))
@pytest.mark.parametrize("place", ["under a file", "a file", "impossible"])
def test_an_unwritable_out_dir_is_refused_before_computing(capsys, tmp_path, never, args, place):
    bad = _blocked_places(tmp_path)[place]
    code, _, err = run_cli(capsys, *args, "--out-dir", str(bad))
    one_line_error(code, err, "--out-dir", "cannot write there")


@pytest.mark.parametrize("game", ["tutto", "macke"])
@pytest.mark.parametrize("place", ["under a file", "impossible"])
def test_an_unwritable_policy_out_is_refused_before_solving(capsys, tmp_path, never, game, place):
    bad = _blocked_places(tmp_path)[place] / "policy.json"
    code, _, err = run_cli(capsys, "export-policy", "--game", game, "--out", str(bad))
    one_line_error(code, err, "--out", "cannot write there")


def test_export_policy_out_that_is_a_folder(capsys, tmp_path, never):
    code, _, err = run_cli(capsys, "export-policy", "--out", str(tmp_path))
    one_line_error(code, err, "is a folder")


@pytest.mark.parametrize("place", ["a file", "impossible"])
def test_an_unwritable_report_folder_is_refused_before_computing(capsys, tmp_path, place, monkeypatch):
    import tutto_sim.tutto.report as report_tutto

    monkeypatch.setattr(report_tutto, "build", lambda *a, **k: pytest.fail("computed"))
    code, _, err = run_cli(capsys, "report", "--out", str(_blocked_places(tmp_path)[place]))
    one_line_error(code, err, "--out")


def test_a_failed_csv_write_keeps_the_result(capsys, tmp_path, monkeypatch):
    """The place was fine when the run started but the write fails at the end:
    the result goes to the temporary directory, the command says where."""
    real = pd.DataFrame.to_csv
    target = tmp_path / "out"

    def failing(self, path, *a, **k):
        if str(path).startswith(str(target)):
            raise OSError(28, "No space left on device")
        return real(self, path, *a, **k)

    monkeypatch.setattr(pd.DataFrame, "to_csv", failing)
    code, out, err = run_cli(capsys, "optimize", "--card", "x2", "--json", *SMALL,
                             "--out-dir", str(target))
    assert code == 0, err
    saved = Path(json.loads(out)["csv"])
    assert "No space left on device" in err and str(saved) in err
    assert not str(saved).startswith(str(target))
    frame = pd.read_csv(saved)
    assert "best" in set(frame["policy"]) and not frame["interrupted"].any()
    assert [p.name for p in target.iterdir()] == []  # nothing half-written there
    saved.unlink()


# ---- 2. accepted nonsense ---------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (("optimize", "--turns", str(10**23)), ["--turns", "at most 1,000,000,000,000"]),
    (("optimize", "--search-turns", str(10**23)), ["--search-turns", "at most"]),
    (("optimize", "--search-turns", "0"), ["--search-turns", "positive"]),
    (("optimize", "--game", "macke", "--search-turns", "0"), ["--search-turns"]),
    (("validate", "--turns", str(10**13)), ["--turns", "at most"]),
    (("report", "--turns", str(10**23)), ["--turns", "at most"]),
    (("tournament", "--games", str(10**11)), ["--games", "at most 10,000,000,000"]),
    (("analyze", "seats", "--games", str(10**23)), ["--games", "at most"]),
    (("analyze", "threshold", "--search-games", str(10**23)), ["--search-games"]),
    (("optimize", "--game", "macke", "--card", "x2"), ["--card", "--game tutto"]),
    (("optimize", "--game", "volle-lotte", "--card", "bonus400"), ["--card"]),
    (("solve", "--game", "macke", "--cap", "5000"), ["--cap", "--game tutto"]),
    (("tournament", "--bots", f"threshold:{10**30}", "--games", "10"), ["BANK", "1,000,000"]),
    (("solve", "--cloverleaf-value", str(10**23)), ["--cloverleaf-value", "1,000,000"]),
    (("tournament", "--target", str(10**20), "--games", "10"), ["--target", "1,000,000"]),
    (("solve", "--game", "macke", "--win-value", str(10**23)), ["--win-value", "1,000,000"]),
    (("solve", "--game", "macke", "--min-score", "20000"), ["--min-score", "10,000"]),
    (("tournament", "--game", "macke", "--bots", f"threshold:300:{10**30}", "--games", "10"),
     ["CLEAR"]),
])
def test_nonsense_is_refused(capsys, never, args, words):
    code, _, err = run_cli(capsys, *args)
    one_line_error(code, err, *words)


def test_a_tournament_csv_of_another_game_is_refused_by_report(capsys, tmp_path, monkeypatch):
    code, _, err = run_cli(capsys, "tournament", "--game", "macke", "--bots", "cautious,random",
                           "--games", "20", "--out-dir", str(tmp_path))
    assert code == 0, err
    csv = result_file(tmp_path, "tournament-macke-2p-seed1")
    import tutto_sim.tutto.report as report_tutto

    monkeypatch.setattr(report_tutto, "build", lambda *a, **k: pytest.fail("computed"))
    code, _, err = run_cli(capsys, "report", "--game", "tutto", "--tournament", str(csv),
                           "--out", str(tmp_path / "r"))
    one_line_error(code, err, "--tournament", "Berliner Macke")


# ---- 3. interrupted runs ------------------------------------------------------------

def _interrupt_after(monkeypatch, calls: int):
    """Ctrl-C after ``calls`` progress steps of the command (as a real Ctrl-C
    arrives between two chunks of a kernel run)."""
    from contextlib import contextmanager

    import tutto_sim.tutto.cli as cli

    seen = [0]

    @contextmanager
    def phases(enabled):
        def phase(label, total):
            def advance(n):
                seen[0] += 1
                if seen[0] > calls:
                    raise KeyboardInterrupt
            return advance
        yield phase

    import tutto_sim.core.commands_games as cli_games
    import tutto_sim.macke.cli as cli_macke

    for mod in (cli, cli_macke, cli_games):
        monkeypatch.setattr(mod, "progress_phases", phases)


def test_an_interrupted_optimize_never_overwrites_a_complete_result(capsys, tmp_path, monkeypatch):
    args = ("optimize", "--card", "bonus300", "--seed", "5", *SMALL, "--out-dir", str(tmp_path))
    code, _, err = run_cli(capsys, *args)
    assert code == 0, err
    complete = result_file(tmp_path, "optimize-tutto-bonus300-seed5")
    before = complete.read_bytes()
    assert not pd.read_csv(complete)["interrupted"].any()

    _interrupt_after(monkeypatch, 3)
    code, out, err = run_cli(capsys, *args)
    assert code == 130
    assert "interrupted" in out and "Traceback" not in err
    assert complete.read_bytes() == before
    part = complete.with_name(f"{complete.stem}-interrupted.csv")
    frame = pd.read_csv(part)
    assert frame["interrupted"].all()
    assert str(part) in out


def test_an_interrupted_macke_optimize_is_marked(capsys, tmp_path, monkeypatch):
    _interrupt_after(monkeypatch, 2)
    code, out, err = run_cli(capsys, "optimize", "--game", "macke", "--json", *SMALL,
                             "--out-dir", str(tmp_path))
    assert code == 130, err
    d = json.loads(out)
    assert d["interrupted"] is True and d["csv"].endswith("-interrupted.csv")
    assert pd.read_csv(d["csv"])["interrupted"].all()
    assert Path(d["csv"]).name == f"optimize-macke-seed1-{d['run_digest']}-interrupted.csv"
    assert [p.name for p in tmp_path.glob("*.csv")] == [Path(d["csv"]).name]  # no complete one


def test_an_interrupted_seat_analysis_keeps_the_finished_sizes(capsys, tmp_path, monkeypatch):
    import tutto_sim.core.analysis as analysis

    real = analysis.run_tournament
    calls = [0]

    def second_size_interrupted(*a, **k):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(analysis, "run_tournament", second_size_interrupted)
    code, out, err = run_cli(capsys, "analyze", "seats", "--bot", "cautious", "--players", "2-4",
                             "--games", "200", "--out-dir", str(tmp_path))
    assert code == 130
    assert "1 table size finished" in err
    frame = pd.read_csv(result_file(tmp_path, "seats-tutto-seed1", "-interrupted.csv"))
    assert set(frame["players"]) == {2} and frame["interrupted"].all()


def test_an_interrupted_report_says_so_in_one_line_and_leaves_the_folder(capsys, tmp_path, monkeypatch):
    import tutto_sim.macke.report as report_macke

    target = tmp_path / "report"
    target.mkdir()
    (target / "old.txt").write_text("kept")

    def build(out_dir, *a, **k):
        (Path(out_dir) / "macke-report.pdf").write_bytes(b"%PDF half")
        raise KeyboardInterrupt

    monkeypatch.setattr(report_macke, "build", build)
    code, _, err = run_cli(capsys, "report", "--game", "macke", "--out", str(target))
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tutto-sim: interrupted: report not written"), err
    assert sorted(p.name for p in target.iterdir()) == ["old.txt"]


# ---- 4. where output goes ------------------------------------------------------------

def test_default_output_goes_to_results_not_data(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "optimize", "--card", "x2", "--json", *SMALL)
    assert code == 0, err
    d = json.loads(out)
    assert d["csv"] == f"results/optimize-tutto-x2-seed1-{d['run_digest']}.csv"
    code, out, err = run_cli(capsys, "export-policy", "--game", "volle-lotte")
    assert code == 0, err
    policy = result_file(tmp_path / "results", "volle-lotte-policy", ".json")
    code, out, err = run_cli(capsys, "tournament", "--game", "macke", "--variant", "jackpot",
                             "--bots", "cautious,random", "--games", "20")
    assert code == 0, err
    tournament = result_file(tmp_path / "results", "tournament-macke-jackpot-2p-seed1")
    assert not (tmp_path / "data").exists()
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == sorted([
        Path(d["csv"]).name, tournament.name, policy.name])


def test_results_are_ignored_by_git():
    assert "/results/" in (ROOT / ".gitignore").read_text().split()


# ---- 6. words a player understands ------------------------------------------------------

def test_help_shows_flags_as_flags(capsys):
    code, out, _ = run_cli(capsys, "optimize", "--help")
    assert code == 0
    assert "<bool>" not in out
    assert re.search(r"--json\s{2,}Print one JSON object", out)
    assert re.search(r"--turns\s+N\s", out) and re.search(r"--out-dir\s+DIR\s", out)


def test_optimize_words_for_cards_without_bank_choices(capsys, tmp_path):
    code, out, err = run_cli(capsys, "optimize", "--card", "kleeblatt", *SMALL,
                             "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "after a Tutto bank" not in out
    # a chance: its Wilson interval, with digits enough to tell its ends apart
    p = re.search(r"P\(two Tuttos in a row\) = (\d\.\d+) \[(\d\.\d+), (\d\.\d+)\]", out)
    assert p and len(p.group(1)) >= 6 and float(p.group(2)) < float(p.group(1)) < float(p.group(3))
    code, out, err = run_cli(capsys, "optimize", "--card", "fireworks", *SMALL,
                             "--out-dir", str(tmp_path))
    assert code == 0, err
    rows = [line for line in out.splitlines() if "│" in line and "EV (points)" not in line]
    assert len(rows) == 1 and "best found = " in rows[0], out  # the same play: one row
    assert "nothing to search" in out and "0 candidates" not in out


def test_plus_minus_says_always_bank_not_zero(capsys, tmp_path):
    code, out, err = run_cli(capsys, "optimize", "--card", "plusminus", "--turns", "20000",
                             "--search-turns", "20000", "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "≥ 0" not in out
    line = next(x for x in out.splitlines() if x.startswith("keep rule"))
    assert "after the Tutto:" in line


def test_plurals_and_ci_digits():
    from tutto_sim.core.stats import Estimate
    from tutto_sim.tutto.cli import _draw_rule, fmt_threshold, plural

    assert plural(1, "sweep") == "1 sweep" and plural(3, "sweep") == "3 sweeps"
    assert plural(1, "die", "dice") == "1 die" and plural(2, "die", "dice") == "2 dice"
    assert fmt_threshold(0) == "always" and fmt_threshold(None) == "never"
    assert fmt_threshold(1500) == "1,500"
    assert _draw_rule(0) == "always bank" and "below 900" in _draw_rule(900)
    assert str(Estimate(0.0712, 0.00042, 10**6)) == "0.07120 ± 0.00042 (n=1,000,000)"


def test_play_explains_equal_keeps_under_plus_minus():
    from tutto_sim.tutto.api import KEEP, Decision
    from tutto_sim.tutto.cards import Card
    from tutto_sim.tutto.human import Advisor, HumanBot
    from tutto_sim.tutto.rules import TuttoRules

    lines = []
    bot = HumanBot("you", write=lines.append, advisor=Advisor(TuttoRules()))

    class Game:  # only what the advice reads
        rules = TuttoRules()

    from tutto_sim.tutto.game import legal_keeps

    throw = (1, 2, 3, 4, 5, 6)
    d = Decision(KEEP, legal_keeps(throw, TuttoRules().scoring), Game(), Card.PLUSMINUS, 0,
                 dice=6, throw=throw)
    bot._advise(d)
    text = "\n".join(lines)
    assert text.count("<- best") == 2  # a single 1 or a single 5: the same 5 dice left
    assert "points rolled under this card do not count" in text


def test_macke_play_says_why_keeps_tie_and_why_returning_everything_pays(capsys):
    """Scripted game: the advice names the free return of every unit."""
    from tutto_sim.core.bots import parse_bots
    from tutto_sim.macke.game import GameConfig, MackeGame
    from tutto_sim.macke.human import MackeAdvisor, MackeHumanBot
    from tutto_sim.macke.rules import MackeRules

    rules = MackeRules()
    lines = []
    answers = iter(["?", "2"] * 400)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    human = MackeHumanBot("you", read, lines.append, MackeAdvisor(rules))
    from tutto_sim.tutto.human import QuitGame

    try:
        MackeGame([human] + parse_bots("cautious", rules), GameConfig(rules), 3, 0).play()
    except QuitGame:
        pass
    text = "\n".join(lines)
    assert "keeps are worth the same: whichever you set aside, the best next step is to " \
           "return every unit" in text
    assert "returning everything pays here" in text
    assert "a Macke on that throw costs nothing" in text
