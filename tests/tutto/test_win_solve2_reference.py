"""The fast win solver (tutto.win.solve2) against the plain-Python reference
solver (tutto.win.reference): written separately from the rules, it tries
every keep and solves by plain value iteration."""

from __future__ import annotations

import numpy as np
import pytest

from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.reference import reference_p_first_wins_ev, reference_win_table, reference_win_vs_ev
from tutto_sim.tutto.win.solve2 import solve_win


@pytest.mark.parametrize("options", [
    {"game_end": "immediate", "plusminus_deduction": "tutto"},
])
def test_fast_solver_matches_the_reference(options):
    rules = TuttoRules(target=200, **options)
    fast = solve_win(rules)
    assert np.abs(fast.W - reference_win_table(rules)).max() <= 1e-9
    # the EV-optimal player, which the fast solver follows by its turn's
    # outcome distribution, and the reference by a programme per state
    assert fast.p_first_wins_ev == pytest.approx(reference_p_first_wins_ev(rules), abs=1e-9)
    assert fast.win_vs_ev == pytest.approx(reference_win_vs_ev(rules), abs=1e-9)


def test_fast_solver_matches_the_reference_when_the_round_is_finished():
    """Under ``round`` both follow the player who reached the target up to the
    cap past it and count a score past the cap as the cap: the same table
    (measured: 6.6e-14 at target 150 with the fast solver's default cap, 40
    units; the reference's own default is 80)."""
    rules = TuttoRules(target=150)
    fast = solve_win(rules, evaluate_ev=False)
    assert np.abs(fast.W - reference_win_table(rules, lead_cap=fast.margin_cap)).max() <= 1e-9
