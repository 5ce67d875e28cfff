"""Reference Berliner Macke / Volle Lotte game: whole games for 1-8 players in plain Python.

Part of the game layer; read beside docs/macke.md and docs/games.md. The
numba game kernel (``macke.game_kernel``) plays the same games and the tests
demand identical results on the same seeds. Any bot with ``act(decision)``
plays here; table and threshold bots (``macke.bots``) also play in the kernel.

Random numbers: game ``i`` of a run with seed ``s`` reads stream ``(s, i)``
(``tutto_sim.core.rng``) for every throw of every turn, in the order they are
made: a throw of n dice is ``r = below(6**n)``, die i showing
``(r // 6**i) % 6 + 1`` (as ``macke.reference``). Nothing else draws from
the stream.

A turn is the turn of ``macke.reference.play_turn`` (docs/macke.md lists every
reading of the rules), with the questions asked of a game-level bot:

- ``return`` before the 2nd and later throw of a series: what stays set aside
  (``legal[0]`` keeps everything);
- ``keep`` after a scoring throw: the units to set aside;
- ``bank-or-throw`` after a keep that leaves dice and throws;
- ``bank-or-series`` after a *clear* (every die set aside): bank, or throw
  all dice again with a fresh series (``THROW``).

The turn's result (docs/macke.md): a turn total ``>= min_score`` is added, a
lower one subtracted; a Macke scores 0 on the turn's first throw and
subtracts the turn total at that moment later (0 with ``bust="zero"``).
Scores may go negative.

Game end: when a player ends a turn at or above the target, each *other*
player gets exactly one more turn (*nachwerfen*), in seat order; nobody
else's reaching the target during it changes anything. Then the highest
score wins; ties share the win (1/k each). Variant ``instant-win``: five 1s
in one throw win the game at once, whatever the scores, also during the
nachwerfen; the turn adds nothing (the loop and the ``max_rounds`` cap: ``dice.game``).

An **illegal action** (an answer not in ``decision.legal``, or an exception)
is reported by the bot's name and counts as a bust: the turn ends as if a
Macke were thrown at that moment, i.e. the current turn total is subtracted
(0 with ``bust="zero"``; the total is 0 before the turn's first keep).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

from tutto_sim.core.api import Bot, IllegalAction, ask
from tutto_sim.core.games import GameRecord
from tutto_sim.dice.api import BANK, BANK_OR_THROW, KEEP, THROW
from tutto_sim.dice.game import DiceGame, InstantWin
from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.reference import state_codec, throw_dice
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.scoring import is_instant_win, legal_keeps, unit_dice, unit_points

#: Decision kinds besides ``keep`` and ``bank-or-throw`` (``dice.api``).
RETURN = "return"  # before the 2nd/3rd throw of a series: what stays set aside
BANK_OR_SERIES = "bank-or-series"  # after a clear: bank, or THROW all dice again (a new series)

END_NACHWERFEN = "nachwerfen"  # someone reached the target, every other player had one more turn
END_INSTANT = "instant-win"  # five 1s (variant instant-win)
END_CAP = "cap"  # max_rounds reached
END_KINDS = (END_NACHWERFEN, END_INSTANT, END_CAP)


class MackeKeep(NamedTuple):
    """Units set aside (a keep of a throw, or what stays aside at a return).

    ``units`` are unit names sorted (``"1"``, ``"5"``, ``"222"``,
    ``"small straight"``, ``"big straight"``, ``"five 1s"`` …), ``dice`` how
    many dice they take, ``points`` what they score (real points).
    """

    units: tuple[str, ...]
    dice: int
    points: int

    def __str__(self) -> str:
        return (" + ".join(self.units) or "nothing") + f" ({self.points})"


@dataclass(frozen=True)
class GameConfig:
    """Rules plus the engine knob that is not a rule."""

    rules: MackeRules = MackeRules()
    #: Safety net: a game ends after this many rounds if nobody reached the target.
    max_rounds: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.rules, MackeRules):
            raise TypeError("GameConfig needs MackeRules")
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be >= 1, not {self.max_rounds}")


@dataclass(frozen=True)
class MackeGameView:
    """The public state of a Macke game at a decision."""

    game: str  # "macke" or "volle-lotte"
    rules: MackeRules
    names: tuple[str, ...]
    scores: tuple[int, ...]  # by seat, real points (may be negative)
    seat: int  # whose turn it is
    turn: int  # turns played before this one (all players)
    round: int  # 0-based; seat 0 starts every round
    finisher: int | None  # the seat that reached the target first (None: nobody yet)

    @property
    def last_round(self) -> bool:
        """The target was reached: this is the player's last turn (nachwerfen)."""
        return self.finisher is not None

    @property
    def my_score(self) -> int:
        return self.scores[self.seat]

    @property
    def best_other(self) -> int | None:
        """The best score of the other players (None at a one-player table)."""
        return max((s for i, s in enumerate(self.scores) if i != self.seat), default=None)


@dataclass(frozen=True)
class MackeDecision:
    """One choice of the player whose turn it is (real points).

    ``turn_total`` is ``locked`` plus the points of the units set aside: for
    ``keep`` before this throw's keep, for ``return`` before the returns, for
    the bank decisions after the keep. ``throws_left`` counts the throws left
    in the series after the throw just made (``keep``, bank decisions) or
    including the coming one (``return``). ``dice`` is the number thrown
    (``keep``) or the number left to throw. ``view``, ``throw_id`` and
    ``options`` are the Macke policy protocol's view of the same decision
    (``macke.api``): ``options[j]`` is the state index of
    ``legal[j]`` (``keep``, ``return``), so policy tables can answer.
    """

    kind: str
    legal: tuple
    game: MackeGameView
    turn_total: int
    locked: int  # points of earlier series of this turn (never returned)
    aside: MackeKeep  # the units set aside in this series (before the keep for ``keep``)
    throws_left: int
    dice: int
    first_throw: bool  # the throw just made / the coming one is the turn's first
    series: int  # 1 + clears so far this turn
    throw: tuple[int, ...] | None = None
    view: TurnView | None = None
    throw_id: int = -1
    options: tuple[int, ...] = ()
    rng: random.Random | None = field(default=None, compare=False, repr=False)

    @property
    def bank_result(self) -> int:
        """What banking now adds to the score: the turn total, or minus it below the minimum."""
        return self.game.rules.result(self.turn_total)


class _Bust(IllegalAction):
    """Raised inside a turn: an illegal action, counted as a Macke at that moment."""

    def __init__(self, message: str, total: int):
        super().__init__(message)
        self.total = total


def _keep_of(units: Counter, rules: MackeRules) -> MackeKeep:
    names = tuple(sorted(units.elements()))
    return MackeKeep(names, sum(unit_dice(rules)[u] for u in names),
                     sum(unit_points(rules)[u] for u in names))


def sub_keeps(units: Counter, rules: MackeRules) -> list[MackeKeep]:
    """What can stay set aside when units go back to the cup (whole units):
    every sub-multiset, keeping everything first, then the most dice."""
    kinds = sorted(units)
    out = []
    for counts in itertools.product(*(range(units[k], -1, -1) for k in kinds)):
        out.append(_keep_of(Counter({k: c for k, c in zip(kinds, counts) if c}), rules))
    return sorted(out, key=lambda k: (-k.dice, -k.points, k.units))


@functools.lru_cache(maxsize=4096)
def throw_keeps(dice: tuple[int, ...], rules: MackeRules) -> tuple[MackeKeep, ...]:
    """Every legal keep of a throw (``macke.scoring``), fewest dice
    first, then fewest points; empty: a Macke."""
    keeps = [_keep_of(Counter(k), rules) for k in legal_keeps(dice, rules)]
    return tuple(sorted(keeps, key=lambda k: (k.dice, k.points, k.units)))


class MackeGame(DiceGame):
    """One game: ``MackeGame(bots, config, seed, index).play()`` -> ``GameRecord``.

    ``bots[j]`` plays seat j. ``GameRecord.banked`` holds the sum of the
    signed turn results by seat (what the turns added to the score), ``end``
    one of :data:`END_KINDS`. ``narrate`` receives one line per event. The loop
    is ``dice.game.DiceGame``'s: the game ends before the finisher's next turn
    (nachwerfen); five 1s (variant instant-win) are its instant win.
    """

    END_FINISHED, END_INSTANT, END_CAP = END_NACHWERFEN, END_INSTANT, END_CAP
    ROUND_END = False
    INSTANT_WIN_WORDS = "throws five 1s and wins at once!"

    def __init__(self, bots: Sequence[Bot], config: GameConfig = GameConfig(), seed: int = 1,
                 index: int = 0, narrate: Callable[[str], None] | None = None):
        super().__init__(bots, config, seed, index, narrate)
        self._codec = state_codec(self.rules)
        self._multisets = build_tables(ScoringRules(6, self.rules.six_of_kind))

    def _bust(self, error: _Bust) -> tuple[int, str]:
        points = 0 if self.rules.bust == "zero" else -error.total
        return points, f"{error}; counted as a bust: {points:+,}"

    def _heading(self, seat: int) -> str:
        return super()._heading(seat) + (" (last turn: nachwerfen)" if self.last_round else "")

    def _reached(self, seat: int) -> None:
        if self.n > 1:
            self.say(f"{self._who(seat)} reached {self.rules.target:,}: every other player "
                     "throws once more")

    # ---- one turn (docs/macke.md) -----------------------------------------
    def _turn(self, seat: int) -> int:
        """Play one turn; return the signed result it adds to the score."""
        rules = self.rules
        n, L = rules.n_dice, rules.throws
        pts, ndice = unit_points(rules), unit_dice(rules)
        locked = 0  # points of earlier series, never returned
        aside: Counter = Counter()  # unit names set aside in this series
        throws_left = L
        throws = 0
        series = 1

        def total() -> int:
            return locked + sum(pts[u] * c for u, c in aside.items())

        def aside_dice() -> int:
            return sum(ndice[u] * c for u, c in aside.items())

        def end(t: int) -> int:
            r = rules.result(t)
            self.say(f"banks {t:,}: {r:+,}" if r >= 0 or t == 0 else
                     f"ends with {t:,}, below {rules.min_score:,}: {r:+,}")
            return r

        while True:
            if throws_left < L:  # not a series' first throw: units may go back
                options = sub_keeps(aside, rules)
                keep = self._ask(seat, RETURN, tuple(options), total(), locked, aside, throws_left,
                                 n - aside_dice(), throws == 0, series,
                                 states=[self._state(o.units) for o in options])
                if keep != options[0]:
                    back = aside - Counter(keep.units)
                    self.say(f"returns {' + '.join(sorted(back.elements()))}; keeps {keep}")
                aside = Counter(keep.units)
            dice = tuple(throw_dice(self.stream, n - aside_dice()))
            throws += 1
            first = throws == 1
            self.say(f"throws {' '.join(map(str, dice))}")
            if is_instant_win(dice, rules):
                raise InstantWin
            keeps = throw_keeps(tuple(sorted(dice)), rules)
            if not keeps:
                at_risk = total()
                lost = 0 if first or rules.bust == "zero" else -at_risk
                self.say(f"Macke: {lost:+,}")
                return lost
            throws_left -= 1
            keep = self._ask(seat, KEEP, keeps, total(), locked, aside, throws_left, len(dice),
                             first, series, throw=dice,
                             states=[self._state(k.units) for k in keeps],
                             throw_id=self._multisets.multiset_of(dice))
            aside += Counter(keep.units)
            left = n - aside_dice()
            self.say(f"sets aside {keep}; turn total {total():,}, "
                     + ("1 die" if left == 1 else f"{left} dice") + " left, "
                     + ("1 throw" if throws_left == 1 else f"{throws_left} throws") + " left")
            if left == 0:  # a clear: bank, or all dice again with a fresh series
                choice = self._ask(seat, BANK_OR_SERIES, (BANK, THROW), total(), locked, aside,
                                   throws_left, 0, first, series)
                if choice == BANK:
                    return end(total())
                locked = total()
                aside = Counter()
                throws_left = L
                series += 1
                self.say(f"clear: throws all {n} dice again, {locked:,} locked")
            elif throws_left == 0:
                return end(total())
            else:
                choice = self._ask(seat, BANK_OR_THROW, (BANK, THROW), total(), locked, aside,
                                   throws_left, left, first, series)
                if choice == BANK:
                    return end(total())

    # ---- helpers -------------------------------------------------------
    def _state(self, units: tuple[str, ...]) -> int:
        return self._codec.state(units)

    def view(self, seat: int) -> MackeGameView:
        return MackeGameView(self.rules.game, self.rules, tuple(b.name for b in self.bots),
                             tuple(self.scores), seat, self.turn, self.turn // self.n,
                             self.finisher)

    def _ask(self, seat: int, kind: str, legal: tuple, turn_total: int, locked: int,
             aside: Counter, throws_left: int, dice: int, first: bool, series: int,
             throw=None, states=(), throw_id: int = -1):
        aside_keep = _keep_of(aside, self.rules)
        view = TurnView(locked, self._state(aside_keep.units), throws_left, first)
        decision = MackeDecision(kind, legal, self.view(seat), turn_total, locked, aside_keep,
                                 throws_left, dice, first, series, throw, view, throw_id,
                                 tuple(states), self.rngs[seat])
        try:
            return ask(self.bots[seat], decision)
        except IllegalAction as e:
            raise _Bust(str(e), turn_total) from None


def play_macke_game(bots: Sequence[Bot], config: GameConfig = GameConfig(), seed: int = 1,
                    index: int = 0, narrate: Callable[[str], None] | None = None) -> GameRecord:
    """Play game ``index`` of a run with ``seed``: stream ``(seed, index)``."""
    return MackeGame(bots, config, seed, index, narrate).play()
