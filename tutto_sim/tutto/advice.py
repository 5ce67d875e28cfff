"""Keep advice: the throws where the optimal keep is not "every scoring die".

Part of the solver layer. Reads a :class:`~tutto_sim.tutto.solver.TuttoSolution`
and lists, for a card, a number of dice and a turn total, the throws where
setting aside fewer dice beats setting aside every scoring die, most likely
first, with the value of both choices. This is what ``tutto-sim optimize
--method exact`` prints as "notable throws".
"""

from __future__ import annotations

from dataclasses import dataclass

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.solver import TuttoSolution


_HOW_MANY = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def faces_words(faces: str) -> str:
    """Dice set aside as players say them: "15" -> "a 1 and a 5", "115" ->
    "two 1s and a 5", "5" -> "a 5", "222" -> "three 2s".

    >>> faces_words("15"), faces_words("115"), faces_words("222"), faces_words("1155")
    ('a 1 and a 5', 'two 1s and a 5', 'three 2s', 'two 1s and two 5s')
    """
    from tutto_sim.core.report import join_words

    return join_words([f"{_HOW_MANY[faces.count(f)]} {f}{'s' if faces.count(f) > 1 else ''}"
                       for f in sorted(set(faces))])


@dataclass(frozen=True)
class KeepAdvice:
    throw: str  # sorted faces, e.g. "123456"
    probability: float  # of this throw (as a multiset) with that many dice
    best: tuple[int, str, int]  # (dice, faces set aside, points)
    all_scoring: tuple[int, str, int]
    value_best: float  # expected banked points after the best keep
    value_all: float  # ... after setting aside every scoring die


def keep_advice(sol: TuttoSolution, card: Card, dice: int, turn_total: int,
                top: int = 8) -> list[KeepAdvice]:
    """Throws of ``dice`` dice where the optimal keep sets aside fewer dice than
    all scoring ones, under ``card`` at ``turn_total`` (real points, before
    the throw); the ``top`` most likely."""
    from tutto_sim.tutto.policy import best_keep_dice, throw_names

    t = build_tables(sol.rules.scoring)
    names = throw_names(t)
    out = []

    def choice(ms: int, k: int) -> tuple[int, str, int]:
        pts = int(t.best_pts[ms, k])
        return k, best_keep_dice(names[ms], k, pts, sol.rules.scoring), pts * POINT_UNIT

    for ms in t.ids(dice):
        legal = [k for k in range(1, dice + 1) if t.best_pts[ms, k] >= 0]
        if not legal:
            continue
        v = sol.keep_values(card, ms, turn_total)
        k_best, _ = sol.best_keep(card, ms, turn_total)
        k_all = max(legal)
        if k_best == k_all:
            continue
        scale = 1.0 if card in (Card.PLUSMINUS, Card.CLOVERLEAF) else POINT_UNIT
        out.append(KeepAdvice(names[ms], float(t.prob[ms]), choice(ms, k_best), choice(ms, k_all),
                              float(v[k_best]) * scale, float(v[k_all]) * scale))
    out.sort(key=lambda a: (-a.probability, a.throw))
    return out[:top]
