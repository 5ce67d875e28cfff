"""Berliner Macke / Volle Lotte on the command line."""

import json
from pathlib import Path

import pytest
from conftest import result_file, run_cli

from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.solver import solve_macke

ROOT = Path(__file__).resolve().parents[2]


def test_solve_json_keys_and_values(capsys):
    code, out, err = run_cli(capsys, "solve", "--game", "macke", "--json")
    assert code == 0, err
    d = json.loads(out)
    sol = solve_macke(MackeRules())
    assert d["turn_ev"] == pytest.approx(sol.turn_ev)
    for key in ("p_positive", "p_negative", "p_zero"):
        assert d[key] == pytest.approx(getattr(sol, key))
    assert d["p_positive"] + d["p_negative"] + d["p_zero"] == pytest.approx(1.0)
    assert set(d["bank_thresholds"]) == {"1", "2"}  # throws left after the 1st and 2nd throw
    assert d["returns"]["mean_returns_per_turn"] > 0


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "standard"])
def test_variant_presets(capsys, variant):
    code, out, err = run_cli(capsys, "solve", "--game", "macke", "--variant", variant, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["variant"] == variant
    assert d["turn_ev"] == pytest.approx(solve_macke(MackeRules.preset(variant)).turn_ev)


def test_volle_lotte_game_is_the_variant(capsys):
    _, a, _ = run_cli(capsys, "solve", "--game", "volle-lotte", "--json")
    _, b, _ = run_cli(capsys, "solve", "--game", "macke", "--variant", "volle-lotte", "--json")
    assert json.loads(a)["turn_ev"] == json.loads(b)["turn_ev"]
    assert json.loads(a)["rules"]["target"] == 6000


def test_optimize_macke_json(capsys, tmp_path):
    code, out, err = run_cli(capsys, "optimize", "--game", "macke", "--json", "--turns", "50000",
                             "--search-turns", "20000", "--seed", "3", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    for key in ("ev", "ci95", "turns", "seed", "bank_at", "p_positive", "p_negative", "p_zero"):
        assert key in d
    assert d["exact_optimum"]["turn_ev"] >= d["ev"] - 3 * d["ci95"]
    assert d["csv"] == str(result_file(tmp_path, "optimize-macke-seed3"))


def test_explore_table_and_csv(capsys, tmp_path):
    code, out, err = run_cli(capsys, "explore", "--game", "macke", "--min-score", "0,300",
                             "--bust", "subtract", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    rows = d["rows"]
    assert [r["min_score"] for r in rows] == [0, 300]
    assert rows[0]["ev"] == pytest.approx(solve_macke(MackeRules(min_score=0)).turn_ev)
    assert rows[0]["ev"] > rows[1]["ev"]  # a minimum can only cost the player
    assert d["csv"] == str(result_file(tmp_path, "explore-macke"))


def test_shipped_macke_tables_load():
    from tutto_sim.macke.policy import load_macke_policy

    load_macke_policy(ROOT / "tutto_sim" / "data" / "policies" / "macke-default.json", MackeRules())
    load_macke_policy(ROOT / "tutto_sim" / "data" / "policies" / "volle-lotte-default.json",
                      MackeRules.preset("volle-lotte"))


def test_export_and_refuse(capsys, tmp_path):
    path = tmp_path / "m.json"
    assert run_cli(capsys, "export-policy", "--game", "macke", "--out", str(path))[0] == 0
    code, _, err = run_cli(capsys, "validate", "--game", "macke", "--policy", str(path),
                           "--turns", "1000", "--bust", "zero")
    assert code == 2 and "other rules" in err and len(err.strip().splitlines()) == 1
    path.write_text(path.read_text()[:5000])
    code, _, err = run_cli(capsys, "validate", "--game", "macke", "--policy", str(path), "--turns", "1000")
    assert code == 2 and "truncated" in err


@pytest.mark.parametrize("args, needle", [
    (("solve", "--game", "kniffel"), "tutto, macke, volle-lotte"),
    (("solve", "--game", "macke", "--variant", "x"), "standard, instant-win"),
    (("solve", "--game", "macke", "--bust", "half"), "subtract, zero"),
    (("solve", "--game", "macke", "--x2-scope", "card"), "--x2-scope does not apply"),
    (("solve", "--min-score", "200"), "--min-score does not apply to --game tutto"),
    (("explore", "--game", "macke", "--min-score", "a,b"), "comma-separated"),
    (("explore", "--game", "tutto"), "macke"),
])
def test_bad_input(capsys, args, needle):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_solve_text_prints_every_exception_in_words(capsys):
    """All 13 exceptions to the bank thresholds (docs/macke-solver.md), each under
    its throws and dice left, units as players write them; "1 die left"."""
    code, out, err = run_cli(capsys, "solve", "--game", "macke", "--json")
    exceptions = json.loads(out)["bank_exceptions"]
    assert len(exceptions) == 13
    code, out, err = run_cli(capsys, "solve", "--game", "macke")
    assert code == 0, err
    assert "…" not in out and "13 exceptions (bank below the threshold)" in out
    assert "1 die left" in out and "1 dice" not in out
    lines = {}
    for line in out.splitlines():
        head, sep, items = line.strip().partition(" left: ")
        if sep:
            lines[head] = items.split("; ")
    assert sum(map(len, lines.values())) == 13
    for tl, d, u, lo, hi in exceptions:
        head = f"{tl} throw{'s' if tl > 1 else ''} and {d} {'die' if d == 1 else 'dice'}"
        units = " + ".join("-".join(x) if len(x) == 3 and len(set(x)) == 1 else x
                           for x in u.split(" + "))
        span = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
        assert f"{units} at {span}" in lines[head], (head, u, lo, hi)
    # the first throw's 6-6-6 with 2 dice left banks from 600: the threshold there is 1,050
    assert "6-6-6 at 600–1,000" in lines["2 throws and 2 dice"]
