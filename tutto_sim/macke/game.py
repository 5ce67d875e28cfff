"""Reference Berliner Macke / Volle Lotte game: whole games for 1-8 players in plain Python.

Part of the game layer; read beside docs/macke.md and docs/games.md. The
numba game kernel (``game.macke_kernel``) plays the same games and the tests
demand identical results on the same seeds. Any bot with ``act(decision)``
plays here; table and threshold bots (``game.bots``) also play in the kernel.

Random numbers: game ``i`` of a run with seed ``s`` reads stream ``(s, i)``
(``tutto_sim.core.rng``) for every throw of every turn, in the order they are
made: a throw of n dice is ``r = below(6**n)``, die i showing
``(r // 6**i) % 6 + 1`` (as ``reference.macke``). Nothing else draws from
the stream.

A turn is the turn of ``reference.macke.play_turn`` (docs/macke.md lists every
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
nachwerfen; the turn adds nothing. A game that reaches ``max_rounds`` rounds
with nobody at the target ends there (a safety net, not a rule).

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
from tutto_sim.core.games import GameRecord, bot_rng, game_over
from tutto_sim.core.play import TerminalPlayer
from tutto_sim.core.rng import Stream
from tutto_sim.dice.api import BANK, BANK_OR_THROW, KEEP, THROW
from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.protocol import TurnView
from tutto_sim.macke.reference import _codec, throw_dice
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.scoring import is_instant_win, legal_keeps, unit_dice, unit_points

#: Decision kinds besides ``keep`` and ``bank-or-throw`` (``game.api``).
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
    (``policy.macke_protocol``): ``options[j]`` is the state index of
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


class _InstantWin(Exception):
    """Raised inside a turn: five 1s in one throw (variant instant-win)."""


class _Bust(Exception):
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
    """Every legal keep of a throw (``reference.macke_scoring``), fewest dice
    first, then fewest points; empty: a Macke."""
    keeps = [_keep_of(Counter(k), rules) for k in legal_keeps(dice, rules)]
    return tuple(sorted(keeps, key=lambda k: (k.dice, k.points, k.units)))


class MackeGame:
    """One game: ``MackeGame(bots, config, seed, index).play()`` -> ``GameRecord``.

    ``bots[j]`` plays seat j. ``GameRecord.banked`` holds the sum of the
    signed turn results by seat (what the turns added to the score), ``end``
    one of :data:`END_KINDS`. ``narrate`` receives one line per event.
    """

    def __init__(self, bots: Sequence[Bot], config: GameConfig = GameConfig(), seed: int = 1,
                 index: int = 0, narrate: Callable[[str], None] | None = None):
        if not 1 <= len(bots) <= 8:
            raise ValueError(f"a game needs 1-8 players, not {len(bots)}")
        self.bots = list(bots)
        self.config = config
        self.rules = config.rules
        self.n = len(bots)
        self.stream = Stream(seed, index)
        self.scores = [0] * self.n
        self.rngs = [bot_rng(seed, index, j) for j in range(self.n)]
        self.turn = 0
        self.finisher: int | None = None
        self.say = narrate or (lambda text: None)
        self._codec = _codec(self.rules)
        self._multisets = build_tables(ScoringRules(6, self.rules.six_of_kind))

    # ---- the game -------------------------------------------------------
    def play(self) -> GameRecord:
        n, target = self.n, self.rules.target
        banked, banked_sq, turns_by_seat, errors = [0] * n, [0] * n, [0] * n, []
        end, winners = END_CAP, None
        while True:
            seat = self.turn % n
            if self.finisher is not None and seat == self.finisher:
                end = END_NACHWERFEN  # every other player had his one more turn
                break
            if self.finisher is None and seat == 0 and self.turn >= self.config.max_rounds * n:
                break
            self.say(f"-- {self._who(seat)}: turn {self.turn // n + 1}, score {self.scores[seat]:,}"
                     + (" (last turn: nachwerfen)" if self.finisher is not None else ""))
            try:
                points = self._turn(seat)
            except _InstantWin:
                points = 0
                winners, end = (seat,), END_INSTANT
            except _Bust as e:
                points = 0 if self.rules.bust == "zero" else -e.total
                errors.append((seat, str(e)))
                self.say(f"{e}; counted as a bust: {points:+,}")
            self.turn += 1
            turns_by_seat[seat] += 1
            banked[seat] += points
            banked_sq[seat] += points * points
            if winners is not None:
                self.say(f"{self._who(seat)} throws five 1s and wins at once!")
                break
            self.scores[seat] += points
            if self.finisher is None and self.scores[seat] >= target:
                self.finisher = seat
                if n > 1:
                    self.say(f"{self._who(seat)} reached {target:,}: every other player throws once more")
        return game_over(self, winners, end, banked, banked_sq, turns_by_seat, errors)

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
                raise _InstantWin
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

    def _who(self, seat: int) -> str:
        return f"seat {seat} ({self.bots[seat].name})"

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


# ---- a human at the terminal -------------------------------------------------------


def _n(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class MackeAdvisor:
    """The optimal turn policy's value of every choice at a Macke decision: the
    expected signed result of the turn after that choice, the rest of the turn
    played optimally (``solve.macke_dp.MackeSolution`` values; turn analysis,
    not the chance to win the game). :meth:`best` breaks ties as the solver
    does, so following it is playing the ``optimal`` table."""

    def __init__(self, rules: MackeRules):
        from tutto_sim.macke.bots import macke_turn_rules
        from tutto_sim.macke.solver import solve_macke
        from tutto_sim.macke.tables import build_macke_tables

        self.rules = macke_turn_rules(rules)
        self.sol = solve_macke(self.rules)
        self.tables = build_macke_tables(self.rules)

    def _r(self, t: int) -> float:
        return float(t if t >= self.rules.min_score // 50 else -t)

    def _after_keep(self, t0: int, u2: int, left: int) -> float:
        m, sol, cap = self.tables, self.sol, self.sol.cap_units
        t = t0 + int(m.state_pts[u2])
        if int(m.state_dice[u2]) == self.rules.n_dice:  # a clear
            return float(sol.clear_value[t]) if t < cap else self._r(t)
        if left == 0 or t0 >= cap:
            return self._r(t)
        return max(self._r(t), float(sol.before_value[t0, left, u2]))

    def values(self, d: MackeDecision) -> list[float]:
        """One value per legal action (real points)."""
        m, sol, cap = self.tables, self.sol, self.sol.cap_units
        t0, u, t = d.locked // 50, d.view.aside, d.turn_total // 50
        if d.kind == KEEP:
            vals = [self._after_keep(t0, int(m.add[u, s]), d.throws_left) for s in d.options]
        elif d.kind == RETURN:
            vals = [float(sol.throw_value[min(t0, cap - 1), d.throws_left, s]) for s in d.options]
        elif d.kind == BANK_OR_THROW:
            on = float(sol.before_value[t0, d.throws_left, u]) if t0 < cap else self._r(t)
            vals = [self._r(t), on]
        elif d.kind == BANK_OR_SERIES:
            on = float(sol.throw_value[t, self.rules.throws, m.empty]) if t < cap else self._r(t)
            vals = [self._r(t), on]
        else:
            raise ValueError(f"no advice for a {d.kind} decision")
        return [v * 50 for v in vals]

    def explain(self, d: MackeDecision, vals: list[float], best: int) -> list[str]:
        """Why, in words, where the advice rests on a rule a player may not see:
        ties between choices, and returning every unit (docs/macke.md)."""
        lines = []
        top = vals[best]
        ties = sum(abs(v - top) < 1e-6 for v in vals)
        free = "the turn total drops to 0, so a Macke on that throw costs nothing" if not d.locked \
            else f"the turn total drops to the {d.locked:,} locked by earlier series"
        if d.kind == KEEP and ties > 1:
            t0 = d.locked // 50
            restart = (float(self.sol.throw_value[min(t0, self.sol.cap_units - 1), d.throws_left,
                                                  self.tables.empty]) * 50
                       if d.throws_left > 0 else None)
            if restart is not None and abs(restart - top) < 1e-6:
                lines.append(f"{ties} keeps are worth the same: whichever you set aside, the best "
                             "next step is to return every unit and throw all dice again, "
                             f"which the rules allow before the next throw ({free})")
            else:
                lines.append(f"{ties} keeps are worth the same: the rest of the turn, played "
                             "at its best, is worth the same after each of them")
        elif d.kind == RETURN and d.legal[best] != d.legal[0] and not d.legal[best].units:
            lines.append(f"returning everything pays here: you may put every set-aside unit back "
                         f"before this throw; {free}")
        elif ties > 1:
            lines.append(f"{ties} choices are worth the same: either is optimal")
        return lines

    def best(self, d: MackeDecision) -> int:
        """Index of the best action; ties as the solver: the first keep in table
        order, returning the least, banking."""
        vals = self.values(d)
        top = max(vals)
        best = [j for j, v in enumerate(vals) if v == top]
        if d.kind == KEEP:
            return min(best, key=lambda j: d.options[j])
        if d.kind == RETURN:
            dice = self.tables.state_dice
            return min(best, key=lambda j: (-int(dice[d.options[j]]), d.options[j]))
        return best[0]


class MackeHumanBot(TerminalPlayer):
    """A player who answers at the terminal: numbered choices, ``?`` shows
    :class:`MackeAdvisor`'s values (``advisor``, or None), and with ``win`` (a
    ``macke.winprob.WinPlanner``, two players) each choice's chance to win;
    ``q`` leaves (``core.play.QuitGame``)."""

    win = None

    @staticmethod
    def label(d: MackeDecision, a) -> str:
        if d.kind == KEEP:
            return f"set aside {a}"
        if d.kind == RETURN:
            if a == d.legal[0]:
                return "return nothing"
            if not a.units:
                return f"return everything (throw all {d.game.rules.n_dice} dice)"
            back = Counter(d.aside.units) - Counter(a.units)
            return f"return {' + '.join(sorted(back.elements()))}, keep {a}"
        if a == BANK:
            return "bank"
        return f"throw all {d.game.rules.n_dice} dice again" if d.kind == BANK_OR_SERIES else "throw on"

    def _header(self, d: MackeDecision) -> None:
        g = d.game
        scores = ", ".join(f"{n} {s:,}" for n, s in zip(g.names, g.scores))
        head = f"turn total {d.turn_total:,}" + (f" ({d.locked:,} locked)" if d.locked else "")
        head += f"; scores: {scores}"
        if g.last_round:
            head += f"; your last turn (target {g.rules.target:,} reached)"
        self.write(head)
        L = g.rules.throws
        if d.kind == KEEP:
            self.write(f"your throw ({L - d.throws_left} of {L} in this series): "
                       + " ".join(map(str, d.throw)))
        elif d.kind == RETURN:
            self.write(f"before throw {L - d.throws_left + 1} of {L}: set aside {d.aside}; "
                       "return units to the cup? (they are thrown again, their points are lost)")
        elif d.kind == BANK_OR_THROW:
            self.write(f"{_n(d.dice, 'die', 'dice')} and {_n(d.throws_left, 'throw')} left: bank {d.turn_total:,} "
                       f"({d.bank_result:+,}) or throw on?")
        elif d.kind == BANK_OR_SERIES:
            self.write(f"all dice set aside! bank {d.turn_total:,} or throw all {g.rules.n_dice} "
                       "dice again (a new series, the total at risk)?")

    def _advise(self, d: MackeDecision) -> None:
        if self.advisor is None:
            self.write("no advice available")
            return
        vals = self.advisor.values(d)
        best = self.advisor.best(d)
        chances = self.win.option_chances(d) if self.win is not None else None
        if chances is None:
            self.write("advice (optimal turn policy; expected points this turn adds):")
        else:
            self.write("advice: expected points this turn adds (optimal turn policy), and your "
                       "chance to win the game (both play to win from here; win table to "
                       f"{self.win.rules.target:,}):")
        for i, (a, v) in enumerate(zip(d.legal, vals)):
            mark = "  <- best" if i == best else ""
            if chances is not None:
                top = max(chances)
                mark += "  <- best to win" if chances[i] == top else ""
                mark = f"  {chances[i]:>7.2%}{mark}"
            self.write(f"  {i + 1}) {self.label(d, a):<34} {v:,.1f}{mark}")
        for line in self.advisor.explain(d, vals, best):
            self.write("  " + line)

    def act(self, d: MackeDecision):
        from tutto_sim.core.play import ask_choice

        self._header(d)
        for i, a in enumerate(d.legal, start=1):
            self.write(f"  {i}) {self.label(d, a)}")
        if self.always_advise:
            self._advise(d)
        letters = {"b": BANK, "t": THROW} if d.kind in (BANK_OR_THROW, BANK_OR_SERIES) else {}
        prompt = f"choose 1-{len(d.legal)}" + (", b=bank, t=throw" if letters else "")
        prompt += " (? advice, q quit): "
        retry = (f"please answer 1-{len(d.legal)}" + (" or b, t" if letters else "")
                 + ", ? for advice, q to quit")
        return ask_choice(self.read, self.write, prompt, d.legal, letters,
                          lambda: self._advise(d), retry)
