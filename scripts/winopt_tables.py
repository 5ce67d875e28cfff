"""How much playing to win gains at a table of three or four (docs/win.md,
docs/macke-win.md: *At tables of three and four*).

Usage::

    python scripts/winopt_tables.py --game tutto --players 3,4 --target 6000 \\
        --games 200000 [--seed 1] [--deck iid,real] [--threads N] [--json]

(several player counts and decks: one measurement each, in one process, so
that ``winopt``'s values are built once).

Two tournaments on the same seed, so that game ``i`` of both reads stream
``(seed, i)`` (common random numbers): ``winopt`` against ``N - 1`` bots
``optimal`` (the expected-points optimum), its seat rotating game by game,
and ``N`` bots ``optimal``. Printed: ``winopt``'s win rate with its 95% CI
beside the fair share ``1/N``, the rate of ``optimal`` in the same seat of
the same game, and their difference, game by game (a paired difference,
whose CI is narrower than the two rates' apart), overall and by seat. Ties
count ``1/k``. The first tournament is the command::

    tutto-sim tournament --game G --players N --bots winopt,optimal,optimal \\
        --target T --games GAMES --seed S [--deck iid]

Tutto plays in the game kernel; Berliner Macke and Volle Lotte in the
reference game (their ``winopt`` has no kernel yet), in worker processes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from tutto_sim.core.stats import Estimate


def _config_and_bots(game: str, target: int | None, deck: str):
    if game == "tutto":
        from tutto_sim.tutto.bots import parse_bot
        from tutto_sim.tutto.game import GameConfig
        from tutto_sim.tutto.rules import TuttoRules

        rules = TuttoRules(deck=deck, **({"target": target} if target else {}))
    else:
        from tutto_sim.macke.bots import parse_bot
        from tutto_sim.macke.game import GameConfig
        from tutto_sim.macke.rules import MackeRules

        variant = "volle-lotte" if game == "volle-lotte" else "standard"
        rules = MackeRules.preset(variant, **({"target": target} if target else {}))
    return GameConfig(rules), (lambda spec: parse_bot(spec, rules)), rules


def _shares(bots, players, games, seed, config, threads):
    """Per game: the share of the seat bot 0 holds (of 1), and that seat."""
    from tutto_sim.core.blocks import set_threads
    from tutto_sim.core.tournament import run_tournament

    share = np.zeros(games)
    seat = np.zeros(games, dtype=np.int64)
    done = [0]

    def on_batch(batch, seats):
        n = len(seats)
        j = np.argmax(seats == 0, axis=1)
        rows = np.arange(n)
        total = batch.share.sum(axis=1).astype(np.float64)
        share[done[0]:done[0] + n] = batch.share[rows, j] / total
        seat[done[0]:done[0] + n] = j
        done[0] += n

    if threads:
        set_threads(threads)
    t0 = time.perf_counter()
    res = run_tournament(bots, players, games, seed, config, on_batch=on_batch)
    assert done[0] == games
    return share, seat, time.perf_counter() - t0, res.engine


def _rate(x: np.ndarray) -> Estimate:
    return Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))


def _fig(e: Estimate) -> dict:
    return {"rate": e.mean, "ci95": e.ci95, "games": e.n}


def measure(game, n, target, games, seed, deck, threads) -> dict:
    """The two tournaments of one table (module docstring) and their figures."""
    config, parse, rules = _config_and_bots(game, target, deck)
    win = [parse("winopt")] + [parse("optimal") for _ in range(n - 1)]
    x, seat, t_win, engine = _shares(win, n, games, seed, config, threads)
    y, seat2, t_opt, _ = _shares([parse("optimal") for _ in range(n)], n, games, seed, config,
                                 threads)
    assert (seat == seat2).all()  # the same rotation: game i's seat is the same
    tutto = game == "tutto"
    return {
        "game": game, "players": n, "target": rules.target, "deck": deck if tutto else None,
        "games": games, "seed": seed, "engine": engine, "fair_share": 1 / n,
        "winopt": _fig(_rate(x)), "optimal_same_seat": _fig(_rate(y)),
        "difference": _fig(_rate(x - y)),
        "by_seat": [{"seat": s, "winopt": _fig(_rate(x[seat == s])),
                     "optimal": _fig(_rate(y[seat == s])),
                     "difference": _fig(_rate(x[seat == s] - y[seat == s]))} for s in range(n)],
        "seconds": {"winopt": round(t_win, 1), "optimal": round(t_opt, 1)},
        "command": (f"tutto-sim tournament --game {game} --players {n} --bots "
                    f"winopt{',optimal' * (n - 1)} --target {rules.target} --games {games} "
                    f"--seed {seed}" + (" --deck iid" if tutto and deck == "iid" else "")),
    }


def _lines(out: dict) -> list[str]:
    pct = lambda f: f"{f['rate']:.2%} ± {f['ci95']:.2%}"  # noqa: E731
    deck = f", deck {out['deck']}" if out["deck"] else ""
    lines = [f"{out['game']}, {out['players']} players to {out['target']:,}{deck}: "
             f"{out['games']:,} games, seed {out['seed']}",
             f"  winopt wins {pct(out['winopt'])} (fair share {out['fair_share']:.2%}); optimal in "
             f"the same seat {pct(out['optimal_same_seat'])}; difference {pct(out['difference'])}"]
    for b in out["by_seat"]:
        lines.append(f"  seat {b['seat'] + 1}: winopt {pct(b['winopt'])}, optimal "
                     f"{pct(b['optimal'])}, difference {pct(b['difference'])}")
    sec = out["seconds"]
    lines.append(f"  {sec['winopt']:.0f} s and {sec['optimal']:.0f} s ({out['engine']})")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="tutto", choices=("tutto", "macke", "volle-lotte"))
    ap.add_argument("--players", default="3", help="one or more, e.g. 3,4")
    ap.add_argument("--target", type=int, default=None)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deck", default="real", help="real, iid or both (Tutto)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    decks = a.deck.split(",") if a.game == "tutto" else ["real"]
    if not set(decks) <= {"real", "iid"}:
        ap.error(f"--deck: real or iid, not {a.deck!r}")
    outs = []
    for n in (int(p) for p in a.players.split(",")):
        for deck in decks:
            outs.append(measure(a.game, n, a.target, a.games, a.seed, deck, a.threads))
            if not a.json:
                print("\n".join(_lines(outs[-1])), flush=True)
    if a.json:
        print(json.dumps(outs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
