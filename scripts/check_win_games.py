"""Check the exact two-player win solver by games in the numba game kernel.

Usage::

    python scripts/check_win_games.py --table results/tutto-win-1000-<run>.json \
        [--games 1000000] [--real-games N] [--seed 1] [--threads N] [--json]

The win table (from ``tutto-sim solve --objective win --target N``) carries
the solver's figures. With cards drawn independently (``--deck iid``, what
the solver assumes) the script plays ``--games`` kernel games of

* ``winopt`` against ``winopt``: the first seat's win rate against
  ``p_first_wins``;
* ``winopt`` against ``optimal`` (the points-optimal bot), half the games in
  each seating: ``winopt``'s rate in each seat and on average against
  ``win_vs_ev_first_seat``, ``win_vs_ev_second_seat`` and ``win_vs_ev``;

and then ``winopt`` against ``optimal`` with the real deck (56 cards without
replacement), which the solver does not model: how much of the edge
survives. Every rate has its 95% CI (ties count one half). Game ``i`` reads
stream ``(seed, i)``, one seed per run as printed (``--seed`` for the first,
+1 and +2 for the next two); the same seeds give the same numbers on any
number of threads. Equivalent commands (with the table where ``solve
--objective win --target N`` saves it, ``results/tutto-win-N-<run>.json``,
``<run>`` the run digest of its rules)::

    tutto-sim tournament --game tutto --players 2 --bots winopt,optimal --deck iid \
        --target N --games 1000000 --seed S --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

import numpy as np

from tutto_sim.core.blocks import SHARE, set_threads
from tutto_sim.core.stats import Estimate
from tutto_sim.core.tournament import make_lineups
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.bots import WinOptBot, parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.game_kernel import TuttoGameKernel
from tutto_sim.tutto.win.bot_kernel import win_bot_data
from tutto_sim.tutto.win.table import load_win_table


def rate(share: np.ndarray) -> Estimate:
    x = share.astype(np.float64) / SHARE
    return Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))


def play(config, tables, lineups, seed: int, games: int) -> tuple[np.ndarray, float]:
    kern = TuttoGameKernel(config, tables)
    t0 = time.perf_counter()
    share = kern.run(seed, 0, games, lineups)[0]
    return share, time.perf_counter() - t0


def build_progress(total: int):
    """The bot's values are built in blocks of turn starts (minutes at target
    6000): a line on stderr at every tenth."""
    t0, done, shown = time.perf_counter(), [0], [0]

    def advance(k: int) -> None:
        done[0] += k
        if done[0] * 10 // total > shown[0] or done[0] == total:
            shown[0] = done[0] * 10 // total
            print(f"winopt's values: {done[0]:,} of {total:,} turn starts, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return advance


def fig(e: Estimate, exact: float | None = None) -> dict:
    d = {"rate": e.mean, "ci95": e.ci95, "games": e.n}
    if exact is not None:
        d.update(exact=exact, within_ci95=bool(e.contains(exact)),
                 z=(e.mean - exact) / (e.ci95 / 1.959963984540054) if e.ci95 > 0 else None)
    return d


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True, help="a win table (solve --objective win)")
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--real-games", type=int, default=None,
                    help="games with the real deck (default: --games)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    threads = set_threads(a.threads)
    table = load_win_table(a.table)
    s = table.summary
    out = {"table": a.table, "target": table.rules.target, "game_end": table.rules.game_end,
           "games": a.games, "threads": threads, "load_average": os.getloadavg()}
    t0 = time.perf_counter()
    n = table.rules.target // POINT_UNIT
    win_bot_data(table, build_progress(2 * n * n))  # kept: WinOptBot's table() reuses it
    win = WinOptBot(table).table()
    out["build_seconds"] = time.perf_counter() - t0
    out["build_megabytes"] = win.data.nbytes / 1e6
    for deck, seed in (("iid", a.seed), ("real", a.seed + 2)):
        half = (a.games if deck == "iid" or a.real_games is None else a.real_games) // 2
        rules = dataclasses.replace(table.rules, deck=deck)
        config = GameConfig(rules)
        opt = parse_bot("optimal", rules).table()
        if deck == "iid":
            share, sec = play(config, [win], make_lineups(1, 2), seed, a.games)
            out["self_play"] = {"seed": seed, "seconds": sec, "games_per_second": a.games / sec,
                                "first_seat": fig(rate(share[:, 0]), s["p_first_wins"])}
        # game i: winopt in seat i % 2
        share, sec = play(config, [win, opt], make_lineups(2, 2), seed + (deck == "iid"),
                          2 * half)
        seats = [rate(share[k::2, k]) for k in (0, 1)]
        both = rate(np.concatenate([share[0::2, 0], share[1::2, 1]]))
        exact = deck == "iid"
        out[f"vs_optimal_{deck}"] = {
            "seed": seed + (deck == "iid"), "seconds": sec, "games_per_second": 2 * half / sec,
            "average": fig(both, s["win_vs_ev"] if exact else None),
            "first_seat": fig(seats[0], s["win_vs_ev_first_seat"] if exact else None),
            "second_seat": fig(seats[1], s["win_vs_ev_second_seat"] if exact else None)}
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"target {out['target']:,} ({out['game_end']}), {a.games:,} games a run, "
          f"{threads} thread(s); table built in {out['build_seconds']:.1f} s, "
          f"{out['build_megabytes']:.1f} MB")
    sp = out["self_play"]["first_seat"]
    print(f"winopt vs winopt, first seat: {sp['rate']:.5f} ± {sp['ci95']:.5f}, "
          f"exact {sp['exact']:.5f}")
    for deck in ("iid", "real"):
        v = out[f"vs_optimal_{deck}"]
        for k in ("average", "first_seat", "second_seat"):
            e = v[k]
            tail = f", exact {e['exact']:.5f}" if "exact" in e else ""
            print(f"winopt vs optimal ({deck} deck), {k.replace('_', ' ')}: "
                  f"{e['rate']:.5f} ± {e['ci95']:.5f}{tail}")


if __name__ == "__main__":
    main()
