"""Reference engine: one whole Berliner Macke / Volle Lotte turn in plain Python.

Read beside docs/macke.md (the rules, and every reading of them made
here). It scores the dice itself (``macke.scoring``),
never the keep tables, counts real points, and asks a
:class:`~tutto_sim.macke.api.MackePolicy` what to do, showing it
the protocol's view: set-aside units as state indices of ``macke.tables``
(a keep of the scorer is mapped to its state by unit names, so a disagreement
between the scorer and the tables fails loudly instead of silently).

The random stream is the numba kernel's (``tutto_sim.core.rng``): a throw of n
dice is ``r = below(6**n)`` with die i showing ``(r // 6**i) % 6 + 1``, so for
the same seed both engines see the same dice.

A turn, as played here:

1. A *series* starts with nothing set aside and ``rules.throws`` throws.
2. Before the 2nd and later throw of a series the policy may return units
   (whole) to the cup; then the dice not set aside are thrown.
3. ``instant-win``: five 1s end the turn with ``rules.win_value``.
4. No scoring unit (a *Macke*): on the turn's first throw the turn scores 0;
   later the turn total at that moment (after the returns) is subtracted, or
   0 with ``bust="zero"``.
5. Else the policy sets aside a legal keep. All dice set aside (a *clear*):
   bank, or a new series with the turn total locked. Otherwise, after the
   series' last throw the turn ends; before it the policy banks or goes on.
6. Ending without a Macke, a turn total >= ``min_score`` is added, a lower
   one subtracted.

>>> from tutto_sim.core.rng import Stream
>>> from tutto_sim.macke.rules import MackeRules
>>> from tutto_sim.macke.threshold import MackeThresholdPolicy
>>> rules = MackeRules()
>>> t = play_turn(rules, MackeThresholdPolicy.simple(rules, 300), Stream(1, 0))
>>> t.result == (t.turn_total if t.reached_min else -t.turn_total) or t.macke
True
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from typing import NamedTuple

from tutto_sim.core.rng import Stream
from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.api import MackePolicy, TurnView
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.scoring import Keep, best_keep, is_instant_win, keep_dice, legal_keeps, unit_points
from tutto_sim.macke.tables import MackeTables, build_macke_tables


class TurnResult(NamedTuple):
    result: int  # signed points the turn adds to the score
    turn_total: int  # at the end (a Macke: the total lost; a win: the total before it)
    throws: int
    reached_min: bool  # ended without a Macke or a win, turn total >= min_score
    macke: bool
    clears: int  # times every die was set aside
    won: bool = False  # instant-win: five 1s


def throw_dice(stream: Stream, n: int) -> list[int]:
    r = stream.below(6**n)
    return [(r // 6**i) % 6 + 1 for i in range(n)]


class StateCodec:
    """Units set aside (a keep: sorted unit names) <-> state index of ``macke.tables``."""

    def __init__(self, tables: MackeTables):
        names = [t.name for t in tables.types]
        self.keeps: list[Keep] = []
        for s in range(len(tables.state_dice)):
            counts = tables.state_counts[s]
            self.keeps.append(tuple(sorted(n for n, c in zip(names, counts) for _ in range(int(c)))))
        self.index = {k: s for s, k in enumerate(self.keeps)}

    def state(self, units: Counter | Keep) -> int:
        keep = tuple(sorted(units.elements())) if isinstance(units, Counter) else units
        if keep not in self.index:
            raise KeyError(f"units {keep} are no state of the tables")
        return self.index[keep]

    def units(self, state: int) -> Counter:
        return Counter(self.keeps[state])


@functools.lru_cache(maxsize=16)
def state_codec(rules: MackeRules) -> StateCodec:
    return StateCodec(build_macke_tables(rules))


def play_turn(rules: MackeRules, policy: MackePolicy, stream: Stream) -> TurnResult:
    """Play one turn of ``rules`` under ``policy``, drawing dice from ``stream``."""
    codec = state_codec(rules)
    multisets = build_tables(ScoringRules(6, rules.six_of_kind))
    pts = unit_points(rules)
    n = rules.n_dice
    locked = 0  # points of earlier series, never returned
    aside: Counter = Counter()  # unit names set aside in this series
    throws_left = rules.throws
    throws = 0
    clears = 0

    def total() -> int:
        return locked + sum(pts[u] * c for u, c in aside.items())

    def view(first: bool = False) -> TurnView:
        return TurnView(locked, codec.state(aside), throws_left, first)

    def end(turn_total: int) -> TurnResult:
        return TurnResult(rules.result(turn_total), turn_total, throws,
                          turn_total >= rules.min_score, False, clears)

    while True:
        if throws_left < rules.throws:  # not a series' first throw: returns allowed
            keep = policy.before_throw(view())
            back = codec.units(keep)
            if back - aside:
                raise ValueError(f"before_throw returned state {keep}, not part of what is set aside")
            aside = back
        dice = throw_dice(stream, n - keep_dice(tuple(aside.elements()), rules))
        throws += 1
        first = throws == 1
        if is_instant_win(dice, rules):
            return TurnResult(rules.win_value, total(), throws, False, False, clears, True)
        keeps = legal_keeps(dice, rules)
        if not keeps:  # a Macke
            at_risk = total()
            lost = 0 if first or rules.bust == "zero" else -at_risk
            return TurnResult(lost, at_risk, throws, False, True, clears)
        throws_left -= 1
        options = sorted(codec.state(k) for k in keeps)
        choice = policy.keep(view(first), multisets.multiset_of(dice), options)
        if choice not in options:
            raise ValueError(f"keep {choice} is not legal for the throw {sorted(dice)}")
        aside += codec.units(choice)
        if keep_dice(tuple(aside.elements()), rules) == n:  # a clear
            clears += 1
            if policy.bank(view(first)):
                return end(total())
            locked = total()
            aside = Counter()
            throws_left = rules.throws
        elif throws_left == 0 or policy.bank(view(first)):
            return end(total())


def threshold_policy_value(rules: MackeRules, policy) -> float:
    """Exact expected result of a turn under a ``MackeThresholdPolicy``.

    Enumerates every throw (face multisets with their multinomial weights)
    and recurses over (turn total, dice set aside, throws left, first throw?),
    scoring with ``best_keep`` of the reference scorer: nothing of the
    tables or the kernels is used. A policy that never banks a clear can make
    the turn unbounded, so ``bank_at_clear`` must be a number.
    """
    if policy.bank_at_clear is None:
        raise ValueError("threshold_policy_value needs a finite bank_at_clear")
    n = rules.n_dice

    @functools.lru_cache(maxsize=None)
    def outcomes(dice: int):
        out = []
        for combo in itertools.combinations_with_replacement(range(1, 7), dice):
            ways = math.factorial(dice)
            for f in set(combo):
                ways //= math.factorial(combo.count(f))
            best = best_keep(combo, rules)
            kept = None if best is None else (keep_dice(best[0], rules), best[1])
            out.append((ways / 6**dice, is_instant_win(combo, rules), kept))
        return out

    @functools.lru_cache(maxsize=None)
    def value(at_risk: int, aside_dice: int, throws_left: int, first: bool) -> float:
        # expected result about to throw, with ``at_risk`` the turn total so far
        ev = 0.0
        for p, win, kept in outcomes(n - aside_dice):
            if win:
                ev += p * rules.win_value
                continue
            if kept is None:
                ev += p * (0 if first or rules.bust == "zero" else -at_risk)
                continue
            d = aside_dice + kept[0]
            tot = at_risk + kept[1]
            left = throws_left - 1
            if d == n:
                k = policy.bank_at_clear
                if tot >= k:
                    ev += p * rules.result(tot)
                else:
                    ev += p * value(tot, 0, rules.throws, False)
                continue
            k = policy.threshold(left, n - d)
            if left == 0 or (k is not None and tot >= k):
                ev += p * rules.result(tot)
            else:
                ev += p * value(tot, d, left, False)
        return ev

    return value(0, 0, rules.throws, True)
