"""Berliner Macke / Volle Lotte on the command line: the handlers of
``optimize``, ``solve``, ``export-policy`` and ``validate`` (``core.commands``
parses, checks and calls them through the registry) and their rendering.
Parse, call the API, render."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from tutto_sim.core.cli import (
    RESULTS_DIR,
    UserError,
    fmt_threshold,
    write_csv,
    game_label,
    game_title,
    merge_rows,
    out,
    plural,
    prepare_file,
    progress_phases,
)
from tutto_sim.core.runs import run_digest, run_file


def percent(x) -> str:
    return f"{100 * x:.2f}%"


def check_optimize(rules, card, method) -> None:
    """Before any computing: no cards in Macke, and no ``--method exact`` here."""
    if card is not None:
        raise UserError(f"--card is for --game tutto; {rules.game} is played without cards")
    if method != "monte-carlo":
        raise UserError("--method exact for Macke: use `tutto-sim solve --game macke`")


def optimize(rules, card, method: str, turns: int, search_turns: int, seed: int,
             as_json: bool, out_dir: Path, n_threads: int) -> None:
    from tutto_sim.core.commands_games import ran_on
    from tutto_sim.macke.optimize import optimize_macke

    ran = ran_on(n_threads)
    check_optimize(rules, card, method)
    if method != "monte-carlo":
        raise UserError("--method exact for Macke: use `tutto-sim solve --game macke`")
    with progress_phases(not as_json) as phase:
        res = optimize_macke(rules, turns=turns, seed=seed, search_turns=search_turns, phase=phase)
        exact = _exact_optimum(rules)
    d = res.to_json()
    d["exact_optimum"] = exact
    d.update(ran.json())
    rows = [{"policy": "best", "bank_at": res.bank_at, "bank_at_clear": res.bank_at_clear,
             "ev": res.ev.mean, "ci95": res.ev.ci95, "turns": res.ev.n,
             "p_positive": res.best.p_positive.mean, "p_negative": res.best.p_negative.mean,
             "p_zero": res.best.p_zero.mean, "seed": seed, "rules_sha256": rules.digest()}]
    for name, b in res.baselines.items():
        rows.append({"policy": name, "ev": b.ev.mean, "ci95": b.ev.ci95, "turns": b.ev.n,
                     "p_positive": b.p_positive.mean, "p_negative": b.p_negative.mean,
                     "p_zero": b.p_zero.mean, "seed": seed, "rules_sha256": rules.digest()})
    digest = run_digest("optimize", game=game_label(rules), rules=rules, turns=turns,
                        search_turns=search_turns, seed=seed)
    csv = write_csv(run_file(out_dir, f"optimize-{game_label(rules)}-seed{seed}", digest), rows,
                     res.interrupted, digest)
    d["csv"] = str(csv)
    d["run_digest"] = digest
    if as_json:
        print(json.dumps(d, indent=2))
        if res.interrupted:
            raise typer.Exit(130)
        return
    out.print(f"[bold]{game_title(rules)}[/bold]: best simple policy (keep every scoring unit, "
              f"never return, bank at ≥ K), Monte Carlo")
    t = Table("policy", "bank at ≥", "after a clear bank at ≥", "EV", "95% CI", "turns",
              "P(+)", "P(−)", "P(0)", title="signed turn result (points)")
    rows = [("best found", (fmt_threshold(res.bank_at), fmt_threshold(res.bank_at_clear),
                            res.ev, res.best))]
    for name, b in res.baselines.items():
        pol = b.policy
        rows.append((name, (fmt_threshold(pol.bank_at if isinstance(pol.bank_at, (int, type(None))) else None),
                            fmt_threshold(pol.bank_at_clear), b.ev, b)))
    for name, (k, clear, ev, b) in merge_rows([(n, (k, c, ev, (b.p_positive, b.p_negative, b.p_zero)))
                                                for n, (k, c, ev, b) in rows]):
        t.add_row(name, k, clear, f"{ev.mean:.1f}", f"± {ev.ci95:.2f}", f"{ev.n:,}",
                  *(percent(p.mean) for p in b))
    out.print(t)
    if exact is not None:
        out.print(f"exact optimum (solver: every keep, return and bank decision free): "
                  f"EV {exact['turn_ev']:.2f}; P(+) {percent(exact['p_positive'])}, "
                  f"P(−) {percent(exact['p_negative'])}, P(0) {percent(exact['p_zero'])}")
    if res.exact_ev is not None:
        out.print(f"the policy found is worth exactly {res.exact_ev:.2f}")
    out.print(f"seed {seed}; search {search_turns:,} turns per candidate (common random numbers), "
              f"evaluated on fresh turns; {ran.words()}; {res.seconds:.1f} s; CSV: {csv.shown}")
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished part; the CSV is "
                  "marked interrupted[/yellow]")
        raise typer.Exit(130)


def _exact_optimum(rules):
    try:
        from tutto_sim.macke.solver import solve_macke
    except ImportError:  # pragma: no cover - the solver ships with this release
        return None
    sol = solve_macke(rules)
    return {"turn_ev": float(sol.turn_ev), "p_positive": float(sol.p_positive),
            "p_negative": float(sol.p_negative), "p_zero": float(sol.p_zero)}


def _th(v):
    return None if v is None or v >= 1 << 40 else int(v)


def solve(rules, as_json: bool, cap=None) -> None:
    import time

    if cap is not None:
        raise UserError(f"--cap is for --game tutto; the {rules.game} solver needs no cap")

    from tutto_sim.macke.solver import solve_macke
    from tutto_sim.macke.words import exceptions_lines, unit_words

    t0 = time.perf_counter()
    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_macke(rules)
    seconds = time.perf_counter() - t0
    n, L = rules.n_dice, rules.throws
    thresholds = {str(tl): {str(d): _th(sol.bank_threshold[tl, d]) for d in range(1, n)}
                  for tl in range(1, L)}
    ret = sol.returns_summary()
    returns = {
        "mean_returns_per_turn": ret.mean_returns,
        "states_returned_at_turn_start": {str(k): v for k, v in ret.by_throw.items()},
        "examples": [{"throw": e.throw, "aside": e.aside, "returned": e.returned, "kept": e.kept,
                      "gain": e.gain, "probability": e.reach} for e in ret.examples],
    }
    if as_json:
        print(json.dumps({
            "game": rules.game, "variant": rules.variant, "method": "exact",
            "turn_ev": sol.turn_ev, "p_positive": sol.p_positive, "p_negative": sol.p_negative,
            "p_zero": sol.p_zero, "mean_throws": sol.mean_throws,
            "bank_thresholds": thresholds, "clear_bank_at": _th(sol.clear_bank_at),
            "bank_exceptions": [[int(tl), int(d), u, int(lo), int(hi)]
                                for tl, d, u, lo, hi in sol.bank_exceptions],
            "returns": returns, "rules": rules.to_dict(), "seconds": round(seconds, 2)}, indent=2))
        return
    out.print(f"[bold]{game_title(rules)}[/bold], optimal play (exact): expected signed turn result "
              f"[bold]{sol.turn_ev:.2f}[/bold] points")
    out.print(f"P(turn ends ≥ {rules.min_score}, added) = {percent(sol.p_positive)}; "
              f"P(negative) = {percent(sol.p_negative)}; P(zero) = {percent(sol.p_zero)}; "
              f"mean throws {sol.mean_throws:.2f}")
    t = Table("throws left", *[f"{plural(d, 'die', 'dice')} left" for d in range(1, n)],
              title="bank as soon as the turn total is ≥ (points) after setting aside", title_justify="left")
    for tl in range(1, L):
        t.add_row(str(tl), *[fmt_threshold(_th(sol.bank_threshold[tl, d])) for d in range(1, n)])
    out.print(t)
    clear = _th(sol.clear_bank_at)
    clear_rule = ("always bank" if clear == 0 else f"always throw all {n} dice again" if clear is None
                  else f"bank at ≥ {clear:,}, else throw all {n} dice again with a fresh series")
    out.print(f"after a clear: {clear_rule}; with no throw left the turn ends by itself")
    if sol.bank_exceptions:
        first, *groups = exceptions_lines(sol)
        out.print(f"{first.removesuffix(':')}, by what is set aside (which units lie aside "
                  "matters, not only the total):")
        for line in groups:
            out.print(f"  {line}", soft_wrap=True)
    t = Table("before throw", "set aside", "return", "keep", "gain (points)", "P(reached)",
              title=f"when returning units pays (start of a turn; {ret.mean_returns:.2f} returns per turn)",
              title_justify="left")
    for e in ret.examples[:8]:
        t.add_row(str(e.throw), unit_words(e.aside), unit_words(e.returned), unit_words(e.kept),
                  f"{e.gain:.1f}", f"{e.reach:.4f}")
    out.print(t)
    out.print("why returning pays: before the 2nd or 3rd throw you may put every set-aside unit "
              "back and throw all dice again; the turn total is then 0, so a Macke on that throw "
              f"costs nothing (docs/macke.md). exact; {seconds:.1f} s")


def export_policy(rules, out_path: Path, fmt: str) -> None:
    from tutto_sim.core.policyfile import write_for_cli
    from tutto_sim.macke.policy import MackeTablePolicy
    from tutto_sim.macke.solver import solve_macke

    if fmt == "parquet":
        raise UserError("--format for Macke policies: json or csv")
    if out_path is None:
        out_path = run_file(RESULTS_DIR, f"{game_label(rules)}-policy",
                            run_digest("policy", game=game_label(rules), rules=rules), f".{fmt}")
    prepare_file(out_path, "--out")
    with progress_phases(True) as phase:
        phase("solving exactly", 1)
        policy = MackeTablePolicy.from_solution(solve_macke(rules))
    path = write_for_cli(policy, out_path, fmt)
    out.print(f"{path.verb} {path} ({path.stat().st_size:,} bytes, {fmt}); rules sha256 {rules.digest()[:16]}…")


def validate(rules, turns: int, seed: int, policy_file, as_json: bool) -> None:
    """The optimal Macke policy, read from its table, simulated against the solver."""
    from tutto_sim.core.policyfile import load_for_cli
    from tutto_sim.core.stats import family_z
    from tutto_sim.macke.exact_sim import validate_macke
    from tutto_sim.macke.policy import load_macke_policy
    from tutto_sim.macke.solver import solve_macke

    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_macke(rules)
        policy = None if policy_file is None else load_for_cli(load_macke_policy, policy_file, rules)
        checks = validate_macke(sol, turns, seed, policy, progress=phase("simulating the optimal policy", turns))
    z = family_z(len(checks))
    ok = all(abs(c.z) <= z for c in checks)
    if as_json:
        print(json.dumps({"ok": ok, "family_z": z, "seed": seed, "turns": turns, "checks": [
            {"what": c.what, "exact": c.exact, "simulated": c.simulated, "ci95": c.ci95,
             "turns": c.n, "z": c.z} for c in checks]}, indent=2))
    else:
        t = Table("quantity", "exact", "simulated", "95% CI", "z", "",
                  title=f"{game_title(rules)}: solver vs simulation of its table (seed {seed}, {turns:,} turns)")
        for c in checks:
            t.add_row(c.what, f"{c.exact:.4f}", f"{c.simulated:.4f}", f"± {c.ci95:.4f}", f"{c.z:+.2f}",
                      "ok" if abs(c.z) <= z else "[red]FAIL[/red]")
        out.print(t)
    if not ok:
        raise typer.Exit(1)
