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
    from tutto_sim.tutto.win.table import load_win_table

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


def win_turn_cases(path: Path, n: int, seed: int) -> list[dict]:
    """Seeded situations inside a turn with the win-optimal decision of
    ``tutto.win.planner.WinPlanner`` and each option's chance of
    ``tutto.human.WinAdvisor.chances``: keeps (the most points for each number
    of dice), bank or throw on, bank or draw, the Straße, with Plus/Minus Tuttos
    so far and, under ``round``, seat 1's last turn. Only states a turn reaches
    (turn total at least 1000 per Plus/Minus Tutto so far; under x2 per card, card
    points up to the total and within what the card's dice can collect, none
    before the card's first throw). Several situations per turn's scores (a
    programme is solved once per turn, in Python and in JavaScript)."""
    from types import SimpleNamespace

    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.tutto.human import WinAdvisor
    from tutto_sim.tutto.win.table import load_win_table

    table = load_win_table(path)
    rules = table.rules
    adv = WinAdvisor(table)
    pl = adv.planner
    units = rules.target // POINT_UNIT
    st = pl.tables.start
    most = [0]  # the most points (units) d dice can collect before their Tutto
    for d in range(1, 7):
        most.append(max(int(pl.best_pts[ms, k]) + most[d - k] for ms in range(st[d], st[d + 1])
                        for k in range(1, d + 1) if pl.best_pts[ms, k] >= 0))
    rng = random.Random(seed)
    cases: list[dict] = []
    while len(cases) < n:
        seat, own, other = rng.randint(0, 1), rng.randrange(units), rng.randrange(units)
        last = rules.game_end == "round" and rng.random() < 0.2
        if last:  # seat 1's last turn: the leader has reached the target
            seat, other = 1, units + rng.randrange(30)
        pm = rng.choice([0, 0, 0, 1, 2, 3])
        view = SimpleNamespace(seat=seat, last_round=last, turn_start=None,
                               scores=(own * POINT_UNIT, other * POINT_UNIT) if seat == 0
                               else (other * POINT_UNIT, own * POINT_UNIT))
        for _ in range(rng.randint(5, 15)):
            case = _turn_case(rng, adv, view, pm, most)
            if case is not None and len(cases) < n:
                cases.append(case)
    return cases


def _turn_case(rng: random.Random, adv, view, pm: int, most: list[int]) -> dict | None:
    """One situation of :func:`win_turn_cases` in the turn of ``view`` (None: card
    points the card's dice cannot have collected)."""
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.tutto.api import (
        BANK,
        BANK_OR_DRAW,
        BANK_OR_THROW,
        DRAW,
        KEEP,
        STREET,
        THROW,
        Decision,
        Keep,
    )
    from tutto_sim.tutto.cards import Card

    pl = adv.planner
    U = POINT_UNIT
    x2_card = pl.rules.x2_scope == "card"
    lay, _ = pl.where(view, pm)
    t_min = 20 * pm
    T = t_min + rng.randrange(max(lay.tcap - t_min, 0) + (8 if rng.random() < 0.2 else 1))
    sit = {"seat": view.seat, "scores": list(view.scores), "last_round": view.last_round, "pm": pm,
           "total": T * U}
    bankable = [Card(c) for c in range(2, 8)]

    def card_points(card: Card, dice: int) -> int | None:
        if not (card is Card.X2 and x2_card and dice < 6):
            return 0
        cp = rng.randint(1, max(1, min(T, pl.p.cpmax - most[dice])))
        return None if cp > T or cp + most[dice] > pl.p.cpmax else cp

    r = rng.random()
    if r < 0.45:
        card = rng.choice(bankable + [Card.PLUSMINUS, Card.CLOVERLEAF])
        dice = _dice(rng, rng.randint(1, 6))
        cp = card_points(card, len(dice))
        if cp is None:
            return None
        throw = [int(x) for x in dice]
        ms = pl.tables.multiset_of(throw)
        keeps = tuple(Keep((0,) * k, int(pl.best_pts[ms, k]) * U)
                      for k in range(1, len(dice) + 1) if pl.best_pts[ms, k] >= 0)
        second = card is Card.CLOVERLEAF and rng.random() < 0.5
        ans = {"dice": 0, "chances": []}
        if keeps:
            d = Decision(KEEP, keeps, view, card, T * U, cp * U, len(dice), tuple(throw), plusminus_tuttos=pm)
            ans = {"dice": pl.keep_dice(view, card, T * U, cp * U, len(dice), throw, pm),
                   "chances": adv.chances(d, clover_second=second)}
        return {**sit, "q": "turn-keep", "card": card.cli_name, "card_points": cp * U, "throw": dice,
                "clover_second": second, "answer": ans}
    if r < 0.75:
        card, left = rng.choice(bankable), rng.randint(1, 5)
        cp = card_points(card, left)
        if cp is None:
            return None
        d = Decision(BANK_OR_THROW, (BANK, THROW), view, card, T * U, cp * U, left, plusminus_tuttos=pm)
        ans = {"bank": pl.banks(view, card, T * U, cp * U, left, pm), "chances": adv.chances(d)}
        return {**sit, "q": "turn-bank", "card": card.cli_name, "card_points": cp * U, "dice": left,
                "answer": ans}
    if r < 0.9:
        d = Decision(BANK_OR_DRAW, (BANK, DRAW), view, Card.BONUS200, T * U, plusminus_tuttos=pm)
        return {**sit, "q": "turn-tutto",
                "answer": {"bank": pl.banks_after_tutto(view, T * U, pm), "chances": adv.chances(d)}}
    have = rng.randint(0, 5)
    new = rng.randint(1, 6 - have)
    d = Decision(STREET, tuple(Keep((0,) * x, 0) for x in range(1, new + 1)), view, Card.STREET, T * U,
                 dice=6 - have, street_numbers=tuple(range(1, have + 1)), plusminus_tuttos=pm)
    return {**sit, "q": "turn-street", "aside": have, "new": new,
            "answer": {"take": pl.street_take(view, T * U, have, new, pm), "chances": adv.chances(d)}}


def win_n_cases(path: Path, n: int, seed: int) -> list[dict]:
    """Turn starts of an N-player win table (``tutto.win.solve_n``) with each
    player's chance: ``{"seat", "scores", "last_round", "answer"}``, scores in
    points; under ``round`` about a third in the end of the round (someone
    before the mover at or past the target, now and then past the cap)."""
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.tutto.win.table import load_win_table_n

    t = load_win_table_n(path)
    N, units = t.players, t.rules.target // POINT_UNIT
    M = units + t.margin_cap + 1
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        if t.rules.game_end == "round" and rng.random() < 0.35:
            seat = rng.randrange(1, N)
            x = [rng.randrange(M + 5) for _ in range(seat)] + [rng.randrange(units)
                                                               for _ in range(N - seat)]
            k = rng.randrange(seat)
            x[k] = max(x[k], units)  # someone before the mover has reached the target
            row = t.E[(seat,) + tuple(min(v, M - 1) for v in x)]
            last = True
        else:
            seat = rng.randrange(N)
            x = [rng.randrange(units) for _ in range(N)]
            row, last = t.W[(seat,) + tuple(x)], False
        cases.append({"seat": seat, "scores": [v * POINT_UNIT for v in x], "last_round": last,
                      "answer": [float(v) for v in row]})
    return cases
