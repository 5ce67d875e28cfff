"""Game-level analyses: the first player's advantage by table size, and what the
optimal turn policy is worth against the best simple threshold, in games won.

Game-independent: both run tournaments (``core.tournament``) in the kernel
and report every rate with its 95% CI. The game follows from the config
(each game's ``GameConfig``) through the registry.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from tutto_sim.core import registry
from tutto_sim.core.bots import parse_bot, parse_bots
from tutto_sim.core.contract import DEFAULT_TABLE_SIZES
from tutto_sim.core.stats import Estimate
from tutto_sim.core.tournament import TournamentResult, game_kind, run_tournament

#: Streams of the final evaluation start here, so it never reuses the search's games.
FRESH_START = 1 << 40

Phase = Callable[[str, int], Callable[[int], None]]


def _no_phase(label: str, total: int):
    return lambda n: None


@dataclass
class SeatRow:
    players: int
    seats: list[Estimate]  # win rate by seat
    first_player_advantage: Estimate  # seat 0's rate minus 1/n
    mean_rounds: float
    instant_share: float  # games won at once (the game's instant wins, if it has any)
    #: the game's own counts per game (``GameKind.counts``), with CIs
    counts: dict[str, Estimate] = field(default_factory=dict)
    #: a seat's win rate without an advantage: 1/n (1/sides for partners, ``GameKind.partners``)
    fair_share: float = 0.0

    @property
    def cloverleaf_share(self) -> float:
        return self.instant_share


def seat_advantage(bot: str = "optimal", players=DEFAULT_TABLE_SIZES, games: int = 100_000,
                   seed: int = 1, config=None,
                   phase: Phase = _no_phase) -> list[SeatRow]:
    """Every seat played by the same bot: win rate by seat for each table size."""
    b = parse_bot(bot, config.rules)
    rows = []
    try:
        for n in players:
            table = table_config(config, n)
            res = run_tournament([b], n, games, seed, table,
                                 progress=phase(f"{n} players", games), catch_interrupt=False)
            ends = res.end_counts()
            instant = ends.get("cloverleaf", ends.get("instant-win", 0))
            counts = {c: res.game_count(c) for c in game_kind(table).counts}
            rows.append(SeatRow(n, res.seat_rates(), res.first_player_advantage(),
                                res.mean_rounds(), instant / max(res.games, 1), counts,
                                res.fair_share()))
    except KeyboardInterrupt:
        raise Interrupted(rows) from None
    return rows


def table_config(config, players: int):
    """The config for a table of ``players``: a game whose rules hold the table
    size (hook ``table_rules``) gets a config for that size; the others play
    every size with the same config."""
    hooks = registry.for_config(config).hooks
    rules = hooks.table_rules(config.rules, players)
    return config if rules is config.rules else hooks.config(rules)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an analysis; ``finished`` holds the table sizes done by then."""

    def __init__(self, finished):
        super().__init__("interrupted")
        self.finished = finished


@dataclass
class ThresholdDuel:
    players: int
    search: dict[int, Estimate]  # threshold -> its bots' win rate against optimal (search games)
    best: int  # the threshold that wins most against optimal
    final: TournamentResult  # fresh games: optimal vs the best threshold
    turn_ev: dict[str, float] = field(default_factory=dict)  # exact EV per turn
    seconds: float = 0.0

    @property
    def optimal(self):
        return next(b for b in self.final.bot_stats() if b.name == "optimal")


def optimal_vs_threshold(players: int = 2, games: int = 200_000, search_games: int = 40_000,
                         seed: int = 1, config=None,
                         candidates=range(200, 1001, 50),
                         phase: Phase = _no_phase) -> ThresholdDuel:
    """Find the single bank threshold that wins most against the optimal table
    (every candidate on the same games: common random numbers), then play the
    optimal table against it on fresh games.

    At a table of ``players`` the optimal bot plays one seat and copies of the
    threshold bot the others; a threshold bot's rate is per seat. How
    ``threshold:X`` plays is the game's (hook ``threshold_words``).
    """
    t0 = time.perf_counter()
    rules = config.rules

    def lineup(x: int):
        return parse_bots(["optimal"] + [f"threshold:{x}"] * (players - 1), rules)

    search = {}
    for x in candidates:
        res = run_tournament(lineup(x), players, search_games, seed, config,
                             progress=phase(f"threshold {x}", search_games), catch_interrupt=False)
        search[x] = _copies_rate(res, players - 1)
    best = max(search, key=lambda x: search[x].mean)
    final = run_tournament(lineup(best), players, games, seed, config, start=FRESH_START,
                           progress=phase("final", games), catch_interrupt=False)
    ev = exact_turn_values(rules, sorted({best, 300}))
    return ThresholdDuel(players, search, best, final, ev, time.perf_counter() - t0)


def _copies_rate(res: TournamentResult, copies: int) -> Estimate:
    """The mean win rate per seat of the ``copies`` threshold bots beside one
    optimal bot: every game's shares of the win add up to 1, so it is
    ``(1 - p) / copies`` for the optimal bot's rate ``p``, and its Wilson
    interval follows from p's (the copies play the same games: their seats are
    not independent samples)."""
    opt = next(b.win for b in res.bot_stats() if b.name == "optimal")
    return Estimate((1 - opt.mean) / copies, opt.ci95 / copies, opt.n,
                    (1 - opt.high) / copies, (1 - opt.low) / copies, opt.interval)


def exact_turn_values(rules, thresholds) -> dict[str, float]:
    """Exact points per turn (turn analysis) of ``optimal`` and ``threshold:X``
    (the game's ``exact_turn_values`` hook)."""
    return registry.for_rules(rules).hooks.exact_turn_values(rules, thresholds)
