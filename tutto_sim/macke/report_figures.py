"""The figures of the Berliner Macke / Volle Lotte report, one function per page.

Part of the report layer. Each function takes the
:class:`~tutto_sim.macke.report_data.MackeReportData` and returns a
:class:`~tutto_sim.core.report.Sheet`; nothing here computes a result.

Black and white first: series differ by line style, marker and hatch, and the
colours (Okabe-Ito) only add to that; heat maps are light greys with the
numbers written in.
"""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from tutto_sim.core import report as R
from tutto_sim.core.report import BLUE, GREEN, GREY, HATCHES, INK, LIGHT, ORANGE, Sheet
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.report_data import BUSTS, MackeReportData, th
from tutto_sim.macke.rules import VARIANTS
from tutto_sim.macke.tables import build_macke_tables
from tutto_sim.macke.words import BUST_WORDS, exceptions_lines, unit_words

#: Line styles per bust rule (black and white readable).
BUST_STYLE = {"subtract": dict(color=INK, ls="-", marker="o", mfc="white"),
              "zero": dict(color=BLUE, ls="--", marker="s", mfc=BLUE)}
#: The bust rules in legends: what a Macke after the first throw costs.
BUST_LABEL = {"subtract": "Macke subtracts the turn total",
              "zero": "Macke scores 0"}
#: The variants in a short label.
VARIANT_SHORT = {"standard": "standard", "instant-win": "instant win", "jackpot": "jackpot",
                 "ones-and-fives": "only 1s and 5s", "volle-lotte": "Volle Lotte"}


def _lowest(rules, dice_left: int) -> int:
    """The smallest turn total (points) with ``dice_left`` dice left: 50 a die set aside."""
    return R.lowest_total(rules.n_dice, dice_left, POINT_UNIT)


def _th(points, lowest: int = 0) -> str:
    """A bank threshold in a table cell: "1,250", "never bank", "always bank"."""
    return R.threshold_cell(th(points), lowest)


def simple_words(k, k_clear) -> str:
    """The simple rule "keep every unit, never return, bank at ≥ K (after a
    clear at ≥ C)" in words: "bank at ≥ 300, after a clear at ≥ 1,950",
    "always bank (after a clear too)", "never bank"."""
    k = th(k)
    k_clear = th(k_clear)
    if k == k_clear:
        return R.threshold_words(k) + ("" if k is None else " (after a clear too)")
    if k_clear is None:
        clear = "never after a clear"
    elif k_clear <= 0:
        clear = "always after a clear"
    else:
        clear = f"after a clear at ≥ {R.pts(k_clear)}"
    return f"{R.threshold_words(k)}, {clear}"


def first_chance_is_best_simple(data: MackeReportData) -> bool:
    """Whether the best simple rule is banking at the first chance (K = C = the minimum)."""
    m = data.rules.min_score
    return (data.sweep_k.best, data.sweep_clear.best) == (m, m)


def never_returning_is_optimal(data: MackeReportData) -> bool:
    """Whether the optimal policy never returns a unit (then it is the same
    policy as the optimum that never returns)."""
    return data.sol.mean_returns == 0 and abs(
        data.sol.turn_ev - data.sol_no_returns.turn_ev) < 1e-9


# --------------------------------------------------------------------------
# the cover (PDF only)
# --------------------------------------------------------------------------


def cover(data: MackeReportData, contents: list[str]) -> Sheet:
    sol = data.sol
    caption = R.turns_cover_caption(data, "docs/macke-solver.md", " (docs/macke.md)")
    m = data.rules.min_score
    best = simple_words(data.sweep_k.best, data.sweep_clear.best)
    if first_chance_is_best_simple(data):
        simple = (f"{data.best_simple_ev:.2f} with the best simple rule, which is banking at "
                  f"the first chance ({best})")
    else:
        simple = (f"{data.best_simple_ev:.2f} with the best simple rule ({best}); "
                  f"{data.sweep_k.exact_at(m):.2f} banking at the first chance "
                  f"({simple_words(m, m)})")
    summary = (f"A turn is worth {sol.turn_ev:.2f} points under optimal play (exact expected "
               f"signed result); {simple}.")
    t = data.tournament
    game = "volle-lotte" if data.rules.variant == "volle-lotte" else "macke"
    return R.cover_sheet(f"{data.name}: optimal turn strategy", summary, contents, data.rules,
                         "docs/macke.md",
                         R.reproduce_command(game, data, f"--turns {data.turns}", t),
                         caption, f"{data.name} report")


# --------------------------------------------------------------------------
# the minimum score ("300-point rule") and the bust rule
# --------------------------------------------------------------------------


def min_score(data: MackeReportData, number: int) -> Sheet:
    df = data.explore
    m = data.rules.min_score
    title = f"{data.name}: the minimum score and the bust rule"
    caption = (
        "Optimal play (exact solver) for each minimum score 0 ... 600 and both bust rules (a "
        "Macke after the first throw subtracts the turn total, or scores 0), every other rule "
        "as in this report. (a) Expected signed result of a turn; thin dotted: the best play "
        "that never returns a unit. (b) P(the turn ends at or above the minimum and is added) "
        "= P(result > 0). (c) P(result < 0): ended below the minimum, or a Macke that "
        "subtracts; and P(result = 0): a Macke on the first throw (when a Macke scores 0: "
        "every Macke). (d) After a clear the optimal policy banks at or above this total and "
        f"throws all {data.rules.n_dice} dice again below it; dotted, triangles: with 1 throw "
        "and 1 die left it banks at or above this total. Vertical dotted line: this report's "
        f"minimum ({R.pts(m)}). Exact, no simulation. {R.source(data)}")
    fig = R.landscape_page(title, caption)
    (a, b), (c, d) = fig.subplots(2, 2, sharex=True)
    for bust in BUSTS:
        s = df[df.bust == bust]
        st = BUST_STYLE[bust]
        x = s.min_score.to_numpy()
        a.plot(x, s.ev, ms=4, lw=1.5, label=BUST_LABEL[bust], **st)
        a.plot(x, s.ev_no_returns, ls=":", color=st["color"], lw=1.0, marker=st["marker"],
               ms=3, mfc="white", markevery=2)
        b.plot(x, 100 * s.p_positive, ms=4, lw=1.5, **st)
        c.plot(x, 100 * s.p_negative, ms=4, lw=1.5, **st)
        c.plot(x, 100 * s.p_zero, lw=1.0, color=st["color"], ls=(0, (1, 1.5)),
               marker="x" if bust == "subtract" else "+", ms=5)
        d.plot(x, s.clear_bank_at, ms=4, lw=1.5, **st)
        if "bank_t1_d1" in s:
            d.plot(x, s.bank_t1_d1, lw=1.0, color=st["color"], ls=(0, (1, 1.5)), marker="^",
                   ms=4, mfc="white")
    a.plot([], [], ls=":", color=GREY, lw=1.0, label="never returning a unit")
    a.legend(loc="lower left", fontsize=7.5)
    c.legend(handles=[Line2D([], [], color=GREY, ls="-", marker="o", mfc="white",
                             label="P(result < 0)"),
                      Line2D([], [], color=GREY, ls=(0, (1, 1.5)), marker="x",
                             label="P(result = 0); ×: Macke subtracts, +: scores 0")],
             loc="upper left",
             fontsize=7.5)
    d.legend(handles=[Line2D([], [], color=GREY, ls="-", marker="o", mfc="white",
                             label="after a clear"),
                      Line2D([], [], color=GREY, ls=(0, (1, 1.5)), marker="^", mfc="white",
                             label="1 throw left, 1 die left")], loc="center left",
             bbox_to_anchor=(0.02, 0.72), fontsize=7.5)
    for ax, lab, t in ((a, "EV of a turn (points)", "(a) expected signed result"),
                       (b, "P(turn ≥ minimum, added) (%)", "(b) the turn is added"),
                       (c, "share of turns (%)", "(c) subtracted, and zero"),
                       (d, "bank from a turn total of (points)",
                        "(d) bank thresholds: after a clear, and with 1 die left")):
        ax.axvline(m, ls=":", color=ORANGE, lw=1.4)
        ax.set_ylabel(lab)
        ax.set_title(t, loc="left")
    for ax in (c, d):
        ax.set_xlabel("minimum score: a turn total below it is subtracted (points)")
        ax.set_xticks(np.arange(0, 601, 100))
    b.set_ylim(0, 100)
    c.set_ylim(bottom=0)
    d.set_ylim(bottom=0)
    return Sheet(fig, f"{number:02d}-minimum-score", title, caption)


# --------------------------------------------------------------------------
# variants and bust rules
# --------------------------------------------------------------------------


def variants(data: MackeReportData, number: int) -> Sheet:
    r = data.rules
    title = "Variants and bust rules: what a turn is worth"
    caption = (
        "Optimal play (exact solver) of each variant of docs/macke.md (standard; instant win: "
        "five 1s in one throw win; jackpot: five 5s = 5,000, five 1s = 10,000; only 1s and 5s "
        "score; Volle Lotte: 6 dice) under both bust rules (a Macke after the first throw "
        "subtracts the turn total, or scores 0), with this report's minimum "
        f"({R.pts(r.min_score)}), {R.count(r.throws, 'throw')} per series and an instant win "
        f"counted as {R.pts(r.win_value)} points. Left: expected signed result of a turn (plain "
        "bars: a Macke subtracts, hatched: a Macke scores 0); the tick on each bar is the best "
        "play that never returns a unit. Right: the turn's outcome, P(result > 0) (dark), "
        "P(= 0) (dotted), P(< 0) (hatched). The arrow marks this report's rules. Exact, no "
        f"simulation. {R.source(data)}")
    fig = R.landscape_page(title, caption)
    a, b = fig.subplots(1, 2)
    rows = data.variants
    n = len(VARIANTS)
    h = 0.38
    y0 = np.arange(n)[::-1].astype(float)
    ylabels = []
    ypos = []
    for i, v in enumerate(VARIANTS):
        for j, bust in enumerate(BUSTS):
            row = next(x for x in rows if x.variant == v and x.bust == bust)
            y = y0[i] + (0.5 - j) * h
            ypos.append(y)
            this = v == r.variant and bust == r.bust
            a.barh(y, row.ev, height=h * 0.92, color="#BBBBBB" if j == 0 else "white",
                   edgecolor=INK, hatch=HATCHES[0] if j == 0 else HATCHES[1], lw=0.8)
            a.plot([row.ev_no_returns] * 2, [y - h * 0.45, y + h * 0.45], color=INK, lw=2.0)
            a.text(row.ev + 8, y, f"{row.ev:.1f}" + ("  ◀" if this else ""), va="center",
                   fontsize=8, weight="bold" if this else "normal")
            left = 0.0
            for val, face, hatch in ((row.p_positive, "#555555", ""),
                                     (row.p_zero, "white", "..."),
                                     (row.p_negative, "white", "///")):
                b.barh(y, 100 * val, left=left, height=h * 0.92, color=face, edgecolor=INK,
                       hatch=hatch, lw=0.6)
                if val > 0.06:
                    b.text(left + 50 * val, y, f"{100 * val:.0f}%", ha="center", va="center",
                           fontsize=7, color="white" if face != "white" else INK,
                           bbox=None if face != "white" else dict(fc="white", ec="none",
                                                                  pad=0.5))
                left += 100 * val
            if this:
                b.text(101, y, "◀", va="center", fontsize=8)
            ylabels.append(f"{VARIANT_SHORT.get(v, v)}: "
                           + ("Macke subtracts" if bust == "subtract" else "Macke scores 0"))
    for ax in (a, b):
        ax.set_yticks(ypos, ylabels, fontsize=8)
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)
    a.set_xlabel("EV of a turn (points)")
    a.set_xlim(min(0, min(x.ev for x in rows) * 1.1), max(x.ev for x in rows) * 1.18)
    a.set_title("expected signed result", loc="left")
    a.legend(handles=[Patch(facecolor="#BBBBBB", edgecolor=INK, label="Macke subtracts"),
                      Patch(facecolor="white", edgecolor=INK, hatch=HATCHES[1],
                            label="Macke scores 0"),
                      Line2D([], [], color=INK, lw=2.0, label="never returning")],
             loc="lower center", bbox_to_anchor=(0.5, 1.05), ncols=3, fontsize=8,
             frameon=False)
    b.set_xlim(0, 104)
    b.set_xlabel("share of turns (%)")
    b.set_title("outcome of the turn", loc="left")
    b.legend(handles=[Patch(facecolor="#555555", edgecolor=INK, label="result > 0"),
                      Patch(facecolor="white", edgecolor=INK, hatch="...", label="= 0"),
                      Patch(facecolor="white", edgecolor=INK, hatch="///", label="< 0")],
             loc="lower center", bbox_to_anchor=(0.5, 1.05), ncols=3, fontsize=8,
             frameon=False)
    return Sheet(fig, f"{number:02d}-variants-and-bust-rules", title, caption)


# --------------------------------------------------------------------------
# bank thresholds
# --------------------------------------------------------------------------


def _threshold_map(ax, sol, title):
    r = sol.rules
    n, L = r.n_dice, r.throws
    if L < 2:
        ax.set_axis_off()
        ax.text(0.5, 0.5, "one throw per series:\nno bank-or-throw decision\n"
                "(only after a clear)", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(title, loc="left")
        return
    rows = list(range(L - 1, 0, -1))  # throws left after the throw: most first
    raw = [[th(sol.bank_threshold[tl, d]) for d in range(1, n)] for tl in rows]
    vals = np.array([[np.nan if v is None else v for v in row] for row in raw], dtype=float)
    top = np.nanmax(vals) if np.isfinite(vals).any() else 1.0
    ax.imshow(np.ma.masked_invalid(vals), cmap="Greys", vmin=0, vmax=top * 1.9,
              aspect="auto", interpolation="nearest")
    for i, tl in enumerate(rows):
        for j, d in enumerate(range(1, n)):
            v = vals[i, j]
            if np.isnan(v):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="white",
                                       edgecolor=GREY, hatch="///", lw=0))
                ax.text(j, i, "never bank", ha="center", va="center", fontsize=10,
                        weight="bold", bbox=dict(fc="white", ec="none", pad=1))
            else:
                ax.text(j, i, _th(v, _lowest(r, d)).replace("always bank", "always\nbank"),
                        ha="center", va="center", fontsize=11, weight="bold")
    ax.set_xticks(range(n - 1), [f"{d}" for d in range(1, n)])
    ax.set_yticks(range(len(rows)), [f"{tl} left\n(after throw {L - tl})" for tl in rows])
    ax.set_xlabel("dice left after setting aside")
    ax.set_ylabel("throws left in the series")
    for k in np.arange(-0.5, n - 1, 1.0):
        ax.axvline(k, color="#888888", lw=0.6)
    for k in np.arange(-0.5, len(rows), 1.0):
        ax.axhline(k, color="#888888", lw=0.6)
    ax.grid(False)
    ax.set_title(title, loc="left")


def clear_words(sol) -> str:
    """The after-clear rule: "after a clear: bank at ≥ 1,950, else throw all 5 dice again"."""
    n = sol.rules.n_dice
    t = th(sol.clear_bank_at)
    if t is None:
        return f"after a clear: never bank, always throw all {n} dice again"
    if t <= _lowest(sol.rules, 0):
        return "after a clear: always bank"
    return f"after a clear: bank at ≥ {R.pts(t)}, else throw all {n} dice again"


def bank_thresholds(data: MackeReportData, number: int) -> Sheet:
    sol, other = data.sol, data.other_bust
    L = data.rules.throws
    title = "Bank thresholds of the optimal policy"
    caption = (
        "After setting aside, with t throws left in the series and d dice left, the optimal "
        "policy (exact solver) banks at every turn total at or above the number in the cell "
        "(over the states it reaches), and throws on below it; 'never bank': it always throws "
        "on. "
        f"After the series' last throw (throw {L}) the turn ends by itself. After a clear (all "
        f"{data.rules.n_dice} dice set aside) it banks at or above the clear threshold and "
        "otherwise throws all dice again with a fresh series. Left: this report's rules; "
        "right: the same rules with the other bust rule (" + BUST_WORDS[other.rules.bust]
        + "). Exceptions: states that bank below "
        f"the threshold (which units lie aside matters, not only the total). "
        f"{R.source(data)}")
    fig = R.landscape_page(title, caption)
    gs = fig.add_gridspec(2, 2, height_ratios=[2.2, 1.0])
    for k, s in enumerate((sol, other)):
        ax = fig.add_subplot(gs[0, k])
        _threshold_map(ax, s, BUST_LABEL[s.rules.bust] + ("  (these rules)" if k == 0 else "")
                       + f":  EV {s.turn_ev:.2f}")
        tx = fig.add_subplot(gs[1, k])
        tx.set_axis_off()
        lines = [clear_words(s)]
        if s.clear_exceptions:
            lines.append("  also bank a clear at "
                         + ", ".join(R.pts(x) for x in s.clear_exceptions[:6]))
        lines += exceptions_lines(s)
        text = "\n".join(textwrap.fill(x, 66, subsequent_indent="    ", break_on_hyphens=False)
                          for x in lines)
        tx.text(0, 1, text, va="top", ha="left", fontsize=8, transform=tx.transAxes,
                linespacing=1.35, in_layout=False)
    return Sheet(fig, f"{number:02d}-bank-thresholds", title, caption)


# --------------------------------------------------------------------------
# returns
# --------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n > 20 else n, "th")
    return f"{n}{suffix}"


def free_return_words(rules) -> str:
    """Why returning units pays at the start of a turn, in the players' words."""
    n, L = rules.n_dice, rules.throws
    if L < 2:
        return "With one throw per series no unit can be returned."
    later = "2nd" if L == 2 else "2nd or 3rd" if L == 3 else f"2nd to {_ordinal(L)}"
    cost = ("costs nothing" if rules.bust == "subtract" else "loses nothing")
    return (f"Why returning pays: before the {later} throw of the turn's first series you may "
            f"put every unit you set aside back in the cup and throw all {n} dice again. The "
            f"turn total is then 0, so a Macke on that throw {cost}; you give up only the "
            "points you had set aside. After a clear the locked points stay at risk, so a "
            "return there is not free.")


def returns(data: MackeReportData, number: int) -> Sheet:
    rs = data.returns_any
    df = data.explore
    value = data.sol.turn_ev - data.sol_no_returns.turn_ev
    title = "When returning units to the cup pays"
    caption = (
        "Left: the return decisions of the optimal policy (exact solver; at the start of a "
        "turn and after a clear) that add most to the value of a turn (share of turns that "
        "meet the decision × its gain); bar = gain in that state (value with the best return "
        "minus the value returning nothing), label = gain and share of turns that meet the "
        "decision. 'locked' = points of earlier series (after a clear), which a Macke still "
        f"costs. {free_return_words(data.rules)} Right: what returns are worth per turn "
        "(optimal EV minus the best play that never returns), by minimum score and bust rule; "
        f"here {value:.2f} points, {rs.mean_returns:.2f} returns per turn. Exact, no "
        f"simulation. {R.source(data)}")
    fig = R.landscape_page(title, caption)
    gs = fig.add_gridspec(2, 2, width_ratios=[1.45, 1.0])
    a = fig.add_subplot(gs[:, 0])
    ex = list(rs.examples)
    if ex:
        y = np.arange(len(ex))[::-1]
        gains = [e.gain for e in ex]
        a.barh(y, gains, height=0.62, color=[LIGHT if e.locked == 0 else "white" for e in ex],
               edgecolor=INK, hatch=["" if e.locked == 0 else HATCHES[1] for e in ex], lw=0.7)
        for yi, e in zip(y, ex):
            a.text(e.gain + max(gains) * 0.015, yi, f"+{e.gain:.0f}, {R.pct(e.reach)} of turns",
                   va="center", fontsize=7.5)
        labels = [f"before throw {e.throw}" + (f", {R.pts(e.locked)} locked" if e.locked else "")
                  + f": {unit_words(e.aside)} → return "
                  + ("it" if e.kept == "nothing" else
                     f"{unit_words(e.returned)}, keep {unit_words(e.kept)}")
                  for e in ex]
        a.set_yticks(y, labels, fontsize=7.5)
        a.set_xlim(0, max(gains) * 1.6)
        a.legend(handles=[Patch(facecolor=LIGHT, edgecolor=INK, label="start of the turn"),
                          Patch(facecolor="white", edgecolor=INK, hatch=HATCHES[1],
                                label="after a clear (points locked)")],
                 loc="upper right", fontsize=8)
    else:
        a.text(0.5, 0.5, "the optimal policy never returns a unit", ha="center",
               transform=a.transAxes)
    a.set_xlabel("gain in that state (points)")
    a.set_title("top return decisions (before throw j of a series)", loc="left")
    a.grid(axis="y", visible=False)
    a.set_axisbelow(True)
    b = fig.add_subplot(gs[0, 1])
    c = fig.add_subplot(gs[1, 1], sharex=b)
    for bust in BUSTS:
        s = df[df.bust == bust]
        st = BUST_STYLE[bust]
        b.plot(s.min_score, s.value_of_returns, ms=4, lw=1.5, label=BUST_LABEL[bust], **st)
        c.plot(s.min_score, s.mean_returns, ms=4, lw=1.5, **st)
    for ax in (b, c):
        ax.axvline(data.rules.min_score, ls=":", color=ORANGE, lw=1.4)
        ax.set_ylim(bottom=0)
    b.legend(loc="lower right", fontsize=8)
    b.set_ylabel("points per turn")
    b.set_title("value of returns", loc="left")
    c.set_ylabel("returns per turn")
    c.set_title("how often the optimal player returns", loc="left")
    c.set_xlabel("minimum score (points)")
    return Sheet(fig, f"{number:02d}-returns", title, caption)


# --------------------------------------------------------------------------
# optimal play against the best simple rule
# --------------------------------------------------------------------------


def _sweep_panel(ax, sw, data, xmin=None, xmax=None):
    x = sw.mc_x
    keep = np.ones(len(x), dtype=bool)
    if xmin is not None:
        keep &= (x >= xmin) & (x <= xmax)
    xs = x[keep]
    mean = np.array([e.mean for e in sw.mc])[keep]
    ci = np.array([e.ci95 for e in sw.mc])[keep]
    ex = sw.exact_x <= (xmax if xmax is not None else x[-1])
    if xmin is not None:
        ex &= sw.exact_x >= xmin
    ax.fill_between(xs, mean - ci, mean + ci, color=LIGHT, alpha=0.55, lw=0)
    ax.errorbar(xs, mean, yerr=ci, fmt="o", ms=3.0, mfc="white", mec=BLUE, ecolor=BLUE,
                elinewidth=0.8, mew=0.9, zorder=3)
    ax.plot(sw.exact_x[ex], sw.exact[ex], "-", color=INK, lw=1.3, zorder=4)
    ax.axhline(data.sol.turn_ev, ls="-.", color=ORANGE, lw=1.3)
    ax.axhline(data.sol_no_returns.turn_ev, ls="--", color=GREEN, lw=1.2)
    best = sw.best
    if xmin is None or xmin <= best <= xmax:
        ax.plot([best], [sw.best_ev], marker="*", ms=12, color=INK, mfc="white", mew=1.0,
                zorder=5, ls="none")


def policy_bars(data: MackeReportData) -> list[tuple[str, float, object]]:
    """The policies of panel (d): (label, exact EV, Monte Carlo estimate or None),
    a policy that is two of them shown once, under both names."""
    sk, sc, sol = data.sweep_k, data.sweep_clear, data.sol
    m = data.rules.min_score
    first = sk.exact_at(m) if m in set(sk.exact_x.tolist()) else float("nan")
    mc_best = sc.mc[list(sc.mc_x).index(sc.best)] if sc.best in set(sc.mc_x.tolist()) else None
    mc_first = sk.mc[list(sk.mc_x).index(m)] if m in set(sk.mc_x.tolist()) else None
    bars = [("optimal", (sol.turn_ev, data.optimal_mc), "optimal"),
            ("optimal, never returning", (data.sol_no_returns.turn_ev, None), "no-returns"),
            (f"best simple: {simple_words(sk.best, sc.best)}", (sc.best_ev, mc_best),
             ("simple", sk.best, sc.best)),
            (f"first chance: {simple_words(m, m)}", (first, mc_first), ("simple", m, m))]
    same_policy = never_returning_is_optimal(data)

    def policy(entry):
        k = entry[1]
        return "optimal" if k == "no-returns" and same_policy else k

    merged = R.merge_same([(label, (values, k)) for label, values, k in bars],
                          lambda x, y: policy(x) == policy(y))
    return [(label, values[0], values[1]) for label, (values, _) in merged]


def simple_vs_optimal(data: MackeReportData, number: int) -> Sheet:
    sk, sc = data.sweep_k, data.sweep_clear
    sol = data.sol
    title = "Optimal play against the best simple rule \"bank at ≥ K\""
    caption = (
        "The simple rule: set aside every scoring unit, never return one, bank as soon as the "
        "turn total reaches K (after a clear: reaches C, else throw all dice again in a new "
        "series). (a) K swept with C = K; (b) the same around its best (the optimum lies "
        "above); (c) C swept with K at its best "
        f"({R.pts(sk.best)}). Circles: Monte Carlo, {R.count(data.turns, 'turn')} per point, "
        "95% CI "
        "as bars and grey band, every point of a panel on the same turns (common random "
        "numbers). Solid line: exact value of the same rule. Star: the best K (exact). "
        "Dash-dot: the exact optimum (every keep, return and bank decision free); dashed: the "
        "optimum that never returns a unit"
        + (" (the same: the optimum never returns)" if never_returning_is_optimal(data) else "")
        + ". (d) The policies side by side, exact, with the Monte Carlo estimate (MC, 95% CI) "
        "where simulated (the optimal policy's table simulated on the same turns); "
        "first chance: bank as soon as the turn total reaches the minimum. "
        + R.source(data, f"{R.count(data.turns, 'turn')} per point"))
    fig = R.landscape_page(title, caption)
    gs = fig.add_gridspec(3, 2, height_ratios=[0.07, 1, 1])
    key = fig.add_subplot(gs[0, :])
    key.set_axis_off()
    a, b = fig.add_subplot(gs[1, 0]), fig.add_subplot(gs[1, 1])
    c, d = fig.add_subplot(gs[2, 0]), fig.add_subplot(gs[2, 1])
    _sweep_panel(a, sk, data)
    a.set_title("(a) bank at ≥ K, after a clear too", loc="left")
    lo = max(0, sk.best - 300)
    _sweep_panel(b, sk, data, lo, lo + 700)
    b.set_title("(b) zoom on the best K", loc="left")
    window = sk.exact[(sk.exact_x >= lo) & (sk.exact_x <= lo + 700)]
    b.set_ylim(window.min() - 10, sk.best_ev + 15)
    _sweep_panel(c, sc, data)
    c.set_title(f"(c) after a clear, bank at ≥ C (K = {R.pts(sk.best)})", loc="left")
    cl = sc.exact[sc.exact_x <= sc.mc_x[-1]]
    c.set_ylim(cl.min() - 20, sol.turn_ev + 25)
    for ax in (a, b):
        ax.set_xlabel("K: bank when the turn total reaches (points)")
        ax.set_ylabel("EV of a turn (points)")
    c.set_xlabel("C: after a clear, bank when the turn total reaches (points)")
    c.set_ylabel("EV of a turn (points)")
    lines = [(f"optimum {sol.turn_ev:.2f}", Line2D([], [], color=ORANGE, ls="-.", lw=1.3)),
             (f"optimum, never returning {data.sol_no_returns.turn_ev:.2f}",
              Line2D([], [], color=GREEN, ls="--", lw=1.2))]
    if never_returning_is_optimal(data):
        lines = [(f"optimum = optimum never returning {sol.turn_ev:.2f}", lines[0][1])]
    for label, h in lines:
        h.set_label(label)
    key.legend(handles=[
        Line2D([], [], marker="o", ls="none", mfc="white", mec=BLUE, color=BLUE,
               label="Monte Carlo, 95% CI"),
        Line2D([], [], color=INK, lw=1.3, label="exact, same rule"),
        *[h for _, h in lines],
        Line2D([], [], marker="*", ms=11, ls="none", color=INK, mfc="white",
               label="best (exact)")], loc="center", ncols=5, fontsize=8, frameon=False)
    # (d) the policies side by side
    bars = policy_bars(data)
    y = np.arange(len(bars))[::-1]
    for yi, (label, v, est), hatch in zip(y, bars, HATCHES):
        d.barh(yi, v, height=0.6, color="white" if hatch else "#555555", edgecolor=INK,
               hatch=hatch, lw=0.8)
        txt = f"{v:.2f}"
        right = max(v, 0)
        if est is not None:
            right = max(right, est.mean + est.ci95)
            d.errorbar([est.mean], [yi], xerr=[est.ci95], fmt="o", color=BLUE, mfc="white",
                       ms=4, capsize=3, zorder=4)
            txt += f"  (MC {R.pm(est.mean, est.ci95)})"
        d.text(right + 12, yi, txt, va="center", fontsize=8)
    d.set_yticks(y, ["\n".join(textwrap.wrap(b[0], 28)) for b in bars], fontsize=8)
    d.set_xlim(min(0, min(b[1] for b in bars)), max(b[1] for b in bars) * 1.6)
    d.set_xlabel("EV of a turn (points)")
    d.set_title("(d) exact values (MC: Monte Carlo, 95% CI)", loc="left")
    d.grid(axis="y", visible=False)
    return Sheet(fig, f"{number:02d}-optimal-vs-simple", title, caption)


# --------------------------------------------------------------------------
# tournament
# --------------------------------------------------------------------------


def tournament(data: MackeReportData, number: int) -> Sheet:
    return R.tournament_sheet(data.tournament, data.rules, number, R.report_footer(data.rules))


# --------------------------------------------------------------------------
# the cheat sheet
# --------------------------------------------------------------------------


def _locked_returns(data: MackeReportData) -> list[str]:
    """Return decisions after a clear, grouped: 'before throw 2, a lone 5 at 550-1,000'."""
    rs = data.sol.returns_summary(locked=None, top=10**9)
    groups: dict[tuple, list] = {}
    for e in rs.examples:
        if e.locked == 0:
            continue
        g = groups.setdefault((e.throw, e.aside, e.returned), [e.locked, e.locked, 0.0])
        g[0], g[1] = min(g[0], e.locked), max(g[1], e.locked)
        g[2] += e.reach
    out = sorted(groups.items(), key=lambda kv: -kv[1][2])
    return [f"before throw {j}, {unit_words(aside)} aside"
            + ("" if ret == aside else f" (return {unit_words(ret)})")
            + f" at {R.pts(lo)}" + ("" if hi == lo else f"–{R.pts(hi)}") + " locked"
            for (j, aside, ret), (lo, hi, _) in out]


def start_returns(data: MackeReportData) -> list[str]:
    """The start-of-turn returns of the optimal policy, one line per throw:
    "Before throw 2, with only 5, 1, 3-3-3 or 2-2-2 aside: return it ..."."""
    n = data.rules.n_dice
    rs = data.sol.returns_summary(locked=0, top=10**9)
    by_throw: dict[int, list] = {}
    for e in sorted(rs.examples, key=lambda e: -e.reach):
        by_throw.setdefault(e.throw, []).append(e)
    lines = []
    for j, ex in sorted(by_throw.items()):
        whole = [unit_words(e.aside) for e in ex if e.kept == "nothing"]
        part = [f"with {unit_words(e.aside)} aside return {unit_words(e.returned)} and keep "
                f"{unit_words(e.kept)}" for e in ex if e.kept != "nothing"]
        text = f"Before throw {j}"
        if whole:
            items = whole[0] if len(whole) == 1 else ", ".join(whole[:-1]) + " or " + whole[-1]
            text += f", with only {items} aside: return it and throw all {n} dice"
        if part:
            text += ("; " if whole else ": ") + "; ".join(part)
        lines.append(text + ".")
    return lines


def cheat_sheet(data: MackeReportData, number: int) -> Sheet:
    """The cheat sheet, with as many keep-advice rows as fit on the page."""
    return R.largest_fit(lambda rows: _cheat_sheet(data, number, rows), (15, 12, 10, 8, 6, 4))


def _cheat_sheet(data: MackeReportData, number: int, keep_rows: int) -> tuple[Sheet, float]:
    sol, r = data.sol, data.rules
    n, L = r.n_dice, r.throws
    title = f"Cheat sheet: {data.name}, optimal play on one page"
    caption = (
        "The whole optimal turn strategy (exact solver, maximising the expected signed result "
        "of the turn: a total at or above the minimum is added, below it subtracted, a Macke "
        "after the first throw subtracts the total or scores 0 by the bust rule). Bank "
        "thresholds count the turn total of all series of the turn. Keep advice: the throws "
        "with nothing aside and nothing locked where setting aside less than every scoring "
        f"unit is better, grouped by what every unit would be. {R.source(data)}")
    page = R.SheetPage(caption, char_width=0.53, indent_narrows=True)
    text, heading, table = page.text, page.heading, page.table

    text(title, size=15, weight="bold", gap=1.4)
    text(f"{R.sentence(R.rules_label(r))}.  A turn is worth {sol.turn_ev:.2f} points "
         "with this play: "
         f"P(added) {100 * sol.p_positive:.1f}%, P(subtracted) {100 * sol.p_negative:.1f}%, "
         f"P(zero) {100 * sol.p_zero:.1f}%; {sol.mean_throws:.2f} throws and "
         f"{sol.mean_returns:.2f} returns per turn.", size=8.5, color="#333333", gap=1.3)

    heading("1. After setting aside: bank as soon as the turn total reaches")
    if L >= 2:
        cells = [[f"after throw {L - tl} ({R.count(tl, 'throw')} left)"]
                 + [_th(sol.bank_threshold[tl, d], _lowest(r, d)) for d in range(1, n)]
                 for tl in range(L - 1, 0, -1)]
        table(cells, ["", *[R.dice(d) + " left" for d in range(1, n)]],
              [0.3] + [0.7 / (n - 1)] * (n - 1), row_h=0.0185)
    clear = clear_words(sol).replace("after a clear: ", "")
    text(f"After throw {L} the turn ends by itself: a total of {R.pts(r.min_score)} or more is "
         f"added, less is subtracted. After a clear (all {n} dice aside): {clear} (a fresh "
         f"series of {R.count(L, 'throw')}; earlier points stay locked).", size=9)
    if sol.bank_exceptions:
        lines = exceptions_lines(sol)
        text(lines[0].replace(":", ", by throws and dice left:"), size=8)
        for line in lines[1:]:
            text(line, size=8, x=0.02)

    heading("2. Return units to the cup (before a later throw of the series)")
    starts = start_returns(data)
    if starts:
        text(free_return_words(r), size=8)
        for line in starts:
            text(line, size=9)
    else:
        text("At the start of a turn the optimal player returns nothing.", size=9)
    locked = _locked_returns(data)
    if locked:
        text("After a clear (points locked): " + "; ".join(locked[:4])
             + (f"; … {len(locked) - 4} more" if len(locked) > 4 else "") + ".", size=8.5)
    text(f"Returns are worth {sol.turn_ev - data.sol_no_returns.turn_ev:.2f} points per turn "
         f"(never returning: {data.sol_no_returns.turn_ev:.2f}).", size=8.5)

    heading("3. Which units to set aside (nothing aside, nothing locked)")
    rows = data.keep_rows
    share = sum(x.probability for x in rows if x.keeps[0])
    if rows:
        why = (": it goes back to the cup before the next throw anyway" if sol.mean_returns > 0
               else ": a smaller total loses less if the turn ends below the minimum")
        text(f"On the first throw {100 * share:.0f}% of throws are better played by setting "
             f"aside less than every scoring unit, usually a single 5 (or a single 1){why}.",
             size=9)
        cells = [[unit_words(x.every_unit), "-".join(x.example)]
                 + [unit_words(k) if k else "every unit" for k in x.keeps]
                 + [R.pct(x.probability)]
                 for x in rows[:keep_rows]]
        table(cells, ["every scoring unit", "e.g.", *[f"throw {j}: set aside"
                                                      for j in range(1, L + 1)], "P(throw)"],
              [0.22, 0.14] + [0.52 / L] * L + [0.1], row_h=0.0158, size=7.8)
        if len(rows) > keep_rows:
            rest = sum(x.probability for x in rows[keep_rows:])
            text(f"… and {R.count(len(rows) - keep_rows, 'rarer group')} ({R.pct(rest)} of "
                 "throws).", size=8)
    else:
        text("Set aside every scoring unit: no throw rewards less.", size=9)

    heading("4. The simple rule, and what it costs")
    best = simple_words(data.sweep_k.best, data.sweep_clear.best)
    first = (f"{data.sweep_k.exact_at(r.min_score):.2f}"
             if r.min_score in set(data.sweep_k.exact_x.tolist()) else "not computed")
    if first_chance_is_best_simple(data):
        after = "This is banking at the first chance."
    else:
        after = (f"Banking at the first chance ({simple_words(r.min_score, r.min_score)}): "
                 f"{first}.")
    text(f"Keep every scoring unit, never return, {best}: {data.best_simple_ev:.2f} "
         f"points per turn (exact), {sol.turn_ev - data.best_simple_ev:.2f} less than optimal. "
         + after, size=9)
    other = data.other_bust
    text(f"If instead {BUST_WORDS[other.rules.bust]} (the other bust rule), the optimum is "
         f"worth {other.turn_ev:.2f}; {clear_words(other)}.", size=8.5)

    heading("5. Scoring, and the minimum score")
    units = build_macke_tables(r).types
    text("Units (within one throw): " + ", ".join(
        f"{unit_words(u.name)} = {R.pts(u.points * 50)}" for u in units) + "."
         + (" Five 1s in one throw win at once." if r.variant == "instant-win" else ""),
         size=8.5)
    df = data.explore[data.explore.bust == r.bust]
    mins = sorted({0, 100, 200, 300, 400, 500, r.min_score} & set(df.min_score.tolist()))
    cells = []
    for k in mins:
        row = df[df.min_score == k].iloc[0]
        cells.append([R.pts(k) + ("  (these rules)" if k == r.min_score else ""),
                      f"{row.ev:.1f}", f"{100 * row.p_positive:.1f}%",
                      f"{100 * row.p_negative:.1f}%", f"{100 * row.p_zero:.1f}%",
                      f"{row.value_of_returns:.1f}"])
    table(cells, ["minimum", "EV", "P(added)", "P(subtracted)", "P(zero)", "value of returns"],
          [0.22, 0.13, 0.13, 0.15, 0.13, 0.16], row_h=0.0158, size=7.8)
    return Sheet(page.fig, f"{number:02d}-cheat-sheet", title, caption), page.cur
