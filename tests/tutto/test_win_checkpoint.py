"""A long win solve that survives (issue 36): each finished level kept in a
checkpoint, a stopped solve resumed to the same bytes as an unbroken one, a
foreign or unasked-for checkpoint refused in one line; and the last seat's
turns at the end of the round run once per class of alike positions, bit for
bit the turns run state by state."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from conftest import run_cli, start_cli, stop_when
from tutto_sim.core.checkpoint import Checkpoint
from tutto_sim.tutto.win import solve_n as wn
from tutto_sim.tutto.win.table import load_win_table_n
from tutto_sim.tutto.rules import TuttoRules


class _Stop(Exception):
    pass


def _stop_after(k):
    """A progress callback that stops the solve after ``k`` reports (as Ctrl-C would)."""
    seen = [0]

    def progress(n):
        seen[0] += 1
        if seen[0] == k:
            raise KeyboardInterrupt
    return progress


def _key(rules, players, ev):
    return wn.checkpoint_key(rules, players, wn.margin_cap_of(rules, players), wn.DEFAULT_TOL)


@pytest.mark.parametrize("rules, ev, stops", [
    (TuttoRules(target=200), True, (3, 40, 75)),
    # two sweeps: the Plus/Minus deduction at the Tutto reads lower score sums
    (TuttoRules(target=150, plusminus_deduction="tutto"), False, (2, 25)),
])
def test_a_solve_stopped_again_and_again_and_resumed_gives_the_same_bytes(tmp_path, monkeypatch,
                                                                         rules, ev, stops):
    monkeypatch.setenv("TUTTO_SIM_CHECKPOINT_EVERY", "0")  # a part per step
    whole = wn.solve_win_n(rules, 3, evaluate_ev=ev)
    folder = tmp_path / "ck"
    key = _key(rules, 3, ev)
    done = []
    for k in stops:
        ck = Checkpoint.open(folder, key, resume=True)
        with pytest.raises(KeyboardInterrupt):
            wn.solve_win_n(rules, 3, evaluate_ev=ev, checkpoint=ck, progress=_stop_after(k))
        done.append(len(Checkpoint.open(folder, key, resume=True).parts))
    assert done == sorted(done) and done[0] > 0 and done[-1] > done[0], done
    ck = Checkpoint.open(folder, key, resume=True)
    resumed = wn.solve_win_n(rules, 3, evaluate_ev=ev, checkpoint=ck)
    assert resumed.W.tobytes() == whole.W.tobytes()
    assert resumed.E.tobytes() == whole.E.tobytes()
    assert (resumed.p_wins, resumed.p_wins_ev, resumed.win_vs_ev, resumed.residual,
            resumed.sweeps) == (whole.p_wins, whole.p_wins_ev, whole.win_vs_ev, whole.residual,
                                whole.sweeps)
    if rules.plusminus_deduction == "tutto":
        assert whole.sweeps >= 2


def test_a_checkpoint_of_another_solve_is_refused_by_the_solver(tmp_path):
    rules = TuttoRules(target=100)
    ck = Checkpoint.open(tmp_path / "ck", _key(TuttoRules(target=150), 3, False), resume=True)
    with pytest.raises(ValueError, match="another solve"):
        wn.solve_win_n(rules, 3, evaluate_ev=False, checkpoint=ck)


def _table_arrays(path):
    d = json.loads(path.read_text())
    return d["W"]["base64"], [e["base64"] for e in d["E"]]


def test_ctrl_c_keeps_the_finished_levels_and_resume_writes_the_same_table(tmp_path, capsys):
    """A real process stopped by SIGINT in the middle of its levels, then the same
    command with ``--resume``: the table's chances are the bytes of an unbroken
    solve, and the checkpoint is gone once the table is written."""
    args = ["solve", "--objective", "win", "--game", "tutto", "--players", "3", "--target",
            "300", "--json"]
    env = {"TUTTO_SIM_CHECKPOINT_EVERY": "0", "TUTTO_SIM_PROGRESS_EVERY": "0"}
    whole_dir = tmp_path / "whole"
    code, out, err = run_cli(capsys, *args + ["--out", str(whole_dir)])
    assert code == 0, err
    whole = whole_dir / os.path.basename(json.loads(out)["policy_file"])
    out_dir = tmp_path / "out"
    proc = start_cli(args + ["--out", str(out_dir)], tmp_path, env)
    line = [stop_when(proc, r"levels of equal score sum[^\n]*: \d[\d,]* of")[0]]
    kept = list(out_dir.glob("*.checkpoint"))
    assert len(kept) == 1 and (kept[0] / "manifest.json").exists()
    assert f"the finished work is kept in {kept[0]}" in line[0]
    assert "run the same command with --resume to go on" in line[0]
    assert not list(out_dir.glob("*.json")), "no table before it is complete"
    # without --resume the kept work is not thrown away: one line
    code, _, err = run_cli(capsys, *args + ["--out", str(out_dir)])
    assert code == 2 and err.count("\n") == 1, err
    assert "holds a checkpoint of the 3-player win table to 300" in err and "--resume" in err
    code, out, err = run_cli(capsys, *args + ["--out", str(out_dir), "--resume"])
    assert code == 0, err
    assert f"resuming from {kept[0]}: " in err
    table = out_dir / os.path.basename(json.loads(out)["policy_file"])
    assert _table_arrays(table) == _table_arrays(whole)
    assert not kept[0].exists(), "the checkpoint is removed once the table is written"


def test_a_foreign_or_damaged_checkpoint_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TUTTO_SIM_CHECKPOINT_EVERY", "0")
    out = tmp_path / "t.json"
    rules = TuttoRules(target=150)
    ck = Checkpoint.open(tmp_path / "t.checkpoint", _key(rules, 3, True), resume=False)
    with pytest.raises(KeyboardInterrupt):  # a solve stopped after its first steps
        wn.solve_win_n(rules, 3, checkpoint=ck, progress=_stop_after(3))
    assert ck.parts
    args = ["solve", "--objective", "win", "--game", "tutto", "--players", "3", "--json",
            "--out", str(out), "--resume"]
    code, _, err = run_cli(capsys, *args + ["--target", "100"])
    assert code == 2 and err.count("\n") == 1, err
    assert "is of another solve" in err and "150" in err and "100" in err, err
    part = next((tmp_path / "t.checkpoint").glob("part-*"))
    raw = bytearray(part.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    part.write_bytes(bytes(raw))
    code, _, err = run_cli(capsys, *args + ["--target", "150"])
    assert code == 2 and err.count("\n") == 1, err
    assert "damaged" in err or "differs" in err, err
    assert not out.exists()


def test_resume_applies_only_where_tables_are_kept(capsys):
    code, _, err = run_cli(capsys, *["solve", "--objective", "win", "--game", "tutto", "--target", "100",
                            "--resume"])
    assert code == 2 and "--resume applies to the tables of three and four players" in err
    code, _, err = run_cli(capsys, *["solve", "--game", "tutto", "--resume"])
    assert code == 2 and "--resume applies to solve --objective win only" in err


@pytest.mark.parametrize("players, target, deduction", [(3, 300, "bank"), (3, 200, "tutto"),
                                                        (4, 100, "bank")])
def test_the_last_seats_turns_once_per_class_are_the_turns_state_by_state(players, target,
                                                                          deduction):
    rules = TuttoRules(target=target, plusminus_deduction=deduction)
    sv = wn._Solver(rules, players, None, wn.DEFAULT_TOL, None)
    m, ids, runs, inv = sv.end_states[0]
    assert m == players - 1 and len(runs) < len(ids) / (3 if players == 3 else 1.5)
    V, E = sv.empty()
    kinds = np.zeros(players, dtype=np.int64)
    # a random sample of the states (all of them cost minutes at four players), each run
    # alone and through the run of its class
    pick = np.sort(np.random.default_rng(7).choice(len(ids), min(len(ids), 6000), replace=False))
    classes = np.unique(inv[pick])
    assert len(classes) < len(pick) or len(ids) == len(runs)
    seat = np.full(len(pick), m, dtype=np.int64)
    every, *_ = sv.run_here(seat, ids[pick], True, kinds, -1, V, E, V, E)
    once, *_ = sv.run_here(seat[:len(classes)], runs[classes], True, kinds, -1, V, E, V, E)
    assert once[np.searchsorted(classes, inv[pick])].tobytes() == every.tobytes()


def test_win_only_solves_the_table_alone_and_a_folder_takes_the_default_name(tmp_path, capsys):
    """``--win-only``: the same table where everyone plays to win, without the
    figures of points players; ``--out`` naming a folder puts the table there
    under the name the advisor and ``winopt`` look for."""
    rules = TuttoRules(target=150)
    whole = wn.solve_win_n(rules, 3)
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", "tutto",
                             "--players", "3", "--target", "150", "--win-only", "--out",
                             str(tmp_path / "tables"))
    assert code == 0, err
    files = list((tmp_path / "tables").iterdir())
    assert [f.name for f in files] == [wn_default_name(rules)]
    table = load_win_table_n(files[0], rules, 3)
    assert table.W.tobytes() == np.clip(whole.W, 0.0, 1.0).tobytes()
    assert table.summary["p_wins_ev"] == [] and table.summary["win_vs_ev"] == []
    assert "everyone plays to win: " + ", ".join(f"{p:.4%}" for p in whole.p_wins) in out
    assert "points per turn" not in out and "against points players" not in out


def wn_default_name(rules):
    from tutto_sim.tutto.win.table import default_win_file

    return default_win_file(rules, 3)[0].name


def _alone(rules, players, cap):
    """Every world solved alone, one after another (each its own end of the round)."""
    sv = wn._Solver(rules, players, cap, wn.DEFAULT_TOL, None)
    W, WE = sv.empty()
    sv.world([0] * players, W, WE, W, WE)
    seats = {}
    for s in range(players):
        V, VE = sv.empty()
        sv.world([2 if q == s else 1 for q in range(players)], W, WE, V, VE)
        seats[s] = (V, VE)
    return W, WE, seats


@pytest.mark.parametrize("players, target, cap", [(3, 200, None), (4, 100, 10)])
def test_the_end_of_the_round_values_two_worlds_with_one_programme_bit_for_bit(
        monkeypatch, players, target, cap):
    """A win player's last turns among points players are the win table's own
    programmes: run once for both worlds, the same bytes as each world alone,
    and no turn of a win player among points players is run apart."""
    rules = TuttoRules(target=target)
    W, WE, seats = _alone(rules, players, cap)
    sv = wn._Solver(rules, players, cap, wn.DEFAULT_TOL, None)
    W2, WE2 = sv.empty()
    later = {s: sv.empty() for s in range(1, players)}
    kinds_seen = []
    run = wn.kn.run_states

    def spy(seat, idx, end_phase, kinds, *rest):
        kinds_seen.append((int(seat[0]), tuple(int(k) for k in kinds), bool(rest[-4])))
        return run(seat, idx, end_phase, kinds, *rest)

    monkeypatch.setattr(wn.kn, "run_states", spy)
    sv.end_of_round([("world 1", np.zeros(players, dtype=np.int64), W2, WE2, W2, WE2)]
                    + [(f"world {3 + s}", [2 if q == s else 1 for q in range(players)], W2, WE2,
                        *later[s]) for s in later])
    assert WE2.tobytes() == WE.tobytes()
    for s in later:
        assert later[s][1].tobytes() == seats[s][1].tobytes(), s
    # the win player's seat m: only in the runs of the win table, with a second world
    apart = [(m, k) for m, k, _ in kinds_seen if k[m] == 2]
    assert apart == []
    assert {m for m, k, extra in kinds_seen if extra} == set(range(1, players))
    # and the whole solve gives each seat's figure of the worlds alone (its levels valued in
    # the win table's last Newton runs, decided at inputs within PAIR_TOL of the table's)
    sol = wn.solve_win_n(rules, players, margin_cap=cap)
    alone = [float(seats[s][0][0, 0, s]) for s in range(players)]
    assert np.abs(np.array(sol.win_vs_ev) - alone).max() < 1e-12


def test_a_table_solved_alone_resumes_into_the_solve_with_every_world(tmp_path):
    """A checkpoint of ``--win-only`` holds the win table alone: the solve
    with the points players' worlds resumed from it runs their win player's
    turns apart (the last turns, and each level alone where the win table's
    came from the checkpoint): the win table to the same bytes, the figures
    of one player to win among points players within 1e-12 (beside the win
    table they are valued in its Newton runs)."""
    rules = TuttoRules(target=200)
    whole = wn.solve_win_n(rules, 3)
    key = _key(rules, 3, False)
    ck = Checkpoint.open(tmp_path / "ck", key, resume=True)
    wn.solve_win_n(rules, 3, evaluate_ev=False, checkpoint=ck)
    ck = Checkpoint.open(tmp_path / "ck", key, resume=True)
    resumed = wn.solve_win_n(rules, 3, checkpoint=ck)
    assert resumed.W.tobytes() == whole.W.tobytes()
    assert resumed.E.tobytes() == whole.E.tobytes()
    assert resumed.p_wins_ev == whole.p_wins_ev
    assert np.abs(np.array(resumed.win_vs_ev) - np.array(whole.win_vs_ev)).max() < 1e-12
