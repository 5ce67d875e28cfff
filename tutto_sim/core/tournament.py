"""Tournaments: many games between bots, seats rotated, win rates with CIs.

Part of the game layer. A tournament of ``m`` bots at a table of ``n``
players plays **lineups** (which bots sit at the table):

- ``m == n``: one lineup, all bots;
- ``m < n``: one lineup, the bots fill the seats in turn (``a, b, a``);
- ``m > n``: every combination of ``n`` of the ``m`` bots (for ``n = 2``
  every pair: the pairwise table).

Game ``i`` (stream ``(seed, i)``) plays lineup ``i % L`` rotated by
``r = (i // L) % n``: seat ``j`` gets bot ``lineup[(j + r) % n]``
(:func:`seat_bots`), so over ``L * n`` consecutive games every bot of a lineup
sits in every seat once. A game where the order round the table matters
(:attr:`GameKind.all_seatings`: who sits behind whom) plays every
distinct seating of each lineup instead: the lineups are all their
permutations (tables of up to 4 players), rotated as above.

A bot's **win rate** is its mean share of the win per seat it held: 1 for a
sole winner, 1/k for each of k tied winners, else 0 (in a game of partners,
:attr:`GameKind.partners`, the winning side's win counts
whole for each of its players); the 95% CI comes from that per-game
indicator. A **seat's** win rate is the same mean over the
games, by seat. Games run in the numba kernel when every bot has a table
(``engine="kernel"``), else in the reference game, which also reports bots
that return illegal actions (each counted as a bust) instead of crashing.
With ``timed``, the reference engine also measures each bot's time per
decision (``core.api.timing``) and every chunk brings its histograms back
with its games, from threads, worker processes or a cluster alike
(``TournamentResult.decision_times``); the kernel's bots are not timed.

The game follows from the config (each game's ``GameConfig``): the
registry gives its :class:`GameKind`
(:func:`game_kind`). Game-independent.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from tutto_sim.core import cluster, registry
from tutto_sim.core.blocks import BLOCK, SHARE
from tutto_sim.core.bots import kernel_capable
from tutto_sim.core.stats import WILSON, Estimate

ENGINES = ("auto", "kernel", "reference")
#: Games per kernel call (progress and Ctrl-C granularity); the kernel cuts
#: them into blocks of ``core.blocks.BLOCK`` games for its threads.
KERNEL_CHUNK = 32768
REFERENCE_CHUNK = 50

ProgressHook = Callable[[int], None]


@dataclass(frozen=True)
class GameKind:
    """What a tournament needs to know about a game."""

    name: str  # "tutto", "macke", "volle-lotte"
    end_kinds: tuple[str, ...]
    play: Callable  # play(bots, config, seed, index) -> GameRecord
    kernel: type  # kernel class: (config, [bot.table()]) with .run(...)
    point_unit: int = 1  # scores and banked points are counted in units of this
    #: every seating (all permutations of a lineup, up to 4 players), not only rotations
    all_seatings: bool = False
    #: False for games without points: no score or points-per-turn figures
    points: bool = True
    #: per-game counts the game reports besides turns (``GameBatch.counts``), e.g. ("throws",)
    counts: tuple[str, ...] = ()
    #: the winners are partners (a game of pairs): each takes the whole win, not 1/k of it
    partners: bool = False
    #: scoring sides at the table, 0 for one per player; the fair share is 1/sides
    sides: int = 0
    #: the game's own figures: ``summary(names)`` gives an object with ``add(batch, seats)``
    #: (every chunk of games), ``to_dict()`` (into the JSON; its "bots" part into each
    #: bot's entry and CSV row) and ``lines()`` (printed after the tables)
    summary: Callable | None = None
    #: how a tie counts, in the JSON
    ties: str = "a tie shares the win: 1/k to each of k tied winners"


def game_kind(config) -> GameKind:
    """The game a config plays (the game's ``game_kind`` hook in the registry)."""
    return registry.for_config(config).hooks.game_kind(config)


#: Tables up to this size play every seating with ``all_seatings`` (4! = 24 per lineup).
MAX_PERMUTED_PLAYERS = 4


def make_lineups(n_bots: int, players: int, all_seatings: bool = False) -> np.ndarray:
    """The lineups of a tournament (module docstring): int array [L, players].

    ``all_seatings``: each lineup replaced by its distinct permutations, in
    lexicographic order of the seats (tables of up to 4 players)."""
    if n_bots < 1 or players < 1:
        raise ValueError("a tournament needs at least one bot and one player")
    if n_bots == players:
        lineups = np.arange(players, dtype=np.int64)[None, :]
    elif n_bots < players:
        lineups = (np.arange(players, dtype=np.int64) % n_bots)[None, :]
    else:
        lineups = np.array(list(itertools.combinations(range(n_bots), players)), dtype=np.int64)
    if not all_seatings:
        return lineups
    if players > MAX_PERMUTED_PLAYERS:
        raise ValueError(f"every seating is played for at most {MAX_PERMUTED_PLAYERS} players, "
                         f"not {players}")
    rows: list[tuple[int, ...]] = []
    for line in lineups.tolist():
        seen = set()
        for perm in itertools.permutations(range(players)):
            row = tuple(line[k] for k in perm)
            if row not in seen:
                seen.add(row)
                rows.append(row)
    return np.array(rows, dtype=np.int64)


def seat_bots(start: int, n_games: int, lineups: np.ndarray) -> np.ndarray:
    """``out[g, j]``: the bot in seat j of game ``start + g``."""
    n_lineups, n = lineups.shape
    i = start + np.arange(n_games, dtype=np.int64)
    line = i % n_lineups
    r = (i // n_lineups) % n
    cols = (np.arange(n)[None, :] + r[:, None]) % n
    return lineups[line[:, None], cols]


@dataclass
class TournamentRecord:
    """One reference game as :func:`reference_batch` reads it, for games whose
    reference engine keeps its own record: the winning
    seats, points and banked points per seat (zeros for a game without
    points), turns, the end kind, the game's counts (``GameKind.counts``), its
    per-game ``extra`` data and the ``(seat, message)`` of illegal actions."""

    winners: tuple[int, ...]
    scores: list[int]
    banked: list[int]
    banked_sq: list[int]
    turns: int
    end: str
    counts: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)


@dataclass(frozen=True)
class TableConfig:
    """A game's config that is its rules alone: a subclass declares the field
    ``rules`` with the game's default rules, and other rules are refused."""

    def __post_init__(self) -> None:
        want = type(self.__dataclass_fields__["rules"].default)
        if not isinstance(self.rules, want):
            raise TypeError(f"{type(self).__name__} needs {want.__name__}")


class SeatingsKernel:
    """The tournament's games of a game that plays every seating of each lineup
    in its numba kernel. Seatings are periodic in the game index with period
    ``L * n`` (:func:`seat_bots`), so the kernel gets the ``L * n`` seatings
    (the kernel's bot ids, ``self.ids``) once and game ``i`` plays seating
    ``i mod (L * n)``: the same games as the reference engine. The game's
    subclass plays them (``play``) and returns the tournament's arrays."""

    def run(self, seed: int, start: int, n_games: int, lineups: np.ndarray,
            threads: int | None = None, block: int | None = None):
        rules = self.config.rules
        n_lineups, n = lineups.shape
        check_table(rules, n)
        seatings = self.ids[seat_bots(0, n_lineups * n, np.asarray(lineups, np.int64))]
        return self.play(seatings, rules, seed, start, n_games, block)


def check_table(rules, players: int) -> None:
    """A table of ``players`` for rules that hold the table size (their ``players``)."""
    if players != rules.players:
        raise ValueError(f"the rules are for {rules.players} players, the table has {players}")


@dataclass
class GameBatch:
    """Per-game results of consecutive games (points in units of ``GameKind.point_unit``)."""

    share: np.ndarray  # [G, n] of SHARE
    score: np.ndarray  # [G, n]
    banked: np.ndarray  # [G, n] sum of banked units over the seat's turns
    banked_sq: np.ndarray  # [G, n]
    turns: np.ndarray  # [G] all seats together
    end: np.ndarray  # [G] index into the game's end kinds (GameKind.end_kinds)
    counts: dict = field(default_factory=dict)  # name -> [G] per-game count (GameKind.counts)
    extra: dict = field(default_factory=dict)  # name -> per-game data for the game's own summary

    def turns_by_seat(self) -> np.ndarray:
        n = self.share.shape[1]
        t = self.turns[:, None].astype(np.int64) - np.arange(n)[None, :]
        return np.maximum(0, (t + n - 1) // n)


def reference_batch(bots: Sequence, config, seed: int, start: int, n_games: int,
                    lineups: np.ndarray, errors: dict | None = None) -> GameBatch:
    """Play games in the reference engine; illegal actions go to ``errors[name]``."""
    kind = game_kind(config)
    n = lineups.shape[1]
    seats = seat_bots(start, n_games, lineups)
    out = GameBatch(np.zeros((n_games, n), np.int32), np.zeros((n_games, n), np.int32),
                    np.zeros((n_games, n), np.int64), np.zeros((n_games, n), np.int64),
                    np.zeros(n_games, np.int32), np.zeros(n_games, np.int8))
    for g in range(n_games):
        players = [bots[b] for b in seats[g]]
        rec = kind.play(players, config, seed, start + g)
        for j in rec.winners:
            out.share[g, j] = SHARE if kind.partners else SHARE // len(rec.winners)
        unit = kind.point_unit
        out.score[g] = [s // unit for s in rec.scores]
        out.banked[g] = [s // unit for s in rec.banked]
        out.banked_sq[g] = [s // unit**2 for s in rec.banked_sq]
        out.turns[g] = rec.turns
        out.end[g] = kind.end_kinds.index(rec.end)
        for name in kind.counts:
            out.counts.setdefault(name, np.zeros(n_games, np.int64))[g] = rec.counts[name]
        for name, value in getattr(rec, "extra", {}).items():
            out.extra.setdefault(name, np.zeros((n_games, *np.shape(value)), np.int64))[g] = value
        if errors is not None:
            for seat, msg in rec.errors:
                entry = errors.setdefault(players[seat].name, {"count": 0, "games": 0, "first": msg})
                entry["count"] += 1
            for name in {players[seat].name for seat, _ in rec.errors}:
                errors[name]["games"] += 1
    return out


def kernel_batch(kernel, seed: int, start: int, n_games: int,
                 lineups: np.ndarray, threads: int | None = None) -> GameBatch:
    return GameBatch(*kernel.run(seed, start, n_games, lineups, threads))


@dataclass
class Sums:
    """Integer sums over games, exact whatever the order of the chunks."""

    n_bots: int
    players: int
    games: int = 0
    bot: np.ndarray = field(init=False)  # [B, 8]: seats held, share, share², score, score², turns, banked, banked²
    seat: np.ndarray = field(init=False)  # [n, 2]: share, share²
    pair: np.ndarray = field(init=False)  # [B, B, 3]: games, share, share² (two-player tables)
    turns: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))  # sum, squares
    rounds: int = 0
    ends: np.ndarray = field(default_factory=lambda: np.zeros(4, np.int64))
    counts: dict = field(default_factory=dict)  # name -> [sum, sum of squares] (GameKind.counts)

    def __post_init__(self):
        b, n = self.n_bots, self.players
        self.bot = np.zeros((b, 8), np.int64)
        self.seat = np.zeros((n, 2), np.int64)
        self.pair = np.zeros((b, b, 3), np.int64)

    def add(self, batch: GameBatch, seats: np.ndarray) -> None:
        g, n = batch.share.shape
        sh = batch.share.astype(np.int64)
        sc = batch.score.astype(np.int64)
        tb = batch.turns_by_seat()
        flat = seats.ravel()
        b = self.n_bots
        for k, vals in enumerate((np.ones_like(sh), sh, sh * sh, sc, sc * sc, tb,
                                  batch.banked, batch.banked_sq)):
            self.bot[:, k] += _int_bincount(flat, vals.ravel(), b)
        self.seat[:, 0] += sh.sum(axis=0)
        self.seat[:, 1] += (sh * sh).sum(axis=0)
        if n == 2:
            a, o = seats[:, 0], seats[:, 1]
            for x, y, s in ((a, o, sh[:, 0]), (o, a, sh[:, 1])):
                idx = x * b + y
                self.pair[..., 0] += np.bincount(idx, minlength=b * b).reshape(b, b)
                self.pair[..., 1] += _int_bincount(idx, s, b * b).reshape(b, b)
                self.pair[..., 2] += _int_bincount(idx, s * s, b * b).reshape(b, b)
        t = batch.turns.astype(np.int64)
        self.turns += [t.sum(), (t * t).sum()]
        self.rounds += int(((t + n - 1) // n).sum())
        self.ends += np.bincount(batch.end.astype(np.int64), minlength=4)[:4]
        for name, c in batch.counts.items():
            c = c.astype(np.int64)
            self.counts.setdefault(name, np.zeros(2, np.int64))
            self.counts[name] += [c.sum(), (c * c).sum()]
        self.games += g


def _int_bincount(idx: np.ndarray, vals: np.ndarray, size: int) -> np.ndarray:
    """Exact integer bincount (np.bincount with weights goes through float64)."""
    out = np.zeros(size, np.int64)
    np.add.at(out, idx, vals.astype(np.int64))
    return out


@dataclass
class BotStats:
    name: str
    win: Estimate  # win rate per seat held
    mean_score: Estimate  # final score, points
    points_per_turn: Estimate  # banked points per turn, before deductions
    games: int


@dataclass
class TournamentResult:
    game: str
    names: list[str]
    players: int
    lineups: np.ndarray
    seed: int
    engine: str
    config: object  # the game's config (each game's GameConfig)
    sums: Sums
    seconds: float = 0.0
    threads: int = 1
    interrupted: bool = False
    errors: dict = field(default_factory=dict)
    summary: object = None  # the game's own figures (GameKind.summary), or None
    processes: int = 1  # worker processes of the reference engine's games (1: this process)
    #: each bot's time per decision (``core.api.DecisionTimes``) with ``timed`` in the
    #: reference engine, else None
    decision_times: object = None

    @property
    def games(self) -> int:
        return self.sums.games

    def bot_stats(self) -> list[BotStats]:
        """One entry per bot, best win rate first."""
        out = []
        unit = game_kind(self.config).point_unit
        for i, name in enumerate(self.names):
            seats, s, s2, sc, sc2, turns, bk, bk2 = (int(x) for x in self.sums.bot[i])
            out.append(BotStats(
                name,
                Estimate.share(s, seats, SHARE),
                Estimate.from_sums(sc, sc2, seats, unit),
                Estimate.from_sums(bk, bk2, turns, unit),
                seats,
            ))
        return sorted(out, key=lambda b: -b.win.mean if b.games else math.inf)

    def seat_rates(self) -> list[Estimate]:
        return [Estimate.share(int(s), self.games, SHARE) for s, _ in self.sums.seat]

    def fair_share(self) -> float:
        """A seat's win rate if no seat had an advantage: 1/n, 1/sides for partners."""
        return 1 / (game_kind(self.config).sides or self.players)

    def first_player_advantage(self) -> Estimate:
        """Seat 0's win rate minus the fair share (1/n)."""
        return self.seat_rates()[0].shift(-self.fair_share())

    def game_turns(self) -> Estimate:
        return Estimate.from_sums(*(int(x) for x in self.sums.turns), self.games)

    def game_count(self, name: str) -> Estimate:
        """Mean per game of a count the game reports (``GameKind.counts``, e.g. throws)."""
        return Estimate.from_sums(*(int(x) for x in self.sums.counts.get(name, (0, 0))), self.games)

    def mean_rounds(self) -> float:
        return self.sums.rounds / self.games if self.games else math.nan

    def pairwise(self) -> dict[str, dict[str, Estimate]] | None:
        """Two-player tournaments: row bot's win rate against column bot."""
        if self.players != 2 or len(self.names) < 2:
            return None
        out = {}
        for a, na in enumerate(self.names):
            row = {}
            for b, nb in enumerate(self.names):
                g, s, _ = (int(x) for x in self.sums.pair[a, b])
                if a != b and g:
                    row[nb] = Estimate.share(s, g, SHARE)
            out[na] = row
        return out

    def end_counts(self) -> dict[str, int]:
        return {k: int(v) for k, v in zip(game_kind(self.config).end_kinds, self.sums.ends)}

    def to_dict(self) -> dict:
        kind = game_kind(self.config)
        points = ({"mean_final_score": b.mean_score.mean, "mean_final_score_ci95": b.mean_score.ci95,
                   "points_per_turn": b.points_per_turn.mean,
                   "points_per_turn_ci95": b.points_per_turn.ci95} if kind.points else {}
                  for b in self.bot_stats())
        bots = {b.name: {**_rate(b.win), "games": b.games, **pts}
                for b, pts in zip(self.bot_stats(), points)}
        seats = self.seat_rates()
        fpa = self.first_player_advantage()
        turns = self.game_turns()
        d = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "engine": self.engine,
            "interval": WILSON,  # every win rate's low/high (ci95: half its width)
            "bots": bots,
            "ranking": [b.name for b in self.bot_stats()],
            "seat_win_rates": [e.mean for e in seats],
            "seat_ci95": [e.ci95 for e in seats],
            "seat_low": [e.low for e in seats],
            "seat_high": [e.high for e in seats],
            **fpa.json("first_player_advantage"),
            "mean_turns": turns.mean,
            "mean_turns_ci95": turns.ci95,
            **{k: v for name in kind.counts for k, v in (
                (f"mean_{name}", self.game_count(name).mean),
                (f"mean_{name}_ci95", self.game_count(name).ci95))},
            "mean_rounds": self.mean_rounds(),
            "game_ends": self.end_counts(),
            "lineups": [[self.names[b] for b in line] for line in self.lineups.tolist()],
            "rotation": "game i plays lineup i % L; seat j gets lineup[(j + (i // L) % n) % n]",
            "ties": kind.ties,
            "rules": self.config.rules.to_dict(),
            "threads": self.threads,
            "processes": self.processes,
            "seconds": round(self.seconds, 2),
            "interrupted": self.interrupted,
            "illegal_actions": self.errors,
        }
        for key, value in (self.summary.to_dict() if self.summary is not None else {}).items():
            if key == "bots":
                for name, more in value.items():
                    d["bots"][name].update(more)
            else:
                d[key] = value
        pw = self.pairwise()
        if pw is not None:
            d["pairwise"] = {a: {b: {**_rate(e), "games": e.n}
                                 for b, e in row.items()} for a, row in pw.items()}
        return d

    def csv_rows(self) -> list[dict]:
        """Rows for the CSV: kind bot / seat / pair."""
        base = {"game": self.game, "players": self.players, "seed": self.seed,
                "rules_sha256": self.config.rules.digest()}
        rows = []
        points = game_kind(self.config).points
        own = self.summary.to_dict().get("bots", {}) if self.summary is not None else {}
        for b in self.bot_stats():
            rows.append({**base, "kind": "bot", "name": b.name, "opponent": "",
                         **_rate(b.win), "games": b.games,
                         **({"mean_final_score": b.mean_score.mean,
                             "points_per_turn": b.points_per_turn.mean} if points else {}),
                         **own.get(b.name, {})})
        for j, e in enumerate(self.seat_rates()):
            rows.append({**base, "kind": "seat", "name": str(j), "opponent": "",
                         **_rate(e), "games": e.n})
        for a, row in (self.pairwise() or {}).items():
            for b, e in row.items():
                rows.append({**base, "kind": "pair", "name": a, "opponent": b,
                             **_rate(e), "games": e.n})
        return rows


def _rate(e: Estimate) -> dict:
    """A win rate's JSON/CSV fields: ``win_rate``, ``ci95`` (half the CI's
    width), ``low``, ``high`` (the Wilson interval, :data:`~tutto_sim.core.stats.WILSON`)."""
    return {"win_rate": e.mean, "ci95": e.ci95, "low": e.low, "high": e.high}


def choose_engine(engine: str, bots) -> str:
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    capable = kernel_capable(bots)
    if engine == "kernel" and not capable:
        slow = ", ".join(b.name for b in bots if not callable(getattr(b, "table", None)))
        raise ValueError(f"bots {slow} play only in the reference engine; use --engine reference or auto")
    if engine == "auto":
        return "kernel" if capable else "reference"
    return engine


def _kernel_chunk(kernel, seed: int, start: int, lineups: np.ndarray, offset: int, n: int):
    """Games ``start + offset ..`` (``n`` of them) in the kernel: (batch, no
    errors, no times)."""
    return kernel_batch(kernel, seed, start + offset, n, lineups), {}, None


def _reference_chunk(bots, config, seed: int, start: int, lineups: np.ndarray, offset: int, n: int,
                     timed: bool = False):
    """Games ``start + offset ..`` in the reference engine: (batch, illegal
    actions, the bots' times per decision with ``timed``, else None)."""
    from tutto_sim.core.api import timing

    errors: dict = {}
    if not timed:
        return reference_batch(bots, config, seed, start + offset, n, lineups, errors), errors, None
    with timing() as times:
        batch = reference_batch(bots, config, seed, start + offset, n, lineups, errors)
    return batch, errors, times


def _merge_errors(errors: dict, more: dict) -> None:
    """Add a later chunk's illegal actions: counts add up, the first message stays."""
    for name, e in more.items():
        mine = errors.setdefault(name, {"count": 0, "games": 0, "first": e["first"]})
        mine["count"] += e["count"]
        mine["games"] += e["games"]


def run_tournament(bots: Sequence, players: int, games: int, seed: int = 1,
                   config=None, engine: str = "auto", start: int = 0,
                   progress: ProgressHook | None = None, catch_interrupt: bool = True,
                   game: str | None = None,
                   on_batch: Callable[[GameBatch, np.ndarray], None] | None = None,
                   timed: bool = False) -> TournamentResult:
    """Play ``games`` games (streams ``start ..``) and add up the results.

    ``config`` is the game's config (each game's ``GameConfig``);
    ``game`` only labels the result (default: the
    config's game). ``on_batch(batch, seats)`` sees every chunk of games as
    it finishes, in game order (``seats[g, j]``: the bot in seat j), for
    analyses that need the games one by one (paired differences).
    ``timed``: the reference engine times every decision of every bot
    (``TournamentResult.decision_times``; module docstring).
    """
    import numba

    if not 1 <= players <= 8:
        raise ValueError(f"players must be 1..8, not {players}")
    if games < 0:
        raise ValueError(f"games must be >= 0, not {games}")
    if config is None:
        raise TypeError("run_tournament needs the game's config (e.g. GameConfig(TuttoRules()))")
    kind = game_kind(config)
    engine = choose_engine(engine, bots)
    lineups = make_lineups(len(bots), players, kind.all_seatings)
    sums = Sums(len(bots), players)
    summary = kind.summary([b.name for b in bots]) if kind.summary is not None else None
    errors: dict = {}
    t0 = time.perf_counter()
    if engine == "kernel":
        kernel = kind.kernel(config, [b.table() for b in bots])
        work = functools.partial(_kernel_chunk, kernel, seed, start, lineups)
        # a kernel of slow games (Rutsmieter's expert) asks for smaller chunks,
        # so that the progress bar moves and Ctrl-C keeps what finished
        chunk = cluster.task_chunk(getattr(kernel, "chunk", KERNEL_CHUNK), BLOCK)
    else:
        work = functools.partial(_reference_chunk, list(bots), config, seed, start, lineups,
                                 timed=timed)
        chunk = REFERENCE_CHUNK
    from tutto_sim.core.api import DecisionTimes

    times = DecisionTimes() if timed and engine != "kernel" else None

    def take(offset: int, n: int, result) -> None:
        batch, errs, chunk_times = result
        if times is not None:
            times.merge(chunk_times)
        seats = seat_bots(start + offset, n, lineups)
        sums.add(batch, seats)
        if summary is not None:
            summary.add(batch, seats)
        if on_batch is not None:
            on_batch(batch, seats)
        _merge_errors(errors, errs)

    interrupted = False
    # Python games (the reference engine: search bots, py: bots) run in worker
    # processes side by side inside cluster.processes(), the kernel on threads
    python = engine != "kernel"
    processes = min(cluster.python_workers(), -(-games // chunk)) if python else 1
    try:
        processes = cluster.run_chunks(work, games, chunk, take, progress, python=python)
    except KeyboardInterrupt:
        if not catch_interrupt:
            raise
        interrupted = True
    return TournamentResult(game or kind.name, [b.name for b in bots], players, lineups, seed, engine, config,
                            sums, time.perf_counter() - t0,
                            1 if cluster.active() or engine != "kernel" else numba.get_num_threads(),
                            interrupted, errors, summary, processes, times)
