"""Tutto situations with the Python answers, for the JavaScript policy reader's tests
(``python -m tutto_sim.web.export``; the shapes are described there).
"""

from __future__ import annotations

import random
from pathlib import Path


def _dice(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(1, 6)) for _ in range(n))


def tutto_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.dice.throws import build_tables
    from tutto_sim.tutto.cards import Card
    from tutto_sim.tutto.policy import BANKABLE, TUTTO_ONLY, load_policy

    pol = load_policy(path)
    t = build_tables(pol.rules.scoring)
    by_name = {c.cli_name: c for c in Card}
    rows = pol.t_max + 1
    x2_parts = pol.keep_x2p.shape[0] if pol.keep_x2p is not None else 1
    rng = random.Random(seed)

    def total() -> int:  # mostly the totals where decisions change, also past the last row
        return rng.randrange(rows + 10 if rng.random() < 0.3 else min(rows, 30)) * POINT_UNIT

    def card_points(card: str) -> int:
        return rng.randrange(x2_parts + 2) * POINT_UNIT if card == "x2" else 0

    cases = []
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            card = rng.choice([c.cli_name for c in BANKABLE + TUTTO_ONLY])
            dice = _dice(rng, rng.randint(1, 6))
            T, cp = total(), card_points(card)
            ms = t.multiset_of([int(x) for x in dice])
            if card == "x2" and pol.keep_x2p is not None:
                k = int(pol.keep_x2p[min(cp // POINT_UNIT, x2_parts - 1), min(T // POINT_UNIT, pol.t_max), ms])
            else:
                k = int(pol.keep[by_name[card], min(T // POINT_UNIT, pol.t_max), ms])
            answer = None if k == 0 else {"dice": k, "points": int(t.best_pts[ms, k]) * POINT_UNIT}
            cases.append({"q": "keep", "card": card, "total": T, "dice": dice, "card_points": cp, "answer": answer})
        elif r < 0.85:
            card = rng.choice([c.cli_name for c in BANKABLE])
            left, T, cp = rng.randint(1, 5), total(), card_points(card)
            row = min(T // POINT_UNIT, pol.t_max)
            if card == "x2" and pol.bank_x2p is not None:
                b = pol.bank_x2p[min(cp // POINT_UNIT, x2_parts - 1), left, row]
            else:
                b = pol.bank[by_name[card], left, row]
            cases.append({"q": "bank", "card": card, "left": left, "total": T, "card_points": cp, "answer": bool(b)})
        elif r < 0.95:
            T = total()
            cases.append({"q": "draw", "total": T, "answer": bool(pol.draw[min(T // POINT_UNIT, pol.t_max)])})
        else:
            m = rng.randint(0, 5)
            j = rng.randint(1, 6 - m)
            cases.append({"q": "street", "aside": m, "new": j, "answer": int(pol.street_take[m, j])})
    return cases


def win_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.tutto.winprob import load_win_table

    table = load_win_table(path)
    units = table.rules.target // POINT_UNIT
    starts = {}
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        s, a, b = rng.randint(0, 1), rng.randrange(units), rng.randrange(units)
        if rng.random() < 0.1:
            cases.append({"q": "W", "seat": s, "own": a * POINT_UNIT, "other": b * POINT_UNIT,
                          "answer": float(table.W[s, a, b])})
            continue
        if (s, a, b) not in starts:
            starts[s, a, b] = table.turn_start(s, a, b)
        ts = starts[s, a, b]
        T = rng.randrange(ts.tcap + 1 if rng.random() < 0.3 else units - a + 1)
        cases.append({"q": "bank", "seat": s, "own": a * POINT_UNIT, "other": b * POINT_UNIT,
                      "total": T * POINT_UNIT, "answer": float(ts.bank[T])})
    return cases
