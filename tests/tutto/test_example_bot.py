"""examples/tutto_bot.py: the plain-Python bot that plays from a policy file alone.

It must run as a script, play the exact policy (its means agree with the
solver's values, and on tutto-sim's own random streams it plays the very same
turns as ``reference.tutto.play_turn_exact``), and refuse a damaged file.
"""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.tutto import reference as ref
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.policy import ExactPolicy, PolicyFileError, content_hash, load_policy
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import solve_tutto

BOT = Path(__file__).resolve().parents[2] / "examples" / "tutto_bot.py"


def _import_bot(name="tutto_bot_under_test"):
    spec = importlib.util.spec_from_file_location(name, BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args):
    return subprocess.run([sys.executable, str(BOT), *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """(solution, ExactPolicy, path of its JSON policy file) for the default rules."""
    sol = solve_tutto()
    policy = ExactPolicy.from_solution(sol)
    path = policy.write(tmp_path_factory.mktemp("policy") / "tutto-default.json")
    return sol, policy, path


@pytest.fixture(scope="module")
def bot():
    return _import_bot()


def test_bot_is_plain_python():
    imports = re.findall(r"^\s*(?:import|from)\s+([\w.]+)", BOT.read_text(), re.M)
    assert set(imports) <= {"__future__", "argparse", "hashlib", "json", "math", "random", "sys"}


# ---- (a) the command line ------------------------------------------------------
def test_cli_verbose(solved):
    _, _, path = solved
    res = _run(path, "--turns", 8, "--seed", 3, "--verbose")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert res.stderr == ""
    assert [int(x) for x in re.findall(r"^turn (\d+)$", out, re.M)] == list(range(1, 9))
    results = [int(x) for x in re.findall(r"^ result: (\d+)$", out, re.M)]
    assert len(results) == 8 and all(v % 50 == 0 for v in results)
    assert len(re.findall(r"^ card: \w+$", out, re.M)) >= 8
    assert "throw " in out and "set aside" in out
    m = re.search(r"mean banked points: ([\d.]+) ± ([\d.]+) \(95% CI", out)
    assert m and float(m.group(1)) == pytest.approx(sum(results) / 8, abs=0.051)
    assert "exact value: 357.7" in out


def test_cli_given_card_shows_tutto_and_bank(solved):
    _, _, path = solved
    res = _run(path, "--turns", 40, "--seed", 1, "--card", "bonus300", "--verbose")
    assert res.returncode == 0, res.stderr
    assert res.stdout.count(" card: bonus300") >= 40
    for event in ("Tutto!", "bank ", "throw on", "Niete"):
        assert event in res.stdout
    assert "first card: bonus300; 40 turns, seed 1" in res.stdout
    left = re.findall(r", (\d) (die|dice) left$", res.stdout, re.M)
    assert ("1", "die") in left and ("2", "dice") in left  # one die, two dice
    assert all((n == "1") == (word == "die") for n, word in left)


def test_cli_quiet_and_bad_card(solved):
    _, _, path = solved
    res = _run(path, "--turns", 200, "--card", "Kleeblatt")
    assert res.returncode == 0 and len(res.stdout.splitlines()) == 3
    assert "first card: cloverleaf" in res.stdout
    res = _run(path, "--card", "bonus450")
    assert res.returncode == 2 and "unknown card" in res.stderr


# ---- (b) its means are the solver's exact values ----------------------------------
@pytest.mark.parametrize("card", [None, "bonus400"])
def test_mean_matches_exact_value(solved, bot, card):
    sol, _, path = solved
    exact = sol.turn_ev if card is None else sol.card_ev[Card.BONUS400]
    mean, half = bot.simulate(bot.load_policy(str(path)), 40_000, seed=20240611, card=card)
    se = half / 1.96
    assert abs(mean - exact) <= 3 * se, f"bot {mean:.2f} ± {half:.2f}, exact {exact:.2f}"


# ---- the same turns as the reference engine, on tutto-sim's own random streams ----
def _replay(monkeypatch, bot, rules, exact_policy, path, first_card, n):
    monkeypatch.setattr(bot, "throw_dice", ref.throw_dice)
    monkeypatch.setattr(bot, "draw_card", lambda stream: ref.draw_card(stream).cli_name)
    policy = bot.load_policy(str(path))
    name = None if first_card is None else first_card.cli_name
    want = [ref.play_turn_exact(rules, exact_policy, Stream(9, i), first_card).banked
            for i in range(n)]
    got = [bot.play_turn(policy, Stream(9, i), name) for i in range(n)]
    bad = [i for i in range(n) if want[i] != got[i]]
    assert not bad, f"turns {bad[:5]} differ: reference {[want[i] for i in bad[:3]]}, bot {[got[i] for i in bad[:3]]}"
    return want


@pytest.mark.parametrize("first_card", [None, Card.X2, Card.PLUSMINUS, Card.STREET,
                                        Card.FIREWORKS, Card.CLOVERLEAF],
                         ids=lambda c: "drawn" if c is None else c.cli_name)
def test_same_turns_as_reference(monkeypatch, solved, bot, first_card):
    sol, policy, path = solved
    banked = _replay(monkeypatch, bot, sol.rules, policy, path, first_card, 4000)
    assert max(banked) > 0 or first_card is Card.CLOVERLEAF  # a Kleeblatt win is worth 0 here


@pytest.mark.parametrize("rules", [
    TuttoRules(x2_scope="card", plusminus_chain="bank", cloverleaf_value=1000),
    TuttoRules(plusminus_chain="flat"),
], ids=["x2card-bank-clover1000", "flat"])
def test_rule_options_as_reference(monkeypatch, tmp_path, solved, bot, rules):
    """The bot honours x2_scope, plusminus_chain and cloverleaf_value. The tables are
    the default solution's (legal, not optimal for these rules; solving x2 scope
    "card" takes long); under x2 scope "card" the x2 tables cycle with the card's
    points, so a wrong card-points index shows."""
    _, base, _ = solved
    cyc = [Card(2 + p % 6) for p in range(41)]  # bonus200 .. x2, over and over
    x2 = rules.x2_scope == "card"
    policy = ExactPolicy(rules, base.t_max, base.keep, base.bank, base.draw, base.street_take,
                         np.stack([base.keep[c] for c in cyc]) if x2 else None,
                         np.stack([base.bank[c] for c in cyc]) if x2 else None, base.summary)
    path = policy.write(tmp_path / "variant.json")
    load_policy(path, rules)  # a sound file by tutto-sim's own checks
    for first_card in (None, Card.X2, Card.PLUSMINUS, Card.CLOVERLEAF):
        _replay(monkeypatch, bot, rules, policy, path, first_card, 2000)


# ---- (c) a damaged file is refused -------------------------------------------------
def _damaged(path: Path, tmp_path: Path) -> dict[str, Path]:
    text = path.read_text()
    d = json.loads(text)
    out = {}

    def save(name, content):
        out[name] = tmp_path / f"{name}.json"
        out[name].write_text(content)

    save("truncated", text[: len(text) // 2])
    row = d["keep"]["bonus300"][0]
    i = d["throws"].index("123456")
    changed = dict(d, keep=dict(d["keep"], bonus300=[row[:i] + ("0" if row[i] != "0" else "1")
                                                    + row[i + 1:]] + d["keep"]["bonus300"][1:]))
    save("keep-char", json.dumps(changed, separators=(",", ":")))
    flipped = "0" if d["draw"][0] == "1" else "1"
    save("draw-bit", json.dumps(dict(d, draw=flipped + d["draw"][1:]), separators=(",", ":")))
    v2 = dict(d, version=2)
    v2["content_sha256"] = content_hash(v2)
    save("version2", json.dumps(v2))
    save("not-policy", json.dumps({"format": "something-else"}))
    return out


@pytest.mark.parametrize("kind, needle", [
    ("truncated", "truncated"), ("keep-char", "content_sha256"), ("draw-bit", "content_sha256"),
    ("version2", "version 2"), ("not-policy", "not a tutto-sim policy file"),
])
def test_refuses_damaged_file(solved, tmp_path, kind, needle):
    _, _, path = solved
    bad = _damaged(path, tmp_path)[kind]
    res = _run(bad, "--turns", 10)
    assert res.returncode == 2
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and needle in lines[0], res.stderr
    with pytest.raises(PolicyFileError):  # tutto-sim refuses it as well
        load_policy(bad)
