"""Tutto on the command line: the handlers of ``optimize``, ``solve``,
``export-policy`` and ``validate`` (``core.commands`` parses, checks and
calls them through the registry) and their rendering. No game logic here:
the handlers call the solver, the search and the simulations and print.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from tutto_sim.core.cli import (
    RESULTS_DIR,
    UserError,
    fmt_threshold,
    write_csv,
    merge_rows,
    out,
    plural,
    prepare_file,
    progress_phases,
)
from tutto_sim.core.runs import run_digest, run_file
from tutto_sim.tutto.cards import Card, parse_card


def _card(value: str) -> Card:
    try:
        return parse_card(value)
    except ValueError as e:
        raise UserError(f"--card: {e}") from None


def check_optimize(rules, card, method) -> None:
    """Before any computing: the card must be one of the deck's."""
    _card("bonus400" if card is None else card)


def optimize(rules, card, method, turns, search_turns, seed, as_json, out_dir, n_threads) -> None:
    """``tutto-sim optimize`` for Tutto: the threshold search for one card, or the
    optimal policy of that card (``--method exact``)."""
    from tutto_sim.core.commands_games import ran_on
    from tutto_sim.tutto.optimize import optimize_card
    from tutto_sim.tutto.solver import exact_policy_value, solve_tutto

    the_card = _card("bonus400" if card is None else card)
    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_tutto(rules)
        res = optimize_card(the_card, rules, turns=turns, seed=seed,
                            search_turns=search_turns, phase=phase)
    pol = res_policy_array(res)
    exact = {"ev": float(sol.card_ev[the_card]),
             "policy_found_exact_ev": exact_policy_value(pol, the_card, rules)}
    if method == "exact":
        _exact_report(sol, the_card, res, exact, as_json)
        return
    rows = _optimize_rows(res)
    digest = run_digest("optimize", game="tutto", rules=rules, card=the_card.cli_name,
                        turns=turns, search_turns=search_turns, seed=seed)
    csv_path = write_csv(run_file(out_dir, f"optimize-tutto-{the_card.cli_name}-seed{seed}",
                                   digest), rows, res.interrupted, digest)
    if as_json:
        d = _optimize_json(res, ran_on(n_threads), csv_path)
        d["run_digest"] = digest
        d["exact_optimum"] = _exact_card_json(sol, the_card)
        d["policy_found_exact_ev"] = exact["policy_found_exact_ev"]
        print(json.dumps(d, indent=2))
    else:
        _print_optimize(res, ran_on(n_threads), csv_path)
        out.print(f"exact optimum (solver, every decision free): EV {exact['ev']:.2f} points; "
                  f"the policy found is worth exactly {exact['policy_found_exact_ev']:.2f} "
                  f"(gap {exact['ev'] - exact['policy_found_exact_ev']:.2f})")
    if res.interrupted:
        raise typer.Exit(130)




def res_policy_array(res):
    from tutto_sim.tutto.threshold import DEFAULT_POLICY

    return DEFAULT_POLICY.with_card(res.card, res.policy).to_array()


def _exact_card_json(sol, card: Card) -> dict:
    from tutto_sim.tutto.threshold import DICE_LEFT

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


def _exact_report(sol, card: Card, res, exact: dict, as_json: bool) -> None:
    """``optimize --method exact``: the optimal policy of one card, readable."""
    from tutto_sim.tutto.advice import faces_words, keep_advice

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
            t.add_row(str(n), fmt_threshold(_th(sol.bank_threshold[card, n])),
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
            t.add_row("-".join(a.throw), f"{a.probability:.4f}",
                      f"{faces_words(a.best[1])} ({a.best[2]})", fmt(a.value_best),
                      f"{faces_words(a.all_scoring[1])} ({a.all_scoring[2]})", fmt(a.value_all))
        out.print(t)
    out.print(f"best threshold policy from the Monte Carlo search (keep rule {res.policy.keep}, "
              f"seed {res.seed}; later cards by the rule of thumb): exact EV {exact['policy_found_exact_ev']:.2f}, simulated "
              f"{res.ev.mean:.2f} ± {res.ev.ci95:.2f} (n={res.ev.n:,}); "
              f"the optimum is worth {gap:.2f} points more per turn")


def _optimize_rows(res) -> list[dict]:
    from tutto_sim.tutto.optimize import decision_thresholds

    rows = []
    entries = [("best", res.policy, res.ev, res.p_tutto)]
    entries += [(name, cp, ev, pt) for name, (cp, ev, pt) in res.baselines.items()]
    entries += [(f"street take {k}", None, ev, p) for k, (p, ev) in res.street.items()]
    for name, cp, ev, pt in entries:
        row = {"card": res.card.cli_name, "policy": name, "ev": ev.mean, "ci95": ev.ci95,
               "turns": ev.n, "p_tutto": pt.mean, "p_tutto_ci95": pt.ci95, "p_tutto_low": pt.low,
               "p_tutto_high": pt.high, "seed": res.seed,
               "rules_sha256": res.rules.digest()}
        if cp is not None:
            row["keep_rule"] = cp.keep
            row.update({f"bank_{k}": v for k, v in decision_thresholds(res.card, cp, res.rules).items()})
            row["street_take"] = cp.street_take
        rows.append(row)
    return rows


def _optimize_json(res, ran, csv_path: Path) -> dict:
    from tutto_sim.tutto.optimize import decision_thresholds

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
        **res.p_tutto.json("p_tutto"),
        "baselines": {
            name: {"ev": ev.mean, "ci95": ev.ci95, "turns": ev.n,
                   "bank_thresholds": decision_thresholds(res.card, cp, res.rules),
                   "keep_rule": cp.keep}
            for name, (cp, ev, _) in res.baselines.items()
        },
        **ran.json(),
        "rules": res.rules.to_dict(),
        "seconds": round(res.seconds, 2),
        "interrupted": res.interrupted,
        "csv": str(csv_path),
    }
    if res.card is Card.STREET:
        d["street_take"] = res.policy.street_take
        d["p_street"] = res.p_tutto.mean
        d["p_street_by_take"] = {str(k): {**p.json(mean="p"), "ev": ev.mean}
                                 for k, (p, ev) in res.street.items()}
    if res.card is Card.CLOVERLEAF:
        d.update(res.p_two_tuttos.json("p_two_tuttos"))
    return d


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


def _print_optimize(res, ran, csv_path: Path) -> None:
    from tutto_sim.tutto.optimize import decision_thresholds

    card = res.card
    out.print(f"[bold]{card.display}[/bold]: best threshold policy (Monte Carlo)")
    if res.policy and card.can_bank_before_tutto:
        t = Table(title=f"keep rule: {res.policy.keep}", title_justify="left")
        t.add_column("dice left", justify="right")
        t.add_column("bank at ≥ (points)", justify="right")
        for k, v in decision_thresholds(card, res.policy, res.rules).items():
            label = k if k != "6" else "6 (after a Tutto)"
            t.add_row(label, fmt_threshold(v))
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
            t.add_row(str(k), f"{p.mean:.4f}", p.ci_text(4), f"{ev.mean:.1f} ± {ev.ci95:.1f}")
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
    out.print(f"seed {res.seed}; {search}; {ran.words()}; {res.seconds:.1f} s")
    out.print(f"other cards drawn after a Tutto follow the default rule-of-thumb policy; CSV: {csv_path.shown}",
              soft_wrap=True)
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished part; the CSV is "
                  "marked interrupted[/yellow]")


def solve(rules, as_json: bool, cap) -> None:
    """``tutto-sim solve`` for Tutto: every card's value and thresholds (exact)."""
    import time

    from tutto_sim.tutto.solver import solve_tutto

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
    from tutto_sim.tutto.cards import DECK_COUNTS

    for c in Card:
        bank = [fmt_threshold(_th(sol.bank_threshold[c, n])) if c.can_bank_before_tutto else "–"
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


def export_policy(rules, out_path, fmt: str) -> None:
    """``tutto-sim export-policy`` for Tutto (docs/policy-format.md)."""
    from tutto_sim.core.policyfile import write_for_cli
    from tutto_sim.tutto.policy import ExactPolicy
    from tutto_sim.tutto.solver import solve_tutto

    if out_path is None:
        out_path = run_file(RESULTS_DIR, "tutto-policy", run_digest("policy", game="tutto", rules=rules),
                            f".{fmt}")
    prepare_file(out_path, "--out")
    if fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError("--format parquet needs pyarrow: pip install 'tutto-sim[parquet]'") from None
    with progress_phases(True) as phase:
        phase("solving exactly", 1)
        policy = ExactPolicy.from_solution(solve_tutto(rules))
    path = write_for_cli(policy, out_path, fmt)
    out.print(f"{path.verb} {path} ({path.stat().st_size:,} bytes, {fmt}); rules sha256 {rules.digest()[:16]}…; "
              f"turn EV {policy.summary['turn_ev']:.2f}")


def validate(rules, turns: int, seed: int, policy_file, as_json: bool) -> None:
    """``tutto-sim validate`` for Tutto: the solver against simulation, every card."""
    import tempfile

    from tutto_sim.core.policyfile import load_for_cli
    from tutto_sim.core.stats import family_z
    from tutto_sim.tutto.policy import ExactPolicy, load_policy
    from tutto_sim.tutto.solver import solve_tutto
    from tutto_sim.tutto.validate import validate as run_validation

    with progress_phases(not as_json) as phase:
        phase("solving exactly", 1)
        sol = solve_tutto(rules)
        if policy_file is None:
            with tempfile.TemporaryDirectory() as tmp:
                path = ExactPolicy.from_solution(sol).write(Path(tmp) / "policy.json")
                policy = load_for_cli(load_policy, path, rules)
        else:
            policy = load_for_cli(load_policy, policy_file, rules)
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
