"""Tutti's rules in the players' words, for captions and report covers
(``core.report`` asks through the registry's ``words`` hook): which options
differ from the defaults, each rule as a line, and the flags that reproduce
them. The table size is not among them: a report plays every table (2, 3
and 4 players, and 4 in pairs) under the same options.

>>> from tutto_sim.tutti.rules import TuttiRules
>>> rules_words(TuttiRules())
'default Tutti rules (docs/tutti.md)'
>>> rules_words(TuttiRules(must_answer_trump=True, hands=3))
'rules: docs/tutti.md with a trump lead answered with a trump and first to 3 hands'
>>> rules_flags(TuttiRules(allow_tute=False, tute_wins="hand", players=4))
['--allow-tute off', '--tute-wins hand']
"""

from __future__ import annotations

from tutto_sim.core.rules import rules_phrase

from .rules import TuttiRules

RULES_DOC = "docs/tutti.md"
#: The options a report keeps for every table (the table size and pairs are the report's).
OPTIONS = ("must_answer_trump", "allow_tute", "tute_wins", "hands")


def on_off(value: bool) -> str:
    return "on" if value else "off"


def option_words(name: str, value) -> str:
    """One option and its setting, as a phrase: "a trump lead answered with a trump"."""
    return {
        "must_answer_trump": ("a trump lead answered with a trump" if value
                              else "a trump lead answered freely"),
        "allow_tute": "a Tute allowed" if value else "no Tute",
        "tute_wins": f"a Tute winning the {value}",
        "hands": f"first to {value} hand{'s' if value != 1 else ''}",
    }[name]


def changed_rules(rules: TuttiRules) -> list[str]:
    """The options that differ from the defaults, in the players' words."""
    return [option_words(k, v) for k, v in rules.changed(OPTIONS)]


def rules_words(rules: TuttiRules) -> str:
    """The rules in one phrase, without the fingerprint."""
    return rules_phrase(changed_rules(rules), RULES_DOC, f"default Tutti rules ({RULES_DOC})")


def rules_flags(rules: TuttiRules) -> list[str]:
    """The flags that give ``rules``' options (what differs from the defaults)."""
    return [f"--{k.replace('_', '-')} {on_off(v) if isinstance(v, bool) else v}"
            for k, v in rules.changed(OPTIONS)]


def rules_lines(rules: TuttiRules) -> list[str]:
    """Every rule as a line in the players' words (the cover)."""
    tute = ("on: four Kings or four Horses, declared after an earlier 20 or 40, end the hand "
            f"and win the {rules.tute_wins}" if rules.allow_tute else "off")
    return [
        "Cards: the 40-card Italian deck (the four 2s out at 3 players), Ace 11, Three 10, "
        "King 4, Horse 3, Jack 2; 10 for the last trick; 20 or 40 for a King and Horse declared",
        "Tables: 2 players with a stock (8 cards each, the trump card under the stock), 3 "
        "players (12 each) and 4 players (10 each), alone or in pairs; the fingerprint is that "
        "of 2 players, the pages on other tables give theirs",
        "Must answer a trump lead with a trump (2 players, while the stock has cards): "
        + on_off(rules.must_answer_trump),
        f"Tute: {tute}",
        f"Hands to win the match: {rules.hands}; a tied hand is replayed with the same leader",
    ]
