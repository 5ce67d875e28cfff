"""Sampled situations with the Python answers, for the JavaScript policy reader's tests.

``export_cases(game, policy, n, seed)`` draws ``n`` situations of one game
(seeded: the same seed gives the same situations) and answers each with the
Python loaders (``tutto.policy.load_policy``, ``macke.policy.load_macke_policy``,
``rutsmieter.policy.load_weights_policy``, ``tutto.winprob.load_win_table``).
``tests/web/driver.mjs`` answers the same situations with ``policy.mjs``, and
``tests/web/test_policy_js.py`` requires the answers to be identical.

The situations, by game (one JSON object each, ``q`` names the question):

* Tutto: ``keep`` (card, turn total before the throw, the dice, the x2 card's
  points) -> ``{"dice": k, "points": p}`` or null for a Niete; ``bank`` (card,
  dice left, turn total after setting aside, card points) -> bool; ``draw``
  (turn total) -> bool; ``street`` (numbers aside, new numbers showing) -> int.
  The points of a keep come from the throw tables (``ThrowTables.best_pts``),
  not from the file's ``keeps``.
* Macke / Volle Lotte: ``keep`` (locked points, the set-aside state, the throw
  of the series, the dice) -> the keep state or null for a Macke; ``return``
  -> the state kept aside; ``bank`` -> bool (a full state: the clear table).
* Rutsmieter: random positions at 2, 3 and 4 players with a choice of at
  least two legal moves -> the index of the move the weights choose.
* Macke / Volle Lotte win table: ``W`` (own, other; also below the floor)
  -> ``MackeWinTable.win``; ``last`` (points needed) -> ``last_turn``.
* Tutto win table: ``bank`` (seat, own score, other score, turn total) -> the
  chance after banking, ``TurnStart.bank`` of the win programme's first layer;
  ``W`` (seat, own, other) -> the table's value.

Usage: ``python -m tutto_sim.web.export --game tutto --n 10000 --seed 1 --out cases.json``
(``--policy FILE``: another file than the shipped one; required for the win tables).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

GAMES = ("tutto", "macke", "volle-lotte", "rutsmieter", "tutto-win", "macke-win")


def default_policy(game: str) -> Path:
    """The shipped policy file of ``game`` (``data/policies/GAME-default.json``)."""
    from tutto_sim.core.bots import POLICY_DIR

    if game.endswith("-win"):
        raise ValueError("the win table has no shipped file: pass one (tutto-sim solve --objective win --out FILE)")
    return POLICY_DIR / f"{game}-default.json"


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


def macke_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.macke.policy import load_macke_policy
    from tutto_sim.macke.protocol import TurnView
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


def random_board(rng: random.Random, seats, on_ring: float = 0.55):
    """A random Rutsmieter position: each piece in the goal lane (at most two a
    player, distinct squares), on a free ring square (chance ``on_ring``) or in
    the house."""
    from tutto_sim.rutsmieter.reference import Board
    from tutto_sim.rutsmieter.rules import FIRST_GOAL, GOAL_LANE, HOUSE, PIECES, RING

    board = Board.start(seats)
    taken = set()  # ring squares
    for p in range(len(seats)):
        goal = rng.sample(range(FIRST_GOAL, FIRST_GOAL + GOAL_LANE), rng.randint(0, 2))
        pieces = [HOUSE] * PIECES
        for k in range(PIECES):
            r = rng.random()
            if goal and r < 0.2:
                pieces[k] = goal.pop()
            elif r < 0.2 + on_ring:
                x = rng.randrange(RING)
                if board.ring_square(p, x) not in taken:
                    taken.add(board.ring_square(p, x))
                    pieces[k] = x
        board.pieces[p] = pieces
    return board


def rutsmieter_cases(path: Path, n: int, seed: int) -> list[dict]:
    """Random positions (pieces in the house, on distinct ring squares and in the
    goal lane) at 2-4 players under random house rules, kept when the throw
    leaves a choice of at least two legal moves."""
    from tutto_sim.rutsmieter.policy import load_weights_policy
    from tutto_sim.rutsmieter.reference import Observation, legal_moves
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    pol = load_weights_policy(path)
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        rules = RutsmieterRules(players=rng.choice((2, 3, 4)), must_leave_house=rng.random() < 0.8,
                                must_capture=rng.random() < 0.8, goal_no_jump=rng.random() < 0.3)
        board = random_board(rng, rules.seats)
        player, die = rng.randrange(len(rules.seats)), rng.randint(1, 6)
        moves = legal_moves(board, player, die, rules)
        if len(moves) < 2:  # no choice to make
            continue
        obs = Observation(rules.seats, tuple(map(tuple, board.pieces)), player, die, tuple(moves))
        cases.append({
            "q": "move", "seats": list(obs.seats), "pieces": [list(q) for q in obs.pieces],
            "player": player, "die": die,
            "moves": [{"piece": mv.piece, "start": mv.start, "end": mv.end,
                       "victim": list(mv.victim) if mv.victim is not None else None} for mv in moves],
            "answer": pol.choose(obs)})
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


def macke_win_cases(path: Path, n: int, seed: int) -> list[dict]:
    from tutto_sim.dice.scoring import POINT_UNIT
    from tutto_sim.macke.winprob import load_win_table

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


def export_cases(game: str, policy: Path | str | None, n: int, seed: int) -> dict:
    """``n`` situations of ``game`` drawn with ``seed``, each with the Python answer."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; valid: {', '.join(GAMES)}")
    path = Path(policy) if policy is not None else default_policy(game)
    make = {"tutto": tutto_cases, "macke": macke_cases, "volle-lotte": macke_cases,
            "rutsmieter": rutsmieter_cases, "tutto-win": win_cases, "macke-win": macke_win_cases}[game]
    reader = {"volle-lotte": "macke"}.get(game, game)
    return {"game": reader, "policy": str(path), "seed": seed, "cases": make(path, n, seed)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tutto_sim.web.export", description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=GAMES)
    ap.add_argument("--n", type=int, default=10_000, help="situations (default 10,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default=None, help="policy file (default: the shipped one)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error(f"--n must be a positive number of situations, not {args.n}")
    from tutto_sim.core.policyfile import PolicyFileError

    try:
        doc = export_cases(args.game, args.policy, args.n, args.seed)
    except (PolicyFileError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(doc['cases']):,} {args.game} situations (seed {args.seed}) with the Python answers "
          f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
