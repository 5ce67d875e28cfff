"""Benchmark: whole games per second (numba game kernel vs reference game).

Two players play under the default rules of the game (Tutto to 6000, Berliner
Macke to 5000, Volle Lotte to 6000), both following the optimal table
(``optimal``, i.e. ``data/policies/<game>-default.json``). The kernel is timed
on one thread and on all threads, the plain-Python reference game on the same
games. Usage::

    python scripts/bench_games.py [--game tutto|macke|volle-lotte] [--games N] [--seconds S]
                                  [--bots optimal,optimal] [--json]

Speed is measured here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numba

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import game_kind, kernel_batch, make_lineups, reference_batch
from tutto_sim.macke.game import MackeConfig
from tutto_sim.macke.rules import MackeRules
from tutto_sim.tutto.game import GameConfig

GAMES = ("tutto", "macke", "volle-lotte")


def game_config(game: str):
    if game == "tutto":
        return GameConfig()
    return MackeConfig(MackeRules.preset("volle-lotte" if game == "volle-lotte" else "standard"))


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def kernel_rate(kernel, lineups, games: int, threads: int, repeats: int = 3) -> tuple[float, float]:
    """Best games/s over ``repeats`` runs, and the mean turns per game."""
    numba.set_num_threads(threads)
    kernel_batch(kernel, 7, 0, 20_000, lineups)  # warm up: compile / load cache, start threads
    best, turns = 0.0, 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        batch = kernel_batch(kernel, 7 + r, 0, games, lineups)
        best = max(best, games / (time.perf_counter() - t0))
        turns = float(batch.turns.mean())
    return best, turns


def reference_rate(bots, config, lineups, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        reference_batch(bots, config, 7, n, 20, lineups)
        n += 20
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, default="tutto", help="game to time")
    ap.add_argument("--games", type=int, default=300_000, help="games per kernel timing")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for the reference game")
    ap.add_argument("--bots", default="optimal,optimal", help="bots at the table (table or threshold bots)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    config = game_config(args.game)
    bots = parse_bots(args.bots, config.rules)
    lineups = make_lineups(len(bots), len(bots))
    kernel = game_kind(config).kernel(config, [b.table() for b in bots])
    cores = numba.config.NUMBA_NUM_THREADS
    one, turns = kernel_rate(kernel, lineups, args.games, 1)
    allc, _ = kernel_rate(kernel, lineups, args.games, cores)
    ref = reference_rate(bots, config, lineups, args.seconds)
    result = {
        "game": args.game,
        "games_per_second_per_core": round(one),
        "games_per_second_all_cores": round(allc),
        "cores": cores,
        "parallel_speedup": round(allc / one, 3),
        "turns_per_game": round(turns, 2),
        "reference_games_per_second": round(ref, 1),
        "speedup_vs_reference": round(one / ref, 1),
        "bots": [b.name for b in bots],
        "players": len(bots),
        "target": config.rules.target,
        "machine": f"{cpu_name()}, {os.cpu_count()} logical CPUs, {platform.python_implementation()} "
                   f"{platform.python_version()}, numba {numba.__version__}",
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>28}: {v:,}" if isinstance(v, (int, float)) else f"{k:>28}: {v}")


if __name__ == "__main__":
    main()
