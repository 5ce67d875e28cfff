"""Check an exact N-player win table by games in the numba game kernel.

Usage::

    python scripts/check_win_games_n.py --table results/tutto-win-500-3p-<run>.json \
        [--games 1000000] [--real-games N] [--seed 1] [--json]

The table (``tutto-sim solve --objective win --players N --target T``) carries
the solver's figures. With cards drawn independently (``--deck iid``, what the
solver assumes) the script plays ``--games`` kernel games each of

* N ``winopt`` bots: each seat's win rate against ``p_wins`` (seed S);
* one ``winopt`` and N-1 ``optimal`` bots, the seats rotated game by game:
  ``winopt``'s rate in each seat against ``win_vs_ev`` (seed S + 1);
* N ``optimal`` bots: each seat against ``p_wins_ev`` (seed S + 2);

and, with ``--real-games``, the second with the real deck (56 cards without
replacement), which the solver does not model (seed S + 3). Every rate has its
95% Wilson interval (a shared win counts 1/k). Game ``i`` of a run reads
stream ``(seed, i)``: the same seeds give the same numbers on any number of
threads. The first three are the tournaments

    tutto-sim tournament --game tutto --players N --bots winopt:TABLE,winopt:TABLE,... \
        --deck iid --target T --game-end E --games G --seed S --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

import numpy as np

from tutto_sim.core.blocks import SHARE
from tutto_sim.core.stats import wilson
from tutto_sim.core.tournament import run_tournament
from tutto_sim.tutto.bots import parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.win.table import load_win_table_n


def seat_rates(bots, players, games, seed, rules, mark=0):
    """Win rate by seat of bot ``mark`` (its seat rotates with the games)."""
    wins = np.zeros(players)
    count = np.zeros(players)

    def on_batch(batch, seats):
        x = batch.share.astype(np.float64) / SHARE
        for j in range(players):
            mine = seats[:, j] == mark
            wins[j] += x[mine, j].sum()
            count[j] += mine.sum()

    t0 = time.perf_counter()
    run_tournament(bots, players, games, seed, GameConfig(rules), "kernel", on_batch=on_batch)
    return wins, count, time.perf_counter() - t0


def row(what, exact, wins, count):
    out = []
    for j in range(len(wins)):
        p = wins[j] / count[j]
        lo, hi = wilson(wins[j], count[j])
        out.append({"what": what, "seat": j, "games": int(count[j]), "exact": exact[j],
                    "games_rate": p, "low": lo, "high": hi,
                    "inside": (exact[j] is None) or bool(lo <= exact[j] <= hi)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--real-games", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    t = load_win_table_n(a.table)
    N, s = t.players, t.summary
    rules = dataclasses.replace(t.rules, deck="iid")
    win = f"winopt:{a.table}"
    rows = []
    bots = [parse_bot(win, rules) for _ in range(N)]
    # every seat plays winopt: the seat's rate is the table's p_wins
    wins = np.zeros(N)
    t0 = time.perf_counter()
    res = run_tournament(bots, N, a.games, a.seed, GameConfig(rules), "kernel")
    for j, e in enumerate(res.seat_rates()):
        wins[j] = e.mean * a.games
    rows += row("everyone plays to win (p_wins)", s["p_wins"], wins, np.full(N, a.games))
    seconds = {"p_wins": time.perf_counter() - t0}
    mixed = [parse_bot(win, rules)] + [parse_bot("optimal", rules) for _ in range(N - 1)]
    w, c, seconds["win_vs_ev"] = seat_rates(mixed, N, a.games, a.seed + 1, rules)
    rows += row("one plays to win against points players (win_vs_ev)", s["win_vs_ev"], w, c)
    ev = [parse_bot("optimal", rules) for _ in range(N)]
    res = run_tournament(ev, N, a.games, a.seed + 2, GameConfig(rules), "kernel")
    wins = np.array([e.mean * a.games for e in res.seat_rates()])
    rows += row("everyone plays for points (p_wins_ev)", s["p_wins_ev"], wins, np.full(N, a.games))
    if a.real_games:
        real = dataclasses.replace(t.rules, deck="real")
        mixed = [parse_bot(win, real)] + [parse_bot("optimal", real) for _ in range(N - 1)]
        w, c, seconds["real"] = seat_rates(mixed, N, a.real_games, a.seed + 3, real)
        rows += row("real deck: one plays to win against points players", [None] * N, w, c)
    if a.json:
        print(json.dumps({"table": a.table, "players": N, "target": t.rules.target,
                          "game_end": t.rules.game_end, "games": a.games, "seed": a.seed,
                          "rows": rows, "seconds": seconds}, indent=2))
        return
    for r in rows:
        ex = "" if r["exact"] is None else f"{r['exact']:.4%}"
        print(f"{r['what']:<58} seat {r['seat']}  exact {ex:>9}  games {r['games_rate']:.4%} "
              f"[{r['low']:.4%}, {r['high']:.4%}] ({r['games']:,}){'' if r['inside'] else '  OUTSIDE'}")


if __name__ == "__main__":
    main()
