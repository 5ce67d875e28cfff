"""Regenerate the sample reports committed under ``reports/``.

One directory per game (``reports/tutto/``, ``reports/macke/``,
``reports/rutsmieter/``, ``reports/tutti/``): the multi-page PDF, one PNG per
figure (150 dpi) and a README.md index with every caption, under the game's
default rules (docs/rules.md, docs/macke.md, docs/rutsmieter.md,
docs/tutti.md), seed 1 and the report's default Monte Carlo size (for
Rutsmieter: games per table; for Tutti: matches per table): what ``tutto-sim
report --game GAME --out reports/GAME`` writes. This script is the one that writes into
``reports/`` (always into ``--out-root``/GAME, named explicitly); ``tutto-sim
report`` writes elsewhere unless told ``--out reports/GAME``.
Usage::

    python scripts/make_reports.py [--game tutto|macke|volle-lotte|rutsmieter|tutti] [--seed 1] [--turns N] [--out-root reports]

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

from tutto_sim.core.report import report_games, report_module, sample_games  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=list(report_games()), action="append",
                    help="game to regenerate (repeatable; default: "
                         f"{', '.join(sample_games())})")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=None,
                    help="Monte Carlo turns per point, for Rutsmieter games per table, "
                         "for Tutti matches per table "
                         "(default: the report's default)")
    ap.add_argument("--out-root", type=Path, default=ROOT / "reports")
    args = ap.parse_args()
    for game in args.game or list(sample_games()):
        module = report_module(game)
        turns = args.turns or module.DEFAULT_TURNS
        rules = {"rules": module.default_rules(game)} if hasattr(module, "default_rules") else {}
        if hasattr(module, "sample_win_target"):  # the pages on playing to win: a fixed target
            rules["win_target"] = module.sample_win_target(rules.get("rules"))
        t0 = time.perf_counter()
        out_dir = args.out_root / game  # reports/tutto, reports/macke: the committed samples
        files = module.build(out_dir, seed=args.seed, turns=turns, **rules)
        size = sum(p.stat().st_size for p in [files.pdf, *files.pngs])
        words = getattr(module, "SIZE_WORDS", "turns per point")
        print(f"{game}: {files.pdf} ({len(files.pages)} pages) and {len(files.pngs)} PNGs, "
              f"{size / 1e6:.1f} MB, seed {args.seed}, {turns:,} {words}, "
              f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
