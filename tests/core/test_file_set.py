"""Every game has the modules docs/architecture.md says it has, and no other.

The table "Every game's modules" lists each module of a game package, what it
holds and which games have it (``every game`` or a list of packages). It is
read from the document here, so the document and the tree cannot drift. A
game's sub-package (``win/``, the win code of a dice game) is listed as
``win`` (its ``__init__``, the map) and one row per module ``win/NAME``.
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
        modules = re.findall(r"`([a-z_0-9]+(?:/[a-z_0-9]+)?)`", cells[0])
        assert modules, f"no module named in {line!r}"
        has = set(games()) if cells[2] == "every game" else {g.strip() for g in cells[2].split(",")}
        assert has <= set(games()), f"not a game in {line!r}: {sorted(has - set(games()))}"
        for m in modules:
            assert m not in rows, f"{m} has two rows"
            rows[m] = has
    return rows


def modules(game: str, root: Path = ROOT) -> set[str]:
    """The game's modules: ``name`` for ``tutto_sim/GAME/name.py``; a sub-package
    ``sub`` (a folder with ``__init__.py``) as ``sub`` and ``sub/name`` for each of its modules."""
    here = root / "tutto_sim" / game
    found = {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    for sub in here.iterdir():
        if (sub / "__init__.py").exists():
            found |= {sub.name} | {f"{sub.name}/{p.stem}" for p in sub.glob("*.py") if p.stem != "__init__"}
    return found


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


def test_a_sub_package_counts_with_each_of_its_modules(tmp_path):
    """A folder with ``__init__.py`` is a module row and each of its modules one;
    a folder without it (``schema/``) and its files are none."""
    game = tmp_path / "tutto_sim" / "g"
    (game / "win").mkdir(parents=True)
    (game / "schema").mkdir()
    for f in ("__init__.py", "rules.py", "win/__init__.py", "win/solve2.py", "win/table.py", "schema/x.py"):
        (game / f).write_text("")
    assert modules("g", tmp_path) == {"rules", "win", "win/solve2", "win/table"}


def test_the_win_code_of_each_dice_game_is_one_sub_package():
    """Issue 36: the win code of Tutto and of Macke lives in ``GAME/win/``, the same
    module for the same job in both, and no win module is left beside it."""
    rows = table()
    for game in ("tutto", "macke"):
        have = modules(game)
        assert "win" in have, f"{game} has no win/ sub-package"
        beside = {m for m in have if "/" not in m and m.startswith(("win", "report_win"))} - {"win"}
        assert not beside, f"{game} keeps win modules beside win/: {sorted(beside)}"
        shared = {m for m in rows if m.startswith("win/") and {"tutto", "macke"} <= rows[m]}
        assert {"win/programme", "win/kernel2", "win/solve2", "win/kernel_n", "win/solve_n", "win/table",
                "win/planner", "win/report"} <= shared
