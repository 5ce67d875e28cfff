"""Throw tables built from the rules: multisets, probabilities, keep options."""

from .throws import KEEP_RULE_HELP, KEEP_RULES, ThrowTables, build_tables, keep_options, rule_keep

__all__ = ["KEEP_RULES", "KEEP_RULE_HELP", "ThrowTables", "build_tables", "keep_options", "rule_keep"]
