"""Exact dynamic programming: turn values of threshold policies and the optimal turn policy."""

from .tutto_dp import (
    CARD_FREQ,
    DEFAULT_CAP_UNITS,
    PolicyValue,
    TuttoSolution,
    cloverleaf_probability,
    exact_policy_value,
    fireworks_gain,
    max_card_points,
    policy_tutto_probability,
    policy_value,
    solve_tutto,
    street_probability,
    tutto_probability,
)

__all__ = [
    "CARD_FREQ",
    "DEFAULT_CAP_UNITS",
    "PolicyValue",
    "TuttoSolution",
    "cloverleaf_probability",
    "exact_policy_value",
    "fireworks_gain",
    "max_card_points",
    "policy_tutto_probability",
    "policy_value",
    "solve_tutto",
    "street_probability",
    "tutto_probability",
]
