"""Checks of the words on report pages, and the twin build, for every game's report tests."""

import functools
import re
import subprocess
import sys

from matplotlib.table import Table
from matplotlib.text import Text

from tutto_sim.core import report as common

#: Texts a player should never read on a page: the old name of the rules file,
#: code names, command-line flags where words belong.
CODE_NAMES = re.compile(r"RULES\.md|keep_advice|digest|sha256|cli_name|returns_summary|"
                        r"MackeSolution|TuttoRules|MackeRules|K_clear|bust=|--[a-z]")
#: snake_case identifiers (file names such as tournament_tutto_2p_seed3.csv excepted, and the
#: folders of a path, as the package's tutto_sim/data/ladders/tutti-2p.json).
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b(?!\.(csv|py)|/)")
#: "1 dice", "1 turns", ...: a count of one with a plural noun.
ONE_PLURAL = re.compile(r"(?<![\d,.])1 (dice|turns|throws|sweeps|exceptions|games|players|"
                        r"groups|points per)\b")
#: A 95% CI that rounds to zero: "± 0.00", "± 0.0%".
ZERO_CI = re.compile(r"± 0\.0+(?!\d*[1-9])")
#: A threshold of 0 that means "always bank".
BANK_AT_ZERO = re.compile(r"bank (at ≥|from|at) 0\b|draw below 0\b")


def record_texts(texts: dict):
    """A patched ``ReportWriter.add`` that also records every text drawn on a page."""
    add = common.ReportWriter.add

    def recording(self, fig, name, title, caption):
        add(self, fig, name, title, caption)  # draws the figure (PNG) first
        found = [t.get_text() for t in fig.findobj(Text)]
        found += [cell.get_text().get_text() for table in fig.findobj(Table)
                  for cell in table.get_celld().values()]
        texts[name or "cover"] = [t for t in found if t]
    return recording


#: The command line in a child process.
CLI = "import sys; from tutto_sim.cli import main; main(sys.argv[1:])"


#: Twin builds made in this process, by their command line: a module's fixtures are torn down
#: whenever its worker runs out of queued tests (pytest-xdist), and built again for the next
#: test of the module; the folders stay (the session's temporary folders), so the second
#: build is the first one's (measured: each report built twice per run before).
_BUILT: dict = {}


def build_twice(tmp_path_factory, args: list[str], name: str):
    """The same report twice, side by side: in this process (all threads,
    recording every text drawn) and in a child process on one numba thread.
    Returns (folder, child's folder, page name -> texts); once per command
    line in a test process."""
    key = (tuple(args), name)
    if key not in _BUILT:
        _BUILT[key] = _build_twice(tmp_path_factory, args, name)
    return _BUILT[key]


def _build_twice(tmp_path_factory, args: list[str], name: str):
    import pytest

    from tutto_sim.cli import main

    here, child = tmp_path_factory.mktemp(name), tmp_path_factory.mktemp("again")
    texts: dict[str, list[str]] = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(common.ReportWriter, "add", record_texts(texts))
        main([*args, "--out", str(here)])
    # the child after this build, not beside it: on a first run the two would compile the
    # same numba kernels at once (the child finds them in numba's cache now)
    proc = subprocess.run([sys.executable, "-c", CLI, *args, "--out", str(child), "--threads", "1"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return here, child, texts


#: The target of the win tables the report tests read (the pages on playing to win).
WIN_TARGET = 200


@functools.lru_cache(maxsize=None)
def _small_macke(variant: str = "macke"):
    from tutto_sim.macke.rules import MackeRules
    from tutto_sim.macke.win.solve_n import solve_macke_win

    rules = (MackeRules(target=WIN_TARGET) if variant == "macke"
             else MackeRules.preset(variant, target=WIN_TARGET))
    return solve_macke_win(rules, floor=-300, cap_units=40)


@functools.lru_cache(maxsize=None)
def _small_tutto_n(players: int):
    from tutto_sim.tutto.rules import TuttoRules
    from tutto_sim.tutto.win.solve_n import solve_win_n

    return solve_win_n(TuttoRules(target=WIN_TARGET), players=players, evaluate_ev=False)


def win_tables_here(folder, games=("tutto", "macke")):
    """Make ``folder`` the working directory with small win tables in its
    results/ (target 200; Macke and Volle Lotte with the floor at -300 and a 2,000-point
    cap; Tutto also a table of three players),
    so that a report with ``--win-target 200`` reads them instead of solving.
    A context manager (the child process of :func:`build_twice` inherits the
    working directory)."""
    import contextlib

    import pytest

    @contextlib.contextmanager
    def ctx():
        results = folder / "results"
        results.mkdir(parents=True, exist_ok=True)
        if "tutto" in games:  # where solve --objective win saves them (tutto-win-200-<run>.json)
            from tutto_sim.tutto.win.table import default_win_file
            from tutto_sim.tutto.rules import TuttoRules
            from tutto_sim.tutto.win.solve2 import cached_solution
            from tutto_sim.tutto.win.table import write_win_table
            from tutto_sim.tutto.win.table import write_win_table_n

            rules = TuttoRules(target=WIN_TARGET)
            write_win_table(cached_solution(rules), folder / default_win_file(rules)[0])
            # and a table of three (the page on table sizes; none of four: absent)
            write_win_table_n(_small_tutto_n(3), folder / default_win_file(rules, 3)[0])
        for variant in {"macke", "volle-lotte"} & set(games):
            from tutto_sim.macke.win.table import default_win_file as macke_win_file
            from tutto_sim.macke.win.table import write_win_table as write_macke

            table = _small_macke(variant)
            write_macke(table, folder / macke_win_file(table.rules)[0])
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(folder)
            yield folder
    return ctx()


def wilson_estimate(hits):
    """The share of ``hits`` (0/1 per game) with scipy's Wilson interval, as an
    Estimate (for its printed form: the figures are scipy's, not the code's)."""
    import numpy as np

    hits = np.asarray(hits)
    return wilson_of(float(hits.sum()), len(hits))


def wilson_of(won: float, n: int):
    """``won`` of ``n`` (a tie's half win may make it fractional) with the
    Wilson interval as an Estimate: scipy's ``binomtest`` for a whole count,
    else the p where the score test (won/n - p) / sqrt(p(1-p)/n) is at ±z,
    found by scipy's root finder (neither is the code's closed form)."""
    import math

    from scipy.optimize import brentq
    from scipy.stats import binomtest, norm

    from tutto_sim.core.stats import WILSON, Estimate

    q = won / n
    if abs(won - round(won)) < 1e-9:
        ci = binomtest(int(round(won)), n).proportion_ci(method="wilson")
        low, high = ci.low, ci.high
    else:
        z = norm.ppf(0.975)

        def score(p):
            return (q - p) / math.sqrt(p * (1 - p) / n)

        low = brentq(lambda p: score(p) - z, 1e-15, q)
        high = brentq(lambda p: score(p) + z, q, 1 - 1e-15)
    return Estimate(q, (high - low) / 2, n, low, high, WILSON)
