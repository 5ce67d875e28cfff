"""``tutto-sim report --game macke``: the PDF's pages, real charts, captions
naming the rules, byte-identical output for the same seed, the tournament page
and its one-line errors.

Two small reports (a few thousand turns per point, with a tournament CSV) are
built side by side, one in this process and one in a child process on one
numba thread, which is most of this file's run time; they must be identical
byte for byte.
"""

import re
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import run_cli
from scipy.stats import binomtest
from matplotlib.image import imread
from report_checks import (
    BANK_AT_ZERO,
    CODE_NAMES,
    ONE_PLURAL,
    SNAKE,
    WIN_TARGET,
    ZERO_CI,
    build_twice,
    win_tables_here,
)

from tutto_sim.core.cli import rules_from_flags
from tutto_sim.core.report import (
    TournamentFileError,
    read_tournament,
    report_module,
    rules_flags,
    rules_label,
    sample_games,
    sentence,
    tournament_game,
)
from tutto_sim.core.stats import Estimate
from tutto_sim.macke.report_data import SimpleSweep
from tutto_sim.macke.report_figures import free_return_words, policy_bars, simple_words
from tutto_sim.macke.words import unit_words
from tutto_sim.macke.rules import MackeRules
from tutto_sim.tutto.rules import TuttoRules


TURNS = 4000
SEED = 3
PNGS = [
    "01-cheat-sheet",
    "02-minimum-score",
    "03-variants-and-bust-rules",
    "04-bank-thresholds",
    "05-returns",
    "06-optimal-vs-simple",
    "07-win-chance",
    "08-win-bank-thresholds",
    "09-tournament",
]
SIMULATED = {"06"}

#: A tournament CSV as `tutto-sim tournament` writes it (docs/games.md), plus a
#: column it does not write (a Macke tournament may add some): ignored.
CSV = """game,players,seed,rules_sha256,kind,name,opponent,win_rate,ci95,games,mean_final_score,points_per_turn,variant
macke,2,7,{sha},bot,optimal,,0.61,0.012,6000,5100.5,430.1,standard
macke,2,7,{sha},bot,first-chance,,0.39,0.012,6000,4700.2,246.3,standard
macke,2,7,{sha},seat,0,,0.52,0.01,6000,,,standard
macke,2,7,{sha},seat,1,,0.48,0.01,6000,,,standard
macke,2,7,{sha},pair,optimal,first-chance,0.61,0.012,6000,,,standard
macke,2,7,{sha},pair,first-chance,optimal,0.39,0.012,6000,,,standard
"""


@pytest.fixture(scope="module")
def tournament_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("csv") / "tournament_macke_2p_seed7.csv"
    path.write_text(CSV.format(sha=MackeRules().digest()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reports(tmp_path_factory, tournament_csv):
    """The same report twice: (in-process, all threads), (child process, 1 thread)."""
    with win_tables_here(tmp_path_factory.mktemp("cwd"), ("macke",)):
        return build_twice(tmp_path_factory, ["report", "--game", "macke", "--turns", str(TURNS),
                                              "--seed", str(SEED), "--tournament",
                                              str(tournament_csv), "--win-target",
                                              str(WIN_TARGET)], "macke")


@pytest.fixture(scope="module")
def report_dir(reports):
    return reports[0]


@pytest.fixture(scope="module")
def page_texts(reports):
    return reports[2]


def _pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_pdf_has_a_cover_and_one_page_per_figure(report_dir):
    data = (report_dir / "macke-report.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert _pdf_pages(data) == 1 + len(PNGS)
    assert b"/CreationDate" not in data and b"/ModDate" not in data
    assert f"rules_sha256={MackeRules().digest()}".encode() in data
    assert not list(report_dir.glob(".*partial"))


def test_every_png_is_a_real_chart(report_dir):
    assert sorted(p.stem for p in report_dir.glob("*.png")) == PNGS
    for name in PNGS:
        path = report_dir / f"{name}.png"
        img = imread(path)
        assert img.ndim == 3 and min(img.shape[:2]) >= 1000, name  # 150 dpi
        grey = img[..., :3].mean(axis=2)
        assert grey.std() > 0.08, f"{name} looks blank"
        assert (grey < 0.3).mean() > 0.01, f"{name} has hardly any ink"
        assert path.stat().st_size < 300_000, f"{name} is not small"


def test_captions_name_the_rules_and_seed(report_dir):
    from PIL import Image

    label = sentence(rules_label(MackeRules()))
    assert label == "Default Berliner Macke rules (docs/macke.md), rules fingerprint 184119dac88f"
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    for name in PNGS:
        with Image.open(report_dir / f"{name}.png") as im:
            caption = im.text["Description"]
        # at the start of a sentence, or (the tournament page) after "Report: "
        assert label in caption or f"Report: {rules_label(MackeRules())}" in caption, name
        assert "Berliner Macke" in caption, name
        if name[:2] in SIMULATED:
            assert f"seed {SEED}" in caption and f"{TURNS:,} turns" in caption, name
        assert f"({name}.png)" in index and caption in index
    with Image.open(report_dir / "09-tournament.png") as im:
        caption = im.text["Description"]
    # the tournament's own seed and file, and that its rules are the report's
    assert "tournament_macke_2p_seed7.csv" in caption and "seed 7" in caption
    assert "the report's rules" in caption


def test_same_seed_same_bytes(reports):
    here, child, _ = reports
    for name in PNGS:
        a = (here / f"{name}.png").read_bytes()
        b = (child / f"{name}.png").read_bytes()
        assert a == b, f"{name}.png differs between two runs with the same seed"
    for name in ("macke-report.pdf", "README.md"):
        assert (here / name).read_bytes() == (child / name).read_bytes(), name


@pytest.mark.parametrize("content, needle", [
    (None, "no such file"),
    ("not, a, tournament\n1, 2, 3\n", "no column kind, name, win_rate"),
    ("kind,name,win_rate\nbot,a,0.5\n", "no column ci95"),
    ("kind,name,win_rate,ci95\nseat,0,0.5,0.01\n", "no kind=bot row"),
    ("kind,name,win_rate,ci95\nbot,a,high,0.01\n", "line 2"),
    (b"\xff\xfe\x00binary", "not a tournament CSV"),
])
def test_bad_tournament_is_one_line_exit_2(capsys, tmp_path, content, needle):
    path = tmp_path / "t.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run_cli(capsys, "report", "--game", "macke", "--out", str(tmp_path / "r"),
                             "--tournament", str(path))
    assert code == 2, err
    assert err.count("\n") == 1 and "--tournament" in err and needle in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("args, needle", [
    (("--game", "tutto", "--tournament", "x.csv"), "--tournament: no such file"),
    (("--game", "macke", "--x2-scope", "card"), "--x2-scope does not apply"),
    (("--game", "volle-lotte", "--variant", "jackpot"), "takes no --variant"),
    (("--game", "macke", "--bust", "half"), "bust"),
    (("--game", "kniffel",), "--game must be one of tutto, macke, volle-lotte"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, out, err = run_cli(capsys, "report", "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err, err
    assert not (tmp_path / "r").exists()


def test_tournament_csv_without_ci_uses_games(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("kind,name,win_rate,games\nbot,a,0.5,10000\nbot,b,0.5,10000\n",
                    encoding="utf-8")
    t = read_tournament(path)
    assert [b.name for b in t.bots] == ["a", "b"]
    assert t.bots[0].ci95 == pytest.approx(1.96 * (0.25 / 10000) ** 0.5, rel=1e-3)
    ci = binomtest(5000, 10000).proportion_ci(method="wilson")  # the interval from games
    assert (t.bots[0].low, t.bots[0].high) == pytest.approx((ci.low, ci.high), abs=1e-12)
    with pytest.raises(TournamentFileError, match="no such file"):
        read_tournament(tmp_path / "missing.csv")


def test_volle_lotte_is_the_macke_report_with_its_preset():
    module = report_module("volle-lotte")
    assert module is report_module("macke") and module.SIZE.default >= 100_000
    assert module.default_rules("volle-lotte") == MackeRules.preset("volle-lotte")
    assert module.default_rules("macke") == MackeRules()
    rules = rules_from_flags("volle-lotte", variant="standard", min_score=300, throws=3,
                             bust="subtract", target=None, six_of_kind="two-triples",
                             win_value=5000)
    assert rules == MackeRules.preset("volle-lotte")
    assert rules_label(rules) == ("default Volle Lotte rules (docs/macke.md), rules fingerprint "
                                  f"{rules.digest()[:12]}")
    assert "macke" in sample_games()


def test_macke_rules_label_names_the_changed_rules_in_words():
    rules = MackeRules(bust="zero", min_score=400)
    assert rules_label(rules) == (
        "rules: docs/macke.md, Berliner Macke with a minimum score of 400 and a Macke scoring 0 "
        f"instead of subtracting the turn total, rules fingerprint {rules.digest()[:12]}")
    assert rules_label(MackeRules()) == (
        "default Berliner Macke rules (docs/macke.md), rules fingerprint 184119dac88f")
    jackpot = MackeRules.preset("jackpot", throws=1)
    assert rules_label(jackpot).startswith(
        "rules: docs/macke.md, Berliner Macke, variant jackpot (five 5s = 5,000, five 1s = "
        "10,000) with 1 throw per series, rules fingerprint ")
    assert rules_flags(jackpot) == ["--variant jackpot", "--throws 1"]
    assert rules_flags(MackeRules.preset("volle-lotte")) == ["--variant volle-lotte"]


def test_captions_and_figure_texts_speak_the_players_language(report_dir, page_texts):
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    assert sorted(page_texts) == sorted(["cover", *PNGS])
    command = (f"tutto-sim report --game macke --seed {SEED} --turns {TURNS} --tournament "
               "tournament_macke_2p_seed7.csv --out DIR")
    for name, texts in [("README.md", [index])] + sorted(page_texts.items()):
        for t in texts:
            if name == "cover" and t.strip() in command:
                continue  # the command that reproduces the report
            assert not CODE_NAMES.search(t), (name, t)
            assert not SNAKE.search(t), (name, t)
            assert not ONE_PLURAL.search(t), (name, t)
            assert not ZERO_CI.search(t), (name, t)
            assert not BANK_AT_ZERO.search(t), (name, t)
            assert not re.search(r"\b(111|222|333|444|555|666)\b", t), (name, t)
    # the tournament's win rates with as many digits as their CIs need
    # and their Wilson intervals from the games (the CSV has no low/high columns)
    for rate in (0.61, 0.52):
        ci = binomtest(round(rate * 6000), 6000).proportion_ci(method="wilson")
        assert f"{rate:.3f} [{ci.low:.3f}, {ci.high:.3f}]" in page_texts["09-tournament"]


def test_returning_is_explained_where_it_is_advised(report_dir, page_texts):
    """The advice to return units rests on "returning every unit is free": it
    says so, in words, on the cheat sheet and the returns page."""
    from PIL import Image

    why = free_return_words(MackeRules())
    assert why.startswith("Why returning pays: before the 2nd or 3rd throw of the turn's first "
                          "series you may put every unit you set aside back in the cup and "
                          "throw all 5 dice again. The turn total is then 0, so a Macke on that "
                          "throw costs nothing")
    cheat = " ".join(page_texts["01-cheat-sheet"])
    assert "Why returning pays" in cheat and "costs nothing" in cheat
    assert "Before throw 2, with only 5, 1, 2-2-2 or 3-3-3 aside: return it and throw all 5 " \
           "dice." in cheat
    with Image.open(report_dir / "05-returns.png") as im:
        assert why in im.text["Description"]
    assert "before throw 2: 5 → return it" in page_texts["05-returns"]
    assert "costs nothing" not in free_return_words(MackeRules(bust="zero"))
    assert "loses nothing" in free_return_words(MackeRules(bust="zero"))


def test_simple_rules_in_words():
    assert simple_words(300, 1950) == "bank at ≥ 300, after a clear at ≥ 1,950"
    assert simple_words(300, 300) == "bank at ≥ 300 (after a clear too)"
    assert simple_words(0, 0) == "always bank (after a clear too)"
    assert simple_words(None, None) == "never bank"
    assert simple_words(300, None) == "bank at ≥ 300, never after a clear"
    assert unit_words("111 + 5") == "1-1-1 + 5" and unit_words("small straight") == \
        "small straight"


def _sweep(what, x, exact):
    x = np.array(x)
    return SimpleSweep(what, None, x, np.array(exact, dtype=float), x,
                       [Estimate(v, 1.0, 1000) for v in exact])


def test_identical_policies_are_one_bar_named_as_both():
    """When the best simple rule is banking at the first chance, and when the
    optimum never returns, panel (d) shows each policy once."""
    sk = _sweep("K", [0, 300, 350], [100.0, 250.0, 200.0])
    sc = _sweep("clear", [0, 300, 350], [200.0, 260.0, 255.0])
    sol = SimpleNamespace(turn_ev=400.0, mean_returns=1.0)
    data = SimpleNamespace(sweep_k=sk, sweep_clear=sc, sol=sol,
                           sol_no_returns=SimpleNamespace(turn_ev=300.0),
                           optimal_mc=Estimate(401.0, 1.0, 1000), rules=MackeRules())
    assert [b[0] for b in policy_bars(data)] == [
        "optimal", "optimal, never returning",
        "best simple: bank at ≥ 300 (after a clear too) = first chance: bank at ≥ 300 (after "
        "a clear too)"]
    sol.mean_returns, data.sol_no_returns.turn_ev = 0.0, 400.0
    bars = policy_bars(data)
    assert bars[0][0] == "optimal = optimal, never returning" and len(bars) == 2
    sc2 = _sweep("clear", [0, 300, 1950], [200.0, 250.0, 283.0])
    data.sweep_clear = sc2
    assert [b[0] for b in policy_bars(data)][1:] == [
        "best simple: bank at ≥ 300, after a clear at ≥ 1,950",
        "first chance: bank at ≥ 300 (after a clear too)"]


def test_macke_tournament_for_a_tutto_report_is_refused(tournament_csv, tmp_path):
    assert tournament_game(MackeRules()) == "macke"
    assert tournament_game(MackeRules.preset("volle-lotte")) == "volle-lotte"
    assert tournament_game(MackeRules.preset("ones-and-fives")) == "macke-ones-and-fives"
    with pytest.raises(TournamentFileError) as e:
        read_tournament(tournament_csv, game=tournament_game(TuttoRules()))
    assert str(e.value) == (
        "--tournament: tournament_macke_2p_seed7.csv holds games of Berliner Macke (game "
        "macke), but this report is about Tutto (game tutto)")
    with pytest.raises(TournamentFileError, match="Volle Lotte"):
        read_tournament(tournament_csv, game="volle-lotte")
    assert read_tournament(tournament_csv, game="macke").players == 2
    t = read_tournament(tournament_csv)
    with pytest.raises(TournamentFileError, match="this report is about Volle Lotte"):
        report_module("volle-lotte").build(tmp_path / "r", MackeRules.preset("volle-lotte"),
                                           tournament=t)
    assert not (tmp_path / "r").exists()

