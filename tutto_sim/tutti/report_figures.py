"""The pages of the Tutti report, drawn from ``report_data``'s numbers.

Every page has a title, axis labels, a legend where series differ, and a
caption naming the rules, the seed and the sample (docs/reports.md, "Tutti").
Series differ by hatching, line style and marker, so the pages read in black
and white.
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from tutto_sim import __version__
from tutto_sim.core import report as R
from tutto_sim.core.report import BLUE, GREY, HATCHES, INK, LABEL_BOX, LIGHT, ORANGE, Sheet
from tutto_sim.core.stats import Estimate

from .analysis import table_words
from .cards import RANK_NAMES
from .report_data import LADDER_FILE, KERNEL_BOTS, SEARCH_OPPONENT, TABLES, TuttiReportData

#: The bots in a few words, for captions.
BOT_WORDS = {
    "random": "any allowed action at random",
    "heuristic": ("rules of thumb: exchange and declare whenever allowed, lead cheap cards, "
                  "win a trick with the cheapest card that wins, keep trumps for Aces and Threes"),
    "pimc": ("deals the cards it cannot see as its observation allows, plays each deal out "
             "face up and takes the best average"),
    "ismcts": "runs a tree search over deals of the unseen cards, one deal per playout",
    "expert": ("plays as pimc, but with 3 or 4 players it deals the unseen cards by how likely "
               "they make the others' plays so far, and plays for the chance of winning the "
               "hand; with 2 players it solves the hand exactly from the last trick with a "
               "stock on"),
    "cheat": ("runs pimc's search on the true cards: it sees every card, a yardstick, not a "
              "fair opponent"),
}
#: Line styles of the sides (leader first) that stay apart in black and white.
SIDE_STYLE = (dict(ls="-", marker="o", color=INK), dict(ls="--", marker="s", color=BLUE),
              dict(ls="-.", marker="^", color=ORANGE), dict(ls=":", marker="D", color=GREY))
TABLE_STYLE = dict(zip(TABLES, SIDE_STYLE))
#: The dealer's hatching on the seat pages, at every table.
DEALER_HATCH = HATCHES[3]


def table_prints(data: TuttiReportData, tables=TABLES) -> str:
    """The fingerprints of the report's options at the other tables."""
    items = [f"{table_words(t)} {data.at(t).digest()[:12]}" for t in tables if t != "2"]
    return ("Rules fingerprints of the same options at " + "; ".join(items) + ". ") if items \
        else ""


def _hands_end(data: TuttiReportData) -> str:
    """The end of the captions of the pages of single hands."""
    hands = R.count(data.sizes["hands"], "hand")
    return table_prints(data) + R.source(data, f"{hands} per table")


def _matches(n: int) -> str:
    return R.count(n, "match", "matches")


def spec_words(spec: str) -> str:
    """A search bot with its budget: "pimc with 10 deals per decision"."""
    kind, _, n = spec.partition(":")
    what = {"pimc": "deal", "ismcts": "iteration"}[kind]
    return f"{kind} with {R.count(int(n), what)} per decision"


def seat_word(table: str, j: int) -> str:
    """A seat by its part in the first hand: the leader, 2nd, ..., the dealer."""
    n = int(table[0])
    if j == 0:
        return "leader"
    if j == n - 1:
        return "dealer"
    return {1: "2nd", 2: "3rd"}[j]


def side_word(table: str, s: int) -> str:
    if table == "4p":
        return "the leader's pair" if s == 0 else "the dealer's pair"
    return seat_word(table, s)


DOC = "docs/tutti.md"
TITLE = "Tutti: bots, lead, exchange, declaring"


def intro(data: TuttiReportData) -> str:
    """The index page's first paragraph."""
    size = f"{_matches(data.matches)} per table, seed {data.seed}"
    return (f"Tutti (docs/tutti.md): the bots, the lead, what the trump exchange and "
            f"declaring are worth, the card that shows trumps, dealt Tutes and the points of "
            f"a hand, simulated ({size}) and, for the Tutes, exact; "
            f"{R.rules_label(data.rules)}. What each page shows: docs/reports.md.")


# --------------------------------------------------------------------------
# the cover (PDF only)
# --------------------------------------------------------------------------


def cover_caption(data: TuttiReportData) -> str:
    """The cover's caption: where the figures come from."""
    return (f"tutto-sim {__version__}. Simulated figures come from the numba kernel "
            f"({_matches(data.matches)} per table, seed {data.seed}) and the reference "
            "engine (the search bots, the exchange and declaring); the chance of a dealt "
            f"Tute is also exact, by counting. {R.sentence(R.rules_label(data.rules))}.")


def summary(data: TuttiReportData) -> str:
    """The cover's summary: the report's main findings in a few sentences."""
    two = {b.name: b for b in data.bots["2"].bot_stats()}["heuristic"]
    lead = {r.table: r for r in data.lead.rows}
    ex = data.exchange.rows[0]
    de = {r.table: r for r in data.declare.rows}["2"]
    tute = {r.players: r for r in data.tute.rows}[2]
    return (f"At 2 players the heuristic bot wins {R.estimate_text(two.win, True)} of "
            f"its matches against random. The player who leads the first hand wins "
            f"{R.estimate_text(lead['2'].seats[0], True)} at 2 players and "
            f"{R.estimate_text(lead['4'].seats[0], True)} at 4 (fair share "
            f"25%): at 3 and 4 players the dealer, who plays last and keeps the card that "
            f"shows trumps, does best. The trump exchange is worth "
            f"{R.signed(ex.points_value.mean, ex.points_value.ci95)} points a hand, declaring "
            f"{R.signed(de.points_value.mean, de.points_value.ci95)} at 2 players. A given "
            f"player is dealt a Tute in one hand of {1 / float(tute.exact_player):,.0f} at 2 "
            "players (exact).")


# --------------------------------------------------------------------------
# bots
# --------------------------------------------------------------------------


def _bar_group(ax, x0: float, entries, fair: float, width: float = 0.36) -> None:
    """Vertical bars of win rates (per cent) with 95% CIs, side by side from
    ``x0``, each labelled; the fair share dotted across the group.
    ``entries``: (label, Estimate, hatch)."""
    xs = x0 + (np.arange(len(entries)) - (len(entries) - 1) / 2) * width
    for x, (label, e, hatch) in zip(xs, entries):
        ax.bar(x, 100 * e.mean, width * 0.9, color=LIGHT if not hatch else "white",
               edgecolor=INK, hatch=hatch, lw=0.7)
        ax.errorbar(x, 100 * e.mean, yerr=[[100 * (e.mean - e.low)], [100 * (e.high - e.mean)]],
                    fmt="none", color=INK, capsize=3, lw=1.0)  # Wilson: inside 0..100%
        ax.text(x, 100 * e.high + 1.2, f"{label}\n" + R.estimate_text(e, True, stacked=True),
                ha="center", va="bottom", fontsize=6.8, bbox=LABEL_BOX)
    ax.plot([xs[0] - width / 2, xs[-1] + width / 2], [100 * fair] * 2, ls=":", color=GREY,
            lw=1.6)


def search_groups(data: TuttiReportData) -> list[tuple[str, str, object, object, str]]:
    """The search bots' bars, pimc first: (bot, tick label, its Estimate,
    heuristic's Estimate, caption words). At its own budget from the saved
    measurement where one fits the report's rules, else the report's short
    match with a small budget, said to be so."""
    out = []
    small = {s.split(":")[0]: s for s in data.search}
    for kind in [k for k in ("pimc", "ismcts") if k in data.saved or k in small]:
        if kind in data.saved:
            m = data.saved[kind]
            spec = f"{kind}:{m.budget}"
            tick = (f"{kind} at its own budget,\n"
                    + spec_words(spec).split(" with ", 1)[1]
                    + f",\n2 players,\n{R.count(m.n, m.unit)} (saved)")
            words = (f"{spec_words(spec)} (its own budget): {R.count(m.n, 'single ' + m.unit)}, "
                     f"the deals of seed {m.seed} each played in both seatings, a tied hand "
                     f"counting one half, saved in tutto_sim/data/measured/{m.path.name}")
            out.append((kind, tick, m.win, m.other, words))
        else:
            spec = small[kind]
            res = data.search[spec]
            stats = {b.name: b for b in res.bot_stats()}
            name = next(b for b in stats if b != SEARCH_OPPONENT)
            tick = (f"{kind} with a small budget,\n"
                    + spec_words(spec).split(" with ", 1)[1] + ",\n2 players")
            words = (f"{spec_words(spec)}, a small budget (its own: "
                     f"{_own_budget(kind)}): {_matches(res.games)} of this report in the "
                     "reference engine (it plays only there), each bot leading the first hand "
                     "of half of them")
            out.append((kind, tick, stats[name].win, stats[SEARCH_OPPONENT].win, words))
    return out


def _own_budget(kind: str) -> str:
    """A search bot's default budget in words: "200 deals per decision"."""
    from .ismcts import DEFAULT_ITERATIONS
    from .pimc import DEFAULT_SAMPLES

    n = {"pimc": DEFAULT_SAMPLES, "ismcts": DEFAULT_ITERATIONS}[kind]
    return spec_words(f"{kind}:{n}").split(" with ", 1)[1]


def search_caption(data: TuttiReportData, groups) -> str:
    """The caption's words on the search bots' bars (:func:`search_groups`)."""
    if not groups:
        return ""
    what = "; ".join(f"{kind}: it {BOT_WORDS[kind]}" for kind, *_ in groups)
    text = (f" Right: the search bots against heuristic at 2 players ({what}). "
            + "; ".join(R.sentence(g[4]) if i == 0 else g[4] for i, g in enumerate(groups))
            + ".")
    if any(k in data.saved for k, *_ in groups):
        text += (" A saved figure is the match docs/tutti.md ('Speed and strength') and the "
                 "README quote, played once by the command in its file: the bot at its own "
                 "budget needs more time than this report takes.")
    if len(data.saved) < len(groups):
        text += (" A small budget is too small to show the bot's strength (no saved "
                 "measurement at its own budget was made under these rules); its CIs are "
                 "wide.")
    return text


def bot_win_rates(data: TuttiReportData, number: int) -> Sheet:
    groups = search_groups(data)
    title = "Bot win rates"
    caption = (
        f"Matches of heuristic ({BOT_WORDS['heuristic']}) against random "
        f"({BOT_WORDS['random']}), {_matches(data.matches)} at each table in the numba "
        "kernel, every seating of the two bots "
        f"{R.evenly(data.matches, data.bots.values(), 'matches')} "
        "(in pairs a bot partners "
        "either bot, itself included, and a pair's win counts for both partners). Win rate: "
        "the share of the matches a bot won per seat it held, with its 95% CI as bars; "
        "dotted: the fair share (1/players, 1/2 in pairs). Under each table the points a "
        "bot's side scores per hand." + search_caption(data, groups) + " "
        + table_prints(data) + R.source(data, f"{_matches(data.matches)} per table"))
    fig = R.landscape_page(title, caption)
    ax = fig.subplots(1, 1)
    ticks, labels = [], []
    hatches = {"heuristic": "", "random": HATCHES[1]}
    for g, table in enumerate(TABLES):
        res = data.bots[table]
        stats = {b.name: b for b in res.bot_stats()}
        _bar_group(ax, g, [(name, stats[name].win, hatches[name]) for name in KERNEL_BOTS],
                   res.fair_share())
        ppt = [res.summary.points_per_hand(res.names.index(name)) for name in KERNEL_BOTS]
        ticks.append(g)
        labels.append(f"{table_words(table)}\npoints per hand:\n"
                      + "\n".join(f"{name} {e.mean:.1f}" for name, e in zip(KERNEL_BOTS, ppt)))
    for k, (kind, tick, win, other, _) in enumerate(groups):
        g = len(TABLES) + k + 0.3
        _bar_group(ax, g, [(kind, win, HATCHES[2]), (SEARCH_OPPONENT, other, "")], 0.5)
        ticks.append(g)
        labels.append(tick)
    if groups:
        ax.axvline(len(TABLES) - 0.35, color=GREY, lw=0.8)
    ax.set_xticks(ticks, labels, fontsize=7.8)
    ax.set_ylabel("win rate (% of matches won per seat held)")
    ax.set_ylim(0, 130)
    ax.set_yticks(range(0, 101, 20))
    ax.grid(axis="x", visible=False)
    ax.set_axisbelow(True)
    ax.legend(handles=[Patch(fc=LIGHT, ec=INK, label="heuristic"),
                       Patch(fc="white", ec=INK, hatch=HATCHES[1], label="random")]
              + ([Patch(fc="white", ec=INK, hatch=HATCHES[2], label="search bot")]
                 if groups else [])
              + [Line2D([], [], ls=":", color=GREY, lw=1.6, label="fair share")],
              loc="upper right", ncols=4, fontsize=8)
    return Sheet(fig, f"{number:02d}-bot-win-rates", title, caption)


# --------------------------------------------------------------------------
# the lead
# --------------------------------------------------------------------------


#: The height of a two-line label on the lead page, in points of win rate
#: (the panel spans at least 75; room above the highest label: 22).
LEAD_LABEL = 6.5


def lead_advantage(data: TuttiReportData, number: int) -> Sheet:
    rows = {r.table: r for r in data.lead.rows}
    title = "The lead: who wins, by seat"
    caption = (
        f"Heuristic in every seat, {_matches(data.matches)} at each table (numba kernel). "
        "Seats are named by their part in the first hand of a match: the leader plays the "
        "first card, the dealer (the seat before him) plays last to the first trick and, at "
        "3 and 4 players, keeps the card that shows trumps; the next hand is led by the next "
        "seat, a tied hand is replayed with the same leader. Top: the share of matches each "
        "seat won (in pairs its pair), with 95% CIs as bars, and the fair share dotted; "
        "under each table the leader's advantage, his win rate minus the fair share, in "
        "points of win rate. Bottom: the points each seat's side scored per hand dealt. "
        + table_prints(data) + R.source(data, f"{_matches(data.matches)} per table"))
    fig = R.landscape_page(title, caption)
    top, bottom = fig.subplots(2, 1, height_ratios=[1.6, 1])
    width = 0.22
    ticks, labels = [], []
    for g, table in enumerate(TABLES):
        r = rows[table]
        n = len(r.seats)
        xs = g + (np.arange(n) - (n - 1) / 2) * width
        last_at = -np.inf  # where the previous seat's label starts (win rate, %)
        for j, (x, e, p) in enumerate(zip(xs, r.seats, r.points)):
            hatch = "" if j == 0 else DEALER_HATCH if j == n - 1 else HATCHES[j]
            style = dict(color=LIGHT if j == 0 else "white", edgecolor=INK, hatch=hatch, lw=0.7)
            top.bar(x, 100 * e.mean, width * 0.9, **style)
            top.errorbar(x, 100 * e.mean, yerr=[[100 * (e.mean - e.low)], [100 * (e.high - e.mean)]],
                         fmt="none", color=INK, capsize=3, lw=1.0)
            # a label wider than its bar: above the neighbour's where they would meet
            at = 100 * e.high + 1
            if abs(at - last_at) < LEAD_LABEL:
                at = last_at + LEAD_LABEL
            last_at = at
            top.text(x, at, R.estimate_text(e, True, stacked=True),
                     ha="center", va="bottom", fontsize=6.2, bbox=LABEL_BOX)
            bottom.bar(x, p.mean, width * 0.9, **style)
            bottom.errorbar(x, p.mean, yerr=p.ci95, fmt="none", color=INK, capsize=3, lw=1.0)
            bottom.text(x, p.mean + p.ci95 + 2, f"{p.mean:.1f}", ha="center", va="bottom",
                        fontsize=6.5)
        top.plot([xs[0] - width / 2, xs[-1] + width / 2], [100 * r.fair] * 2, ls=":",
                 color=GREY, lw=1.6)
        adv = r.advantage
        ticks.append(g)
        labels.append(f"{table_words(table)}\nleader's advantage\n"
                      f"{R.estimate_text(adv, True, True, unit=' points')}")
    top.set_xticks(ticks, labels, fontsize=8)
    top.set_ylabel("win rate (%)")
    # room above the highest label (two lines) and below the legend
    top.set_ylim(0, max(75, 100 * max(e.high for r in rows.values()
                                      for e in r.seats) + 22))
    bottom.set_xticks(ticks, [table_words(t) for t in TABLES], fontsize=8)
    bottom.set_ylabel("points per hand")
    bottom.set_ylim(0, max(p.mean for r in rows.values() for p in r.points) * 1.3)
    for ax in (top, bottom):
        ax.grid(axis="x", visible=False)
        ax.set_axisbelow(True)
    top.legend(handles=[Patch(fc=LIGHT, ec=INK, label="leader"),
                        Patch(fc="white", ec=INK, hatch=HATCHES[1], label="2nd"),
                        Patch(fc="white", ec=INK, hatch=HATCHES[2], label="3rd"),
                        Patch(fc="white", ec=INK, hatch=DEALER_HATCH, label="dealer"),
                        Line2D([], [], ls=":", color=GREY, lw=1.6, label="fair share")],
               loc="upper right", ncols=5, fontsize=7.5)
    return Sheet(fig, f"{number:02d}-lead", title, caption)


# --------------------------------------------------------------------------
# the exchange and declaring
# --------------------------------------------------------------------------


def options_value(data: TuttiReportData, number: int) -> Sheet:
    n = data.sizes
    rows = ([("the trump exchange, 2 players", data.exchange.rows[0])]
            + [(f"declaring, {table_words(r.table)}", r) for r in data.declare.rows])
    title = "What the trump exchange and declaring are worth"
    caption = (
        "Common random numbers: every deal is played once with heuristic in every seat, and "
        "once more for each side with that side never exchanging the trump 7 or 2 for the "
        "trump card (2 players only: there is no stock at 3 and 4), or never declaring (no "
        "20, 40 or Tute; a partner asked to declare passes). The same cards and the same "
        "random numbers, so the difference is what the option is worth to the side that "
        "uses it: left in points per hand, right in hands won (a tied hand is not won), per "
        "deal the mean over the sides, with 95% CIs over the deals. Beside each table: how "
        "often a side exchanged or declared per hand. "
        f"{R.count(n['exchange'], 'deal')} for the exchange, {R.count(n['declare'], 'deal')} per "
        "table for declaring (reference engine). " + table_prints(data)
        + R.source(data, f"{R.count(n['exchange'], 'deal')} and {R.count(n['declare'], 'deal')} "
                        "per table"))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(rows))[::-1]
    for ax, what, scale, xlabel in ((axes[0], "points_value", 1, "points per hand"),
                                     (axes[1], "wins_value", 100,
                                      "hands won (points of win rate)")):
        vals = [getattr(r, what) for _, r in rows]
        mean = np.array([v.mean * scale for v in vals])
        ci = np.array([v.ci95 * scale for v in vals])
        for k, (yi, m) in enumerate(zip(y, mean)):
            ax.barh(yi, m, color=LIGHT if k == 0 else "white", edgecolor=INK, lw=0.7,
                    height=0.6, hatch="" if k == 0 else HATCHES[1])
        ax.errorbar(mean, y, xerr=ci, fmt="o", color=INK, ms=3.5, capsize=3, lw=1.0)
        right = max(float(np.max(mean + ci)), 0.0)
        for yi, m, c in zip(y, mean, ci):
            ax.text(right * 1.04 + 0.01, yi, R.signed(m, c), va="center", fontsize=7.8)
        left = min(float(np.min(mean - ci)), 0.0)
        ax.set_xlim(left * 1.2 - 0.01, right * 1.5 + 0.05)
        ax.axvline(0, color=INK, lw=0.8)
        ax.set_xlabel(xlabel)
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)
    axes[0].set_yticks(y, [f"{label}\nused {r.uses.mean:.2f} times a hand"
                           for label, r in rows], fontsize=8)
    axes[0].set_title("value in points", loc="left")
    axes[1].set_title("value in hands won", loc="left")
    axes[0].legend(handles=[Patch(fc=LIGHT, ec=INK, label="the trump exchange"),
                            Patch(fc="white", ec=INK, hatch=HATCHES[1], label="declaring")],
                   loc="lower right", fontsize=8)
    return Sheet(fig, f"{number:02d}-exchange-and-declaring", title, caption)


# --------------------------------------------------------------------------
# the trump card's rank
# --------------------------------------------------------------------------


def trump_rank(data: TuttiReportData, number: int) -> Sheet:
    n = data.sizes
    by_table: dict = {}
    for r in data.trump.rows:
        by_table.setdefault(r.table, []).append(r)
    title = "Points by the rank of the card that shows trumps"
    caption = (
        f"Single hands with heuristic in every seat, {R.count(n['hands'], 'hand')} at each "
        "table (numba kernel), grouped by the rank of the card that shows the trump suit: "
        "at 2 players the trump card face up under the stock (the last card drawn, by the "
        "player who loses the 12th trick, or taken earlier by an exchange); at 3 and 4 "
        "players the dealer's last card, which he shows and keeps. Each side's mean points "
        "per hand, with 95% CIs as bars; the sides are named by their part in the hand "
        "(the leader plays first, the dealer last). Each panel's title gives the share "
        "of hands the leader's side won over all ranks, with its 95% CI. " + _hands_end(data))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(2, 2, sharex=True).ravel()
    for ax, table in zip(axes, TABLES):
        rows = sorted(by_table.get(table, []), key=lambda r: r.rank)
        if not rows:
            ax.set_axis_off()
            continue
        x = np.arange(len(rows))
        for s in range(len(rows[0].points)):
            st = SIDE_STYLE[s]
            mean = np.array([r.points[s].mean for r in rows])
            ci = np.array([r.points[s].ci95 for r in rows])
            ax.errorbar(x, mean, yerr=ci, ls=st["ls"], marker=st["marker"], color=st["color"],
                        ms=4, mfc="white", capsize=2, lw=1.3, label=side_word(table, s))
        won = Estimate.proportion(round(sum(r.leader_wins.mean * r.leader_wins.n for r in rows)),
                                  sum(r.leader_wins.n for r in rows))
        ax.set_xticks(x, [RANK_NAMES[r.rank] for r in rows], fontsize=7.5, rotation=30)
        ax.set_title(f"{table_words(table)}: the leader's side wins "
                     f"{R.estimate_text(won, True)} of hands",
                     loc="left", fontsize=9)
        ax.set_ylabel("points per hand")
        ax.legend(loc="upper right", fontsize=7, ncols=2)
        lo = min(r.points[s].mean for r in rows for s in range(len(r.points)))
        hi = max(r.points[s].mean for r in rows for s in range(len(r.points)))
        ax.set_ylim(lo - 5, hi + (hi - lo) * 0.6 + 8)
    return Sheet(fig, f"{number:02d}-trump-card-rank", title, caption)


# --------------------------------------------------------------------------
# dealt Tutes
# --------------------------------------------------------------------------


def dealt_tute(data: TuttiReportData, number: int) -> Sheet:
    n = data.sizes
    rows = sorted(data.tute.rows, key=lambda r: r.players)
    title = "The chance of a dealt Tute: exact and sampled"
    caption = (
        "A Tute is all four Kings or all four Horses in one hand; here: dealt so (at 2 "
        "players among the 8 cards dealt, before any draw). Exact by counting hands: with N "
        "cards and hands of h, one player holds four given cards with C(N−4, h−4)/C(N, h); "
        "Kings or Horses by inclusion–exclusion, and at the table (some player has one) "
        "likewise over the players. Beside each, the share in "
        f"{R.count(n['deals'], 'deal')} per table size (the engines' own deals): per player "
        "the mean over the seats of a deal (its CI over the deals), at the table the share "
        "of deals. Thick line: exact; circle and bars: sampled mean and 95% CI. "
        + R.source(data, f"{R.count(n['deals'], 'deal')} per table size"))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(1, 2)
    for ax, what, label in ((axes[0], "player", "a given player is dealt a Tute"),
                            (axes[1], "table", "some player at the table is dealt a Tute")):
        tops = []
        for i, r in enumerate(rows):
            exact = float(r.exact_player if what == "player" else r.exact_table)
            est = r.player if what == "player" else r.table
            ax.plot([i - 0.3, i + 0.3], [100 * exact] * 2, color=INK, lw=2.2)
            ax.errorbar(i, 100 * est.mean, fmt="o", color=BLUE, mfc="white", ms=6, capsize=5,
                        lw=1.3, yerr=[[100 * (est.mean - est.low)], [100 * (est.high - est.mean)]])
            # the exact value with the sampled figure's decimals (at least pct's), so
            # that "within its 95% CI" is visibly true of the printed numbers
            least = len(R.pct(exact).rstrip("%").partition(".")[2])
            shown, sampled = R.exact_and_estimate(est, exact, least, percent=True)
            ax.annotate(f"exact {shown}\none hand in {1 / exact:,.0f}\nsampled {sampled}\n"
                        f"{'within' if est.contains(exact) else 'outside'} its 95% CI",
                        (i, 100 * max(exact, est.high)), xytext=(0, 8),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7.5)
            tops.append(100 * max(exact, est.high))
        ax.set_xticks(range(len(rows)), [f"{r.players} players" for r in rows])
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.set_ylim(0, max(tops) * 1.6)
        ax.set_ylabel("chance per hand (%)")
        ax.set_title(label, loc="left", fontsize=9.5)
        ax.grid(axis="x", visible=False)
    axes[0].legend(handles=[Line2D([], [], color=INK, lw=2.2, label="exact"),
                            Line2D([], [], color=BLUE, marker="o", mfc="white", ls="none",
                                   label="sampled, 95% CI")], loc="upper left", fontsize=8)
    return Sheet(fig, f"{number:02d}-dealt-tute", title, caption)


# --------------------------------------------------------------------------
# points per hand
# --------------------------------------------------------------------------


def _est(values) -> tuple[float, float]:
    """Mean and 95% CI of a sample."""
    v = np.asarray(values, dtype=np.float64)
    return float(v.mean()), 1.959963984540054 * float(v.std(ddof=1)) / np.sqrt(len(v))


def points_per_hand(data: TuttiReportData, number: int) -> Sheet:
    n = data.sizes
    title = "Points per hand"
    caption = (
        f"Single hands with heuristic in every seat, {R.count(n['hands'], 'hand')} at each "
        "table (numba kernel). A side (a player, or a pair) scores the card points of the "
        "tricks it won, 10 for the last trick and its declarations; a hand holds 130 points "
        "besides the declarations. Left: every side of every hand, share per bin of 10 "
        "points; the legend gives each table's mean with its 95% CI (over the hands, of the "
        "mean over the sides), the median, and the points declared per hand (hands a Tute "
        "ended left out). Right: the points of the side that won the hand (tied hands left "
        "out): what it takes to win, with its mean and median. " + _hands_end(data))
    fig = R.landscape_page(title, caption)
    left, right = fig.subplots(1, 2, sharey=True)
    hi = max(int(hp.points.max()) for hp in data.points.values())
    bins = np.arange(0, hi + 20, 10)
    mid = (bins[:-1] + bins[1:]) / 2
    for table in TABLES:
        hp = data.points[table]
        st = dict(ls=TABLE_STYLE[table]["ls"], marker=TABLE_STYLE[table]["marker"],
                  color=TABLE_STYLE[table]["color"], ms=3.5, mfc="white", lw=1.4)
        m, c = _est(hp.points.mean(axis=1))
        d = float(hp.declared[~hp.tute].mean())
        left.plot(mid, 100 * np.histogram(hp.points.ravel(), bins=bins)[0] / hp.points.size,
                  label=f"{table_words(table)}: mean {R.pm(m, c)}, median "
                        f"{np.median(hp.points):,.0f}; {d:.1f} declared", **st)
        won = hp.winners_points()
        m, c = _est(won)
        right.plot(mid, 100 * np.histogram(won, bins=bins)[0] / len(won),
                   label=f"{table_words(table)}: mean {R.pm(m, c)}, median {np.median(won):,.0f}",
                   **st)
    for ax, what in ((left, "a side's points in a hand"), (right, "the winner's points")):
        ax.set_xlim(0, bins[-1])
        ax.set_ylim(bottom=0)
        ax.set_xlabel(f"{what} (bins of 10)")
        ax.legend(loc="upper right", fontsize=7.3)
    left.set_ylabel("share (%)")
    left.set_title("every side", loc="left")
    right.set_title("the side that won the hand", loc="left")
    return Sheet(fig, f"{number:02d}-points-per-hand", title, caption)


# --------------------------------------------------------------------------
# a tournament CSV (--tournament)
# --------------------------------------------------------------------------


def tournament(data: TuttiReportData, number: int) -> Sheet:
    """The shared tournament page; its rules are compared with the report's
    options at the tournament's table (the 2-player table if the file does not say)."""
    t = data.tournament
    rules = data.at({3: "3", 4: "4"}.get(t.players, "2"))
    return R.tournament_sheet(t, rules, number, R.report_footer(data.rules))


#: The report's pages in order (the tournament page follows when given).
def bot_ladder(data: TuttiReportData, number: int) -> Sheet:
    """The saved 2-player ladder of every bot (``report_data.saved_ladder``)."""
    d = data.ladder
    title = "Bot ladder"
    if d is None:
        caption = ("No saved ladder fits these rules (tutto_sim/data/ladders/tutti-2p.json is "
                   "played under the default rules); tutto-sim ladder --game tutti with the "
                   "same options plays one. " + table_prints(data) + R.source(data))
        fig = R.landscape_page(title, caption)
        return Sheet(fig, f"{number:02d}-bot-ladder", title, caption)
    best = d["ranking"][0]
    honest = next(n for n in d["ranking"] if n != "cheat")
    words = "; ".join(f"{n}: " + ("it " if n in ("pimc", "ismcts", "expert", "cheat") else "")
                      + BOT_WORDS[n] for n in d["ranking"] if n in BOT_WORDS)
    caption = (
        f"Every bot against every other at 2 players, single hands, {d['games_per_pair']:,} "
        f"matches per pair with the seats rotated ({d['games']:,} in all, seed {d['seed']}), "
        "at each bot's default budget (counts, not time): a saved run "
        f"(tutto_sim/data/ladders/{LADDER_FILE}: the ladder docs/tutti.md quotes with its command, "
        f"'How strong can a bot get', played on {d['machine']}, {d['measured_on']}), since the search bots need more time than the report takes. "
        f"The best honest bot is {honest}" + ("; only cheat, which sees every card, is above "
                                              "it" if best == "cheat" else "") + ". "
        f"Bots: {words}. Left: each bot's rating (Elo scale, the bots' mean at 0; 100 points "
        "apart is a 64% chance for the stronger of two) with its 95% CI, fitted to every "
        "match by the Bradley-Terry model. Right: the row bot's win rate against the column "
        "bot with its 95% CI (Wilson). " + table_prints(data) + R.source(data))
    fig = R.landscape_page(title, caption)
    R.ladder_panels(fig, d)
    return Sheet(fig, f"{number:02d}-bot-ladder", title, caption)


PAGES = (bot_win_rates, lead_advantage, options_value, trump_rank, dealt_tute, points_per_hand,
         bot_ladder)
