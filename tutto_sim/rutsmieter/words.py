"""Rutsmieter's rules in the players' words, for captions and report covers
(``core.report`` asks through the registry's ``words`` hook): which house
rules differ from the defaults, each rule as a line, and the flags that
reproduce them. The house rules are named as docs/rutsmieter.md names them,
with the original's name on the cover.

>>> from tutto_sim.rutsmieter.rules import RutsmieterRules
>>> rules_words(RutsmieterRules())
'default Rutsmieter rules (docs/rutsmieter.md)'
>>> rules_words(RutsmieterRules(must_capture=False, goal_no_jump=True))
'rules: docs/rutsmieter.md with must capture off and no jumping in the goal lane on'
>>> rules_flags(RutsmieterRules(must_capture=False, players=2))
['--must-capture off']
"""

from __future__ import annotations

from tutto_sim.core.rules import rules_phrase

from .analysis import HOUSE_RULES, RULE_WORDS
from .rules import RutsmieterRules

RULES_DOC = "docs/rutsmieter.md"

#: The original rule text's name of each house rule (docs/rutsmieter.md).
ORIGINAL_NAMES = {
    "must_leave_house": "Ruttreck-Plicht",
    "must_capture": "Slaagdwang",
    "goal_no_jump": "In't Teel nich överspringen",
    "play_to_third": "Wiederspelen bet Platz 3",
}

#: What each house rule does, on and off, for the cover.
RULE_LINES = {
    "must_leave_house": {
        True: "a 6 must bring a piece out; a piece on the own start square moves first "
              "while pieces wait in the house",
        False: "a 6 may move any piece; the start square need not be cleared"},
    "must_capture": {
        True: "if a move captures, a capturing move must be made",
        False: "capturing is a choice like any other move"},
    "goal_no_jump": {
        True: "no jumping over own pieces in (and into) the goal lane",
        False: "pieces may jump over own pieces in the goal lane"},
    "play_to_third": {
        True: "after the first player home the others play on for the places",
        False: "the first player home wins and the game ends"},
}


def on_off(value: bool) -> str:
    return "on" if value else "off"


def rule_words(name: str, value: bool) -> str:
    """One house rule and its setting: "must capture off"."""
    return f"{RULE_WORDS[name]} {on_off(value)}"


def changed_rules(rules: RutsmieterRules) -> list[str]:
    """The house rules that differ from the defaults, in the players' words
    (the table size is not a house rule: a report plays every table size)."""
    return [rule_words(k, v) for k, v in rules.changed(HOUSE_RULES)]


def rules_words(rules: RutsmieterRules) -> str:
    """The rules in one phrase, without the fingerprint."""
    return rules_phrase(changed_rules(rules), RULES_DOC, f"default Rutsmieter rules ({RULES_DOC})")


def rules_flags(rules: RutsmieterRules) -> list[str]:
    """The flags that give ``rules``' house rules (what differs from the defaults)."""
    return [f"--{k.replace('_', '-')} {on_off(v)}" for k, v in rules.changed(HOUSE_RULES)]


def rules_lines(rules: RutsmieterRules) -> list[str]:
    """Every rule as a line in the players' words (the cover)."""
    lines = [("Board: a ring of 40 squares, 4 pieces a player, a goal lane of 4 squares; "
              "2, 3 or 4 players (the fingerprint is that of the full board of 4; the pages "
              "on 2 and 3 players use the same house rules)")]
    for k in HOUSE_RULES:
        value = getattr(rules, k)
        lines.append(f"{RULE_WORDS[k][:1].upper()}{RULE_WORDS[k][1:]} ({ORIGINAL_NAMES[k]}): "
                     f"{on_off(value)}, {RULE_LINES[k][value]}")
    lines.append("Always: after every 6 the same player throws again; no landing on an own "
                 "piece; landing on another piece captures it; exact count into the goal; "
                 "three tries for a 6 when only a 6 can help")
    return lines


# -- the tuned bot's features in the players' words (the cheat sheet, play's hints) ----------

#: What each feature of the move evaluator (``policy.FEATURES``) counts:
#: (the move or the position after it ..., the unit of its weight).
FEATURE_WORDS = {
    "progress": ("walking further", "per square walked (leaving the house counts 1)"),
    "capture": ("capturing a piece", "for a capture"),
    "danger_behind": ("landing within reach of opponents",
                      ("per opponent piece 1–6 squares behind the landing square (and per "
                       "opponent with pieces in the house, on its start square)")),
    "danger_ahead": ("landing just behind opponents",
                     "per opponent piece 1–6 squares ahead: a target for the next throw"),
    "leave_house": ("bringing a piece out of the house", "for a piece out"),
    "enter_goal": ("moving a piece into the goal lane", "for a piece into the goal lane"),
    "block_start": ("leaving a piece on the own start square while pieces wait in the house",
                    "when it stays there"),
    "capture_progress": ("capturing a piece that had come far",
                         "per square the captured piece had come (out of the house counts 1)"),
    "capture_leader": ("capturing a piece of the opponent furthest ahead",
                       "for capturing the leader's piece"),
    "risk_progress": ("leaving far-come pieces within reach",
                      "per opponent piece that can hit one of yours, times the squares "
                      "your piece has come"),
    "start_danger": ("leaving pieces an opponent can reach from its start square",
                     "per piece of yours 1–6 squares past the start square of an opponent "
                     "with pieces in the house"),
    "next_danger": ("leaving a piece the next player can hit",
                    "per piece of the next player to throw that can reach one of yours"),
    "goal_loose": ("leaving goal-lane pieces that still have to move up",
                   "per piece in the goal lane with a free goal square ahead of it"),
    "own_progress": ("the squares your pieces have come in all",
                     "per square (a piece out of the house counts 1)"),
    "own_goal": ("pieces in the goal lane", "per piece of yours in the goal lane"),
    "own_house": ("pieces left in the house", "per piece of yours in the house"),
    "own_threatened": ("pieces an opponent can hit", "per piece of yours within reach"),
    "opp_progress": ("the squares the opponents have come in all", "per square"),
    "lead_progress": ("how far the opponent furthest along has come", "per square"),
    "lead_goal": ("an opponent's pieces in the goal lane",
                  "per piece in the goal lane of the opponent with most there"),
    "opp_house": ("opponent pieces in their houses", "per opponent piece in a house"),
    "opp_risk": ("threatening far-come opponent pieces",
                 "per piece of yours that can hit an opponent piece, times the squares "
                 "that piece has come"),
}
#: Short names of the weights, for the examples' headings.
FEATURE_SHORT = {
    "progress": "walk further", "capture": "capture", "danger_behind": "avoid danger",
    "danger_ahead": "hunt", "leave_house": "come out", "enter_goal": "get home",
    "block_start": "clear the start", "capture_progress": "capture the far-come",
    "capture_leader": "capture the leader", "risk_progress": "guard the far-come",
    "start_danger": "mind the start squares", "next_danger": "mind the next player",
    "goal_loose": "close up the goal lane", "own_progress": "get on", "own_goal": "fill the goal",
    "own_house": "empty the house", "own_threatened": "keep out of reach",
    "opp_progress": "hold the others back", "lead_progress": "hold the leader back",
    "lead_goal": "watch the leader's goal", "opp_house": "keep them in the house",
    "opp_risk": "threaten", "tie": "all else equal",
}


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def feature_value_words(feature: str, value: int) -> str:
    """What a move's feature value means to a player: "2 opponent pieces can reach it",
    "captures the leader's piece", "its piece had come 23 squares"."""
    if feature == "progress":
        return f"walks {_count(value, 'square')}"
    if feature == "capture":
        return "captures" if value else "captures nothing"
    if feature == "danger_behind":
        return "no opponent can reach it" if value == 0 else \
            f"{_count(value, 'opponent piece')} can reach it"
    if feature == "danger_ahead":
        return "no opponent piece just ahead" if value == 0 else \
            f"{_count(value, 'opponent piece')} within reach ahead"
    if feature == "leave_house":
        return "brings a piece out" if value else "leaves the house as it is"
    if feature == "enter_goal":
        return "reaches the goal lane" if value else "stays out of the goal lane"
    if feature == "block_start":
        return "the start square stays blocked" if value else "the start square is free"
    if feature == "capture_progress":
        return f"its piece had come {_count(value, 'square')}" if value else "no piece to send home"
    if feature == "capture_leader":
        return "captures the leader's piece" if value else "not the leader's piece"
    if feature == "risk_progress":
        return ("no piece of yours within reach" if value == 0 else
                f"your pieces within reach: {value:,} (threats times squares come)")
    if feature == "start_danger":
        return ("no piece an opponent can reach from its start square" if value == 0 else
                f"{_count(value, 'piece')} an opponent can reach from its start square")
    if feature == "next_danger":
        return ("the next player can hit none of your pieces" if value == 0 else
                f"leaves {'a piece' if value == 1 else f'{value} ways for'} the next player "
                f"{'can hit' if value == 1 else 'to hit your pieces'}")
    if feature == "goal_loose":
        return ("the goal lane is closed up" if value == 0 else
                f"{_count(value, 'piece')} in the goal lane still to move up")
    if feature == "own_progress":
        return f"your pieces have come {_count(value, 'square')} in all"
    if feature == "own_goal":
        return f"{_count(value, 'piece')} of yours in the goal lane"
    if feature == "own_house":
        return f"{_count(value, 'piece')} of yours in the house"
    if feature == "own_threatened":
        return ("none of your pieces within reach" if value == 0 else
                f"{_count(value, 'piece')} of yours within reach")
    if feature == "opp_progress":
        return f"the opponents have come {_count(value, 'square')} in all"
    if feature == "lead_progress":
        return f"the opponent furthest along has come {_count(value, 'square')}"
    if feature == "lead_goal":
        return f"an opponent has {_count(value, 'piece')} in the goal lane"
    if feature == "opp_house":
        return f"{_count(value, 'opponent piece')} in the houses"
    if feature == "opp_risk":
        return ("no opponent piece within your reach" if value == 0 else
                f"opponent pieces you can hit: {value:,} (threats times squares come)")
    raise KeyError(feature)
