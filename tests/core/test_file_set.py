"""Every game has the modules docs/architecture.md says it has, and no other.

The table "Every game's modules" lists each module of a game package, what it
holds and which games have it (``every game`` or a list of packages). It is
read from the document here, so the document and the tree cannot drift.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutto_sim.core import registry

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
HEADER = "| module | what it holds | games |"


def games() -> list[str]:
    """The registered games' packages (``tutto_sim/games.py``)."""
    return sorted({e.hooks_module.split(".")[1] for e in registry.entries()})


def table() -> dict[str, set[str]]:
    """module -> the packages that have it, as the document's table says."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2  # past the header and the --- row
    rows: dict[str, set[str]] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 3, f"a row of three cells, not {line!r}"
        modules = re.findall(r"`([a-z_]+)`", cells[0])
        assert modules, f"no module named in {line!r}"
        has = set(games()) if cells[2] == "every game" else {g.strip() for g in cells[2].split(",")}
        assert has <= set(games()), f"not a game in {line!r}: {sorted(has - set(games()))}"
        for m in modules:
            assert m not in rows, f"{m} has two rows"
            rows[m] = has
    return rows


def modules(game: str) -> set[str]:
    return {p.stem for p in (ROOT / "tutto_sim" / game).glob("*.py") if p.stem != "__init__"}


def test_the_table_names_every_registered_game():
    listed = set().union(*table().values())
    assert listed == set(games())


@pytest.mark.parametrize("game", games())
def test_each_game_has_the_modules_of_the_table_and_no_other(game):
    want = {m for m, has in table().items() if game in has}
    have = modules(game)
    assert not want - have, f"{game} lacks {sorted(want - have)} (docs/architecture.md)"
    assert not have - want, f"{game} has modules the table does not list: {sorted(have - want)}"


def test_every_game_has_the_modules_the_shared_code_asks_for():
    rows = table()
    for m in ("entry", "hooks", "rules", "reference", "game", "bots", "human", "words", "report"):
        assert rows[m] == set(games()), m
