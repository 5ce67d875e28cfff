"""Tutto's entry in the game registry: its rule flags, and the hooks the shared
commands call (``core.registry``). Light on purpose: what a hook needs is
imported when it runs."""

from __future__ import annotations

from typing import Optional

from tutto_sim.core.cli import UserError, choice
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.dice.flags import SixOfKind, Target
from tutto_sim.dice.scoring import MAX_POINTS, SIX_OF_KIND_CHOICES
from tutto_sim.tutto.flags import CloverValue, DeckFlag, GameEnd, PMChain, PMDeduction, Reshuffle, X2Scope
from tutto_sim.tutto.rules import (
    DECK_CHOICES,
    GAME_END_CHOICES,
    PLUSMINUS_CHAIN_CHOICES,
    PLUSMINUS_DEDUCTION_CHOICES,
    RESHUFFLE_CHOICES,
    X2_SCOPE_CHOICES,
    TuttoRules,
)

RULE_FLAGS = (
    RuleFlag("six_of_kind", SixOfKind, "two-triples"),
    RuleFlag("x2_scope", X2Scope, "turn"),
    RuleFlag("plusminus_chain", PMChain, "continue"),
    RuleFlag("plusminus_deduction", PMDeduction, "bank"),
    RuleFlag("reshuffle", Reshuffle, "full"),
    RuleFlag("target", Target, None),
    RuleFlag("game_end", GameEnd, "round"),
    RuleFlag("cloverleaf_value", CloverValue, 0),
    RuleFlag("deck", DeckFlag, "real"),
)


def make_rules(six_of_kind: str, x2_scope: str, plusminus_chain: str,
               plusminus_deduction: str, reshuffle: str, target: Optional[int],
               game_end: str, cloverleaf_value: int, deck: str) -> TuttoRules:
    target = 6000 if target is None else target
    choice("--six-of-kind", six_of_kind, SIX_OF_KIND_CHOICES)
    choice("--x2-scope", x2_scope, X2_SCOPE_CHOICES)
    choice("--plusminus-chain", plusminus_chain, PLUSMINUS_CHAIN_CHOICES)
    choice("--plusminus-deduction", plusminus_deduction, PLUSMINUS_DEDUCTION_CHOICES)
    choice("--reshuffle", reshuffle, RESHUFFLE_CHOICES)
    choice("--game-end", game_end, GAME_END_CHOICES)
    choice("--deck", deck, DECK_CHOICES)
    for flag, value, low in (("--target", target, 50), ("--cloverleaf-value", cloverleaf_value, 0)):
        if value < low or value % 50 or value > MAX_POINTS:
            raise UserError(f"{flag} must be a multiple of 50 from {low} to {MAX_POINTS:,}, not {value}")
    return TuttoRules(six_of_kind=six_of_kind, x2_scope=x2_scope,
                      plusminus_chain=plusminus_chain,
                      plusminus_deduction=plusminus_deduction, reshuffle=reshuffle,
                      target=target, game_end=game_end, cloverleaf_value=cloverleaf_value,
                      deck=deck)


ENTRY = GameEntry(
    names=("tutto",),
    title="Tutto",
    rules_type=TuttoRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=lambda name, values: make_rules(**values),
    hooks_module="tutto_sim.tutto.hooks",
    extra={"sample_report": True},
)
