"""``tutto-sim report``: the PDF's pages, real charts, captions naming the
rules in the players' words, byte-identical output for the same seed, and
one-line errors.

Two small reports (a few thousand turns per point) are built side by side, one
in this process and one in a child process on one numba thread, which is most
of this file's run time; they must be identical byte for byte. The in-process
one also records every text drawn on its figures (titles, labels, legends,
table cells, captions), which the wording tests read.
"""

import re
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import run_cli
from matplotlib.image import imread
from report_checks import (  # noqa: F401
    BANK_AT_ZERO,
    CODE_NAMES,
    ONE_PLURAL,
    SNAKE,
    WIN_TARGET,
    ZERO_CI,
    build_twice,
    record_texts,
    win_tables_here,
)

from tutto_sim.core.report import (
    TournamentFileError,
    count,
    merge_same,
    pct,
    pm,
    read_tournament,
    report_module,
    rules_flags,
    rules_label,
    sentence,
    threshold_words,
    tournament_game,
)
from tutto_sim.macke.rules import MackeRules
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.report_data import BANK_300, OPTIMAL, REFERENCE, THRESHOLD_GRID, exact_cap
from tutto_sim.tutto.report_figures import (
    _th,
    after_tutto_cards,
    banked_entries,
    draw_rule_words,
    policy_values,
    sweep_key_text,
)
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import policy_value, solve_tutto
from tutto_sim.tutto.turn_kernel import NEVER


TURNS = 2000
SEED = 3
PNGS = [
    "01-cheat-sheet",
    "02-bank-threshold-bonus200",
    "03-bank-threshold-bonus300",
    "04-bank-threshold-bonus400",
    "05-bank-threshold-bonus500",
    "06-bank-threshold-bonus600",
    "07-bank-threshold-x2",
    "08-optimal-policy-map",
    "09-after-tutto-draw-or-bank",
    "10-card-values",
    "11-banked-points-distribution",
    "12-strasse",
    "13-win-chance",
    "14-win-bank-thresholds",
    "15-win-table-sizes",
    "16-tournament",
]
SIMULATED = {"02", "03", "04", "05", "06", "07", "11"}


@pytest.fixture(scope="module")
def tournament_csv(tmp_path_factory):
    """A tournament's CSV as ``tutto-sim tournament`` writes it (4,000 games)."""
    from tutto_sim.cli import main

    csv_dir = tmp_path_factory.mktemp("tournament")
    main(["tournament", "--game", "tutto", "--bots", "optimal,cautious", "--players", "2",
          "--games", "4000", "--seed", "3", "--out-dir", str(csv_dir), "--json"])
    return next(csv_dir.glob("tournament*.csv"))


@pytest.fixture(scope="module")
def reports(tmp_path_factory, tournament_csv):
    """The same report twice: (in-process, all threads), (child process, 1 thread),
    and the texts of the in-process one's pages (page name -> texts); with a
    tournament's page."""
    with win_tables_here(tmp_path_factory.mktemp("cwd"), ("tutto",)):
        return build_twice(tmp_path_factory, ["report", "--game", "tutto", "--turns", str(TURNS),
                                              "--seed", str(SEED), "--tournament",
                                              str(tournament_csv), "--win-target",
                                              str(WIN_TARGET)], "report")


@pytest.fixture(scope="module")
def report_dir(reports):
    return reports[0]


@pytest.fixture(scope="module")
def page_texts(reports):
    return reports[2]


def _pdf_pages(data: bytes) -> int:
    # page objects, not the page tree ("/Type /Pages")
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_pdf_has_a_cover_and_one_page_per_figure(report_dir):
    data = (report_dir / "tutto-report.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert _pdf_pages(data) == 1 + len(PNGS)
    assert b"/CreationDate" not in data and b"/ModDate" not in data
    assert f"rules_sha256={TuttoRules().digest()}".encode() in data
    assert not list(report_dir.glob(".*partial"))


def test_every_png_is_a_real_chart(report_dir):
    assert sorted(p.stem for p in report_dir.glob("*.png")) == PNGS
    for name in PNGS:
        path = report_dir / f"{name}.png"
        img = imread(path)
        assert img.ndim == 3 and min(img.shape[:2]) >= 1000, name  # 150 dpi
        grey = img[..., :3].mean(axis=2)
        assert grey.std() > 0.08, f"{name} looks blank"
        assert (grey < 0.3).mean() > 0.01, f"{name} has hardly any ink"
        assert path.stat().st_size < 300_000, f"{name} is not small"


def test_captions_name_the_rules_and_seed(report_dir):
    from PIL import Image

    label = sentence(rules_label(TuttoRules()))
    assert label == "Default rules (docs/rules.md), rules fingerprint 4ed213d666cd"
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    for name in PNGS:
        with Image.open(report_dir / f"{name}.png") as im:
            caption = im.text["Description"]
        # (mid-sentence on the tournament's page: "Report: Tutto, default rules ...")
        assert label in caption or label[0].lower() + label[1:] in caption, name
        if name[:2] in SIMULATED:
            assert f"seed {SEED}" in caption and f"{TURNS:,}" in caption, name
        assert f"({name}.png)" in index and caption in index


def test_same_seed_same_bytes(reports):
    here, child, _ = reports
    for name in PNGS:
        a = (here / f"{name}.png").read_bytes()
        b = (child / f"{name}.png").read_bytes()
        assert a == b, f"{name}.png differs between two runs with the same seed"
    for name in ("tutto-report.pdf", "README.md"):
        assert (here / name).read_bytes() == (child / name).read_bytes(), name


def test_games_are_registered_by_name():
    module = report_module("Tutto")
    assert module.SIZE.option == "--turns" and module.SIZE.default >= 100_000
    with pytest.raises(ValueError, match="valid: tutto, macke, volle-lotte"):
        report_module("kniffel")


@pytest.mark.parametrize("args, needle", [
    (("--game", "kniffel"), "--game must be one of tutto, macke, volle-lotte"),
    (("--game", "tutto", "--turns", "0"), "--turns"),
    (("--game", "tutto", "--games", "10"), "--games does not apply to report --game tutto: "
                                           "give --turns (turns per point)"),
    (("--x2-scope", "half"), "turn, card"),
    (("--seed", "-1"), "--seed"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, out, err = run_cli(capsys, "report", "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_rules_label_names_changed_rules():
    rules = TuttoRules(x2_scope="card", cloverleaf_value=6000)
    assert rules_label(rules) == (
        "rules: docs/rules.md with ×2 doubling only its own card's points and a Kleeblatt "
        f"success (two Tuttos) counted as 6,000 points, rules fingerprint {rules.digest()[:12]}")
    assert rules_label(TuttoRules(plusminus_chain="flat")).startswith(
        "rules: docs/rules.md with a Plus/Minus Tutto ending the turn with exactly 1,000, ")
    assert rules_label(TuttoRules()) == (
        "default rules (docs/rules.md), rules fingerprint 4ed213d666cd")
    assert rules_flags(rules) == ["--x2-scope card", "--cloverleaf-value 6000"]
    assert rules_flags(TuttoRules()) == []


def test_captions_and_figure_texts_speak_the_players_language(report_dir, page_texts):
    """No code names, flags, snake_case, "1 dice", zero CIs or "bank at ≥ 0"
    anywhere on the pages (captions, titles, labels, legends, table cells) or
    in the index."""
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    assert sorted(page_texts) == sorted(["cover", *PNGS])
    command = f"tutto-sim report --game tutto --seed {SEED} --turns {TURNS} --out DIR"
    for name, texts in [("README.md", [index])] + sorted(page_texts.items()):
        for t in texts:
            if name == "cover" and t.strip() in command:
                continue  # the command that reproduces the report
            assert not CODE_NAMES.search(t), (name, t)
            assert not SNAKE.search(t), (name, t)
            assert not ONE_PLURAL.search(t), (name, t)
            assert not ZERO_CI.search(t), (name, t)
            assert not BANK_AT_ZERO.search(t), (name, t)
    assert "rules fingerprint 4ed213d666cd" in index and "docs/rules.md" in index


def test_cards_have_their_printed_names(page_texts):
    cheat = page_texts["01-cheat-sheet"]
    assert "×2" in cheat and "x2" not in " ".join(cheat)
    assert "1. Bonus and ×2: bank as soon as the turn total reaches" in cheat
    assert "×2: EV of a turn against the bank threshold" in page_texts["07-bank-threshold-x2"]
    assert "x2" not in " ".join(page_texts["07-bank-threshold-x2"])


def test_thresholds_that_mean_always_or_never_say_so(page_texts):
    sol = solve_tutto()
    cheat = page_texts["01-cheat-sheet"]
    # Bonus 200 with 1 die left banks from 250, the least 5 set-aside dice can
    # score: the cheat sheet says "always bank", and the policy map too
    assert int(sol.bank_threshold[Card.BONUS200, 1]) == 250
    assert cheat.count("always bank") == sum(
        int(sol.bank_threshold[c, d]) <= (6 - d) * 50
        for c in (Card.BONUS200, Card.BONUS300, Card.BONUS400, Card.BONUS500, Card.BONUS600,
                  Card.X2) for d in range(1, 6)) > 0
    assert "always bank" in page_texts["08-optimal-policy-map"]
    assert _th(0) == "always bank" and _th(250, 1) == "always bank" and _th(300, 1) == "300"
    assert _th(NEVER) == "never bank" and _th(None, 3) == "never bank"
    assert draw_rule_words(NEVER) == "always draw another card"
    assert draw_rule_words(0) == "always bank"
    assert draw_rule_words(900) == ("draw another card while the turn total is below 900, "
                                    "bank from 900 on")
    assert threshold_words(0) == "always bank" and threshold_words(None) == "never bank"
    assert threshold_words(1250) == "bank at ≥ 1,250"


def test_no_draw_or_bank_threshold_for_cards_without_that_choice(report_dir, page_texts):
    from PIL import Image

    assert Card.CLOVERLEAF not in after_tutto_cards(TuttoRules())
    assert Card.FIREWORKS not in after_tutto_cards(TuttoRules())
    assert Card.STOP not in after_tutto_cards(TuttoRules())
    assert Card.PLUSMINUS in after_tutto_cards(TuttoRules())
    assert Card.PLUSMINUS not in after_tutto_cards(TuttoRules(plusminus_chain="bank"))
    with Image.open(report_dir / "09-after-tutto-draw-or-bank.png") as im:
        caption = im.text["Description"]
    assert caption.startswith("After a Tutto with Bonus, ×2, Plus/Minus or Straße (Street) ")
    assert "Feuerwerk, Kleeblatt and Stop have no such choice" in caption
    cheat = " ".join(page_texts["01-cheat-sheet"])
    assert "With Bonus, ×2, Plus/Minus or Straße (Street): draw another card while the turn " \
           "total is below 900, bank from 900 on." in cheat
    assert "Feuerwerk, Kleeblatt and Stop have no such choice" in cheat


def test_numbers_show_their_uncertainty(page_texts):
    assert pm(0.07123, 0.00041) == "0.0712 ± 0.0004"
    assert pm(0.4534, 0.0125) == "0.453 ± 0.013"
    assert pm(357.43, 2.04) == "357 ± 2" and pm(430.81, 1.02) == "430.8 ± 1.0"
    assert pm(0.4534, 0.0022, percent=True) == "45.3 ± 0.2%"
    assert pct(0.0082) == "0.82%" and pct(0.402) == "40.2%"
    legend = [t for t in page_texts["11-banked-points-distribution"] if ": mean " in t]
    assert len(legend) == 2
    for t in legend:  # "optimal: mean 361 ± 21 (exact 357.71)": the CI is not zero
        ci = re.search(r"mean [\d,.]+ ± ([\d.]+)", t).group(1)
        assert float(ci) > 0, t
    # P(0) is a chance: its Wilson interval "12.3 [11.9, 12.8]%", never a zero width
    shares = [re.fullmatch(r"([\d.]+) \[([\d.]+), ([\d.]+)\]%", t)
              for t in page_texts["11-banked-points-distribution"]]
    shares = [[float(x) for x in m.groups()] for m in shares if m]
    assert len(shares) == 2 and all(lo < p < hi for p, lo, hi in shares), shares


def test_plurals():
    assert [count(1, "die"), count(2, "die"), count(1, "turn"), count(2000, "turn")] == \
        ["1 die", "2 dice", "1 turn", "2,000 turns"]
    assert count(1, "sweep") == "1 sweep" and count(1, "series") == "1 series"


def test_identical_policies_are_shown_once():
    """Two policies worth the same for every card are one legend entry and one
    row, named as both."""
    a, b = np.arange(11.0), np.arange(11.0) + 1
    data = SimpleNamespace(card_values={OPTIMAL: a, REFERENCE: b, BANK_300: b.copy()},
                           turns=1, seed=3,
                           banked={OPTIMAL: np.array([0, 50]), BANK_300: np.array([0, 50])})
    assert [name for name, _ in policy_values(data)] == [
        "optimal", "reference threshold policy = bank at 300"]
    key = sweep_key_text(data, Card.BONUS200)
    assert key.splitlines() == ["exact optimum: 2.00 points",
                                "reference threshold policy = bank at 300: 3.00 (exact)",
                                "1 turn per point, seed 3"]
    assert banked_entries(data) == [("optimal = bank at 300", "optimal")]
    data.banked[BANK_300] = np.array([0, 100])
    assert [label for label, _ in banked_entries(data)] == ["optimal", "bank at 300"]
    assert merge_same([("a", 1), ("b", 2), ("c", 1)], lambda x, y: x == y) == [
        ("a = c", 1), ("b", 2)]


def test_tournament_of_another_game_is_refused(tmp_path):
    """A Macke tournament CSV is no Tutto tournament: one line naming both games."""
    path = tmp_path / "tournament_macke_2p_seed7.csv"
    path.write_text("game,players,seed,kind,name,opponent,win_rate,ci95,games\n"
                    "macke,2,7,bot,optimal,,0.61,0.012,6000\n", encoding="utf-8")
    assert tournament_game(TuttoRules()) == "tutto"
    with pytest.raises(TournamentFileError) as e:
        read_tournament(path, game="tutto")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("--tournament: ")
    assert "Berliner Macke (game macke)" in msg and "Tutto (game tutto)" in msg
    assert read_tournament(path, game="macke").game == "macke"
    assert read_tournament(path).game == "macke"  # no game asked: no check
    with pytest.raises(TournamentFileError, match="game macke-jackpot"):
        read_tournament(path, game=tournament_game(MackeRules.preset("jackpot")))
    # the report refuses it too, before computing or writing anything
    with pytest.raises(TournamentFileError, match="Tutto"):
        report_module("tutto").build(tmp_path / "r", tournament=path)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("content", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",  # binary
    "kind,name,win_rate,ci95\nbot,a,0.5,0.01\n".encode("utf-16"),  # not UTF-8
    b"kind,name,win_rate,ci95\nbot,a\x00,0.5,0.01\n",  # a NUL byte
    b"kind,name,win_rate,ci95\nbot,\"a,0.5,0.01\n",  # an open quote
    b"kind,name,win_rate,games\nbot,a,0.5,1e400\n",  # games overflow
    b"kind,name,win_rate,games\nbot,a,0.5,-10\n",  # negative games
    b"kind,name,win_rate,ci95\nbot,a,nan,0.01\n",
    b"kind,name,win_rate,ci95\nbot\n",  # a short row
    b"kind,name,win_rate,ci95,players\nbot,a,0.5,0.01,1e400,extra,cells\n",
    b"",  # empty
    b"\xef\xbb\xbf",  # only a byte-order mark
])
def test_damaged_tournament_csv_is_one_line_error(tmp_path, content):
    path = tmp_path / "t.csv"
    path.write_bytes(content)
    try:
        t = read_tournament(path, game="tutto")
    except TournamentFileError as e:
        assert "\n" not in str(e) and str(e).startswith("--tournament: ")
    else:  # what is readable must be a proper tournament
        assert t.bots and all(0 <= b.win_rate <= 1 and b.ci95 >= 0 for b in t.bots)


def test_random_bytes_never_raise_anything_but_tournament_file_error(tmp_path):
    rng = np.random.default_rng(7)
    head = b"game,kind,name,win_rate,ci95,games,players,seed\n"
    path = tmp_path / "t.csv"
    for i in range(200):
        body = rng.integers(0, 256, size=int(rng.integers(0, 200)), dtype=np.uint8).tobytes()
        if i % 2:  # mostly printable: commas, quotes, digits and letters
            chars = b"0123456789.,\"\n-eabotinf"
            body = bytes(chars[x % len(chars)] for x in body)
        path.write_bytes((head if i % 3 else b"") + body)
        try:
            read_tournament(path, game="tutto")
        except TournamentFileError as e:
            assert "\n" not in str(e)


def test_small_cap_is_exact_for_threshold_policies():
    sol = solve_tutto()
    pol = sol.threshold_policy(2)
    pol[Card.X2, 5] = max(THRESHOLD_GRID[5]) // 50  # the highest swept threshold
    cap = exact_cap(pol)
    assert cap < 200
    small = policy_value(pol, TuttoRules(), cap)
    full = policy_value(pol, TuttoRules())
    np.testing.assert_allclose(small.card_ev, full.card_ev, atol=1e-9)


def test_tournament_page(report_dir):
    """A tournament CSV adds one page of win rates, a real chart, after the
    pages on playing to win (their table: the small one of ``win_tables_here``)."""
    png = report_dir / "16-tournament.png"
    assert png.exists() and np.asarray(imread(png)).std() > 0.05
    data = (report_dir / "tutto-report.pdf").read_bytes()
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") == 17
