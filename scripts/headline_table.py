"""The headline results table of docs/solver.md: per-card EV under the optimal
policy, the best threshold policy found by Monte Carlo, and simple baselines.

Every figure is exact (the solver's policy evaluation), including the value of
the threshold policy the Monte Carlo search picked. Usage::

    python scripts/headline_table.py [--seed 1] [--search-turns 500000]
"""

from __future__ import annotations

import argparse

from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.optimize import baseline_rows, optimize_card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import exact_policy_value, solve_tutto
from tutto_sim.tutto.threshold import DEFAULT_POLICY


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-turns", type=int, default=500_000)
    args = ap.parse_args()
    rules = TuttoRules()
    sol = solve_tutto(rules)
    print("| card | optimal | best threshold policy (MC search, keep rule) | bank at 300 | never bank before a Tutto |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for card in Card:
        res = optimize_card(card, rules, turns=10_000, seed=args.seed, search_turns=args.search_turns)
        found = exact_policy_value(DEFAULT_POLICY.with_card(card, res.policy).to_array(), card, rules)
        base = {name: exact_policy_value(DEFAULT_POLICY.with_card(card, row).to_array(), card, rules)
                for name, row in baseline_rows(card).items()}
        b300 = base.get("bank at 300", next(iter(base.values())))
        never = base.get("never bank before a Tutto", next(iter(base.values())))
        keep = f", {res.policy.keep}" if card.can_bank_before_tutto or card in (Card.PLUSMINUS, Card.CLOVERLEAF) else ""
        print(f"| {card.display} | {sol.card_ev[card]:.2f} | {found:.2f}{keep} | {b300:.2f} | {never:.2f} |")
    print(f"| whole turn (random card) | {sol.turn_ev:.2f} | | | |")


if __name__ == "__main__":
    main()
