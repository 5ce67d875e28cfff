"""``tournament`` without ``--bots``: each game's own default bots (optional
hook ``tournament_bots``); Tutto and Macke keep optimal against cautious."""

import json

import pytest
from conftest import run_cli


@pytest.mark.parametrize("game, bots", [
    ("tutto", ["optimal", "cautious"]),
    ("macke", ["optimal", "cautious"]),
    ("rutsmieter", ["tuned", "aggressive"]),
    ("tutti", ["heuristic", "random"]),
])
def test_tournament_default_bots(capsys, tmp_path, game, bots):
    code, out, err = run_cli(capsys, "tournament", "--game", game, "--games", "40", "--json",
                             "--out-dir", str(tmp_path))
    assert code == 0, err
    assert sorted(json.loads(out)["bots"]) == sorted(bots)
