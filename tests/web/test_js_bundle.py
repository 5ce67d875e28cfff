"""The shipped JavaScript is made from the sources in js/ by scripts/bundle_js.py.

``tutto_sim/web/policy.mjs`` (the policy reader) and ``tutto_sim/web/site/advisor.js``
(the advisor page) are bundles: each must be exactly what the script makes from
js/reader/ and js/advisor/ (edit the sources, then run ``python scripts/bundle_js.py``).
The reader's sources are modules that run as they are, with the bundle's exports;
the bundler refuses sources it cannot bundle faithfully. The reader's Rutsmieter
legal moves (which the advisor page uses) are those of the Python reference.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutto_sim.web import policy_module_path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bundle_js.py"
READER_SOURCES = ROOT / "js" / "reader" / "policy.mjs"


@functools.cache
def _bundler():
    """scripts/bundle_js.py as a module."""
    spec = importlib.util.spec_from_file_location("bundle_js_under_test", SCRIPT)
    mod = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _node(script: str) -> object:
    exe = shutil.which("node")
    if exe is None:
        pytest.fail("node (>= 18) is needed for the JavaScript tests: apt-get install -y nodejs")
    out = subprocess.run([exe, "--input-type=module"], input=script, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


@pytest.mark.parametrize("bundle", _bundler().BUNDLES, ids=lambda b: b.out)
def test_committed_bundle_is_what_the_sources_make(bundle):
    made = _bundler().make(bundle)
    shipped = (ROOT / bundle.out).read_text(encoding="utf-8")
    assert shipped == made, f"{bundle.out} is not what {bundle.entry} and its modules make: run python scripts/bundle_js.py"
    assert shipped.startswith("// Generated from js/") and "do not edit" in shipped.splitlines()[0]


def test_check_mode_says_so():
    out = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "bundle_js: up to date", out.stderr


def test_sources_run_as_modules_with_the_bundles_exports():
    """The reader's sources, imported as they are, export the bundle's names and read a
    shipped table alike."""
    table = ROOT / "tutto_sim" / "data" / "policies" / "tutto-default.json"
    got = _node(f"""
import {{ readFileSync }} from "node:fs";
const bundle = await import({json.dumps(policy_module_path().as_uri())});
const sources = await import({json.dumps(READER_SOURCES.as_uri())});
const text = readFileSync({json.dumps(str(table))});
const a = await bundle.loadPolicy(text, {{ game: "tutto" }});
const b = await sources.loadPolicy(text, {{ game: "tutto" }});
console.log(JSON.stringify([Object.keys(bundle), Object.keys(sources), a.contentSha256, b.contentSha256,
  a.keep("bonus300", 450, "155234"), b.keep("bonus300", 450, "155234")]));
""")
    assert got[0] == got[1] and "loadPolicy" in got[0] and "BANKABLE" in got[0]
    assert got[2] == got[3] and got[4] == got[5]


def _sources(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    mod = _bundler()
    return mod, mod.Bundle(str(tmp_path / "entry.mjs"), str(tmp_path / "out.mjs"), {})


@pytest.mark.parametrize("files,words", [
    ({"entry.mjs": 'export { a } from "./x.mjs";\n', "x.mjs": "const a = 1;\n"}, "does not export"),
    ({"entry.mjs": 'export { a } from "./x.mjs";\n', "x.mjs": 'import { b } from "./y.mjs";\nexport const a = b;\n',
      "y.mjs": 'import { a } from "./x.mjs";\nexport const b = 1;\n'}, "import circle"),
    ({"entry.mjs": 'export { a } from "./x.mjs";\nexport { b } from "./y.mjs";\n', "x.mjs": "export const a = 1;\nconst c = 2;\n",
      "y.mjs": "export const b = 1;\nfunction c() {}\n"}, "c is declared in x.mjs and y.mjs"),
    ({"entry.mjs": 'export { a } from "./x.mjs";\n', "x.mjs": "export default 1;\nexport const a = 1;\n"}, "does not take"),
    ({"entry.mjs": 'export { a } from "./gone.mjs";\n'}, "missing"),
])
def test_bundler_refuses_what_it_cannot_bundle(tmp_path, files, words):
    mod, bundle = _sources(tmp_path, files)
    with pytest.raises(mod.BundleError, match=words):
        mod.make(bundle)


def test_bundle_keeps_export_only_on_the_public_names(tmp_path):
    mod, bundle = _sources(tmp_path, {
        "entry.mjs": "// the entry's words\n\nexport { a } from \"./x.mjs\";\n",
        "x.mjs": 'import { b } from "./y.mjs";\n\nexport const a = b + 1;\n',
        "y.mjs": "// y\n\nexport const b = 1;\n"})
    text = mod.make(bundle)
    assert text.splitlines()[1:] == ["// the entry's words", "", "// y", "", "const b = 1;", "", "export const a = b + 1;"]


def test_reader_legal_moves_are_the_python_references():
    """legalMoves (js/reader/rutsmieter.mjs) against rutsmieter/reference.py legal_moves on
    random positions at 2-4 players under random house rules."""
    from tutto_sim.rutsmieter.reference import legal_moves
    from tutto_sim.rutsmieter.rules import RutsmieterRules
    from tutto_sim.rutsmieter.web_cases import random_board

    rng = random.Random(3)
    cases = []
    for _ in range(3000):
        rules = RutsmieterRules(players=rng.choice((2, 3, 4)), must_leave_house=rng.random() < 0.7,
                                must_capture=rng.random() < 0.7, goal_no_jump=rng.random() < 0.4)
        board = random_board(rng, rules.seats)
        player, die = rng.randrange(len(rules.seats)), rng.randint(1, 6)
        want = [[m.piece, m.start, m.end, list(m.victim) if m.victim is not None else None]
                for m in legal_moves(board, player, die, rules)]
        cases.append({"seats": list(rules.seats), "pieces": [list(q) for q in board.pieces], "player": player,
                      "die": die, "rules": rules.to_dict(), "want": want})
    got = _node(f"""
import {{ legalMoves }} from {json.dumps(policy_module_path().as_uri())};
const cases = {json.dumps(cases)};
console.log(JSON.stringify(cases.map((c) => legalMoves(c.seats, c.pieces, c.player, c.die, c.rules)
  .map((m) => [m.piece, m.start, m.end, m.victim]))));
""")
    wrong = [(c, g) for c, g in zip(cases, got, strict=True) if g != c["want"]]
    assert not wrong, f"{len(wrong)} of {len(cases)} differ, e.g. {wrong[:2]}"
    assert sum(len(c["want"]) > 1 for c in cases) > 500 and sum(not c["want"] for c in cases) > 50


def test_reader_feature_words_are_the_pythons():
    """rutsmieterValueWords (js/reader/rutsmieter.mjs), which the advisor explains its move
    with, word for word as rutsmieter/words.py feature_value_words, for every feature."""
    from tutto_sim.rutsmieter.policy import FEATURES
    from tutto_sim.rutsmieter.words import feature_value_words

    cases = [(f, v) for f in FEATURES for v in (0, 1, 2, 7, 1234)]
    got = _node(f"""
import {{ rutsmieterValueWords }} from {json.dumps(policy_module_path().as_uri())};
console.log(JSON.stringify({json.dumps(cases)}.map(([f, v]) => rutsmieterValueWords(f, v))));
""")
    assert got == [feature_value_words(f, v) for f, v in cases]
