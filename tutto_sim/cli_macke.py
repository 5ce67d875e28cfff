"""Berliner Macke / Volle Lotte on the command line: rendering for
``optimize``/``solve``/``export-policy --game macke`` and the ``explore``
command (the 300-point-rule analysis). Parse, call the API, render."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table

from .cli import UserError, _fmt_threshold, _write_csv, out, progress_phases


def _pct(x) -> str:
    return f"{100 * x:.2f}%"


def macke_optimize(rules, method: str, turns: int, search_turns: int, seed: int,
                   as_json: bool, out_dir: Path, n_threads: int) -> None:
    from .sim.macke import optimize_macke

    if method != "monte-carlo":
        raise UserError("--method exact for Macke: use `tutto-sim solve --game macke`")
    with progress_phases(not as_json) as phase:
        res = optimize_macke(rules, turns=turns, seed=seed, search_turns=search_turns, phase=phase)
        exact = _exact_optimum(rules)
    d = res.to_json()
    d["exact_optimum"] = exact
    d["threads"] = n_threads
    rows = [{"policy": "best", "bank_at": res.bank_at, "bank_at_clear": res.bank_at_clear,
             "ev": res.ev.mean, "ci95": res.ev.ci95, "turns": res.ev.n,
             "p_positive": res.best.p_positive.mean, "p_negative": res.best.p_negative.mean,
             "p_zero": res.best.p_zero.mean, "seed": seed, "rules_sha256": rules.digest()}]
    for name, b in res.baselines.items():
        rows.append({"policy": name, "ev": b.ev.mean, "ci95": b.ev.ci95, "turns": b.ev.n,
                     "p_positive": b.p_positive.mean, "p_negative": b.p_negative.mean,
                     "p_zero": b.p_zero.mean, "seed": seed, "rules_sha256": rules.digest()})
    csv = _write_csv(out_dir / f"optimize_{rules.game}_{rules.variant}_seed{seed}.csv", rows)
    d["csv"] = str(csv)
    if as_json:
        print(json.dumps(d, indent=2))
        return
    out.print(f"[bold]{_title(rules)}[/bold]: best simple policy (keep every scoring unit, "
              f"never return, bank at ≥ K), Monte Carlo")
    t = Table("policy", "bank at ≥", "after a clear bank at ≥", "EV", "95% CI", "turns",
              "P(+)", "P(−)", "P(0)", title="signed turn result (points)")
    t.add_row("best found", _fmt_threshold(res.bank_at), _fmt_threshold(res.bank_at_clear),
              f"{res.ev.mean:.1f}", f"± {res.ev.ci95:.2f}", f"{res.ev.n:,}",
              _pct(res.best.p_positive.mean), _pct(res.best.p_negative.mean), _pct(res.best.p_zero.mean))
    for name, b in res.baselines.items():
        pol = b.policy
        t.add_row(name, _fmt_threshold(pol.bank_at if isinstance(pol.bank_at, (int, type(None))) else None),
                  _fmt_threshold(pol.bank_at_clear), f"{b.ev.mean:.1f}", f"± {b.ev.ci95:.2f}",
                  f"{b.ev.n:,}", _pct(b.p_positive.mean), _pct(b.p_negative.mean), _pct(b.p_zero.mean))
    out.print(t)
    if exact is not None:
        out.print(f"exact optimum (solver: every keep, return and bank decision free): "
                  f"EV {exact['turn_ev']:.2f}; P(+) {_pct(exact['p_positive'])}, "
                  f"P(−) {_pct(exact['p_negative'])}, P(0) {_pct(exact['p_zero'])}")
    if res.exact_ev is not None:
        out.print(f"the policy found is worth exactly {res.exact_ev:.2f}")
    out.print(f"seed {seed}; search {search_turns:,} turns per candidate (common random numbers), "
              f"evaluated on fresh turns; {n_threads} thread(s); {res.seconds:.1f} s; CSV: {csv}")
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished part[/yellow]")


def _title(rules) -> str:
    name = "Volle Lotte" if rules.variant == "volle-lotte" else "Berliner Macke"
    if rules.variant not in ("standard", "volle-lotte"):
        name += f" ({rules.variant})"
    return name


def _exact_optimum(rules):
    try:
        from .solve.macke_dp import solve_macke
    except ImportError:  # pragma: no cover - the solver ships with this release
        return None
    sol = solve_macke(rules)
    return {"turn_ev": float(sol.turn_ev), "p_positive": float(sol.p_positive),
            "p_negative": float(sol.p_negative), "p_zero": float(sol.p_zero)}
