"""``tutto-sim report --game rutsmieter``: the files and the index, the words
on the pages, byte-identical output for the same seed, and the numbers on the
pages against independent recomputations (a direct tournament, the seat
analysis, the kernel's own games, the exact solvers, the policy file read as
JSON).

One small report (a few hundred games per table) is built in this process
and the same one in a child process on one numba thread; they must be
identical byte for byte. That is most of this file's run time.
"""

import dataclasses
import json
import math
import re
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import run_cli
from matplotlib.image import imread
from report_checks import (
    BANK_AT_ZERO,
    CODE_NAMES,
    ONE_PLURAL,
    SNAKE,
    ZERO_CI,
    build_twice,
    wilson_estimate,
    wilson_of,
)

from tutto_sim.core.measured import MEASURED_DIR as MEASURED
from tutto_sim.core.report import estimate_text, pm, report_module, rules_label, sample_games, sentence
from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.policy import FEATURES, WeightsPolicy, default_policy_path
from tutto_sim.rutsmieter.reference import BOT_NAMES, Board, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules


GAMES = 720
SEED = 3
PNGS = ["01-how-to-move", "02-bot-win-rates", "03-house-rules", "04-game-length",
        "05-seat-advantage", "06-exact-checks", "07-bot-ladder"]
LADDERS = MEASURED.parent / "ladders"
Z = 1.959963984540054
RULES = RutsmieterRules()


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The same report twice: (in-process, all threads), (child process, 1 thread)."""
    return build_twice(tmp_path_factory, ["report", "--game", "rutsmieter", "--games",
                                          str(GAMES), "--seed", str(SEED)], "rutsmieter")


@pytest.fixture(scope="module")
def report_dir(reports):
    return reports[0]


@pytest.fixture(scope="module")
def texts(reports):
    return reports[2]


def _mean_ci(x) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return float(x.mean()), Z * float(x.std(ddof=1)) / math.sqrt(len(x))


def _tuned_weights():
    """The shipped tuned weights, read as plain JSON (not through the policy module)."""
    d = json.loads(default_policy_path().read_text(encoding="utf-8"))
    return d, [float(d["weights"][f]) for f in d["features"]]


def _at_players(d: dict, players: int):
    """The weights of a table size in a policy file read as JSON (None without a set for it)."""
    table = d.get("weights_by_players", {}).get(str(players))
    return None if table is None else [float(table[f]) for f in d["features"]]


def _kernel_tuned(rules, n_games, seed):
    """Games 0.. of tuned in every seat, straight from the kernel."""
    d, w = _tuned_weights()
    w = _at_players(d, rules.players) or w
    return K.simulate([K.BOT_WEIGHTS] * rules.players, rules, seed, n_games, weights=[w])


def test_files_pages_and_index(report_dir):
    from PIL import Image

    assert sorted(p.stem for p in report_dir.glob("*.png")) == PNGS
    pdf = (report_dir / "rutsmieter-report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and b"/CreationDate" not in pdf
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf)) == 1 + len(PNGS)
    assert f"rules_sha256={RULES.digest()}".encode() in pdf
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    label = sentence(rules_label(RULES))
    assert label == ("Default Rutsmieter rules (docs/rutsmieter.md), rules fingerprint "
                     f"{RULES.digest()[:12]}")
    for page, name in enumerate(PNGS, 2):
        path = report_dir / f"{name}.png"
        img = imread(path)
        assert min(img.shape[:2]) >= 1000, name  # 150 dpi
        grey = img[..., :3].mean(axis=2)
        assert grey.std() > 0.08 and (grey < 0.3).mean() > 0.005, f"{name} looks blank"
        with Image.open(path) as im:
            title, caption = im.text["Title"], im.text["Description"]
        assert f"## {title}\n\n![{title}]({name}.png)\n\n{caption} (PDF page {page}.)" in index
        assert label in caption, name
        assert f"seed {SEED}" in caption or name == "07-bot-ladder", name  # saved: their own seeds
        size = {"01-how-to-move": "among 1 game of tuned",
                "07-bot-ladder": "tutto_sim/data/ladders/rutsmieter-2p.json"}.get(name, f"{GAMES:,} games")
        assert size in caption, name


def test_same_seed_same_bytes(reports):
    here, child, _ = reports
    for f in sorted(here.iterdir()):
        assert f.read_bytes() == (child / f.name).read_bytes(), f"{f.name} differs"


def test_pages_speak_the_players_language(report_dir, texts):
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    assert sorted(texts) == sorted(["cover", *PNGS])
    command = f"tutto-sim report --game rutsmieter --seed {SEED} --games {GAMES} --out DIR"
    assert command in texts["cover"]
    for name, found in [("README.md", [index])] + sorted(texts.items()):
        for t in found:
            if name == "cover" and t.strip() in command:
                continue
            if name == "07-bot-ladder" and t.startswith("tutto-sim ladder "):
                continue  # the command that made a saved ladder, as its file has it
            for bad in (CODE_NAMES, SNAKE, ONE_PLURAL, ZERO_CI, BANK_AT_ZERO):
                assert not bad.search(t), (name, t)
            # no field names of the rules, the policy file or the bots' code
            assert not re.search(r"must_|goal_no|play_to|danger_|enter_goal|weights:|"
                                 r"BOT_|kernel id", t), (name, t)
    # the house rules as docs/rutsmieter.md names them
    cover = " ".join(texts["cover"])
    for words in ("Must leave the house (Ruttreck-Plicht): on", "Must capture (Slaagdwang): on",
                  "No jumping in the goal lane (In't Teel nich överspringen): off",
                  "Play on for the places (Wiederspelen bet Platz 3): off"):
        assert words in cover


def test_bot_win_rates_are_those_of_a_direct_tournament(texts):
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.rutsmieter.bots import parse_bot
    from tutto_sim.rutsmieter.game import GameConfig
    from tutto_sim.rutsmieter.report_data import expert_spec

    page = texts["02-bot-win-rates"]
    names = (*BOT_NAMES, "tuned")
    for players in (2, 4):
        rules = dataclasses.replace(RULES, players=players)
        res = run_tournament([parse_bot(n, rules) for n in names], players, GAMES,
                             SEED, GameConfig(rules))
        for b in res.bot_stats():  # the tournament's wins, scipy's Wilson interval
            shown = estimate_text(wilson_of(b.win.mean * b.win.n, b.win.n), True)
            assert shown in page, (players, b.name)
        best = res.bot_stats()[0]
        said = (f"Best bot at 2 players: {best.name}, winning " if players == 2 else
                f"at 4 players: {best.name}, ")
        assert said + estimate_text(wilson_of(best.win.mean * best.win.n, best.win.n), True) \
            in " ".join(texts["cover"]), players
        if players == 2:  # the pairwise table, in per cent
            for a, row in res.pairwise().items():
                for e in row.values():
                    assert f"{100 * e.mean:.0f}" in page, a
        elif "4" in _tuned_weights()[0].get("weights_by_players", {}):
            for sheet in ("02-bot-win-rates", "01-how-to-move"):  # its own 4-player weights
                assert "At 4 players tuned" not in " ".join(texts[sheet]), sheet
        else:  # tuned, taught by the cheat sheet, is weaker at 4: both pages say behind whom
            rates = {b.name: b.win for b in res.bot_stats()}
            ahead = sorted((n for n in rates if rates[n].mean > rates["tuned"].mean),
                           key=lambda n: -rates[n].mean)
            assert len(ahead) >= 2, "tuned is (nearly) the best at 4 players: no note needed"
            lo, hi = rates[ahead[-1]].mean, rates[ahead[0]].mean
            tuned = wilson_of(rates["tuned"].mean * rates["tuned"].n, rates["tuned"].n)
            said = (f"At 4 players tuned ({estimate_text(tuned, True)}) "
                    f"finishes behind {', '.join(ahead[:-1])} and {ahead[-1]} "
                    f"({100 * lo:.1f}–{100 * hi:.1f}%)")
            for sheet in ("02-bot-win-rates", "01-how-to-move"):
                found = " ".join(t.replace("\n", " ") for t in texts[sheet])
                assert said in found, (sheet, said)
    # the expert at its own budget: the saved 2,000 games, read here as plain JSON
    d = json.loads((MEASURED / "rutsmieter-expert-tuned.json").read_text(encoding="utf-8"))
    assert d["rules_sha256"] == dataclasses.replace(RULES, players=2).digest()
    joined = " ".join(page)
    for name, won in (("expert", d["wins"]), ("tuned", d["n"] - d["wins"])):
        assert estimate_text(wilson_of(won, d["n"]), True) in page, name
    assert (f"expert, {d['budget']:,} games per move (its own)\nvs tuned, "
            f"2 players, {d['n']:,} games, saved") in page
    assert "tutto_sim/data/measured/rutsmieter-expert-tuned.json" in joined and "small budget" not in joined
    assert expert_spec() is not None  # the small-budget match exists, but is not played here


def test_without_a_saved_measurement_the_expert_plays_a_small_budget(tmp_path):
    """Under house rules no saved measurement was made for (or with none
    saved), the page shows the report's own short match and says its budget
    is small; the match is the one a direct tournament plays."""
    from matplotlib.text import Text

    from tutto_sim.core.report import style
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.rutsmieter.bots import parse_bot
    from tutto_sim.rutsmieter.game import GameConfig
    from tutto_sim.rutsmieter.report_data import (
        EXPERT_ROLLOUTS,
        compute,
        expert_games,
        saved_expert,
    )
    from tutto_sim.rutsmieter.report_figures import bot_win_rates

    assert saved_expert(RULES) is not None
    assert saved_expert(RutsmieterRules(goal_no_jump=True)) is None  # other house rules
    games = 80
    data = compute(RULES, SEED, games, measured_dir=tmp_path)  # an empty folder
    assert data.saved_expert is None and data.expert is not None
    with style():
        sheet = bot_win_rates(data, 2)
    texts = [t.get_text() for t in sheet.fig.findobj(Text)]
    assert (f"expert, {EXPERT_ROLLOUTS} games per move (small budget)\nvs tuned, "
            f"2 players, {expert_games(games)} games") in texts
    assert "too small a budget and too few games to show its strength" in sheet.caption
    two = dataclasses.replace(RULES, players=2)
    res = run_tournament([parse_bot(f"expert:{EXPERT_ROLLOUTS}", two),
                          parse_bot("tuned", two)], 2, expert_games(games), SEED,
                         GameConfig(two), engine="reference")
    for b in res.bot_stats():
        assert estimate_text(wilson_of(b.win.mean * b.win.n, b.win.n), True) in texts, b.name


def test_seat_rates_and_game_lengths_are_the_kernels_games(texts):
    seats = " ".join(texts["05-seat-advantage"])
    length = " ".join(texts["04-game-length"])
    for players in (2, 3, 4):
        run = _kernel_tuned(dataclasses.replace(RULES, players=players), GAMES, SEED)
        for j in range(players):
            assert estimate_text(wilson_estimate(run.winner == j), True, stacked=True) in seats, \
                (players, j)
        m, c = _mean_ci(run.throws)
        assert f"{players} players: mean {pm(m, c)}, median {np.median(run.throws):,.0f}" \
            in length
        m, c = _mean_ci(run.turns)
        assert f"{players} players: mean {pm(m, c)}, median {np.median(run.turns):,.0f}" \
            in length


def test_house_rule_effects_are_paired_kernel_games(texts):
    """Game length under each house rule switched, against the defaults on the
    same games, straight from the kernel; and the skill spread of the defaults
    from a direct tournament of tuned against random."""
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.core.report import signed
    from tutto_sim.rutsmieter.bots import parse_bot
    from tutto_sim.rutsmieter.game import GameConfig

    page = texts["03-house-rules"]
    base = _kernel_tuned(RULES, GAMES, SEED)
    assert pm(*_mean_ci(base.throws)) in page
    for name in ("must_leave_house", "must_capture", "goal_no_jump", "play_to_third"):
        run = _kernel_tuned(dataclasses.replace(RULES, **{name: not getattr(RULES, name)}),
                            GAMES, SEED)
        for what in ("throws", "turns"):
            d = getattr(run, what).astype(np.int64) - getattr(base, what)
            note = "0 in every game" if not d.any() else signed(*_mean_ci(d))
            assert note in page, (name, what)
    two = dataclasses.replace(RULES, players=2)
    spread = []

    def keep(batch, seats):  # tuned's (bot 0) share of the win minus random's
        share = batch.share.astype(float) / batch.share.sum(axis=1, keepdims=True).clip(1)
        spread.extend((share * (seats == 0)).sum(axis=1) - (share * (seats == 1)).sum(axis=1))

    run_tournament([parse_bot("tuned", two), parse_bot("random", two)],
                   2, GAMES, SEED, GameConfig(two), on_batch=keep)
    m, c = _mean_ci(spread)
    assert pm(100 * m, 100 * c) in page


def test_exact_figures_stand_beside_their_simulations(texts):
    from tutto_sim.rutsmieter.duel import solve_duel
    from tutto_sim.rutsmieter.solo import optimal_solo_bot, solo_expected_throws

    page = " ".join(texts["06-exact-checks"])
    solo = solo_expected_throws(RULES)
    duel = solve_duel(dataclasses.replace(RULES, players=2))
    ref = GAMES // 16
    first = K.simulate(["first"], RULES, SEED, GAMES, players=1).throws
    bot = optimal_solo_bot(solo)
    optimal = [play_game([bot], RULES, SEED, i, seats=(0,)).throws for i in range(ref)]
    two = dataclasses.replace(RULES, players=2)
    board = Board.start(two.seats, n_pieces=1)
    games = [play_game(["first", "first"], two, SEED, i, board=board) for i in range(ref)]
    won, throws = [g.winner == 0 for g in games], [g.throws for g in games]
    from scipy.stats import binomtest

    wilson = binomtest(int(np.sum(won)), len(won)).proportion_ci(method="wilson")
    intervals = [(lambda m, c: (m, m - c, m + c))(*_mean_ci(x)) for x in (first, optimal)]
    intervals.append((float(np.mean(won)), wilson.low, wilson.high))
    intervals.append((lambda m, c: (m, m - c, m + c))(*_mean_ci(throws)))
    exact_values = [solo.first, solo.optimal, duel.p_first_wins, duel.expected_throws]
    shown = re.findall(r"exact ([\d.]+)(%?)\nsimulated ([^\n]+)\n(within|outside) its 95% CI",
                       page)
    assert len(shown) == 4
    for (exact, percent, sim, said), value, (m, lo, hi) in zip(shown, exact_values, intervals):
        scale = 100 if percent else 1
        assert float(exact) == pytest.approx(scale * value, abs=10 ** -4)
        assert said == ("within" if lo <= value <= hi else "outside"), exact
        # the printed figures: the mean and the interval as computed here, to their digits
        nums = [float(x) for x in re.findall(r"-?[\d.]+", sim)]
        digits = len(sim.split(" ")[0].split(".")[1]) if "." in sim.split(" ")[0] else 0
        tol = 0.51 * 10 ** -digits
        if "[" in sim:  # a proportion: its Wilson interval
            assert percent and nums == pytest.approx([scale * m, scale * lo, scale * hi], abs=tol)
            p_lo, p_hi = nums[1], nums[2]
        else:
            assert nums == pytest.approx([scale * m, scale * (hi - m)], abs=tol)
            p_lo, p_hi = nums[0] - nums[1], nums[0] + nums[1]
        # "within"/"outside" is true of the printed numbers too
        assert (p_lo - 1e-9 <= float(exact) <= p_hi + 1e-9) == (said == "within"), (exact, sim)
    # the exact figures themselves, as docs/rutsmieter.md states them
    assert "exact 63.98704" in page and "exact 63.96333" in page
    assert "exact 53.7962%" in page and "exact 33.28023" in page


def test_cheat_sheet_reads_the_policy_file(texts):
    """The weights, ranked by size, as the policy file has them; under the
    default house rules capture, coming out and the start square are forced
    by the obligations, so their weights decide no choice."""
    from tutto_sim.rutsmieter.report_figures import FULL_LINES

    d, w = _tuned_weights()
    w = _at_players(d, 4) or w  # the sheet teaches the default table of 4
    page = texts["01-how-to-move"]
    joined = " ".join(t.replace("\n", " ") for t in page)
    shown = [f"{x:+.3g}".replace("-", "−") for x in w]
    order = [k for k in sorted(range(len(w)), key=lambda k: -abs(w[k])) if w[k] != 0]
    spots = []
    for rank, k in enumerate(order):  # in full, one a line; the smaller in one paragraph
        words = f": {shown[k]} " if rank < FULL_LINES else f" {shown[k]} ("
        hits = [i for i, t in enumerate(page) if words in t.replace("\n", " ")]
        assert hits, (d["features"][k], shown[k])
        spots.append(hits[0])
    assert spots[:FULL_LINES] == sorted(spots[:FULL_LINES]), "weights not ranked by size"
    assert "How to move at 4 players" in joined
    assert joined.count("decided no choice: with must capture on") == 1
    assert joined.count("decided no choice: with must leave the house on") == 2
    assert "Worked examples from real games" in joined


def test_cheat_sheet_follows_another_policy_file(tmp_path, monkeypatch):
    """Other weights in the file, other words on the sheet: nothing is hard-coded."""
    from matplotlib.text import Text

    from tutto_sim.core.report import style
    from tutto_sim.rutsmieter import policy as P
    from tutto_sim.rutsmieter.report_data import sample_choices
    from tutto_sim.rutsmieter.report_figures import cheat_sheet, weight_sentence

    odd = (0.0, 11.0, -7.25, 0.0, 3.0, 40.0, -1.0)
    WeightsPolicy(odd, RULES).write(tmp_path / P.DEFAULT_FILE)
    monkeypatch.setattr(P, "default_policy_path", lambda: tmp_path / P.DEFAULT_FILE)
    policy = P.default_policy(RULES)
    assert policy.weights == odd + (0.0,) * (len(FEATURES) - len(odd))
    choices = sample_choices(policy, RULES, 1, SEED)
    data = SimpleNamespace(rules=RULES, seed=SEED, games=GAMES, choices=choices,
                           policy=policy, bots={})  # no tournaments: no note on 4 players
    with style():
        sheet = cheat_sheet(data, 1)
    words = " ".join(t.get_text().replace("\n", " ") for t in sheet.fig.findobj(Text))
    assert "Prefers moving a piece into the goal lane: +40 for a piece into the goal lane." \
        in words  # no "as much as walking": walking further has no weight
    assert "Avoids landing within reach of opponents: −7.25 per opponent piece" in words
    assert "Ignores landing just behind opponents." in words
    assert "Weighs only what the move itself does (a policy file of the first 7 weights)" in words
    # the obligations of the default house rules leave no choice about walking further
    assert "Walking further: no weight, as the house rules leave no choice about it." in words
    assert weight_sentence("capture", 30.0, 2.0) == (
        "Prefers capturing a piece: +30 for a capture (as much as walking 15 squares).")
    assert weight_sentence("progress", 0.0, 0.0, RutsmieterRules(must_leave_house=False)) == \
        "Ignores walking further."
    # by size, the weights the house rules leave idle (capture, leaving) after the others
    assert words.index("+40") < words.index("−7.25") < words.index("+11") < words.index("+3 ")


def test_worked_examples_list_every_point_of_each_score():
    """Beside a worked example, a move's points (its own line and the line of
    what every move shares) add up to its score: the shipped weights (read
    as JSON) times the move's features; examples of every kind from 4 games."""
    from tutto_sim.rutsmieter.policy import default_policy
    from tutto_sim.rutsmieter.report_data import examples, sample_choices
    from tutto_sim.rutsmieter.report_figures import example_text, ranked_features

    from tutto_sim.rutsmieter.policy import full_weights

    d, w = _tuned_weights()
    # the 2-player set: the one with most weights (the 4-player set weighs captures only)
    two = RutsmieterRules(players=2)
    w = list(full_weights(_at_players(d, 2) or w))  # the file's features, all of them
    policy = default_policy(two)
    choices = sample_choices(policy, two, 4, SEED)
    worked = examples(choices, [f for f in ranked_features(w) if w[FEATURES.index(f)]],
                      limit=20)
    assert {"tie", "danger_behind"} <= {f for f, _ in worked}
    number = re.compile(r"\(([+−][0-9.]+)\)")
    shared_seen = False
    for feature, c in worked:
        lines = example_text("Example", feature, c, w)
        moves = lines[1:1 + len(c.obs.moves)]
        shared = [t for t in lines if t.startswith(("Both moves: ", "Every move: "))]
        shared_seen |= bool(shared)
        common = sum(float(x.replace("−", "-")) for t in shared for x in number.findall(t))
        for i, line in enumerate(moves):
            listed = sum(float(x.replace("−", "-")) for x in number.findall(line)) + common
            score = sum(wk * fk for wk, fk in zip(w, c.features[i]))
            # the points are shown to 3 significant digits: they add up to that rounding
            terms = len(number.findall(line)) + sum(len(number.findall(t)) for t in shared)
            assert listed == pytest.approx(score, abs=0.051 * terms), (feature, line, shared, score)
    assert shared_seen  # walking the same squares is listed once, for every move


def test_sampled_choices_are_the_tuned_bots_moves():
    """Every recorded choice is the move the tuned bot makes in that position,
    every other recorded move the one it makes with a weight set to 0, and
    the choices are exactly the throws with two or more allowed moves."""
    from tutto_sim.rutsmieter.policy import default_policy
    from tutto_sim.rutsmieter.report_data import sample_choices, without_weight

    policy = default_policy(RULES)
    got = sample_choices(policy, RULES, 1, SEED)
    seen = []
    rec = play_game([policy.bot()] * 4, RULES, SEED, 0,
                    observe=lambda s: seen.append(len(s.moves)))
    assert got.throws == rec.throws == len(seen)
    assert [c.throw for c in got.choices] == [i + 1 for i, n in enumerate(seen) if n >= 2]
    for c in got.choices:
        assert c.chosen == policy.choose(c.obs)
        for k, f in enumerate(FEATURES):
            assert c.without[k] == without_weight(policy, f).choose(c.obs)


def test_rutsmieter_is_a_sample_report_with_games_per_table():
    module = report_module("rutsmieter")
    assert module.SIZE.option == "--games" and module.SIZE.words == "games per table"
    assert "rutsmieter" in sample_games()
    assert not hasattr(module, "default_rules")  # make_reports.py builds the defaults


@pytest.mark.parametrize("args, needle", [
    (("--games", "0"), "--games"),
    (("--turns", "100"), "--turns does not apply to report --game rutsmieter: give --games "
                         "(games per table)"),
    (("--must-capture", "maybe"), "--must-capture must be on or off"),
    (("--x2-scope", "card"), "--x2-scope does not apply"),
    (("--tournament", "/nonexistent.csv"), "--tournament: no such file"),
    (("--seed", "-1"), "--seed"),
    (("--players", "5"), "--players must be 2, 3 or 4"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, out, err = run_cli(capsys, "report", "--game", "rutsmieter",
                             "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err, err
    assert not (tmp_path / "r").exists()


def test_a_tournament_of_another_game_is_refused_before_computing(tmp_path):
    from tutto_sim.core.report import TournamentFileError

    csv = tmp_path / "t.csv"
    csv.write_text("game,kind,name,win_rate,ci95\nmacke,bot,a,0.5,0.01\n", encoding="utf-8")
    with pytest.raises(TournamentFileError, match="this report is about Rutsmieter"):
        report_module("rutsmieter").build(tmp_path / "r", RULES, tournament=csv)
    assert not (tmp_path / "r").exists()


def test_the_ladder_page_reads_the_saved_ladders(texts, tmp_path):
    """Page 7: every bot of each saved ladder (read here as plain JSON) with its rating
    and 95% CI, the command, seed and machine that made it; without a ladder of the
    report's house rules, a page that says so."""
    from matplotlib.text import Text

    from tutto_sim.core.report import style
    from tutto_sim.rutsmieter.report_data import saved_ladders
    from tutto_sim.rutsmieter.report_figures import bot_label, bot_ladder

    page = texts["07-bot-ladder"]
    joined = " ".join(t.replace("\n", " ") for t in page)
    for n in (2, 3, 4):
        d = json.loads((LADDERS / f"rutsmieter-{n}p.json").read_text(encoding="utf-8"))
        assert d["rules"] == dataclasses.replace(RULES, players=n).to_dict()
        ticks = [t for t in page if t in {bot_label(b) for b in d["ranking"]}]
        assert len(set(ticks)) == len(d["ranking"])
        for b in d["ranking"]:
            r = d["ratings"][b]
            shown = f"{r['rating']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]".replace("-", "−")
            assert shown in page, (n, b)
        commands = [re.sub(r",\n", ",", t).replace("\n", " ") for t in page
                    if t.startswith("tutto-sim ladder")]
        assert d["command"] in commands, (d["command"], commands)
        assert (f"{n} players: {d['games']:,} games, {d['games_per_pair']:,} per pair of bots, "
                f"seed {d['seed']}") in joined
        assert d["machine"] in joined and d["measured_on"] in joined
    assert saved_ladders(RULES, tmp_path) == {}
    assert saved_ladders(RutsmieterRules(goal_no_jump=True)) == {}  # other house rules
    data = SimpleNamespace(rules=RULES, seed=SEED, games=GAMES, ladders={})
    with style():
        sheet = bot_ladder(data, 7)
    assert "No saved ladder fits these house rules" in sheet.caption
    assert not [t for t in sheet.fig.findobj(Text) if t.get_text().startswith("tutto-sim")]


def _table_policy(tmp_path, monkeypatch):
    """A shipped policy file of its own weight set at 2 and at 4 players (all features)."""
    from tutto_sim.rutsmieter import policy as P

    base = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0)

    def weights(**kw):
        return tuple(kw.get(f, dict(zip(FEATURES, base)).get(f, 0.0)) for f in FEATURES)

    sets = {2: weights(capture_progress=0.05, capture_leader=0.25),
            4: weights(danger_behind=-1.5, own_goal=9.0, own_threatened=-3.5, next_danger=-2.0)}
    path = WeightsPolicy(base, RULES, by_players=tuple(sets.items())).write(
        tmp_path / P.DEFAULT_FILE)
    monkeypatch.setattr(P, "default_policy_path", lambda: path)
    return sets


def test_the_cheat_sheet_teaches_the_weight_set_of_its_table(tmp_path, monkeypatch):
    """With a weight set per table size, the sheet at 2 and at 4 players plays and
    words each table's own set (sampled at that table); the PNG of the sheet alone
    (the sample's 2-player sheet) is the report's page 1 at that size."""
    from PIL import Image

    from tutto_sim.rutsmieter.report import cheat_sheet_png
    from tutto_sim.rutsmieter.report_data import cheat_sheet_choices
    from tutto_sim.rutsmieter.report_figures import cheat_sheet, table_words
    from tutto_sim.core.report import style

    sets = _table_policy(tmp_path, monkeypatch)
    for n, w in sets.items():
        ch = cheat_sheet_choices(RULES, n, GAMES, SEED)
        assert ch.players == n and ch.policy.weights == w and ch.policy.rules.players == n
        assert all(len(c.obs.seats) == n for c in ch.choices)
        data = SimpleNamespace(rules=RULES, seed=SEED, games=GAMES, choices=ch,
                               policy=ch.policy, bots={})
        with style():
            sheet = cheat_sheet(data, 1)
        from matplotlib.text import Text

        words = " ".join(t.get_text().replace("\n", " ") for t in sheet.fig.findobj(Text))
        assert sheet.title == f"How to move at {n} players: the tuned bot's policy"
        assert table_words(ch.policy, n) == f"the weight set for {n} players"
        assert f"Weights: the weight set for {n} players of " in sheet.caption
        if n == 4:
            assert "Prefers pieces in the goal lane: +9 per piece of yours in the goal lane" in words
            assert "Avoids landing within reach of opponents: −1.5 per" in words
            assert "Avoids pieces an opponent can hit: −3.5 per piece of yours within reach" in words
        else:
            assert "Avoids landing within reach of opponents: −4 per" in words
            assert ("Prefers capturing a piece of the opponent furthest ahead: +0.25 for "
                    "capturing the leader's piece") in words
    png = cheat_sheet_png(tmp_path / "sheet.png", RULES, SEED, GAMES, players=2)
    with Image.open(png) as im:
        assert im.text["Title"] == "How to move at 2 players: the tuned bot's policy"
        assert f"among {GAMES // 720} game of tuned in every seat at 2 players" in im.text["Description"]


def test_feature_words_cover_every_feature():
    from tutto_sim.rutsmieter.words import FEATURE_SHORT, FEATURE_WORDS, feature_value_words

    assert set(FEATURE_WORDS) == set(FEATURES) and set(FEATURE_SHORT) == {*FEATURES, "tie"}
    assert feature_value_words("capture_leader", 1) == "captures the leader's piece"
    assert feature_value_words("capture_progress", 23) == "its piece had come 23 squares"
    assert feature_value_words("next_danger", 1) == "leaves a piece the next player can hit"
    assert feature_value_words("start_danger", 2) == \
        "2 pieces an opponent can reach from its start square"
    for f in FEATURES:
        for v in (0, 1, 5):
            text = feature_value_words(f, v)
            assert not SNAKE.search(text) and not ONE_PLURAL.search(text), (f, v, text)


def test_players_is_for_the_rutsmieter_report_only(capsys, tmp_path):
    code, out, err = run_cli(capsys, "report", "--game", "tutto", "--players", "2",
                             "--out", str(tmp_path / "r"))
    assert code == 2 and err.count("\n") == 1 and "--players: the tutto report" in err, err
    assert not (tmp_path / "r").exists()


def test_the_sample_adds_the_two_player_cheat_sheet(tmp_path):
    """scripts/make_reports.py's extra for Rutsmieter: the 2-player cheat sheet
    beside the report at 4, listed in its index."""
    module = report_module("rutsmieter")
    (tmp_path / "README.md").write_text("# index\n", encoding="utf-8")
    [png] = module.sample_extras(tmp_path, SEED, GAMES)
    assert png.name == "01-how-to-move-2-players.png" and png.exists()
    index = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert index.startswith("# index\n") and "## How to move at 2 players" in index
    assert "(01-how-to-move-2-players.png)" in index and "--players 2" in index
