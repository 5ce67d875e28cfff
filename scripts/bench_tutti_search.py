"""Benchmark: Tutti's search bots, speed and strength.

Speed: the median (and 90th percentile) time of one decision of a bot,
over every decision with two or more legal actions in hands where it plays
seat by seat against ``heuristic`` (decisions with one legal action take
no search and are left out), on one thread (numba's setting is forced to
1; the search bots are single-threaded anyway). The time is the process's
CPU time (``time.process_time``), so that other work on a shared machine
does not inflate it; the load average is printed beside it.

Strength: ``--match A,B``: hands ``0 .. N-1`` of a run with ``--seed``,
each dealt once per seating (2 players: each deal twice, A in seat 0 then in
seat 1), so luck of the cards cancels; A's share of the hands won (a tied
hand counts one half, as it is replayed) with its 95% confidence interval,
and the mean margin of A's side (points minus the other side's) with its
95% CI. Usage::

    python scripts/bench_tutti_search.py --speed pimc [--players 2] [--hands 12]
    python scripts/bench_tutti_search.py --match pimc,heuristic --hands 200 [--players 2] [--json FILE]

``--json FILE`` writes the match as a saved measurement (``core.measured``:
the command, seed, rules, budget, hands won, tied and lost), as
``tutto_sim/data/measured/tutti-pimc-heuristic.json``, which the Tutti report cites.
Speed is measured here, never in the tests.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time
from pathlib import Path

import numba
import numpy as np

from tutto_sim.core.stats import Z95
from tutto_sim.tutti.bots import HeuristicBot, make_bot
from tutto_sim.tutti.reference import play_hand
from tutto_sim.tutti.rules import TuttiRules


class Timed:
    """A bot whose searching decisions are timed."""

    def __init__(self, bot, times: list[float]):
        self.bot = bot
        self.name = bot.name
        self.times = times
        self.sees_state = getattr(bot, "sees_state", False)

    def see(self, state) -> None:
        self.bot.see(state)

    def act(self, obs):
        t0 = time.process_time()
        action = self.bot.act(obs)
        if len(obs.legal) > 1:
            self.times.append(time.process_time() - t0)
        return action


def speed(spec: str, rules: TuttiRules, hands: int, seed: int) -> dict:
    times: list[float] = []
    bot = Timed(make_bot(spec, 0, seed, 0), times)
    play_hand([bot] + [HeuristicBot()] * (rules.players - 1), rules, seed + 1, 0)  # compile, warm
    times.clear()
    t0 = time.perf_counter()
    for i in range(hands):
        for seat in range(rules.players):
            lineup: list = [HeuristicBot()] * rules.players
            lineup[seat] = bot
            play_hand(lineup, rules, seed, i)
    ms = 1000 * np.array(times)
    return {"bot": spec, "players": rules.players, "decisions": len(ms),
            "median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90)),
            "max_ms": float(ms.max()), "seconds": time.perf_counter() - t0}


def match(a: str, b: str, rules: TuttiRules, hands: int, seed: int) -> dict:
    n = rules.players
    share, margins = 0.0, []
    wins = ties = 0
    t0 = time.perf_counter()
    for i, seat in itertools.product(range(hands), range(n)):
        lineup = [make_bot(b, p, seed, i) for p in range(n)]
        lineup[seat] = make_bot(a, seat, seed, i)
        rec = play_hand(lineup, rules, seed, i)
        mine = rules.side(seat)
        share += 1.0 if rec.winner == mine else (0.5 if rec.winner < 0 else 0.0)
        wins += rec.winner == mine
        ties += rec.winner < 0
        if rec.tute >= 0:
            margins.append(250 if rules.side(rec.tute) == mine else -250)
        else:
            margins.append(rec.scores[mine] - max(v for s, v in enumerate(rec.scores) if s != mine))
    games = hands * n
    p = share / games
    m = np.array(margins, dtype=float)
    return {"a": a, "b": b, "players": n, "hands": games, "wins": int(wins), "ties": int(ties),
            "win_share": p,
            "win_ci95": Z95 * math.sqrt(p * (1 - p) / games), "margin": float(m.mean()),
            "margin_ci95": float(Z95 * m.std(ddof=1) / math.sqrt(games)),
            "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--speed", help="a bot spec to time, e.g. pimc or ismcts:300")
    ap.add_argument("--match", help="two bot specs A,B")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None,
                    help="--match: also write the match as a saved measurement to this file")
    args = ap.parse_args()
    numba.set_num_threads(1)
    rules = TuttiRules(players=args.players)
    if args.speed:
        r = speed(args.speed, rules, args.hands or 12, args.seed)
        print(f"{r['bot']}, {r['players']} players: median {r['median_ms']:.1f} ms per decision "
              f"(90th percentile {r['p90_ms']:.1f}, max {r['max_ms']:.1f}) over "
              f"{r['decisions']} decisions, CPU time on one thread, seed {args.seed}, "
              f"load average {os.getloadavg()[0]:.1f}")
    if args.match:
        a, b = (s.strip() for s in args.match.split(","))
        r = match(a, b, rules, args.hands or 200, args.seed)
        print(f"{a} vs {b}, {r['players']} players: {a} wins {100 * r['win_share']:.1f}% "
              f"± {100 * r['win_ci95']:.1f} of {r['hands']} hands (every deal in every seating), "
              f"margin {r['margin']:+.1f} ± {r['margin_ci95']:.1f} points, seed {args.seed}, "
              f"{r['seconds']:.0f} s")
        if args.json:
            save_match(args.json, r, rules, args)


def save_match(path: Path, r: dict, rules: TuttiRules, args) -> None:
    """The match as a saved measurement (``core.measured``), with the command that made it."""
    from tutto_sim.core.measured import write_measured
    from tutto_sim.tutti.bots import parse_bot

    command = f"python scripts/bench_tutti_search.py --match {args.match} --hands {args.hands or 200}"
    if args.players != 2:
        command += f" --players {args.players}"
    command += f" --seed {args.seed}"
    write_measured(path, game="tutti", bot=parse_bot(r["a"], rules).name,
                   budget=_budget(r["a"]), against=r["b"], rules=rules, unit="hand",
                   n=r["hands"], wins=r["wins"], ties=r["ties"], seed=args.seed,
                   command=command,
                   how="every deal played in every seating; a tied hand counts one half")


def _budget(spec: str) -> int | None:
    """A search bot's budget per decision (its default when the spec names none)."""
    from tutto_sim.tutti.ismcts import DEFAULT_ITERATIONS
    from tutto_sim.tutti.pimc import DEFAULT_SAMPLES

    kind, _, n = spec.partition(":")
    default = {"pimc": DEFAULT_SAMPLES, "ismcts": DEFAULT_ITERATIONS, "cheat": DEFAULT_SAMPLES}
    return int(n) if n else default.get(kind)


if __name__ == "__main__":
    main()
