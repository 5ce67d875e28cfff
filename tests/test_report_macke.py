"""``tutto-sim report --game macke``: the PDF's pages, real charts, captions
naming the rules, byte-identical output for the same seed, the tournament page
and its one-line errors.

Two small reports (a few thousand turns per point, with a tournament CSV) are
built side by side, one in this process and one in a child process on one
numba thread, which is most of this file's run time; they must be identical
byte for byte.
"""

import re
import subprocess
import sys

import pytest
from matplotlib.image import imread

from conftest import run_cli
from tutto_sim.cli import game_rules
from tutto_sim.report import SAMPLE_GAMES, report_module
from tutto_sim.report.common import TournamentFileError, read_tournament, rules_label
from tutto_sim.rules.macke import MackeRules

TURNS = 4000
SEED = 3
PNGS = [
    "01-cheat-sheet",
    "02-minimum-score",
    "03-variants-and-bust-rules",
    "04-bank-thresholds",
    "05-returns",
    "06-optimal-vs-simple",
    "07-tournament",
]
SIMULATED = {"06"}

CLI = "import sys; from tutto_sim.cli import main; main(sys.argv[1:])"

#: A tournament CSV as `tutto-sim tournament` writes it (docs/games.md), plus a
#: column it does not write (a Macke tournament may add some): ignored.
CSV = """game,players,seed,rules_sha256,kind,name,opponent,win_rate,ci95,games,mean_final_score,points_per_turn,variant
macke,2,7,{sha},bot,optimal,,0.61,0.012,6000,5100.5,430.1,standard
macke,2,7,{sha},bot,first-chance,,0.39,0.012,6000,4700.2,246.3,standard
macke,2,7,{sha},seat,0,,0.52,0.01,6000,,,standard
macke,2,7,{sha},seat,1,,0.48,0.01,6000,,,standard
macke,2,7,{sha},pair,optimal,first-chance,0.61,0.012,6000,,,standard
macke,2,7,{sha},pair,first-chance,optimal,0.39,0.012,6000,,,standard
"""


@pytest.fixture(scope="module")
def tournament_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("csv") / "tournament_macke_2p_seed7.csv"
    path.write_text(CSV.format(sha=MackeRules().digest()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reports(tmp_path_factory, tournament_csv):
    """The same report twice: (in-process, all threads), (child process, 1 thread)."""
    from tutto_sim.cli import main

    here, child = tmp_path_factory.mktemp("macke"), tmp_path_factory.mktemp("again")
    args = ["report", "--game", "macke", "--turns", str(TURNS), "--seed", str(SEED),
            "--tournament", str(tournament_csv)]
    proc = subprocess.Popen([sys.executable, "-c", CLI, *args, "--out", str(child),
                             "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        main([*args, "--out", str(here)])
    finally:
        _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    return here, child


@pytest.fixture(scope="module")
def report_dir(reports):
    return reports[0]


def _pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_pdf_has_a_cover_and_one_page_per_figure(report_dir):
    data = (report_dir / "macke-report.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert _pdf_pages(data) == 1 + len(PNGS)
    assert b"/CreationDate" not in data and b"/ModDate" not in data
    assert f"rules_sha256={MackeRules().digest()}".encode() in data
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

    label = rules_label(MackeRules())
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    for name in PNGS:
        with Image.open(report_dir / f"{name}.png") as im:
            caption = im.text["Description"]
        assert label in caption and "Berliner Macke" in caption, name
        if name[:2] in SIMULATED:
            assert f"seed {SEED}" in caption and f"{TURNS:,} turns" in caption, name
        assert f"({name}.png)" in index and caption in index
    with Image.open(report_dir / "07-tournament.png") as im:
        caption = im.text["Description"]
    # the tournament's own seed and file, and that its rules are the report's
    assert "tournament_macke_2p_seed7.csv" in caption and "seed 7" in caption
    assert "the report's rules" in caption


def test_same_seed_same_bytes(reports):
    here, child = reports
    for name in PNGS:
        a = (here / f"{name}.png").read_bytes()
        b = (child / f"{name}.png").read_bytes()
        assert a == b, f"{name}.png differs between two runs with the same seed"
    for name in ("macke-report.pdf", "README.md"):
        assert (here / name).read_bytes() == (child / name).read_bytes(), name


@pytest.mark.parametrize("content, needle", [
    (None, "no such file"),
    ("not, a, tournament\n1, 2, 3\n", "no column kind, name, win_rate"),
    ("kind,name,win_rate\nbot,a,0.5\n", "no column ci95"),
    ("kind,name,win_rate,ci95\nseat,0,0.5,0.01\n", "no kind=bot row"),
    ("kind,name,win_rate,ci95\nbot,a,high,0.01\n", "line 2"),
    (b"\xff\xfe\x00binary", "not a tournament CSV"),
])
def test_bad_tournament_is_one_line_exit_2(capsys, tmp_path, content, needle):
    path = tmp_path / "t.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run_cli(capsys, "report", "--game", "macke", "--out", str(tmp_path / "r"),
                             "--tournament", str(path))
    assert code == 2, err
    assert err.count("\n") == 1 and "--tournament" in err and needle in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("args, needle", [
    (("--game", "tutto", "--tournament", "x.csv"), "--tournament: no such file"),
    (("--game", "macke", "--x2-scope", "card"), "--x2-scope does not apply"),
    (("--game", "volle-lotte", "--variant", "jackpot"), "takes no --variant"),
    (("--game", "macke", "--bust", "half"), "bust"),
    (("--game", "kniffel",), "--game must be one of tutto, macke, volle-lotte"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, out, err = run_cli(capsys, "report", "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err, err
    assert not (tmp_path / "r").exists()


def test_tournament_csv_without_ci_uses_games(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("kind,name,win_rate,games\nbot,a,0.5,10000\nbot,b,0.5,10000\n",
                    encoding="utf-8")
    t = read_tournament(path)
    assert [b.name for b in t.bots] == ["a", "b"]
    assert t.bots[0].ci95 == pytest.approx(1.96 * (0.25 / 10000) ** 0.5, rel=1e-3)
    with pytest.raises(TournamentFileError, match="no such file"):
        read_tournament(tmp_path / "missing.csv")


def test_volle_lotte_is_the_macke_report_with_its_preset():
    module = report_module("volle-lotte")
    assert module is report_module("macke") and module.DEFAULT_TURNS >= 100_000
    assert module.default_rules("volle-lotte") == MackeRules.preset("volle-lotte")
    assert module.default_rules("macke") == MackeRules()
    rules = game_rules("volle-lotte", {}, dict(variant="standard", min_score=300, throws=3,
                                              bust="subtract", target=None,
                                              six_of_kind="two-triples", win_value=5000))
    assert rules == MackeRules.preset("volle-lotte")
    assert rules_label(rules).startswith("rules: --variant volle-lotte (sha256")
    assert "macke" in SAMPLE_GAMES


def test_macke_rules_label_names_the_flags():
    label = rules_label(MackeRules(bust="zero", min_score=400))
    assert "--min-score 400" in label and "--bust zero" in label
    assert rules_label(MackeRules()).startswith("rules: RULES.md defaults")
