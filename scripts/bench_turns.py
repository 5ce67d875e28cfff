"""Benchmark: whole Tutto turns per second (numba kernel vs reference engine).

Runs in one process: the kernel on one thread, on all threads, and the
plain-Python reference engine on the same policy and random streams, and
prints throughput and the ratios. Usage::

    python scripts/bench_turns.py [--turns N] [--seconds S] [--json]

Tutto turns start with a random card (deck frequencies) and follow
``policy.DEFAULT_POLICY``, the rule-of-thumb threshold policy; Berliner Macke
turns follow the optimal policy, played from its decision table. Speed is
measured here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numba

from tutto_sim.core.rng import Stream
from tutto_sim.tutto.reference import play_turn
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import DEFAULT_POLICY
from tutto_sim.tutto.turns import run_policies


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def kernel_rate(pol, rules, turns: int, threads: int, repeats: int = 3) -> float:
    numba.set_num_threads(threads)
    run_policies(pol, None, 7, 100_000, rules)  # warm up: compile / load cache, start threads
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        run_policies(pol, None, 7 + r, turns, rules)
        best = max(best, turns / (time.perf_counter() - t0))
    return best


def macke_rate(turns: int, threads: int, repeats: int = 3) -> float:
    """Berliner Macke turns/s under the optimal policy, played from its table."""
    from tutto_sim.macke.exact_sim import run_macke_exact
    from tutto_sim.macke.policy import MackeTablePolicy
    from tutto_sim.macke.rules import MackeRules
    from tutto_sim.macke.solver import solve_macke

    numba.set_num_threads(threads)
    policy = MackeTablePolicy.from_solution(solve_macke(MackeRules()))
    run_macke_exact(policy, 7, 100_000)  # warm up
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        run_macke_exact(policy, 7 + r, turns)
        best = max(best, turns / (time.perf_counter() - t0))
    return best


def reference_rate(policy, rules, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for i in range(n, n + 500):
            play_turn(rules, policy, Stream(7, i))
        n += 500
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=20_000_000, help="turns per kernel timing")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for the reference engine")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    rules = TuttoRules()
    pol = DEFAULT_POLICY.to_array()
    cores = numba.config.NUMBA_NUM_THREADS
    one = kernel_rate(pol, rules, args.turns, 1)
    allc = kernel_rate(pol, rules, args.turns, cores)
    ref = reference_rate(DEFAULT_POLICY, rules, args.seconds)
    macke_one = macke_rate(args.turns, 1)
    macke_all = macke_rate(args.turns, cores)
    result = {
        "turns_per_second_per_core": round(one),
        "turns_per_second_all_cores": round(allc),
        "cores": cores,
        "parallel_speedup": round(allc / one, 3),
        "reference_turns_per_second": round(ref),
        "speedup_vs_reference": round(one / ref, 1),
        "policy": "DEFAULT_POLICY, random first card",
        "macke_turns_per_second_per_core": round(macke_one),
        "macke_turns_per_second_all_cores": round(macke_all),
        "macke_policy": "optimal, from its decision table (default rules)",
        "machine": f"{cpu_name()}, {os.cpu_count()} logical CPUs, {platform.python_implementation()} {platform.python_version()}, numba {numba.__version__}",
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:>28}: {v:,}" if isinstance(v, (int, float)) else f"{k:>28}: {v}")


if __name__ == "__main__":
    main()
