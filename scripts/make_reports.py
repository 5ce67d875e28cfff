"""Regenerate the sample reports committed under ``reports/``.

One directory per game (``reports/tutto/``, ``reports/macke/``,
``reports/rutsmieter/``, ``reports/tutti/``): the multi-page PDF, one PNG per
figure (150 dpi) and a README.md index with every caption, under the game's
default rules (docs/rules.md, docs/macke.md, docs/rutsmieter.md,
docs/tutti.md), seed 1 and the report's default size (turns per point for
the dice games, games per table for Rutsmieter, matches per table for
Tutti): what ``tutto-sim report --game GAME --out reports/GAME`` writes, and
what the game's report module adds for the sample (``sample_extras``:
Rutsmieter's 2-player cheat sheet). This script is the one that writes into
``reports/`` (always into ``--out-root``/GAME, named explicitly); ``tutto-sim
report`` writes elsewhere unless told ``--out reports/GAME``.
Usage::

    python scripts/make_reports.py [--game tutto|macke|volle-lotte|rutsmieter|tutti] [--seed 1] [--turns N] [--games N] [--out-root reports]

Without ``--game`` it regenerates the committed ones (``core.report.sample_games()``);
``--game volle-lotte`` writes ``reports/volle-lotte/`` on request.

The pages on playing to win (Tutto 13-14, Macke 7-8) use the two-player win
table to 1,000: ``results/tutto-win-1000-<run>.json`` / ``results/macke-win-1000-<run>.json``
(Volle Lotte: 500) when present (``tutto-sim solve --objective win [--game
macke] --target 1000`` writes them), else solved first (Macke: about 3
minutes on 2 cores); the values, and so the files, are the same either way.

Same seed, same files: the PDF has no timestamps and the PNGs no time chunk,
so a regenerated report only differs from the committed one where results or
software versions changed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runnable from a checkout without installing

from tutto_sim.core.cli import save  # noqa: E402
from tutto_sim.core.report import report_games, report_module, sample_games  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=list(report_games()), action="append",
                    help="game to regenerate (repeatable; default: "
                         f"{', '.join(sample_games())})")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=None,
                    help="Tutto, Macke, Volle Lotte: turns simulated for each point of a curve "
                         "(default: the report's own)")
    ap.add_argument("--games", type=int, default=None,
                    help="Rutsmieter, Tutti: games (Tutti: matches) at each table "
                         "(default: the report's own)")
    ap.add_argument("--out-root", type=Path, default=ROOT / "reports")
    args = ap.parse_args()
    games = args.game or list(sample_games())
    sizes = {"--turns": args.turns, "--games": args.games}
    for option, value in sizes.items():
        takes = [g for g in games if report_module(g).SIZE.option == option]
        if value is not None and not takes:
            other = report_module(games[0]).SIZE
            ap.error(f"{option} does not apply to {', '.join(games)}: give {other.option} "
                     f"({other.words})")
    for game in games:
        module = report_module(game)
        turns = sizes[module.SIZE.option] or module.SIZE.default
        rules = {"rules": module.default_rules(game)} if hasattr(module, "default_rules") else {}
        if hasattr(module, "sample_win_target"):  # the pages on playing to win: a fixed target
            rules["win_target"] = module.sample_win_target(rules.get("rules"))
        t0 = time.perf_counter()
        out_dir = args.out_root / game  # reports/tutto, reports/macke: the committed samples
        built = []

        def write(folder, module=module, turns=turns, rules=rules, built=built):  # moved in whole
            files = module.build(folder, seed=args.seed, **{module.SIZE.keyword: turns}, **rules)
            extras = module.sample_extras(folder, args.seed, turns) if hasattr(module, "sample_extras") else []
            built.append((files, extras, sum(p.stat().st_size for p in [files.pdf, *files.pngs, *extras])))

        saved = save(out_dir, write, folder=True)  # a full disk: in the temporary folder, said
        files, extras, size = built[-1]
        print(f"{game}: {saved.verb} {saved / files.pdf.name} ({len(files.pages)} pages) and "
              f"{len(files.pngs) + len(extras)} PNGs, "
              f"{size / 1e6:.1f} MB, seed {args.seed}, {turns:,} {module.SIZE.words}, "
              f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
