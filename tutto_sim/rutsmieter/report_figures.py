"""The pages of the Rutsmieter report, one function per page.

Each function takes the :class:`~tutto_sim.rutsmieter.report_data.RutsmieterReportData`
and returns a :class:`~tutto_sim.core.report.Sheet`; nothing here computes a
result, except the words and board diagrams of the cheat sheet from the
choices already sampled.

Black and white first: series differ by hatching, line style and marker, the
pieces of the board diagrams by their shape; the colours (Okabe-Ito) only
add to that.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, Patch

from tutto_sim import __version__
from tutto_sim.core import report as R
from tutto_sim.core.report import (
    BLUE, GREEN, GREY, HATCHES, INK, LABEL_BOX, LIGHT, ORANGE, PORTRAIT, Sheet,
)

from .policy import FEATURES, FEATURES_V1, POSITION_FEATURES, full_weights
from .report_data import (
    EXPERT_ROLLOUTS,
    MAX_EXAMPLES,
    TABLE_SIZES,
    TOURNAMENT_PLAYERS,
    Choice,
    RutsmieterReportData,
    examples,
)
from .rules import FIRST_GOAL, HOUSE, RING, SEAT_SPACING, table_rules
from .words import FEATURE_SHORT, FEATURE_WORDS, RULE_WORDS, feature_value_words, rule_words


#: The bots in a few words, for captions.
BOT_WORDS = {
    "random": "any allowed move at random",
    "first": "the piece furthest along",
    "last": "the piece least far along",
    "aggressive": "a capture if it can (of the piece furthest along), else like first",
    "defensive": "the move that leaves the fewest threats to its pieces, then like first",
    "tuned": "the weights of the cheat sheet",
}
#: Play order after the player to move, as the board diagrams label the others.
OPPONENT_STYLE = (dict(marker="s", color=BLUE), dict(marker="^", color=ORANGE),
                  dict(marker="D", color=GREEN))
#: Table sizes: line styles and markers that stay apart in black and white.
SIZE_STYLE = {2: dict(ls="-", marker="o", color=INK),
              3: dict(ls="--", marker="s", color=BLUE),
              4: dict(ls=":", marker="^", color=ORANGE)}


def _fmt_weight(w: float) -> str:
    """A weight as a signed number with up to 3 significant digits: +30, −4, +0.5."""
    return f"{w:+.3g}".replace("-", "−")


def table_prints(data: RutsmieterReportData, sizes) -> str:
    """The fingerprints of the same house rules at the smaller tables of ``sizes``."""
    other = [p for p in sizes if p != data.rules.players]
    if not other:
        return ""
    items = [f"at {p} players {table_rules(data.rules, p).digest()[:12]}" for p in other]
    return "Rules fingerprint of the same house rules " + "; ".join(items) + ". "


def _games(n: int, what: str = "game") -> str:
    return R.count(n, what)


DOC = "docs/rutsmieter.md"
TITLE = "Rutsmieter: bots, house rules and how to move"


def intro(data: RutsmieterReportData) -> str:
    """The index page's first paragraph."""
    return (f"Rutsmieter (docs/rutsmieter.md): the built-in bots and the tuned policy in "
            f"tournaments, the house rules, game length and seats, simulated "
            f"({R.count(data.games, 'game')} per table, seed {data.seed}), and the exact figures "
            f"beside their simulation checks; {R.rules_label(data.rules)}. "
            "What each page shows: docs/reports.md.")


# --------------------------------------------------------------------------
# the cover (PDF only)
# --------------------------------------------------------------------------


def cover_caption(data: RutsmieterReportData) -> str:
    """The cover's caption: where the figures come from."""
    return (f"tutto-sim {__version__}. Simulated figures come from the numba kernel "
            f"({_games(data.games)} per table, seed {data.seed}) and the reference engine "
            "(the exact checks and the cheat sheet's sample); exact figures from the Markov "
            f"chains of docs/rutsmieter.md. {R.sentence(R.rules_label(data.rules))}.")


def summary(data: RutsmieterReportData) -> str:
    """The cover's summary: the report's main findings in a few sentences."""
    two = data.bots[2].bot_stats()[0]
    four = data.bots[4].bot_stats()[0]
    return (f"Best bot at 2 players: {two.name}, winning {R.estimate_text(two.win, True)} "
            f"of its games; at 4 players: {four.name}, {R.estimate_text(four.win, True)} "
            f"(fair share 25%). With one piece each, the first of two players wins "
            f"{data.exact.duel.p_first_wins:.4%} (exact). Alone, bringing all four pieces "
            f"home takes {data.exact.solo.optimal:.2f} throws on average with the "
            "fewest-throws play (exact).")


# --------------------------------------------------------------------------
# the cheat sheet: how the tuned bot moves
# --------------------------------------------------------------------------

def ranked_features(weights) -> list[str]:
    """The features by the size of their weight, largest first (zero weights last,
    ties in the order of the policy file)."""
    weights = full_weights(weights)
    return sorted(FEATURES, key=lambda f: -abs(weights[FEATURES.index(f)]))


def weight_sentence(feature: str, w: float, progress: float, rules=None) -> str:
    """A weight in players' words: "Prefers capturing a piece: +30 for a capture
    (as much as walking 30 squares)."; a zero weight is "Ignores ...", or,
    where the house rules leave no choice about it (:func:`idle_reason`),
    "Capturing a piece: no weight, ..."."""
    what, unit = FEATURE_WORDS[feature]
    if w == 0:
        if rules is not None and idle_reason(feature, rules):
            return f"{R.sentence(what)}: no weight, as the house rules leave no choice about it."
        return f"Ignores {what}."
    verb = "Prefers" if w > 0 else "Avoids"
    text = f"{verb} {what}: {_fmt_weight(w)} {unit}"
    if feature != "progress" and progress > 0:
        squares = abs(w) / progress
        text += f" (as much as walking {squares:.3g} {'square' if squares == 1 else 'squares'})"
    return text + "."


def idle_reason(feature: str, rules) -> str | None:
    """Why a weight can never decide a choice under ``rules`` (the obligations
    leave no choice where it differs), or None."""
    if feature == "capture" and rules.must_capture:
        return "with must capture on, a capture never competes with a move that does not"
    if feature == "leave_house" and rules.must_leave_house:
        return "with must leave the house on, a 6 brings a piece out whenever it can"
    if feature == "block_start" and rules.must_leave_house:
        return ("with must leave the house on, the piece on the start square moves first "
                "whenever it can")
    if feature == "progress" and rules.must_leave_house:
        return "one throw walks every piece equally far; only coming out differs, and that is forced"
    if feature == "own_progress" and rules.must_leave_house:
        return "every move adds the throw to your squares; only coming out differs, and that is forced"
    if feature == "own_house" and rules.must_leave_house:
        return "your house empties only by coming out, and that is forced"
    if feature == "opp_house" and rules.must_capture:
        return "their houses fill only by a capture, and with must capture on that is forced"
    if feature == "capture_leader" and rules.must_capture and rules.players == 2:
        return "with one opponent every capture hits the leader, and captures are forced"
    if feature == "lead_goal":
        return "no move of yours changes an opponent's goal lane"
    return None


def decided_words(data: RutsmieterReportData, feature: str) -> str:
    n = len(data.choices.choices)
    k = data.choices.decided(feature)
    if k == 0:
        why = idle_reason(feature, data.rules)
        return "decided no choice" + (f": {why}" if why else "")
    return f"decided {k:,} of {n:,} choices ({R.pct(k / n)})"


def move_words(move, die: int) -> str:
    """A move as a player says it (positions counted from the own start square)."""
    if move.start == HOUSE:
        text = "a piece out of the house onto the start square"
    else:
        where = "on the start square" if move.start == 0 else f"{move.start} squares along"
        dest = (f"goal square {move.end - FIRST_GOAL + 1}" if move.end >= FIRST_GOAL
                else f"square {move.end}")
        text = f"the piece {where} to {dest}"
    if move.victim is not None:
        text += ", capturing"
    return text


def feature_phrase(feature: str, value: int, w: float) -> str:
    """What a move's feature value means, with its points: "2 opponent pieces can reach it (−8)"."""
    points = w * value
    return feature_value_words(feature, value) + (f" ({_fmt_weight(points)})" if points else "")


def example_text(label: str, feature: str, choice: Choice, weights) -> list[str]:
    """The words beside a worked example: the moves, why the tuned bot picks one."""
    moves = choice.obs.moves
    weights = full_weights(weights)
    # the features that tell the moves apart and weigh something (the others add nothing)
    differs = [k for k, f in enumerate(FEATURES)
               if len({fs[k] for fs in choice.features}) > 1 and weights[k] != 0]
    lines = [f"{label}: {FEATURE_SHORT[feature]}. You threw {choice.obs.die}."]
    for i, m in enumerate(moves):
        parts = [feature_phrase(FEATURES[k], choice.features[i][k], weights[k])
                 for k in differs]
        lines.append(f"{'ABCD'[i]}: {move_words(m, choice.obs.die)}"
                     + (f"; {'; '.join(parts)}" if parts else "") + ".")
    # what every move shares, so that each score is the sum of the points listed
    shared = [k for k in range(len(FEATURES))
              if k not in differs and weights[k] * choice.features[0][k] != 0]
    if shared:
        who = "Both moves" if len(moves) == 2 else "Every move"
        # what the move does one by one; the position alike after every move in one sum
        alike = [k for k in shared if FEATURES[k] in POSITION_FEATURES]
        parts = [feature_phrase(FEATURES[k], choice.features[0][k], weights[k])
                 for k in shared if k not in alike]
        rest = sum(weights[k] * choice.features[0][k] for k in alike)
        if alike and rest:
            parts.append(f"the rest of the position alike ({_fmt_weight(rest)})")
        if parts:
            lines.append(f"{who}: " + "; ".join(parts) + ".")
    best = choice.chosen
    scores = " against ".join(f"{s:.3g}".replace("-", "−") for s in
                              [choice.scores[best]] + [s for i, s in enumerate(choice.scores)
                                                       if i != best])
    if feature == "tie":
        lines.append(f"Tuned moves {'ABCD'[best]}: equal scores ({scores}), so the piece "
                     "furthest along.")
    else:
        k = FEATURES.index(feature)
        lines.append(f"Tuned moves {'ABCD'[best]} (score {scores}); without the weight for "
                     f"{FEATURE_WORDS[feature][0]} it would move {'ABCD'[choice.without[k]]}.")
    return lines


def _angle(square: float, base: int) -> float:
    """Angle (radians) of a ring square on the diagram: the mover's start square
    at the bottom, play going clockwise."""
    return math.radians(-90 - (square - base) * 360 / RING)


def _xy(square: float, base: int, radius: float = 1.0) -> tuple[float, float]:
    a = _angle(square, base)
    return radius * math.cos(a), radius * math.sin(a)


def piece_xy(seats, player: int, k: int, x: int, base: int) -> tuple[float, float]:
    """Where piece ``k`` of ``player`` at position ``x`` sits on the diagram."""
    seat = seats[player]
    start = SEAT_SPACING * seat
    if x == HOUSE:
        r = 1.22 + 0.14 * (k // 2)
        return _xy(start - 2.0 - 1.1 * (k % 2), base, r)
    if x >= FIRST_GOAL:
        return _xy(start - 0.5, base, 0.84 - 0.13 * (x - FIRST_GOAL))
    return _xy((start + x) % RING, base)


#: Where a player's name sits on a board diagram: squares behind its start
#: square and the radius (the ring is 1, the house's pieces reach 1.36).
LABEL_SQUARES = 4.6
LABEL_RADIUS = 1.55


def board_diagram(ax, choice: Choice) -> None:
    """A small board: the ring, start squares, goal lanes, houses, every piece
    (you: black dots; the opponents in play order: square, triangle, diamond)
    and the moves A, B, ... as arrows (the tuned bot's move solid)."""
    obs = choice.obs
    seats, me = obs.seats, obs.player
    base = SEAT_SPACING * seats[me]
    n = len(seats)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_xlim(-1.68, 1.68)
    ax.set_ylim(-1.68, 1.68)
    for q in range(RING):
        ax.add_patch(Circle(_xy(q, base), 0.045, fc="white", ec=GREY, lw=0.5))
    for p in range(n):
        start = SEAT_SPACING * seats[p]
        ax.add_patch(Circle(_xy(start, base), 0.07, fc="none", ec=INK, lw=1.0))
        for g in range(4):
            ax.add_patch(Circle(_xy(start - 0.5, base, 0.84 - 0.13 * g), 0.045, fc=LIGHT,
                                ec=GREY, lw=0.5))
        for k in range(4):
            ax.add_patch(Circle(piece_xy(seats, p, k, HOUSE, base), 0.05, fc="none",
                                ec=LIGHT, lw=0.5, ls=":"))
        rel = (p - me) % n
        name = "you" if rel == 0 else f"opp. {rel}"
        # beyond the house (which sits 2-3 squares behind the start), clear of its pieces
        tx, ty = _xy(start - LABEL_SQUARES, base, LABEL_RADIUS)
        ax.text(tx, ty, name, ha="center", va="center", fontsize=6.5,
                weight="bold" if rel == 0 else "normal")
    for p in range(n):
        rel = (p - me) % n
        style = dict(marker="o", color=INK) if rel == 0 else OPPONENT_STYLE[(rel - 1) % 3]
        for k, x in enumerate(obs.pieces[p]):
            px, py = piece_xy(seats, p, k, x, base)
            ax.plot(px, py, ls="none", ms=6.5 if rel == 0 else 5.5, mec=INK, mew=0.8,
                    mfc=style["color"] if rel == 0 else "white", marker=style["marker"],
                    zorder=4)
            if rel:
                ax.plot(px, py, ls="none", ms=2.5, marker=style["marker"],
                        color=style["color"], zorder=5)
    for i, m in enumerate(obs.moves):
        a = piece_xy(seats, me, m.piece, m.start, base)
        b = piece_xy(seats, me, m.piece, m.end, base)
        chosen = i == choice.chosen
        ax.add_patch(FancyArrowPatch(
            a, b, connectionstyle="arc3,rad=-0.35", arrowstyle="-|>", mutation_scale=9,
            lw=1.6 if chosen else 0.9, ls="-" if chosen else (0, (3, 2)),
            color=INK if chosen else GREY, zorder=6))
        lx, ly = b
        ax.text(lx * 1.0 + (0.11 if lx >= 0 else -0.11), ly + 0.09, "ABCD"[i],
                fontsize=8, weight="bold", ha="center", va="center", zorder=7,
                bbox=dict(fc="white", ec=INK if chosen else GREY, lw=0.6,
                          boxstyle="circle,pad=0.15"))
    ax.text(0, 0.02, f"throw\n{obs.die}", ha="center", va="center", fontsize=9,
            weight="bold")


def weight_lists(policy, rules) -> tuple[list[str], list[str]]:
    """The cheat sheet's features: those it lists one by one (every weight that is
    not 0, ranked by size, those the house rules make idle after the others,
    then the zero weights the house rules make idle) and those it names in one
    line as ignored."""
    w = policy.weights
    order = ranked_features(w)
    nonzero = [f for f in order if w[FEATURES.index(f)] != 0]
    listed = [f for f in nonzero if not idle_reason(f, rules)]
    listed += [f for f in nonzero if idle_reason(f, rules)]
    # a file of the first seven weights only: the newer features stay in the one
    # line that says the position after the move counts for nothing
    only_v1 = not any(w[FEATURES.index(f)] for f in FEATURES[len(FEATURES_V1):])
    listed += [f for f in order if w[FEATURES.index(f)] == 0 and idle_reason(f, rules)
               and not (only_v1 and f not in FEATURES_V1)]
    return listed, [f for f in order if f not in listed]


def ignored_sentence(ignored: list[str]) -> str:
    """The zero weights in one sentence: "Ignores landing just behind opponents.";
    a file of the first seven weights only weighs what the move itself does
    (the position after it counts for nothing), said once for all of those."""
    if not ignored:
        return ""
    after = FEATURES[len(FEATURES_V1):]
    only_v1 = set(ignored) >= set(after)
    names = [FEATURE_WORDS[f][0] for f in ignored if not (only_v1 and f in after)]
    text = ""
    if names:
        listed = names[0] if len(names) == 1 else "; ".join(names[:-1]) + " and " + names[-1]
        text = f"Ignores {listed}."
    if only_v1:
        text += (" Weighs only what the move itself does (a policy file of the first "
                 f"{len(FEATURES_V1)} weights): the position after the move counts for nothing.")
    return text.strip()


#: Weights the cheat sheet words in full, one a line; the smaller ones share a paragraph.
FULL_LINES = 8


def smaller_weights(data, features: list[str]) -> str:
    """The smaller weights in one paragraph: "Smaller weights (...): the squares
    your pieces have come in all +0.26 (decided none); ..."."""
    if not features:
        return ""
    w = data.policy.weights
    n = len(data.choices.choices)
    items = []
    for f in features:
        k = FEATURES.index(f)
        decided = data.choices.decided(f)
        items.append(f"{FEATURE_WORDS[f][0]} {_fmt_weight(w[k])} "
                     f"({'decided none' if decided == 0 else f'decided {R.pct(decided / n)}'})")
    return "Smaller weights (units as in docs/rutsmieter.md): " + "; ".join(items) + "."


def table_words(policy, players: int) -> str:
    """Which weights the sheet teaches: "the weight set for 2 players" where the file
    has one per table size, else "the file's one weight set (every table size)"."""
    if players in dict(policy.by_players):
        return f"the weight set for {players} players"
    return "the file's one weight set (every table size plays it)"


def cheat_sheet(data: RutsmieterReportData, number: int) -> Sheet:
    policy = data.policy
    w = policy.weights
    progress = w[FEATURES.index("progress")]
    ch = data.choices
    listed, ignored = weight_lists(policy, data.rules)
    position = any(w[FEATURES.index(f)] for f in POSITION_FEATURES)
    worked = examples(ch, [f for f in ranked_features(w) if w[FEATURES.index(f)] != 0],
                      limit=2 if position else MAX_EXAMPLES)
    four_words = four_player_words(data)
    title = f"How to move at {ch.players} players: the tuned bot's policy"
    caption = (
        "At every throw that leaves a choice, the tuned bot scores each move it may make by "
        "adding up the points above for what the move does and for the position it leaves, "
        "and makes the move with the highest score; equal scores go to the piece furthest "
        f"along. Weights: {table_words(policy, ch.players)} of {_policy_file(policy)}, "
        "ranked by size (a report for another table size teaches that table's: "
        "docs/reports.md). "
        f"'Decided': among {_games(ch.games)} of tuned "
        f"in every seat at {ch.players} players (reference engine, {ch.throws:,} throws, "
        f"{len(ch.choices):,} throws with two or more allowed moves), the choices whose move "
        "changes when that weight is set to 0. Examples: the first such choice in those "
        "games for each weight (two moves where possible); positions are counted from your "
        "start square (goal squares 1–4 after square 39); 'come' counts the squares a piece "
        "has walked from its start square, coming out as 1. Diagrams: your start square at "
        "the bottom, play runs clockwise; black dots: your pieces; square, triangle, diamond: "
        "the opponents in the order they throw after you; grey: goal lanes; dotted: houses; "
        "solid arrow: the tuned bot's move, dashed: the others. "
        + (four_words + " " if four_words else "")
        + R.source(data, "game 0" if ch.games == 1 else f"games 0–{ch.games - 1:,}"))
    fig, band = R.new_figure(*PORTRAIT, caption)
    fig.set_layout_engine("none")
    width, height = PORTRAIT
    fig.suptitle(title, fontsize=14, weight="bold", y=0.988)
    line = 1.27 / 72 / height  # a line of 1 pt type, in figure fractions
    y = 0.955
    fig.text(0.05, y, "What the tuned bot weighs, strongest first", fontsize=11,
             weight="bold", va="top")
    y -= 24 * line
    size, small = (8.4, 7.6) if len(listed) <= FULL_LINES else (7.6, 6.9)
    wrap, wrap_decided = (80, 46) if len(listed) <= FULL_LINES else (88, 50)
    for rank, f in enumerate(listed[:FULL_LINES], 1):
        k = FEATURES.index(f)
        text = textwrap.wrap(weight_sentence(f, w[k], progress, data.rules), wrap)
        decided = textwrap.wrap(decided_words(data, f), wrap_decided)
        fig.text(0.05, y, f"{rank}.", fontsize=size, va="top", weight="bold")
        fig.text(0.08, y, "\n".join(text), fontsize=size, va="top", linespacing=1.27)
        fig.text(0.665, y, "\n".join(decided), fontsize=small, va="top", color="#333333",
                 linespacing=1.27)
        y -= max(size * len(text), small * len(decided)) * line + 0.008 * size / 8.4
    ties = ch.ties()
    notes = [smaller_weights(data, listed[FULL_LINES:]), ignored_sentence(ignored),
             f"Equal scores: the piece furthest along moves ({ties:,} of "
             f"{len(ch.choices):,} choices, {R.pct(ties / max(len(ch.choices), 1))})."]
    for note in filter(None, notes):
        text = textwrap.wrap(note, 100 if size > 8 else 112)
        fig.text(0.05, y, "\n".join(text), fontsize=size, va="top", linespacing=1.27)
        y -= size * len(text) * line + 0.006
    y -= 0.006
    if four_words:  # the sheet teaches a 2-player policy: say where it is weaker
        note = textwrap.wrap(four_words + " (Bot win rates page.)", 100)
        fig.text(0.05, y, "\n".join(note), fontsize=8.4, va="top", weight="bold",
                 linespacing=1.27)
        y -= 8.4 * 1.27 * len(note) * line + 0.012
    fig.text(0.05, y, "Worked examples from real games", fontsize=11, weight="bold", va="top")
    y -= 16 * line
    cell_h = (y - band - 0.01) / 2
    board = min(cell_h * height - 0.3, 2.05)  # inches
    wide = len(worked) <= 2  # one example a row, its words beside the board in full width
    for i, (feature, choice) in enumerate(worked):
        x0 = 0.03 if wide else 0.03 + 0.485 * (i % 2)
        top = y - cell_h * (i if wide else i // 2)
        lines = example_text(f"Example {i + 1}", feature, choice, w)
        fig.text(x0 + 0.01, top, lines[0], fontsize=8.6, weight="bold", va="top")
        ax = fig.add_axes((x0, top - 13 * line - board / height, board / width,
                           board / height))
        board_diagram(ax, choice)
        wrapped = []
        for j, s in enumerate(lines[1:]):
            wrapped += textwrap.wrap(s, 92 if wide else 32,
                                     subsequent_indent="   " if j < len(lines) - 2 else "")
        # the words shrink to stay inside their cell (down to 6 pt)
        room = (cell_h - 16 * line - 0.006) * height * 72  # points
        size = min(6.9 if wide else 7.1, max(6.0, room / (1.22 * 1.17 * len(wrapped))))
        fig.text(x0 + board / width + 0.005, top - 16 * line, "\n".join(wrapped),
                 fontsize=size, va="top", linespacing=1.22)
    return Sheet(fig, f"{number:02d}-how-to-move", title, caption)


def _policy_file(policy) -> str:
    return _named_file(policy.source)


def _named_file(path) -> str:
    """A shipped policy file as a path in the package (tutto_sim/data/policies/...), another
    by its name."""
    from pathlib import Path

    from tutto_sim.core.bots import DATA_DIR

    p = Path(path).resolve()
    return (Path("tutto_sim") / p.relative_to(DATA_DIR.parent)).as_posix() if p.is_relative_to(DATA_DIR) else p.name


# --------------------------------------------------------------------------
# bots
# --------------------------------------------------------------------------


def _rate_bars(ax, rows, order, fair: float | None, hatch: str = "") -> None:
    """Horizontal bars of win rates with 95% CIs, in ``order`` (top first)."""
    by = {b.name: b for b in rows}
    names = [n for n in order if n in by]
    y = np.arange(len(names))[::-1]
    est = [by[n].win for n in names]
    rate = np.array([e.mean for e in est])
    high = np.array([e.high for e in est])  # Wilson: the interval stays inside 0..1
    ax.barh(y, rate, color=LIGHT, edgecolor=INK, lw=0.6, height=0.62, hatch=hatch)
    ax.errorbar(rate, y, xerr=[rate - np.array([e.low for e in est]), high - rate], fmt="o",
                color=INK, ms=3.5, capsize=3, lw=1.0)
    for yi, e in zip(y, est):
        ax.text(e.high + 0.012, yi, R.estimate_text(e, True), va="center", fontsize=8,
                bbox=LABEL_BOX)  # on white: the fair-share line stops at the label
    ax.set_yticks(y, names)
    if fair is not None:
        ax.axvline(fair, ls=":", color=GREY, lw=1.4)
    right = max(high) * 1.45 + 0.03
    ax.set_xlim(0, right)
    ticks = [x for x in np.arange(0, 1.01, 0.2 if right > 0.6 else 0.1) if x <= right]
    ax.set_xticks(ticks, [f"{100 * x:.0f}%" for x in ticks])
    ax.set_xlabel("win rate (share of games won per seat held)")
    ax.grid(axis="y", visible=False)
    ax.set_axisbelow(True)


@dataclass(frozen=True)
class _Row:
    """A bar of :func:`_rate_bars`: a bot's name and win rate."""

    name: str
    win: object  # core.stats.Estimate


def expert_rows(data: RutsmieterReportData) -> tuple[list, str, str] | None:
    """The expert's panel: (bars, panel title, caption words), from the saved
    measurement at its own budget where one fits the report's house rules,
    else from the report's short match with a small budget; None without
    either."""
    from .expert import DEFAULT_ROLLOUTS

    what = ("the expert (each allowed move tried out in games of tuned play to the end "
            "from the position after it, the move that wins most often)")
    m = data.saved_expert
    if m is not None:
        rows = [_Row("expert", m.win), _Row("tuned", m.other)]
        title = (f"expert, {m.budget:,} games per move (its own)\n"
                 f"vs tuned, 2 players, {_games(m.n)}, saved")
        words = (f" Bottom right: {what} at its own budget of {m.budget:,} such games per "
                 f"move against tuned, {_games(m.n)} at 2 players, each bot beginning half of "
                 f"them, seed {m.seed}: the match the README and docs/rutsmieter.md ('The "
                 "expert bot') quote, played once by the command in "
                 f"tutto_sim/data/measured/{m.path.name} and saved there (it takes far longer than "
                 "this report).")
        return rows, title, words
    if data.expert is None:
        return None
    rows = data.expert.bot_stats()
    title = (f"expert, {EXPERT_ROLLOUTS} games per move (small budget)\n"
             f"vs tuned, 2 players, {_games(data.expert.games)}")
    words = (f" Bottom right: {what} with a small budget of {EXPERT_ROLLOUTS} such games per "
             f"move (its own is {DEFAULT_ROLLOUTS:,}) against tuned, "
             f"{_games(data.expert.games)} at 2 players, each bot beginning half of them: too "
             "small a budget and too few games to show its strength (no saved measurement at "
             "its own budget was made under these house rules).")
    return rows, title, words


def four_player_words(data: RutsmieterReportData) -> str:
    """Where tuned stands at 4 players, if other bots win more there: "At 4
    players tuned (29.3 [28.7, 29.9]%) finishes behind first, aggressive and
    defensive (34.8–36.6%): ..."; "" if it wins most or the policy file has
    a weight set of its own for 4 players."""
    if 4 not in data.bots or 4 in dict(data.policy.by_players):
        return ""
    four = data.bots[4].bot_stats()
    by = {b.name: b for b in four}
    if "tuned" not in by:
        return ""
    tuned = by["tuned"].win
    ahead = [b for b in four if b.name != "tuned" and b.win.mean > tuned.mean]
    if not ahead:
        return ""
    names = [b.name for b in ahead]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    lo, hi = min(b.win.mean for b in ahead), max(b.win.mean for b in ahead)
    span = f"{100 * lo:.1f}%" if len(ahead) == 1 else f"{100 * lo:.1f}–{100 * hi:.1f}%"
    return (f"At 4 players tuned ({R.estimate_text(tuned, True)}) finishes behind "
            f"{listed} ({span}): its weights were tuned at 2 players, and no stronger "
            "four-player policy exists yet.")


def bot_win_rates(data: RutsmieterReportData, number: int) -> Sheet:
    two, four = data.bots[2], data.bots[4]
    order = [b.name for b in two.bot_stats()]
    expert = expert_rows(data)
    has_expert = expert is not None
    title = "Bot win rates"
    bots_words = "; ".join(f"{n}: {BOT_WORDS[n]}" for n in order)
    expert_part = expert[2] if has_expert else ""
    four_words = four_player_words(data)
    caption = (
        f"Tournaments of the built-in bots and tuned ({bots_words}), "
        f"{_games(data.games)} at each table size in the numba kernel, every lineup of bots "
        f"in every seating {R.evenly(data.games, data.bots.values())}. Win rate: the share of "
        "the games a bot won per seat it held, with its 95% CI as bars; dotted: the fair "
        "share (1/players). Left: 2 players (every pair of bots); middle: 4 players (every "
        "four of the six bots); right: 2 players, the row bot's win rate against the column "
        "bot." + expert_part + (" " + four_words if four_words else "")
        + (" The bot ladder (last page) rates every bot at 2, 3 and 4 players from saved runs."
           if data.ladders else "") + " "
        + table_prints(data, TOURNAMENT_PLAYERS)
        + R.source(data, f"{_games(data.games)} per table"))
    fig = R.landscape_page(title, caption)
    if has_expert:
        grid = fig.add_gridspec(2, 3, height_ratios=[3, 1])
        a, b = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[:, 1])
        c, d = fig.add_subplot(grid[0, 2]), fig.add_subplot(grid[1, 2])
    else:
        a, b, c = fig.subplots(1, 3, width_ratios=[1.1, 1.1, 1.2])
    _rate_bars(a, two.bot_stats(), order, 0.5)
    a.set_title("2 players", loc="left")
    _rate_bars(b, four.bot_stats(), order, 0.25, hatch=HATCHES[1])
    b.set_title("4 players", loc="left")
    pw = two.pairwise()
    names = order
    grid_v = np.full((len(names), len(names)), np.nan)
    for i, na in enumerate(names):
        for j, nb in enumerate(names):
            e = pw.get(na, {}).get(nb)
            if e is not None:
                grid_v[i, j] = e.mean
                c.text(j, i, f"{100 * e.mean:.0f}", ha="center", va="center", fontsize=7.5,
                       weight="bold" if e.mean > 0.5 else "normal")
            elif i == j:
                c.text(j, i, "–", ha="center", va="center", fontsize=7.5)
    c.imshow(np.ma.masked_invalid(grid_v), cmap="Greys", vmin=-0.1, vmax=1.6, aspect="auto")
    c.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=7.5)
    c.set_yticks(range(len(names)), names, fontsize=7.5)
    c.set_title("2 players: row against column (win %)", loc="left", fontsize=9)
    c.grid(False)
    if has_expert:
        rows, panel, _ = expert
        _rate_bars(d, rows, [b.name for b in rows], 0.5)
        d.set_title(panel, loc="left", fontsize=8)
        d.set_xlabel("win rate", fontsize=8)
    return Sheet(fig, f"{number:02d}-bot-win-rates", title, caption)


# --------------------------------------------------------------------------
# the bot ladder (saved)
# --------------------------------------------------------------------------


def bot_label(name: str) -> str:
    """A ladder's bot as the page names it: a policy file (``weights:FILE``) by
    the file's name without the game's prefix ("tuned-v1"), the others as they are."""
    from pathlib import Path

    kind, sep, arg = name.partition(":")
    if sep and kind == "weights":
        stem = Path(arg).stem
        return stem.removeprefix("rutsmieter-")
    return name


def bot_words(name: str) -> str:
    """A bot of a ladder in a few words, for the caption."""
    kind, sep, arg = name.partition(":")
    if sep and kind == "weights":
        from .policy import weights_file

        named = _named_file(weights_file(arg))
        return f"the weights of {named if named.startswith('tutto_sim/') else arg}"
    return BOT_WORDS.get(name.split(":")[0], name)


def ladder_command(d: dict) -> str:
    """The command that made a saved ladder, as written in its file."""
    return d.get("command") or f"tutto-sim ladder --game rutsmieter --players {d['players']}"


def command_lines(command: str, width: int) -> list[str]:
    """A command wrapped at spaces, and a word longer than a line (a list of bots)
    after its commas: joined again, a line that ends in a comma runs on without a space.

    >>> command_lines("ladder --bots random,first,last --seed 1", 14)
    ['ladder --bots', 'random,first,', 'last --seed 1']
    """
    words = []
    for word in command.split(" "):
        while len(word) > width and "," in word[:width]:
            cut = word.rindex(",", 0, width) + 1
            words.append(word[:cut])
            word = word[cut:]
        words.append(word)
    lines = [""]
    for word in words:
        glue = "" if not lines[-1] or lines[-1].endswith(",") else " "
        if lines[-1] and len(lines[-1]) + len(glue) + len(word) > width:
            lines.append(word)
        else:
            lines[-1] += glue + word
    return lines


def bot_ladder(data: RutsmieterReportData, number: int) -> Sheet:
    """The saved ladders of every bot at 2, 3 and 4 players (``report_data.saved_ladders``):
    each bot's rating with its 95% CI, and the command, seed and machine of each."""
    ladders = data.ladders
    title = "Bot ladder: every bot at 2, 3 and 4 players"
    if not ladders:
        caption = ("No saved ladder fits these house rules (tutto_sim/data/ladders/rutsmieter-2p.json, "
                   "-3p.json and -4p.json are played under the default rules); the ladder "
                   "command of docs/reports.md with the same house rules plays one. "
                   + R.source(data))
        fig = R.landscape_page(title, caption)
        return Sheet(fig, f"{number:02d}-bot-ladder", title, caption)
    names = []
    for d in ladders.values():
        names += [n for n in d["ranking"] if n not in names]
    def where(d):
        return (f"played on {d.get('machine', 'a machine not recorded')}"
                + (f", {d['measured_on']}" if d.get("measured_on") else ""))

    same = len({where(d) for d in ladders.values()}) == 1
    parts = []
    for n, d in sorted(ladders.items()):
        parts.append(
            f"{n} players: {d['games']:,} games, {d['games_per_pair']:,} per pair of bots, seed "
            f"{d['seed']}, {d.get('engine', 'kernel')} engine" + ("" if same else f", {where(d)}")
            + f"; best: {bot_label(d['ranking'][0])}")
    if same:
        parts.append("All " + where(next(iter(ladders.values()))))
    words = "; ".join(f"{bot_label(n)}: {bot_words(n)}" for n in names)
    caption = (
        "Every bot against every other at each table size, every lineup of bots with the seats "
        "rotated: saved runs (tutto_sim/data/ladders/rutsmieter-2p.json, -3p.json, -4p.json; the "
        "command that made each is printed under its panel), read by the report, not played "
        f"again. Bots: {words}. Each bot's rating (Elo scale, the bots' mean at 0; 100 points "
        "apart is a 64% chance for the stronger of two) with its 95% CI, fitted to every game "
        "by the model each file names ("
        + "; ".join(f"{n} players: {d['model'].split(' (')[0]}" for n, d in sorted(ladders.items()))
        + "). " + ". ".join(parts) + ". "
        + table_prints(data, sorted(ladders)) + R.source(data))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(1, len(ladders), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, (n, d) in zip(axes, sorted(ladders.items())):
        order = list(d["ranking"])
        y = np.arange(len(order))[::-1]
        r = [d["ratings"][b] for b in order]
        rate = np.array([x["rating"] for x in r])
        ax.errorbar(rate, y, xerr=[rate - np.array([x["low"] for x in r]),
                                   np.array([x["high"] for x in r]) - rate],
                    fmt="o", color=INK, ms=4, capsize=3, lw=1.0)
        for yi, x in zip(y, r):
            ax.text(x["high"] + 12, yi, f"{x['rating']:+.0f} [{x['low']:+.0f}, {x['high']:+.0f}]"
                    .replace("-", "−"), va="center", fontsize=7, bbox=LABEL_BOX)
        ax.axvline(0, ls=":", color=GREY, lw=1.2)
        ax.set_yticks(y, [bot_label(b) for b in order], fontsize=8)
        ax.set_ylim(-0.6, len(order) - 0.4)
        ax.set_title(f"{n} players", loc="left")
        ax.grid(axis="y", visible=False)
        # the command under the x label, whose blank lines keep room for it in the layout
        command = command_lines(ladder_command(d), 50)
        ax.set_xlabel("rating (Elo scale), 95% CI" + "\n" * (len(command) + 1))
        note = ax.annotate("\n".join(command), xy=(0, 0), xycoords="axes fraction",
                           xytext=(0, -30), textcoords="offset points", fontsize=5.8,
                           family="monospace", va="top", color="#333333")
        note.set_in_layout(False)
    low = min(x["low"] for d in ladders.values() for x in d["ratings"].values())
    high = max(x["high"] for d in ladders.values() for x in d["ratings"].values())
    axes[0].set_xlim(low - 40, high + (high - low) * 0.55)
    return Sheet(fig, f"{number:02d}-bot-ladder", title, caption)


# --------------------------------------------------------------------------
# house rules
# --------------------------------------------------------------------------


def house_label(name: str, rules) -> str:
    """A row of the house-rule analysis: "default rules" or "must capture off"."""
    if name == "defaults":
        return "report's rules"
    return rule_words(name, not getattr(rules, name))


def house_rules(data: RutsmieterReportData, number: int) -> Sheet:
    h = data.house
    rows = h.rows
    labels = [house_label(r.name, data.rules) for r in rows]
    title = "House rules: game length and how much skill counts"
    caption = (
        "The report's rules and each house rule switched from there (docs/rutsmieter.md: "
        + "; ".join(f"{RULE_WORDS[r.name]}" for r in rows[1:]) + "). "
        f"Left and middle: throws and turns of a game with tuned in every seat at "
        f"{h.players} players, {_games(h.games)} per rule set on the same dice (game i of "
        "every rule set reads the same random stream); the number beside each bar is the "
        "change against the report's rules, with the 95% CI of the game-by-game "
        "differences. Right: the skill spread, tuned's win rate minus random's in "
        f"{_games(h.skill_games)} of tuned against random at {h.skill_players} players "
        "(every seating), with the change against the report's rules on the same games. "
        + ("With 2 players, play on for the places changes no game (the first player home "
           "ends it either way): its row repeats the report's rules. "
           if any(r.same_games for r in rows) else "")
        + ("'0 in every game': every game took exactly as many throws (turns) as under the "
           "report's rules; tuned's own choices already follow that rule. "
           if any(_unchanged(r.throws_vs_defaults) or _unchanged(r.turns_vs_defaults)
                  for r in rows[1:]) else "")
        + "Bars: 95% CIs. " + R.source(data, f"{_games(h.games)} per rule set"))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(1, 3, sharey=True)
    y = np.arange(len(rows))[::-1]
    panels = (("throws", "throws_vs_defaults", "throws per game", "mean throws per game"),
              ("turns", "turns_vs_defaults", "turns per game", "mean turns per game"),
              ("spread", "spread_vs_defaults", "skill spread (points of win rate)",
               "tuned minus random, 2 players"))
    for ax, (what, diff, xlabel, sub) in zip(axes, panels):
        vals = [getattr(r, what) for r in rows]
        scale = 100 if what == "spread" else 1
        mean = np.array([v.mean * scale for v in vals])
        ci = np.array([v.ci95 * scale for v in vals])
        for yi, m, r in zip(y, mean, rows):
            ax.barh(yi, m, color=LIGHT if r.name == "defaults" else "white", edgecolor=INK,
                    lw=0.7, height=0.6, hatch="" if r.name == "defaults" else HATCHES[1])
        ax.errorbar(mean, y, xerr=ci, fmt="o", color=INK, ms=3.5, capsize=3, lw=1.0)
        top = max(mean + ci)
        for yi, m, c, r in zip(y, mean, ci, rows):
            if r.name == "defaults":
                note = R.pm(m, c)
            elif r.same_games and what == "spread":
                note = "same games"
            elif _unchanged(getattr(r, diff)):
                note = "0 in every game"
            else:
                d = getattr(r, diff)
                note = R.signed(d.mean * scale, d.ci95 * scale)
            ax.text(top * 1.03, yi, note, va="center", fontsize=7.5)
        ax.set_xlim(0, top * 1.55)
        ax.set_xlabel(xlabel)
        ax.set_title(sub, loc="left", fontsize=9.5)
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)
    axes[0].set_yticks(y, labels)
    axes[0].legend(handles=[Patch(fc=LIGHT, ec=INK, label="report's rules"),
                            Patch(fc="white", ec=INK, hatch=HATCHES[1],
                                  label="one house rule switched")],
                   loc="lower center", bbox_to_anchor=(0.5, 1.07), ncols=2, fontsize=7.5,
                   frameon=False)
    return Sheet(fig, f"{number:02d}-house-rules", title, caption)


def _unchanged(e) -> bool:
    """A paired difference that is 0 in every game."""
    return e is not None and e.mean == 0 and e.ci95 == 0


def sci(x: float) -> str:
    """A small positive number as players read it: 7.2 · 10⁻¹².

    >>> sci(7.2e-12), sci(0.0)
    ('7.2 · 10⁻¹²', '0')
    """
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(x)))
    sup = str(e).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{x / 10 ** e:.1f} · 10{sup}"


# --------------------------------------------------------------------------
# game length
# --------------------------------------------------------------------------


def game_length(data: RutsmieterReportData, number: int) -> Sheet:
    tables = data.tables
    title = "How long a game takes"
    capped = sum(t.capped for t in tables.values())
    caption = (
        f"Throws (left) and turns (right) of each game, tuned in every seat, "
        f"{_games(data.games)} at each table size (numba kernel). A throw is one roll of "
        "the die, a turn all throws of one player before the next player's (after a 6 the "
        "same player throws again). Share of games per bin; the legend gives each table's "
        "mean with its 95% CI and the median. "
        + (f"{_games(capped)} reached the simulator's safety net of 100,000 throws. "
           if capped else "No game came near the simulator's safety net of 100,000 throws. ")
        + table_prints(data, TABLE_SIZES) + R.source(data, f"{_games(data.games)} per table"))
    fig = R.landscape_page(title, caption)
    axes = fig.subplots(1, 2)
    for ax, what, unit in ((axes[0], "throws", "throw"), (axes[1], "turns", "turn")):
        values = {p: getattr(t, what) for p, t in tables.items()}
        hi = max(float(np.quantile(v, 0.995)) for v in values.values())
        width = max(1, round(hi / 60 / 5) * 5)
        bins = np.arange(0, hi + width, width)
        for p, v in values.items():
            share, edges = np.histogram(v, bins=bins)
            share = 100 * share / len(v)
            mid = (edges[:-1] + edges[1:]) / 2
            st = SIZE_STYLE[p]
            e = _mean(v)
            ax.plot(mid, share, ls=st["ls"], marker=st["marker"], color=st["color"],
                    ms=3.5, mfc="white", markevery=max(1, len(mid) // 15), lw=1.4,
                    label=f"{p} players: mean {R.pm(e.mean, e.ci95)}, median "
                          f"{np.median(v):,.0f}")
        ax.set_xlim(0, hi)
        ax.set_ylim(bottom=0)
        ax.set_xlabel(f"{unit}s per game (bins of {width})")
        ax.set_ylabel("share of games (%)")
        ax.set_title(f"{unit}s per game", loc="left")
        ax.legend(loc="upper right", fontsize=7.5)
    return Sheet(fig, f"{number:02d}-game-length", title, caption)


def _mean(v):
    from .report_data import estimate_of

    return estimate_of(v)


# --------------------------------------------------------------------------
# seats
# --------------------------------------------------------------------------


def seat_words(j: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(j, f"{j + 1}th") + " to throw"


def seat_advantage(data: RutsmieterReportData, number: int) -> Sheet:
    tables = data.tables
    title = "Seat advantage: who throws first"
    caption = (
        f"Win rate by seat with tuned in every seat, {_games(data.games)} at each table size "
        "(numba kernel; the same games as the game-length page). The player in the 1st seat "
        "begins, play runs clockwise. Bars: 95% CIs; dotted: the fair share 1/players. The "
        "first player's advantage is the 1st seat's win rate minus the fair share. "
        + table_prints(data, TABLE_SIZES) + R.source(data, f"{_games(data.games)} per table"))
    fig = R.landscape_page(title, caption)
    ax = fig.subplots(1, 1)
    width = 0.2
    ticks, labels = [], []
    for g, (p, t) in enumerate(sorted(tables.items())):
        seats = t.seats
        fair = 1 / p
        xs = g + (np.arange(p) - (p - 1) / 2) * width
        for j, (x, e) in enumerate(zip(xs, seats)):
            ax.bar(x, 100 * e.mean, width * 0.9, color=LIGHT if j == 0 else "white",
                   edgecolor=INK, hatch=HATCHES[j % len(HATCHES)], lw=0.7)
            ax.errorbar(x, 100 * e.mean, yerr=[[100 * (e.mean - e.low)], [100 * (e.high - e.mean)]],
                        fmt="none", color=INK, capsize=3, lw=1.0)
            ax.text(x, 100 * e.high + 0.6, R.estimate_text(e, True, stacked=True),
                    ha="center", va="bottom", fontsize=6.8)
        ax.plot([xs[0] - width / 2, xs[-1] + width / 2], [100 * fair] * 2, ls=":",
                color=GREY, lw=1.6)
        adv = t.result.first_player_advantage()
        ticks.append(g)
        labels.append(f"{p} players\nfirst player's advantage\n"
                      f"{R.estimate_text(adv, True, True, unit=' points')}")
    ax.set_xticks(ticks, labels)
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 68)
    ax.grid(axis="x", visible=False)
    ax.set_axisbelow(True)
    ax.legend(handles=[Patch(fc=LIGHT if j == 0 else "white", ec=INK,
                             hatch=HATCHES[j], label=seat_words(j)) for j in range(4)]
              + [Line2D([], [], ls=":", color=GREY, lw=1.6, label="fair share")],
              loc="upper right", ncols=5, fontsize=8)
    return Sheet(fig, f"{number:02d}-seat-advantage", title, caption)


# --------------------------------------------------------------------------
# exact figures
# --------------------------------------------------------------------------


def _check_panel(ax, rows, ylabel: str, exact_decimals: int, percent: bool = False) -> None:
    """Exact values (horizontal ticks) beside simulated means with 95% CIs; the
    simulated figure with as many digits as it takes for "within"/"outside its
    95% CI" to be visibly true of the printed numbers (``beside_exact``)."""
    scale, unit = (100, "%") if percent else (1, "")
    for i, (label, exact, est) in enumerate(rows):
        ax.plot([i - 0.3, i + 0.3], [exact, exact], color=INK, lw=2.2)
        ax.errorbar(i, est.mean, yerr=[[est.mean - est.low], [est.high - est.mean]], fmt="o",
                    color=BLUE, mfc="white", ms=6, capsize=5, lw=1.3)
        ax.annotate(f"exact {exact * scale:.{exact_decimals}f}{unit}\n"
                    f"simulated {R.beside_exact(est, exact, exact_decimals, percent)}\n"
                    f"{'within' if est.contains(exact) else 'outside'} its 95% CI",
                    (i, est.high), xytext=(0, 8), textcoords="offset points",
                    ha="center", va="bottom", fontsize=7.5)
    ax.set_xticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    lo = min(min(r[1], r[2].low) for r in rows)
    hi = max(max(r[1], r[2].high) for r in rows)
    pad = (hi - lo) * 0.6 + 1e-9
    ax.set_ylim(lo - pad * 0.4, hi + pad * 1.6)
    ax.set_ylabel(ylabel)
    ax.grid(axis="x", visible=False)


def exact_checks(data: RutsmieterReportData, number: int) -> Sheet:
    ex = data.exact
    ref = data.reference_games
    title = "Exact figures and their simulation checks"
    caption = (
        "Left: one player alone bringing all four pieces home, expected throws (every throw "
        "counts, the rethrows after 6s too), exact from the Markov chain over the placements "
        "of the pieces (docs/rutsmieter.md, 'The solo check'), for the piece furthest along and for "
        "the fewest-throws "
        f"play. Beside each, simulated games: furthest piece {_games(data.games)} in the "
        f"numba kernel, fewest throws {_games(ref)} in the reference engine. Middle and "
        "right: two players opposite each other with one piece each, the first home wins "
        "(docs/rutsmieter.md, 'Exact: two players, one piece each'; no house rule plays "
        "a part): the first player's chance to win and "
        f"the throws of a game, exact by value iteration over {ex.duel.states:,} states "
        f"({R.count(ex.duel.iterations, 'sweep')}, the last changing no value by more than "
        f"{sci(ex.duel.residual)}), beside {_games(ref)} in "
        "the reference engine. Thick line: exact; circle and bars: simulated mean and 95% CI. "
        + R.source(data, f"{_games(data.games)} and {_games(ref)}"))
    fig = R.landscape_page(title, caption)
    a, b, c = fig.subplots(1, 3, width_ratios=[2, 1.1, 1.1])

    _check_panel(a, [("furthest piece first", ex.solo.first, ex.solo_first),
                     ("fewest throws", ex.solo.optimal, ex.solo_optimal)],
                 "throws to bring all four pieces home", 5)
    a.set_title("alone, four pieces", loc="left")
    _check_panel(b, [("first player wins", ex.duel.p_first_wins, ex.duel_first_wins)],
                 "chance to win", 4, percent=True)
    b.yaxis.set_major_formatter(lambda v, pos: f"{100 * v:.0f}%")
    b.set_title("two players, one piece each", loc="left", fontsize=9.5)
    _check_panel(c, [("throws in a game", ex.duel.expected_throws, ex.duel_throws)],
                 "throws per game", 5)
    c.set_title("two players, one piece each", loc="left", fontsize=9.5)
    a.legend(handles=[Line2D([], [], color=INK, lw=2.2, label="exact"),
                      Line2D([], [], color=BLUE, marker="o", mfc="white", ls="none",
                             label="simulated, 95% CI")],
             loc="upper left", fontsize=8)
    return Sheet(fig, f"{number:02d}-exact-checks", title, caption)


# --------------------------------------------------------------------------
# a tournament CSV (--tournament)
# --------------------------------------------------------------------------


def tournament(data: RutsmieterReportData, number: int) -> Sheet:
    """The shared tournament page; its rules are compared with the report's
    house rules at the tournament's table size."""
    t = data.tournament
    rules = table_rules(data.rules, t.players) if t.players in TABLE_SIZES else data.rules
    return R.tournament_sheet(t, rules, number, R.report_footer(data.rules))


#: The report's pages in order (the tournament page follows when given).
PAGES = (cheat_sheet, bot_win_rates, house_rules, game_length, seat_advantage, exact_checks,
         bot_ladder)
