"""Make Rutsmieter's shipped tuned policy: a weight set per table size.

Round 1 at each table size is the search of the command line, e.g. at 4 players::

    tutto-sim optimize --game rutsmieter --players 4 \
        --field first,aggressive,defensive,random,weights:rutsmieter-tuned-v1.json \
        --candidates 320 --search-games 8000 --games 50000 --seed 1 --out opt4.json

(the cross-entropy search of ``rutsmieter.optimize.optimize_weights``: common
random numbers, fresh games at the end). This script runs further rounds
from those files, or from ``--start FILE`` (a policy file with a weight set
per table size, e.g. the self-play evaluator ``tutto_sim/data/policies/rutsmieter-td.json``):
each round starts from the previous weights, with the next seed, against the
round-1 field, the ``--add-field`` entries (mixed tables such as
``4:first+aggressive+defensive``), the round-1 result and the start weights
(the bot plays against itself too). A round's result counts only if its fresh games beat
its start weights (the paired gain's 95% CI above 0), else the rounds end.

Last, every contender (the round-1 result, the start weights, the last
round's result) plays the same fresh games against the round-1 field
and the ``--add-field`` entries (``--final-games`` against each, streams no search read, a seed of their
own), and the best win rate is the table's weight set. It writes one file
with a weight set per table size (``weights_by_players``; ``weights`` is the
4-player set, the default table) and every round's and contender's figures in
its summary. Usage::

    python scripts/tune_rutsmieter.py opt2.json opt3.json opt4.json
        [--start tutto_sim/data/policies/rutsmieter-td.json] [--rounds 1] [--candidates 320]
        [--search-games 8000] [--games 50000] [--final-games 20000] [--seed 2]
        [--out tutto_sim/data/policies/rutsmieter-default.json]

``--merge A.json B.json ... --out FILE`` combines files this script wrote:
for each table size the set whose contenders' fresh games (the same games:
the same seed and field, checked) gave the higher win rate.

A round takes minutes on 2 cores (docs/rutsmieter.md gives the times
measured). Every random number follows from the seeds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runnable from a checkout without installing

from tutto_sim.rutsmieter.bots import WeightsBot, parse_bot  # noqa: E402
from tutto_sim.rutsmieter.cli import result_json  # noqa: E402
from tutto_sim.core.analysis import FRESH_START  # noqa: E402
from tutto_sim.core.cli import progress_phases, save  # noqa: E402
from tutto_sim.rutsmieter.optimize import (  # noqa: E402
    Games,
    MixedTable,
    optimize_weights,
    paired,
    win_rate,
)
from tutto_sim.rutsmieter.policy import FEATURES, WeightsPolicy, load_weights_policy  # noqa: E402
from tutto_sim.rutsmieter.rules import RutsmieterRules  # noqa: E402



def field_entry(spec: str, rules):
    """A bot, or a mixed table ``a+b+c`` (``optimize.MixedTable``)."""
    parts = spec.split("+")
    bots = tuple(parse_bot(p, rules) for p in parts)
    return bots[0] if len(bots) == 1 else MixedTable(bots)


def tune(first_file: Path, start_file: Path | None, rounds: int, candidates: int,
         search_games: int, games: int, final_games: int, seed: int, extra: list[str], phase):
    """The rounds at the table size of ``first_file``, then the contenders on
    the same fresh games: ``(players, best weights, summary)``."""
    first = load_weights_policy(first_file)
    rules = first.rules
    d = json.loads(first_file.read_text(encoding="utf-8"))
    base = [field_entry(s, rules) for s in [*d["summary"]["field"], *extra]]
    contenders = {"search, round 1": first.weights}
    if start_file is not None:
        contenders[f"start {start_file.name}"] = load_weights_policy(start_file, rules).weights
    weights = list(contenders.values())[-1]
    field = base + [WeightsBot(name, WeightsPolicy(w, rules)) for name, w in contenders.items()]
    log = [{"round": 1, **d.get("summary", {})}]
    for r in range(rounds):
        s = seed + r
        print(f"{rules.players} players, round {r + 2}: seed {s}, field "
              f"{', '.join(b.name for b in field)}", file=sys.stderr, flush=True)
        res = optimize_weights(rules, field, search_games, games, candidates, s, phase,
                               start=weights)
        out = result_json(res, "")
        gain = res.gain_vs_start
        kept = gain is not None and gain.mean - gain.ci95 > 0
        log.append({"round": r + 2, **{k: v for k, v in out.items()
                                       if k not in ("game", "rules", "command")}, "kept": kept})
        print(f"  fresh win rate {res.fresh_all.mean:.4f}, gain {gain.mean:+.4f} ± "
              f"{gain.ci95:.4f} ({'kept' if kept else 'not kept'}), {res.seconds:.0f} s",
              file=sys.stderr, flush=True)
        if not kept:
            break
        weights = res.weights
        contenders[f"search, round {r + 2}"] = weights
        field.append(WeightsBot(f"search, round {r + 2}", WeightsPolicy(weights, rules)))
    final = Games(rules, base, seed + 1000, final_games, start=FRESH_START)
    plays = {name: final.play(w) for name, w in contenders.items()}
    best = max(plays, key=lambda name: plays[name].won.mean())  # ties: the earlier
    figures = {name: {"win_rate": win_rate(p.won).mean, "ci95": win_rate(p.won).ci95,
                      "games": len(p.won),
                      "vs_best": paired(p.won, plays[best].won).mean,
                      "vs_best_ci95": paired(p.won, plays[best].won).ci95,
                      "by_bot": {k: e.mean for k, e in final.by_bot(p.won).items()},
                      "weights": dict(zip(FEATURES, contenders[name]))}
               for name, p in plays.items()}
    for name, f in figures.items():
        print(f"  {name}: {f['win_rate']:.4f} ± {f['ci95']:.4f}"
              f"{'  (best)' if name == best else ''}", file=sys.stderr, flush=True)
    summary = {"rounds": log, "final": {"seed": seed + 1000, "games_per_bot": final.per_bot,
                                        "field": final.names, "contenders": figures,
                                        "best": best}}
    return rules.players, contenders[best], summary


def merge(files: list[Path], out: Path) -> None:
    """``--merge`` (module docstring)."""
    best: dict[int, tuple[float, tuple, dict, str]] = {}
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        policy = load_weights_policy(f)
        for n, log in d["summary"]["by_players"].items():
            final = log["final"]
            rate = final["contenders"][final["best"]]["win_rate"]
            weights = policy.at(RutsmieterRules(players=int(n))).weights
            if int(n) in best:
                other = best[int(n)][2]["final"]
                if (other["seed"], other["field"], other["games_per_bot"]) != (
                        final["seed"], final["field"], final["games_per_bot"]):
                    sys.exit(f"tune_rutsmieter: error: {f} played other final games at {n} players")
            if int(n) not in best or rate > best[int(n)][0]:
                best[int(n)] = (rate, weights, log, d["summary"]["command"])
    sets = {n: b[1] for n, b in best.items()}
    command = f"python scripts/tune_rutsmieter.py --merge {' '.join(f.name for f in files)}"
    summary = {"command": command, "from": {str(n): b[3] for n, b in sorted(best.items())},
               "by_players": {str(n): b[2] for n, b in sorted(best.items())}}
    policy = WeightsPolicy(sets.get(4, sets[max(sets)]), RutsmieterRules(),
                           by_players=tuple(sorted(sets.items())))
    out = save(out, lambda tmp: policy.write(tmp, created_by=command, summary=summary))
    print(json.dumps({"out": str(out), "from": summary["from"]}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+", help="policy files of optimize, one per table size")
    ap.add_argument("--merge", action="store_true", help="combine files this script wrote")
    ap.add_argument("--start", type=Path, default=None, help="a policy file to start the rounds from")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--final-games", type=int, default=20_000)
    ap.add_argument("--add-field", action="append", default=[], metavar="N:SPEC",
                    help="more field entries at N players, e.g. 4:first+aggressive+defensive")
    ap.add_argument("--candidates", type=int, default=320)
    ap.add_argument("--search-games", type=int, default=8000)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "tutto_sim" / "data" / "policies" / "rutsmieter-default.json")
    a = ap.parse_args()
    if a.merge:
        merge(a.files, a.out)
        return
    start = f" --start {a.start}" if a.start else ""
    start += "".join(f" --add-field {x}" for x in a.add_field)
    command = (f"python scripts/tune_rutsmieter.py {' '.join(f.name for f in a.files)}{start} "
               f"--rounds {a.rounds} --candidates {a.candidates} --search-games {a.search_games} "
               f"--games {a.games} --final-games {a.final_games} --seed {a.seed}")
    t0 = time.perf_counter()
    sets, logs = {}, {}
    with progress_phases(True) as phase:  # a bar on a terminal, else lines when a phase is long
        for f in a.files:
            n = load_weights_policy(f).rules.players
            extra = [x.partition(":")[2] for x in a.add_field if x.partition(":")[0] == str(n)]
            n, sets[n], logs[str(n)] = tune(f, a.start, a.rounds, a.candidates, a.search_games,
                                            a.games, a.final_games, a.seed, extra, phase)
    main_set = sets.get(4, sets[max(sets)])
    policy = WeightsPolicy(main_set, RutsmieterRules(), by_players=tuple(sorted(sets.items())))
    summary = {"command": command, "seed": a.seed, "seconds": round(time.perf_counter() - t0, 1),
               "by_players": logs}
    saved = save(a.out, lambda tmp: policy.write(tmp, created_by=command, summary=summary))
    print(json.dumps({"out": str(saved), "seconds": summary["seconds"]}))


if __name__ == "__main__":
    main()
