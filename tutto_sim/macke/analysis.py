"""Berliner Macke's and Volle Lotte's own analysis: the 300-point rule, the game
solved exactly for a list of minimum scores and both bust rules
(``tutto-sim explore``, ``macke.analysis_cli``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import NEVER, solve_macke


def _th(v) -> float:
    return float("nan") if v >= NEVER else float(v)


def explore_macke(rules_base: MackeRules = MackeRules(),
                  min_scores: Sequence[int] = (0, 100, 200, 300, 400, 500),
                  busts: Sequence[str] = ("subtract", "zero"),
                  returns: bool = False):
    """Exact optimal play for each minimum score and bust rule: one row each.

    Columns: ``min_score``, ``bust``, ``ev`` (exact expected signed result,
    points), ``p_positive``, ``p_negative``, ``p_zero``, ``mean_throws``,
    ``mean_returns``, ``clear_bank_at`` (after a clear bank iff the total is
    at least this), ``bank_t{tl}_d{d}`` (bank thresholds with ``tl`` throws
    and ``d`` dice left; NaN: never), ``bank_exceptions`` (how many
    (state, total range) exceptions the thresholds have) and, with
    ``returns=True``, ``ev_no_returns`` (the best play that never returns a
    unit) and ``value_of_returns``. All values are exact.

    >>> df = explore_macke(min_scores=(0, 300), busts=("subtract",))
    >>> list(df["min_score"]), bool(df["ev"].iloc[0] > df["ev"].iloc[1])
    ([0, 300], True)
    """
    import pandas as pd

    records = []
    for bust in busts:
        for k in min_scores:
            rules = replace(rules_base, min_score=int(k), bust=bust)
            sol = solve_macke(rules)
            rec = {"min_score": int(k), "bust": bust, "ev": sol.turn_ev,
                   "p_positive": sol.p_positive, "p_negative": sol.p_negative,
                   "p_zero": sol.p_zero, "mean_throws": sol.mean_throws,
                   "mean_returns": sol.mean_returns, "clear_bank_at": _th(sol.clear_bank_at)}
            for tl in range(1, rules.throws):
                for d in range(1, rules.n_dice):
                    rec[f"bank_t{tl}_d{d}"] = _th(sol.bank_threshold[tl, d])
            rec["bank_exceptions"] = len(sol.bank_exceptions)
            if returns:
                no = solve_macke(rules, allow_returns=False)
                rec["ev_no_returns"] = no.turn_ev
                rec["value_of_returns"] = sol.turn_ev - no.turn_ev
            records.append(rec)
    return pd.DataFrame.from_records(records)
