"""Rutsmieter positions with the Python answers, for the JavaScript policy
reader's tests (``python -m tutto_sim.web.export``).
"""

from __future__ import annotations

import random
from pathlib import Path


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
    leaves a choice of at least two legal moves. The answer is the move of the
    file's weight set for the table size (``WeightsPolicy.at``) with every
    move's features (``policy.move_features``): ``{"move", "features"}``."""
    from tutto_sim.rutsmieter.policy import load_weights_policy, move_features
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
            "answer": {"move": pol.at(rules).choose(obs),
                       "features": [list(move_features(board, player, mv)) for mv in moves]}})
    return cases
