"""``tutto-sim report --game tutti``: the files and the index, the words on
the pages, byte-identical output for the same seed, and the numbers on the
pages against independent recomputations: matches in the reference engine,
the kernel's own matches and hands, reference hands with a side that never
exchanges or declares, dealt Tutes counted by falling factorials and in the
deals themselves.

One small report (288 matches per table) is built in this process and the
same one in a child process on one numba thread; they must be identical
byte for byte. That is most of this file's run time.
"""

import json
import math
import re
from pathlib import Path

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

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.report import estimate_text, pct, pm, report_module, rules_label, sample_games, sentence
import tutto_sim as tutti
from tutto_sim.tutti import kernel as K
from tutto_sim.tutti.bots import HeuristicBot
from tutto_sim.tutti.cards import HORSE, KING, card
from tutto_sim.tutti.reference import play_hand
from tutto_sim.core.report import signed
from tutto_sim.tutti.rules import TuttiRules


MATCHES = 288
SEED = 3
PNGS = ["01-bot-win-rates", "02-lead", "03-exchange-and-declaring", "04-trump-card-rank",
        "05-dealt-tute", "06-points-per-hand", "07-bot-ladder"]
Z = 1.959963984540054
RULES = TuttiRules()
TABLES = {"2": TuttiRules(players=2), "3": TuttiRules(players=3), "4": TuttiRules(players=4),
          "4p": TuttiRules(players=4, pairs=True)}
WORDS = {"2": "2 players", "3": "3 players", "4": "4 players", "4p": "4 in pairs"}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The same report twice: (in-process, all threads), (child process, 1 thread)."""
    return build_twice(tmp_path_factory, ["report", "--game", "tutti", "--games",
                                          str(MATCHES), "--seed", str(SEED)], "tutti")


@pytest.fixture(scope="module")
def report_dir(reports):
    return reports[0]


@pytest.fixture(scope="module")
def texts(reports):
    return reports[2]


def _mean_ci(x) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return float(x.mean()), Z * float(x.std(ddof=1)) / math.sqrt(len(x))


def _page(texts, name) -> str:
    return " ".join(texts[name])


def test_files_pages_and_index(report_dir):
    from PIL import Image

    assert sorted(p.stem for p in report_dir.glob("*.png")) == PNGS
    pdf = (report_dir / "tutti-report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and b"/CreationDate" not in pdf
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf)) == 1 + len(PNGS)
    assert f"rules_sha256={RULES.digest()}".encode() in pdf
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    label = sentence(rules_label(RULES))
    assert label == f"Default Tutti rules (docs/tutti.md), rules fingerprint {RULES.digest()[:12]}"
    for page, name in enumerate(PNGS, 2):
        path = report_dir / f"{name}.png"
        img = imread(path)
        assert min(img.shape[:2]) >= 1000, name  # 150 dpi
        grey = img[..., :3].mean(axis=2)
        assert grey.std() > 0.08 and (grey < 0.3).mean() > 0.005, f"{name} looks blank"
        with Image.open(path) as im:
            title, caption = im.text["Title"], im.text["Description"]
        assert f"## {title}\n\n![{title}]({name}.png)\n\n{caption} (PDF page {page}.)" in index
        if name == "07-bot-ladder":  # a saved run: its own seed and command, said so
            saved = json.loads((Path(tutti.__file__).parent / "data" / "ladders"
                                / "tutti-2p.json").read_text(encoding="utf-8"))
            assert label in caption and f"seed {saved['seed']}" in caption, name
            assert "a saved run" in caption and "tutto_sim/data/ladders/tutti-2p.json" in caption
            assert f"{saved['games']:,} in all" in caption
        else:
            assert label in caption and f"seed {SEED}" in caption, name
        if name != "05-dealt-tute":  # the other pages name every table's fingerprint
            assert f"4 in pairs {TABLES['4p'].digest()[:12]}" in caption, name


def test_same_seed_same_bytes(reports):
    here, child, _ = reports
    for f in sorted(here.iterdir()):
        assert f.read_bytes() == (child / f.name).read_bytes(), f"{f.name} differs"


def test_pages_speak_the_players_language(report_dir, texts):
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    assert sorted(texts) == sorted(["cover", *PNGS])
    command = f"tutto-sim report --game tutti --seed {SEED} --games {MATCHES} --out DIR"
    assert command in texts["cover"]
    for name, found in [("README.md", [index])] + sorted(texts.items()):
        for t in found:
            if name == "cover" and t.strip() in command:
                continue
            for bad in (CODE_NAMES, SNAKE, ONE_PLURAL, ZERO_CI, BANK_AT_ZERO):
                assert not bad.search(t), (name, t)
            assert not re.search(r"must_answer|allow_tute|tute_wins|abstain|4p\b|kernel id",
                                 t), (name, t)
    cover = _page(texts, "cover")
    for words in ("Must answer a trump lead with a trump (2 players, while the stock has "
                  "cards): off", "Hands to win the match: 1", "Tute: on"):
        assert words in cover


def test_bot_win_rates_are_those_of_reference_matches(texts):
    """The kernel's tournaments on the page, replayed match by match in the
    reference engine (2 players and 4 in pairs) and in the shared tournament."""
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.tutti.bots import parse_bot
    from tutto_sim.tutti.game import GameConfig

    page = _page(texts, "01-bot-win-rates")
    ticks = "\n".join(texts["01-bot-win-rates"])
    for table, rules in TABLES.items():
        engine = "reference" if table in ("2", "4p") else "kernel"
        res = run_tournament([parse_bot(n, rules) for n in ("heuristic", "random")],
                             rules.players, MATCHES, SEED, GameConfig(rules), engine=engine)
        for b in res.bot_stats():
            shown = estimate_text(wilson_of(b.win.mean * b.win.n, b.win.n), True, stacked=True)
            assert f"{b.name}\n{shown}" in page, (table, b.name)
            if table == "2" and b.name == "heuristic":
                assert (f"At 2 players the heuristic bot wins "
                        f"{estimate_text(wilson_of(b.win.mean * b.win.n, b.win.n), True)} of its "
                        "matches against random") in _page(texts, "cover")
        ppt = [res.summary.points_per_hand(i).mean for i in range(2)]
        assert (f"{WORDS[table]}\npoints per hand:\nheuristic {ppt[0]:.1f}\n"
                f"random {ppt[1]:.1f}") in ticks, table


def test_search_bots_are_the_saved_matches_at_their_own_budgets(texts):
    """The search bots' bars are the saved matches docs/tutti.md quotes (read
    here as plain JSON), at their own budgets, said so under the bars; the
    report plays no small-budget match of its own then."""
    import json

    from tutto_sim.core.measured import MEASURED_DIR
    from tutto_sim.tutti.ismcts import DEFAULT_ITERATIONS
    from tutto_sim.tutti.pimc import DEFAULT_SAMPLES

    page = _page(texts, "01-bot-win-rates")
    for kind, budget, what in (("pimc", DEFAULT_SAMPLES, "deals"),
                               ("ismcts", DEFAULT_ITERATIONS, "iterations")):
        d = json.loads((MEASURED_DIR / f"tutti-{kind}-heuristic.json").read_text("utf-8"))
        assert d["rules_sha256"] == TABLES["2"].digest() and d["budget"] == budget
        share = d["wins"] + d["ties"] / 2
        for name, won in ((kind, share), ("heuristic", d["n"] - share)):
            shown = estimate_text(wilson_of(won, d["n"]), True, stacked=True)
            assert f"{name}\n{shown}" in page, name
        assert (f"{kind} at its own budget,\n{budget} {what} per decision,\n2 players,\n"
                f"{d['n']} hands (saved)") in page
        assert f"tutto_sim/data/measured/tutti-{kind}-heuristic.json" in page
    assert "small budget" not in page


def test_without_a_saved_measurement_the_search_bots_play_a_small_budget(tmp_path):
    """With no saved measurement for the report's options, the report plays
    its own short matches with small budgets and says they are small; they
    are the matches a direct tournament plays."""
    from matplotlib.text import Text

    from tutto_sim.core.report import style
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.tutti.bots import parse_bot
    from tutto_sim.tutti.game import GameConfig
    from tutto_sim.tutti.report_data import SEARCH_BOTS, compute, saved_search, sizes
    from tutto_sim.tutti.report_figures import bot_win_rates

    assert set(saved_search(RULES)) == {"pimc", "ismcts"}
    assert saved_search(TuttiRules(hands=3)) == {}  # other options: no saved figure applies
    matches = 72
    data = compute(RULES, SEED, matches, measured_dir=tmp_path)  # an empty folder
    assert data.saved == {} and sorted(data.search) == sorted(SEARCH_BOTS)
    with style():
        sheet = bot_win_rates(data, 1)
    page = " ".join(t.get_text() for t in sheet.fig.findobj(Text))
    for spec, what in zip(SEARCH_BOTS, ("deals", "iterations")):
        kind, _, budget = spec.partition(":")
        assert f"{kind} with a small budget,\n{budget} {what} per decision,\n2 players" in page
        res = run_tournament([parse_bot(spec, TABLES["2"]),
                              parse_bot("heuristic", TABLES["2"])], 2,
                             sizes(matches)["search"], SEED, GameConfig(TABLES["2"]),
                             engine="reference")
        for b in res.bot_stats():
            name = kind if b.name != "heuristic" else b.name
            shown = estimate_text(wilson_of(b.win.mean * b.win.n, b.win.n), True, stacked=True)
            assert f"{name}\n{shown}" in page, spec
    assert "A small budget is too small to show the bot's strength" in sheet.caption


def test_lead_is_the_kernels_matches(texts):
    """Heuristic in every seat: the seats' win rates, the leader's advantage and
    each seat's points per hand from the kernel's own matches."""
    page = _page(texts, "02-lead")
    for table, rules in TABLES.items():
        run = K.simulate(["heuristic"] * rules.players, rules, SEED, MATCHES)
        for j in range(rules.players):
            shown = estimate_text(wilson_estimate(run.winner == rules.side(j)), True, stacked=True)
            assert shown in page, (table, j)
            side = run.points[:, rules.side(j)].astype(float)
            assert f"{side.sum() / run.hands.sum():.1f}" in page, (table, j)
        adv = estimate_text(wilson_estimate(run.winner == 0).shift(-1 / rules.sides), True, True,
                            unit=" points")
        assert f"{WORDS[table]}\nleader's advantage\n{adv}" in page, table


class Never:
    """Heuristic, except that it never takes the actions of ``kinds``."""

    name = "never"

    def __init__(self, kinds):
        self.kinds = kinds

    def act(self, obs):
        legal = tuple(a for a in obs.legal if a.kind not in self.kinds)
        return HeuristicBot().act(obs._replace(legal=legal))


def _option_values(rules, kinds, deals):
    """Per deal, mean over the sides: points and hands won with the option
    minus without it (the side never using it), on the same deal."""
    points, wins = [], []
    for i in range(deals):
        full = play_hand(parse_bots(["heuristic"] * rules.players, rules), rules, SEED, i)
        dp = dw = 0.0
        for s in range(rules.sides):
            bots = [Never(kinds) if rules.side(j) == s else HeuristicBot()
                    for j in range(rules.players)]
            without = play_hand(bots, rules, SEED, i)
            dp += (full.scores[s] - without.scores[s]) / rules.sides
            dw += ((full.winner == s) - (without.winner == s)) / rules.sides
        points.append(dp)
        wins.append(dw)
    return points, wins


def test_exchange_and_declaring_are_paired_reference_hands(texts):
    page = _page(texts, "03-exchange-and-declaring")
    checks = [(TABLES["2"], ("exchange",), MATCHES // 50)]
    checks += [(rules, ("declare", "tute"), MATCHES // 100) for rules in TABLES.values()]
    for rules, kinds, deals in checks:
        points, wins = _option_values(rules, kinds, deals)
        assert signed(*_mean_ci(points)) in page, (rules, kinds)
        m, c = _mean_ci(wins)
        assert signed(100 * m, 100 * c) in page, (rules, kinds)


def test_trump_rank_titles_are_the_kernels_hands(texts):
    page = _page(texts, "04-trump-card-rank")
    for table, rules in TABLES.items():
        run = K.simulate_hands(["heuristic"] * rules.players, rules, SEED, 5 * MATCHES)
        won = estimate_text(wilson_estimate(run.winner == 0), True)
        assert f"{WORDS[table]}: the leader's side wins {won} of hands" in page


def test_dealt_tutes_exact_by_falling_factorials_and_counted_in_the_deals(texts):
    """Per player: four given cards among h of N with h⁽⁴⁾/N⁽⁴⁾, Kings or Horses
    2·h⁽⁴⁾/N⁽⁴⁾ − h⁽⁸⁾/N⁽⁸⁾; sampled: the deals counted here."""
    from tutto_sim.tutti.analysis import deals

    page = _page(texts, "05-dealt-tute")
    kings = sum(1 << card(s, KING) for s in range(4))
    horses = sum(1 << card(s, HORSE) for s in range(4))
    n_deals = 50 * MATCHES
    for players, size, h in ((2, 40, 8), (3, 36, 12), (4, 40, 10)):
        def fall(a, k):
            return math.prod(a - i for i in range(k))

        exact = 2 * fall(h, 4) / fall(size, 4) - fall(h, 8) / fall(size, 8)
        hands, _ = deals(players, SEED, 0, n_deals)
        tute = ((hands & kings) == kings) | ((hands & horses) == horses)
        # a player: the mean over a deal's seats, its SE from whole deals, and the
        # Wilson interval on the effective number of hands p(1-p)/SE² (closed form)
        m, c = _mean_ci(tute.mean(axis=1))
        n_eff = m * (1 - m) / (c / Z) ** 2
        centre, half = (m + Z * Z / (2 * n_eff)), Z * math.sqrt(m * (1 - m) / n_eff
                                                                 + Z * Z / (4 * n_eff ** 2))
        lo, hi = (centre - half) / (1 + Z * Z / n_eff), (centre + half) / (1 + Z * Z / n_eff)
        found = re.search(r"exact ([\d.]+)%\n" + re.escape(f"one hand in {1 / exact:,.0f}\n")
                          + r"sampled ([\d.]+) \[([\d.]+), ([\d.]+)\]%\n(within|outside) its 95% CI",
                          page)
        assert found, players
        # the exact value and the sampled one with the same decimals, at least pct's
        digits = len(found.group(2).partition(".")[2])
        assert len(found.group(1).partition(".")[2]) == digits >= \
            len(pct(exact).rstrip("%").partition(".")[2]), players
        assert found.group(1) == f"{100 * exact:.{digits}f}", players
        shown = [float(x) for x in found.groups()[1:4]]
        tol = 0.51 * 10 ** -digits
        assert shown == pytest.approx([100 * m, 100 * lo, 100 * hi], abs=tol), players
        assert found.group(5) == ("within" if lo <= exact <= hi else "outside"), players
        # the printed figures say the same: the printed exact inside the printed interval
        assert (shown[1] <= float(found.group(1)) <= shown[2]) == (found.group(5) == "within")
        # some player: whole deals, scipy's Wilson interval
        e = wilson_estimate(tute.any(axis=1))
        want = [100 * e.mean, 100 * e.low, 100 * e.high]
        assert any([float(x) for x in t] == pytest.approx(
            want, abs=0.51 * 10 ** -len(t[0].partition(".")[2]))
            for t in re.findall(r"sampled ([\d.]+) \[([\d.]+), ([\d.]+)\]%", page)), players


def test_points_per_hand_are_the_kernels_hands(texts):
    page = _page(texts, "06-points-per-hand")
    for table, rules in TABLES.items():
        run = K.simulate_hands(["heuristic"] * rules.players, rules, SEED, 5 * MATCHES)
        pts = run.points[:, :rules.sides].astype(np.int64)
        m, c = _mean_ci(pts.mean(axis=1))
        assert f"{WORDS[table]}: mean {pm(m, c)}, median {np.median(pts):,.0f}; " in page
        won = np.array([pts[i, w] for i, w in enumerate(run.winner) if w >= 0])
        m, c = _mean_ci(won)
        assert f"{WORDS[table]}: mean {pm(m, c)}, median {np.median(won):,.0f}" in page


def test_declared_points_are_what_the_hands_declare():
    """The page's points declared per hand (a hand's points minus 130) are the
    declarations of the same hands in the reference engine."""
    from tutto_sim.tutti.report_data import hand_points

    for table, rules in TABLES.items():
        hp = hand_points(RULES, table, 40, SEED)
        for i in range(40):
            rec = play_hand(parse_bots(["heuristic"] * rules.players, rules), rules, SEED, i)
            assert hp.tute[i] == (rec.tute >= 0)
            assert list(hp.points[i]) == list(rec.scores)
            if rec.tute < 0:
                assert hp.declared[i] == rec.declared_points


def test_tutti_is_a_sample_report_with_matches_per_table():
    module = report_module("tutti")
    assert module.SIZE.option == "--games" and module.SIZE.words == "matches per table"
    assert module.SIZE.default % 72 == 0  # every seating equally often at every table
    assert "tutti" in sample_games()


@pytest.mark.parametrize("args, needle", [
    (("--games", "0"), "--games"),
    (("--turns", "100"), "--turns does not apply to report --game tutti: give --games "
                         "(matches per table)"),
    (("--pairs", "on"), "--pairs does not apply to report --game tutti"),
    (("--must-answer-trump", "on"), "--must-answer-trump on is a rule of the 2-player game"),
    (("--hands", "9"), "--hands must be 1..5"),
    (("--x2-scope", "card"), "--x2-scope does not apply"),
    (("--tournament", "/nonexistent.csv"), "--tournament: no such file"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, _, err = run_cli(capsys, "report", "--game", "tutti", "--out", str(tmp_path / "r"),
                           *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err, err
    assert not (tmp_path / "r").exists()


def test_a_tournament_of_another_game_is_refused_before_computing(tmp_path):
    from tutto_sim.core.report import TournamentFileError

    csv = tmp_path / "t.csv"
    csv.write_text("game,kind,name,win_rate,ci95\nmacke,bot,a,0.5,0.01\n", encoding="utf-8")
    with pytest.raises(TournamentFileError, match="this report is about Tutti"):
        report_module("tutti").build(tmp_path / "r", RULES, tournament=csv)
    assert not (tmp_path / "r").exists()
