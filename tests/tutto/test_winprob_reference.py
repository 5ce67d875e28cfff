"""The fast win solver (tutto.winprob) against the plain-Python reference
solver (tutto.win_reference): written separately from the rules, it tries
every keep and solves by plain value iteration."""

from __future__ import annotations

import numpy as np
import pytest

from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win_reference import reference_win_table
from tutto_sim.tutto.winprob import solve_win


@pytest.mark.parametrize("options", [
    {"game_end": "immediate", "plusminus_deduction": "tutto"},
])
def test_fast_solver_matches_the_reference(options):
    rules = TuttoRules(target=200, **options)
    fast = solve_win(rules, evaluate_ev=False)
    assert np.abs(fast.W - reference_win_table(rules)).max() <= 1e-9
