"""The JavaScript reader (tutto_sim/web/policy.mjs) on Tutto win tables of
three and four players (version 2, ``tutto.win.solve_n``): each player's chance
at seeded turn starts (``tutto.web_cases.win_n_cases``, the end of the round
included) equals the Python table's bit for bit, and damaged or mismatched
tables are refused with Python's one-line message."""

from __future__ import annotations

import base64
import functools
import json

import numpy as np
import pytest
from test_policy_js import WIN_TABLE, node

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.web_cases import win_n_cases
from tutto_sim.tutto.win.solve_n import solve_win_n
from tutto_sim.tutto.win.table import _hash_n, load_win_table_n, win_table_n_dict


@functools.lru_cache(maxsize=None)
def _doc(target: int, game_end: str, players: int) -> str:
    sol = solve_win_n(TuttoRules(target=target, game_end=game_end), players=players,
                      evaluate_ev=False)
    return json.dumps(win_table_n_dict(sol), separators=(",", ":"))


def _file(tmp_path, target=150, game_end="round", players=3):
    path = tmp_path / f"w{players}-{target}-{game_end}.json"
    path.write_text(_doc(target, game_end, players) + "\n")
    return path


@pytest.mark.parametrize("target,game_end,players", [(150, "round", 3), (150, "immediate", 3),
                                                     (100, "immediate", 4)])
def test_js_chances_equal_python(target, game_end, players, tmp_path):
    path = _file(tmp_path, target, game_end, players)
    cases = win_n_cases(path, 2000, seed=1)
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps({"policy": str(path), "players": players, "cases": cases}))
    got = node("chances", str(spec))
    assert got == [c["answer"] for c in cases]
    turn_starts = players * (target // 50) ** players  # of the main phase
    assert len({json.dumps(c["answer"]) for c in cases}) > min(100, 0.9 * turn_starts)
    if game_end == "round":
        assert sum(c["last_round"] for c in cases) > 400
    # the chances of one turn start share the win: they sum to 1
    assert all(abs(sum(a) - 1.0) < 1e-9 for a in got)


def _rehashed(d: dict) -> dict:
    d["content_sha256"] = _hash_n(d)
    return d


def _damages(d: dict):
    """(what, document, rehashed) of a table each loader must refuse."""
    w = dict(d["W"])
    raw = bytearray(base64.b64decode(w["base64"]))
    yield "hash", {**d, "W": {**w, "base64": base64.b64encode(bytes(raw[:-8]) + bytes(8)).decode()}}
    bad = np.frombuffer(bytes(raw), dtype="<f8").copy()
    bad[3] = 1.5
    yield "not chances", _rehashed({**d, "W": {**w, "base64": base64.b64encode(bad.tobytes()).decode()}})
    yield "shape", _rehashed({**d, "W": {**w, "shape": w["shape"][:-1] + [2]}})
    yield "bytes", _rehashed({**d, "W": {**w, "base64": base64.b64encode(bytes(raw[:-8])).decode()}})
    yield "base64", _rehashed({**d, "W": {**w, "base64": "*" + w["base64"][1:]}})
    yield "ends", _rehashed({**d, "E": d["E"][:1]})
    yield "end shape", _rehashed({**d, "E": [d["E"][0], {**d["E"][1], "shape": [3, 3]}]})
    yield "kind", {**d, "kind": "policy"}
    yield "version", _rehashed({**d, "win_table_version": 3})


def _python(path, rules=None, players=None):
    try:
        load_win_table_n(path, rules, players)
    except PolicyFileError as e:
        return str(e)
    return None


def test_damaged_and_mismatched_tables_refused_as_in_python(tmp_path):
    path = _file(tmp_path)
    d = json.loads(path.read_text())
    jobs, expected = [], []
    for what, doc in _damages(d):
        bad = tmp_path / f"bad-{what.replace(' ', '-')}.json"
        bad.write_text(json.dumps(doc))
        jobs.append({"file": str(bad), "game": "tutto-win"})
        expected.append(_python(bad))
    jobs.append({"file": str(path), "game": "tutto-win", "rules": {"target": 200}})
    expected.append(_python(path, TuttoRules(target=200)))
    jobs.append({"file": str(path), "game": "tutto-win", "players": 4})
    expected.append(_python(path, None, 4))
    jobs.append({"file": str(path), "game": "tutto-win", "players": 3})
    expected.append(None)
    spec = tmp_path / "jobs.json"
    spec.write_text(json.dumps(jobs))
    got = node("load", str(spec))
    assert all(e is not None for e in expected[:-1])
    assert [g.get("message") for g in got] == expected
    # a two-player table where three are asked for: the same words as play --win-table
    spec.write_text(json.dumps([{"file": str(WIN_TABLE), "game": "tutto-win", "players": 3}]))
    assert node("load", str(spec))[0]["message"] == f"win table {WIN_TABLE} is for 2 players, not 3"
