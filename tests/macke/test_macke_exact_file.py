"""Macke policy files: round trip, the protocol answers, and refusal of anything damaged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tutto_sim.macke.policy import MackeTablePolicy, content_hash, load_macke_policy
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import solve_macke, throw_tables
from tutto_sim.tutto.policy import PolicyFileError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def policy():
    return MackeTablePolicy.from_solution(solve_macke())


@pytest.fixture(scope="module")
def good_file(policy, tmp_path_factory):
    return policy.write(tmp_path_factory.mktemp("pol") / "p.json")


def _same(a: MackeTablePolicy, b: MackeTablePolicy):
    for x, y in zip(a.kernel_arrays(), b.kernel_arrays()):
        assert x.shape == y.shape and np.array_equal(x, y)


def _doctor(good_file, tmp_path, change, rehash=True):
    d = json.loads(good_file.read_text())
    change(d)
    if rehash:
        d["content_sha256"] = content_hash(d)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    return path


def test_round_trip(policy, good_file):
    _same(load_macke_policy(good_file, MackeRules()), policy)


@pytest.mark.parametrize("rules", [MackeRules.preset("volle-lotte", bust="zero"),
                                   MackeRules(throws=1), MackeRules.preset("ones-and-fives", throws=4)],
                         ids=["volle-lotte-zero", "one-throw", "ones-and-fives-4-throws"])
def test_round_trip_other_rules(rules, tmp_path):
    p = MackeTablePolicy.from_solution(solve_macke(rules))
    _same(load_macke_policy(p.write(tmp_path / "p.json"), rules), p)


def test_protocol_answers(policy):
    t = policy.tables
    rules = policy.rules
    # first throw 1-2-2-3-6 (a single 1): set it aside, go on, and with 2
    # throws left put it back and throw all five dice again
    ms = throw_tables(rules).multiset_of([1, 2, 2, 3, 6])
    keeps = t.keep_states[t.keep_start[ms]:t.keep_start[ms + 1]].tolist()
    one = policy.keep(TurnView(0, t.empty, 2, True), ms, keeps)
    assert t.state_name(one) == "1"
    assert not policy.bank(TurnView(0, one, 2, True))
    assert policy.before_throw(TurnView(0, one, 2, False)) == t.empty
    # a clear at 2000 points is banked, at 1900 thrown on
    full = next(s for s in range(len(t.state_dice)) if t.state_name(s) == "big straight")
    assert policy.bank(TurnView(1000, full, 1, False))
    assert not policy.bank(TurnView(900, full, 1, False))


def test_truncated(good_file, tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(good_file.read_text()[:50_000])
    with pytest.raises(PolicyFileError, match="damaged or truncated"):
        load_macke_policy(path)


def test_wrong_version(good_file, tmp_path):
    with pytest.raises(PolicyFileError, match="version 2"):
        load_macke_policy(_doctor(good_file, tmp_path, lambda d: d.update(version=2)))


def test_wrong_game(tmp_path):
    from tutto_sim.tutto.policy import ExactPolicy
    from tutto_sim.tutto.solver import solve_tutto

    path = ExactPolicy.from_solution(solve_tutto()).write(tmp_path / "tutto.json")
    with pytest.raises(PolicyFileError, match="game 'tutto', not macke"):
        load_macke_policy(path)


def test_other_rules(good_file):
    with pytest.raises(PolicyFileError, match="other rules: bust='zero'"):
        load_macke_policy(good_file, MackeRules(bust="zero"))


def test_one_changed_decision_breaks_the_content_hash(good_file, tmp_path):
    def flip(d):
        row = d["bank"]["1"][0]
        d["bank"]["1"][0] = row[:-1] + ("1" if row[-1] == "0" else "0")

    with pytest.raises(PolicyFileError, match="content hash"):
        load_macke_policy(_doctor(good_file, tmp_path, flip, rehash=False))


def test_illegal_keep_is_refused_even_with_a_valid_hash(good_file, tmp_path):
    def illegal(d):  # throw 0 of throw 1 is five dice 11111... any index >= its keeps is illegal
        row = d["keep"]["1"][0]
        d["keep"]["1"][0] = "Z" + row[1:]

    with pytest.raises(PolicyFileError, match="legal keeps"):
        load_macke_policy(_doctor(good_file, tmp_path, illegal))


def test_macke_marker_must_match_the_throw(good_file, tmp_path):
    def mark(d):  # claim a Macke for a scoring throw
        row = d["keep"]["2"][0]
        d["keep"]["2"][0] = "-" + row[1:]

    with pytest.raises(PolicyFileError, match="legal keeps"):
        load_macke_policy(_doctor(good_file, tmp_path, mark))


def test_illegal_return_is_refused(good_file, tmp_path):
    def illegal(d):  # state 0 (nothing set aside) can only keep nothing
        row = d["return"]["2"][0]
        d["return"]["2"][0] = "3" + row[1:]

    with pytest.raises(PolicyFileError, match="return choice"):
        load_macke_policy(_doctor(good_file, tmp_path, illegal))


def test_wrong_tables_are_refused(good_file, tmp_path):
    def wrong(d):  # a small straight worth 1000
        i = [u[0] for u in d["units"]].index("small straight")
        d["units"][i][2] = 1000

    with pytest.raises(PolicyFileError, match="units"):
        load_macke_policy(_doctor(good_file, tmp_path, wrong))


def test_wrong_row_count(good_file, tmp_path):
    with pytest.raises(PolicyFileError, match="rows of"):
        load_macke_policy(_doctor(good_file, tmp_path, lambda d: d["keep"]["3"].pop()))


def test_schema_violation(good_file, tmp_path):
    with pytest.raises(PolicyFileError, match="schema"):
        load_macke_policy(_doctor(good_file, tmp_path, lambda d: d.pop("clear")))
    with pytest.raises(PolicyFileError, match="schema"):
        load_macke_policy(_doctor(good_file, tmp_path, lambda d: d["bank"]["1"].__setitem__(0, "01x")))


def test_rules_hash_must_match_rules(good_file, tmp_path):
    with pytest.raises(PolicyFileError, match="rules_sha256"):
        load_macke_policy(_doctor(good_file, tmp_path, lambda d: d["rules"].update(min_score=200)))


def test_summary_is_informative_only(good_file, tmp_path):
    path = _doctor(good_file, tmp_path, lambda d: d["summary"].update(turn_ev=1.0), rehash=False)
    assert load_macke_policy(path).summary["turn_ev"] == 1.0


def test_error_messages_are_one_line(good_file, tmp_path):
    for change in (lambda d: d.update(version=2), lambda d: d["rules"].update(variant="nope"),
                   lambda d: d["keep"]["3"].pop()):
        with pytest.raises(PolicyFileError) as e:
            load_macke_policy(_doctor(good_file, tmp_path, change))
        assert "\n" not in str(e.value)


def test_schema_in_docs_is_the_packaged_one():
    a = (ROOT / "docs" / "macke-policy.schema.json").read_text()
    b = (ROOT / "tutto_sim" / "macke" / "schema" / "macke-policy.schema.json").read_text()
    assert a == b


def test_csv_long_format(policy, tmp_path):
    import pandas as pd

    path = policy.write(tmp_path / "p.csv", "csv")
    df = pd.read_csv(path, dtype={"throw": str, "action": str}, keep_default_na=False)
    assert list(df.columns) == ["kind", "throw_of_series", "locked", "aside", "throw", "action"]
    assert set(df["kind"]) == {"keep", "return", "bank", "clear"}
    # first throw of the turn 1-2-3-4-5: the big straight
    row = df[(df.kind == "keep") & (df.throw_of_series == 1) & (df.locked == 0) & (df.throw == "12345")]
    assert row["action"].tolist() == ["big straight"]
    assert not df.duplicated(["kind", "throw_of_series", "locked", "aside", "throw"]).any()
