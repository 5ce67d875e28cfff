"""Fuzzing the command line: no input, however malformed, gives a traceback.

hypothesis builds argument lists for every command (valid values, wrong
types, out-of-range numbers, unknown names, flags of the other game, stray
words) and damages policy files at random (flipped bytes, truncation,
inserted bytes, non-UTF-8). Every run must end with exit code 0, 1 (a check
failed), 2 (bad input: then exactly one line on stderr) or 130, never print
a traceback or an "internal error", and leave nothing half-written in its
output folder. Budgets are tiny so that each run takes well under a second;
only values that are refused may be large.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
POLICIES = ROOT / "tutto_sim" / "data" / "policies"
EXIT_CODES = {0, 1, 2, 130}
PARTIAL_MARKS = (".partial", ".tutto-sim-check-", ".report-partial-")

#: Words that are never valid values, and numbers that are never valid counts.
JUNK = st.sampled_from(["", "abc", "-", "--", "1e3", "0x10", "½", "None", "nan", "💥", " 5",
                        "\x00", "a" * 300, "-1", "0", str(10**23), str(-10**23)])
GAMES = st.sampled_from(["tutto", "macke", "volle-lotte", "Tutto", "pig", ""])
CARDS = st.sampled_from(["bonus400", "x2", "kleeblatt", "street", "fireworks", "plusminus",
                         "stop", "straße", "joker", "BONUS400"])
SMALL_N = st.sampled_from(["1", "3", "50", "200"])
SEEDS = st.sampled_from(["0", "1", "7", str(2**63 - 1), str(2**63), "-1"])
THREADS = st.sampled_from(["1", "2", "0", "-2", "64"])


def values(*good):
    return st.one_of(st.sampled_from(good), JUNK) if good else JUNK


RULE_FLAGS = {
    "--game": GAMES,
    "--six-of-kind": values("two-triples", "one-triple"),
    "--x2-scope": values("turn", "card"),
    "--plusminus-chain": values("continue", "bank", "flat"),
    "--plusminus-deduction": values("bank", "tutto"),
    "--reshuffle": values("full", "discard"),
    "--target": values("50", "1000", "6000", "6001", "-50"),
    "--game-end": values("round", "immediate"),
    "--deck": values("real", "iid"),
    "--cloverleaf-value": values("0", "6000", "7"),
    "--variant": values("standard", "instant-win", "jackpot", "ones-and-fives", "volle-lotte"),
    "--min-score": values("0", "300", "250", "-50", "75"),
    "--throws": values("1", "2", "3", "7"),
    "--bust": values("subtract", "zero"),
    "--win-value": values("5000", "0", "33"),
}

BOTS = st.lists(st.sampled_from(["optimal", "cautious", "reckless", "random", "threshold",
                                 "threshold:300", "threshold:350:900:all", "threshold:x",
                                 "threshold:" + str(10**30), "table:", "table:/nonexistent.json",
                                 "endgame", "py:nomodule:Bot", "py:os:path", "joker", ""]),
                min_size=0, max_size=4).map(",".join)

#: command words -> (budget arguments that keep a valid run small, its own flags)
COMMANDS = {
    ("optimize",): (["--turns", "300", "--search-turns", "100"],
                    {"--card": CARDS, "--method": values("monte-carlo", "exact"),
                     "--turns": values("200"), "--search-turns": values("100"),
                     "--seed": SEEDS, "--threads": THREADS, "--json": None}),
    ("solve",): ([], {"--json": None, "--cap": values("5000", "60000", "4950", "2000000")}),
    ("export-policy",): ([], {"--format": values("json", "csv", "parquet", "xml")}),
    ("validate",): (["--turns", "200"],
                    {"--turns": values("100"), "--seed": SEEDS, "--json": None,
                     "--policy": st.sampled_from([str(POLICIES / "tutto-default.json"),
                                                  str(POLICIES / "macke-default.json"),
                                                  "/nonexistent.json", str(ROOT)])}),
    ("tournament",): (["--games", "6"],
                      {"--bots": BOTS, "--players": values("2", "3", "9", "1"),
                       "--games": SMALL_N, "--seed": SEEDS,
                       "--engine": values("auto", "kernel", "reference"),
                       "--threads": THREADS, "--json": None}),
    ("ladder",): (["--games-per-pair", "2"],
                  {"--bots": BOTS, "--players": values("2", "3", "9", "1"),
                   "--games-per-pair": values("1", "3", "20", "0", "-1"), "--seed": SEEDS,
                   "--engine": values("auto", "kernel", "reference"),
                   "--threads": THREADS, "--json": None}),
    ("explore",): ([], {"--min-score": values("0,300", "300", "100,x", "-50", ","),
                        "--bust": values("subtract", "zero,subtract", "never"),
                        "--returns": None, "--no-returns": None, "--json": None}),
    ("analyze", "seats"): (["--games", "6", "--players", "2,3"],
                           {"--bot": BOTS, "--players": values("2", "2-3", "1-9", "3,x"),
                            "--games": SMALL_N, "--seed": SEEDS, "--json": None}),
    ("analyze", "threshold"): (["--games", "6", "--search-games", "4"],
                               {"--players": values("2", "3", "9"), "--games": SMALL_N,
                                "--search-games": SMALL_N, "--json": None}),
    ("analyze", "rules"): (["--games", "6", "--skill-games", "4", "--strong", "tuned"],
                           {"--players": values("2", "4", "5"), "--games": SMALL_N,
                            "--skill-games": values("1", "3"), "--skill-players": values("2", "1"),
                            "--bot": BOTS, "--weak": BOTS, "--seed": SEEDS,
                            "--threads": THREADS, "--json": None}),
    ("analyze", "pieces"): (["--games", "6", "--positions", "2", "--position-games", "2"],
                            {"--players": values("2", "3", "9"), "--games": SMALL_N,
                             "--positions": values("1", "3"), "--position-games": values("1", "2"),
                             "--bot": BOTS, "--seed": SEEDS, "--threads": THREADS,
                             "--json": None}),
    ("play",): ([], {"--bots": BOTS, "--seat": values("0", "1", "9"), "--name": values("you", "optimal"),
                     "--seed": SEEDS, "--hints": None}),
    ("report",): ([], {"--turns": values("100"), "--seed": SEEDS,
                       "--tournament": st.sampled_from(["/nonexistent.csv", str(ROOT / "README.md"),
                                                        str(POLICIES / "macke-default.json")])}),
}
OUT_FLAG = {"optimize": "--out-dir", "tournament": "--out-dir", "explore": "--out-dir", "ladder": "--out",
            "analyze": "--out-dir", "export-policy": "--out", "report": "--out"}


@st.composite
def argument_lists(draw):
    words = draw(st.sampled_from(sorted(COMMANDS)))
    budget, own = COMMANDS[words]
    flags = {**own, **RULE_FLAGS}
    chosen = draw(st.lists(st.sampled_from(sorted(flags)), max_size=5, unique=True))
    args = list(words) + list(budget)
    for flag in chosen:
        args.append(flag)
        if flags[flag] is not None:
            args.append(draw(flags[flag]))
    if draw(st.integers(0, 9)) == 0:  # a stray word or an unknown option somewhere
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(["--nonsense", "x", "-j"])))
    return args


def run_main(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    from tutto_sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        sys.stdin = old_in
    return code, out.getvalue(), err.getvalue()


def check(code: int, err: str, args, place: Path | None = None) -> None:
    assert code in EXIT_CODES, (args, code, err)
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    if code == 2 and err.strip():
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tutto-sim: error: "), (args, err)
    if place is not None and place.exists():
        for p in place.rglob("*"):
            assert not any(m in p.name for m in PARTIAL_MARKS), (args, p)


@pytest.fixture(scope="module")
def fast_report():
    """The report's figures are tested in test_report*.py; here only the command's
    handling of its input matters, so a valid run writes one small file."""
    import tutto_sim.macke.report as rm
    import tutto_sim.tutto.report as rt
    from tutto_sim.core.report import ReportFiles

    def build(out_dir, *a, **k):
        index, pdf = Path(out_dir) / "README.md", Path(out_dir) / "x.pdf"
        index.write_text("stub")
        pdf.write_bytes(b"%PDF stub")
        return ReportFiles(pdf, index, [])

    saved = (rt.build, rm.build)
    rt.build = rm.build = build
    try:
        yield
    finally:
        rt.build, rm.build = saved


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(args=argument_lists())
def test_no_argument_list_gives_a_traceback(fast_report, args):
    with tempfile.TemporaryDirectory() as tmp:
        place = Path(tmp) / "out"
        flag = OUT_FLAG.get(args[0])
        if flag == "--out" and args[0] == "export-policy":
            args = args + [flag, str(place / "policy.json")]
        elif flag:
            args = args + [flag, str(place)]
        code, _, err = run_main(args)
        check(code, err, args, place)


def damage(data: bytes, draw) -> bytes:
    kind = draw(st.sampled_from(["flip", "truncate", "insert", "latin1", "swap-digit"]))
    n = len(data)
    if kind == "truncate":
        return data[:draw(st.integers(0, n - 1))]
    if kind == "insert":
        at = draw(st.integers(0, n))
        return data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]
    if kind == "latin1":
        at = draw(st.integers(0, n - 1))
        return data[:at] + b"\xe9\xff" + data[at + 1:]
    if kind == "swap-digit":
        digits = [i for i in range(0, n, max(1, n // 4000)) if data[i:i + 1].isdigit()]
        at = draw(st.sampled_from(digits))
        new = str((int(data[at:at + 1]) + draw(st.integers(1, 9))) % 10).encode()
        return data[:at] + new + data[at + 1:]
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 8))):
        out[draw(st.integers(0, n - 1))] = draw(st.integers(0, 255))
    return bytes(out)


SHIPPED = {name: (POLICIES / name).read_bytes() for name in ("tutto-default.json", "macke-default.json")}


@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")) // 3, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_damaged_policy_file_is_refused_or_harmless(data):
    name = data.draw(st.sampled_from(sorted(SHIPPED)))
    game = "tutto" if name.startswith("tutto") else "macke"
    broken = damage(SHIPPED[name], data.draw)
    use = data.draw(st.sampled_from(["validate", "table", "endgame"]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(broken)
        if use == "validate":
            args = ["validate", "--game", game, "--policy", str(path), "--turns", "100"]
        else:
            args = ["tournament", "--game", game, "--bots", f"{use}:{path},cautious", "--games", "4",
                    "--out-dir", str(Path(tmp) / "out")]
        code, _, err = run_main(args)
        check(code, err, args, Path(tmp) / "out")
        assert code in (0, 1, 2)
        if code == 0 and broken[:1] != b"{":
            pytest.fail(f"accepted a policy file that is not a JSON object: {args}")
