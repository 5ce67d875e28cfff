"""The ``tutto-sim`` command line (typer): parse, call the API, render.

No game logic lives here. Every user error (unknown card, bad option value,
negative counts) ends in one line on stderr and exit code 2, never a
traceback; Ctrl-C prints what finished and exits 130.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .rules.cards import CARD_CHOICES, Card, parse_card
from .rules.scoring import SIX_OF_KIND_CHOICES
from .rules.tutto import (
    GAME_END_CHOICES,
    PLUSMINUS_CHAIN_CHOICES,
    PLUSMINUS_DEDUCTION_CHOICES,
    RESHUFFLE_CHOICES,
    X2_SCOPE_CHOICES,
    TuttoRules,
)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Strategy analysis for Tutto, Berliner Macke and Volle Lotte.",
)


@app.callback()
def _root() -> None:
    """Strategy analysis for Tutto, Berliner Macke and Volle Lotte."""


out = Console()
err = Console(stderr=True)


class UserError(Exception):
    """Bad input: reported in one line, exit code 2."""


def _choice(flag: str, value: str, choices) -> str:
    if value not in choices:
        raise UserError(f"{flag} must be one of {', '.join(choices)}, not {value!r}")
    return value


# Rule options shared by the commands (RULES.md §2; docs/rules.md has the reasons).
SixOfKind = Annotated[str, typer.Option("--six-of-kind", help=f"Six of a kind: {' | '.join(SIX_OF_KIND_CHOICES)}.", rich_help_panel="Rules")]
X2Scope = Annotated[str, typer.Option("--x2-scope", help="x2 on a Tutto doubles the whole turn total (turn) or only this card's points (card).", rich_help_panel="Rules")]
PMChain = Annotated[str, typer.Option("--plusminus-chain", help="After a Plus/Minus Tutto: continue | bank | flat.", rich_help_panel="Rules")]
PMDeduction = Annotated[str, typer.Option("--plusminus-deduction", help="Plus/Minus deduction when the turn is banked (bank) or at the Tutto (tutto). Game-level only.", rich_help_panel="Rules")]
Reshuffle = Annotated[str, typer.Option("--reshuffle", help="Empty deck: reshuffle all 56 cards (full) or the discard pile; identical in effect. Game-level only.", rich_help_panel="Rules")]
Target = Annotated[int, typer.Option("--target", help="Points to win (multiple of 50). Game-level only.", rich_help_panel="Rules")]
GameEnd = Annotated[str, typer.Option("--game-end", help="round: finish the round, highest wins | immediate: first to target wins. Game-level only.", rich_help_panel="Rules")]
CloverValue = Annotated[int, typer.Option("--cloverleaf-value", help="Turn analysis: points a Kleeblatt success is worth.", rich_help_panel="Rules")]


def make_rules(six_of_kind: str, x2_scope: str, plusminus_chain: str,
               plusminus_deduction: str, reshuffle: str, target: int,
               game_end: str, cloverleaf_value: int) -> TuttoRules:
    _choice("--six-of-kind", six_of_kind, SIX_OF_KIND_CHOICES)
    _choice("--x2-scope", x2_scope, X2_SCOPE_CHOICES)
    _choice("--plusminus-chain", plusminus_chain, PLUSMINUS_CHAIN_CHOICES)
    _choice("--plusminus-deduction", plusminus_deduction, PLUSMINUS_DEDUCTION_CHOICES)
    _choice("--reshuffle", reshuffle, RESHUFFLE_CHOICES)
    _choice("--game-end", game_end, GAME_END_CHOICES)
    for flag, value, low in (("--target", target, 50), ("--cloverleaf-value", cloverleaf_value, 0)):
        if value < low or value % 50:
            raise UserError(f"{flag} must be a multiple of 50 and at least {low}, not {value}")
    return TuttoRules(six_of_kind=six_of_kind, x2_scope=x2_scope,
                      plusminus_chain=plusminus_chain,
                      plusminus_deduction=plusminus_deduction, reshuffle=reshuffle,
                      target=target, game_end=game_end, cloverleaf_value=cloverleaf_value)


def _card(value: str) -> Card:
    try:
        return parse_card(value)
    except ValueError as e:
        raise UserError(f"--card: {e}") from None


def _positive(flag: str, value: int, allow_zero: bool = False) -> int:
    if value < 0 or (value == 0 and not allow_zero):
        raise UserError(f"{flag} must be {'>= 0' if allow_zero else 'a positive number'}, not {value}")
    return value


def _seed(value: int) -> int:
    if not 0 <= value < 2**63:
        raise UserError(f"--seed must be 0 .. 2**63-1, not {value}")
    return value


@contextmanager
def progress_phases(enabled: bool):
    """A rich progress bar on stderr; yields ``phase(label, total) -> advance``."""
    if not enabled or not err.is_terminal:
        yield lambda label, total: (lambda n: None)
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as prog:
        task = prog.add_task("", total=1)

        def phase(label: str, total: int):
            prog.reset(task, total=total, description=label)
            return lambda n: prog.advance(task, n)

        yield phase


def _fmt_threshold(t: Optional[int]) -> str:
    return "never" if t is None else f"{t:,}"


def _write_csv(path: Path, rows: list[dict]) -> Path:
    import pandas as pd

    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@app.command()
def optimize(
    card: Annotated[str, typer.Option("--card", help=f"Card to optimise: {', '.join(CARD_CHOICES)} (German names too).")] = "bonus400",
    method: Annotated[str, typer.Option("--method", help="monte-carlo (default).")] = "monte-carlo",
    turns: Annotated[int, typer.Option("--turns", help="Fresh turns to evaluate the policy found (and the baselines).")] = 2_000_000,
    search_turns: Annotated[int, typer.Option("--search-turns", help="Turns per candidate in the search (common random numbers).")] = 500_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random number of the run.")] = 1,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables; no progress bar.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Where the CSV of the results goes.")] = Path("data"),
    six_of_kind: SixOfKind = "two-triples",
    x2_scope: X2Scope = "turn",
    plusminus_chain: PMChain = "continue",
    plusminus_deduction: PMDeduction = "bank",
    reshuffle: Reshuffle = "full",
    target: Target = 6000,
    game_end: GameEnd = "round",
    cloverleaf_value: CloverValue = 0,
) -> None:
    """Find the best stop-or-continue thresholds for one Tutto card."""
    from .sim.optimize import optimize_card
    from .sim.turns import set_threads

    the_card = _card(card)
    _choice("--method", method, ("monte-carlo",))
    _positive("--turns", turns)
    _positive("--search-turns", search_turns, allow_zero=True)
    _seed(seed)
    rules = make_rules(six_of_kind, x2_scope, plusminus_chain, plusminus_deduction,
                       reshuffle, target, game_end, cloverleaf_value)
    try:
        n_threads = set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None
    with progress_phases(not as_json) as phase:
        res = optimize_card(the_card, rules, turns=turns, seed=seed,
                            search_turns=search_turns, phase=phase)
    rows = _optimize_rows(res)
    csv_path = _write_csv(out_dir / f"optimize_{the_card.cli_name}_seed{seed}.csv", rows)
    if as_json:
        print(json.dumps(_optimize_json(res, n_threads, csv_path), indent=2))
    else:
        _print_optimize(res, n_threads, csv_path)
    if res.interrupted:
        raise typer.Exit(130)


def _optimize_rows(res) -> list[dict]:
    from .sim.optimize import decision_thresholds

    rows = []
    entries = [("best", res.policy, res.ev, res.p_tutto)]
    entries += [(name, cp, ev, pt) for name, (cp, ev, pt) in res.baselines.items()]
    entries += [(f"street take {k}", None, ev, p) for k, (p, ev) in res.street.items()]
    for name, cp, ev, pt in entries:
        row = {"card": res.card.cli_name, "policy": name, "ev": ev.mean, "ci95": ev.ci95,
               "turns": ev.n, "p_tutto": pt.mean, "p_tutto_ci95": pt.ci95, "seed": res.seed,
               "rules_sha256": res.rules.digest()}
        if cp is not None:
            row["keep_rule"] = cp.keep
            row.update({f"bank_{k}": v for k, v in decision_thresholds(res.card, cp, res.rules).items()})
            row["street_take"] = cp.street_take
        rows.append(row)
    return rows


def _optimize_json(res, n_threads: int, csv_path: Path) -> dict:
    from .sim.optimize import decision_thresholds

    d = {
        "card": res.card.cli_name,
        "method": "monte-carlo",
        "ev": res.ev.mean,
        "ci95": res.ev.ci95,
        "turns": res.ev.n,
        "seed": res.seed,
        "search_turns": res.search_turns,
        "bank_thresholds": decision_thresholds(res.card, res.policy, res.rules),
        "keep_rule": res.policy.keep,
        "p_tutto": res.p_tutto.mean,
        "p_tutto_ci95": res.p_tutto.ci95,
        "baselines": {
            name: {"ev": ev.mean, "ci95": ev.ci95, "turns": ev.n,
                   "bank_thresholds": decision_thresholds(res.card, cp, res.rules),
                   "keep_rule": cp.keep}
            for name, (cp, ev, _) in res.baselines.items()
        },
        "threads": n_threads,
        "rules": res.rules.to_dict(),
        "seconds": round(res.seconds, 2),
        "interrupted": res.interrupted,
        "csv": str(csv_path),
    }
    if res.card is Card.STREET:
        d["street_take"] = res.policy.street_take
        d["p_street"] = res.p_tutto.mean
        d["p_street_by_take"] = {str(k): {"p": p.mean, "ci95": p.ci95, "ev": ev.mean}
                                 for k, (p, ev) in res.street.items()}
    if res.card is Card.CLOVERLEAF:
        d["p_two_tuttos"] = res.p_two_tuttos.mean
        d["p_two_tuttos_ci95"] = res.p_two_tuttos.ci95
    return d


def _print_optimize(res, n_threads: int, csv_path: Path) -> None:
    from .sim.optimize import decision_thresholds

    card = res.card
    out.print(f"[bold]{card.display}[/bold]: best threshold policy (Monte Carlo)")
    if res.policy and card.can_bank_before_tutto:
        t = Table(title=f"keep rule: {res.policy.keep}", title_justify="left")
        t.add_column("dice left", justify="right")
        t.add_column("bank at ≥ (points)", justify="right")
        for k, v in decision_thresholds(card, res.policy, res.rules).items():
            label = k if k != "6" else "6 (after a Tutto)"
            t.add_row(label, _fmt_threshold(v))
        out.print(t)
    elif card in (Card.PLUSMINUS, Card.CLOVERLEAF):
        out.print(f"keep rule: {res.policy.keep}; after a Tutto bank at ≥ {_fmt_threshold(res.policy.draw_below)}")
    elif card is Card.STREET:
        out.print(f"set aside at most {res.policy.street_take} new number(s) per throw; "
                  f"after the Straße bank at ≥ {_fmt_threshold(res.policy.draw_below)}")
        t = Table("new numbers per throw", "P(Straße)", "95% CI", "EV", title="Straße success by how many new numbers you set aside")
        for k, (p, ev) in res.street.items():
            t.add_row(str(k), f"{p.mean:.4f}", f"± {p.ci95:.4f}", f"{ev.mean:.1f} ± {ev.ci95:.1f}")
        out.print(t)
    else:
        out.print("no decisions under this card")
    t = Table("policy", "EV (points)", "95% CI", "turns", "P(Tutto)",
              title="expected banked points of a turn that starts with this card")
    t.add_row("best found", f"{res.ev.mean:.1f}", f"± {res.ev.ci95:.2f}", f"{res.ev.n:,}", f"{res.p_tutto.mean:.4f}")
    for name, (_, ev, pt) in res.baselines.items():
        t.add_row(name, f"{ev.mean:.1f}", f"± {ev.ci95:.2f}", f"{ev.n:,}", f"{pt.mean:.4f}")
    out.print(t)
    if card is Card.CLOVERLEAF:
        out.print(f"P(two Tuttos in a row) = {res.p_two_tuttos}")
    out.print(f"seed {res.seed}; search {res.search_turns:,} turns per candidate "
              f"({res.policies_tried} candidates, {res.sweeps} sweeps, common random numbers); "
              f"evaluated on fresh turns; {n_threads} thread(s); {res.seconds:.1f} s")
    out.print(f"other cards drawn after a Tutto follow the default rule-of-thumb policy; CSV: {csv_path}")
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished part[/yellow]")


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2 instead of usage boxes.

    The parser's own errors (unknown option, a word where a number belongs)
    are recognised by their ``format_message``, so this works whether typer
    ships click itself or uses the click package.
    """
    try:
        rc = app(args=argv, prog_name="tutto-sim", standalone_mode=False)
    except UserError as e:
        print(f"tutto-sim: error: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("tutto-sim: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # the parser's usage errors
        if not hasattr(e, "format_message"):
            raise
        if type(e).__name__ == "NoArgsIsHelpError":  # the help is already printed
            sys.exit(2)
        if type(e).__name__ == "Abort":
            print("tutto-sim: interrupted", file=sys.stderr)
            sys.exit(130)
        msg = " ".join(e.format_message().split())
        print(f"tutto-sim: error: {msg}", file=sys.stderr)
        sys.exit(2)
    if isinstance(rc, int) and rc:
        sys.exit(rc)


if __name__ == "__main__":
    main()
