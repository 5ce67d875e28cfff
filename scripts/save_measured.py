"""Keep a two-bot tournament as a saved measurement (``core.measured``).

Reads the JSON that ``tutto-sim tournament ... --json`` printed (a file) and
writes the first bot's record against the second: games, wins, the seed,
the rules and the command that reproduces it, for a report to cite
(``tutto_sim/data/measured/GAME-BOT-AGAINST.json``). Usage::

    tutto-sim tournament --game rutsmieter --bots expert,tuned --games 2000 --seed 2025 --json > t.json
    python scripts/save_measured.py t.json --budget 1000 --out tutto_sim/data/measured/rutsmieter-expert-tuned.json

``--budget`` is the first bot's budget (the expert's games played out per
move; 1,000 is its default). Only tournaments of two bots at two players
whose games have no ties are taken (a win is then a whole game).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runnable from a checkout without installing

from tutto_sim.core.measured import write_measured  # noqa: E402
from tutto_sim.core.registry import by_name  # noqa: E402
from tutto_sim.core.report import rules_flags  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tournament", type=Path, help="the JSON of tutto-sim tournament --json")
    ap.add_argument("--budget", type=int, default=None, help="the first bot's budget")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    d = json.loads(args.tournament.read_text(encoding="utf-8"))
    bots = list(d["lineups"][0])  # the order of --bots ("bots" is ranked by win rate)
    if len(d["bots"]) != 2 or d["players"] != 2 or d.get("interrupted"):
        sys.exit("save_measured: error: a finished tournament of two bots at 2 players only")
    bot, against = bots
    rec = d["bots"][bot]
    games = int(rec["games"])
    wins = rec["win_rate"] * games
    if abs(wins - round(wins)) > 1e-6 or abs(rec["win_rate"] + d["bots"][against]["win_rate"]
                                             - 1) > 1e-9:
        sys.exit("save_measured: error: the tournament has tied games")
    entry = by_name(d["game"])
    fields = {k: v for k, v in d["rules"].items() if k != "game"}
    rules = entry.rules_type(**fields)
    flags = "".join(" " + f for f in rules_flags(rules))
    command = (f"tutto-sim tournament --game {d['game']} --bots {bot},{against} "
               f"--games {games} --seed {d['seed']}{flags}")
    path = write_measured(args.out, game=d["game"], bot=bot, budget=args.budget,
                          against=against, rules=rules, unit="game", n=games,
                          wins=round(wins), ties=0, seed=d["seed"], command=command,
                          how="every seating equally often (each bot begins half of the games)")
    print(f"{path.verb} {path}: {bot} won {round(wins):,} of {games:,} games against {against}")


if __name__ == "__main__":
    main()
