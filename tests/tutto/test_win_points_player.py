"""The points player of the win solvers is passed in (``opponent``), not read
by the solver: the default is the ``optimal`` bot's table; another table of
the same rules gives its own ``win_vs_ev``, which the game kernel's games of
``winopt`` against that table (``table:FILE``) confirm; a table of other rules
is refused, naming the field."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tutto_sim.core.blocks import SHARE
from tutto_sim.core.stats import Z95, Estimate, family_z
from tutto_sim.core.tournament import kernel_batch, make_lineups
from tutto_sim.tutto.bots import WinOptBot, parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.game_kernel import TuttoGameKernel
from tutto_sim.tutto.policy import optimal_policy
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.solve2 import solve_win
from tutto_sim.tutto.win.solve_n import checkpoint_key, solve_win_n
from tutto_sim.tutto.win.table import WinTable

pytestmark = pytest.mark.usefixtures("in_tmp_dir")

RULES = TuttoRules(target=300)


def _bank_at_100(pol):
    """The optimal table, but banking as soon as the turn holds 100 points
    (and after a Tutto from 100 on): a weaker points player (its file's summary
    stays the optimal table's: the bot plays the arrays)."""
    bank, draw = pol.bank.copy(), pol.draw.copy()
    bank[:, :, 2:] = True
    draw[2:] = False
    return dataclasses.replace(pol, bank=bank, draw=draw)


def test_the_optimal_table_passed_in_is_the_default():
    opt = optimal_policy(RULES)
    a, b = solve_win(RULES), solve_win(RULES, opponent=opt)
    assert np.array_equal(a.W, b.W)
    assert a.win_vs_ev_seats == b.win_vs_ev_seats and a.p_first_wins_ev == b.p_first_wins_ev
    c, d = solve_win_n(RULES, 3), solve_win_n(RULES, 3, opponent=opt)
    assert np.array_equal(c.W, d.W) and c.win_vs_ev == d.win_vs_ev and c.p_wins_ev == d.p_wins_ev
    # its checkpoint is the default's; another points player's is another solve's
    assert checkpoint_key(RULES, 3, 40, 1e-12) == checkpoint_key(RULES, 3, 40, 1e-12, None)
    assert checkpoint_key(RULES, 3, 40, 1e-12, _bank_at_100(opt)) != checkpoint_key(
        RULES, 3, 40, 1e-12)


def test_another_points_player_wins_as_the_kernel_plays_it(in_tmp_dir):
    opt = optimal_policy(RULES)
    weak = _bank_at_100(opt)
    base = solve_win(RULES)
    sol = solve_win(RULES, opponent=weak)
    assert np.array_equal(sol.W, base.W)  # the win player's table does not look at it
    path = weak.write(in_tmp_dir / "bank100.json")
    iid = dataclasses.replace(RULES, deck="iid")
    win = WinOptBot(WinTable(base.rules, base.W, base.last_turn_table, base.margin_cap,
                             base.summary())).table()
    table = parse_bot(f"table:{path}", iid).table()
    games = 200_000
    # game i: winopt in seat i % 2, the table bot in the other
    res = kernel_batch(TuttoGameKernel(GameConfig(iid), [win, table]), 41, 0, games,
                       make_lineups(2, 2))
    z = family_z(2)
    for s in (0, 1):
        x = res.share[s::2, s].astype(np.float64) / SHARE
        e = Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))
        e = Estimate(e.mean, e.ci95 / Z95 * z, e.n)
        assert e.contains(sol.win_vs_ev_seats[s]), (s, str(e), sol.win_vs_ev_seats)
        # the check can fail: against the optimal points player it wins less
        assert not e.contains(base.win_vs_ev_seats[s]), (s, str(e), base.win_vs_ev_seats)


def test_a_points_player_of_other_rules_is_refused():
    other = optimal_policy(TuttoRules(six_of_kind="one-triple"))
    with pytest.raises(ValueError, match="six_of_kind"):
        solve_win(RULES, opponent=other)
    with pytest.raises(ValueError, match="six_of_kind"):
        solve_win_n(RULES, 3, opponent=other)
