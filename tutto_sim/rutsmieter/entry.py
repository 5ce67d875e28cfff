"""Rutsmieter's entry in the game registry (``core.registry``): its names, rules
class and rule flags (panel "Rutsmieter rules", docs/rutsmieter.md). Light on
purpose: the hooks (``rutsmieter.hooks``) import what they need.

The table size is not a rule flag: ``--players`` of the command sets it
(hook ``table_rules``), 2, 3 or 4.
"""

from __future__ import annotations



from tutto_sim.core.cli import on_off
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.rutsmieter.flags import GoalNoJump, MustCapture, MustLeaveHouse, PlayToThird
from tutto_sim.rutsmieter.rules import RutsmieterRules

RULE_FLAGS = (
    RuleFlag("must_leave_house", MustLeaveHouse, "on"),
    RuleFlag("must_capture", MustCapture, "on"),
    RuleFlag("goal_no_jump", GoalNoJump, "off"),
    RuleFlag("play_to_third", PlayToThird, "off"),
)


def rutsmieter_rules(game: str, values: dict) -> RutsmieterRules:
    """RutsmieterRules from the flag values (``on``/``off``); the table size is
    the default until the command sets it (``hooks.table_rules``)."""
    return RutsmieterRules(**{name: on_off(name, value) for name, value in values.items()})


ENTRY = GameEntry(
    names=("rutsmieter",),
    title="Rutsmieter",
    rules_type=RutsmieterRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=rutsmieter_rules,
    hooks_module="tutto_sim.rutsmieter.hooks",
    extra={"sample_report": True},
)
