"""A long Berliner Macke / Volle Lotte solve survives: each finished sweep of
the N-player win solve is kept in a checkpoint, and a solve stopped anywhere
and resumed gives the same bytes as an unbroken one (``solve --objective win
--game macke --players N --resume``).

The reference is the unbroken solve in the same process; the resumed one
starts its first live sweep without the digests of the sweep before it, so
all its forward passes run (those of an unbroken solve are skipped where
the decisions did not change): equal bytes show that skipping them changes
nothing.
"""

import json

import pytest
from conftest import one_line, run_cli

from tutto_sim.core.checkpoint import Checkpoint
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win import solve_n as wn
from tutto_sim.macke.win.solve2 import sweep_label
from tutto_sim.macke.win.table import load_win_table_n

SMALL = dict(floor=-100, cap_units=20)


def _stop_in_sweep(k):
    """A ``phase`` callback that stops the solve when sweep ``k`` starts (as
    Ctrl-C would), after the sweeps before it finished."""

    def phase(label, total, unit=None):
        if label == sweep_label(k, 3) or label == sweep_label(k, 4):
            raise KeyboardInterrupt
        return lambda n: None

    return phase


@pytest.mark.parametrize("rules, players", [(MackeRules(target=150), 3),
                                            (MackeRules(target=100, variant="volle-lotte"), 3),
                                            (MackeRules(target=100), 4)])
def test_a_solve_stopped_in_a_sweep_and_resumed_gives_the_same_bytes(tmp_path, monkeypatch, rules,
                                                                     players):
    """Stopped in the second sweep and in the last; the resumed solve runs
    only the sweeps not kept (counted at the kernel)."""
    whole = wn.solve_macke_win_n(rules, players, **SMALL)
    assert whole.iterations >= 3
    key = wn.checkpoint_key(rules, players, **SMALL)
    calls = []
    kernel = wn.sweep
    monkeypatch.setattr(wn, "sweep", lambda *a: (calls.append(a[-3]), kernel(*a)))  # lo
    for k in (2, whole.iterations):
        folder = tmp_path / f"stop{k}.checkpoint"
        ck = Checkpoint.open(folder, key, resume=False)
        with pytest.raises(KeyboardInterrupt):
            wn.solve_macke_win_n(rules, players, **SMALL, checkpoint=ck, phase=_stop_in_sweep(k))
        ck = Checkpoint.open(folder, key, resume=True)
        steps = [s for p in ck.parts for s in ck.info(p)["steps"]]
        assert steps == [f"sweep {i}" for i in range(1, k)]  # every finished sweep, no more
        calls.clear()
        resumed = wn.solve_macke_win_n(rules, players, **SMALL, checkpoint=ck)
        assert calls.count(0) == whole.iterations - (k - 1)  # each live sweep starts at state 0
        assert resumed.W.tobytes() == whole.W.tobytes()
        assert resumed.ev_table.tobytes() == whole.ev_table.tobytes()
        assert (resumed.p_wins, resumed.p_wins_ev, resumed.win_vs_ev, resumed.residual,
                resumed.iterations, resumed.max_locked) == (
            whole.p_wins, whole.p_wins_ev, whole.win_vs_ev, whole.residual, whole.iterations,
            whole.max_locked)


def test_a_checkpoint_of_another_solve_is_refused():
    rules = MackeRules(target=150)
    with pytest.raises(ValueError, match="another solve"):
        wn.solve_macke_win_n(rules, 3, **SMALL, checkpoint=type("C", (), {
            "key": wn.checkpoint_key(MackeRules(target=200), 3, **SMALL)})())


def whole_table(sol, tmp_path):
    """The unbroken solve's table as the command writes it."""
    from tutto_sim.macke.win.table import write_win_table_n

    path = tmp_path / "whole.json"
    write_win_table_n(sol, path)
    return load_win_table_n(path, sol.rules, sol.players)


def test_resume_on_the_command_line(capsys, tmp_path, monkeypatch):
    """``--resume`` goes on from the sweeps kept beside the table and writes
    the table of an unbroken solve; a checkpoint of another target, and
    ``--resume`` at two players, are refused in one line."""
    rules = MackeRules(target=100)
    out = tmp_path / "t.json"
    monkeypatch.setattr(wn, "DEFAULT_FLOOR_N", -100)
    whole = wn.solve_macke_win_n(rules, 3, floor=-100)
    key = wn.checkpoint_key(rules, 3)
    assert key["floor"] == -100
    ck = Checkpoint.open(out.with_suffix(".checkpoint"), key, resume=False)
    with pytest.raises(KeyboardInterrupt):
        wn.solve_macke_win_n(rules, 3, floor=-100, checkpoint=ck, phase=_stop_in_sweep(3))
    base = ["solve", "--objective", "win", "--game", "macke", "--players", "3", "--out", str(out)]
    line = one_line(*run_cli(capsys, *base, "--target", "150", "--resume"))
    assert "is of another solve" in line and "150" in line and "100" in line, line
    code, text, err = run_cli(capsys, *base, "--target", "100", "--resume", "--json")
    assert code == 0, err
    assert "resuming from" in err
    table = load_win_table_n(out, rules, 3)
    assert table.W.tobytes() == whole_table(whole, tmp_path).W.tobytes()
    assert json.loads(text)["p_wins"] == whole.p_wins
    assert not out.with_suffix(".checkpoint").exists()  # the table is written: the kept work goes
    line = one_line(*run_cli(capsys, "solve", "--objective", "win", "--game", "macke",
                             "--target", "100", "--resume"))
    assert "--resume applies to the tables of three and four players" in line
