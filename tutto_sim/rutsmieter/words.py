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
