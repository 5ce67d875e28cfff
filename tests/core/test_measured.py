"""Saved measurements (``core.measured``): the files the reports cite say what
the README and the game docs say, with the command that made them; a file
round-trips; a damaged one is refused in one line naming it."""

import json
import math
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from tutto_sim.core.measured import (
    MEASURED_DIR,
    MeasuredFileError,
    measured,
    read_measured,
    write_measured,
)

ROOT = Path(__file__).resolve().parents[2]
Z = 1.959963984540054


def _wilson(d: dict) -> tuple[Decimal, float, float]:
    """The share (a tie counts one half; exact, as the docs round it: half up)
    and its Wilson 95% interval, written out here from the score test's roots."""
    p = (Decimal(d["wins"]) + Decimal(d["ties"]) / 2) / Decimal(d["n"])
    n, q = d["n"], float(p)
    centre = (q + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(q * (1 - q) / n + Z * Z / (4 * n * n))
    return p, centre - half, centre + half


def _half_up(x: Decimal, digits: int) -> str:
    return str(x.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _file(name: str) -> dict:
    return json.loads((MEASURED_DIR / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name, readme, doc, doc_text", [
    ("tutti-pimc-heuristic.json", "`pimc` beats\n`heuristic` {p3} [{lo:.3f}, {hi:.3f}]", "tutti.md",
     "| `pimc,heuristic` 200 | 400 | {pp1}% [{plo:.1f}, {phi:.1f}] |"),
    ("tutti-ismcts-heuristic.json", None, "tutti.md",
     "| `ismcts,heuristic` 150 | 300 | {pp1}% [{plo:.1f}, {phi:.1f}] |"),
    # (measured when tuned was the first tuned weights: the README no longer quotes it)
    ("rutsmieter-expert-tuned.json", None,
     "rutsmieter.md", "| `expert` vs `tuned` | 2,000 | **{p4} [{lo:.4f}, {hi:.4f}]** |"),
])
def test_saved_figures_are_the_readmes_and_the_docs(name, readme, doc, doc_text):
    d = _file(name)
    p, lo, hi = _wilson(d)
    values = dict(p3=_half_up(p, 3), p4=_half_up(p, 4), pp1=_half_up(100 * p, 1), lo=lo, hi=hi,
                  plo=100 * lo, phi=100 * hi)
    if readme is not None:
        assert readme.format(**values) in (ROOT / "README.md").read_text(encoding="utf-8")
    docs = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    assert doc_text.format(**values) in docs
    if d["game"] == "tutti":  # the bench's --match and --hands: a row of the docs' table
        words = d["command"].split()
        match, hands = words[words.index("--match") + 1], words[words.index("--hands") + 1]
        assert f"| `{match}` {hands} |" in docs and "--seed 1" in d["command"]
        assert "python scripts/bench_tutti_search.py --match " in docs
    else:
        assert d["command"] in docs
    assert d["rules"]["players"] == d["players"] == 2 and d["budget"] > 0


def test_the_tutti_figures_are_those_of_the_bench_with_its_defaults():
    """The saved bots are the search bots at their default budgets, and the
    rules the default ones: the files apply to the report's default rules only."""
    from tutto_sim.tutti.ismcts import DEFAULT_ITERATIONS
    from tutto_sim.tutti.pimc import DEFAULT_SAMPLES
    from tutto_sim.tutti.rules import TuttiRules

    assert _file("tutti-pimc-heuristic.json")["budget"] == DEFAULT_SAMPLES
    assert _file("tutti-ismcts-heuristic.json")["budget"] == DEFAULT_ITERATIONS
    two = TuttiRules(players=2)
    assert measured("tutti", "pimc", "heuristic", two).n == 400
    assert measured("tutti", "pimc", "heuristic", TuttiRules(players=2, hands=3)) is None
    assert measured("tutti", "pimc", "random", two) is None


def test_round_trip_and_share(tmp_path):
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    rules = RutsmieterRules(players=2)
    path = write_measured(tmp_path / "rutsmieter-a-b.json", game="rutsmieter", bot="a",
                          budget=5, against="b", rules=rules, unit="game", n=10, wins=6,
                          ties=2, seed=4, command="tutto-sim tournament")
    m = read_measured(path)
    assert (m.bot, m.against, m.n, m.wins, m.ties, m.seed) == ("a", "b", 10, 6, 2, 4)
    assert m.share == 0.7 and m.win.mean == pytest.approx(0.7)
    assert m.other.mean == pytest.approx(0.3)
    assert measured("rutsmieter", "a", "b", rules, tmp_path) == m
    assert measured("rutsmieter", "a", "b", RutsmieterRules(players=2, must_capture=False),
                    tmp_path) is None


@pytest.mark.parametrize("text, needle", [
    ("{", "cannot be read"),
    ('{"format": "other", "version": 1}', "not a tutto-sim-measured file"),
    ('{"format": "tutto-sim-measured", "version": 1, "game": "tutti"}', "missing or bad field"),
])
def test_a_damaged_file_is_one_line_naming_it(tmp_path, text, needle):
    path = tmp_path / "tutti-x-y.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MeasuredFileError) as e:
        read_measured(path)
    assert needle in str(e.value) and str(path) in str(e.value) and "\n" not in str(e.value)


def test_wins_must_fit_in_the_games(tmp_path):
    d = _file("tutti-pimc-heuristic.json")
    d["wins"] = d["n"]
    path = tmp_path / "tutti-pimc-heuristic.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(MeasuredFileError, match="do not fit"):
        read_measured(path)
