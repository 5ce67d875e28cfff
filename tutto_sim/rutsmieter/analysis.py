"""Rutsmieter's own analyses, in games won: what each house rule does to the
length of a game and to how much skill matters, and what a piece is worth
(the first piece out of the house, a piece lost to a capture).

Near the end of the game's chain (rules → reference → kernel → bots →
analyses → CLI): every figure is a mean over whole games with its 95% CI,
and every comparison plays **common random numbers**: the two sides of a
difference play the same games on the same dice (game ``i`` reads stream
``(seed, i)`` on both sides), and the CI of the difference comes from the
game-by-game (or position-by-position) differences, which is much narrower
than two separate CIs.

House rules (:func:`rule_effects`)
----------------------------------
Rule sets: the given rules (by default the defaults) and each of the four
house rules switched from there. For each:

- **game length**: the mean throws and turns of a game with the same bot in
  every seat (``bot``, default ``tuned``) at ``players`` (default 4, the full
  board), games ``0 .. games-1``; the difference to the first rule set per
  game on the same seeds;
- **skill spread**: a tournament of ``strong`` against ``weak`` (default
  ``tuned`` against ``random``: both play in the kernel, so the default
  20,000 games per rule set are quick and their CIs, about ±0.01, are
  narrower than the house rules' effects; the expert, ``--strong expert``,
  plays a few games a second, and at 100 games per rule set every effect
  was inside its CI) at
  ``skill_players`` (default 2) in every seating (``core.tournament``,
  games ``0 .. skill_games-1``): the strong bot's win rate per seat held
  minus the weak bot's. Per game that is ``v = s/k_s - w/k_w`` (win shares
  ``s``, ``w`` of the seats the strong and weak bots hold, ``k_s``, ``k_w``
  of them), so the spread is the mean of ``v`` and its CI comes from ``v``.
  With two players ``play_to_third`` changes no game (the first winner
  ends it either way), so that row reuses the first rule set's games
  (``same_games``) and its difference is exactly 0.

A difference to the first rule set whose 95% CI holds 0 (exactly 0 on the
same games included) is "no measurable difference" (``*_measurable`` false
in the JSON and the CSV).

Pieces (:func:`piece_values`)
-----------------------------
- **The first piece out**: for each player ``j``, the games from the start
  position with ``j``'s first piece already on its start square (player 0 to
  throw first, everyone else in the house) against the games from the plain
  start, games ``0 .. games-1`` on both: ``j``'s win rate with and without,
  and the difference per game. The mean over the players of these
  differences is the value of a piece out at the start.
- **A capture**: positions sampled from real games (``bot`` in every seat,
  games from stream ``SAMPLE_START`` on) right before a capturing move: one
  capture of each game, picked at random among its captures (stream
  ``PICK_START + g``), so that the positions are independent, until there are
  ``positions``; with ``play_to_third`` only captures before the first
  player is done (afterwards nobody else can win). For each
  position ``e`` the victim's chance to win with the piece where it stands
  and with that piece back in its house, the capturing player to throw in
  both, over ``position_games`` games from stream ``EVAL_START +
  e · position_games`` on (the same games on both sides). The loss is the
  difference; positions are grouped by how far the captured piece had come
  (squares 0-9, 10-19, 20-29, 30-39 of its walk), and a group's CI comes
  from its positions' losses (each position one sample).

With ``--cluster`` the start positions' games, the sample games and the
capture positions are Dask tasks (``core.cluster.run_tasks``), taken in order:
the same figures.

Examples
--------
>>> from tutto_sim.rutsmieter.rules import RutsmieterRules
>>> [name for name, _ in rule_sets(RutsmieterRules())]
['defaults', 'must_leave_house', 'must_capture', 'goal_no_jump', 'play_to_third']
>>> rule_sets(RutsmieterRules())[1][1].must_leave_house
False
>>> band_of(0), band_of(9), band_of(10), band_of(39)
(0, 0, 1, 3)
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.blocks import SHARE
from tutto_sim.core.stats import Estimate

from .rules import FIRST_GOAL, HOUSE, RING, SEAT_SPACING, RutsmieterRules

#: The house rules, in the order of the analysis.
HOUSE_RULES = ("must_leave_house", "must_capture", "goal_no_jump", "play_to_third")
#: The games the capture positions are sampled from start at this stream.
SAMPLE_START = 1 << 40
#: Sample game g picks its capture with stream ``PICK_START + g`` (not its dice).
PICK_START = 3 << 40
#: The evaluation games of capture position e start at ``EVAL_START + e * position_games``.
EVAL_START = 1 << 42
#: Width of the groups of the capture analysis, in squares of the walk.
BAND = 10
#: Sample games looked at for capture positions at most (a real game has several captures).
MAX_SAMPLE_GAMES = 1_000_000
#: Games per kernel call of the first piece out (and per Dask task on a cluster).
PIECE_CHUNK = 1 << 15
#: On a cluster, per Dask task: sample games looked at, capture positions evaluated.
SAMPLE_TASK = 64
EVENT_TASK = 16

Phase = Callable[[str, int], Callable[[int], None]]


def _no_phase(label: str, total: int):
    return lambda n: None


def _est(x: np.ndarray) -> Estimate:
    """Mean and 95% CI of per-game (or per-position) values."""
    x = np.asarray(x, dtype=np.float64)
    return Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))


def _flat(prefix: str, e: Estimate | None, difference: bool = False) -> dict:
    """``{prefix: mean, prefix_ci95: ci}`` (None for a part that did not run);
    a win rate adds its Wilson interval (``prefix_low``, ``prefix_high``), a
    difference ``prefix_measurable``: whether its 95% CI leaves out 0."""
    keys = [prefix, f"{prefix}_ci95"]
    if e is not None and e.is_wilson:
        keys += [f"{prefix}_low", f"{prefix}_high"]
    if difference:
        keys.append(f"{prefix}_measurable")
    if e is None:
        return dict.fromkeys(keys)
    values = [e.mean, e.ci95] + ([e.low, e.high] if e.is_wilson else [])
    return dict(zip(keys, values + ([e.measurable] if difference else [])))


def rule_sets(rules: RutsmieterRules) -> list[tuple[str, RutsmieterRules]]:
    """``rules`` (named ``defaults``) and each house rule switched from there."""
    out = [("defaults", rules)]
    for name in HOUSE_RULES:
        out.append((name, dataclasses.replace(rules, **{name: not getattr(rules, name)})))
    return out


def band_of(x: int) -> int:
    """The group of a ring position (0-9 → 0, ..., 30-39 → 3)."""
    return x // BAND


# -- house rules -------------------------------------------------------------------------


@dataclass
class RuleSetResult:
    """One rule set of :func:`rule_effects`; a part that did not finish is None."""

    name: str  # "defaults" or the house rule switched
    rules: RutsmieterRules  # at the table size of the game length
    throws: Estimate | None = None  # mean throws per game
    turns: Estimate | None = None
    throws_vs_defaults: Estimate | None = None  # paired, same games
    turns_vs_defaults: Estimate | None = None
    strong: Estimate | None = None  # win rate per seat held, skill tournament
    weak: Estimate | None = None
    spread: Estimate | None = None  # strong minus weak
    spread_vs_defaults: Estimate | None = None
    same_games: bool = False  # the skill games are the first rule set's (no effect)

    def to_dict(self) -> dict:
        return {
            "switched": None if self.name == "defaults" else self.name,
            "rules": self.rules.to_dict(),
            **_flat("mean_throws", self.throws), **_flat("mean_turns", self.turns),
            **_flat("throws_vs_defaults", self.throws_vs_defaults, self.name != "defaults"),
            **_flat("turns_vs_defaults", self.turns_vs_defaults, self.name != "defaults"),
            **_flat("strong_win_rate", self.strong), **_flat("weak_win_rate", self.weak),
            **_flat("skill_spread", self.spread),
            **_flat("skill_spread_vs_defaults", self.spread_vs_defaults,
                    self.name != "defaults"),
            "same_skill_games_as_defaults": self.same_games,
        }


@dataclass
class RuleEffects:
    """What :func:`rule_effects` found; ``interrupted``: only the parts done by then."""

    players: int
    games: int
    bot: str
    skill_players: int
    skill_games: int
    strong: str
    weak: str
    seed: int
    rows: list[RuleSetResult]
    seconds: float = 0.0
    interrupted: bool = False

    def to_dict(self) -> dict:
        return {
            "players": self.players, "games": self.games, "bot": self.bot,
            "skill_players": self.skill_players, "skill_games": self.skill_games,
            "strong": self.strong, "weak": self.weak, "seed": self.seed,
            "rule_sets": {r.name: r.to_dict() for r in self.rows},
            "seconds": round(self.seconds, 2), "interrupted": self.interrupted,
        }


class _Collect:
    """``run_tournament``'s ``on_batch``: keeps the per-game arrays, in game order."""

    def __init__(self):
        self.batches = []

    def __call__(self, batch, seats):
        self.batches.append((batch, seats))

    def throws_turns(self) -> tuple[np.ndarray, np.ndarray]:
        throws = np.concatenate([b.counts["throws"] for b, _ in self.batches])
        turns = np.concatenate([b.turns.astype(np.int64) for b, _ in self.batches])
        return throws, turns

    def spread(self) -> np.ndarray:
        """Per game: the strong bot's (bot 0) win share per seat held minus the
        weak bot's (bot 1), in wins."""
        parts = []
        for b, seats in self.batches:
            share = b.share.astype(np.int64)
            strong = seats == 0
            k_s, k_w = strong.sum(axis=1), (~strong).sum(axis=1)
            s = np.where(strong, share, 0).sum(axis=1)
            w = np.where(strong, 0, share).sum(axis=1)
            parts.append((s / k_s - w / k_w) / SHARE)
        return np.concatenate(parts)


def _tournament(bots, players, games, seed, rules, label, phase):
    from tutto_sim.core.tournament import run_tournament

    from .game import GameConfig

    got = _Collect()
    res = run_tournament(bots, players, games, seed, GameConfig(rules),
                         progress=phase(label, games), catch_interrupt=False, on_batch=got)
    return res, got


def rule_effects(rules: RutsmieterRules = RutsmieterRules(), players: int = 4,
                 games: int = 20_000, skill_games: int = 20_000, seed: int = 1,
                 bot: str = "tuned", strong: str = "tuned", weak: str = "random",
                 skill_players: int = 2, phase: Phase = _no_phase) -> RuleEffects:
    """Game length and skill spread for ``rules`` and each house rule switched
    (module docstring). The game lengths of every rule set run first (the
    kernel, quick), then the skill tournaments. Ctrl-C returns what finished
    (``interrupted``)."""
    from .bots import parse_bot

    t0 = time.perf_counter()
    sets = rule_sets(rules)
    rows = [RuleSetResult(name, dataclasses.replace(r, players=players)) for name, r in sets]
    out = RuleEffects(players, games, bot, skill_players, skill_games, strong, weak, seed, rows)
    try:
        base = None
        for row in rows:
            b = parse_bot(bot, row.rules)
            res, got = _tournament([b], players, games, seed, row.rules,
                                   f"game length: {words(row.name, rules)}", phase)
            throws, turns = got.throws_turns()
            row.throws, row.turns = res.game_count("throws"), res.game_turns()
            if base is None:
                base = throws, turns
            row.throws_vs_defaults = _est(throws - base[0])
            row.turns_vs_defaults = _est(turns - base[1])
        base = None
        for row in rows:
            table = dataclasses.replace(row.rules, players=skill_players)
            if base is not None and row.name == "play_to_third" and skill_players == 2:
                row.strong, row.weak, row.spread = rows[0].strong, rows[0].weak, rows[0].spread
                row.spread_vs_defaults = _est(np.zeros_like(base))
                row.same_games = True
                continue
            bots = [parse_bot(strong, table), parse_bot(weak, table)]
            bots[0].name, bots[1].name = "strong", "weak"
            res, got = _tournament(bots, skill_players, skill_games, seed, table,
                                   f"skill: {words(row.name, rules)}", phase)
            v = got.spread()
            stats = {s.name: s.win for s in res.bot_stats()}
            row.strong, row.weak, row.spread = stats["strong"], stats["weak"], _est(v)
            if base is None:
                base = v
            row.spread_vs_defaults = _est(v - base)
    except KeyboardInterrupt:
        out.interrupted = True
    out.seconds = time.perf_counter() - t0
    return out


def words(name: str, rules: RutsmieterRules) -> str:
    """A rule set in players' words: ``defaults`` or ``must capture off``."""
    if name == "defaults":
        return "defaults" if rules == RutsmieterRules(players=rules.players) else "as given"
    return f"{RULE_WORDS[name]} {'off' if getattr(rules, name) else 'on'}"


#: The house rules in players' words (docs/rutsmieter.md).
RULE_WORDS = {
    "must_leave_house": "must leave the house",
    "must_capture": "must capture",
    "goal_no_jump": "no jumping in the goal lane",
    "play_to_third": "play on for the places",
}


# -- pieces ---------------------------------------------------------------------------------


@dataclass
class PieceOutRow:
    """Player ``seat``'s win rate starting with its first piece out, without, and the difference."""

    seat: int
    with_piece: Estimate
    without: Estimate
    value: Estimate  # paired, same games

    def to_dict(self) -> dict:
        return {"seat": self.seat, **_flat("win_rate_with_piece_out", self.with_piece),
                **_flat("win_rate_all_in_house", self.without), **_flat("value", self.value),
                "games": self.value.n}


@dataclass
class CaptureBand:
    """Captures of pieces that had come ``lo..hi`` squares: the victims' mean loss."""

    lo: int
    hi: int
    loss: Estimate  # per position (n = positions)
    mean_square: float  # mean position of the captured pieces

    def to_dict(self) -> dict:
        return {"squares": f"{self.lo}-{self.hi}", "positions": self.loss.n,
                **_flat("win_rate_loss", self.loss), "mean_square": self.mean_square}


@dataclass
class CaptureEvent:
    """A position right before a capturing move (sampled from a real game)."""

    pieces: np.ndarray  # [players, 4], before the move
    capturer: int
    victim: int
    piece: int  # the victim's piece index
    square: int  # how far it had come (its position, 0..39)
    game: int  # the sample game's stream index


@dataclass
class PieceValues:
    """What :func:`piece_values` found; ``interrupted``: only the parts done by then."""

    players: int
    bot: str
    seed: int
    games: int
    positions: int
    position_games: int
    piece_out: list[PieceOutRow] = field(default_factory=list)
    piece_out_mean: Estimate | None = None  # over the players, per game
    bands: list[CaptureBand] = field(default_factory=list)
    capture_all: Estimate | None = None
    sample_games: int = 0  # real games the capture positions came from
    engine: str = "kernel"
    seconds: float = 0.0
    interrupted: bool = False

    def to_dict(self) -> dict:
        return {
            "players": self.players, "bot": self.bot, "seed": self.seed, "engine": self.engine,
            "games": self.games,
            "first_piece_out": {
                "seats": [r.to_dict() for r in self.piece_out],
                **_flat("value", self.piece_out_mean),
            },
            "capture": {
                "positions": self.positions, "position_games": self.position_games,
                "sample_games": self.sample_games,
                "bands": [b.to_dict() for b in self.bands],
                **_flat("win_rate_loss", self.capture_all),
                "positions_done": 0 if self.capture_all is None else self.capture_all.n,
            },
            "seconds": round(self.seconds, 2), "interrupted": self.interrupted,
        }


class _Player:
    """Plays ``bot`` in every seat from a position, in the kernel when the bot
    has a table, else in the reference engine (the same games either way)."""

    def __init__(self, bot, rules: RutsmieterRules, threads_block: int = 16):
        from .game import GameConfig, RutsmieterGameKernel

        self.bot, self.rules, self.block = bot, rules, threads_block
        self.kernel = callable(getattr(bot, "table", None))
        if self.kernel:
            k = RutsmieterGameKernel(GameConfig(rules), [bot.table()])
            self.ids = [int(k.ids[0])] * rules.players
            self.weights = k.weights

    def winners(self, pieces, first: int, seed: int, start: int, n: int) -> np.ndarray:
        """The winner of games ``start .. start + n - 1`` from ``pieces`` (-1: none)."""
        if self.kernel:
            from .kernel import simulate_from

            return simulate_from(pieces, first, self.ids, self.rules, seed, n, start,
                                 block=self.block, weights=self.weights).winner.astype(np.int64)
        from .reference import Board, play_game

        board = Board(self.rules.seats, [list(map(int, row)) for row in pieces])
        bots = [self.bot.engine] * self.rules.players
        return np.array([play_game(bots, self.rules, seed, start + g, board=board,
                                   first_player=first).winner for g in range(n)], np.int64)

    def log(self, seed: int, index: int) -> list[tuple[int, int, int]]:
        """The moves of sample game ``index``: ``(player, piece, end)`` in order."""
        from .reference import play_game

        if not self.kernel:
            rec = play_game([self.bot.engine] * self.rules.players, self.rules, seed, index)
            return [(t.player, t.piece, t.end) for t in rec.log if t.piece >= 0]
        from .kernel import kernel_offsets, kernel_params, play_traced

        n = self.rules.players
        trace = np.zeros((_TRACE_ROWS, 4), np.int64)
        _, throws, _, _, _ = play_traced(seed, index, kernel_params(self.rules),
                                         kernel_offsets(n), self.ids, trace, self.weights)
        rows = trace[:min(throws, _TRACE_ROWS)]
        return [(int(p), int(k), int(e)) for p, _, k, e in rows.tolist() if k >= 0]


#: Throws of a sample game that are replayed (no real game comes near: a few hundred).
_TRACE_ROWS = 20_000


def capture_events(log, rules: RutsmieterRules, game: int) -> list[CaptureEvent]:
    """Replay a game's moves on a board: the position before each capturing
    move (only while nobody is done: afterwards nobody else can win)."""
    seats = rules.seats
    pieces = [[HOUSE] * 4 for _ in seats]
    on_square: dict[int, tuple[int, int]] = {}  # ring square -> (player, piece)
    in_goal = [0] * len(seats)
    out = []
    for player, piece, end in log:
        x = pieces[player][piece]
        if 0 <= x < RING:
            del on_square[(x + SEAT_SPACING * seats[player]) % RING]
        if end < RING:
            square = (end + SEAT_SPACING * seats[player]) % RING
            hit = on_square.get(square)
            if hit is not None:  # never an own piece: that move is not legal
                v, k = hit
                out.append(CaptureEvent(np.array(pieces, np.int64), player, v, k,
                                        pieces[v][k], game))
                pieces[v][k] = HOUSE
            on_square[square] = (player, piece)
        elif x < FIRST_GOAL:
            in_goal[player] += 1
        pieces[player][piece] = end
        if in_goal[player] == 4:
            break  # somebody is done: nobody else can win
    return out


def piece_values(rules: RutsmieterRules = RutsmieterRules(), bot: str = "tuned",
                 games: int = 50_000, positions: int = 1_000, position_games: int = 64,
                 seed: int = 1, phase: Phase = _no_phase) -> PieceValues:
    """The value of the first piece out and of a piece lost to a capture
    (module docstring), ``bot`` in every seat at ``rules.players``. Ctrl-C
    returns what finished (``interrupted``)."""
    from .bots import parse_bot

    t0 = time.perf_counter()
    n = rules.players
    b = parse_bot(bot, rules)
    play = _Player(b, rules)
    out = PieceValues(n, bot, seed, games, positions, position_games,
                      engine="kernel" if play.kernel else "reference")
    events: list[CaptureEvent] = []
    losses: list[float] = []
    try:
        start = np.full((n, 4), HOUSE, np.int64)
        starts = [start]
        for j in range(n):
            pieces = start.copy()
            pieces[j, 0] = 0
            starts.append(pieces)
        won = _winners(play, starts, seed, games, phase("first piece out", (n + 1) * games))
        plain = won[0]
        diffs = []
        for j in range(n):
            d = (won[j + 1] == j).astype(np.int64) - (plain == j)
            diffs.append(d)
            out.piece_out.append(PieceOutRow(j, _est(won[j + 1] == j), _est(plain == j), _est(d)))
        out.piece_out_mean = _est(np.mean(diffs, axis=0))
        events = _sample_captures(play, rules, seed, positions, phase, out)
        advance = phase("captures", len(events))

        def lost(e: int, loss: float) -> None:
            losses.append(loss)
            advance(1)

        cluster.run_tasks(_capture_loss, [(play, ev, seed, EVAL_START + e * position_games,
                                           position_games) for e, ev in enumerate(events)],
                          lost, EVENT_TASK)
    except KeyboardInterrupt:
        out.interrupted = True
    if losses:
        out.capture_all = _est(losses)
        out.bands = _bands(events, losses)
    out.seconds = time.perf_counter() - t0
    return out


def _winners_span(play: _Player, pieces, seed: int, lo: int, hi: int) -> np.ndarray:
    """Winners of games ``lo .. hi - 1`` from ``pieces``, player 0 to throw (a task)."""
    return play.winners(pieces, 0, seed, lo, hi - lo).astype(np.int8)


def _winners(play: _Player, starts, seed: int, games: int, advance) -> list[np.ndarray]:
    """The winners of games ``0 .. games - 1`` from each position of ``starts``,
    player 0 to throw: kernel calls (Dask tasks on a cluster) of
    :data:`PIECE_CHUNK` games; Ctrl-C passes on."""
    spans = [(lo, min(games, lo + PIECE_CHUNK)) for lo in range(0, games, PIECE_CHUNK)]
    parts: list[np.ndarray] = []

    def take(i: int, won: np.ndarray) -> None:
        parts.append(won)
        advance(len(won))

    cluster.run_tasks(_winners_span, [(play, p, seed, lo, hi) for p in starts for lo, hi in spans],
                      take)
    k = len(spans)
    return [np.concatenate(parts[i * k:(i + 1) * k]).astype(np.int64) for i in range(len(starts))]


def _capture_loss(play: _Player, ev: CaptureEvent, seed: int, start: int, n: int) -> float:
    """The victim's win rate with the captured piece where it stood minus with it
    in the house, the capturer to throw, games ``start ..`` (``n``) on both sides."""
    home = ev.pieces.copy()
    home[ev.victim, ev.piece] = HOUSE
    kept = play.winners(ev.pieces, ev.capturer, seed, start, n)
    lost = play.winners(home, ev.capturer, seed, start, n)
    return float(np.mean((kept == ev.victim).astype(np.int64) - (lost == ev.victim)))


def _sample_events(play: _Player, rules, seed: int, g: int) -> CaptureEvent | None:
    """Sample game ``g``'s capture (picked at random among its captures), or None."""
    from tutto_sim.core.rng import Stream

    found = capture_events(play.log(seed, SAMPLE_START + g), rules, SAMPLE_START + g)
    return found[Stream(seed, PICK_START + g).below(len(found))] if found else None


def _sample_captures(play: _Player, rules, seed, positions, phase, out) -> list[CaptureEvent]:
    """One capture of each sample game (picked at random among its captures),
    until there are ``positions``; games without a capture give none. The
    games are looked at in rounds of as many as positions are missing (a
    game gives at most one), one after the other here, :data:`SAMPLE_TASK`
    per Dask task on a cluster; the first ``positions`` found count."""
    events: list[CaptureEvent] = []
    advance = phase("sampling captures", positions)
    g = 0

    def take(i: int, ev: CaptureEvent | None) -> None:
        nonlocal g
        if len(events) < positions and g == first + i:
            g += 1
            out.sample_games = g
            if ev is not None:
                events.append(ev)
                advance(1)

    while len(events) < positions and g < MAX_SAMPLE_GAMES:
        first = g
        more = min(positions - len(events), MAX_SAMPLE_GAMES - g)
        cluster.run_tasks(_sample_events, [(play, rules, seed, h) for h in range(g, g + more)],
                          take, SAMPLE_TASK)
    return events


def _bands(events, losses) -> list[CaptureBand]:
    """The losses grouped by how far the captured piece had come (positions done only)."""
    out = []
    for band in range(RING // BAND):
        pick = [i for i in range(len(losses)) if band_of(events[i].square) == band]
        if pick:
            out.append(CaptureBand(band * BAND, band * BAND + BAND - 1,
                                   _est([losses[i] for i in pick]),
                                   float(np.mean([events[i].square for i in pick]))))
    return out

