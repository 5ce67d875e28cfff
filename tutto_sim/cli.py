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

from .cli_support import (MAX_GAMES, MAX_TURNS, RESULTS_DIR, UserError, UserInterrupt, choice, count,
                          polish_help, prepare_dir, prepare_file, save_csv)
from .cli_support import seed as _seed
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
if not out.is_terminal:  # piped or captured: wide enough for the tables, no wrapping
    out = Console(width=120)
err = Console(stderr=True, soft_wrap=True)  # one message, one line: never wrapped


def _choice(flag: str, value: str, choices) -> str:
    return choice(flag, value, choices)


# Rule options shared by the commands (docs/rules.md: every option with its reason).
SixOfKind = Annotated[str, typer.Option("--six-of-kind", help=f"Six of a kind: {' | '.join(SIX_OF_KIND_CHOICES)}.", rich_help_panel="Rules")]
X2Scope = Annotated[str, typer.Option("--x2-scope", help="x2 on a Tutto doubles the whole turn total (turn) or only this card's points (card).", rich_help_panel="Rules")]
PMChain = Annotated[str, typer.Option("--plusminus-chain", help="After a Plus/Minus Tutto: continue | bank | flat.", rich_help_panel="Rules")]
PMDeduction = Annotated[str, typer.Option("--plusminus-deduction", help="Plus/Minus deduction when the turn is banked (bank) or at the Tutto (tutto). Game-level only.", rich_help_panel="Rules")]
Reshuffle = Annotated[str, typer.Option("--reshuffle", help="Empty deck: reshuffle all 56 cards (full) or the discard pile; identical in effect. Game-level only.", rich_help_panel="Rules")]
Target = Annotated[Optional[int], typer.Option("--target", help="Points to win (multiple of 50; default 6000 for Tutto and Volle Lotte, 5000 for Macke). Game-level only.", rich_help_panel="Rules")]
GameEnd = Annotated[str, typer.Option("--game-end", help="round: finish the round, highest wins | immediate: first to target wins. Game-level only.", rich_help_panel="Rules")]
CloverValue = Annotated[int, typer.Option("--cloverleaf-value", help="Turn analysis: points a Kleeblatt success is worth.", rich_help_panel="Rules")]


# Berliner Macke / Volle Lotte (docs/macke.md).
GameOpt = Annotated[str, typer.Option("--game", help="tutto | macke | volle-lotte (= macke --variant volle-lotte).")]
Variant = Annotated[str, typer.Option("--variant", help="Macke: standard | instant-win | jackpot | ones-and-fives | volle-lotte.", rich_help_panel="Macke rules")]
MinScore = Annotated[int, typer.Option("--min-score", help="Macke: a turn total below this is subtracted.", rich_help_panel="Macke rules")]
Throws = Annotated[int, typer.Option("--throws", help="Macke: throws per series.", rich_help_panel="Macke rules")]
Bust = Annotated[str, typer.Option("--bust", help="Macke after the first throw: subtract the turn total | zero.", rich_help_panel="Macke rules")]
WinValue = Annotated[int, typer.Option("--win-value", help="Macke instant-win, turn analysis: points an instant win is worth.", rich_help_panel="Macke rules")]
GAMES = ("tutto", "macke", "volle-lotte")
MACKE_DEFAULTS = {"variant": "standard", "min_score": 300, "throws": 3, "bust": "subtract", "win_value": 5000}
TUTTO_DEFAULTS = {"x2_scope": "turn", "plusminus_chain": "continue", "plusminus_deduction": "bank",
                  "reshuffle": "full", "game_end": "round", "cloverleaf_value": 0}


def game_rules(game: str, tutto: dict, macke: dict):
    """TuttoRules or MackeRules from the flags; flags of the other game must stay unset."""
    from .rules.macke import MackeRules

    _choice("--game", game, GAMES)
    own, other = (tutto, macke) if game == "tutto" else (macke, tutto)
    defaults = MACKE_DEFAULTS if game == "tutto" else TUTTO_DEFAULTS
    for name, default in defaults.items():
        if other.get(name, default) != default:
            raise UserError(f"--{name.replace('_', '-')} does not apply to --game {game}")
    if game == "tutto":
        return make_rules(**tutto)
    if game == "volle-lotte":
        if macke["variant"] not in ("standard", "volle-lotte"):
            raise UserError("--game volle-lotte takes no --variant (it is the variant)")
        macke = {**macke, "variant": "volle-lotte"}
    target = macke.pop("target", None)
    try:
        rules = MackeRules.preset(macke.pop("variant"), **macke,
                                  **({} if target is None else {"target": target}))
    except ValueError as e:
        flag = str(e).split(" ", 1)[0].replace("_", "-")
        raise UserError(f"--{flag} {str(e).split(' ', 1)[1]}") from None
    return rules


#: Every rule flag: (parameter, annotated type, default). Commands take them
#: through :func:`with_rules` instead of listing them one by one.
RULE_FLAGS = (
    ("game", GameOpt, "tutto"),
    ("six_of_kind", SixOfKind, "two-triples"),
    ("x2_scope", X2Scope, "turn"),
    ("plusminus_chain", PMChain, "continue"),
    ("plusminus_deduction", PMDeduction, "bank"),
    ("reshuffle", Reshuffle, "full"),
    ("target", Target, None),
    ("game_end", GameEnd, "round"),
    ("cloverleaf_value", CloverValue, 0),
    ("variant", Variant, "standard"),
    ("min_score", MinScore, 300),
    ("throws", Throws, 3),
    ("bust", Bust, "subtract"),
    ("win_value", WinValue, 5000),
)


def rules_from_flags(game: str = "tutto", **flags):
    """TuttoRules or MackeRules from the rule flags (defaults for those not given)."""
    f = {name: flags.get(name, default) for name, _, default in RULE_FLAGS if name != "game"}
    tutto = {k: f[k] for k in ("six_of_kind", "x2_scope", "plusminus_chain", "plusminus_deduction",
                               "reshuffle", "target", "game_end", "cloverleaf_value")}
    macke = {k: f[k] for k in ("variant", "min_score", "throws", "bust", "target", "six_of_kind",
                               "win_value")}
    return game_rules(game.lower(), tutto, macke)


def with_rules(games: tuple[str, ...] = GAMES, default_game: str = "tutto"):
    """Give a command every rule flag; it receives the rules as ``rules``.

    The command's own parameters come first in ``--help``; the rule flags are
    grouped in the "Rules" / "Macke rules" panels. ``games`` limits ``--game``.
    """
    import functools
    import inspect

    def decorate(fn):
        sig = inspect.signature(fn, eval_str=True)
        own = [p for p in sig.parameters.values() if p.name != "rules"]
        extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annot,
                                   default=default_game if name == "game" else default)
                 for name, annot, default in RULE_FLAGS]

        @functools.wraps(fn)
        def command(*args, **kwargs):
            flags = {name: kwargs.pop(name) for name, _, _ in RULE_FLAGS if name in kwargs}
            _choice("--game", flags.get("game", default_game), games)
            return fn(*args, rules=rules_from_flags(**flags), **kwargs)

        params = own + extra
        command.__signature__ = sig.replace(parameters=params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        return command

    return decorate


def make_rules(six_of_kind: str, x2_scope: str, plusminus_chain: str,
               plusminus_deduction: str, reshuffle: str, target: Optional[int],
               game_end: str, cloverleaf_value: int) -> TuttoRules:
    target = 6000 if target is None else target
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


def game_label(rules) -> str:
    """The game's name in file names: tutto, macke, volle-lotte, macke-jackpot, …"""
    if isinstance(rules, TuttoRules):
        return "tutto"
    return rules.game if rules.variant in ("standard", "volle-lotte") else f"macke-{rules.variant}"


def _card(value: str) -> Card:
    try:
        return parse_card(value)
    except ValueError as e:
        raise UserError(f"--card: {e}") from None


def _positive(flag: str, value: int, allow_zero: bool = False, ceiling: int = MAX_TURNS) -> int:
    return count(flag, value, ceiling, allow_zero)


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
    """A bank threshold in a "bank at ≥" cell: ``never``, ``always`` (0) or points."""
    if t is None:
        return "never"
    return "always" if t == 0 else f"{t:,}"


def _write_csv(path: Path, rows: list[dict], interrupted: bool = False) -> Path:
    """Write a result CSV atomically (``cli_support.save_csv``); never loses it."""
    return save_csv(path, rows, interrupted,
                    warn=lambda m: err.print(m, markup=False, highlight=False))


@app.command()
@with_rules()
def optimize(
    card: Annotated[Optional[str], typer.Option("--card", help=f"Tutto card to optimise: {', '.join(CARD_CHOICES)} (German names too). Default bonus400.")] = None,
    method: Annotated[str, typer.Option("--method", help="monte-carlo (search threshold policies by simulation) or exact (the optimal policy from the solver).")] = "monte-carlo",
    turns: Annotated[int, typer.Option("--turns", help="Fresh turns to evaluate the policy found (and the baselines).")] = 2_000_000,
    search_turns: Annotated[int, typer.Option("--search-turns", help="Turns per candidate in the search (common random numbers).")] = 500_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random number of the run.")] = 1,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables; no progress bar.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV of the results (created if missing).")] = RESULTS_DIR,
    rules=None,
) -> None:
    """Find the best stop-or-continue thresholds for one Tutto card (or for Macke)."""
    from .sim.optimize import optimize_card
    from .sim.turns import set_threads
    from .solve import exact_policy_value, solve_tutto

    _choice("--method", method, ("monte-carlo", "exact"))
    _positive("--turns", turns)
    _positive("--search-turns", search_turns)
    _seed(seed)
    if not isinstance(rules, TuttoRules) and card is not None:
        raise UserError(f"--card is for --game tutto; {rules.game} is played without cards")
    the_card = _card("bonus400" if card is None else card) if isinstance(rules, TuttoRules) else None
    if method == "monte-carlo":
        prepare_dir(out_dir, "--out-dir")
    try:
        n_threads = set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None
    if not isinstance(rules, TuttoRules):
        from .cli_macke import macke_optimize

        macke_optimize(rules, method, turns, search_turns, seed, as_json, out_dir, n_threads)
        return
    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_tutto(rules)
        res = optimize_card(the_card, rules, turns=turns, seed=seed,
                            search_turns=search_turns, phase=phase)
    pol = res_policy_array(res)
    exact = {"ev": float(sol.card_ev[the_card]),
             "policy_found_exact_ev": exact_policy_value(pol, the_card, rules)}
    if method == "exact":
        _exact_report(sol, the_card, res, exact, as_json, n_threads)
        return
    rows = _optimize_rows(res)
    csv_path = _write_csv(out_dir / f"optimize-tutto-{the_card.cli_name}-seed{seed}.csv", rows,
                          res.interrupted)
    if as_json:
        d = _optimize_json(res, n_threads, csv_path)
        d["exact_optimum"] = _exact_card_json(sol, the_card)
        d["policy_found_exact_ev"] = exact["policy_found_exact_ev"]
        print(json.dumps(d, indent=2))
    else:
        _print_optimize(res, n_threads, csv_path)
        out.print(f"exact optimum (solver, every decision free): EV {exact['ev']:.2f} points; "
                  f"the policy found is worth exactly {exact['policy_found_exact_ev']:.2f} "
                  f"(gap {exact['ev'] - exact['policy_found_exact_ev']:.2f})")
    if res.interrupted:
        raise typer.Exit(130)


def res_policy_array(res):
    from .policy import DEFAULT_POLICY

    return DEFAULT_POLICY.with_card(res.card, res.policy).to_array()


def _exact_card_json(sol, card: Card) -> dict:
    from .policy.threshold import DICE_LEFT

    d = {"ev": float(sol.card_ev[card]), "method": "exact"}
    if card.can_bank_before_tutto:
        d["bank_thresholds"] = {str(n): _th(sol.bank_threshold[card, n]) for n in DICE_LEFT}
        d["bank_exceptions"] = [[int(dl), int(t)] for c, dl, t, _ in sol.bank_exceptions if c is card]
    if card is Card.STREET:
        d["p_street"] = sol.p_street
    if card in (Card.PLUSMINUS, Card.CLOVERLEAF):
        d["p_tutto"] = sol.p_tutto
        d["p_two_tuttos"] = sol.p_cloverleaf
    d["draw_below"] = _th(sol.draw_below)
    return d


def _th(v) -> Optional[int]:
    return None if v >= 1 << 40 else int(v)


NOTABLE_TOTALS = {6: 0, 5: 300, 4: 400, 3: 500}


def _exact_report(sol, card: Card, res, exact: dict, as_json: bool, n_threads: int) -> None:
    """``optimize --method exact``: the optimal policy of one card, readable."""
    from .solve.advice import keep_advice

    advice = {}
    if card.can_bank_before_tutto or card in (Card.PLUSMINUS, Card.CLOVERLEAF):
        for dice, total in NOTABLE_TOTALS.items():
            advice[dice] = (total, keep_advice(sol, card, dice, total, top=6))
    gap = exact["ev"] - exact["policy_found_exact_ev"]
    if as_json:
        d = {"card": card.cli_name, "method": "exact", **_exact_card_json(sol, card),
             "best_threshold_policy": {
                 "keep_rule": res.policy.keep, "ev_exact": exact["policy_found_exact_ev"],
                 "ev_monte_carlo": res.ev.mean, "ci95": res.ev.ci95, "turns": res.ev.n,
                 "seed": res.seed},
             "gap_to_threshold_policy": gap,
             "keep_advice": {str(n): {"turn_total": total, "throws": [
                 {"throw": a.throw, "probability": a.probability,
                  "best": {"dice": a.best[1], "points": a.best[2], "value": a.value_best},
                  "every_scoring_die": {"dice": a.all_scoring[1], "points": a.all_scoring[2],
                                        "value": a.value_all}} for a in lst]}
                 for n, (total, lst) in advice.items()},
             "rules": sol.rules.to_dict()}
        print(json.dumps(d, indent=2))
        return
    out.print(f"[bold]{card.display}[/bold]: optimal policy (exact dynamic programming)")
    out.print(f"EV of a turn that starts with this card: [bold]{exact['ev']:.2f}[/bold] points (exact)")
    if card.can_bank_before_tutto:
        t = Table("dice left", "bank at ≥ (points)", "exceptions (bank also at)",
                  title="bank as soon as the turn total reaches:", title_justify="left")
        for n in range(1, 6):
            exc = [tt for c, dl, tt, _ in sol.bank_exceptions if c is card and dl == n]
            t.add_row(str(n), _fmt_threshold(_th(sol.bank_threshold[card, n])),
                      ", ".join(f"{x:,}" for x in exc) or "none")
        out.print(t)
    if card is Card.STREET:
        out.print(f"P(completing the Straße) with the best choice of new numbers: {sol.p_street:.4f} "
                  f"(always taking every new number: {sol.p_street_by_take[6]:.4f})")
        t = Table("numbers set aside", *[f"{j} new" for j in range(1, 7)],
                  title="how many of the new numbers to set aside (smallest first)")
        for m in range(6):
            t.add_row(str(m), *[str(int(sol.street_take[m, j])) if m + j <= 6 else "" for j in range(1, 7)])
        out.print(t)
    if card in (Card.PLUSMINUS, Card.CLOVERLEAF):
        out.print(f"P(Tutto from 6 dice, best keeps) = {sol.p_tutto:.4f}; "
                  f"P(two Tuttos in a row) = {sol.p_cloverleaf:.4f}")
    if card is not Card.STOP and card is not Card.FIREWORKS:
        out.print(f"after a Tutto: {_draw_rule(_th(sol.draw_below))}"
                  + (f" (exceptions: {', '.join(map(str, sol.draw_exceptions))})" if sol.draw_exceptions else ""))
    for n, (total, lst) in advice.items():
        if not lst:
            continue
        t = Table("throw", "P", "set aside", "EV", "not: every scoring die", "EV",
                  title=f"notable throws with {n} dice at turn total {total}: set aside fewer dice",
                  title_justify="left")
        for a in lst:
            fmt = (lambda v: f"{v:.4f}") if card in (Card.PLUSMINUS, Card.CLOVERLEAF) else (lambda v: f"{v:.1f}")
            t.add_row("-".join(a.throw), f"{a.probability:.4f}", f"{a.best[1]} ({a.best[2]})",
                      fmt(a.value_best), f"{a.all_scoring[1]} ({a.all_scoring[2]})", fmt(a.value_all))
        out.print(t)
    out.print(f"best threshold policy from the Monte Carlo search (keep rule {res.policy.keep}, "
              f"seed {res.seed}; later cards by the rule of thumb): exact EV {exact['policy_found_exact_ev']:.2f}, simulated "
              f"{res.ev.mean:.2f} ± {res.ev.ci95:.2f} (n={res.ev.n:,}); "
              f"the optimum is worth {gap:.2f} points more per turn")


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


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 sweep``, ``3 sweeps``, ``1 die``, ``2 dice``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def merge_rows(rows: list[tuple[str, tuple]]) -> list[tuple[str, tuple]]:
    """Rows whose figures are identical (the same play on the same turns) shown once,
    their names joined with ``=``."""
    merged: dict[tuple, list[str]] = {}
    for name, figures in rows:
        merged.setdefault(figures, []).append(name)
    return [(" = ".join(names), figures) for figures, names in merged.items()]


def _draw_rule(below: Optional[int]) -> str:
    """The after-Tutto rule in words from its draw-below threshold."""
    if below is None:
        return "always draw another card"
    if below == 0:
        return "always bank"
    return f"draw another card while the turn total is below {below:,}, else bank"


def _after_tutto(t: Optional[int]) -> str:
    if t is None:
        return "always draw another card"
    return "always bank" if t == 0 else f"bank at ≥ {t:,}, below it draw another card"


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
    elif card is Card.PLUSMINUS:
        after = (f"; after the Tutto: {_after_tutto(res.policy.draw_below)}"
                 if res.rules.plusminus_chain == "continue" else "; the Tutto ends the turn")
        out.print(f"keep rule: {res.policy.keep}{after}")
    elif card is Card.CLOVERLEAF:
        out.print(f"keep rule: {res.policy.keep}; no banking under this card: a Niete loses the "
                  "turn, the second Tutto in a row wins the game")
    elif card is Card.STREET:
        out.print(f"set aside at most {plural(res.policy.street_take, 'new number')} per throw; "
                  f"after the Straße: {_after_tutto(res.policy.draw_below)}")
        t = Table("new numbers per throw", "P(Straße)", "95% CI", "EV", title="Straße success by how many new numbers you set aside")
        for k, (p, ev) in res.street.items():
            t.add_row(str(k), f"{p.mean:.4f}", f"± {p.ci95:.4f}", f"{ev.mean:.1f} ± {ev.ci95:.1f}")
        out.print(t)
    else:
        out.print("no decisions under this card")
    t = Table("policy", "EV (points)", "95% CI", "turns", "P(Tutto)",
              title="expected banked points of a turn that starts with this card")
    rows = [("best found", (res.ev, res.p_tutto))]
    rows += [(name, (ev, pt)) for name, (_, ev, pt) in res.baselines.items()]
    for name, (ev, pt) in merge_rows(rows):
        t.add_row(name, f"{ev.mean:.1f}", f"± {ev.ci95:.2f}", f"{ev.n:,}", f"{pt.mean:.4f}")
    out.print(t)
    if card is Card.CLOVERLEAF:
        out.print(f"P(two Tuttos in a row) = {res.p_two_tuttos}")
    if res.policies_tried:
        search = (f"search {res.search_turns:,} turns per candidate "
                  f"({plural(res.policies_tried, 'candidate')}, {plural(res.sweeps, 'sweep')}, "
                  "common random numbers); evaluated on fresh turns")
    else:
        search = "nothing to search"
    out.print(f"seed {res.seed}; {search}; {plural(n_threads, 'thread')}; {res.seconds:.1f} s")
    out.print(f"other cards drawn after a Tutto follow the default rule-of-thumb policy; CSV: {csv_path}",
              soft_wrap=True)
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished part; the CSV is "
                  "marked interrupted[/yellow]")


@app.command()
@with_rules()
def solve(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    cap: Annotated[Optional[int], typer.Option("--cap", help="Tutto: turn total (points) from which the solver assumes banking; raising it changes nothing (tested). Default 60000.")] = None,
    rules=None,
) -> None:
    """Solve exactly: the optimal turn policy (Tutto: every card's value; --game macke too)."""
    import time

    from .solve import solve_tutto

    if not isinstance(rules, TuttoRules):
        if cap is not None:
            raise UserError(f"--cap is for --game tutto; the {rules.game} solver needs no cap")
        from .cli_macke import macke_solve

        macke_solve(rules, as_json)
        return
    cap = 60000 if cap is None else cap
    if cap < 5000 or cap % 50 or cap > 10**6:
        raise UserError(f"--cap must be a multiple of 50 from 5000 to 1,000,000, not {cap}")
    t0 = time.perf_counter()
    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_tutto(rules, cap_units=cap // 50)
    seconds = time.perf_counter() - t0
    cards = {c.cli_name: _exact_card_json(sol, c) for c in Card}
    if as_json:
        d = {"method": "exact", "turn_ev": sol.turn_ev, "p_tutto": sol.p_tutto,
             "p_street": sol.p_street, "p_cloverleaf": sol.p_cloverleaf,
             "p_street_by_take": {str(k): float(sol.p_street_by_take[k]) for k in range(1, 7)},
             "draw_below": _th(sol.draw_below), "draw_exceptions": list(sol.draw_exceptions),
             "cards": {k: {kk: vv for kk, vv in v.items() if kk != "draw_below"} for k, v in cards.items()},
             "bank_exceptions": [[c.cli_name, int(d_), int(t_), p_] for c, d_, t_, p_ in sol.bank_exceptions],
             "cap": cap, "rules": rules.to_dict(), "seconds": round(seconds, 2)}
        print(json.dumps(d, indent=2))
        return
    t = Table(title="Tutto, optimal play (exact): value of a turn that starts with each card,\n"
              "and bank as soon as the turn total is ≥ … with 1-5 dice left", title_justify="left")
    t.add_column("card", no_wrap=True)
    t.add_column("deck", no_wrap=True)
    t.add_column("EV", justify="right", no_wrap=True)
    for n in range(1, 6):
        t.add_column(f"{n}", justify="right", no_wrap=True)
    from .rules.cards import DECK_COUNTS

    for c in Card:
        bank = [_fmt_threshold(_th(sol.bank_threshold[c, n])) if c.can_bank_before_tutto else "–"
                for n in range(1, 6)]
        t.add_row(c.display, f"{DECK_COUNTS[c]}/56", f"{sol.card_ev[c]:.2f}", *bank)
    out.print(t)
    out.print(f"whole turn (card drawn at random): EV [bold]{sol.turn_ev:.2f}[/bold] points")
    out.print(f"after a Tutto: {_draw_rule(_th(sol.draw_below))}"
              + (f"; exceptions {list(sol.draw_exceptions)}" if sol.draw_exceptions else "; no exceptions"))
    out.print(f"P(Tutto from 6 dice, best keeps) = {sol.p_tutto:.4f}; Kleeblatt P(two Tuttos) = {sol.p_cloverleaf:.4f}")
    out.print(f"P(Straße, best play) = {sol.p_street:.4f} (taking every new number: {sol.p_street_by_take[6]:.4f})")
    exc = sol.bank_exceptions
    out.print("bank thresholds: bank iff turn total ≥ threshold, "
              + ("no exceptions" if not exc else f"exceptions: {[(c.cli_name, d_, t_) for c, d_, t_, _ in exc[:10]]}"))
    if sol.x2_card_threshold is not None:
        out.print("x2 (scope card): the x2 row shows the largest threshold over the card's own points")
    out.print(f"exact; cap {cap:,}; solved in {seconds:.1f} s")


@app.command("export-policy")
@with_rules()
def export_policy(
    out_path: Annotated[Optional[Path], typer.Option("--out", help="File to write (default: results/GAME-policy.json, .csv with --format csv).")] = None,
    fmt: Annotated[str, typer.Option("--format", help="json (for bots, versioned; default) | csv | parquet (analysis).")] = "json",
    rules=None,
) -> None:
    """Solve exactly and write the optimal policy table (docs/policy-format.md)."""
    from .policy.exact import ExactPolicy, PolicyFileError
    from .solve import solve_tutto

    _choice("--format", fmt, ("json", "csv", "parquet"))
    if not isinstance(rules, TuttoRules):
        from .cli_macke import macke_export

        macke_export(rules, out_path, fmt)
        return
    if out_path is None:
        out_path = RESULTS_DIR / f"tutto-policy.{fmt}"
    prepare_file(out_path, "--out")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError("--format parquet needs pyarrow: pip install 'tutto-sim[parquet]'") from None
    with progress_phases(True) as phase:
        phase("solving exactly", 1)
        policy = ExactPolicy.from_solution(solve_tutto(rules))
    try:
        path = policy.write(out_path, fmt)
    except PolicyFileError as e:
        raise UserError(str(e)) from None
    except OSError as e:
        raise UserError(f"cannot write {out_path}: {e.strerror}") from None
    out.print(f"wrote {path} ({path.stat().st_size:,} bytes, {fmt}); rules sha256 {rules.digest()[:16]}…; "
              f"turn EV {policy.summary['turn_ev']:.2f}")


@app.command()
@with_rules()
def validate(
    turns: Annotated[int, typer.Option("--turns", help="Simulated turns per check.")] = 2_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulations.")] = 1,
    policy_file: Annotated[Optional[Path], typer.Option("--policy", help="Policy file to check (default: solve and export to a temporary file).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all).")] = None,
    rules=None,
) -> None:
    """Check the solver against simulation both ways (exit 1 if a check fails)."""
    import tempfile

    from .policy.exact import ExactPolicy, PolicyFileError, load_policy
    from .sim.turns import set_threads
    from .sim.validate import family_z
    from .sim.validate import validate as run_validation
    from .solve import solve_tutto

    _positive("--turns", turns)
    _seed(seed)
    try:
        set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None
    if not isinstance(rules, TuttoRules):
        from .cli_macke import macke_validate

        macke_validate(rules, turns, seed, policy_file, as_json)
        return
    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_tutto(rules)
        try:
            if policy_file is None:
                with tempfile.TemporaryDirectory() as tmp:
                    path = ExactPolicy.from_solution(sol).write(Path(tmp) / "policy.json")
                    policy = load_policy(path, rules)
            else:
                policy = load_policy(policy_file, rules)
        except PolicyFileError as e:
            raise UserError(str(e)) from None
        checks = run_validation(policy, {c.cli_name: float(sol.card_ev[c]) for c in Card},
                                sol.turn_ev, turns, seed, phase=phase)
    z = family_z(len(checks))
    ok = all(abs(ch.z) <= z for ch in checks)
    if as_json:
        print(json.dumps({"ok": ok, "family_z": z, "seed": seed, "turns": turns, "checks": [
            {"what": ch.what, "card": ch.card, "exact": ch.exact, "simulated": ch.simulated,
             "ci95": ch.ci95, "turns": ch.n, "z": ch.z} for ch in checks]}, indent=2))
    else:
        t = Table("policy", "first card", "exact EV", "simulated EV", "95% CI", "z", "",
                  title=f"solver vs simulation (seed {seed}, {turns:,} turns each)")
        for ch in checks:
            t.add_row(ch.what, ch.card, f"{ch.exact:.2f}", f"{ch.simulated:.2f}", f"± {ch.ci95:.2f}",
                      f"{ch.z:+.2f}", "ok" if abs(ch.z) <= z else "[red]FAIL[/red]")
        out.print(t)
        out.print(f"{'all' if ok else 'NOT all'} {len(checks)} checks within |z| ≤ {z:.2f} "
                  "(Bonferroni: a 95% test for the whole family)")
    if not ok:
        raise typer.Exit(1)


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2 instead of usage boxes.

    Exit codes: 0 done, 1 a check failed (``validate``), 2 bad input or an
    output place that cannot be written, 130 interrupted (Ctrl-C). The
    parser's own errors (unknown option, a word where a number belongs) are
    recognised by their ``format_message``, so this works whether typer
    ships click itself or uses the click package. Anything else is a bug:
    one line saying so (exit 1); ``TUTTO_SIM_DEBUG=1`` shows the traceback.
    """
    import os

    import typer.main

    command = typer.main.get_command(app)
    polish_help(command)
    try:
        rc = command.main(args=argv, prog_name="tutto-sim", standalone_mode=False)
    except UserError as e:
        print(f"tutto-sim: error: {e}", file=sys.stderr)
        sys.exit(2)
    except UserInterrupt as e:
        print(f"tutto-sim: interrupted: {e}", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("tutto-sim: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as e:  # the parser's usage errors, then output places, then bugs
        if hasattr(e, "format_message"):
            if type(e).__name__ == "NoArgsIsHelpError":  # the help is already printed
                sys.exit(2)
            if type(e).__name__ == "Abort":
                print("tutto-sim: interrupted", file=sys.stderr)
                sys.exit(130)
            if type(e).__name__ == "Exit":
                sys.exit(getattr(e, "exit_code", 0))
            msg = " ".join(e.format_message().split())
            print(f"tutto-sim: error: {msg}", file=sys.stderr)
            sys.exit(2)
        if os.environ.get("TUTTO_SIM_DEBUG"):
            raise
        if isinstance(e, OSError):
            where = f" {e.filename}" if getattr(e, "filename", None) else ""
            print(f"tutto-sim: error: cannot read or write{where}: {e.strerror or e}", file=sys.stderr)
            sys.exit(2)
        msg = " ".join(str(e).split())[:300]
        print(f"tutto-sim: internal error (a bug, please report it): {type(e).__name__}: {msg}; "
              "TUTTO_SIM_DEBUG=1 shows the traceback", file=sys.stderr)
        sys.exit(1)
    if isinstance(rc, int) and rc:
        sys.exit(rc)


# Commands defined in their own modules register themselves on ``app`` when
# imported: games and tournaments, reports, Berliner Macke.
from . import cli_games, cli_macke, cli_report  # noqa: E402,F401


if __name__ == "__main__":
    main()
