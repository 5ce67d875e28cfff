"""Benchmark: Tutti bots against OpenSpiel's (docs/tutti.md, "An opponent
nobody here wrote").

Plays exactly the matches of ``tutto-sim tournament --game tutti --players
N --bots A,B --games G --seed S`` (every seating, the reference engine) and
times every decision with two or more legal actions (a decision with one
takes no search), per bot, in CPU time (``time.process_time``: other work
on a shared machine does not inflate it; the bots and OpenSpiel's C++ run
on this one thread). Prints and, with ``--json``,
writes each bot's win rate with its 95% CI, its points per hand, and its
median and mean CPU milliseconds per decision. Usage::

    python scripts/bench_tutti_openspiel.py --bots ismcts:20,openspiel-ismcts:20 --games 200 --seed 1

One thread (the bots are single-threaded). Speed is measured here, never in
the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from pathlib import Path

import numba
import numpy as np

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import run_tournament
from tutto_sim.tutti.game import GameConfig
from tutto_sim.tutti.reference import deal, observe
from tutto_sim.tutti.rules import TuttiRules


def timed(bot, log: list[float]):
    """``bot`` with its ``act`` logging the CPU seconds of each decision with
    a choice in ``log`` (its actions are unchanged)."""
    act = bot.act

    def timed_act(obs):
        t0 = time.process_time()
        action = act(obs)
        if len(obs.legal) > 1:
            log.append(time.process_time() - t0)
        return action

    bot.act = timed_act
    return bot


def timing(bot, log: list[float]) -> None:
    """``bot``'s decisions :func:`timed` into ``log``: those of each hand's bot
    it makes (``for_hand``: built-in and OpenSpiel bots), else its own (pimc, ismcts)."""
    if not hasattr(bot, "for_hand"):
        timed(bot, log)
        return
    make = bot.for_hand
    bot.for_hand = lambda seat, seed, index: timed(make(seat, seed, index), log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", required=True, help="two or more bot specs, A,B")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    numba.set_num_threads(1)
    rules = TuttiRules(players=args.players)
    bots = parse_bots(args.bots, rules)
    obs = observe(deal(rules, args.seed), 0)
    for b in bots:  # warm up: numba's compiled code loaded, OpenSpiel's modules imported
        (b.for_hand(0, 0, 0) if hasattr(b, "for_hand") else b).act(obs)
    times: dict[str, list[float]] = defaultdict(list)
    for b in bots:
        timing(b, times[b.name])
    res = run_tournament(bots, args.players, args.games, args.seed, config=GameConfig(rules),
                         engine="reference")
    points = res.summary.to_dict()["bots"]
    out = {"command": (f"tutto-sim tournament --game tutti --players {args.players} --bots "
                       f"{args.bots} --games {args.games} --seed {args.seed} --engine reference"),
           "games": res.games, "seconds": res.seconds, "bots": {}}
    for st in res.bot_stats():
        t = 1000 * np.array(times.get(st.name, []))
        out["bots"][st.name] = {
            "win_rate": st.win.mean, "ci95": st.win.ci95, "seats": st.games,
            "points_per_hand": points[st.name]["points_per_hand"],
            "points_per_hand_ci95": points[st.name]["points_per_hand_ci95"],
            "decisions": int(t.size),
            "median_ms": float(np.median(t)) if t.size else None,
            "mean_ms": float(t.mean()) if t.size else None,
        }
    out["load_average"] = os.getloadavg()[0]
    print(f"{out['command']}: {res.games} matches, {res.seconds:.0f} s, "
          f"load average {out['load_average']:.1f}")
    for name, b in out["bots"].items():
        speed = (f"median {b['median_ms']:.1f} ms, mean {b['mean_ms']:.1f} ms CPU per decision "
                 f"({b['decisions']} decisions)" if b["decisions"] else "not timed")
        print(f"  {name}: wins {b['win_rate']:.3f} ± {b['ci95']:.3f} of {b['seats']} seats, "
              f"{b['points_per_hand']:.1f} ± {b['points_per_hand_ci95']:.1f} points per hand; "
              f"{speed}")
    if args.json:
        from tutto_sim.core.cli import save  # a full disk: saved in the temporary folder, said

        save(Path(args.json), lambda tmp: tmp.write_text(json.dumps(out, indent=1)))


if __name__ == "__main__":
    main()
