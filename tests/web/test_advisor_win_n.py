"""The advisor page with a Tutto win table of three players (version 2) in a
real browser (Debian's chromium, as tests/web/test_advisor_browser.py): the
table is listed with its size, the scores fieldset asks for everyone's score
by seat, and each player's chance at the start of the turn the page shows
equals the Python table's (``tutto.win.table.load_win_table_n``), in the main
phase and in the last round; bad scores are one line in the page."""

from __future__ import annotations

import json

import pytest
from test_advisor_browser import ask, browser, open_page, phone  # noqa: F401  (fixtures)

from tutto_sim.cli import main as cli_main
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.solve_n import solve_win_n
from tutto_sim.tutto.win.table import load_win_table_n, write_win_table_n

TARGET = 150


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("w3") / f"tutto-win-{TARGET}-3p.json"
    write_win_table_n(solve_win_n(TuttoRules(target=TARGET), players=3, evaluate_ev=False), path)
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory, table_file):
    out = tmp_path_factory.mktemp("site") / "advisor"
    with pytest.raises(SystemExit) as done:
        cli_main(["advisor", "--out", str(out), "--win-table", str(table_file)])
        raise SystemExit(0)
    assert done.value.code == 0
    manifest = (out / "manifest.js").read_text()
    assert '"players": 3' in manifest and "3 players" in manifest
    return out


def test_each_players_chance_at_a_turn_start(site, table_file, browser):  # noqa: F811
    t = load_win_table_n(table_file)
    url = (site / "index.html").as_uri()
    cases = [(0, (0, 0, 0), False), (1, (100, 50, 0), False), (2, (50, 100, 100), False),
             (1, (250, 100, 50), True), (2, (150, 3000, 0), True)]
    M = TARGET // 50 + t.margin_cap + 1
    with phone(browser) as pg:
        open_page(pg, url, "tutto")
        pg.select_option("#win-table", index=1)
        assert pg.is_visible("#win-scores") and not pg.is_visible("#win-own")
        assert len(pg.query_selector_all("#win-seat option")) == 3
        for seat, scores, last in cases:
            got = ask(pg, "tutto", {"tutto-question": "tutto", "tutto-after": "300",
                                    "win-seat": str(seat), "win-last": "1" if last else "",
                                    "win-scores": ", ".join(map(str, scores))})
            assert got["error"] == "", got
            x = tuple(min(v // 50, M - 1) for v in scores)
            want = (t.E if last else t.W)[(seat,) + x]
            assert json.loads(got["data"]["win-n"]) == [float(v) for v in want], (seat, scores)
            assert "3 players to 150" in got["text"] and "you (seat" in got["text"]
        for scores, last, words in [("0, 50", False, "give 3 scores"),
                                    ("0, 200, 0", False, "then it is the last round"),
                                    ("0, 0, 0", True, "someone before you has reached")]:
            got = ask(pg, "tutto", {"win-seat": "1", "win-last": "1" if last else "",
                                    "win-scores": scores})
            assert words in got["error"] and len(got["error"].splitlines()) == 1, got
