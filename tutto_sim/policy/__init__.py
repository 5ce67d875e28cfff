"""Policy tables: threshold policies (and, with the solver, exact policies)."""

from .threshold import (
    DEFAULT_POLICY,
    CardPolicy,
    ThresholdPolicy,
    baseline_bank_at_300,
    baseline_never_bank,
)

__all__ = ["DEFAULT_POLICY", "CardPolicy", "ThresholdPolicy", "baseline_bank_at_300", "baseline_never_bank"]
