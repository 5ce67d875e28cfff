"""The README's two commands are the ones CI runs, and the docs cover every rule option."""

import re
from dataclasses import fields
from pathlib import Path

from tutto_sim.tutto.rules import TuttoRules

ROOT = Path(__file__).resolve().parents[2]


def _bash_blocks(text):
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    blocks = _bash_blocks(readme)
    install_run, install_test = blocks[0].strip(), blocks[1].strip()
    assert "tutto-sim optimize --card bonus400" in install_run
    test_cmd = install_test.split("activate && ", 1)[1]
    assert "pytest" in test_cmd
    assert test_cmd in (ROOT / ".ci" / "run").read_text()


def test_every_rule_option_is_documented():
    doc = (ROOT / "docs" / "rules.md").read_text()
    for f in fields(TuttoRules):
        if f.init:
            assert f.name in doc, f.name
            assert "--" + f.name.replace("_", "-") in doc, f.name


def _repository_files():
    """Every file of the repository (git's list when there is one, else a walk)."""
    import subprocess

    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.split("\n")
        return [ROOT / n for n in names if n and (ROOT / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", ".venv-ci", "results", "__pycache__"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.parts)]


def test_the_project_stands_on_its_own_rules_docs():
    """docs/rules.md and docs/macke.md are the rules; no file (code, docs, policy
    tables, the text inside report PNGs and PDFs) points to an outside document."""
    outside = ("RULES" + ".md").encode()
    files = _repository_files()
    assert len(files) > 50
    citing = [str(p.relative_to(ROOT)) for p in files if outside in p.read_bytes()]
    assert citing == []


def test_every_macke_rule_option_is_documented():
    from tutto_sim.macke.rules import MackeRules

    doc = (ROOT / "docs" / "macke.md").read_text()
    for f in fields(MackeRules):
        if f.init:
            assert "--" + f.name.replace("_", "-") in doc, f.name
    for words in ("nachwerfen", "return", "instant-win", "jackpot", "ones-and-fives", "volle-lotte"):
        assert words in doc, words


def test_every_import_in_the_docs_python_examples_works():
    """The module paths the README and docs show exist (they move with the layout)."""
    import importlib

    checked = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in re.findall(r"```python\n(.*?)```", doc.read_text(), re.S):
            for line in block.splitlines():
                m = re.match(r"from (tutto_sim[\w.]*) import \(?([\w, ]+)\)?$", line.strip())
                if m:
                    module = importlib.import_module(m.group(1))
                    for name in (n.strip() for n in m.group(2).split(",") if n.strip()):
                        assert hasattr(module, name), f"{doc.name}: {m.group(1)}.{name}"
                        checked += 1
    assert checked >= 20


#: A path the README or a doc names: tests/…, scripts/…, docs/…, examples/… (a glob like
#: scripts/bench_*.py too), not inside another path or a URL.
DOC_PATH = re.compile(r"(?<![\w/.-])((?:tests|scripts|docs|examples)/[\w./*-]+)")


def test_every_path_the_docs_name_exists():
    """A path in README.md or docs/*.md is a file or folder of the repository
    (a glob: at least one); a moved test file is renamed in the docs too."""
    named = {}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for m in DOC_PATH.finditer(doc.read_text()):
            path = m.group(1).rstrip(".,:;")
            named.setdefault(path, doc.name)
    assert len(named) >= 40 and "tests/core/test_fuzz_cli.py" in named
    missing = sorted(f"{doc}: {p}" for p, doc in named.items()
                     if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p).exists()))
    assert missing == []


def test_the_path_check_finds_a_missing_path(tmp_path):
    text = "see `tests/test_fuzz_cli.py`, scripts/bench_*.py and http://x.org/docs/a.md."
    found = [m.group(1).rstrip(".,:;") for m in DOC_PATH.finditer(text)]
    assert found == ["tests/test_fuzz_cli.py", "scripts/bench_*.py"]
    assert not (ROOT / found[0]).exists() and any(ROOT.glob(found[1]))


def test_no_doc_quotes_a_count_of_tests():
    """A number of tests typed by hand goes stale with the next test (the README once said 1,925
    when 2,125 ran): the README and docs say "the tests", never how many."""
    count = re.compile(r"\b\d[\d,]*\s+(?:tests|passed)\b")
    found = [f"{doc.name}: {m.group(0)}" for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
             for m in count.finditer(doc.read_text())]
    assert found == []
    assert count.search("then 1,925 tests in 6 min 59 s") and count.search("2125 passed")
