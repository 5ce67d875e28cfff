"""The ``winopt`` bot of two-player Macke: its turn is the solver's greedy turn
(the exact value of its decisions, by a forward pass, is the table's value),
and in the game it wins against the points-optimal bot what the solver says."""

from __future__ import annotations

import dataclasses
import functools
import json

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.core.bots import BotSpecError
from tutto_sim.core.tournament import run_tournament
from tutto_sim.macke.win import programme as wk
from tutto_sim.macke.bots import parse_bot
from tutto_sim.macke.game import GameConfig
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import kernel_args
from tutto_sim.macke.win.planner import WinPlanner
from tutto_sim.macke.win.solve_n import solve_macke_win
from tutto_sim.macke.win.table import MackeWinTable, write_win_table

RULES = MackeRules(target=500)
FLOOR, CAP = -500, 60  # a floor of -1,000 moves win_vs_ev by 4e-4, far inside the games' CI


@functools.lru_cache(maxsize=None)
def _sol(rules: MackeRules = RULES):
    return solve_macke_win(rules, floor=FLOOR, cap_units=CAP)


def _table(rules: MackeRules = RULES) -> MackeWinTable:
    return MackeWinTable.from_solution(_sol(rules))


def _played_value(rules, dec, leaf, win_leaf: float = 1.0) -> float:
    """Exact expected leaf of one turn played by the decisions ``dec`` (a forward
    pass of the probability mass, not the backward maximum): ``leaf(kind, t)``
    is the value of the turn ending with total ``t`` banked (kind 0) or by a Macke (1)."""
    m, _, tab = kernel_args(rules)
    tstar = dec.keep.shape[0]
    n_t = len(dec.clear_bank) + 200
    mass = np.zeros((tstar, rules.throws + 1, len(m.state_dice)))
    bank_mass, macke_mass = np.zeros(n_t), np.zeros(n_t)
    p_win = wk.turn_outcomes(tstar, rules.n_dice, rules.throws, tab, m.empty, dec.keep, dec.ret,
                             dec.bank, dec.clear_bank, mass, bank_mass, macke_mass)
    total = p_win * win_leaf + sum(bank_mass[t] * leaf(0, t) + macke_mass[t] * leaf(1, t)
                                   for t in range(n_t) if bank_mass[t] or macke_mass[t])
    assert bank_mass.sum() + macke_mass.sum() + p_win == pytest.approx(1.0, abs=1e-12)
    return total


@pytest.mark.parametrize("rules", [RULES, MackeRules(target=200, bust="zero")])
def test_the_turn_is_the_solvers_greedy_turn(rules):
    """At several score pairs the bot's decisions, played out exactly, are worth
    the table's W (the table is the fixed point: its one-turn look-ahead gives
    itself back); the last turn's decisions are worth the table's L(d)."""
    sol = _sol(rules)
    planner = WinPlanner(_table(rules))
    u, f, g = 50, FLOOR // 50, rules.target // 50
    W, L = sol.W[0], sol.last_turn

    top = rules.target - u
    for a, b in ((0, 0), (-500, top), (top, -500), (top - 150, top - 100), (-100, 0)):
        au, bu = a // u, b // u

        def leaf(kind, t):
            r = (t if t >= rules.min_score // u else -t) if kind == 0 else (
                -t if rules.bust == "subtract" else 0)
            s = au + r
            if s >= g:
                return 1.0 - L[min(s - bu, len(L) - 1)]
            return 1.0 - W[bu - f, max(s, f) - f]

        value, dec, _ = planner.turn(a, b)
        assert value == pytest.approx(W[au - f, bu - f], abs=1e-9)
        assert _played_value(rules, dec, leaf) == pytest.approx(value, abs=1e-12)
    for d in (1, 6, 20):
        value, dec, _ = planner.last_turn(0, d * u)

        def need(kind, t):
            r = (t if t >= rules.min_score // u else -t) if kind == 0 else (
                -t if rules.bust == "subtract" else 0)
            return 1.0 if r > d else 0.5 if r == d else 0.0

        assert value == pytest.approx(L[d], abs=1e-12)
        assert _played_value(rules, dec, need) == pytest.approx(value, abs=1e-12)


def test_winopt_wins_what_the_solver_says_against_optimal():
    """3,000 reference games of winopt against optimal, both seatings: the win
    rate holds the exact ``win_vs_ev`` in its 95% interval."""
    sol = _sol()
    bots = [parse_bot("optimal", RULES)]
    from tutto_sim.macke.bots import MackeWinOptBot

    bots.insert(0, MackeWinOptBot(_table()))
    res = run_tournament(bots, 2, 3000, 11, GameConfig(RULES), engine="reference")
    win = res.bot_stats()[0].win
    assert res.bot_stats()[0].games == 3000
    assert abs(win.mean - sol.win_vs_ev) < win.ci95, (win.mean, win.ci95, sol.win_vs_ev)
    assert sol.win_vs_ev > 0.53  # what the check is about: a real edge


def test_winopt_on_the_command_line(capsys, tmp_path):
    path = tmp_path / "w.json"
    write_win_table(_sol(), path)
    code, out, err = run_cli(capsys, "tournament", "--game", "macke", "--target", "500",
                             "--bots", f"winopt:{path},optimal", "--players", "2", "--games", "200",
                             "--seed", "3", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["engine"] == "reference" and d["bots"][f"winopt:{path}"]["games"] == 200
    # a damaged file, other rules: one line, exit 2
    bad = tmp_path / "bad.json"
    bad.write_text(path.read_text()[:1000])
    for spec, words in ((f"winopt:{bad}", "damaged or truncated"),
                        (f"winopt:{path}", "other rules: target=1000")):
        code, out, err = run_cli(capsys, "tournament", "--game", "macke", "--target", "1000",
                                 "--bots", f"{spec},optimal", "--games", "10", "--seed", "1")
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    # a missing file: what is wrong with the file, not the list of valid bots (issue 35)
    with pytest.raises(BotSpecError, match=r"cannot read policy file .*missing\.json: No such file"
                                           r" or directory$"):
        parse_bot(f"winopt:{tmp_path / 'missing.json'}", RULES)


class _TwoPlayerTwin:
    """Beside each decision of ``bot`` at a table of N, the decision of a
    second ``winopt`` bot shown the game as two players: own score against
    the leader's among the others."""

    def __init__(self, bot, twin):
        self.bot, self.twin, self.name = bot, twin, bot.name
        self.asked = {False: 0, True: 0}  # decisions before and in the last round

    def act(self, d):
        g = d.game
        leader = max(x for q, x in enumerate(g.scores) if q != g.seat)
        view = dataclasses.replace(g, scores=(g.scores[g.seat], leader), seat=0, names=g.names[:2])
        mine = self.bot.act(d)
        assert self.twin.act(dataclasses.replace(d, game=view)) == mine, (d.kind, g.scores, g.seat)
        self.asked[g.last_round] += 1
        return mine


def test_at_three_it_plays_the_two_player_bot_in_the_reduced_game():
    """At a table of three (and four) winopt's decisions are those of the
    two-player bot in the game of its own score against the leader's, its last
    turn (nachwerfen) included; the games run to their end."""
    from tutto_sim.macke.bots import MackeWinOptBot

    for n in (3, 4):
        bots = [_TwoPlayerTwin(MackeWinOptBot(_table()), MackeWinOptBot(_table()))]
        bots += [parse_bot("optimal", RULES)] * (n - 1)
        res = run_tournament(bots, n, 20 * n, 5, GameConfig(RULES), engine="reference")
        assert res.bot_stats()[0].games == 20 * n
        assert min(bots[0].asked.values()) > 5, bots[0].asked
