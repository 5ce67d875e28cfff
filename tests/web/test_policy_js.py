"""The JavaScript policy reader (tutto_sim/web/policy.mjs) under node against the Python loaders.

Each game: 10,000 situations drawn by ``tutto_sim.web.export`` (seeded) are
answered by the Python loaders and by ``tests/web/driver.mjs`` with the
module; the answers must be identical. Damaged or mismatched files must be
refused by both with the same one-line message (the file's path where
Python names it). The canonical JSON behind the content hashes must equal
Python's ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
for awkward floats, strings and keys. node is required: without it the tests
fail (CI installs it).
"""

from __future__ import annotations

import copy
import json
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.web import policy_module_path
from tutto_sim.web.export import default_policy, export_cases

DRIVER = Path(__file__).with_name("driver.mjs")
WIN_TABLE = Path(__file__).with_name("data") / "tutto-win-300.json"
MACKE_WIN_TABLE = Path(__file__).with_name("data") / "macke-win-500.json"
VL_WIN_TABLE = Path(__file__).with_name("data") / "volle-lotte-win-300.json"
WIN_TABLES = {"tutto-win": WIN_TABLE, "macke-win": MACKE_WIN_TABLE}
N = 10_000


def node(*args: str) -> list:
    exe = shutil.which("node")
    if exe is None:
        pytest.fail("node (>= 18) is needed for the JavaScript policy reader's tests: apt-get install -y nodejs")
    out = subprocess.run([exe, str(DRIVER), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


@pytest.mark.parametrize("game,policy", [("tutto", None), ("macke", None), ("volle-lotte", None),
                                         ("rutsmieter", None), ("tutto-win", WIN_TABLE),
                                         ("macke-win", MACKE_WIN_TABLE), ("macke-win", VL_WIN_TABLE)])
def test_js_answers_equal_python(game, policy, tmp_path):
    doc = export_cases(game, policy, N, seed=1)
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(doc))
    answers = node("answer", str(cases))
    assert len(answers) == len(doc["cases"]) == N
    wrong = [(c, a) for c, a in zip(doc["cases"], answers) if a != c["answer"]]
    assert not wrong, f"{len(wrong)} of {N} answers differ, e.g. {wrong[:3]}"
    # the situations ask every question, with more than one answer each
    by_q = {}
    for c in doc["cases"]:
        by_q.setdefault(c["q"], set()).add(json.dumps(c["answer"]))
    assert all(len(v) > 1 for v in by_q.values()), by_q.keys()


def _ruts_table_file(path: Path, seed: int = 5) -> Path:
    """A Rutsmieter file of all the features with its own weight set at 2 and at 4
    players (3 players play its ``weights``): random weights, each on the scale of
    its feature, so that every feature takes part in the choices."""
    from tutto_sim.rutsmieter.policy import FEATURES, WeightsPolicy
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    rng = random.Random(seed)
    scale = {"progress": 1, "capture": 20, "capture_progress": 0.5, "own_progress": 0.3,
             "opp_progress": 0.2, "lead_progress": 0.3, "risk_progress": 0.2, "opp_risk": 0.2}

    def weights():
        return tuple(round(rng.uniform(-1, 1) * scale.get(f, 5), 3) for f in FEATURES)

    return WeightsPolicy(weights(), RutsmieterRules(), by_players=((2, weights()), (4, weights()))).write(path)


@pytest.mark.parametrize("weights", ["tables", "v1"])
def test_js_rutsmieter_features_and_table_weights_equal_python(weights, tmp_path):
    """Every feature of every move (the position after it included) and the move chosen
    with the weight set of the table size, at 2, 3 and 4 players, against Python;
    ``v1``: the seven features of the first files (tuned-v1)."""
    from tutto_sim.core.bots import POLICY_DIR

    path = (_ruts_table_file(tmp_path / "tables.json") if weights == "tables"
            else POLICY_DIR / "rutsmieter-tuned-v1.json")
    doc = export_cases("rutsmieter", path, 4000, seed=4)
    (tmp_path / "cases.json").write_text(json.dumps(doc))
    answers = node("answer", str(tmp_path / "cases.json"))
    wrong = [(c, a) for c, a in zip(doc["cases"], answers, strict=True) if a != c["answer"]]
    assert not wrong, f"{len(wrong)} of {len(answers)} differ, e.g. {wrong[:2]}"
    by_size = {n: [c for c in doc["cases"] if len(c["seats"]) == n] for n in (2, 3, 4)}
    assert all(len(v) > 1000 for v in by_size.values())
    # every feature takes more than one value; the moves differ by the table's weights
    from tutto_sim.rutsmieter.policy import FEATURES, load_weights_policy
    from tutto_sim.rutsmieter.reference import Move, Observation
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    for k, f in enumerate(FEATURES):
        assert len({fs[k] for c in doc["cases"] for fs in c["answer"]["features"]}) > 1, f
    if weights == "tables":
        pol = load_weights_policy(path)
        other = 0
        for n, cases in by_size.items():
            for c in cases[:300]:
                moves = tuple(Move(m["piece"], m["start"], m["end"],
                                   tuple(m["victim"]) if m["victim"] else None) for m in c["moves"])
                obs = Observation(tuple(c["seats"]), tuple(map(tuple, c["pieces"])), c["player"],
                                  c["die"], moves)
                other += pol.at(RutsmieterRules(players=6 - n if n != 3 else 2)).choose(obs) \
                    != c["answer"]["move"]
        assert other > 50  # another table's weights would often move otherwise


def _ruts_table_damages(d: dict) -> list:
    """(label, document) for the damages a file of weight sets per table can have."""
    out = []
    x = copy.deepcopy(d)
    x["weights_by_players"]["2"]["opp_risk"] += 1
    out.append(("a table's weight changed, hash not", x))
    x = copy.deepcopy(d)
    del x["weights_by_players"]["4"]["lead_goal"]
    out.append(("a table's set misses a weight", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["weights_by_players"]["5"] = x["weights"]
    out.append(("a table of 5", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["weights_by_players"]["3"] = {"progress": 1.0}
    out.append(("a set without the first seven", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["weights_by_players"]["2"]["capture"] = "30"
    out.append(("a string weight", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    del x["weights_by_players"]
    out.append(("the tables dropped, hash not", x))
    x = copy.deepcopy(d)
    del x["weights_by_players"]
    out.append(("the tables dropped and rehashed", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["features"] = x["features"][:7]
    x["weights"] = {f: x["weights"][f] for f in x["features"]}
    out.append(("seven features, sets of all", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["features"] = x["features"][:10]
    out.append(("ten features", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["features"] = x["features"][:6] + ["opp_risk"]
    out.append(("other seven", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["weights_by_players"] = []
    out.append(("tables not an object", _rehash(x, "rutsmieter")))
    x = copy.deepcopy(d)
    x["weights_by_players"] = {}
    out.append(("no tables", _rehash(x, "rutsmieter")))
    return out


def test_rutsmieter_table_files_refused_as_in_python(tmp_path):
    """Damaged files of weight sets per table size: the reader refuses (or reads)
    each as Python does, with Python's message; a file of seven features reads."""
    d = json.loads(_ruts_table_file(tmp_path / "tables.json").read_text())
    jobs, expected = [], []
    for i, (label, doc) in enumerate(_ruts_table_damages(d)):
        path = tmp_path / f"t{i}.json"
        path.write_text(json.dumps(doc))
        for rules in (None, {**d["rules"], "players": 2}):
            caller = _rules("rutsmieter", **{k: v for k, v in rules.items() if k != "game"}) if rules else None
            jobs.append({"file": str(path), "game": "rutsmieter", "rules": rules})
            expected.append((label, _python_refusal("rutsmieter", path, caller)))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    got = node("load", str(tmp_path / "jobs.json"))
    for (label, want), js in zip(expected, got, strict=True):
        assert js.get("message") == want, (label, js, want)
    refused = {label for label, want in expected if want is not None}
    assert refused == {label for label, _ in _ruts_table_damages(d)} - {
        "the tables dropped and rehashed", "no tables"}, refused


def _x2_card_file(path: Path) -> Path:
    """A legal table under x2_scope=card, small and quick (not the optimal one): the
    default file's first 6 rows, and x2 decisions by card points drawn at random
    from the legal keeps and both bank answers."""
    from tutto_sim.dice.throws import build_tables
    from tutto_sim.tutto.policy import content_hash
    from tutto_sim.tutto.rules import TuttoRules
    from tutto_sim.tutto.solver import max_card_points

    d = json.loads(default_policy("tutto").read_text())
    rows = 6
    rng = random.Random(7)
    d["turn_total_rows"] = rows
    for card in d["keep"]:
        d["keep"][card] = d["keep"][card][:rows]
        d["bank"][card] = {n: b[:rows] for n, b in d["bank"][card].items()}
    d["draw"] = d["draw"][:rows]

    def keep_row() -> str:
        return "".join(str(rng.choice(ks)[0]) if ks else "0" for ks in d["keeps"])

    parts = [{"keep": [keep_row() for _ in range(rows)],
              "bank": {str(n): "".join(rng.choice("01") for _ in range(rows)) for n in range(1, 6)}}
             for _ in range(max_card_points(build_tables()) + 1)]
    d["x2_by_card_points"] = parts
    d["keep"]["x2"], d["bank"]["x2"] = parts[0]["keep"], parts[0]["bank"]
    rules = TuttoRules(x2_scope="card")
    d["rules"], d["rules_sha256"] = rules.to_dict(), rules.digest()
    d["content_sha256"] = content_hash(d)
    path.write_text(json.dumps(d, separators=(",", ":")))
    return path


def test_js_answers_equal_python_x2_by_card_points(tmp_path):
    """Under x2_scope=card the x2 decisions depend on the card's points too."""
    doc = export_cases("tutto", _x2_card_file(tmp_path / "x2card.json"), 3000, seed=2)
    (tmp_path / "cases.json").write_text(json.dumps(doc))
    answers = node("answer", str(tmp_path / "cases.json"))
    wrong = [(c, a) for c, a in zip(doc["cases"], answers) if a != c["answer"]]
    assert not wrong, f"{len(wrong)} answers differ, e.g. {wrong[:3]}"
    assert sum(c.get("card") == "x2" and c["card_points"] > 0 for c in doc["cases"]) > 200
    # one entry short: refused as in Python
    d = json.loads((tmp_path / "x2card.json").read_text())
    d["x2_by_card_points"].pop()
    short = tmp_path / "short.json"
    short.write_text(json.dumps(_rehash(d, "tutto")))
    (tmp_path / "jobs.json").write_text(json.dumps([{"file": str(short), "game": "tutto"}]))
    assert node("load", str(tmp_path / "jobs.json"))[0]["message"] == _python_refusal("tutto", short, None)


def test_export_command(tmp_path, capsys):
    from tutto_sim.web.export import main

    out = tmp_path / "cases.json"
    assert main(["--game", "volle-lotte", "--n", "50", "--seed", "4", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["game"] == "macke" and doc["seed"] == 4 and len(doc["cases"]) == 50
    assert doc["cases"] == export_cases("volle-lotte", None, 50, seed=4)["cases"]
    assert main(["--game", "tutto-win", "--out", str(out)]) == 2
    assert "pass one" in capsys.readouterr().err
    for bad in (["--game", "joker", "--out", str(out)], ["--game", "tutto", "--n", "0", "--out", str(out)]):
        with pytest.raises(SystemExit) as e:
            main(bad)
        assert e.value.code == 2


def test_export_is_seeded():
    a = export_cases("macke", None, 200, seed=5)["cases"]
    assert a == export_cases("macke", None, 200, seed=5)["cases"]
    assert a != export_cases("macke", None, 200, seed=6)["cases"]


# ---------------------------------------------------------------------------
# refusals: the same message as Python
# ---------------------------------------------------------------------------


def _python_refusal(game: str, path: Path, rules):
    from tutto_sim.macke.policy import load_macke_policy
    from tutto_sim.macke.win.table import load_win_table as load_macke_win_table
    from tutto_sim.rutsmieter.policy import load_weights_policy
    from tutto_sim.tutto.policy import load_policy
    from tutto_sim.tutto.win.table import load_win_table

    load = {"tutto": load_policy, "macke": load_macke_policy, "rutsmieter": load_weights_policy,
            "tutto-win": load_win_table, "macke-win": load_macke_win_table}[game]
    try:
        load(path, rules)
    except PolicyFileError as e:
        return str(e)
    return None


def _rules(game: str, **kw):
    from tutto_sim.macke.rules import MackeRules
    from tutto_sim.rutsmieter.rules import RutsmieterRules
    from tutto_sim.tutto.rules import TuttoRules

    cls = {"tutto": TuttoRules, "macke": MackeRules, "rutsmieter": RutsmieterRules, "tutto-win": TuttoRules,
           "macke-win": MackeRules}[game]
    return cls(**kw)


def _rehash(d: dict, game: str) -> dict:
    from tutto_sim.macke.policy import content_hash as macke_hash
    from tutto_sim.macke.win.table import _win_hash as macke_win_hash
    from tutto_sim.rutsmieter.policy import content_hash as ruts_hash
    from tutto_sim.tutto.policy import content_hash as tutto_hash
    from tutto_sim.tutto.win.table import _win_hash

    d["content_sha256"] = {"tutto": tutto_hash, "macke": macke_hash, "rutsmieter": ruts_hash,
                           "tutto-win": _win_hash, "macke-win": macke_win_hash}[game](d)
    return d


def _flip(s: str, i: int, alphabet: str) -> str:
    return s[:i] + next(c for c in alphabet if c != s[i]) + s[i + 1:]


def _damages(game: str, d: dict, file_rules: dict):
    """(label, document or raw text, caller rules) for each kind of damage."""
    out = []
    # a flipped digit in a decision
    x = copy.deepcopy(d)
    if game == "tutto":
        x["keep"]["bonus300"][3] = _flip(x["keep"]["bonus300"][3], 700, "01")
    elif game == "macke":
        x["bank"]["1"][0] = _flip(x["bank"]["1"][0], 5, "01")
    elif game == "rutsmieter":
        x["weights"]["danger_ahead"] += 0.25
    elif game == "macke-win":
        x["W"][1][2] = x["W"][1][2] / 2
    else:
        x["W"][0][1][2] = x["W"][0][1][2] / 2
    out.append(("flipped digit", x, None))
    # a missing key, a key too many
    x = copy.deepcopy(d)
    del x[{"tutto": "draw", "macke": "clear", "rutsmieter": "weights", "tutto-win": "last_turn",
           "macke-win": "floor_units"}[game]]
    out.append(("missing key", x, None))
    x = copy.deepcopy(d)
    x["extra"] = 1
    out.append(("key too many", x, None))
    # a value the schema forbids, deep inside
    x = copy.deepcopy(d)
    if game == "tutto":
        x["bank"]["x2"]["3"] = "012"
    elif game == "macke":
        x["clear"] = x["clear"][:-1] + "x"
    elif game == "rutsmieter":
        x["weights"]["capture"] = "30"
    elif game == "macke-win":
        x["last_turn"][3] = -0.5
    else:
        x["W"][1][0][1] = 1.5
    out.append(("forbidden value", x, None))
    # other version, format, game
    out.append(("other version", {**d, "version": 2}, None))
    out.append(("other format", {**d, "format": "something-else"}, None))
    out.append(("other game", {**d, "game": "tutti"}, None))
    # the rules changed, the content hash made to fit: rules_sha256 no longer matches
    x = copy.deepcopy(d)
    key, value = {"tutto": ("x2_scope", "card"), "macke": ("min_score", 350),
                  "rutsmieter": ("must_capture", False), "tutto-win": ("game_end", "immediate"),
                  "macke-win": ("bust", "zero")}[game]
    x["rules"][key] = value
    out.append(("rules changed", _rehash(x, game), None))
    # other rules than the caller plays
    out.append(("other rules", d, {"tutto": {"x2_scope": "card"}, "macke": {"min_score": 350},
                                   "rutsmieter": {"must_capture": False, "players": 3},
                                   "tutto-win": {"target": 1000}, "macke-win": {"min_score": 350}}[game]))
    out.append(("the caller's rules", d, {"tutto": {}, "macke": {}, "rutsmieter": {"players": 4},
                                          "tutto-win": {"cloverleaf_value": 500},
                                          "macke-win": {"win_value": 1000}}[game]))
    # an illegal decision under a fitting hash
    x = copy.deepcopy(d)
    if game == "tutto":
        x["keep"]["bonus200"][0] = "6" + x["keep"]["bonus200"][0][1:]  # throw "1": at most 1 die
    elif game == "macke":
        x["keep"]["1"][0] = "z" + x["keep"]["1"][0][1:]
    elif game == "rutsmieter":
        x["features"] = list(reversed(x["features"]))
    elif game == "macke-win":
        x["last_turn"].pop()
    else:
        x["W"][1].pop()
    out.append(("illegal decision", _rehash(x, game), None))
    # a table the rules do not build, under a fitting hash
    if game in ("tutto", "macke"):
        x = copy.deepcopy(d)
        if game == "tutto":
            x["keeps"][700][-1][2] += 50
        else:
            x["units"][1][2] = 100
        out.append(("forged table", _rehash(x, game), None))
    # damaged bytes
    text = json.dumps(d, separators=(",", ":"))
    out.append(("truncated", text[: len(text) // 2], None))
    out.append(("not UTF-8", b"\xff\xfe" + text.encode(), None))
    return out


@pytest.mark.parametrize("game,file", [("tutto", "tutto"), ("macke", "macke"), ("macke", "volle-lotte"),
                                       ("rutsmieter", "rutsmieter"), ("tutto-win", None), ("macke-win", None)])
def test_damaged_files_refused_as_in_python(game, file, tmp_path):
    src = WIN_TABLES[game] if file is None else default_policy(file)
    d = json.loads(src.read_text())
    jobs, expected = [], []
    for i, (label, doc, rules) in enumerate(_damages(game, d, d["rules"])):
        path = tmp_path / f"damage{i}.json"
        if isinstance(doc, dict):
            path.write_text(json.dumps(doc, separators=(",", ":")))
        elif isinstance(doc, bytes):
            path.write_bytes(doc)
        else:
            path.write_text(doc)
        caller = None
        if rules is not None:
            caller = _rules(game, **{k: v for k, v in {**d["rules"], **rules}.items() if k != "game"})
        jobs.append({"file": str(path), "game": game, "rules": caller.to_dict() if caller else None})
        expected.append((label, _python_refusal(game, path, caller)))
    jobs.append({"file": str(src), "game": game})
    expected.append(("the file itself", None))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    got = node("load", str(tmp_path / "jobs.json"))
    for (label, want), js in zip(expected, got):
        if want is None:
            assert js == {"ok": True}, (label, js)
        else:
            assert js.get("message") == want, (label, js, want)
    # every damage is refused, for different reasons
    assert sum(w is not None for _, w in expected) >= len(expected) - 3
    assert len({js.get("reason") for js in got}) >= 8


def test_wrong_reader_refused_as_in_python(tmp_path):
    """A Macke file read as Tutto, a Tutto file read as a win table, a win table read as a policy, one
    game's win table read as the other's, a file that is not there."""
    jobs, expected = [], []
    for game, src in [("tutto", default_policy("macke")), ("tutto-win", default_policy("tutto")),
                      ("tutto", WIN_TABLE), ("rutsmieter", default_policy("tutto")),
                      ("macke-win", WIN_TABLE), ("tutto-win", MACKE_WIN_TABLE), ("macke", MACKE_WIN_TABLE),
                      ("tutto-win", tmp_path / "missing.json")]:
        jobs.append({"file": str(src), "game": game})
        expected.append(_python_refusal(game, src, None))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    got = node("load", str(tmp_path / "jobs.json"))
    assert all(w is not None for w in expected)
    assert [js.get("message") for js in got[:-1]] == expected[:-1]
    assert got[-1]["reason"] == "unreadable"
    assert got[-1]["message"] == expected[-1].split(":")[0] + ": No such file or directory"


# ---------------------------------------------------------------------------
# the canonical JSON of the hashes
# ---------------------------------------------------------------------------


def test_canonical_json_equals_python(tmp_path):
    rng = random.Random(3)
    floats = [0.0, -0.0, 1.0, 0.1, 1e-05, 1e-4, 0.0001234, 1e16, 1e15, 123456789012345678.0, 1.5e-7,
              5e-324, 1.7976931348623157e308, 2.5, 100.0, 0.45008629707120744, math.inf, -math.inf]
    floats += [rng.uniform(0, 1) for _ in range(300)]
    floats += [math.ldexp(rng.random(), rng.randint(-1070, 1020)) * rng.choice((1, -1)) for _ in range(700)]
    texts = [json.dumps(x) for x in floats]
    texts += ["[1, -0, 12345678901234567890123, 1E2, 1e-2, 10.50]", '"ä€😀\\u0000\\u001f\\u007f\\"\\\\/\\ud800"',
              '{"b": 1, "a": {"z": [true, false, null], "ä": 2, "\\ud83d\\ude00": 3, "\\uffff": 4, "A": 5}, "a": 7}',
              '  {"x" :\t[ 1 ,2 ]\r\n}  ', '{"__proto__": {"y": 1}}', "NaN"]
    want = [json.dumps(json.loads(t), sort_keys=True, separators=(",", ":"), ensure_ascii=True) for t in texts]
    (tmp_path / "texts.json").write_text(json.dumps(texts))
    assert node("canon", str(tmp_path / "texts.json")) == want


def test_tables_built_from_the_rules_equal_python(tmp_path):
    """The reader rebuilds Tutto's keeps and Macke's units, states, throws, keeps and returns
    from the rules to check a file's tables; they equal Python's for every rule that changes them."""
    from tutto_sim.dice.scoring import ScoringRules
    from tutto_sim.macke.policy import tables_of
    from tutto_sim.macke.rules import VARIANTS, MackeRules
    from tutto_sim.tutto.policy import keeps_table

    rules, want = [], []
    for six in ("two-triples", "one-triple"):
        rules.append({"game": "tutto", "six_of_kind": six})
        want.append(keeps_table(ScoringRules(6, six)))
        for variant in VARIANTS:
            r = MackeRules(variant=variant, six_of_kind=six)
            rules.append(r.to_dict())
            want.append(tables_of(r))
    (tmp_path / "rules.json").write_text(json.dumps(rules))
    assert node("tables", str(tmp_path / "rules.json")) == want


def test_embedded_schemas_are_the_packages():
    """policy.mjs carries the package's JSON Schemas; they must not drift."""
    import re

    text = policy_module_path().read_text(encoding="utf-8")
    block = re.search(r"// BEGIN SCHEMAS\nconst SCHEMAS = (\{.*?\n\});\n// END SCHEMAS", text, re.S).group(1)
    embedded = json.loads(block)
    root = Path(__file__).resolve().parents[2] / "tutto_sim"
    files = {"tutto": "tutto/schema/policy.schema.json", "macke": "macke/schema/macke-policy.schema.json",
             "rutsmieter": "rutsmieter/schema/rutsmieter-policy.schema.json",
             "tutto-win": "tutto/schema/win-policy.schema.json",
             "macke-win": "macke/schema/macke-win-policy.schema.json",
             "tutto-win-n": "tutto/schema/win-policy-n.schema.json"}
    for game, rel in files.items():
        assert embedded[game] == json.loads((root / rel).read_text()), (
            f"policy.mjs's schema for {game} differs from tutto_sim/{rel}: copy it into the SCHEMAS block")


# ---------------------------------------------------------------------------
# examples/tutto_bot.mjs
# ---------------------------------------------------------------------------

BOT = Path(__file__).resolve().parents[2] / "examples" / "tutto_bot.mjs"


def run_bot(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("node")
    if exe is None:
        pytest.fail("node (>= 18) is needed for examples/tutto_bot.mjs: apt-get install -y nodejs")
    return subprocess.run([exe, str(BOT), *args], capture_output=True, text=True, timeout=120)


def test_bot_mean_matches_the_exact_turn_ev():
    """150,000 turns: the mean banked points lie within the 99.9% CI of the solver's exact turn EV."""
    import re

    from tutto_sim.tutto.rules import TuttoRules
    from tutto_sim.tutto.solver import solve_tutto

    turns = 150_000
    out = run_bot("--turns", str(turns), "--seed", "7", "--show", "0")
    assert out.returncode == 0, out.stderr
    m = re.search(r"mean points per turn: ([\d.]+) ± [\d.]+ \(95% CI; standard deviation ([\d.]+)\)", out.stdout)
    mean, sd = float(m.group(1)), float(m.group(2))
    exact = solve_tutto(TuttoRules()).turn_ev
    assert abs(mean - exact) <= 3.29 * sd / math.sqrt(turns), (mean, exact, sd)
    assert 300 < sd < 700  # a turn's points spread widely: the CI is not vacuous


def test_bot_tells_turns_in_words_and_repeats_with_its_seed():
    a = run_bot("--turns", "60", "--seed", "3", "--show", "60")
    assert a.returncode == 0, a.stderr
    text = a.stdout
    for words in ("card: Stop", "card: Bonus", "set aside", "Tutto! turn total", "throw on", "bank ",
                  "Niete", "the turn banks", "mean points per turn"):
        assert words in text, words
    assert text.count("\nturn ") + text.startswith("turn ") == 60
    assert run_bot("--turns", "60", "--seed", "3", "--show", "60").stdout == text
    assert run_bot("--turns", "60", "--seed", "4", "--show", "60").stdout != text


def test_bot_refuses_bad_input_and_damaged_files(tmp_path):
    d = json.loads(default_policy("tutto").read_text())
    d["draw"] = "1" + d["draw"][1:] if d["draw"][0] == "0" else "0" + d["draw"][1:]
    bad = tmp_path / "damaged.json"
    bad.write_text(json.dumps(d))
    out = run_bot("--policy", str(bad))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == f"tutto_bot: error: policy file {bad} was changed or damaged: its content hash does not match"
    for args, words in [(("--turns", "0"), "--turns must be"), (("--card", "joker"), "valid: stop, fireworks"),
                        (("--speed", "9"), "unknown option --speed")]:
        out = run_bot(*args)
        assert out.returncode == 2 and words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_node_18_without_global_web_crypto():
    """node 18 (Debian 12's nodejs) has Web Crypto only in node:crypto: the reader falls back to it."""
    exe = shutil.which("node")
    if exe is None:
        pytest.fail("node (>= 18) is needed for the JavaScript policy reader's tests: apt-get install -y nodejs")
    script = (
        'Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });'
        f'const m = await import({json.dumps(policy_module_path().as_uri())});'
        f'const p = await m.loadPolicyFile({json.dumps(str(default_policy("rutsmieter")))}, {{ game: "rutsmieter" }});'
        'console.log(typeof globalThis.crypto, p.contentSha256);')
    out = subprocess.run([exe, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    d = json.loads(default_policy("rutsmieter").read_text())
    assert out.stdout.split() == ["undefined", d["content_sha256"]]


def _mutate(d: dict, rng: random.Random, game: str) -> dict:
    """One random change somewhere in the document: a key deleted or added, an item
    dropped or appended, a value replaced by one of another type; sometimes rehashed."""
    d = copy.deepcopy(d)
    node = d
    for _ in range(rng.randint(0, 4)):
        keys = list(node) if isinstance(node, dict) else range(len(node))
        if not keys:
            break
        k = rng.choice(list(keys))
        if not isinstance(node[k], (dict, list)) or not node[k]:
            break
        node = node[k]
    value = rng.choice([None, True, 0, -1, 1.5, 7, "x", "0", [], {}, [1], {"a": 1}])
    op = rng.random()
    if isinstance(node, dict) and node:
        k = rng.choice(list(node))
        if op < 0.3:
            del node[k]
        elif op < 0.5:
            node[f"zz{rng.randint(0, 9)}"] = value
        else:
            node[k] = value
    elif isinstance(node, list) and node:
        k = rng.randrange(len(node))
        if op < 0.3:
            node.pop(k)
        elif op < 0.5:
            node.append(value)
        else:
            node[k] = value
    return _rehash(d, game) if rng.random() < 0.3 else d


def test_random_damage_refused_as_in_python(tmp_path):
    """80 random changes (seeded) to a Rutsmieter file and a Tutto win table: the reader
    accepts or refuses each as Python does, with Python's message."""
    rng = random.Random(11)
    jobs, expected = [], []
    for game, src in [("rutsmieter", default_policy("rutsmieter")), ("tutto-win", WIN_TABLE)]:
        d = json.loads(src.read_text())
        for i in range(40):
            path = tmp_path / f"{game}-{i}.json"
            path.write_text(json.dumps(_mutate(d, rng, game)))
            jobs.append({"file": str(path), "game": game})
            expected.append(_python_refusal(game, path, None))
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    got = node("load", str(tmp_path / "jobs.json"))
    assert [js.get("message") for js in got] == expected
    assert sum(m is not None for m in expected) > 60  # most changes break the file


#: Win tables of other rules for the decisions inside a turn (small: written once by
#: ``solve_win(TuttoRules(**rules))`` and ``write_win_table``; the rules are in each file).
#: immediate game end, deduction at the Tutto, x2 per card, Plus/Minus chain "bank":
WIN_TABLE_IMMEDIATE = Path(__file__).with_name("data") / "tutto-win-300-immediate.json"
#: target 500, round, deduction at the bank, x2 per card, Plus/Minus chain "flat":
WIN_TABLE_FLAT = Path(__file__).with_name("data") / "tutto-win-500-flat.json"


@pytest.mark.parametrize("table,n", [(WIN_TABLE, 3000), (WIN_TABLE_IMMEDIATE, 1500), (WIN_TABLE_FLAT, 1500)])
def test_js_win_decisions_inside_a_turn_equal_python(table, n, tmp_path):
    """TuttoWinTable.keepDice / banks / banksAfterTutto / streetTake: the decision of
    tutto.win.planner.WinPlanner and each option's chance of tutto.human.WinAdvisor.chances
    (to 1e-12) in seeded situations (tutto/web_cases.py win_turn_cases)."""
    from tutto_sim.tutto.web_cases import win_turn_cases

    cases = win_turn_cases(table, n, seed=3)
    (tmp_path / "cases.json").write_text(json.dumps({"policy": str(table), "game": "tutto-win", "cases": cases}))
    answers = node("answer", str(tmp_path / "cases.json"))
    assert len(answers) == len(cases) == n

    def same(c: dict, a: dict) -> bool:
        want = c["answer"]
        if any(a[k] != want[k] for k in want if k != "chances") or len(a["chances"]) != len(want["chances"]):
            return False
        return all((x is None) == (y is None) and (x is None or abs(x - y) <= 1e-12)
                   for x, y in zip(a["chances"], want["chances"]))

    wrong = [(c, a) for c, a in zip(cases, answers) if not same(c, a)]
    assert not wrong, f"{len(wrong)} of {n} differ, e.g. {wrong[:2]}"
    # every question, with both answers or several; Plus/Minus Tuttos pending; x2 card points; last turns
    decision = {"turn-keep": "dice", "turn-bank": "bank", "turn-tutto": "bank", "turn-street": "take"}
    for q, key in decision.items():
        assert len({c["answer"][key] for c in cases if c["q"] == q}) > 1, q
    assert sum(c["pm"] > 0 for c in cases) > n // 5
    assert any(c["q"] == "turn-keep" and c["card"] == "plusminus" and c["answer"]["dice"] for c in cases)
    rules = json.loads(table.read_text())["rules"]
    if rules["game_end"] == "round":  # past the cap the programme banks (seat 0 beyond the target)
        assert any(c["q"] == "turn-bank" and c["answer"]["chances"][1] is None for c in cases)
        assert sum(c["last_round"] for c in cases) > n // 10
    if rules["x2_scope"] == "card":
        assert sum(c.get("card") == "x2" and c["card_points"] > 0 for c in cases) > n // 20


def test_js_win_decisions_refuse_bad_situations(tmp_path):
    """A card that has no such decision, dice left outside 1-5, a score past the target
    outside the last round: a RangeError naming what is allowed."""
    script = tmp_path / "bad.mjs"
    script.write_text(f"""
import {{ readFileSync }} from "node:fs";
import {{ loadPolicy }} from {json.dumps(policy_module_path().as_uri())};
const t = await loadPolicy(readFileSync({json.dumps(str(WIN_TABLE))}), {{ game: "tutto-win" }});
const base = {{ seat: 0, scores: [0, 0], turnTotal: 300, card: "bonus200", dice: 3, throw: "155" }};
const out = [];
for (const [f, sit] of [["keepDice", {{ card: "stop" }}], ["banks", {{ card: "plusminus" }}], ["banks", {{ dice: 6 }}],
                        ["banksAfterTutto", {{ scores: [300, 0] }}], ["streetTake", {{ aside: 5, newNumbers: 2 }}]]) {{
  try {{ t[f]({{ ...base, ...sit }}); out.push("no error"); }} catch (e) {{ out.push(e instanceof RangeError ? e.message : String(e)); }}
}}
console.log(JSON.stringify(out));
""")
    out = subprocess.run([shutil.which("node"), str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    msgs = json.loads(out.stdout)
    assert "bonus200, bonus300" in msgs[0] and "not stop" in msgs[0]
    assert "not plusminus" in msgs[1]
    assert msgs[2] == "dice left must be 1-5, not 6"
    assert msgs[3] == "own score must be 0 to 250 points, not 300"
    assert "not 5 and 2" in msgs[4]


@pytest.mark.parametrize("table,args", [
    (WIN_TABLE, ("--seat", "0", "--own", "100", "--other", "150")),
    (WIN_TABLE, ("--seat", "1", "--own", "50", "--other", "450", "--last-round")),
    (WIN_TABLE_IMMEDIATE, ("--seat", "1", "--own", "250", "--other", "250")),
    (WIN_TABLE_FLAT, ("--seat", "0", "--own", "100", "--other", "400")),
])
def test_bot_playing_to_win_leaves_the_tables_chance(table, args):
    """--win-table: 40,000 turns played by the reader's win decisions from the scores given; the
    mean chance to win they leave (after a bank, a Niete, a deduction, a Kleeblatt's win) lies in
    the 99.9% CI of the chance at the turn's start that Python's table gives (W, or the last turn's)."""
    import re

    from tutto_sim.tutto.win.table import load_win_table

    turns = 40_000
    out = run_bot("--win-table", str(table), *args, "--turns", str(turns), "--seed", "5", "--show", "0")
    assert out.returncode == 0, out.stderr
    m = re.search(r"mean chance to win after the turn: ([\d.]+) ± [\d.]+ \(95% CI; standard deviation ([\d.]+)\)",
                  out.stdout)
    mean, sd = float(m.group(1)), float(m.group(2))
    w = load_win_table(table)
    opt = dict(zip(args[::2], args[1::2]))
    seat, own, other = int(opt["--seat"]), int(opt["--own"]) // 50, int(opt["--other"]) // 50
    exact = float(w.last_turn_table[1, other - own + 1] if "--last-round" in args else w.W[seat, own, other])
    assert abs(mean - exact) <= 3.29 * sd / math.sqrt(turns) + 1e-5, (mean, exact, sd)  # 1e-5: the printed digits
    assert sd > 0.15  # the turns end far apart: the CI is not vacuous


def test_bot_playing_to_win_refuses_bad_input():
    for args, words in [(("--seat", "2"), "--seat must be 0"), (("--own", "75"), "--own must be a score"),
                        (("--last-round",), "give --seat 1"),
                        (("--seat", "1", "--other", "200", "--last-round"), "must have reached the target 300"),
                        (("--own", "300"), "own score must be 0 to 250 points, not 300")]:
        out = run_bot("--win-table", str(WIN_TABLE), *args)
        assert out.returncode == 2 and words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
