"""The figures of the Tutto report, one function per page.

Part of ``tutto_sim.report``. Each function takes the
:class:`~tutto_sim.report.tutto_data.TuttoReportData` and returns a
:class:`Sheet`: the figure, its file name, title and caption. Nothing here
computes a result; it only draws what ``tutto_data`` computed.

Black and white first: series differ by line style, marker and hatch, and the
colours (Okabe-Ito) only add to that; the policy map uses two grey levels.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .. import __version__
from ..kernels.tutto_turn import NEVER
from ..rules.cards import DECK_COUNTS, DECK_SIZE, Card
from ..rules.scoring import POINT_UNIT
from ..sim.stats import Estimate
from .common import BLUE, GREY, HATCHES, INK, LIGHT, ORANGE, new_figure, pts, rules_label
from .tutto_data import DICE_LEFT, SWEEP_CARDS, TuttoReportData

LANDSCAPE = (10.5, 7.0)
PORTRAIT = (8.27, 11.69)  # A4


@dataclass
class Sheet:
    fig: Figure
    name: str | None  # PNG file stem; None: PDF only
    title: str
    caption: str


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def _th(points) -> str:
    return "never" if points is None or points >= NEVER else pts(points)


def _source(data: TuttoReportData, simulated: bool) -> str:
    """The end of every caption: rules, and for simulations the seed and size."""
    tail = rules_label(data.rules)
    if simulated:
        tail = f"{tail}; seed {data.seed}"
    return f"{tail}; tutto-sim {__version__}."


def _reference_phrase(data: TuttoReportData, card: Card) -> str:
    sol = data.sol
    th = " / ".join(_th(data.rows[card].thresholds[d]) for d in DICE_LEFT)
    return (f"keep rule {data.keep_rule[card]}, bank at {th} with 1-5 dice left, "
            f"after a Tutto draw below {_th(sol.draw_below)}")


# --------------------------------------------------------------------------
# the cover (PDF only)
# --------------------------------------------------------------------------


def cover(data: TuttoReportData, contents: list[str]) -> Sheet:
    sol = data.sol
    caption = (f"tutto-sim {__version__}. Exact figures come from the dynamic-programming "
               "solver (docs/solver.md); simulated ones from the numba turn kernels, "
               f"{data.turns:,} turns per point, seed {data.seed}. {rules_label(data.rules)}.")
    fig, band = new_figure(*PORTRAIT, caption)
    fig.set_layout_engine("none")
    ax = fig.add_axes((0.07, band + 0.02, 0.86, 0.95 - band))
    ax.set_axis_off()
    y = 0.97
    ax.text(0, y, "Tutto: optimal single-turn strategy", fontsize=20, weight="bold",
            va="top", transform=ax.transAxes)
    y -= 0.05
    ax.text(0, y, f"A turn is worth {sol.turn_ev:.2f} points under optimal play (exact); "
            f"{data.turn_values['bank at 300']:.2f} when banking at 300.",
            fontsize=11, va="top", transform=ax.transAxes)
    y -= 0.06
    ax.text(0, y, "Contents", fontsize=13, weight="bold", va="top", transform=ax.transAxes)
    y -= 0.035
    for i, line in enumerate(contents, 2):
        ax.text(0.02, y, f"{i:>2}.  {line}", fontsize=10, va="top", transform=ax.transAxes)
        y -= 0.028
    y -= 0.03
    ax.text(0, y, "Rules", fontsize=13, weight="bold", va="top", transform=ax.transAxes)
    y -= 0.035
    for k, v in data.rules.to_dict().items():
        ax.text(0.02, y, f"{k}: {v}", fontsize=10, va="top", family="DejaVu Sans Mono",
                transform=ax.transAxes)
        y -= 0.024
    ax.text(0.02, y, f"sha256: {data.rules.digest()}", fontsize=7.5, va="top",
            family="DejaVu Sans Mono", transform=ax.transAxes)
    y -= 0.05
    ax.text(0, y, "Reproduce", fontsize=13, weight="bold", va="top", transform=ax.transAxes)
    y -= 0.035
    flags = rules_label(data.rules).split(": ", 1)[1].split(" (sha256")[0]
    flags = "" if flags == "RULES.md defaults" else " " + flags.replace(",", "")
    ax.text(0.02, y, f"tutto-sim report --game tutto --seed {data.seed} --turns {data.turns}"
            f"{flags}", fontsize=9.5, va="top", family="DejaVu Sans Mono",
            transform=ax.transAxes)
    return Sheet(fig, None, "Tutto report", caption)


# --------------------------------------------------------------------------
# bank thresholds: Monte Carlo sweeps with the exact curve
# --------------------------------------------------------------------------


def threshold_sweeps(data: TuttoReportData, card: Card, number: int) -> Sheet:
    sol = data.sol
    optimum = float(sol.card_ev[card])
    ref_ev = float(data.card_values["optimal thresholds, named keep rule"][card])
    title = f"{card.display}: EV of a turn against the bank threshold"
    caption = (
        f"Expected banked points of a turn that starts with {card.display}, against the bank "
        "threshold for one number of dice left (after setting aside), every other decision "
        f"as in the reference threshold policy ({_reference_phrase(data, card)}; other cards "
        "the same). Circles: Monte Carlo, "
        f"{data.turns:,} turns per point, 95% CI as bars and grey band, every threshold on the "
        "same turns (common random numbers, so neighbouring points share their sampling error "
        "and may sit on one side of the exact line together). Solid line: exact value of the "
        "same policy (solver). Dash-dot: exact optimum with every decision free; the gap is mostly the "
        "keep choice a named keep rule cannot make. Dotted: the solver's threshold. Star: "
        "best threshold on the grid (exact; of those within 0.01 points of the best, the one "
        "nearest the solver's). "
        f"{_source(data, True)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    axes = fig.subplots(2, 3).ravel()
    for ax, d in zip(axes, DICE_LEFT):
        sw = data.sweeps[card, d]
        x = sw.thresholds
        mean = np.array([e.mean for e in sw.mc])
        ci = np.array([e.ci95 for e in sw.mc])
        ax.fill_between(x, mean - ci, mean + ci, color=LIGHT, alpha=0.55, lw=0, step=None)
        ax.errorbar(x, mean, yerr=ci, fmt="o", ms=3.2, mfc="white", mec=BLUE, ecolor=BLUE,
                    elinewidth=0.8, mew=0.9, zorder=3)
        ax.plot(x, sw.exact, "-", color=INK, lw=1.3, zorder=4)
        ax.axhline(optimum, ls="-.", color=ORANGE, lw=1.3)
        if sw.reference_threshold is not None and sw.reference_threshold <= x[-1]:
            ax.axvline(sw.reference_threshold, ls=":", color=GREY, lw=1.4)
        best = sw.best_threshold
        ax.plot([best], [sw.exact[list(x).index(best)]], marker="*", ms=11, color=INK,
                mfc="white", mew=1.0, zorder=5, ls="none")
        ax.set_title(f"{_dice(d)} left", loc="left")
        ax.set_xlabel("bank when the turn total reaches (points)")
        ax.set_ylabel("EV of the turn (points)")
        ax.set_xlim(x[0] - (x[-1] - x[0]) * 0.02, x[-1] + (x[-1] - x[0]) * 0.02)
        lo = min(mean.min() - ci.max(), sw.exact.min())
        hi = max(optimum, mean.max() + ci.max())
        pad = (hi - lo) * 0.08 + 0.5
        ax.set_ylim(lo - pad, hi + pad)
    key = axes[-1]
    key.set_axis_off()
    handles = [
        Line2D([], [], marker="o", ls="none", mfc="white", mec=BLUE, color=BLUE,
               label="Monte Carlo, 95% CI"),
        Patch(facecolor=LIGHT, alpha=0.55, label="95% CI band"),
        Line2D([], [], color=INK, lw=1.3, label="exact value of the same policy"),
        Line2D([], [], color=ORANGE, ls="-.", lw=1.3, label="exact optimum (every decision free)"),
        Line2D([], [], color=GREY, ls=":", lw=1.4, label="solver's bank threshold"),
        Line2D([], [], marker="*", ms=11, ls="none", color=INK, mfc="white",
               label="best threshold on the grid"),
    ]
    key.legend(handles=handles, loc="upper left", frameon=False, fontsize=9)
    key.text(0.0, 0.34,
             f"exact optimum: {optimum:.2f} points\n"
             f"reference threshold policy: {ref_ev:.2f} (exact)\n"
             f"bank at 300: {data.card_values['bank at 300'][card]:.2f} (exact)\n"
             f"{data.turns:,} turns per point, seed {data.seed}",
             va="top", fontsize=9, transform=key.transAxes, linespacing=1.5)
    return Sheet(fig, f"{number:02d}-bank-threshold-{card.cli_name}", title, caption)


# --------------------------------------------------------------------------
# the optimal policy as a map
# --------------------------------------------------------------------------


def policy_map(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    x2_own = data.rows[Card.X2].card_points
    x2_note = ("" if x2_own is None else
               " Under --x2-scope card the x2 decision also depends on the card's own points; "
               "its panel shows it with the fewest own points possible for that many dice left "
               f"({' / '.join(pts(x2_own[d]) for d in DICE_LEFT)} with 1-5 dice left); with "
               "more own points it banks later.")
    title = "The optimal policy: bank or throw on"
    caption = (
        "The optimal decision (exact solver) after setting dice aside, by card, dice left "
        f"(rows) and turn total of all cards this turn (columns, {POINT_UNIT}-point steps): "
        "dark = bank, white = throw on, hatched = cannot occur (less than 50 points per die "
        "set aside). The label in each row is the bank threshold: from it on the solver "
        "banks; any dark cell left of it is an exception (banking below the threshold)"
        f"{' - there are none' if not sol.bank_exceptions else ''}.{x2_note} "
        f"{_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold", x=0.01, ha="left")
    axes = fig.subplots(3, 2, sharex=True).ravel()
    from matplotlib.colors import ListedColormap

    cmap = ListedColormap(["#FFFFFF", "#4D4D4D"])
    half = POINT_UNIT / 2
    for ax, card in zip(axes, SWEEP_CARDS):
        rows = data.rows[card]
        top = int(rows.totals[-1])
        ax.imshow(rows.bank.astype(float), cmap=cmap, vmin=0, vmax=1, aspect="auto",
                  interpolation="nearest", origin="lower",
                  extent=(-half, top + half, 0.5, 5.5))
        for i, d in enumerate(DICE_LEFT):
            impossible = rows.totals[~rows.possible[i]]
            if len(impossible):
                ax.add_patch(Rectangle((-half, d - 0.5), impossible[-1] + POINT_UNIT, 1,
                                       facecolor="#E8E8E8", edgecolor=GREY, hatch="////",
                                       lw=0.0, zorder=2))
            th = rows.thresholds[d]
            if th is None or th > top:
                ax.text(top, d, "never bank ", ha="right", va="center", fontsize=7.5,
                        weight="bold", zorder=3)
                continue
            ax.plot([th - half, th - half], [d - 0.5, d + 0.5], color=INK, lw=0.8, zorder=3)
            if th > top * 0.35:
                ax.text(th - half - 40, d, f"bank from {pts(th)} \u2192", ha="right",
                        va="center", fontsize=7.5, weight="bold", zorder=3)
            else:
                ax.text(th + 60, d, f"bank from {pts(th)}", ha="left", va="center",
                        fontsize=7.5, color="white", weight="bold", zorder=3)
        ax.set_yticks(list(DICE_LEFT))
        ax.set_ylim(0.5, 5.5)
        ax.set_xlim(-half, top + half)
        label = card.display + ("  (fewest own points)" if rows.card_points else "")
        ax.set_title(f"{label}  (EV {sol.card_ev[card]:.2f})", loc="left")
        ax.set_ylabel("dice left")
        ax.grid(False)
        for y in np.arange(1.5, 5.5):
            ax.axhline(y, color="#999999", lw=0.5)
    for ax in axes[-2:]:
        ax.set_xlabel("turn total after setting aside (points)")
    fig.legend(handles=[Patch(facecolor="#4D4D4D", edgecolor=INK, label="bank"),
                        Patch(facecolor="white", edgecolor=INK, label="throw on"),
                        Patch(facecolor="#E8E8E8", edgecolor=GREY, hatch="////",
                              label="cannot occur")],
               loc="upper right", ncols=3, fontsize=9, frameon=False)
    return Sheet(fig, f"{number:02d}-optimal-policy-map", title, caption)


def draw_or_bank(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    below = sol.draw_below
    top = 2000 if below >= NEVER else int(np.ceil(max(2 * below, 1000) / 500) * 500)
    t = np.arange(0, top + 1, POINT_UNIT)
    d = sol.draw_value[t // POINT_UNIT] * POINT_UNIT
    title = "After a Tutto: draw another card or bank?"
    rule = ("always draw" if below >= NEVER else
            f"draw while the turn total is below {pts(below)}, bank from {pts(below)} on")
    exc = (f" Exceptions (bank although below): {', '.join(pts(x) for x in sol.draw_exceptions)}."
           if sol.draw_exceptions else " There are no exceptions.")
    caption = (
        "Left: the value of drawing another card with the turn total T at risk, D(T) = sum "
        "over cards of q_c times S_c(T) (exact; every later decision optimal), against "
        "banking T (dashed). Right: the gain of drawing, D(T) - T; hatched: where drawing "
        f"is better. Optimal rule: {rule}.{exc} {_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(t, d, "-", color=INK, lw=1.6, marker="o", ms=2.5, markevery=4,
             label="draw: D(T)")
    ax1.plot(t, t, "--", color=BLUE, lw=1.4, label="bank: T")
    gain = d - t
    ax2.axhline(0, color=INK, lw=0.8)
    ax2.plot(t, gain, "-", color=INK, lw=1.6, marker="o", ms=2.5, markevery=4,
             label="D(T) - T")
    ax2.fill_between(t, 0, gain, where=gain > 0, facecolor="none", edgecolor=GREY,
                     hatch="///", lw=0, label="drawing is better")
    for ax in (ax1, ax2):
        if below < NEVER:
            ax.axvline(below, ls=":", color=ORANGE, lw=1.5,
                       label=f"draw below {pts(below)}")
        ax.set_xlabel("turn total T after the Tutto (points)")
    ax1.legend(loc="upper left")
    ax2.legend(loc="upper right")
    ax1.set_ylabel("expected banked points of the turn")
    ax2.set_ylabel("gain of drawing (points)")
    ax1.set_title("value of drawing vs banking", loc="left")
    ax2.set_title("gain of drawing", loc="left")
    return Sheet(fig, f"{number:02d}-after-tutto-draw-or-bank", title, caption)


# --------------------------------------------------------------------------
# values of the cards and the distribution of banked points
# --------------------------------------------------------------------------


def card_values(data: TuttoReportData, number: int) -> Sheet:
    labels = list(data.card_values)
    cards = list(Card)
    title = "What each card is worth"
    tv = data.turn_values
    caption = (
        "Expected banked points of a turn that starts with each card (exact, solver), under "
        "three policies: optimal (every decision free); the reference threshold policy "
        "(the optimal bank and draw thresholds with the best named keep rule per card); "
        "and bank as soon as the turn total is 300 (also after a Tutto; keep every scoring "
        "die). Later cards of the turn follow the same policy. In brackets: how many of the "
        f"56 cards. Whole turn (random card): {tv['optimal']:.2f} / "
        f"{tv['optimal thresholds, named keep rule']:.2f} / {tv['bank at 300']:.2f}. "
        f"{_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    ax = fig.add_subplot()
    h = 0.27
    styles = [dict(color="#333333", edgecolor=INK, hatch=HATCHES[0]),
              dict(color="white", edgecolor=INK, hatch=HATCHES[1]),
              dict(color="#CCCCCC", edgecolor=INK, hatch=HATCHES[2])]
    y = np.arange(len(cards))[::-1]
    for i, (label, st) in enumerate(zip(labels, styles)):
        vals = data.card_values[label]
        ax.barh(y + (1 - i) * h, vals, height=h, lw=0.7, label=f"{label} "
                f"(turn: {tv[label]:.2f})", **st)
        for yy, v in zip(y, vals):
            ax.text(v + 6, yy + (1 - i) * h, f"{v:.1f}", va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{c.display}  ({DECK_COUNTS[c]}/{DECK_SIZE})" for c in cards])
    ax.set_xlabel("expected banked points of the turn")
    ax.set_xlim(0, max(v.max() for v in data.card_values.values()) * 1.12)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right")
    return Sheet(fig, f"{number:02d}-card-values", title, caption)


def banked_distribution(data: TuttoReportData, number: int) -> Sheet:
    names = list(data.banked)
    styles = {names[0]: dict(color=INK, ls="-", lw=1.5),
              names[1]: dict(color=BLUE, ls="--", lw=1.5)}
    hatch = {names[0]: HATCHES[0], names[1]: HATCHES[1]}
    face = {names[0]: "#333333", names[1]: "white"}
    est = {}
    for name, b in data.banked.items():
        b = b.astype(float)
        est[name] = Estimate.from_sums(b.sum(), (b * b).sum(), len(b))
    title = "Banked points per turn: optimal play and bank at 300"
    exact = {"optimal": data.turn_values["optimal"], "bank at 300": data.turn_values["bank at 300"]}
    step = 50
    top = 3000
    caption = (
        f"Distribution of the points banked by {data.turns:,} simulated whole turns (first "
        "card drawn at random; a Stop or a Niete banks nothing), optimal play (the exact "
        "policy table) and bank-at-300 on the same turns (common random numbers). Left: "
        "share of turns that bank nothing. Right: share of turns per 50 points banked; "
        f"the last point collects {pts(top)} and more. Means with 95% CI; the exact means "
        f"are {exact['optimal']:.2f} and {exact['bank at 300']:.2f}. {_source(data, True)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    gs = fig.add_gridspec(1, 3)
    ax0 = fig.add_subplot(gs[0, 0])
    ax1 = fig.add_subplot(gs[0, 1:])
    for i, name in enumerate(names):
        b = data.banked[name]
        p0 = Estimate.proportion(int((b == 0).sum()), len(b))
        ax0.bar(i, 100 * p0.mean, yerr=100 * p0.ci95, width=0.6, color=face[name],
                edgecolor=INK, hatch=hatch[name], lw=0.8, capsize=4)
        ax0.text(i, 100 * p0.mean + 2, f"{100 * p0.mean:.1f}%", ha="center", fontsize=9)
        edges = np.arange(step, top + step, step)
        share = np.array([(b == v).mean() for v in edges[:-1]] + [(b >= top).mean()]) * 100
        ax1.plot(edges, share, drawstyle="steps-mid", **styles[name],
                 label=f"{name}: mean {est[name].mean:.1f} ± {est[name].ci95:.1f} "
                       f"(exact {exact[name]:.2f})")
    ax0.set_xticks(range(len(names)))
    ax0.set_xticklabels(names)
    ax0.set_ylabel("turns that bank nothing (%)")
    ax0.set_ylim(0, min(100, ax0.get_ylim()[1] * 1.25))
    ax0.set_title("nothing banked", loc="left")
    ax0.grid(axis="x", visible=False)
    ax1.set_xlabel("points banked by the turn")
    ax1.set_ylabel("share of all turns (%)")
    ax1.set_title("points banked (turns that bank something)", loc="left")
    ax1.set_xlim(0, top + step)
    ax1.set_ylim(bottom=0)
    ax1.legend(loc="upper right")
    return Sheet(fig, f"{number:02d}-banked-points-distribution", title, caption)


def street(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    p = sol.p_street_by_take
    labels = [str(k) for k in range(1, 7)] + ["best\nadaptive"]
    vals = [p[k] for k in range(1, 7)] + [p[0]]
    title = "Straße: chance of completing the street"
    caption = (
        "Probability of completing the Straße (all six numbers 1-6, one die each) from six "
        "dice, exact: when each throw may set aside at most 1 ... 6 of the numbers not yet "
        "set aside (smallest first), and with the best adaptive choice, which depends on how "
        "many numbers are already set aside and how many new ones the throw shows (the table "
        f"on the cheat sheet). A completed Straße is worth 2,000 points. {_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    ax = fig.add_subplot()
    x = np.arange(len(vals))
    for i, v in enumerate(vals):
        best = i == len(vals) - 1
        ax.bar(i, 100 * v, width=0.65, color="#333333" if best else "white", edgecolor=INK,
               hatch="" if best else HATCHES[1], lw=0.9)
        ax.text(i, 100 * v + 0.4, f"{100 * v:.2f}%", ha="center", fontsize=9)
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    ax.set_xlabel("new numbers set aside per throw (at most)")
    ax.set_ylabel("P(Straße) (%)")
    ax.set_ylim(0, 100 * max(vals) * 1.2)
    ax.grid(axis="x", visible=False)
    return Sheet(fig, f"{number:02d}-strasse", title, caption)


# --------------------------------------------------------------------------
# the cheat sheet
# --------------------------------------------------------------------------


def _faces(s: str) -> str:
    return "-".join(s)


def _keep_headline(data: TuttoReportData) -> str:
    rows = [r for r in data.keep_rows if r.dice == 6 and r.turn_total == 0]
    if not rows:
        return "Set aside every scoring die: no throw rewards keeping fewer."
    lo, hi = (100 * min(data.first_throw_fewer.values()),
              100 * max(data.first_throw_fewer.values()))
    share = f"{lo:.0f}%" if round(lo) == round(hi) else f"{lo:.0f}-{hi:.0f}% (by card)"
    single = all(len(r.keep) == 1 for r in rows)
    one_first = all(r.keep == "1" or "1" not in r.scoring for r in rows)
    text = (f"On the first throw, {share} of throws are better played by setting aside "
            "fewer dice than every scoring one")
    if single and one_first:
        text += ": set aside a single die, a 1, or a 5 if there is no 1"
    return text + "."


def _keep_cells(rows, n_cards: int, per_state: int = 8, total: int = 15,
                floor: float = 0.01) -> list[list[str]]:
    """Table rows of the keep advice: the likeliest groups of each state."""
    cells: list[list[str]] = []
    by_state: dict[tuple[int, int], list] = {}
    for r in rows:
        by_state.setdefault((r.dice, r.turn_total), []).append(r)
    for (dice, turn_total), group in by_state.items():
        group = [r for r in group if r.probability >= floor][:per_state]
        for i, r in enumerate(group):
            if len(cells) >= total:
                return cells
            cards = ("all" if len(r.cards) == n_cards else
                     ", ".join(c.display.replace("Bonus ", "B") for c in r.cards))
            state = f"{_dice(dice)} at total {pts(turn_total)}" if i == 0 else ""
            cells.append([state, _faces(r.scoring), _faces(r.keep),
                          f"{100 * r.probability:.1f}%", cards])
    return cells


def cheat_sheet(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    title = "Cheat sheet: the optimal strategy on one page"
    caption = (
        "The whole optimal single-turn strategy (exact solver, maximising the expected "
        "banked points of the turn). Bank thresholds count the turn total of all cards this "
        "turn. Keep advice: the throws where setting aside fewer dice beats setting aside "
        "every scoring die, grouped by the throw's scoring dice, with their probability "
        f"(keep_advice). {_source(data, False)}")
    fig, band = new_figure(*PORTRAIT, caption, caption_chars=125)
    fig.set_layout_engine("none")  # tables placed by hand below
    ax = fig.add_axes((0.045, band + 0.01, 0.91, 0.97 - band))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    cur = [1.0]
    line_h = 0.0175
    width_in = PORTRAIT[0] * 0.91

    def text(s, size=9.5, weight="normal", gap=1.0, x=0.0, **kw):
        chars = int(width_in * 72 / (size * 0.5))
        for line in textwrap.wrap(s, chars) or [""]:
            ax.text(x, cur[0], line, fontsize=size, weight=weight, va="top", **kw)
            cur[0] -= line_h * gap * size / 9.5

    def heading(s):
        cur[0] -= 0.006
        text(s, size=12, weight="bold", gap=1.38)

    def table(cells, col_labels, widths, row_h=0.0185, size=8.5, shade=None):
        h = row_h * (len(cells) + 1)
        tab = ax.table(cellText=cells, colLabels=col_labels, colWidths=widths,
                       bbox=[0, cur[0] - h, sum(widths), h], cellLoc="center")
        tab.auto_set_font_size(False)
        tab.set_fontsize(size)
        for (r, c), cell in tab.get_celld().items():
            cell.set_linewidth(0.5)
            if r == 0:
                cell.set_text_props(weight="bold")
                cell.set_facecolor("#E6E6E6")
            elif shade is not None and shade(r - 1, c):
                cell.set_facecolor("#CFCFCF")
                cell.set_text_props(weight="bold")
        cur[0] -= h + 0.012

    text(title, size=15, weight="bold", gap=1.4)
    text(f"{rules_label(data.rules)}.  A turn is worth {sol.turn_ev:.2f} points with this "
         "play.", size=8.5, color="#333333", gap=1.3)

    heading("1. Bonus and x2: bank as soon as the turn total reaches")
    cells = []
    for c in SWEEP_CARDS:
        cells.append([c.display, f"{sol.card_ev[c]:.1f}"]
                     + [_th(data.rows[c].thresholds[d]) for d in DICE_LEFT])
    table(cells, ["card", "EV", *[_dice(d) + " left" for d in DICE_LEFT]],
          [0.22, 0.1] + [0.136] * 5, row_h=0.0172)
    exc = [f"{c.display} {d} left at {pts(t)}" for c, d, t, _ in sol.bank_exceptions]
    text("Exceptions (bank below the threshold): " + ("; ".join(exc[:6]) if exc else "none.")
         + ("" if data.rows[Card.X2].card_points is None else
            "  x2 under --x2-scope card: the thresholds with the fewest own points; with more "
            "own points bank later, at most at "
            + " / ".join(_th(sol.bank_threshold[Card.X2, d]) for d in DICE_LEFT) + "."),
         size=8.5)

    heading("2. After a Tutto")
    below = sol.draw_below
    text(("Always draw another card." if below >= NEVER else
          f"Draw another card while the turn total is below {pts(below)}; from {pts(below)} "
          "on, bank.") + (f"  Exceptions: bank at {', '.join(pts(x) for x in sol.draw_exceptions)}."
                          if sol.draw_exceptions else ""))
    text("Feuerwerk (Fireworks) has no choices: keep throwing until a Niete, which banks "
         "everything.", size=8.5)

    heading("3. Which dice to set aside (Bonus and x2)")
    text(_keep_headline(data))
    cells = _keep_cells(data.keep_rows, len(SWEEP_CARDS))
    if cells:
        table(cells, ["throwing", "the throw's scoring dice", "set aside only", "P(throw)",
                      "cards"], [0.25, 0.21, 0.15, 0.11, 0.28], row_h=0.015, size=8)
    else:
        text("No throw where fewer dice beat every scoring die.", size=8.5)

    heading("4. Straße: how many of the new numbers to set aside")
    take = sol.street_take
    text(f"P(Straße) = {sol.p_street:.4f} with this table, {sol.p_street_by_take[6]:.4f} "
         "always setting aside every new number. Cell: numbers to set aside (smallest first); "
         "shaded: fewer than the throw shows.", size=8.5)
    cells = [[f"{m} set aside"] + [str(int(take[m, j])) if m + j <= 6 else ""
                                   for j in range(1, 7)] for m in range(6)]
    table(cells, ["", *[f"{j} new" for j in range(1, 7)]], [0.2] + [0.1] * 6,
          row_h=0.0155, size=8,
          shade=lambda r, c: c >= 1 and r + c <= 6 and int(take[r, c]) < c)

    heading("5. Plus/Minus and Kleeblatt: only the Tutto counts")
    text(f"Play for the Tutto: P(Tutto) = {sol.p_tutto:.4f} from 6 dice with the best keeps; "
         f"Kleeblatt (two Tuttos in a row) {sol.p_cloverleaf:.4f}.")
    tr = [r for r in data.tutto_keep_rows if r.dice == 6][:5]
    if tr:
        text("From 6 dice set aside only: " + "; ".join(
            f"{_faces(r.keep)} from {_faces(r.scoring)}" for r in tr) + ".", size=8.5)
    others = [Card.FIREWORKS, Card.STREET, Card.PLUSMINUS, Card.CLOVERLEAF, Card.STOP]
    heading("6. The other cards are worth (EV of a turn starting with them)")
    text(";  ".join(f"{c.display} {sol.card_ev[c]:.1f}" for c in others)
         + f"  (a Kleeblatt success counts --cloverleaf-value = {data.rules.cloverleaf_value:,}).",
         size=9)
    return Sheet(fig, f"{number:02d}-cheat-sheet", title, caption)
