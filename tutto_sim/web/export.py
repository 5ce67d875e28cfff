"""Sampled situations with the Python answers, for the JavaScript policy reader's tests.

``export_cases(game, policy, n, seed)`` draws ``n`` situations of one game
(seeded: the same seed gives the same situations; the game's hook ``web_cases``) and answers each with the
Python loaders (``tutto.policy.load_policy``, ``macke.policy.load_macke_policy``,
``rutsmieter.policy.load_weights_policy``, ``tutto.win.table.load_win_table``).
``tests/web/driver.mjs`` answers the same situations with ``policy.mjs``, and
``tests/web/test_policy_js.py`` requires the answers to be identical.

The situations, by game (one JSON object each, ``q`` names the question):

* Tutto: ``keep`` (card, turn total before the throw, the dice, the x2 card's
  points) -> ``{"dice": k, "points": p}`` or null for a Niete; ``bank`` (card,
  dice left, turn total after setting aside, card points) -> bool; ``draw``
  (turn total) -> bool; ``street`` (numbers aside, new numbers showing) -> int.
  The points of a keep come from the throw tables (``ThrowTables.best_pts``),
  not from the file's ``keeps``.
* Macke / Volle Lotte: ``keep`` (locked points, the set-aside state, the throw
  of the series, the dice) -> the keep state or null for a Macke; ``return``
  -> the state kept aside; ``bank`` -> bool (a full state: the clear table).
* Rutsmieter: random positions at 2, 3 and 4 players with a choice of at
  least two legal moves -> the index of the move the weights choose.
* Macke / Volle Lotte win table: ``W`` (own, other; also below the floor)
  -> ``MackeWinTable.win``; ``last`` (points needed) -> ``last_turn``.
* Tutto win table: ``bank`` (seat, own score, other score, turn total) -> the
  chance after banking, ``TurnStart.bank`` of the win programme's first layer;
  ``W`` (seat, own, other) -> the table's value.

Usage: ``python -m tutto_sim.web.export --game tutto --n 10000 --seed 1 --out cases.json``
(``--policy FILE``: another file than the shipped one; required for the win tables).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

GAMES = ("tutto", "macke", "volle-lotte", "rutsmieter", "tutto-win", "macke-win")


def default_policy(game: str) -> Path:
    """The shipped policy file of ``game`` (``tutto_sim/data/policies/GAME-default.json``)."""
    from tutto_sim.core.bots import POLICY_DIR

    if game.endswith("-win"):
        raise ValueError("the win table has no shipped file: pass one (tutto-sim solve --objective win --out FILE)")
    return POLICY_DIR / f"{game}-default.json"


def export_cases(game: str, policy: Path | str | None, n: int, seed: int) -> dict:
    """``n`` situations of ``game`` drawn with ``seed``, each with the Python answer."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; valid: {', '.join(GAMES)}")
    path = Path(policy) if policy is not None else default_policy(game)
    from tutto_sim.core import registry

    # each game draws its own situations (its hooks' ``web_cases``): --game NAME, the file's kind
    name, kind = (game[:-4], "win") if game.endswith("-win") else (game, "turn")
    make = registry.by_name(name).hooks.web_cases
    reader = {"volle-lotte": "macke"}.get(game, game)
    return {"game": reader, "policy": str(path), "seed": seed, "cases": make(kind, path, n, seed)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tutto_sim.web.export", description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=GAMES)
    ap.add_argument("--n", type=int, default=10_000, help="situations (default 10,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default=None, help="policy file (default: the shipped one)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    if args.n < 1:
        ap.error(f"--n must be a positive number of situations, not {args.n}")
    from tutto_sim.core.policyfile import PolicyFileError

    try:
        doc = export_cases(args.game, args.policy, args.n, args.seed)
    except (PolicyFileError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from tutto_sim.core.cli import save

    saved = save(Path(args.out), lambda tmp: tmp.write_text(json.dumps(doc, separators=(",", ":")) + "\n"))
    print(f"{len(doc['cases']):,} {args.game} situations (seed {args.seed}) with the Python answers "
          f"written to {saved.shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
