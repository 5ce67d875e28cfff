"""The layout holds: one package per game on a shared core (docs/architecture.md).

Walks every import of the package (the source, not the running program):
``core`` imports no game and not ``dice``; ``dice`` imports ``core`` at most;
a game imports ``core``, ``dice`` and itself, never another game; ``web`` (the
advisor page and the JavaScript reader's exporter) imports ``core`` and itself
and reaches the games through the registry, and nothing below imports it; and no two
modules import each other at load time, directly or round a circle.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "tutto_sim"
SHARED = {"core", "dice"}
#: Packages above the games (they reach the games through the registry; no game or core imports them).
TOP = {"web"}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, top_level_only: bool, root: Path = ROOT) -> set[str]:
    """The tutto_sim modules ``path`` imports (``from a import b`` counts as a.b
    when a.b is a module, else as a). ``top_level_only``: only the imports
    that run when the module loads (not those inside functions)."""
    tree = ast.parse(path.read_text())
    me = module_name(path, root).split(".")
    is_pkg = path.name == "__init__.py"
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    if top_level_only:  # also imports inside top-level if/try blocks
        nodes = [n for top in tree.body for n in ast.walk(top)
                 if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "tutto_sim"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me if is_pkg else me[:-1]
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "tutto_sim":
                continue
            for a in node.names:
                sub = f"{mod}.{a.name}"
                as_path = root / sub.replace(".", "/")
                found.add(sub if as_path.with_suffix(".py").exists() or as_path.is_dir() else mod)
    return found


def sources(root: Path = ROOT):
    return sorted(p for p in (root / "tutto_sim").rglob("*.py") if "__pycache__" not in p.parts)


def home(module: str, root: Path = ROOT) -> str | None:
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (root / "tutto_sim" / parts[1]).is_dir()):
        return parts[1]
    return None


def games(root: Path = ROOT) -> set[str]:
    return {p.name for p in (root / "tutto_sim").iterdir()
            if p.is_dir() and p.name not in SHARED | TOP | {"__pycache__"}}


def violations(root: Path = ROOT) -> list[str]:
    """Imports against the layout: core -> anything else, dice -> a game, game -> game."""
    bad = []
    for path in sources(root):
        mine = home(module_name(path, root), root)
        if mine is None:  # cli.py, games.py: above the games
            continue
        allowed = {"core"} if mine == "core" else {"core", "dice"} if mine == "dice" \
            else {"core", mine} if mine in TOP else {"core", "dice", mine}
        for target in imports(path, False, root):
            theirs = home(target, root)
            if theirs is not None and theirs not in allowed:
                bad.append(f"{module_name(path, root)} imports {target}")
    return bad


def circles(root: Path = ROOT) -> list[list[str]]:
    """Groups of modules that import each other when they load (Tarjan's SCCs)."""
    graph = {module_name(p, root): imports(p, True, root) for p in sources(root)}
    graph = {m: {t for t in ts if t in graph and t != m} for m, ts in graph.items()}
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_there_are_games_and_a_core():
    assert {"tutto", "macke"} <= games()
    assert (PKG / "core" / "registry.py").exists() and (PKG / "dice").is_dir()


def test_packages_import_only_downwards():
    assert violations() == []


def test_no_import_circle():
    assert circles() == []


def test_the_checks_can_fail(tmp_path):
    """A fake tree with each fault: every one is reported."""
    def write(name, text):
        f = tmp_path / "tutto_sim" / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)

    for pkg in ("", "core/", "dice/", "tutto/", "macke/"):
        write(pkg + "__init__.py", "")
    write("core/x.py", "from tutto_sim.tutto.rules import R\n")
    write("dice/d.py", "from tutto_sim.macke import rules\n")
    write("tutto/rules.py", "R = 1\nfrom tutto_sim.macke.rules import M\n")
    write("macke/rules.py", "M = 1\nfrom tutto_sim.macke.a import f\n")
    write("macke/a.py", "from tutto_sim.macke.rules import M\ndef f():\n    from tutto_sim.tutto import rules\n")
    assert sorted(violations(tmp_path)) == [
        "tutto_sim.core.x imports tutto_sim.tutto.rules",
        "tutto_sim.dice.d imports tutto_sim.macke.rules",
        "tutto_sim.macke.a imports tutto_sim.tutto.rules",
        "tutto_sim.tutto.rules imports tutto_sim.macke.rules"]
    assert circles(tmp_path) == [["tutto_sim.macke.a", "tutto_sim.macke.rules"]]


def test_one_registry_line_per_game():
    from tutto_sim.core import registry

    names = [e.name for e in registry.entries()]
    assert names == ["tutto", "macke", "rutsmieter", "tutti"]
    text = (PKG / "games.py").read_text()
    assert all(text.count(f"register({n.upper()})") == 1 for n in names)
    assert registry.by_name("Volle-Lotte").name == "macke"
