"""Benchmark: the exact solve of every Tutto card (the whole optimal policy).

Usage::

    python scripts/bench_solve.py [--json] [--repeats N]
    python scripts/bench_solve.py --objective win [--target N] [--game-end round|immediate] [--json]
    python scripts/bench_solve.py --objective win --game macke|volle-lotte [--players 3|4] [--target N] [--json]
    python scripts/bench_solve.py --objective win --players 3|4 [--target N] [--game-end E] [--json]

Prints the wall time of ``solve_tutto`` (all cards, default rules and x2
scope "card"), of turning the solution into the decision table bots load,
and of the first call in this process (which loads or compiles numba's
cached kernels). The issue's floor: the whole solve under 10 s on 2 cores.

``--objective win`` times the two-player win-probability solver
(``tutto.win.solve2.solve_win``, docs/win.md) at ``--target`` (default 1000):
``seconds`` (the whole solve with the EV-optimal evaluations, after a first
small solve that loads the compiled kernels), ``states``, ``residual``, the
process's CPU seconds and the load average, since the machine may be shared.
``--game macke`` or ``volle-lotte`` times ``macke.win.solve2.solve_macke_win``
(docs/macke-win.md) instead, floor -2500; with ``--players 3`` or ``4`` the
N-player ``macke.win.solve_n.solve_macke_win_n`` (floor -1000), each phase's
seconds beside the whole. For Tutto ``--players 3`` or ``4`` times
the N-player solver (``tutto.win.solve_n.solve_win_n``) with the two-player
solve at the same target as the baseline run in the same process: the
seconds of each, the turn-start states, the seconds per 1,000 states of
each world (the win-optimal one, the points one and one per seat), and the
win table's programmes a turn start in a sweep (Newton's runs, ``main_programmes``
over the main phase's turn starts).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numba

from tutto_sim.tutto.policy import ExactPolicy
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import solve_tutto


def timed(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--objective", choices=("ev", "win"), default="ev")
    ap.add_argument("--target", type=int, default=1000)
    ap.add_argument("--game-end", choices=("round", "immediate"), default="round")
    ap.add_argument("--game", choices=("tutto", "macke", "volle-lotte"), default="tutto")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    args = ap.parse_args()
    if args.objective == "win":
        return bench_win(args)

    t0 = time.perf_counter()
    sol = solve_tutto()
    first = time.perf_counter() - t0
    solve = timed(lambda: solve_tutto(), args.repeats)
    table = timed(lambda: ExactPolicy.from_solution(sol), 1)
    card_scope = timed(lambda: solve_tutto(TuttoRules(x2_scope="card")), 1)
    result = {
        "solve_seconds": round(solve, 3),
        "first_solve_seconds_incl_numba_load": round(first, 3),
        "decision_table_seconds": round(table, 3),
        "solve_x2_scope_card_seconds": round(card_scope, 3),
        "turn_ev": round(sol.turn_ev, 4),
        "cores": numba.config.NUMBA_NUM_THREADS,
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
                   f"CPython {platform.python_version()}, numba {numba.__version__}",
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>38}: {v}")


def machine() -> str:
    """The machine a figure was measured on, for the JSON."""
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
            f"CPython {platform.python_version()}, numba {numba.__version__}")


def bench_win_n(args) -> None:
    from tutto_sim.tutto.win.solve2 import solve_win
    from tutto_sim.tutto.win.solve_n import solve_win_n

    small = TuttoRules(target=100, game_end=args.game_end)
    solve_win(small)
    solve_win_n(small, players=args.players)  # load the kernels
    rules = TuttoRules(target=args.target, game_end=args.game_end)
    t0 = time.perf_counter()
    two = solve_win(rules)
    base = time.perf_counter() - t0
    cpu0 = time.process_time()
    sol = solve_win_n(rules, players=args.players)
    worlds = 2 + args.players
    per = sol.seconds / (sol.states * worlds) * 1000
    per2 = base / (two.states * 4) * 1000
    result = {**sol.summary(), **sol.extra, "cpu_seconds": round(time.process_time() - cpu0, 1),
              "two_player_seconds": round(base, 3), "two_player_states": two.states,
              "seconds_per_1000_states_per_world": round(per, 3),
              "two_player_seconds_per_1000_states_per_world": round(per2, 3),
              "ratio_per_state": round(per / per2, 2),
              "programmes_per_turn_start": round(
                  sol.extra.get("main_programmes", 0) / (sol.extra["main_states"] * sol.sweeps), 2),
              "threads": numba.get_num_threads(), "load_average": os.getloadavg(),
              "machine": machine()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>44}: {v}")


def bench_macke_n(args) -> None:
    """``--game macke|volle-lotte --players 3|4``: ``macke.win.solve_n.solve_macke_win_n``
    (default floor and cap) after a small solve that loads the kernels; the
    wall seconds of each phase, the CPU seconds and the load average before and after."""
    from tutto_sim.macke.rules import MackeRules
    from tutto_sim.macke.win.solve_n import solve_macke_win_n

    variant = "volle-lotte" if args.game == "volle-lotte" else "standard"
    solve_macke_win_n(MackeRules.preset(variant, target=100), args.players, floor=-100,
                      cap_units=20)  # load the kernels
    marks = []

    def phase(label, total, unit=None):
        marks.append((label, time.perf_counter()))
        return lambda k: None

    load0, cpu0 = os.getloadavg(), time.process_time()
    sol = solve_macke_win_n(MackeRules.preset(variant, target=args.target), args.players,
                            phase=phase)
    end = time.perf_counter()
    phases = {}
    for (label, t), (_, t2) in zip(marks, marks[1:] + [("", end)]):
        phases[label] = round(phases.get(label, 0.0) + t2 - t, 1)
    result = {**sol.summary(), "cpu_seconds": round(time.process_time() - cpu0, 1),
              "phase_seconds": phases, "threads": numba.get_num_threads(),
              "load_average_before": load0, "load_average": os.getloadavg(), "machine": machine()}
    result.pop("rules")
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>24}: {v}")


def bench_win(args) -> None:
    if args.players > 2 and args.game != "tutto":
        return bench_macke_n(args)
    if args.players > 2:
        return bench_win_n(args)
    if args.game == "tutto":
        from tutto_sim.tutto.win.solve2 import solve_win

        solve_win(TuttoRules(target=200, game_end=args.game_end))  # load the kernels
        rules = TuttoRules(target=args.target, game_end=args.game_end)
    else:
        from tutto_sim.macke.rules import MackeRules
        from tutto_sim.macke.win.solve_n import solve_macke_win as solve_win

        variant = "volle-lotte" if args.game == "volle-lotte" else "standard"
        solve_win(MackeRules.preset(variant, target=200), floor=-300, cap_units=40)  # load the kernels
        rules = MackeRules.preset(variant, target=args.target)
    cpu0 = time.process_time()
    sol = solve_win(rules)
    result = {**sol.summary(), "cpu_seconds": round(time.process_time() - cpu0, 1),
              "threads": numba.get_num_threads(), "load_average": os.getloadavg(),
              "machine": machine()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>24}: {v}")


if __name__ == "__main__":
    main()
