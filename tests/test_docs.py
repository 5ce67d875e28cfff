"""The README's two commands are the ones CI runs, and the docs cover every rule option."""

import re
from dataclasses import fields
from pathlib import Path

from tutto_sim.rules import TuttoRules

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text):
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    blocks = _bash_blocks(readme)
    install_run, install_test = blocks[0].strip(), blocks[1].strip()
    assert "tutto-sim optimize --card bonus400" in install_run
    test_cmd = install_test.split("activate && ", 1)[1]
    assert "pytest" in test_cmd
    assert test_cmd in (ROOT / ".ci" / "run").read_text()


def test_every_rule_option_is_documented():
    doc = (ROOT / "docs" / "rules.md").read_text()
    for f in fields(TuttoRules):
        if f.init:
            assert f.name in doc, f.name
            assert "--" + f.name.replace("_", "-") in doc, f.name
