"""Messages name what the user gave (issue 22, section 4): a bot module that
runs its command line, an analysis of another game, a file of another game,
a rule of another table size, the bots of every game in ``--help``."""

import sys
from pathlib import Path

import pytest
from conftest import one_line, run_cli

from tutto_sim.core import registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tutto_bot.py"
TUTTO_WIN = ROOT / "tests" / "web" / "data" / "tutto-win-300.json"


# -- a bot that is a command line ---------------------------------------------------------------

@pytest.mark.parametrize("game,other", [("rutsmieter", "first"), ("tutto", "cautious"),
                                        ("tutti", "random")])
def test_a_module_whose_function_runs_its_command_line_is_one_line(capsys, tmp_path, game, other):
    argv = list(sys.argv)
    spec = f"py:{EXAMPLE}:main"
    code, out, err = run_cli(capsys, "tournament", "--game", game, "--bots", f"{spec},{other}",
                             "--games", "2", "--out-dir", str(tmp_path))
    line = one_line(code, out, err)
    assert line.startswith(f"tutto-sim: error: bot {spec!r}: main is not a bot: running it "
                           "started its command line (it exited with code 2)"), line
    assert "usage:" not in err and "act(decision)" in line
    assert sys.argv == argv  # the module saw its own name only, and the command line is back
    assert list(tmp_path.iterdir()) == []


def test_a_module_that_exits_at_import_is_one_line(capsys, tmp_path):
    mod = tmp_path / "exits.py"
    mod.write_text("import sys\nprint('usage: exits.py FILE', file=sys.stderr)\nsys.exit(3)\n")
    code, out, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--bots",
                             f"py:{mod}:Bot,first", "--games", "2", "--out-dir", str(tmp_path))
    line = one_line(code, out, err)
    assert "Bot is not a bot: running it started its command line (it exited with code 3)" in line
    assert "usage:" not in err


def test_a_bot_module_that_prints_keeps_its_words_and_plays(capsys, tmp_path):
    from tutto_sim.core.bots import parse_bots
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    mod = tmp_path / "printing_bot.py"
    mod.write_text("import sys\nprint('loaded', sys.argv)\n"
                   "class Bot:\n    name = 'printer'\n    def act(self, obs):\n        return 0\n")
    bots = parse_bots(f"py:{mod}:Bot,first", RutsmieterRules())
    assert [b.name for b in bots] == ["printer", "first"]
    # what it printed comes out after loading; it saw only its spec as the command line
    assert capsys.readouterr().out == f"loaded ['py:{mod}:Bot']\n"


# -- explore names what the user gave ------------------------------------------------------------

@pytest.mark.parametrize("game", ["rutsmieter", "tutti", "tutto"])
def test_explore_of_another_game_names_the_game_not_an_option(capsys, game):
    code, out, err = run_cli(capsys, "explore", "--game", game)
    line = one_line(code, out, err)
    assert line == ("tutto-sim: error: explore is for Berliner Macke and Volle Lotte: "
                    f"--game macke or volle-lotte, not {game!r}")
    assert "--min-score" not in line


def test_explore_help_offers_the_games_it_explores(capsys):
    code, out, _ = run_cli(capsys, "explore", "--help")
    text = " ".join(out.split())
    assert code == 0 and "macke | volle-lotte" in text and "tutto | macke" not in text


# -- a file of another game names the game asked for ---------------------------------------------

@pytest.mark.parametrize("args", [
    ("play", "--game", "volle-lotte", "--win-table", str(TUTTO_WIN)),
    ("tournament", "--game", "volle-lotte", "--bots", f"winopt:{TUTTO_WIN},random", "--games", "2"),
    ("tournament", "--game", "volle-lotte", "--bots",
     f"table:{ROOT / 'tutto_sim' / 'data' / 'policies' / 'tutto-default.json'},random", "--games", "2"),
], ids=["play --win-table", "winopt:FILE", "table:FILE"])
def test_a_tutto_file_for_volle_lotte_names_volle_lotte(capsys, tmp_path, args):
    code, out, err = run_cli(capsys, *args, "--out-dir", str(tmp_path)) if args[0] == "tournament" \
        else run_cli(capsys, *args)
    line = one_line(code, out, err)
    assert "is for game 'tutto', not volle-lotte" in line, line
    assert "not macke" not in line


def test_a_tutto_file_for_macke_still_names_macke(capsys):
    code, out, err = run_cli(capsys, "play", "--game", "macke", "--win-table", str(TUTTO_WIN))
    assert "is for game 'tutto', not macke" in one_line(code, out, err)


# -- Tutti's 2-player rule at another table ------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (("tournament", "--players", "3", "--games", "10"), "does not apply to --players 3"),
    (("tournament", "--players", "4", "--games", "10"), "does not apply to --players 4"),
    (("play", "--bots", "heuristic,heuristic"), "does not apply to --players 3"),
    (("analyze", "seats", "--players", "2,3", "--games", "10"), "does not apply to --players 3"),
    (("analyze", "lead", "--tables", "2,4p", "--games", "10"), "give --tables 2 with it"),
    (("analyze", "trump", "--deals", "10"), "give --tables 2 with it"),
])
def test_must_answer_trump_is_refused_where_it_plays_no_part(capsys, tmp_path, args, words):
    extra = ("--out-dir", str(tmp_path)) if args[0] != "play" else ()
    code, out, err = run_cli(capsys, *args, "--game", "tutti", "--must-answer-trump", "on", *extra)
    line = one_line(code, out, err)
    assert line.startswith("tutto-sim: error: --must-answer-trump on is a rule of the 2-player "
                           "game"), line
    assert words in line


def test_must_answer_trump_plays_its_own_table_size():
    from tutto_sim.core.cli import rules_from_flags

    hooks = registry.by_name("tutti").hooks
    rules = rules_from_flags("tutti", must_answer_trump="on")
    assert hooks.table_sizes(rules) == (2,)
    assert hooks.table_rules(rules, 2).must_answer_trump is True


# -- the help lists each game's bots; a game's analysis only its options -------------------------

def test_tournament_help_lists_the_bots_of_every_game(capsys):
    code, out, err = run_cli(capsys, "tournament", "--help")
    assert code == 0, err
    text = " ".join(out.split())
    for spec in ("threshold[:BANK[:AFTER_TUTTO[:KEEP]]]", "threshold[:K[:CLEAR]]", "winopt[:FILE]",
                 "expert:ROLLOUTS", "weights:FILE", "tuned", "pimc:SAMPLES", "ismcts:ITERATIONS",
                 "heuristic", "openspiel-mcts:SIMULATIONS"):
        assert spec in text, spec
    for title, default in (("Tutto (--game tutto)", "optimal,cautious"),
                           ("Berliner Macke (--game macke | volle-lotte)", "optimal,cautious"),
                           ("Rutsmieter (--game rutsmieter)", "tuned,aggressive"),
                           ("Tutti (--game tutti)", "heuristic,random")):
        at = text.index(title)
        assert f"default {default}" in text[at:at + 400], title


@pytest.mark.parametrize("words,defaults", [
    (("play",), {"Rutsmieter (--game rutsmieter)": "tuned,tuned,tuned",
                 "Tutti (--game tutti)": "pimc", "Tutto (--game tutto)": "optimal"}),
    (("analyze", "seats"), {"Rutsmieter (--game rutsmieter)": "tuned",
                            "Tutti (--game tutti)": "heuristic", "Tutto (--game tutto)": "optimal"}),
])
def test_play_and_seats_help_list_each_games_bots_and_default(capsys, words, defaults):
    code, out, err = run_cli(capsys, *words, "--help")
    assert code == 0, err
    text = " ".join(out.split())
    assert "pimc:SAMPLES" in text and "expert:ROLLOUTS" in text and "threshold[:K[:CLEAR]]" in text
    for title, default in defaults.items():
        at = text.index(title)
        end = text.find("(--game", at + len(title))
        assert text[at:end if end > 0 else None].rstrip().split("; default ")[-1].split(" ")[0] \
            == default, title


@pytest.mark.parametrize("name,takes,not_taken", [
    ("lead", ("--hands", "--must-answer-trump", "--tute-wins"), ()),
    ("trump", ("--must-answer-trump", "--allow-tute"), ("--hands",)),
    ("tute", (), ("--hands", "--allow-tute", "--pairs")),
])
def test_tutti_analyses_list_only_the_options_they_take(capsys, name, takes, not_taken):
    code, out, err = run_cli(capsys, "analyze", name, "--help")
    assert code == 0, err
    for flag in takes:
        assert flag in out, flag
    for flag in (*not_taken, "--x2-scope", "--variant", "--min-score", "--must-capture",
                 "--six-of-kind", "Macke rules", "Rutsmieter rules"):
        assert flag not in out, flag
    assert "tutto | macke" not in " ".join(out.split())
    code, out, err = run_cli(capsys, "analyze", name, "--game", "macke")
    assert one_line(code, out, err).endswith(f"Berliner Macke has no '{name}' analysis; it is an "
                                             "analysis of Tutti (--game tutti)")


# -- small things (section 5) -------------------------------------------------------------------

def test_a_table_title_is_one_line_however_narrow_the_columns(capsys):
    from rich.table import Table

    from tutto_sim.core.cli import out

    title = "win rate per seat held (fair share 1/2 = 0.5000; a tie shares the win)"
    t = Table("a", "b", title=title)
    t.add_row("1", "2")
    out.print(t)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].strip() == title


def test_a_tournament_on_a_cluster_says_so_not_one_thread(capsys, tmp_path):
    code, out, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--games", "300",
                             "--cluster", "local:1", "--out-dir", str(tmp_path))
    assert code == 0, err
    header = out.splitlines()[0]
    assert "(kernel engine, played on the Dask cluster local:1, " in header, header
    assert " thread" not in out
    code, out, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--games", "300",
                             "--threads", "1", "--out-dir", str(tmp_path))
    assert code == 0 and "(kernel engine, 1 thread, " in out.splitlines()[0]


def test_optimize_names_the_generations_it_played(capsys, tmp_path):
    import json

    from tutto_sim.rutsmieter.cli import _method

    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--candidates", "3",
                             "--search-games", "20", "--games", "10", "--seed", "3",
                             "--out-dir", str(tmp_path))
    assert code == 0, err
    text = " ".join(out.split())
    assert "(cross-entropy, 1 generation of 3 candidates; the start weights and 3 candidates, " \
           in text, text
    assert "generations of 16" not in text
    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--candidates", "3",
                             "--search-games", "20", "--games", "10", "--seed", "3", "--json",
                             "--out-dir", str(tmp_path))
    d = json.loads(out)
    assert d["search"]["method"] == "cross-entropy, 1 generation of 3 candidates"
    assert d["search"]["candidates"] == 4  # the start weights too

    class G:
        def __init__(self, n):
            self.candidates = n
    assert _method([G(16), G(4)]) == "cross-entropy, 2 generations of 16 + 4 candidates"
    assert _method([G(16)] * 20) == "cross-entropy, 20 generations of 16 candidates"
    assert _method([G(16)] * 4 + [G(2)]) == "cross-entropy, 5 generations of 16 candidates (the last 2)"
