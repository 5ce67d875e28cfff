"""The search for the weights of Rutsmieter's linear move evaluator
(``tutto-sim optimize --game rutsmieter``; docs/rutsmieter.md, "The policy search").

What is searched: the weights of ``policy.FEATURES``. Only the order of the
move scores matters, so a weight vector and any positive multiple of it play
alike: the search keeps the length of the searched weights fixed (that of
the start weights :data:`START`) and looks for a direction.

**The games.** A candidate plays ``search_games`` games against each bot of
the **field** (``first, aggressive, defensive, random`` by default): at a
table of ``players`` the candidate holds one seat and the field bot every
other, and the candidate sits in every seat equally often. Game ``i`` reads
stream ``(seed, start + i)`` and plays the ``i mod (F n)``-th table
(field bot ``(i mod F n) div n``, the candidate in seat ``i mod n``), so
**every candidate plays the same games** (common random numbers): the same
dice, the same opponents, the same seats. A candidate's score is its win
rate over all of them (each field bot equally often).

**The probe.** Under some house rules a feature has the same value for every
move left to choose from (under the default rules: ``progress`` is the throw
for every walk and only leaving the house walks 1 square, but leaving is
forced; a capture is forced; a piece on the start square must move on), so
its weight changes nothing. Each weight is set to ``+PROBE`` and
``-PROBE`` in turn; a weight with which every search game is identical
(winner and throws) to the start weights' game is **fixed** at its start
value, the others are **free**. Every weight the search plays is a multiple
of ``1 / GRID`` (the probe's too), so every score is summed exactly: a
feature with the same value for every move adds the same number to every
score and cannot change a choice by rounding.

**The search** over the free weights is the cross-entropy method: each
generation draws :data:`POPULATION` directions around a centre (normal with
a spread per weight, scaled to the fixed length, rounded to multiples of
``1 / GRID``; the centre itself is the first), plays them all
on the search games, and moves the centre to the mean of the best quarter
(its spread to their spread, smoothed). The random numbers of generation
``g`` come from ``(seed, g)``. The result is the best candidate over the
whole search, the start weights included (all played the same games, so
their scores compare).

**Fresh games.** Its score on the search games is biased upward (the best of
many noisy scores), so the weights found are then played on **fresh**
games, streams from ``FRESH_START`` on that the search never read:
``games`` against each field bot, with a 95% CI per field bot; the start
weights play the same fresh games, for a paired comparison.

Every random number follows from the seed; the kernel's results do not
depend on the number of threads, so neither does the search. With
``--cluster`` each weight vector's games (up to :data:`CHUNK` of them) are
one Dask task (``core.cluster.run_tasks``): a generation's candidates, the
probes and the fresh games run side by side, with the same results.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.analysis import FRESH_START
from tutto_sim.core.stats import Estimate

from . import kernel as K
from .policy import FEATURES, full_weights
from .rules import RutsmieterRules

#: The start of the search: hand-set weights (the interim ``tuned`` before the
#: first search); fixed weights keep these values.
START = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0) + (0.0,) * (len(FEATURES) - 7)
#: The probe's weight: large enough that its feature decides every choice it can.
PROBE = 1024.0
#: Candidates per generation (the centre and POPULATION - 1 drawn around it).
POPULATION = 16
#: The best quarter of a generation moves the centre.
ELITE_FRACTION = 4
#: Spread of the first generation (in units of the fixed length), its floor,
#: and how much of the elites' spread a new generation takes.
SPREAD = 0.5
MIN_SPREAD = 0.02
SMOOTHING = 0.7
#: Weights are multiples of 1 / GRID: scores are sums of exact binary fractions
#: (and what is written is what was played).
GRID = 64
#: Games per kernel call (progress and Ctrl-C granularity) and per Dask task on a cluster.
CHUNK = 32768
#: Each feature's typical size in a choice (how much it tells moves apart):
#: 20 for the sums of pieces' progress (positions + 1), 1 for counts. The
#: search draws its directions in these units.
SCALE = tuple(20.0 if f in ("capture_progress", "risk_progress", "own_progress", "opp_progress",
                            "lead_progress", "opp_risk") else 1.0 for f in FEATURES)
#: The default field.
FIELD = ("first", "aggressive", "defensive", "random")

Phase = Callable[[str, int], Callable[[int], None]]


def _no_phase(label: str, total: int):
    return lambda n: None


@dataclass
class Play:
    """One candidate's games: per game whether it won, and the throws."""

    won: np.ndarray  # bool [T]
    throws: np.ndarray  # int32 [T]
    winner: np.ndarray  # int8 [T]

    def same_games(self, other: "Play") -> bool:
        return (np.array_equal(self.winner, other.winner)
                and np.array_equal(self.throws, other.throws))

    @staticmethod
    def concat(parts: list["Play"]) -> "Play":
        """Consecutive spans of games as one."""
        if len(parts) == 1:
            return parts[0]
        return Play(*(np.concatenate([getattr(p, k) for p in parts])
                      for k in ("won", "throws", "winner")))


def _play_span(games: "Games", weights, lo: int, hi: int) -> Play:
    """Games ``lo .. hi - 1`` of ``games`` with ``weights`` (a task, here or on a Dask worker)."""
    return games.play(weights, lo, hi)


@dataclass(frozen=True)
class MixedTable:
    """A field entry of several bots: at a table the candidate meets them all,
    in this order clockwise from the seat after its own (``--field
    first+aggressive+defensive``); fewer bots than seats repeat in order."""

    bots: tuple

    @property
    def name(self) -> str:
        return "+".join(b.name for b in self.bots)


class Games:
    """Fixed games against the field: :meth:`play` plays a weight vector on
    them (common random numbers, module docstring).

    ``field`` holds parsed bots (``rutsmieter.bots``) that play in the kernel
    (their ``table()`` is a bot id or a weights row), or mixed tables of them
    (:class:`MixedTable`: the candidate's opponents at one table,
    ``first+aggressive+defensive``). ``per_bot`` games against
    each field bot are rounded up to whole rounds of seats."""

    def __init__(self, rules: RutsmieterRules, field, seed: int, per_bot: int, start: int = 0):
        n = rules.players
        self.rules, self.seed, self.start = rules, seed, start
        self.names = [b.name for b in field]
        self.per_bot = -(-per_bot // n) * n
        self.total = self.per_bot * len(field)
        rows, ids = [], {}

        def bot_id(b) -> int:
            if b.name not in ids:
                t = b.table()
                if isinstance(t, (int, np.integer)):
                    ids[b.name] = int(t)
                else:
                    ids[b.name] = K.BOT_WEIGHTS + 1 + len(rows)
                    rows.append(tuple(float(w) for w in t))
            return ids[b.name]

        # table f * n + j: the candidate (weights row 0) in seat j, field entry f in the
        # others: one bot in every other seat, or a mixed table's bots in its order
        # from the seat after the candidate's on
        others = [[bot_id(b) for b in getattr(entry, "bots", (entry,))] for entry in field]
        self.field_rows = rows
        def opponent(f: int, j: int, k: int) -> int:
            return others[f][((k - j - 1) % n) % len(others[f])]

        self.lineups = np.array([[K.BOT_WEIGHTS if k == j else opponent(f, j, k) for k in range(n)]
                                 for f in range(len(field)) for j in range(n)], np.int64)

    def _index(self, lo: int, hi: int) -> np.ndarray:
        return self.start + np.arange(lo, hi, dtype=np.int64)

    def seats(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """The candidate's seat in games ``lo .. hi - 1`` (default: all)."""
        hi = self.total if hi is None else hi
        return (self._index(lo, hi) % self.rules.players).astype(np.int8)

    def bots(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """The field bot of games ``lo .. hi - 1`` (default: all)."""
        hi = self.total if hi is None else hi
        n = self.rules.players
        return (self._index(lo, hi) % (len(self.names) * n)) // n

    seat = property(seats)
    bot = property(bots)

    def play(self, weights, lo: int = 0, hi: int | None = None) -> Play:
        """Games ``lo .. hi - 1`` (default: all) with ``weights`` as the candidate."""
        hi = self.total if hi is None else hi
        wtab = np.array([full_weights(weights), *map(full_weights, self.field_rows)], np.float64)
        res = K.simulate(self.lineups, self.rules, self.seed, hi - lo, self.start + lo,
                         weights=wtab)
        return Play(res.winner == self.seats(lo, hi), res.throws, res.winner)

    def spans(self) -> list[tuple[int, int]]:
        """The games cut into kernel calls (and Dask tasks on a cluster) of at
        most :data:`CHUNK`: ``(lo, hi)``."""
        return [(lo, min(self.total, lo + CHUNK)) for lo in range(0, self.total, CHUNK)]

    def play_all(self, candidates, done: Callable[[int, Play], None],
                 step: Callable[[int], None]) -> None:
        """Every weight vector of ``candidates`` on all the games:
        ``done(k, play)`` for candidate ``k`` once its games are played, in
        order, ``step(games)`` after each span. One kernel call per span here,
        one Dask task per (candidate, span) on a cluster (``core.cluster``):
        a span is a pure function of its weights and games, so the results are
        the same. Ctrl-C passes on after the candidates done."""
        spans = self.spans()
        parts: list[Play] = []

        def take(i: int, play: Play) -> None:
            parts.append(play)
            step(len(play.won))
            if len(parts) == len(spans):
                done(i // len(spans), Play.concat(parts))
                parts.clear()

        cluster.run_tasks(_play_span, [(self, w, lo, hi) for w in candidates for lo, hi in spans],
                          take)

    def by_bot(self, won: np.ndarray, lo: int = 0) -> dict[str, Estimate]:
        """Win rate against each field bot (games ``lo ..``)."""
        bot = self.bots(lo, lo + len(won))
        return {name: Estimate.proportion(int(won[bot == f].sum()), int((bot == f).sum()))
                for f, name in enumerate(self.names)}


def win_rate(won: np.ndarray) -> Estimate:
    return Estimate.proportion(int(won.sum()), len(won))


def paired(a: np.ndarray, b: np.ndarray) -> Estimate:
    """Mean of ``a - b`` game by game, with its CI (the same games on both sides)."""
    d = a.astype(np.int64) - b.astype(np.int64)
    return Estimate.from_sums(int(d.sum()), int((d * d).sum()), len(d))


@dataclass
class Generation:
    number: int
    candidates: int
    best: float  # best search win rate of the generation
    mean: float
    centre: tuple[float, ...]  # the centre it was drawn around (all the weights)
    spread: float  # mean spread of the free weights (units of the fixed length)


@dataclass
class OptimizeResult:
    """What :func:`optimize_weights` found (``to_dict`` in the CLI)."""

    rules: RutsmieterRules
    field: list[str]
    seed: int
    search_games: int  # per field bot
    games: int  # fresh, per field bot
    weights: tuple[float, ...]
    start: tuple[float, ...] = START
    free: list[str] = dataclasses.field(default_factory=list)
    fixed: list[str] = dataclasses.field(default_factory=list)
    search_score: Estimate | None = None
    start_search_score: Estimate | None = None
    generations: list[Generation] = dataclasses.field(default_factory=list)
    candidates: list[tuple[int, tuple[float, ...], float]] = dataclasses.field(default_factory=list)
    fresh: dict[str, Estimate] = dataclasses.field(default_factory=dict)  # per field bot
    fresh_all: Estimate | None = None
    start_fresh: dict[str, Estimate] = dataclasses.field(default_factory=dict)
    gain_vs_start: Estimate | None = None  # paired, fresh games
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def evaluated(self) -> bool:
        return self.fresh_all is not None


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def optimize_weights(rules: RutsmieterRules, field, search_games: int = 2_000,
                     games: int = 100_000, candidates: int = 160, seed: int = 1,
                     phase: Phase = _no_phase, start=START) -> OptimizeResult:
    """Search the weights against ``field`` (parsed bots that play in the
    kernel) at a table of ``rules.players``, then play the best on fresh games
    (module docstring). ``start``: the start weights (rounded to the grid).
    Ctrl-C returns the best found so far, ``interrupted`` (without fresh games
    if the search was not done, else with those played)."""
    if search_games <= 0 or games <= 0 or candidates <= 0:
        raise ValueError("search_games, games and candidates must be positive")
    if not field:
        raise ValueError("the field needs at least one bot")
    t0 = time.perf_counter()
    start = on_grid(in_range(full_weights(start)))
    search = Games(rules, field, seed, search_games)
    res = OptimizeResult(rules, search.names, seed, search.per_bot, 0, start, start)
    try:
        # the start weights and the probe: every +PROBE (side by side on a
        # cluster), then -PROBE where + changed nothing
        step = phase("probing the weights", 2 * len(FEATURES) * search.total)
        plays: dict = {}  # (feature, weight) -> its games; None: the start weights'

        def probe(keys):
            return lambda k, play: plays.__setitem__(keys[k], play)

        plus = [(k, PROBE) for k in range(len(FEATURES))]
        search.play_all([start, *(_probe(start, *key) for key in plus)], probe([None, *plus]),
                        lambda n: step(n) if None in plays else None)  # the start's not counted
        start_play = plays.pop(None)
        res.start_search_score = res.search_score = win_rate(start_play.won)
        res.candidates.append((0, start, res.search_score.mean))
        minus = [(k, -PROBE) for k, _ in plus if plays[(k, PROBE)].same_games(start_play)]
        search.play_all([_probe(start, *key) for key in minus], probe(minus), step)
        step((len(FEATURES) - len(minus)) * search.total)  # the -PROBE games not needed
        for k, name in enumerate(FEATURES):
            same = all(plays[key].same_games(start_play) for key in ((k, PROBE), (k, -PROBE))
                       if key in plays)
            (res.fixed if same else res.free).append(name)
        free = [FEATURES.index(f) for f in res.free]
        # the search moves in units of each feature's typical size (SCALE): a
        # weight of 1 on a feature of pieces' progress weighs what 20 weigh on a count
        scale = np.array(SCALE)[free]
        length = float(np.linalg.norm(np.array(start)[free] * scale)) or 1.0
        centre = _unit(np.array(start)[free] * scale)
        spread = np.full(len(free), SPREAD)
        n_gen = -(-candidates // POPULATION) if free else 0
        for g in range(n_gen):
            size = min(POPULATION, candidates - g * POPULATION)
            rng = np.random.default_rng([seed, g])
            units = [centre] + [_unit(centre + spread * rng.standard_normal(len(free)))
                                for _ in range(size - 1)]
            step = phase(f"search, generation {g + 1} of {n_gen}", size * search.total)
            weights = [_with_free(start, free, length * u / scale) for u in units]
            scores: list[float] = []

            def scored(k: int, play: Play, g=g, weights=weights, scores=scores) -> None:
                s = float(play.won.mean())
                scores.append(s)
                res.candidates.append((g + 1, weights[k], s))
                if s > res.search_score.mean:  # ties keep the earlier candidate
                    res.weights, res.search_score = weights[k], win_rate(play.won)

            search.play_all(weights, scored, step)
            res.generations.append(Generation(g + 1, size, max(scores), float(np.mean(scores)),
                                              _with_free(start, free, length * centre / scale),
                                              float(spread.mean())))
            order = sorted(range(size), key=lambda i: -scores[i])  # stable: ties to the earlier
            elite = np.array([units[i] for i in order[:max(2, size // ELITE_FRACTION)]])
            centre = _unit(elite.mean(axis=0))
            spread = np.maximum(SMOOTHING * elite.std(axis=0) + (1 - SMOOTHING) * spread,
                                MIN_SPREAD)
    except KeyboardInterrupt:
        res.interrupted = True
    if not res.interrupted:
        _fresh(res, rules, field, seed, games, phase)
    res.seconds = time.perf_counter() - t0
    return res


def in_range(weights) -> tuple[float, ...]:
    """``weights`` times the power of 2 that puts the largest ``|w · SCALE|`` in
    [16, 32): the same moves (a positive factor, exact in binary), and weights
    large enough for the grid of :func:`on_grid` (weights learned on another
    scale, e.g. by self-play, would round to 0). Unchanged if all are 0."""
    top = max(abs(w) * c for w, c in zip(weights, SCALE))
    if top == 0:
        return tuple(weights)
    k = 4 - math.floor(math.log2(top))
    return tuple(math.ldexp(w, k) for w in weights)


def on_grid(weights) -> tuple[float, ...]:
    """``weights`` rounded to multiples of ``1 / GRID``."""
    return tuple(float(np.round(float(w) * GRID) / GRID) for w in weights)


def _with_free(start, free: list[int], values: np.ndarray) -> tuple[float, ...]:
    """``start`` with the weights at ``free`` set to ``values``, on the grid."""
    w = list(start)
    for k, v in zip(free, values):
        w[k] = v
    return on_grid(w)


def _probe(start, k: int, sign: float) -> tuple[float, ...]:
    """``start`` with weight ``k`` set to ``sign`` (±PROBE)."""
    w = list(start)
    w[k] = sign
    return tuple(w)


def _fresh(res: OptimizeResult, rules, field, seed: int, games: int, phase: Phase) -> None:
    """The best weights and the start weights on fresh games (spans of
    :data:`CHUNK`, the best weights' then the start weights'; Ctrl-C keeps the
    spans played by both)."""
    fresh = Games(rules, field, seed, games, start=FRESH_START)
    res.games = fresh.per_bot
    step = phase("fresh games", 2 * fresh.total)
    won: list[np.ndarray] = []
    base: list[np.ndarray] = []

    def take(i: int, play: Play) -> None:
        (won if i % 2 == 0 else base).append(play.won)
        step(len(play.won))

    try:
        cluster.run_tasks(_play_span, [(fresh, w, lo, hi) for lo, hi in fresh.spans()
                                       for w in (res.weights, res.start)], take)
    except KeyboardInterrupt:
        res.interrupted = True
    won = won[:len(base)]
    if not won:
        return
    won, base = np.concatenate(won), np.concatenate(base)
    res.fresh = fresh.by_bot(won)
    res.start_fresh = fresh.by_bot(base)
    res.fresh_all = win_rate(won)
    res.gain_vs_start = paired(won, base)


def weights_dict(weights) -> dict[str, float]:
    return {f: float(w) for f, w in zip(FEATURES, weights)}
