"""The figures of the Tutto report, one function per page.

Part of the report layer. Each function takes the
:class:`~tutto_sim.tutto.report_data.TuttoReportData` and returns a
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

from tutto_sim import __version__
from tutto_sim.core.report import (
    BLUE,
    GREY,
    HATCHES,
    INK,
    LIGHT,
    ORANGE,
    beside_exact,
    count,
    estimate_text,
    merge_same,
    new_figure,
    pct,
    pts,
    rules_flags,
    rules_label,
    rules_lines,
    sentence,
)
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.cards import DECK_COUNTS, DECK_SIZE, Card
from tutto_sim.tutto.report_data import BANK_300, DICE_LEFT, OPTIMAL, REFERENCE, SWEEP_CARDS, TuttoReportData
from tutto_sim.tutto.turn_kernel import NEVER

LANDSCAPE = (10.5, 7.0)
PORTRAIT = (8.27, 11.69)  # A4


@dataclass
class Sheet:
    fig: Figure
    name: str | None  # PNG file stem; None: PDF only
    title: str
    caption: str


#: The keep rules of the threshold policies (``tables.KEEP_RULES``) in the players' words.
KEEP_WORDS = {
    "all": "set aside every scoring die",
    "best-unit": "set aside only the scoring unit worth most",
    "triples-ones": "set aside triples and 1s (a 5 only when nothing else scores)",
    "fewest-dice": "set aside as few dice as possible",
}


def _dice(n: int) -> str:
    return count(n, "die")


def card_name(card: Card) -> str:
    """A card's name as printed on it: ×2, not x2."""
    return "×2" if card is Card.X2 else card.display


def _lowest(dice_left: int) -> int:
    """The smallest turn total (points) with ``dice_left`` dice left: 50 a die set aside."""
    return (6 - dice_left) * POINT_UNIT


def _th(points, dice_left: int | None = None) -> str:
    """A bank threshold for a table cell: "1,250", "never bank", "always bank"."""
    if points is None or points >= NEVER:
        return "never bank"
    if points <= (0 if dice_left is None else _lowest(dice_left)):
        return "always bank"
    return pts(points)


def after_tutto_cards(rules) -> list[Card]:
    """The cards whose Tutto is followed by the choice to bank or draw another
    card: Bonus, ×2, Straße and (unless its option ends the turn) Plus/Minus.
    Stop never throws, Feuerwerk goes on without a card, and the Kleeblatt's
    first Tutto is followed by its second try, its second Tutto wins the game."""
    cards = [c for c in Card if c in SWEEP_CARDS or c is Card.STREET]
    if rules.plusminus_chain == "continue":
        cards.insert(cards.index(Card.STREET), Card.PLUSMINUS)
    return cards


def draw_rule_words(draw_below: int) -> str:
    """The after-Tutto rule: "draw another card while the turn total is below
    900, bank from 900 on", "always draw another card", "always bank"."""
    if draw_below >= NEVER:
        return "always draw another card"
    if draw_below <= POINT_UNIT:  # a Tutto never leaves a total below 50
        return "always bank"
    return (f"draw another card while the turn total is below {pts(draw_below)}, "
            f"bank from {pts(draw_below)} on")


def _cards_words(cards) -> str:
    """Cards in a sentence: "Bonus, ×2, Plus/Minus or Straße (Street)"."""
    bonus = [c for c in cards if c.bonus]
    names = (["Bonus"] if len(bonus) == 5 else [card_name(c) for c in bonus])
    names += [card_name(c) for c in cards if not c.bonus]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _source(data: TuttoReportData, simulated: bool) -> str:
    """The end of every caption: rules, and for simulations the seed and size."""
    tail = sentence(rules_label(data.rules))
    if simulated:
        tail = f"{tail}; seed {data.seed}"
    return f"{tail}; tutto-sim {__version__}."


def _when(points, dice_left: int) -> str:
    """When to bank with ``dice_left`` dice left: "always", "never", "at ≥ 400"."""
    cell = _th(points, dice_left)
    return cell.replace(" bank", "") if cell.endswith(" bank") else f"at ≥ {cell}"


def _reference_phrase(data: TuttoReportData, card: Card) -> str:
    sol = data.sol
    th = " / ".join(_when(data.rows[card].thresholds[d], d) for d in DICE_LEFT)
    return (f"{KEEP_WORDS[data.keep_rule[card]]}; bank with 1 / 2 / 3 / 4 / 5 dice left: "
            f"{th}; after a Tutto {draw_rule_words(sol.draw_below)}")


def _same(a, b) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                            rtol=0, atol=1e-9))


def policy_values(data: TuttoReportData) -> list[tuple[str, np.ndarray]]:
    """The policies of the card-value chart with their exact EV per card; two
    policies worth the same for every card are shown once, under both names."""
    return merge_same(list(data.card_values.items()), _same)


# --------------------------------------------------------------------------
# the cover (PDF only)
# --------------------------------------------------------------------------


def cover(data: TuttoReportData, contents: list[str]) -> Sheet:
    sol = data.sol
    caption = (f"tutto-sim {__version__}. Exact figures come from the dynamic-programming "
               "solver (docs/solver.md); simulated ones from the turn simulator, "
               f"{count(data.turns, 'turn')} per point, seed {data.seed}. "
               f"{sentence(rules_label(data.rules))}.")
    fig, band = new_figure(*PORTRAIT, caption)
    fig.set_layout_engine("none")
    ax = fig.add_axes((0.07, band + 0.02, 0.86, 0.95 - band))
    ax.set_axis_off()
    y = 0.97
    ax.text(0, y, "Tutto: optimal single-turn strategy", fontsize=20, weight="bold",
            va="top", transform=ax.transAxes)
    y -= 0.05
    simple = ("the same" if _same(sol.turn_ev, data.turn_values[BANK_300]) else
              f"{data.turn_values[BANK_300]:.2f}")
    ax.text(0, y, f"A turn is worth {sol.turn_ev:.2f} points under optimal play (exact); "
            f"{simple} when banking at 300.",
            fontsize=11, va="top", transform=ax.transAxes)
    y -= 0.06
    ax.text(0, y, "Contents", fontsize=13, weight="bold", va="top", transform=ax.transAxes)
    y -= 0.035
    for i, line in enumerate(contents, 2):
        ax.text(0.02, y, f"{i:>2}.  {line}", fontsize=10, va="top", transform=ax.transAxes)
        y -= 0.028
    y -= 0.03
    ax.text(0, y, "Rules (docs/rules.md)", fontsize=13, weight="bold", va="top",
            transform=ax.transAxes)
    y -= 0.035
    for line in rules_lines(data.rules):
        for part in textwrap.wrap(line, 95, subsequent_indent="    "):
            ax.text(0.02, y, part, fontsize=9.5, va="top", transform=ax.transAxes)
            y -= 0.022
    ax.text(0.02, y, f"rules fingerprint (SHA-256): {data.rules.digest()}", fontsize=7.5,
            va="top", family="DejaVu Sans Mono", transform=ax.transAxes)
    y -= 0.05
    ax.text(0, y, "Reproduce", fontsize=13, weight="bold", va="top", transform=ax.transAxes)
    y -= 0.035
    flags = "".join(" " + f for f in rules_flags(data.rules))
    cmd = (f"tutto-sim report --game tutto --seed {data.seed} --turns {data.turns}{flags} "
           "--out DIR")
    for part in textwrap.wrap(cmd, 85):
        ax.text(0.02, y, part, fontsize=9.5, va="top", family="DejaVu Sans Mono",
                transform=ax.transAxes)
        y -= 0.022
    return Sheet(fig, None, "Tutto report", caption)


# --------------------------------------------------------------------------
# bank thresholds: Monte Carlo sweeps with the exact curve
# --------------------------------------------------------------------------


def sweep_key_text(data: TuttoReportData, card: Card) -> str:
    """The exact values beside a card's sweeps: the optimum, the reference
    threshold policy and bank at 300, each policy once."""
    entries = merge_same([("exact optimum", float(data.card_values[OPTIMAL][card])),
                          (REFERENCE, float(data.card_values[REFERENCE][card])),
                          (BANK_300, float(data.card_values[BANK_300][card]))], _same)
    lines = [f"{name}: {value:.2f}" + (" points" if i == 0 else " (exact)")
             for i, (name, value) in enumerate(entries)]
    lines.append(f"{count(data.turns, 'turn')} per point, seed {data.seed}")
    return "\n".join(lines)


def threshold_sweeps(data: TuttoReportData, card: Card, number: int) -> Sheet:
    sol = data.sol
    optimum = float(sol.card_ev[card])
    name = card_name(card)
    title = f"{name}: EV of a turn against the bank threshold"
    caption = (
        f"Expected banked points of a turn that starts with {name}, against the bank "
        "threshold for one number of dice left (after setting aside), every other decision "
        f"as in the reference threshold policy ({_reference_phrase(data, card)}; later cards "
        "of the turn: their own thresholds and keep rule). Circles: Monte Carlo, "
        f"{count(data.turns, 'turn')} per point, 95% CI as bars and grey band, every threshold "
        "on the same turns (common random numbers, so neighbouring points share their sampling "
        "error and may sit on one side of the exact line together). Solid line: exact value of "
        "the same policy (solver). Dash-dot: exact optimum with every decision free; the gap "
        "is mostly which dice to set aside, which no fixed keep rule gets right every time. "
        "Dotted: the solver's threshold. Star: best threshold on the grid (exact; of those "
        "within 0.01 points of the best, the one nearest the solver's). "
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
    key.text(0.0, 0.34, sweep_key_text(data, card), va="top", fontsize=9,
             transform=key.transAxes, linespacing=1.5)
    return Sheet(fig, f"{number:02d}-bank-threshold-{card.cli_name}", title, caption)


# --------------------------------------------------------------------------
# the optimal policy as a map
# --------------------------------------------------------------------------


def policy_map(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    x2_own = data.rows[Card.X2].card_points
    x2_note = ("" if x2_own is None else
               " With ×2 doubling only its own card's points, the ×2 decision also depends on "
               "the points rolled under that card; its panel shows the fewest such points "
               f"possible for that many dice left ({' / '.join(pts(x2_own[d]) for d in DICE_LEFT)}"
               " with 1 / 2 / 3 / 4 / 5 dice left); with more of them it banks later.")
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
            possible = rows.totals[rows.possible[i]]
            always = th <= (possible[0] if len(possible) else _lowest(d))
            ax.plot([th - half, th - half], [d - 0.5, d + 0.5], color=INK, lw=0.8, zorder=3)
            if th > top * 0.35:
                ax.text(th - half - 40, d, f"bank from {pts(th)} \u2192", ha="right",
                        va="center", fontsize=7.5, weight="bold", zorder=3)
            else:
                ax.text(th + 60, d, "always bank" if always else f"bank from {pts(th)}",
                        ha="left", va="center", fontsize=7.5, color="white", weight="bold",
                        zorder=3)
        ax.set_yticks(list(DICE_LEFT))
        ax.set_ylim(0.5, 5.5)
        ax.set_xlim(-half, top + half)
        label = card_name(card) + ("  (fewest own points)" if rows.card_points else "")
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


def no_draw_choice_words(rules) -> str:
    """The cards after whose Tutto there is no bank-or-draw choice, and why."""
    text = ("Feuerwerk, Kleeblatt and Stop have no such choice: Feuerwerk throws on without a "
            "new card until a Niete, the Kleeblatt's first Tutto is followed by its second try "
            "and its second Tutto wins the game, and a Stop ends the turn.")
    if rules.plusminus_chain != "continue":
        text += " Under these rules a Plus/Minus Tutto ends the turn too."
    return text


def draw_or_bank(data: TuttoReportData, number: int) -> Sheet:
    sol = data.sol
    below = sol.draw_below
    top = 2000 if below >= NEVER else int(np.ceil(max(2 * below, 1000) / 500) * 500)
    t = np.arange(0, top + 1, POINT_UNIT)
    d = sol.draw_value[t // POINT_UNIT] * POINT_UNIT
    title = "After a Tutto: draw another card or bank?"
    rule = draw_rule_words(below)
    exc = (f" Exceptions (bank although below): {', '.join(pts(x) for x in sol.draw_exceptions)}."
           if sol.draw_exceptions else " There are no exceptions.")
    caption = (
        f"After a Tutto with {_cards_words(after_tutto_cards(data.rules))} the player banks "
        "the turn total T or draws another card and plays it with T at risk. Left: D(T), "
        "what drawing is worth (the expected banked points of the turn, averaged over the "
        "cards of the deck, every later decision optimal; exact), against banking T (dashed). "
        "Right: the gain of drawing, D(T) - T; hatched: where drawing is better. "
        f"Optimal rule: {rule}.{exc} {no_draw_choice_words(data.rules)} "
        f"{_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(t, d, "-", color=INK, lw=1.6, marker="o", ms=2.5, markevery=4,
             label="draw another card: D(T)")
    ax1.plot(t, t, "--", color=BLUE, lw=1.4, label="bank: T")
    gain = d - t
    ax2.axhline(0, color=INK, lw=0.8)
    ax2.plot(t, gain, "-", color=INK, lw=1.6, marker="o", ms=2.5, markevery=4,
             label="D(T) - T")
    ax2.fill_between(t, 0, gain, where=gain > 0, facecolor="none", edgecolor=GREY,
                     hatch="///", lw=0, label="drawing is better")
    for ax in (ax1, ax2):
        if POINT_UNIT < below < NEVER:
            ax.axvline(below, ls=":", color=ORANGE, lw=1.5,
                       label=f"draw below {pts(below)}, bank from {pts(below)}")
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
    entries = policy_values(data)
    cards = list(Card)
    title = "What each card is worth"
    turn = {name: data.turn_values[name.split(" = ")[0]] for name, _ in entries}
    caption = (
        "Expected banked points of a turn that starts with each card (exact, solver), under "
        "three policies: optimal (every decision free); the reference threshold policy "
        "(the optimal bank and draw thresholds, with per card the best of four fixed keep "
        "rules: every scoring die, only the unit worth most, triples and 1s, or as few dice "
        "as possible); and bank at 300 (bank as soon as the turn total reaches 300, also "
        "after a Tutto; set aside every scoring die). Later cards of the turn follow the same "
        "policy."
        + (" Policies worth the same for every card are shown once, under both names."
           if len(entries) < len(data.card_values) else "")
        + " In brackets: how many of the 56 cards. Whole turn (random card): "
        + "; ".join(f"{name} {turn[name]:.2f}" for name, _ in entries)
        + f". {_source(data, False)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    ax = fig.add_subplot()
    h = 0.81 / len(entries)
    styles = [dict(color="#333333", edgecolor=INK, hatch=HATCHES[0]),
              dict(color="white", edgecolor=INK, hatch=HATCHES[1]),
              dict(color="#CCCCCC", edgecolor=INK, hatch=HATCHES[2])]
    y = np.arange(len(cards))[::-1]
    for i, ((label, vals), st) in enumerate(zip(entries, styles)):
        off = ((len(entries) - 1) / 2 - i) * h
        ax.barh(y + off, vals, height=h, lw=0.7, label=f"{label} (turn: {turn[label]:.2f})",
                **st)
        for yy, v in zip(y, vals):
            ax.text(v + 6, yy + off, f"{v:.1f}", va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{card_name(c)}  ({DECK_COUNTS[c]}/{DECK_SIZE})" for c in cards])
    ax.set_xlabel("expected banked points of the turn")
    ax.set_xlim(0, max(v.max() for _, v in entries) * 1.12)
    ax.grid(axis="y", visible=False)
    ax.legend(loc="lower right")
    return Sheet(fig, f"{number:02d}-card-values", title, caption)


def banked_entries(data: TuttoReportData) -> list[tuple[str, str]]:
    """(label, policy) of the banked-points figure: two policies that banked the
    same points on every simulated turn are one series under both names."""
    return merge_same([(name, name) for name in data.banked],
                      lambda a, b: np.array_equal(data.banked[a], data.banked[b]))


def banked_distribution(data: TuttoReportData, number: int) -> Sheet:
    entries = banked_entries(data)
    looks = [dict(color=INK, ls="-", lw=1.5), dict(color=BLUE, ls="--", lw=1.5)]
    hatches = [HATCHES[0], HATCHES[1]]
    faces = ["#333333", "white"]
    est = {}
    for _, name in entries:
        b = data.banked[name].astype(float)
        est[name] = Estimate.from_sums(b.sum(), (b * b).sum(), len(b))
    title = "Banked points per turn: optimal play and bank at 300"
    exact = {name: data.turn_values[name] for _, name in entries}
    step = 50
    top = 3000
    caption = (
        f"Distribution of the points banked by {count(data.turns, 'simulated whole turn')} "
        "(first card drawn at random; a Stop or a Niete banks nothing), optimal play (the "
        "exact policy table) and bank at 300 (bank as soon as the turn total reaches 300) on "
        "the same turns (common random numbers)"
        + (", which banked the same points on every turn" if len(entries) == 1 else "")
        + ". Left: share of turns that bank nothing, with 95% CI. Right: share of turns per "
        f"50 points banked; the last point collects {pts(top)} and more. Means with 95% CI; "
        "the exact means are " + " and ".join(f"{exact[n]:.2f}" for _, n in entries)
        + f". {_source(data, True)}")
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    gs = fig.add_gridspec(1, 3)
    ax0 = fig.add_subplot(gs[0, 0])
    ax1 = fig.add_subplot(gs[0, 1:])
    for i, (label, name) in enumerate(entries):
        b = data.banked[name]
        p0 = Estimate.proportion(int((b == 0).sum()), len(b))
        ax0.bar(i, 100 * p0.mean, yerr=[[100 * (p0.mean - p0.low)], [100 * (p0.high - p0.mean)]],
                width=0.6, color=faces[i], edgecolor=INK, hatch=hatches[i], lw=0.8, capsize=4)
        ax0.text(i, 100 * p0.high + 2, estimate_text(p0, percent=True),
                 ha="center", fontsize=9)
        edges = np.arange(step, top + step, step)
        share = np.array([(b == v).mean() for v in edges[:-1]] + [(b >= top).mean()]) * 100
        ax1.plot(edges, share, drawstyle="steps-mid", **looks[i],
                 label=f"{label}: mean {beside_exact(est[name], exact[name], 2)} "
                       f"(exact {exact[name]:.2f})")
    ax0.set_xticks(range(len(entries)))
    ax0.set_xticklabels([label for label, _ in entries])
    if len(entries) == 1:
        ax0.set_xlim(-1, 1)
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


def _cards_short(cards) -> str:
    """Cards for a narrow table cell: "Bonus 500/600, ×2", "every Bonus"."""
    bonus = [c.bonus for c in cards if c.bonus]
    parts = (["every Bonus"] if len(bonus) == 5 else
             ["Bonus " + "/".join(str(b) for b in bonus)] if bonus else [])
    return ", ".join(parts + [card_name(c) for c in cards if not c.bonus])


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
            cards = "all" if len(r.cards) == n_cards else _cards_short(r.cards)
            state = f"{_dice(dice)} at total {pts(turn_total)}" if i == 0 else ""
            cells.append([state, _faces(r.scoring), _faces(r.keep), pct(r.probability), cards])
    return cells


def cheat_sheet(data: TuttoReportData, number: int) -> Sheet:
    """The cheat sheet, with as many keep-advice rows as fit on the page."""
    for rows in (15, 13, 11, 9, 7, 5):
        sheet, bottom = _cheat_sheet(data, number, rows)
        if bottom >= 0:
            break
    return sheet


def _cheat_sheet(data: TuttoReportData, number: int, keep_total: int) -> tuple[Sheet, float]:
    sol = data.sol
    title = "Cheat sheet: the optimal strategy on one page"
    caption = (
        "The whole optimal single-turn strategy (exact solver, maximising the expected "
        "banked points of the turn). Bank thresholds count the turn total of all cards this "
        "turn. Keep advice: the throws where setting aside fewer dice beats setting aside "
        "every scoring die, grouped by the throw's scoring dice, with their probability and "
        f"the cards they hold for. {_source(data, False)}")
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
        for line in textwrap.wrap(s, chars, break_on_hyphens=False) or [""]:
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
    text(f"{sentence(rules_label(data.rules))}.  A turn is worth {sol.turn_ev:.2f} points with this "
         "play.", size=8.5, color="#333333", gap=1.3)

    heading("1. Bonus and ×2: bank as soon as the turn total reaches")
    cells = []
    for c in SWEEP_CARDS:
        cells.append([card_name(c), f"{sol.card_ev[c]:.1f}"]
                     + [_th(data.rows[c].thresholds[d], d) for d in DICE_LEFT])
    table(cells, ["card", "EV", *[_dice(d) + " left" for d in DICE_LEFT]],
          [0.22, 0.1] + [0.136] * 5, row_h=0.0172)
    exc = [f"{card_name(c)} with {_dice(d)} left at {pts(t)}"
           for c, d, t, _ in sol.bank_exceptions]
    text("Exceptions (bank below the threshold): "
         + ("; ".join(exc[:6]) + (f"; … {len(exc) - 6} more" if len(exc) > 6 else "") + "."
            if exc else "none.")
         + ("" if data.rows[Card.X2].card_points is None else
            "  ×2 (doubling only its own card's points): the thresholds with the fewest "
            "points rolled under the ×2; with more of them bank later, at most at "
            + " / ".join(_th(sol.bank_threshold[Card.X2, d], d) for d in DICE_LEFT) + "."),
         size=8.5)

    heading("2. After a Tutto: draw another card or bank")
    rule = draw_rule_words(sol.draw_below)
    text(f"With {_cards_words(after_tutto_cards(data.rules))}: {rule}."
         + (f"  Exceptions: bank at {', '.join(pts(x) for x in sol.draw_exceptions)}."
            if sol.draw_exceptions else ""))
    text(no_draw_choice_words(data.rules) + " A Feuerwerk's Niete banks everything.", size=8.5)

    heading("3. Which dice to set aside (Bonus and ×2)")
    text(_keep_headline(data))
    cells = _keep_cells(data.keep_rows, len(SWEEP_CARDS), total=keep_total)
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
    text(";  ".join(f"{card_name(c)} {sol.card_ev[c]:.1f}" for c in others)
         + f"  (a Kleeblatt success wins the game; this turn analysis counts it as "
         f"{pts(data.rules.cloverleaf_value)} points).", size=9)
    return Sheet(fig, f"{number:02d}-cheat-sheet", title, caption), cur[0]
