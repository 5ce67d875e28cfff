"""What one module of tutto_sim uses of another is public: no name that starts
with an underscore crosses a module boundary (issue 23).

Walks the source of every module of the package (not tests/: a test may use
the privates of what it tests) and reports, as "file:line: module uses
other._name":

- ``from tutto_sim.x import _name`` (relative imports too), ``_name`` defined
  in another module;
- ``other._name`` where ``other`` is bound to another module of the package
  (``import tutto_sim.x as other``, ``from tutto_sim import x as other``,
  ``from . import x``), and ``tutto_sim.x._name`` spelled out.

Dunder names (``__version__``, ``__file__``) are public.
"""

import ast
from pathlib import Path

from test_layout import ROOT, fake_tree, module_name, sources


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def resolve(path: Path, node: ast.ImportFrom, root: Path) -> str:
    """The absolute module of ``from ... import`` in ``path``."""
    if not node.level:
        return node.module or ""
    me = module_name(path, root).split(".")
    base = me if path.name == "__init__.py" else me[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def is_module(dotted: str, root: Path) -> bool:
    p = root / dotted.replace(".", "/")
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def crossings(root: Path = ROOT) -> list[str]:
    """Every use of another module's underscore name, as "file:line: ..."."""
    bad = []
    for path in sources(root):
        me = module_name(path, root)
        where = path.relative_to(root)
        tree = ast.parse(path.read_text())
        modules = {}  # local name -> module of the package it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "tutto_sim":
                        modules[a.asname or a.name.split(".")[0]] = (a.asname and a.name) or "tutto_sim"
            elif isinstance(node, ast.ImportFrom):
                mod = resolve(path, node, root)
                if mod.split(".")[0] != "tutto_sim":
                    continue
                for a in node.names:
                    if is_module(f"{mod}.{a.name}", root):
                        modules[a.asname or a.name] = f"{mod}.{a.name}"
                    elif private(a.name) and mod != me:
                        bad.append(f"{where}:{node.lineno}: {me} imports {mod}.{a.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and private(node.attr):
                chain = dotted(node.value)
                if chain is None:
                    continue
                head, *rest = chain.split(".")
                if head not in modules:
                    continue
                target = ".".join([modules[head], *rest])
                if is_module(target, root) and target != me:
                    bad.append(f"{where}:{node.lineno}: {me} uses {target}.{node.attr}")
    return sorted(set(bad), key=lambda s: (s.split(":")[0], int(s.split(":")[1]), s))


def test_no_underscore_name_crosses_a_module():
    bad = crossings()
    assert not bad, "\n" + "\n".join(bad)


def test_the_check_can_fail(tmp_path):
    fake_tree(tmp_path, ("", "core/", "tutto/"), {
        "core/a.py": "_x = 1\n__version__ = 2\ndef _f(): return _x\n",
        "tutto/b.py": "from tutto_sim.core.a import _x, __version__\nfrom ..core import a\n"
                      "import tutto_sim.core.a as aa\nimport tutto_sim.core.a\n"
                      "y = a._f() + aa._x + tutto_sim.core.a._x + a.__version__\n",
        "tutto/c.py": "from .b import y\nfrom . import b\nz = b.y\n"})
    assert crossings(tmp_path) == [
        "tutto_sim/tutto/b.py:1: tutto_sim.tutto.b imports tutto_sim.core.a._x",
        "tutto_sim/tutto/b.py:5: tutto_sim.tutto.b uses tutto_sim.core.a._f",
        "tutto_sim/tutto/b.py:5: tutto_sim.tutto.b uses tutto_sim.core.a._x"]
