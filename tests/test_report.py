"""``tutto-sim report``: the PDF's pages, real charts, captions naming the
rules, byte-identical output for the same seed, and one-line errors.

Two small reports (a few thousand turns per point) are built side by side, one
in this process and one in a child process on one numba thread, which is most
of this file's run time; they must be identical byte for byte.
"""

import re
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.image import imread

from conftest import run_cli
from tutto_sim.cli import main
from tutto_sim.report import report_module
from tutto_sim.report.common import rules_label
from tutto_sim.report.tutto_data import THRESHOLD_GRID, exact_cap
from tutto_sim.rules import Card, TuttoRules
from tutto_sim.solve import policy_value, solve_tutto

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
]
SIMULATED = {"02", "03", "04", "05", "06", "07", "11"}


CLI = "import sys; from tutto_sim.cli import main; main(sys.argv[1:])"


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The same report twice: (in-process, all threads), (child process, 1 thread)."""
    here, child = tmp_path_factory.mktemp("report"), tmp_path_factory.mktemp("again")
    args = ["report", "--game", "tutto", "--turns", str(TURNS), "--seed", str(SEED)]
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

    label = rules_label(TuttoRules())
    index = (report_dir / "README.md").read_text(encoding="utf-8")
    for name in PNGS:
        with Image.open(report_dir / f"{name}.png") as im:
            caption = im.text["Description"]
        assert label in caption, name
        if name[:2] in SIMULATED:
            assert f"seed {SEED}" in caption and f"{TURNS:,}" in caption, name
        assert f"({name}.png)" in index and caption in index


def test_same_seed_same_bytes(reports):
    here, child = reports
    for name in PNGS:
        a = (here / f"{name}.png").read_bytes()
        b = (child / f"{name}.png").read_bytes()
        assert a == b, f"{name}.png differs between two runs with the same seed"
    for name in ("tutto-report.pdf", "README.md"):
        assert (here / name).read_bytes() == (child / name).read_bytes(), name


def test_games_are_registered_by_name():
    module = report_module("Tutto")
    assert module.STEM == "tutto-report" and module.DEFAULT_TURNS >= 100_000
    with pytest.raises(ValueError, match="valid: tutto, macke, volle-lotte"):
        report_module("kniffel")


@pytest.mark.parametrize("args, needle", [
    (("--game", "kniffel"), "--game must be one of tutto, macke, volle-lotte"),
    (("--game", "tutto", "--turns", "0"), "--turns"),
    (("--x2-scope", "half"), "turn, card"),
    (("--seed", "-1"), "--seed"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, needle):
    code, out, err = run_cli(capsys, "report", "--out", str(tmp_path / "r"), *args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_rules_label_names_changed_rules():
    label = rules_label(TuttoRules(x2_scope="card", cloverleaf_value=6000))
    assert "--x2-scope card" in label and "--cloverleaf-value 6000" in label
    assert TuttoRules(x2_scope="card", cloverleaf_value=6000).digest()[:12] in label
    assert "RULES.md defaults" in rules_label(TuttoRules())


def test_small_cap_is_exact_for_threshold_policies():
    sol = solve_tutto()
    pol = sol.threshold_policy(2)
    pol[Card.X2, 5] = max(THRESHOLD_GRID[5]) // 50  # the highest swept threshold
    cap = exact_cap(pol)
    assert cap < 200
    small = policy_value(pol, TuttoRules(), cap)
    full = policy_value(pol, TuttoRules())
    np.testing.assert_allclose(small.card_ev, full.card_ev, atol=1e-9)


def test_tournament_page(capsys, tmp_path):
    """A tournament CSV adds one page of win rates, a real chart."""
    csv_dir = tmp_path / "t"
    code, _, err = run_cli(capsys, "tournament", "--game", "tutto", "--bots", "optimal,cautious",
                           "--players", "2", "--games", "4000", "--seed", "3",
                           "--out-dir", str(csv_dir), "--json")
    assert code == 0, err
    csv = next(csv_dir.glob("tournament_*.csv"))
    out_dir = tmp_path / "r"
    code, _, err = run_cli(capsys, "report", "--game", "tutto", "--out", str(out_dir),
                           "--turns", "2000", "--tournament", str(csv))
    assert code == 0, err
    png = out_dir / "13-tournament.png"
    assert png.exists() and np.asarray(imread(png)).std() > 0.05
    assert (out_dir / "tutto-report.pdf").read_bytes().count(b"/Type /Page") - \
        (out_dir / "tutto-report.pdf").read_bytes().count(b"/Type /Pages") == 14
