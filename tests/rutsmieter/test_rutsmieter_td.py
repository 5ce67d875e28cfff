"""TD(λ) by self-play (``rutsmieter.td``): its feature vector against the
policy's, the numba trainer against a plain-Python one on the reference
engine, reproducibility, the shipped ``td`` bot, the command's refusals."""

import json
import math

import numba
import numpy as np
import pytest
from conftest import run_cli as run

from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter import td
from tutto_sim.rutsmieter.bots import parse_bot
from tutto_sim.rutsmieter.policy import POSITION_FEATURES, TD_FILE, WeightsPolicy, position_features
from tutto_sim.rutsmieter.reference import Bot, apply_move, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

#: The learner's units, by the docs' words: sums of progress by 40, counts by 1.
UNITS = [40.0 if f.endswith("progress") or f == "opp_risk" else 1.0 for f in POSITION_FEATURES]


def _flat(board) -> np.ndarray:
    return np.array([x for p in board.pieces for x in p], np.int64)


def _positions(n: int, games: int):
    """Positions of random games at a table of ``n`` (every 7th board after a move)."""
    seen = []

    def observe(t):
        if t.move is not None:
            seen.append(t.board.copy())

    for g in range(games):
        play_game(["random"] * n, RutsmieterRules(players=n), 11, g, observe=observe)
    return seen[::7]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_feature_vector_is_the_policys(n):
    offs = K.kernel_offsets(n)
    psi = np.zeros(13)
    boards = _positions(n, 20)
    assert len(boards) > 300
    for board in boards:
        pos = _flat(board)
        for p in range(n):
            td.position_vector(psi, pos, n, offs, p)
            assert psi.tolist() == list(position_features(board, p))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def python_train(n: int, seed: int, games: int, alpha: float, lam: float) -> list[float]:
    """TD(λ) in plain Python on the reference engine: b then 13 weights."""
    rules = RutsmieterRules(players=n)
    theta = [0.0] * 14
    for g in range(games):
        row = (0.0,) * 9 + tuple(theta[1 + i] / UNITS[i] for i in range(13))
        policy = WeightsPolicy(row, rules)
        after = []  # (player, board after its move)

        def choose(obs, policy=policy, after=after):
            i = policy.choose(obs)
            board = obs.board()
            apply_move(board, obs.player, obs.moves[i])
            after.append((obs.player, board))
            return i

        rec = play_game([Bot("recording", choose)] * n, rules, seed, g)
        delta = [0.0] * 14
        for p in range(n):
            trace, v_old, moved = [0.0] * 14, None, False
            for q, board in after:
                if q != p:
                    continue
                if board.finished(p):
                    z = 1.0 if rec.winner == p else 0.0
                    delta = [d + alpha * (z - v_old) * e for d, e in zip(delta, trace)]
                    moved = False
                    break
                x = [1.0] + [f / u for f, u in zip(position_features(board, p), UNITS)]
                s = theta[0]
                for i in range(13):
                    s += theta[1 + i] * x[1 + i]
                v = _sigmoid(s)
                if moved:
                    delta = [d + alpha * (v - v_old) * e for d, e in zip(delta, trace)]
                trace = [lam * e + v * (1 - v) * xi for e, xi in zip(trace, x)]
                v_old, moved = v, True
            if moved and rec.winner >= 0:
                delta = [d + alpha * (0.0 - v_old) * e for d, e in zip(delta, trace)]
        theta = [t + d for t, d in zip(theta, delta)]
    return theta


@pytest.mark.parametrize("n", [2, 3, 4])
def test_numba_trainer_is_the_python_one(n):
    games, alpha, lam = 6, 0.05, 0.7
    theirs = python_train(n, 5, games, alpha, lam)
    ours = td.train([RutsmieterRules(players=n)], 5, games, alpha, lam, chunk=4)[0]
    assert any(abs(t) > 1e-3 for t in theirs)
    assert np.allclose(ours, theirs, rtol=0, atol=1e-9)


def test_same_seed_same_weights_other_seed_others():
    tables = [RutsmieterRules(players=n) for n in (2, 3, 4)]
    a = td.train(tables, 3, 400)
    b = td.train(tables, 3, 400, chunk=150)  # in other pieces, the same games
    c = td.train(tables, 4, 400)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = td.train(tables, 3, 400)  # one thread: the same weights
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, b) and np.array_equal(a, one)
    assert not np.allclose(a, c)
    assert len({tuple(row) for row in a}) == 3  # each table size its own


def test_weights_row_plays_as_the_value():
    theta = np.arange(14, dtype=float) - 6.5
    row = td.weights_row(theta)
    assert row[:9] == (0.0,) * 9
    assert row[9:] == pytest.approx([t / u for t, u in zip(theta[1:], UNITS)], abs=1e-15)


def test_shipped_td_bot_plays_in_both_engines():
    from tutto_sim.core.bots import POLICY_DIR

    d = json.loads((POLICY_DIR / TD_FILE).read_text())
    assert sorted(d["weights_by_players"]) == ["2", "3", "4"]
    assert d["summary"]["method"].startswith("TD(")
    for n in (2, 3, 4):
        rules = RutsmieterRules(players=n)
        bot = parse_bot("td", rules)
        w = bot.table()
        assert w == tuple(d["weights_by_players"][str(n)].values())
        assert w[:9] == (0.0,) * 9 and any(w[9:])
        # the same games in the reference engine and in the kernel
        bots = [bot.engine] + ["first"] * (n - 1)
        ids = [K.BOT_WEIGHTS] + [K.BOT_FIRST] * (n - 1)
        for g in range(3):
            rec = play_game(bots, rules, 8, g)
            trace = np.zeros((len(rec.log), 4), np.int64)
            won, throws, *_ = K.play_traced(8, g, K.kernel_params(rules), K.kernel_offsets(n),
                                            np.array(ids), trace, wtab=[w])
            assert (won, throws) == (rec.winner, rec.throws)
            assert [tuple(t) for t in trace.tolist()] == [tuple(t) for t in rec.log]


def test_bad_method_is_one_line(capsys):
    code, out, err = run(capsys, "optimize", "--game", "rutsmieter", "--method", "tdd")
    assert code == 2 and out == ""
    assert err.strip() == "tutto-sim: error: --method must be one of cross-entropy, td, not 'tdd'"


@pytest.mark.parametrize("args, message", [
    (["--players", "2,5"], "--players must be 2, 3 or 4 for Rutsmieter, not 5"),
    (["--players", "3,3"], "--players names 3 twice"),
    (["--players", "two"], "--players must be 2, 3 or 4 for Rutsmieter, not 'two'"),
    (["--candidates", "5"], "--candidates does not apply to --method td"),
    (["--field", "first"], "--field does not apply to --method td"),
    (["--games", "0"], "--games must be a positive number, not 0"),
])
def test_bad_td_input_is_one_line(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.setattr(td, "learn", lambda *a, **k: pytest.fail("trained after a refusal"))
    code, out, err = run(capsys, "optimize", "--game", "rutsmieter", "--method", "td",
                         "--out-dir", str(tmp_path), *args)
    assert code == 2 and out == ""
    assert err.strip().startswith(f"tutto-sim: error: {message}"), err
    assert len(err.strip().splitlines()) == 1


def test_command_writes_policy_and_chart(capsys, tmp_path):
    path = tmp_path / "td.json"
    code, out, err = run(capsys, "optimize", "--game", "rutsmieter", "--method", "td",
                         "--players", "2", "--games", "150", "--seed", "2", "--out", str(path),
                         "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["seed"] == 2 and d["games_done"] == 150 and d["players"] == [2]
    assert [c["games"] for c in d["curve"]] == [0, 100, 150]
    assert set(d["final"]["2"]) == {"first", "aggressive", "defensive", "random", "tuned-v1",
                                    "all"}
    assert (tmp_path / "td-curve.png").read_bytes()[:4] == b"\x89PNG"
    policy = json.loads(path.read_text())
    assert policy["summary"]["command"] == d["command"] == (
        "tutto-sim optimize --game rutsmieter --method td --players 2 --games 150 --seed 2")
    # the file's weights are the learner's: 0 on the move features, theta / unit on the others
    expected = td.train([RutsmieterRules(players=2)], 2, 150)[0]
    w = list(policy["weights_by_players"]["2"].values())
    assert w[:9] == [0.0] * 9
    assert w[9:] == pytest.approx([t / u for t, u in zip(expected[1:], UNITS)], abs=1e-12)
    assert policy["summary"]["bias"]["2"] == pytest.approx(expected[0], abs=1e-12)


def test_ctrl_c_keeps_the_games_trained(capsys, tmp_path, monkeypatch):
    calls = []
    real = td.train

    def train(*a, **k):  # the second stretch of self-play is interrupted
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(td, "train", train)
    path = tmp_path / "td.json"
    code, out, err = run(capsys, "optimize", "--game", "rutsmieter", "--method", "td",
                         "--players", "3", "--games", "1000", "--out", str(path), "--json")
    assert code == 130
    assert "interrupted after 100 games of self-play" in err
    assert not path.exists()
    policy = json.loads((tmp_path / "td-interrupted.json").read_text())
    assert policy["summary"]["interrupted"] and policy["summary"]["games_done"] == 100
    assert [c["games"] for c in policy["summary"]["curve"]] == [0, 100]
    assert (tmp_path / "td-curve-interrupted.png").exists()
    expected = real([RutsmieterRules(players=3)], 1, 100)[0]
    assert policy["summary"]["bias"]["3"] == pytest.approx(expected[0], abs=1e-12)
