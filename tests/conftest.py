"""Shared fixtures: the default rules and the exact Fraction tools tests use."""

import pytest

from tutto_sim.tutto.rules import TuttoRules


@pytest.fixture(scope="session")
def rules():
    return TuttoRules()


def run_cli(capsys, *args):
    """Run ``tutto-sim ARGS`` in-process: (exit code, stdout, stderr)."""
    from tutto_sim.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
        raise SystemExit(0)
    cap = capsys.readouterr()
    return exc.value.code, cap.out, cap.err
