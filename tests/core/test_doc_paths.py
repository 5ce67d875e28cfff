"""Docs and docstrings point at real things (issue 23): every module, function
or file path they write resolves in the source tree.

Where: ``README.md``, ``docs/*.md`` (the game pages among them), and the
docstrings (module, class, function, and the ``#:`` comments that document
an attribute) of every module of ``tutto_sim``.

What counts as a path (each found is checked, else reported as
"file:line: path (why)"):

1. ``tutto_sim.a.b...`` anywhere in the text, code or prose;
2. a code span (```x``` in Markdown, ````x```` or a role's ```~x``` in a
   docstring) that is a dotted name, optionally with ``()``, whose first part is
   a package or module of ``tutto_sim`` (``core``, ``dice``, a game, ``web``,
   ``cli``, ``games``): ``core.tournament.run``, ``tutto.bots``;
3. in a docstring of a module in ``tutto_sim/P/``, a code span ``m.name``
   whose first part ``m`` is a module of ``P`` and whose second part is a
   name (not a keyword or a number): ``hooks.default_win_file``,
   ``reference.play_hand`` (read as ``tutto_sim.P.m.name``); a second part
   that is a file suffix (``advisor.js``) makes it a file name, not a path;
4. a file path: ``a/b.py`` or ``tutto_sim/a/b.py`` with ``a`` a package of
   ``tutto_sim`` (``tutto/game.py``), and ``docs/``, ``scripts/``,
   ``tests/``, ``examples/``, ``tutto_sim/data/`` (and the former ``data/``) paths ending in ``.md``, ``.py``,
   ``.json``, ``.mjs`` or ``.js``; paths with a placeholder (``<``, ``*``,
   ``{``, an upper-case word as ``GAME``) are skipped;
5. a code span that is a dotted name whose first part is a module of the
   layout before the game packages (``FORMER``: ``kernels``, ``tutto_kernel``,
   ``macke_protocol``, ...) that is no module of any package today: always stale;
   so is such a name alone in a code span when it has an underscore or is
   ``kernels`` (``tutto_kernel``; not ``solve``, also a command).

A dotted path resolves when its longest prefix that is a module (a ``.py``
file or a package) is followed by a name that module defines at top level
(def, class, assignment, import) or, for ``rules.name`` of rule 3 only, a name
the body of one of its classes defines (``rules.players``: the field of the
rules class, as an instance has it); after a class, the next part must be
a name the class body defines; further parts (attributes of values) are not
checked.
"""

import ast
import functools
import re
from pathlib import Path

from test_layout import ROOT, module_name, sources

PKG_PARTS = {"core", "dice", "tutto", "macke", "rutsmieter", "tutti", "web", "cli", "games"}
DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?$")
ANYWHERE = re.compile(r"(?<![\w/.])tutto_sim(?:\.[A-Za-z_]\w*)+")
SPAN_MD = re.compile(r"``?([^`\n]+?)``?")
SPAN_RST = re.compile(r"(?::\w+:)?``?~?([^`\n]+?)``?")
FILE = re.compile(r"(?<![\w/.-])((?:tutto_sim/)?(?:core|dice|tutto|macke|rutsmieter|tutti|web)/[\w/.-]+\.py"
                  r"|(?:docs|scripts|tests|examples|tutto_sim/data|data)/[\w/.-]+\.(?:md|py|json|mjs|js))(?![\w/])")
SUFFIXES = {"py", "md", "js", "mjs", "css", "html", "json", "csv", "parquet", "txt"}
PLACEHOLDER = re.compile(r"[<*{]|(?:^|[/_.-])[A-Z]{2,}(?:[/_.-]|$)")


#: The modules of the layout before the game packages (git history up to 3d63987).
FORMER = ("cli_games cli_macke cli_report cli_support game.analysis game.api game.bots game.human game.macke "
          "game.macke_kernel game.tournament game.tutto game.tutto_kernel kernels.macke_table kernels.macke_turn "
          "kernels.rng kernels.tutto_table kernels.tutto_turn policy.exact policy.macke_exact policy.macke_protocol "
          "policy.macke_threshold policy.threshold reference.macke reference.macke_scoring reference.scoring "
          "reference.tutto report.common report.macke report.macke_data report.macke_figures report.tutto "
          "report.tutto_data report.tutto_figures rules.cards rules.macke rules.scoring rules.tutto sim.exact "
          "sim.macke sim.macke_exact sim.optimize sim.stats sim.turns sim.validate solve.advice solve.decisions "
          "solve.macke_decisions solve.macke_dp solve.tutto_dp tables.macke tables.throws").split()
#: The win modules of the dice games before their ``win/`` sub-packages (issue 36, up to a3b4dd6).
FORMER += ("tutto.winprob tutto.winprob_n tutto.win_kernel tutto.win_kernel_n tutto.win_bot_kernel "
           "tutto.win_seat tutto.win_reference tutto.report_win macke.winprob macke.winprob_n "
           "macke.win_kernel macke.report_win").split()


@functools.lru_cache(maxsize=None)
def former_heads(root: Path = ROOT) -> frozenset[str]:
    """Parts of the former modules that name no module of any package today."""
    now = {p.stem for p in (root / "tutto_sim").rglob("*.py")} | {p.name for p in (root / "tutto_sim").iterdir()}
    return frozenset({part for m in FORMER for part in m.split(".")} - now)


def texts(root: Path = ROOT):
    """(file, first line, text, package of the docstring's module or None) of every place to read."""
    for md in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        if md.exists():
            yield md, 1, md.read_text(), None
    for path in sources(root):
        tree = ast.parse(path.read_text())
        parts = module_name(path, root).split(".")
        # the package the module is in (``tutto``; ``tutto.win`` for a sub-package's module)
        inside = parts[1:] if path.name == "__init__.py" else parts[1:-1]
        package = ".".join(inside) or None
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    first = node.body[0].lineno
                    yield path, first, doc, package
        for i, line in enumerate(path.read_text().split("\n"), 1):
            if line.lstrip().startswith("#:"):
                yield path, i, line.lstrip()[2:], package


@functools.lru_cache(maxsize=None)
def defined(path: Path) -> dict[str, ast.AST | None]:
    """Top-level names of a module: name -> its ClassDef (or None)."""
    names = {}
    tree = ast.parse(path.read_text())
    for top in tree.body:
        for node in [top, *(n for n in ast.walk(top) if isinstance(top, (ast.If, ast.Try)))]:
            if isinstance(node, ast.ClassDef):
                names[node.name] = node
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names[node.name] = None
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            names[n.id] = None
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names[node.target.id] = None
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    names[(a.asname or a.name).split(".")[0]] = None
    return names


def class_names(node: ast.ClassDef) -> set[str]:
    found = set()
    for n in node.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(n.name)
        elif isinstance(n, ast.Assign):
            found |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            found.add(n.target.id)
    return found


def module_file(dotted: str, root: Path) -> Path | None:
    p = root / dotted.replace(".", "/")
    if p.with_suffix(".py").exists():
        return p.with_suffix(".py")
    if (p / "__init__.py").exists():
        return p / "__init__.py"
    return None


def unresolved(dotted: str, root: Path = ROOT, instance: bool = False) -> str | None:
    """Why ``dotted`` (``tutto_sim.a.b...``) does not resolve, or None;
    ``instance``: a name a class of the module defines will do (rule 3)."""
    parts = dotted.removesuffix("()").split(".")
    for cut in range(len(parts), 0, -1):
        f = module_file(".".join(parts[:cut]), root)
        if f is not None:
            break
    else:
        return "no such module"
    rest = parts[cut:]
    if not rest:
        return None
    names = defined(f)
    if rest[0] not in names and not (instance and len(rest) == 1 and any(
            isinstance(c, ast.ClassDef) and rest[0] in class_names(c) for c in names.values())):
        return f"{'.'.join(parts[:cut])} has no {rest[0]}"
    cls = names.get(rest[0])
    if len(rest) > 1 and isinstance(cls, ast.ClassDef) and rest[1] not in class_names(cls):
        return f"{'.'.join(parts[:cut + 1])} has no {rest[1]}"
    return None


def siblings(package: str, root: Path) -> set[str]:
    """The modules and sub-packages of ``package`` (dotted: ``tutto``, ``tutto.win``)."""
    here = root / "tutto_sim" / package.replace(".", "/")
    return ({p.stem for p in here.glob("*.py") if p.stem != "__init__"}
            | {p.name for p in here.iterdir() if (p / "__init__.py").exists()})


def paths_in(text: str, package: str | None, markdown: bool, root: Path = ROOT):
    """(offset, path as written, dotted or file path to check, relative) of each
    path in ``text``; ``relative``: rule 3."""
    for m in ANYWHERE.finditer(text):
        yield m.start(), m.group(0), m.group(0), False
    for m in (SPAN_MD if markdown else SPAN_RST).finditer(text):
        span = m.group(1).strip()
        if span in former_heads(root) and ("_" in span or span == "kernels"):
            yield m.start(), span, "", False
        if not DOTTED.match(span) or span.startswith("tutto_sim."):
            continue
        head, second = span.split(".")[:2]
        if head in PKG_PARTS:
            yield m.start(), span, f"tutto_sim.{span}", False
        elif head in former_heads(root):
            yield m.start(), span, "", False
        elif (package and head in siblings(package, root) and not second.removesuffix("()").isdigit()
              and second not in SUFFIXES):
            yield m.start(), span, f"tutto_sim.{package}.{span}", head == "rules"
    for m in FILE.finditer(text):
        if not PLACEHOLDER.search(m.group(1)):
            yield m.start(), m.group(1), m.group(1), False


def stale(root: Path = ROOT) -> list[str]:
    """Every path that does not resolve, as "file:line: path (why)"."""
    bad = []
    for f, first, text, package in texts(root):
        for offset, written, target, relative in paths_in(text, package, f.suffix == ".md", root):
            line = first + text.count("\n", 0, offset)
            if not target:
                why = "a module of the former layout"
            elif "/" in target:
                rel = target if target.split("/")[0] not in PKG_PARTS else f"tutto_sim/{target}"
                why = None if (root / rel).exists() else "no such file"
            else:
                why = unresolved(target, root, relative)
            if why:
                bad.append(f"{f.relative_to(root)}:{line}: {written} ({why})")
    return sorted(set(bad), key=lambda s: (s.split(":")[0], int(s.split(":")[1]), s))


def test_every_path_in_docs_and_docstrings_resolves():
    bad = stale()
    assert not bad, f"\n{len(bad)} paths that do not resolve:\n" + "\n".join(bad)


GAME_WORDS = re.compile(r"\b(?:Tutto|tutto|Macke|macke|Volle Lotte|volle-lotte|Rutsmieter|rutsmieter|Tutti|tutti)\b(?!-sim)")


def commands(root: Path = ROOT) -> set[tuple[Path, int]]:
    """(file, docstring line) of core's typer commands: their docstring is the
    command's ``--help``, whose words come from the games (issue 23, item 1)."""
    found = set()
    for path in sources(root):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and ast.get_docstring(node) and any(
                    "typer." in ast.unparse(a.annotation) for a in node.args.args if a.annotation):
                found.add((path, node.body[0].lineno))
    return found


def game_words_in_core(root: Path = ROOT) -> list[str]:
    """Game names in the docstrings of ``core`` (which knows no game), as
    "file:line: word"; not in a command's ``--help`` (:func:`commands`) nor in
    a doctest's example (``>>>`` lines and their output), which runs a real game."""
    bad, helps = [], commands(root)
    for f, first, text, package in texts(root):
        if package != "core" or (f, first) in helps:
            continue
        prose = re.sub(r"^\s*>>>.*(?:\n(?!\s*$).*)*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M)
        bad += [f"{f.relative_to(root)}:{first + prose.count(chr(10), 0, m.start())}: {m.group(0)}"
                for m in GAME_WORDS.finditer(prose)]
    return bad


def test_core_docstrings_name_no_game():
    """``core`` speaks of "a game" and points at the contract (``core.registry``), never at one game."""
    bad = game_words_in_core()
    assert not bad, "\n" + "\n".join(bad)
