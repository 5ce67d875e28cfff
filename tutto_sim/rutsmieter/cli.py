"""Rutsmieter's handlers of the shared commands: ``solve --solo`` (the exact
expected throws of one player alone, ``rutsmieter.solo``) and ``solve --duel``
(two players with one piece each, ``rutsmieter.duel``)."""

from __future__ import annotations

import json

from tutto_sim.core.cli import UserError, out

from .rules import RutsmieterRules


def rutsmieter_solve(rules: RutsmieterRules, as_json: bool = False, cap=None,
                     solo: bool = False, duel: bool = False) -> None:
    """``tutto-sim solve --game rutsmieter --solo [--json]``: expected throws for
    one player alone to bring all four pieces home, under ``first`` and under
    the throw-minimising policy; ``--duel``: two players with one piece each
    (:func:`duel_solve`). Refuses what plays no part."""
    if solo and duel:
        raise UserError("--solo and --duel are two different games: give one of them")
    if not (solo or duel):
        raise UserError("Rutsmieter is solved exactly for one player alone (--solo) or for two "
                        "players with one piece each (--duel): add one of them")
    if cap is not None:
        raise UserError("--cap does not apply to --game rutsmieter")
    if duel:
        duel_solve(rules, as_json)
        return
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


#: House rules that play no part with one piece each, and why (docs/rutsmieter.md).
_IDLE_IN_DUEL = (
    ("--must-leave-house", lambda r: not r.must_leave_house, "a throw never leaves a choice"),
    ("--must-capture", lambda r: not r.must_capture, "a throw never leaves a choice"),
    ("--goal-no-jump", lambda r: r.goal_no_jump, "no own piece to jump over"),
    ("--play-to-third", lambda r: r.play_to_third, "two players: the first winner ends the game"),
)


def duel_solve(rules: RutsmieterRules, as_json: bool = False) -> None:
    """``tutto-sim solve --game rutsmieter --duel [--json]``: the exact chances
    of the first and second player and the expected throws of a game of two
    players with one piece each, by value iteration, checked by a linear solve."""
    for flag, changed, why in _IDLE_IN_DUEL:
        if changed(rules):
            raise UserError(f"{flag} plays no part with one piece each ({why}); leave it out")
    import numpy as np

    from .duel import TOL, solve_duel, solve_duel_direct

    res = solve_duel(rules)
    direct = float(np.abs(solve_duel_direct(res.chain) - res.values).max())
    if as_json:
        print(json.dumps({
            "game": "rutsmieter", "duel": True, "players": 2, "pieces": 1,
            "p_first_wins": res.p_first_wins, "p_second_wins": res.p_second_wins,
            "expected_throws": res.expected_throws, "states": res.states,
            "iterations": res.iterations, "residual": res.residual, "tolerance": TOL,
            "direct_max_difference": direct, "seconds": res.seconds,
            "rules": {k: getattr(rules, k) for k in ("must_leave_house", "must_capture",
                                                     "goal_no_jump", "play_to_third")},
            "method": "exact Markov chain over both pieces, the player to throw and the "
                      "three-throws tries; value iteration to the tolerance, checked by a "
                      "direct linear solve (direct_max_difference); every throw counts",
        }, indent=2))
        return
    out.print("[bold]Rutsmieter, two players with one piece each[/bold] (exact; the house "
              "rules play no part)")
    out.print(f"  first player wins:    {res.p_first_wins:.6%}")
    out.print(f"  second player wins:   {res.p_second_wins:.6%}")
    out.print(f"  throws in a game:     {res.expected_throws:.5f} on average")
    out.print(f"  {res.states:,} game states, {res.iterations} rounds of value iteration (last "
              f"change {res.residual:.1e}); a direct solve agrees to {direct:.1e}")
