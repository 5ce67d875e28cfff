"""Tutto's rules in the players' words, for captions and report covers: which
options differ from the defaults, each option as a line, and the flags that
reproduce them (``core.report`` asks through the registry)."""

from __future__ import annotations

from tutto_sim.core.report import pts
from tutto_sim.core.rules import rules_phrase

RULES_DOC = "docs/rules.md"


#: Tutto's rule options in the players' words: (field, value) -> how a caption
#: names a rule that differs from the default ("... with <phrase>").
_TUTTO_WITH = {
    ("six_of_kind", "one-triple"): "six of a kind counted as one triple",
    ("six_of_kind", "two-triples"): "six of a kind counted as two triples",
    ("x2_scope", "card"): "×2 doubling only its own card's points",
    ("x2_scope", "turn"): "×2 doubling the whole turn total",
    ("plusminus_chain", "continue"): "the usual bank-or-draw choice after a Plus/Minus Tutto",
    ("plusminus_chain", "bank"): "a Plus/Minus Tutto ending the turn (banking the turn total "
                                 "+ 1,000)",
    ("plusminus_chain", "flat"): "a Plus/Minus Tutto ending the turn with exactly 1,000",
    ("plusminus_deduction", "bank"): "the leader losing the Plus/Minus 1,000 when the turn is "
                                     "banked",
    ("plusminus_deduction", "tutto"): "the leader losing the Plus/Minus 1,000 at the Tutto",
    ("reshuffle", "full"): "all 56 cards reshuffled when the deck runs out",
    ("reshuffle", "discard"): "only the discard pile reshuffled when the deck runs out",
    ("game_end", "round"): "the round played to its end once someone reaches the target",
    ("game_end", "immediate"): "the first player to reach the target winning at once",
    ("deck", "real"): "the cards drawn from the 56-card deck",
    ("deck", "iid"): "every card drawn independently at the deck's frequencies (10 in 56 a Stop)",
}


#: Tutto's rule options as lines of the cover page: field -> (what, value -> words).
_TUTTO_LINES = {
    "six_of_kind": ("Six of a kind", {"two-triples": "two triples (six 1s = 2,000)",
                                      "one-triple": "one triple and singles (six 1s = 1,300)"}),
    "x2_scope": ("×2 on a Tutto doubles", {"turn": "the whole turn total",
                                           "card": "only the points of its own card"}),
    "plusminus_chain": ("After a Plus/Minus Tutto",
                        {"continue": "bank or draw another card, as after any Tutto",
                         "bank": "the turn ends and banks the turn total + 1,000",
                         "flat": "the turn ends and banks exactly 1,000"}),
    "plusminus_deduction": ("The leader loses the Plus/Minus 1,000",
                            {"bank": "when the turn is banked", "tutto": "at the Tutto"}),
    "reshuffle": ("An empty deck is refilled with", {"full": "all 56 cards",
                                                     "discard": "the discard pile"}),
    "game_end": ("The game ends", {"round": "after the round in which someone reaches the "
                                            "target; the highest score wins",
                                   "immediate": "as soon as someone reaches the target"}),
}


def _tutto_with(field_name: str, value) -> str:
    if (field_name, value) in _TUTTO_WITH:
        return _TUTTO_WITH[(field_name, value)]
    if field_name == "target":
        return f"a target of {pts(value)} points"
    if field_name == "cloverleaf_value":
        return f"a Kleeblatt success (two Tuttos) counted as {pts(value)} points"
    return f"{field_name.replace('_', ' ')} {value}"


def changed_rules(rules) -> list[str]:
    """The options that differ from the defaults, in the players' words."""
    default = type(rules)().to_dict()
    return [_tutto_with(k, v) for k, v in rules.to_dict().items() if default.get(k) != v]


def rules_words(rules) -> str:
    """The rules in one phrase, without the fingerprint.

    >>> from tutto_sim.tutto.rules import TuttoRules
    >>> rules_words(TuttoRules())
    'default rules (docs/rules.md)'
    >>> rules_words(TuttoRules(x2_scope="card"))
    "rules: docs/rules.md with ×2 doubling only its own card's points"
    >>> from tutto_sim.core.report import rules_label
    >>> rules_label(TuttoRules())
    'default rules (docs/rules.md), rules fingerprint 4ed213d666cd'
    >>> rules_label(TuttoRules(x2_scope="card", cloverleaf_value=6000)).split(", rules f")[0]
    "rules: docs/rules.md with ×2 doubling only its own card's points and a Kleeblatt success (two Tuttos) counted as 6,000 points"
    """
    return rules_phrase(changed_rules(rules), RULES_DOC, f"default rules ({RULES_DOC})")


def rules_flags(rules) -> list[str]:
    """The flags that give ``rules`` (options that differ from the defaults).

    >>> from tutto_sim.tutto.rules import TuttoRules
    >>> rules_flags(TuttoRules(x2_scope="card"))
    ['--x2-scope card']
    """
    default = type(rules)().to_dict()
    return [f"--{k.replace('_', '-')} {v}" for k, v in rules.to_dict().items()
            if default.get(k) != v]


def rules_lines(rules) -> list[str]:
    """Every rule option as a line in the players' words (the cover)."""
    d = rules.to_dict()
    lines = [f"{what}: {words.get(d[k], d[k])}" for k, (what, words) in _TUTTO_LINES.items()]
    lines.insert(5, f"Target: {pts(d['target'])} points")
    lines.append(f"A Kleeblatt success (two Tuttos, it wins the game) counts as "
                 f"{pts(d['cloverleaf_value'])} points in this turn analysis")
    return lines
