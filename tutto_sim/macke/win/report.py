"""The Macke / Volle Lotte report's pages on playing to win (two players).

Part of the report layer. :func:`compute` loads the win table
(docs/macke-win.md) of the report's rules at a quick target, or of the
game's own target when ``results/GAME-win-TARGET-<run>.json`` holds one, else
solves it; :func:`heatmap` and :func:`thresholds` draw the chance to win
over both scores and how the bank thresholds of the win-optimal player move
with the score difference (``core.win_report``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tutto_sim import __version__
from tutto_sim.core.report import rules_label, sentence
from tutto_sim.core.win_report import BankCurves, WinMap, heatmap_sheet, threshold, thresholds_sheet
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.rules import MackeRules

#: The win table's target when none is given and no file of the game's own
#: target is at hand (solves in about a minute; Volle Lotte's 6 dice take longer).
DEFAULT_WIN_TARGET = {"macke": 1000, "volle-lotte": 500}
#: The lowest score the heat map shows (points).
MAP_FROM = -500
#: The situation of the second threshold panel: dice and throws left after setting aside.
DICE_LEFT, THROWS_LEFT = 2, 1


@dataclass(frozen=True)
class MackeWinPages:
    report_rules: MackeRules  # the report's rules
    rules: MackeRules  # the win table's rules (its target)
    source: str  # where the table came from, in words
    floor: int  # scores below it count as it (points)
    winmap: WinMap
    clear: BankCurves
    dice: BankCurves


def default_win_target(rules: MackeRules) -> int:
    return DEFAULT_WIN_TARGET.get(rules.game, 1000)


def win_table(rules: MackeRules, win_target: int | None = None, phase=None):
    """(table, words): ``results/GAME-win-T-<run>.json`` when it fits (``T`` the game's
    own target without ``win_target``, then the quick default), else solved now."""
    from pathlib import Path

    from tutto_sim.core.policyfile import PolicyFileError
    from tutto_sim.macke.win.solve_n import solve_macke_win
    from tutto_sim.macke.win.table import MackeWinTable, default_win_file, load_win_table

    targets = [win_target] if win_target else [rules.target, default_win_target(rules)]
    for t in targets:
        path = default_win_file(replace(rules, target=t))[0]
        if Path(path).exists():
            try:
                return load_win_table(path, replace(rules, target=t)), f"read from {path}"
            except PolicyFileError:
                pass  # other rules: solve
    r = replace(rules, target=targets[-1], win_value=MackeRules().win_value)
    sol = solve_macke_win(r, phase=phase)
    return MackeWinTable.from_solution(sol), "solved for this report"


def compute(rules: MackeRules, win_target: int | None = None, phase=None) -> MackeWinPages:
    from tutto_sim.macke.rules import macke_turn_rules
    from tutto_sim.macke.solver import NEVER, solve_macke
    from tutto_sim.macke.win.planner import WinPlanner

    table, source = win_table(rules, win_target, phase)
    r, u = table.rules, POINT_UNIT
    f = table.floor // u
    lo = max(MAP_FROM, table.floor)
    scores = np.arange(lo, r.target, u)
    idx = scores // u - f
    winmap = WinMap("seat does not matter in Macke", scores, table.W[np.ix_(idx, idx)])

    planner = WinPlanner(table)
    m = planner.s.m
    n_all = r.n_dice
    clear_states = np.nonzero(m.state_dice == n_all)[0]
    lowest_clear = int(m.state_pts[clear_states].min()) * u
    cell = np.nonzero(m.state_dice == n_all - DICE_LEFT)[0]
    cell_totals = m.state_pts[cell] * u
    g = r.target
    opps = sorted({0, g // 4 // u * u, g // 2 // u * u, (3 * g // 4) // u * u, g - 2 * u})
    clear_curves, dice_curves = {}, {}
    for opp in opps:
        ths_c, ths_d = [], []
        for own in scores:
            _, dec, _ = planner.turn(int(own), opp)
            totals = np.arange(len(dec.clear_bank)) * u
            ok = totals >= lowest_clear
            ths_c.append(max(threshold(totals[ok], dec.clear_bank[ok]), lowest_clear))
            ths_d.append(threshold(cell_totals, dec.bank[0, THROWS_LEFT, cell]))
        clear_curves[opp] = (scores, np.array(ths_c, dtype=float))
        dice_curves[opp] = (scores, np.array(ths_d, dtype=float))
    ev = solve_macke(macke_turn_rules(r))
    ev_dice = int(ev.bank_threshold[THROWS_LEFT, DICE_LEFT])
    clear = BankCurves(f"after a clear (all {n_all} dice set aside): bank or throw all again",
                       clear_curves, int(ev.clear_bank_at), lowest_clear)
    dice = BankCurves(f"{DICE_LEFT} dice and {THROWS_LEFT} throw left in the turn's first series",
                      dice_curves, None if ev_dice >= NEVER else ev_dice,
                      int(cell_totals.min()))
    return MackeWinPages(rules, r, source, table.floor, winmap, clear, dice)


def _name(r: MackeRules) -> str:
    return "Volle Lotte" if r.variant == "volle-lotte" else "Berliner Macke"


def _table_words(w: MackeWinPages) -> str:
    return (f"Two players to {w.rules.target:,}, exact win table (docs/macke-win.md; a score "
            f"below {w.floor:,} counts as {w.floor:,}). "
            f"{sentence(rules_label(w.report_rules))} (the target aside); "
            f"tutto-sim {__version__}.")


def heatmap(w: MackeWinPages, number: int):
    r = w.rules
    title = f"{_name(r)} played to win: your chance at the start of your turn"
    caption = (f"Colour: your chance to win a two-player game of {_name(r)} to "
               f"{r.target:,} at the start of your turn, with your score up the side and the "
               "opponent's along the bottom, when both of you play to win from here on; lines: "
               "25%, 50% and 75%. Scores from "
               f"{w.winmap.scores[0]:,} to {w.winmap.scores[-1]:,}. Who threw first does not "
               "matter: whoever reaches the target first, the other throws once more. Close to "
               "the target a lead is worth less than it looks: the opponent's last turn knows "
               f"exactly what it must beat. {_table_words(w)}")
    return heatmap_sheet([w.winmap], title, caption, number, "win-chance")


def thresholds(w: MackeWinPages, number: int):
    r = w.rules
    title = "Playing to win: when to bank, by the score"
    caption = (
        "The smallest turn total from which a player who plays to win banks, against your "
        "score minus the opponent's, for a few scores of the opponent (crosses along the top: "
        "it never banks there and throws on); dashed: the threshold of the player who plays "
        f"for the most points per turn, whatever the scores. Left: after a clear (all "
        f"{r.n_dice} dice set aside): bank, or throw all {r.n_dice} dice again with the total "
        f"at risk. Right: in the turn's first series, after setting aside with {DICE_LEFT} "
        f"dice and {THROWS_LEFT} throw left (over every way of reaching that total). Behind, "
        "and the more so the nearer the opponent is to the target, the winner throws on far "
        f"longer; ahead, it banks earlier. {_table_words(w)}")
    return thresholds_sheet([w.clear, w.dice], title, caption, number, "win-bank-thresholds")
