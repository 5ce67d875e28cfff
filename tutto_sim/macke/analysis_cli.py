"""``tutto-sim explore``: Berliner Macke's and Volle Lotte's own analysis (the
300-point rule, ``macke.analysis``) on the command line, mounted on the root
app through the hook ``commands``. Parse, check, call, render; a CSV of the
rows goes to ``results/``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from tutto_sim.core.cli import (
    RESULTS_DIR,
    UserError,
    write_csv,
    game_label,
    game_option,
    game_title,
    out,
    prepare_dir,
    progress_phases,
    rules_from_flags,
)
from tutto_sim.core.runs import run_digest, run_file
from tutto_sim.macke.cli import percent
from tutto_sim.dice.flags import SixOfKind
from tutto_sim.macke.flags import Throws, Variant, WinValue


def explore(
    game: game_option(("macke", "volle-lotte")) = "macke",
    min_score: Annotated[str, typer.Option("--min-score", help="Comma-separated minimum scores to compare.")] = "0,100,200,300,400,500",
    bust: Annotated[str, typer.Option("--bust", help="Comma-separated bust rules: subtract, zero.")] = "subtract,zero",
    returns: Annotated[bool, typer.Option("--returns/--no-returns", help="Also value the best play that never returns units.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV (created if missing).")] = RESULTS_DIR,
    variant: Variant = "standard",
    throws: Throws = 3,
    target: Annotated[Optional[int], typer.Option("--target", help="Points to win.")] = None,
    six_of_kind: SixOfKind = "two-triples",
    win_value: WinValue = 5000,
) -> None:
    """The 300-point rule: how EV, P(+), P(−) and the optimal thresholds move with the minimum and the bust rule."""
    from tutto_sim.macke.analysis import explore_macke

    if game not in ("macke", "volle-lotte"):  # before the rules: they would name --min-score
        raise UserError(f"explore is for Berliner Macke and Volle Lotte: --game macke or "
                        f"volle-lotte, not {game!r}")
    try:
        mins = [int(x) for x in min_score.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--min-score takes comma-separated numbers, not {min_score!r}") from None
    busts = [b.strip() for b in bust.split(",") if b.strip()]
    for b in busts:
        if b not in ("subtract", "zero"):
            raise UserError(f"--bust takes subtract, zero (comma-separated), not {b!r}")
    if not mins or not busts:
        raise UserError("--min-score and --bust need at least one value each")
    base = rules_from_flags(game, variant=variant, min_score=mins[0], throws=throws,
                            bust=busts[0], target=target, six_of_kind=six_of_kind,
                            win_value=win_value)
    for k in mins:
        if k < 0 or k % 50:
            raise UserError(f"--min-score values must be non-negative multiples of 50, not {k}")
    prepare_dir(out_dir, "--out-dir")
    with progress_phases(not as_json) as phase:
        phase(f"solving {len(mins) * len(busts)} rule sets exactly", 1)
        df = explore_macke(base, mins, busts, returns=returns)
    digest = run_digest("explore", game=game_label(base), rules=base, min_score=mins, bust=busts,
                        returns=returns)
    path = write_csv(run_file(out_dir, f"explore-{game_label(base)}", digest),
                      df.to_dict("records"), digest=digest)
    if as_json:
        print(json.dumps({"game": base.game, "variant": base.variant, "method": "exact",
                          "rows": json.loads(df.to_json(orient="records")), "csv": str(path),
                          "run_digest": digest}, indent=2))
        return
    t = Table("min score", "bust", "EV", "P(+)", "P(−)", "P(0)", "after a clear bank at ≥",
              *(["EV never returning", "value of returns"] if returns else []),
              title=f"{game_title(base)}: optimal play by minimum score and bust rule (exact)",
              title_justify="left")
    thr_cols = [c for c in df.columns if c.startswith("bank_t")]
    t2 = Table("min score", "bust", *[c[5:].replace("_", " ") for c in thr_cols],
               title="bank at ≥ (points) with t throws and d dice left", title_justify="left")

    def th(v) -> str:
        return "never" if v != v else f"{int(v):,}"

    for _, r in df.iterrows():
        t.add_row(str(r.min_score), r.bust, f"{r.ev:.2f}", percent(r.p_positive), percent(r.p_negative),
                  percent(r.p_zero), th(r.clear_bank_at),
                  *([f"{r.ev_no_returns:.2f}", f"{r.value_of_returns:.2f}"] if returns else []))
        t2.add_row(str(r.min_score), r.bust, *[th(r[c]) for c in thr_cols])
    out.print(t)
    out.print(t2)
    out.print(f"exact; CSV: {path.shown}")
