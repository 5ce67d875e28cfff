"""Tutti's entry in the game registry (``core.registry``): its names, rules
class and rule flags (panel "Tutti rules", docs/tutti.md). Light on purpose:
the hooks (``tutti.hooks``) import what they need.

The table size is not a rule flag: ``--players`` of the command sets it
(hook ``table_rules``), 2, 3 or 4. With ``--pairs on`` the rules are made for
4 players, and a command with another ``--players`` is refused in one line.
"""

from __future__ import annotations



from tutto_sim.core.cli import UserError, on_off
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.tutti.flags import AllowTute, Hands, MustAnswerTrump, Pairs, TuteWins
from tutto_sim.tutti.rules import HANDS_CHOICES, TUTE_WINS_CHOICES, TuttiRules

RULE_FLAGS = (
    RuleFlag("pairs", Pairs, "off"),
    RuleFlag("must_answer_trump", MustAnswerTrump, "off"),
    RuleFlag("allow_tute", AllowTute, "on"),
    RuleFlag("tute_wins", TuteWins, "match"),
    RuleFlag("hands", Hands, 1),
)


def tutti_rules(game: str, values: dict) -> TuttiRules:
    """TuttiRules from the flag values; the table size is the default (2, or 4
    with ``--pairs on``) until the command sets it (``hooks.table_rules``)."""
    flags = {name: on_off(name, values[name]) for name in ("pairs", "must_answer_trump", "allow_tute")}
    tute_wins = str(values["tute_wins"]).strip().lower()
    if tute_wins not in TUTE_WINS_CHOICES:
        raise UserError(f"--tute-wins must be one of {', '.join(TUTE_WINS_CHOICES)}, "
                        f"not {values['tute_wins']!r}")
    hands = values["hands"]
    if hands not in HANDS_CHOICES:
        raise UserError(f"--hands must be 1..5 (hands to win the match), not {hands}")
    return TuttiRules(players=4 if flags["pairs"] else 2, tute_wins=tute_wins, hands=hands,
                      **flags)


ENTRY = GameEntry(
    names=("tutti",),
    title="Tutti",
    rules_type=TuttiRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=tutti_rules,
    hooks_module="tutto_sim.tutti.hooks",
    extra={"sample_report": True},
)
