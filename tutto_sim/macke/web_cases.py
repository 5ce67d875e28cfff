"""Berliner Macke and Volle Lotte situations with the Python answers, for the
JavaScript policy reader's tests (``python -m tutto_sim.web.export``).
"""

from __future__ import annotations

import random
from pathlib import Path


def _dice(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(1, 6)) for _ in range(n))


def macke_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.macke.policy import load_macke_policy
    from tutto_sim.macke.api import TurnView
    from tutto_sim.macke.solver import throw_tables

    pol = load_macke_policy(path)
    m = pol.tables
    t = throw_tables(pol.rules)
    n_all, n_throws = pol.rules.n_dice, pol.rules.throws
    rows = pol.locked_rows
    states = range(len(m.state_dice))
    open_states = [s for s in states if m.state_dice[s] < n_all]
    partial = [s for s in open_states if m.state_dice[s] > 0]
    full = [s for s in states if m.state_dice[s] == n_all]
    rng = random.Random(seed)

    def locked() -> int:  # a turn's first series often, also past the last row
        r = rng.random()
        return 0 if r < 0.4 else rng.randrange(rows + 10 if r < 0.7 else min(rows, 30)) * POINT_UNIT

    cases = []
    for _ in range(n):
        r = rng.random()
        L = locked()
        if r < 0.5 or n_throws < 2:
            j = rng.randint(1, n_throws)
            aside = m.empty if j == 1 else rng.choice(open_states)
            dice = _dice(rng, n_all - int(m.state_dice[aside]))
            ms = t.multiset_of([int(x) for x in dice])
            keeps = m.keep_states[m.keep_start[ms]:m.keep_start[ms + 1]].tolist()
            view = TurnView(L, aside, n_throws - j, j == 1)
            answer = pol.keep(view, ms, keeps) if keeps else None
            cases.append({"q": "keep", "locked": L, "aside": aside, "throw": j, "dice": dice, "answer": answer})
        elif r < 0.7:
            j = rng.randint(2, n_throws)
            aside = rng.choice(partial)
            answer = pol.before_throw(TurnView(L, aside, n_throws - j + 1, False))
            cases.append({"q": "return", "locked": L, "aside": aside, "throw": j, "answer": answer})
        else:
            if rng.random() < 0.2:
                aside, j = rng.choice(full), rng.randint(1, n_throws)
            else:
                aside, j = rng.choice(partial), rng.randint(1, n_throws - 1)
            answer = pol.bank(TurnView(L, aside, n_throws - j, False))
            cases.append({"q": "bank", "locked": L, "aside": aside, "throw": j, "answer": bool(answer)})
    return cases


def macke_win_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.macke.win.table import load_win_table

    table = load_win_table(path)
    rng = random.Random(seed)
    low, high = table.floor - 500, table.target - POINT_UNIT  # below the floor too: held at it
    cases = []
    for _ in range(n):
        if rng.random() < 0.8:
            a, b = (rng.randrange(low, high + 1, POINT_UNIT) for _ in range(2))
            cases.append({"q": "W", "own": a, "other": b, "answer": table.win(a, b)})
        else:
            d = rng.randrange(len(table.last_turn) + 20)
            cases.append({"q": "last", "need": d * POINT_UNIT,
                          "answer": float(table.last_turn[min(d, len(table.last_turn) - 1)])})
    return cases
