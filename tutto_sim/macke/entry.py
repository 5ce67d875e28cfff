"""Berliner Macke's entry in the game registry (also ``--game volle-lotte``,
its 6-dice variant preset): its rule flags and the hooks the shared commands
call (``core.registry``). Light on purpose: hooks import what they need."""

from __future__ import annotations

from tutto_sim.core.cli import UserError
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.dice.flags import SixOfKind, Target
from tutto_sim.macke.flags import Bust, MinScore, Throws, Variant, WinValue
from tutto_sim.macke.rules import MackeRules

RULE_FLAGS = (
    RuleFlag("variant", Variant, "standard"),
    RuleFlag("min_score", MinScore, 300),
    RuleFlag("throws", Throws, 3),
    RuleFlag("bust", Bust, "subtract"),
    RuleFlag("win_value", WinValue, 5000),
    RuleFlag("six_of_kind", SixOfKind, "two-triples"),
    RuleFlag("target", Target, None),
)


def macke_rules(game: str, values: dict) -> MackeRules:
    """MackeRules of ``--game macke`` or ``volle-lotte`` from the flag values."""
    values = dict(values)
    if game == "volle-lotte":
        if values["variant"] not in ("standard", "volle-lotte"):
            raise UserError("--game volle-lotte takes no --variant (it is the variant)")
        values["variant"] = "volle-lotte"
    target = values.pop("target", None)
    try:
        return MackeRules.preset(values.pop("variant"), **values,
                                 **({} if target is None else {"target": target}))
    except ValueError as e:
        flag = str(e).split(" ", 1)[0].replace("_", "-")
        raise UserError(f"--{flag} {str(e).split(' ', 1)[1]}") from None


ENTRY = GameEntry(
    names=("macke", "volle-lotte"),
    title="Berliner Macke",
    rules_type=MackeRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=macke_rules,
    hooks_module="tutto_sim.macke.hooks",
    extra={"sample_report": True, "name_notes": {"volle-lotte": "macke --variant volle-lotte"}},
)
