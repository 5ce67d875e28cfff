"""Benchmark: Rutsmieter's expert bot (``tutto_sim.rutsmieter.expert``).

Two figures at a budget (default: the bot's default, ``expert.DEFAULT_ROLLOUTS``):

- **ms per decision**: :func:`expert.advise` (the kernel's rollouts in the
  calling thread, what the terminal ``play`` command's ``?`` key runs) on the
  choices of two or more moves met in games of ``tuned`` bots (``--players``, default 2);
  median, mean and the rollouts played per decision;
- **games per second** of an expert-vs-tuned tournament, every seating, in the
  kernel (``kernel.simulate`` with the expert's id): on one thread and on all.

Usage::

    python scripts/bench_expert.py [--rollouts N] [--players N] [--decisions N] [--games N] [--json]

Speed is measured here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numba
import numpy as np

from tutto_sim.rutsmieter import expert as E
from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.reference import Bot, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules


def choices(rules: RutsmieterRules, count: int) -> list:
    """Observations with two or more legal moves from games of ``tuned`` bots."""
    policy = E.tuned_policy(rules)
    seen: list = []

    def spy(obs):
        if len(obs.moves) > 1:
            seen.append(obs)
        return policy.choose(obs)

    game = 0
    while len(seen) < count:
        play_game([Bot("spy", spy)] * rules.players, rules, 2024, game)
        game += 1
    return seen[:count]


def per_decision(rules, rollouts: int, count: int) -> dict:
    obs_list = choices(rules, count)
    E.advise(obs_list[0], rules, 8)  # compile
    times, used = [], []
    for obs in obs_list:
        t0 = time.perf_counter()
        advice = E.advise(obs, rules, rollouts)
        times.append(time.perf_counter() - t0)
        used.append(sum(a.rollouts for a in advice))
    return {"decisions": count, "ms_median": 1000 * statistics.median(times),
            "ms_mean": 1000 * statistics.fmean(times),
            "rollouts_per_decision_mean": statistics.fmean(used),
            "moves_per_decision_mean": statistics.fmean(len(o.moves) for o in obs_list)}


def tournament_speed(rules, rollouts: int, games: int, threads: int) -> float:
    """Games per second of the expert against tuned, the expert in every seat."""
    n = rules.players
    lineups = np.array([[K.BOT_EXPERT if j == k else K.BOT_WEIGHTS for j in range(n)]
                        for k in range(n)])
    kw = dict(weights=[E.tuned_policy(rules).weights], experts=[E.kernel_row(rollouts, 0, n)],
              block=4)
    old = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        K.simulate(lineups, rules, 0, 2, **kw)  # compile
        t0 = time.perf_counter()
        K.simulate(lineups, rules, 1, games, **kw)
        return games / (time.perf_counter() - t0)
    finally:
        numba.set_num_threads(old)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=E.DEFAULT_ROLLOUTS)
    ap.add_argument("--decisions", type=int, default=200)
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = RutsmieterRules(players=args.players)
    cores = numba.config.NUMBA_NUM_THREADS
    out = {"rollouts": args.rollouts, "players": args.players, "cores": cores,
           "load_average_1min": os.getloadavg()[0],
           "decision": per_decision(rules, args.rollouts, args.decisions),
           "games": args.games,
           "games_per_second_one_core": tournament_speed(rules, args.rollouts, args.games, 1),
           "games_per_second_all_cores": tournament_speed(rules, args.rollouts, args.games,
                                                          cores)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    d = out["decision"]
    print(f"expert:{args.rollouts}, {args.players} players: {d['ms_median']:.1f} ms per decision (median; "
          f"mean {d['ms_mean']:.1f}, {d['rollouts_per_decision_mean']:.0f} rollouts, "
          f"{d['moves_per_decision_mean']:.2f} moves, {d['decisions']} decisions)")
    print(f"expert vs tuned: {out['games_per_second_one_core']:.2f} games/s on one core, "
          f"{out['games_per_second_all_cores']:.2f} on {cores} (load {out['load_average_1min']:.1f})")


if __name__ == "__main__":
    main()
