"""Policy files: round trip, the shipped table, and refusal of anything damaged."""

import json
from pathlib import Path

import numpy as np
import pytest

from tutto_sim.tutto.policy import ExactPolicy, PolicyFileError, content_hash, load_policy
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import solve_tutto

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "tutto_sim" / "data" / "policies" / "tutto-default.json"


@pytest.fixture(scope="module")
def policy():
    return ExactPolicy.from_solution(solve_tutto())


@pytest.fixture(scope="module")
def good_file(policy, tmp_path_factory):
    return policy.write(tmp_path_factory.mktemp("pol") / "p.json")


def _same(a: ExactPolicy, b: ExactPolicy):
    assert a.t_max == b.t_max
    for name in ("keep", "bank", "draw", "street_take"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_round_trip(policy, good_file):
    _same(load_policy(good_file, TuttoRules()), policy)


def test_shipped_default_table_is_current(policy):
    _same(load_policy(SHIPPED, TuttoRules()), policy)


def test_round_trip_x2_card_scope(tmp_path):
    rules = TuttoRules(x2_scope="card")
    p = ExactPolicy.from_solution(solve_tutto(rules))
    q = load_policy(p.write(tmp_path / "x2.json"), rules)
    _same(p, q)
    assert np.array_equal(p.keep_x2p, q.keep_x2p) and np.array_equal(p.bank_x2p, q.bank_x2p)
    short = _doctor(tmp_path / "x2.json", tmp_path, lambda d: d["x2_by_card_points"].pop())
    with pytest.raises(PolicyFileError, match="x2_by_card_points needs 41"):
        load_policy(short, rules)
    frame = p.to_frame()
    x2_keep = frame[(frame.kind == "keep") & (frame.card == "x2")]
    assert x2_keep.card_points.nunique() == p.keep_x2p.shape[0]
    assert not frame.duplicated(["kind", "card", "card_points", "dice", "turn_total", "throw"]).any()


def _doctor(good_file, tmp_path, change, rehash=True):
    d = json.loads(good_file.read_text())
    change(d)
    if rehash:
        d["content_sha256"] = content_hash(d)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    return path


def test_truncated(good_file, tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(good_file.read_text()[: 200_000])
    with pytest.raises(PolicyFileError, match="damaged or truncated"):
        load_policy(path)


def test_wrong_version(good_file, tmp_path):
    path = _doctor(good_file, tmp_path, lambda d: d.update(version=2))
    with pytest.raises(PolicyFileError, match="version 2"):
        load_policy(path)


def test_other_rules(good_file):
    with pytest.raises(PolicyFileError, match="other rules: x2_scope='card'"):
        load_policy(good_file, TuttoRules(x2_scope="card"))


def test_one_changed_decision_breaks_the_content_hash(good_file, tmp_path):
    def flip(d):
        row = d["keep"]["bonus300"][0]
        d["keep"]["bonus300"][0] = row[:-1] + ("5" if row[-1] != "5" else "6")

    with pytest.raises(PolicyFileError, match="content hash"):
        load_policy(_doctor(good_file, tmp_path, flip, rehash=False))


def test_illegal_keep_is_refused_even_with_a_valid_hash(good_file, tmp_path):
    def illegal(d):  # throw 0 is a single 1: setting aside 4 dice is impossible
        row = d["keep"]["bonus300"][3]
        d["keep"]["bonus300"][3] = "4" + row[1:]

    with pytest.raises(PolicyFileError, match="not a legal keep"):
        load_policy(_doctor(good_file, tmp_path, illegal))


def test_wrong_keeps_are_refused(good_file, tmp_path):
    def wrong(d):  # throw 5-5-5-5-5-5: claim 1000 points for setting aside 3 dice
        ms = d["throws"].index("555555")
        d["keeps"][ms][0][2] = 1000

    with pytest.raises(PolicyFileError, match="keeps"):
        load_policy(_doctor(good_file, tmp_path, wrong))


def test_summary_is_informative_only(good_file, tmp_path):
    path = _doctor(good_file, tmp_path, lambda d: d["summary"].update(turn_ev=1.0), rehash=False)
    assert load_policy(path).summary["turn_ev"] == 1.0


def test_schema_violation(good_file, tmp_path):
    with pytest.raises(PolicyFileError, match="schema"):
        load_policy(_doctor(good_file, tmp_path, lambda d: d.pop("draw")))
    with pytest.raises(PolicyFileError, match="schema"):
        load_policy(_doctor(good_file, tmp_path, lambda d: d["bank"]["x2"].update({"3": "01x"})))


def test_rules_hash_must_match_rules(good_file, tmp_path):
    path = _doctor(good_file, tmp_path, lambda d: d["rules"].update(x2_scope="card"))
    with pytest.raises(PolicyFileError, match="rules_sha256"):
        load_policy(path)


def test_not_a_policy_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(PolicyFileError, match="not a tutto-sim policy file"):
        load_policy(path)
    with pytest.raises(PolicyFileError, match="cannot read"):
        load_policy(tmp_path / "missing.json")


def test_schema_in_docs_is_the_packaged_one():
    a = (ROOT / "docs" / "policy.schema.json").read_text()
    b = (ROOT / "tutto_sim" / "tutto" / "schema" / "policy.schema.json").read_text()
    assert a == b


def test_csv_long_format(policy, tmp_path):
    import pandas as pd

    path = policy.write(tmp_path / "p.csv", "csv")
    df = pd.read_csv(path, dtype={"throw": str})
    assert list(df.columns) == ["kind", "card", "card_points", "dice", "turn_total", "throw", "action"]
    assert set(df["kind"]) == {"keep", "bank", "draw", "street_take"}
    # the first throw 1-2-3-4-5-6 under Bonus 300: set aside the 1 alone (see docs)
    row = df[(df.kind == "keep") & (df.card == "bonus300") & (df.turn_total == 0) & (df.throw == "123456")]
    assert row["action"].tolist() == [1]
