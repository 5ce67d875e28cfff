"""Benchmark: whole games per second (numba game kernel vs reference game).

Two players play under the default rules of the game (Tutto to 6000, Berliner
Macke to 5000, Volle Lotte to 6000), both following the optimal table
(``optimal``, i.e. ``tutto_sim/data/policies/<game>-default.json``). Rutsmieter: four
players with ``first`` bots under the default rules, every seating in turn
(as ``tutto-sim tournament`` plays them). Tutti: four-player hands with
``random`` bots (``--bots`` picks the bots and so the table size), timed in
``tutti.kernel.simulate_hands`` and ``tutti.reference.play_hand``; "games" are
hands there. The kernel is timed on one thread and on all threads, the
plain-Python reference game on the same games; the ratios to the reference
are in the same run. For Tutti it also times the search bot ``pimc`` at its
default budget on one core (``pimc_ms_per_decision``: the median CPU time of a
decision with more than one legal card, over ``--pimc-hands`` hands in every
seat against ``heuristic``, as ``bench_tutti_search.py --speed pimc`` does). Usage::

    python scripts/bench_games.py [--game tutto|macke|volle-lotte|rutsmieter|tutti] [--games N]
                                  [--seconds S] [--bots optimal,optimal] [--pimc-hands H] [--json]

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
from tutto_sim.macke import game as macke_game
from tutto_sim.macke.rules import MackeRules
from tutto_sim.rutsmieter import game as rutsmieter_game
from tutto_sim.rutsmieter.rules import RutsmieterRules
from tutto_sim.tutto import game as tutto_game

GAMES = ("tutto", "macke", "volle-lotte", "rutsmieter", "tutti")
DEFAULT_BOTS = {"rutsmieter": "first,first,first,first", "tutti": "random,random,random,random"}


def game_config(game: str, players: int = 2):
    if game == "tutto":
        return tutto_game.GameConfig()
    if game == "rutsmieter":
        return rutsmieter_game.GameConfig(RutsmieterRules(players=players))
    return macke_game.GameConfig(MackeRules.preset("volle-lotte" if game == "volle-lotte" else "standard"))


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def kernel_rate(kernel, lineups, games: int, threads: int, repeats: int = 3) -> tuple[float, float, float]:
    """Best games/s over ``repeats`` runs, the mean turns and throws per game
    (throws only for games that count them, else nan)."""
    numba.set_num_threads(threads)
    kernel_batch(kernel, 7, 0, 20_000, lineups)  # warm up: compile / load cache, start threads
    best, turns, throws = 0.0, 0.0, float("nan")
    for r in range(repeats):
        t0 = time.perf_counter()
        batch = kernel_batch(kernel, 7 + r, 0, games, lineups)
        best = max(best, games / (time.perf_counter() - t0))
        turns = float(batch.turns.mean())
        if "throws" in batch.counts:
            throws = float(batch.counts["throws"].mean())
    return best, turns, throws


def reference_rate(bots, config, lineups, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        reference_batch(bots, config, 7, n, 20, lineups)
        n += 20
    return n / (time.perf_counter() - t0)


def tutti_rates(names: list[str], rules, games: int, seconds: float) -> dict:
    """Tutti hands per second: kernel on one and on all threads, reference
    (Tutti has no tournament entry yet, so it is timed without the registry)."""
    from tutto_sim.tutti import kernel as K
    from tutto_sim.tutti.reference import play_hand

    rates, bots = {}, parse_bots(names, rules)
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        K.simulate_hands(names, rules, 7, 20_000)  # warm up: compile / load cache, start threads
        best = 0.0
        for r in range(3):
            t0 = time.perf_counter()
            res = K.simulate_hands(names, rules, 7 + r, games)
            best = max(best, games / (time.perf_counter() - t0))
        rates[threads] = best
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play_hand(bots, rules, 7, n)
        n += 1
    rates["reference"] = n / (time.perf_counter() - t0)
    rates["tricks"] = float(res.tricks.mean())
    return rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, default="tutto", help="game to time")
    ap.add_argument("--games", type=int, default=300_000, help="games per kernel timing")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for the reference game")
    ap.add_argument("--bots", default=None, help="bots at the table (table or threshold bots; "
                    "Rutsmieter: built-in bots); default optimal,optimal (Rutsmieter: first x 4)")
    ap.add_argument("--pimc-hands", type=int, default=3,
                    help="Tutti: hands per seat for timing pimc's decisions (0: skip)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    specs = args.bots or DEFAULT_BOTS.get(args.game, "optimal,optimal")
    if args.game == "tutti":
        from tutto_sim.tutti.kernel import bot_ids
        from tutto_sim.tutti.rules import TuttiRules

        names = specs.split(",")
        try:
            bot_ids(names)
            rules = TuttiRules(players=len(names))
        except ValueError as e:
            ap.error(str(e))
        rates = tutti_rates(names, rules, args.games, args.seconds)
        cores = numba.config.NUMBA_NUM_THREADS
        pimc = {}
        if args.pimc_hands > 0:
            from bench_tutti_search import speed  # beside this script

            numba.set_num_threads(1)
            t = speed("pimc", rules, args.pimc_hands, seed=1)
            pimc = {"pimc_ms_per_decision": round(t["median_ms"], 2),
                    "pimc_ms_p90": round(t["p90_ms"], 2), "pimc_decisions": t["decisions"]}
        one, allc, ref = rates[1], rates[cores], rates["reference"]
        result = {
            "game": "tutti", "unit": "hand",
            "games_per_second_per_core": round(one),
            "games_per_second_all_cores": round(allc),
            "cores": cores,
            "parallel_speedup": round(allc / one, 3),
            "tricks_per_game": round(rates["tricks"], 2),
            "reference_games_per_second": round(ref, 1),
            "speedup_vs_reference": round(one / ref, 1),
            "speedup_all_cores_vs_reference": round(allc / ref, 1),
            **pimc,
            "bots": names, "players": len(names),
            "machine": machine(),
        }
        report(result, args.json)
        return
    config = game_config(args.game, len(specs.split(",")))
    bots = parse_bots(specs, config.rules)
    kind = game_kind(config)
    lineups = make_lineups(len(bots), len(bots), kind.all_seatings)
    kernel = kind.kernel(config, [b.table() for b in bots])
    cores = numba.config.NUMBA_NUM_THREADS
    one, turns, throws = kernel_rate(kernel, lineups, args.games, 1)
    allc, _, _ = kernel_rate(kernel, lineups, args.games, cores)
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
        "speedup_all_cores_vs_reference": round(allc / ref, 1),
        "bots": [b.name for b in bots],
        "players": len(bots),
        **({"throws_per_game": round(throws, 2)} if throws == throws else {}),
        **({"target": config.rules.target} if hasattr(config.rules, "target") else {}),
        "machine": machine(),
    }
    report(result, args.json)


def machine() -> str:
    return (f"{cpu_name()}, {os.cpu_count()} logical CPUs, {platform.python_implementation()} "
            f"{platform.python_version()}, numba {numba.__version__}")


def report(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>28}: {v:,}" if isinstance(v, (int, float)) else f"{k:>28}: {v}")


if __name__ == "__main__":
    main()
