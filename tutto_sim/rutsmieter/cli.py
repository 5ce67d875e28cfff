"""Rutsmieter's handlers of the shared commands: ``solve --solo`` (the exact
expected throws of one player alone, ``rutsmieter.solo``)."""

from __future__ import annotations

import json

from tutto_sim.core.cli import UserError, out

from .rules import RutsmieterRules


def rutsmieter_solve(rules: RutsmieterRules, as_json: bool = False, cap=None,
                     solo: bool = False) -> None:
    """``tutto-sim solve --game rutsmieter --solo [--json]``: expected throws for
    one player alone to bring all four pieces home, under ``first`` and under
    the throw-minimising policy. Refuses what plays no part alone."""
    if not solo:
        raise UserError("Rutsmieter is solved exactly for one player alone: add --solo")
    if cap is not None:
        raise UserError("--cap does not apply to --game rutsmieter")
    if not rules.must_capture:
        raise UserError("--must-capture plays no part in the solo game (nobody to capture); leave it out")
    if rules.play_to_third:
        raise UserError("--play-to-third plays no part in the solo game (one player); leave it out")
    from .solo import solo_expected_throws

    res = solo_expected_throws(rules)
    used = {"must_leave_house": rules.must_leave_house, "goal_no_jump": rules.goal_no_jump}
    if as_json:
        print(json.dumps({
            "game": "rutsmieter", "solo": True, "players": 1, "pieces": res.pieces,
            "expected_throws_first": res.first, "expected_throws_optimal": res.optimal,
            "rules": used,
            "method": "exact Markov chain over placements, solved in order of decreasing "
                      "position sum; every throw counts, rethrows after 6s included",
        }, indent=2))
        return
    on = {True: "on", False: "off"}
    out.print(f"[bold]Rutsmieter alone[/bold]: expected throws to bring all {res.pieces} pieces "
              f"home (must leave the house {on[rules.must_leave_house]}, no jumping in the "
              f"goal lane {on[rules.goal_no_jump]})")
    out.print(f"  first (furthest piece):    {res.first:.5f}")
    out.print(f"  fewest throws (optimal):   {res.optimal:.5f}")
