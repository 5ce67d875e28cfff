"""The numbers behind the Tutti report, computed once and drawn by
``report_figures``.

At the end of the game's chain (rules → reference → kernel → bots →
analyses → report): the figures come from ``tutti.analysis`` and
``core.tournament``, never computed again here. ``matches`` (the report's
``--turns``) is the number of **matches per table** of every kernel
tournament; the other parts play a fixed multiple or share of it
(:data:`HAND_FACTOR`, :data:`DEAL_FACTOR`, :data:`EXCHANGE_SHARE`,
:data:`DECLARE_SHARE`, :data:`SEARCH_SHARE`), so one number scales the whole
report. Every part reads the streams ``(seed, 0 ..)``: the same seed gives
the same report on any number of threads.

The parts
---------
- **Bots**: ``heuristic`` against ``random`` at every table (2, 3, 4 players
  and 4 in pairs), every seating, in the kernel; and the search bots against
  ``heuristic`` at 2 players: at their own budgets from the saved
  measurement (``core.measured``: ``tutto_sim/data/measured/tutti-pimc-heuristic.json``,
  the match docs/tutti.md and the README quote) when one was made under the
  report's rules, else with small budgets (``pimc:10``, ``ismcts:100``) in a
  short match of the report's own in the reference engine, which the page
  labels as such (too few deals to show the bot's strength).
- **The lead**: ``analysis.lead_advantage`` (``heuristic`` in every seat).
- **Exchange and declaring**: ``analysis.abstain_value`` (exchange at 2
  players, declaring at every table; common random numbers).
- **The trump card's rank**: ``analysis.trump_rank``.
- **Dealt Tutes**: ``analysis.dealt_tute`` (exact and sampled).
- **Points per hand**: single hands with ``heuristic`` in every seat
  (``kernel.simulate_hands``): each side's points.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from dataclasses import dataclass, field

import numpy as np

from tutto_sim.core.report import PhaseHook, no_phase

from . import analysis as A
from .rules import TuttiRules


#: The tables of the report, as ``tutti.analysis`` names them.
TABLES = A.TABLES
#: The kernel bots' tournament at every table.
KERNEL_BOTS = ("heuristic", "random")
#: The search bots with the report's small budgets, each against ``heuristic``
#: (played only where no saved measurement fits the report's rules).
SEARCH_BOTS = ("pimc:10", "ismcts:100")
#: The search bots' opponent, in the report's matches and the saved ones.
SEARCH_OPPONENT = "heuristic"
#: Hands of the trump-rank and points pages: ``HAND_FACTOR`` × matches per table.
HAND_FACTOR = 5
#: Deals of the dealt-Tute page: ``DEAL_FACTOR`` × matches per table size.
DEAL_FACTOR = 50
#: Deals of the exchange (2 players) and declaring (each table) pages: matches // share.
EXCHANGE_SHARE = 50
DECLARE_SHARE = 100
#: Matches of each search bot against heuristic: matches // share (even, at least 2).
SEARCH_SHARE = 100


def report_rules(rules: TuttiRules) -> TuttiRules:
    """The report's rules: the options of ``rules`` at the 2-player table (the
    report plays every table itself)."""
    return dataclasses.replace(rules, players=2, pairs=False)


def sizes(matches: int) -> dict[str, int]:
    """How much each part plays for ``matches`` matches per table."""
    return {"matches": matches, "hands": HAND_FACTOR * matches, "deals": DEAL_FACTOR * matches,
            "exchange": max(1, matches // EXCHANGE_SHARE),
            "declare": max(1, matches // DECLARE_SHARE),
            "search": max(2, 2 * (matches // (2 * SEARCH_SHARE)))}


def search_specs() -> tuple[str, ...]:
    """The search bots of :data:`SEARCH_BOTS` that this version has."""
    from tutto_sim.core.bots import BotSpecError

    from .bots import parse_bot

    out = []
    for spec in SEARCH_BOTS:
        try:
            parse_bot(spec, TuttiRules())
        except (BotSpecError, ImportError):
            continue
        out.append(spec)
    return tuple(out)


def saved_search(rules: TuttiRules, folder=None) -> dict:
    """The saved measurements (``core.measured``) of the search bots of
    :data:`SEARCH_BOTS` against heuristic at 2 players under ``rules``:
    bot name -> ``Measured``; a bot without one is left out."""
    from tutto_sim.core.measured import measured

    out = {}
    for spec in search_specs():
        kind = spec.split(":")[0]
        m = measured("tutti", kind, SEARCH_OPPONENT, A.named_table_rules(rules, "2"), folder)
        if m is not None:
            out[kind] = m
    return out


#: The saved ladder of the bot page (``tutto-sim ladder --json`` and the command that made it).
LADDER_FILE = "tutti-2p.json"


def saved_ladder(rules: TuttiRules, folder=None) -> dict | None:
    """The saved 2-player ladder (``tutto_sim/data/ladders/tutti-2p.json``, the
    JSON of ``tutto-sim ladder`` with its ``command`` and ``machine``) when it
    was played under the report's 2-player rules, else None."""
    import json

    from tutto_sim.core.measured import MEASURED_DIR

    path = Path(folder or MEASURED_DIR.parent / "ladders") / LADDER_FILE
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    table = dataclasses.asdict(A.named_table_rules(rules, "2"))
    saved = {k: v for k, v in d.get("rules", {}).items() if k != "game"}
    return d if saved == table else None


def tournament(rules: TuttiRules, table: str, names, matches: int, seed: int,
               phase: PhaseHook = no_phase, engine: str = "kernel", label: str | None = None):
    """``names`` at ``table``, every seating (``core.tournament``)."""
    from tutto_sim.core.tournament import run_tournament

    from .bots import parse_bot
    from .game import GameConfig

    table_rules = A.named_table_rules(rules, table)
    bots = [parse_bot(n, table_rules) for n in names]
    label = label or f"{' against '.join(names)}, {A.table_words(table)}"
    return run_tournament(bots, table_rules.players, matches, seed, GameConfig(table_rules),
                          engine=engine, progress=phase(label, matches), catch_interrupt=False)


@dataclass
class HandPoints:
    """Single hands with ``heuristic`` in every seat: each side's points."""

    def winners_points(self) -> np.ndarray:
        """The winning side's points in each hand that was not tied."""
        won = self.winner >= 0
        return self.points[np.flatnonzero(won), self.winner[won]]

    table: str
    points: np.ndarray  # [hands, sides]
    winner: np.ndarray  # [hands]: the side that won the hand, -1 for a tie
    tute: np.ndarray  # [hands]: a Tute ended the hand
    declared: np.ndarray  # [hands]: points declared in the hand (all sides; 0 if a Tute ended it)


def hand_points(rules: TuttiRules, table: str, hands: int, seed: int,
                phase: PhaseHook = no_phase) -> HandPoints:
    from . import kernel as K

    table_rules = A.named_table_rules(rules, table)
    advance = phase(f"points per hand, {A.table_words(table)}", hands)
    res = K.simulate_hands(["heuristic"] * table_rules.players, table_rules, seed, hands)
    advance(hands)
    points = res.points.astype(np.int64)[:, :table_rules.sides]
    tute = res.tutes > 0
    declared = np.where(tute, 0, points.sum(axis=1) - 130)
    return HandPoints(table, points, res.winner.astype(np.int64), tute, declared)


def _interrupted(result: A.Result) -> A.Result:
    """An analysis stopped by Ctrl-C keeps its tables; a report is all or nothing."""
    if result.interrupted:
        raise KeyboardInterrupt
    return result


@dataclass
class TuttiReportData:
    rules: TuttiRules  # the options, at 2 players
    seed: int
    matches: int  # matches per table (the report's --turns)
    bots: dict  # table -> TournamentResult of heuristic against random
    search: dict  # spec -> TournamentResult against heuristic at 2 players (small budget)
    lead: A.Result
    exchange: A.Result
    declare: A.Result
    trump: A.Result
    tute: A.Result
    points: dict  # table -> HandPoints
    seconds: dict = field(default_factory=dict)
    tournament: object | None = None  # core.report.Tournament of --tournament, if given
    saved: dict = field(default_factory=dict)  # bot -> core.measured.Measured (full budget)
    ladder: dict | None = None  # the saved 2-player ladder (saved_ladder), if it fits

    @property
    def sizes(self) -> dict[str, int]:
        return sizes(self.matches)

    def at(self, table: str) -> TuttiRules:
        return A.named_table_rules(self.rules, table)


def compute(rules: TuttiRules, seed: int, matches: int,
            phase: PhaseHook = no_phase, measured_dir=None) -> TuttiReportData:
    """Every number of the report (module docstring). Ctrl-C raises
    KeyboardInterrupt (the report is all or nothing). ``measured_dir``: where
    the saved measurements are (default ``tutto_sim/data/measured``)."""
    rules = report_rules(rules)
    saved = saved_search(rules, measured_dir)
    n = sizes(matches)
    seconds: dict = {}

    def timed(part, fn, *a, **k):
        t0 = time.perf_counter()
        value = fn(*a, **k)
        seconds[part] = time.perf_counter() - t0
        return value

    bots = {t: timed(f"bots {t}", tournament, rules, t, KERNEL_BOTS, matches, seed, phase)
            for t in TABLES}
    search = {spec: timed(spec, tournament, rules, "2", (spec, SEARCH_OPPONENT), n["search"],
                          seed, phase, engine="reference")
              for spec in search_specs() if spec.split(":")[0] not in saved}
    lead = timed("lead", lambda: _interrupted(A.lead_advantage(
        rules, TABLES, "heuristic", matches, seed, phase)))
    exchange = timed("exchange", lambda: _interrupted(A.abstain_value(
        rules, "exchange", ("2",), "heuristic", n["exchange"], seed, phase)))
    declare = timed("declare", lambda: _interrupted(A.abstain_value(
        rules, "declare", TABLES, "heuristic", n["declare"], seed, phase)))
    trump = timed("trump", lambda: _interrupted(A.trump_rank(
        rules, TABLES, "heuristic", n["hands"], seed, phase)))
    tute = timed("tute", lambda: _interrupted(A.dealt_tute((2, 3, 4), n["deals"], seed, phase)))
    points = {t: timed(f"points {t}", hand_points, rules, t, n["hands"], seed, phase)
              for t in TABLES}
    return TuttiReportData(rules, seed, matches, bots, search, lead, exchange, declare, trump,
                           tute, points, seconds, saved=saved,
                           ladder=saved_ladder(rules))
