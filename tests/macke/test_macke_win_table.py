"""The Macke / Volle Lotte win table as a policy file: round trip and every refusal."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win.solve_n import solve_macke_win
from tutto_sim.macke.win.table import _win_hash, load_win_table, write_win_table

RULES = MackeRules(target=200)
FLOOR = -300


@functools.lru_cache(maxsize=None)
def _sol(rules: MackeRules = RULES):
    return solve_macke_win(rules, floor=FLOOR, cap_units=40)


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "win.json"
    write_win_table(_sol(), path)
    return path


def _rewrite(tmp_path, text: str, change, rehash: bool = False):
    d = json.loads(text)
    change(d)
    if rehash:  # a consistent file whose content is wrong: only the later checks can catch it
        d["content_sha256"] = _win_hash(d)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(d))
    return path


@pytest.mark.parametrize("variant", ["standard", "volle-lotte"])
def test_round_trip(tmp_path, variant):
    rules = MackeRules.preset(variant, target=200)
    sol = _sol(rules)
    path = tmp_path / "w.json"
    write_win_table(sol, path)
    t = load_win_table(path, rules)
    assert t.rules == rules and t.floor == FLOOR and t.cap_units == 40
    assert np.array_equal(t.W, sol.W[0]) and np.array_equal(t.W, sol.W[1])
    assert np.array_equal(t.last_turn, sol.last_turn)
    assert t.W.shape == (4 + 6, 4 + 6)  # units from -300 to 150
    for mine, theirs in ((0, 0), (-300, 150), (150, -100), (-1000, 0)):
        assert t.win(mine, theirs) == sol.win(mine, theirs)
    assert t.summary["p_first_wins"] == sol.p_first_wins
    d = json.loads(path.read_text())
    assert d["game"] == "macke" and d["rules"]["variant"] == variant and d["floor_units"] == -6


def test_refuses_damaged_files(table_file, tmp_path):
    text = table_file.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    with pytest.raises(PolicyFileError, match="damaged or truncated"):
        load_win_table(cut)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe" + text.encode()[:50])
    with pytest.raises(PolicyFileError, match="not UTF-8"):
        load_win_table(binary)
    changed = _rewrite(tmp_path, text, lambda d: d["W"][0].__setitem__(0, 0.25))
    with pytest.raises(PolicyFileError, match="content hash does not match"):
        load_win_table(changed)
    with pytest.raises(PolicyFileError, match="cannot read"):
        load_win_table(tmp_path / "missing.json")


@pytest.mark.parametrize("field, value, words", [
    ("version", 2, "has version 2"),
    ("format", "something-else", "not a tutto-sim policy file"),
    ("game", "tutto", "is for game 'tutto'"),
    ("win_table_version", 2, "schema at win_table_version"),
    ("kind", "turn-table", "not a win table"),
])
def test_refuses_other_formats_versions_and_games(table_file, tmp_path, field, value, words):
    path = _rewrite(tmp_path, table_file.read_text(), lambda d: d.__setitem__(field, value))
    with pytest.raises(PolicyFileError, match=words):
        load_win_table(path)


def test_refuses_other_rules_and_inconsistent_content(table_file, tmp_path):
    text = table_file.read_text()
    with pytest.raises(PolicyFileError, match="other rules: target=300 \\(file: 200\\)"):
        load_win_table(table_file, MackeRules(target=300))
    with pytest.raises(PolicyFileError, match="other rules: variant='volle-lotte'"):
        load_win_table(table_file, MackeRules.preset("volle-lotte", target=200))
    with pytest.raises(PolicyFileError, match="min_score=350"):
        load_win_table(table_file, MackeRules(target=200, min_score=350))
    # win_value does not change the table (five 1s win the game)
    assert load_win_table(table_file, MackeRules(target=200, win_value=100)).floor == FLOOR
    # rules that do not match their hash
    path = _rewrite(tmp_path, text, lambda d: d["rules"].__setitem__("min_score", 350), rehash=True)
    with pytest.raises(PolicyFileError, match="rules_sha256 does not match"):
        load_win_table(path)
    # a floor the solver does not take, or a table of the wrong size
    path = _rewrite(tmp_path, text, lambda d: d.__setitem__("floor_units", -1000), rehash=True)
    with pytest.raises(PolicyFileError, match="the floor must be"):
        load_win_table(path)
    path = _rewrite(tmp_path, text, lambda d: d.__setitem__("floor_units", -5), rehash=True)
    with pytest.raises(PolicyFileError, match="W must be 9 x 9"):
        load_win_table(path)
    path = _rewrite(tmp_path, text, lambda d: d["last_turn"].pop(), rehash=True)
    with pytest.raises(PolicyFileError, match="last_turn must have"):
        load_win_table(path)
    path = _rewrite(tmp_path, text, lambda d: d["W"][1].__setitem__(2, 1.5), rehash=True)
    with pytest.raises(PolicyFileError, match="schema at W/1/2"):
        load_win_table(path)
