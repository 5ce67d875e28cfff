"""The command line: JSON contract, CSV output and one-line errors."""

import json

import pytest
from conftest import result_file, run_cli


def run(capsys, *args):
    return run_cli(capsys, *args)


SMALL = ("--turns", "20000", "--search-turns", "4000")


def test_optimize_json(capsys, tmp_path):
    code, out, err = run(capsys, "optimize", "--card", "bonus400", "--json", *SMALL,
                         "--seed", "7", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    for key in ("card", "method", "ev", "ci95", "turns", "seed", "bank_thresholds"):
        assert key in d
    assert d["card"] == "bonus400" and d["method"] == "monte-carlo"
    assert d["seed"] == 7 and d["turns"] == 20000
    assert sorted(d["bank_thresholds"]) == ["1", "2", "3", "4", "5", "6"]
    assert d["ev"] > 0 and d["ci95"] > 0
    csv = result_file(tmp_path, "optimize-tutto-bonus400-seed7")
    assert d["csv"] == str(csv) and "bank at 300" in csv.read_text()


def test_fireworks_has_no_thresholds(capsys, tmp_path):
    code, out, _ = run(capsys, "optimize", "--card", "feuerwerk", "--json", *SMALL,
                       "--out-dir", str(tmp_path))
    d = json.loads(out)
    assert code == 0 and d["card"] == "fireworks"
    assert all(v is None for v in d["bank_thresholds"].values())


def test_street_table(capsys, tmp_path):
    code, out, _ = run(capsys, "optimize", "--card", "straße", *SMALL, "--out-dir", str(tmp_path))
    assert code == 0
    assert "P(Straße)" in out and "new numbers per throw" in out


@pytest.mark.parametrize("args, needle", [
    (("--card", "bonus450"), "bonus200, bonus300"),
    (("--turns", "-5"), "--turns"),
    (("--turns", "abc"), "--turns"),
    (("--x2-scope", "half"), "turn, card"),
    (("--six-of-kind", "x"), "two-triples, one-triple"),
    (("--plusminus-chain", "x"), "continue, bank, flat"),
    (("--target", "6001"), "--target"),
    (("--seed", "-1"), "--seed"),
    (("--threads", "999"), "--threads"),
    (("--method", "guess"), "monte-carlo"),
    (("--bogus",), "--bogus"),
])
def test_bad_input_one_line_exit_2(capsys, args, needle):
    code, out, err = run(capsys, "optimize", *args)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out
