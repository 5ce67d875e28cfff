"""Shared fixtures: the default rules and the exact Fraction tools tests use."""

import pytest

from tutto_sim.rules import TuttoRules


@pytest.fixture(scope="session")
def rules():
    return TuttoRules()
