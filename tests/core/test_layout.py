"""The layout holds: one package per game on a shared core (docs/architecture.md).

Walks every import of the package (the source, not the running program):
``core`` imports no game and not ``dice``; ``dice`` imports ``core`` at most;
a game imports ``core``, ``dice`` and itself, never another game; ``web`` (the
advisor page and the JavaScript reader's exporter) imports ``core`` and itself
and reaches the games through the registry, and nothing below imports it; and no two
modules import each other, directly or round a circle: neither at load time nor
through the imports inside functions. The one exception: a game's adapter
(``entry.py`` and ``hooks.py``, which the registry finds by name) imports the
rest of its game inside its functions, and so nothing else in the game may
import the adapter.
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


def import_edges(path: Path, root: Path = ROOT) -> list[tuple[str, int, bool]]:
    """The tutto_sim modules ``path`` imports, as (module, line, lazy): ``from
    a import b`` counts as a.b when a.b is a module, else as a; ``lazy``: the
    import is inside a function or class (it runs when that is called), not
    one that runs when the module loads (top-level, if/try blocks included)."""
    tree = ast.parse(path.read_text())
    me = module_name(path, root).split(".")
    is_pkg = path.name == "__init__.py"
    eager = {id(n) for top in tree.body
             if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
             for n in ast.walk(top)}
    found = []
    for node in ast.walk(tree):
        lazy = id(node) not in eager
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno, lazy) for a in node.names
                      if a.name.split(".")[0] == "tutto_sim"]
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
                target = sub if as_path.with_suffix(".py").exists() or as_path.is_dir() else mod
                found.append((target, node.lineno, lazy))
    return sorted(set(found), key=lambda e: (e[1], e[0]))


def imports(path: Path, top_level_only: bool, root: Path = ROOT) -> set[str]:
    """The tutto_sim modules ``path`` imports (``import_edges``); ``top_level_only``:
    only the imports that run when the module loads (not those inside functions)."""
    return {t for t, _, lazy in import_edges(path, root) if not (lazy and top_level_only)}


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


def is_adapter(module: str, root: Path = ROOT) -> bool:
    """A game's ``entry`` or ``hooks`` module (the registry finds it by name)."""
    parts = module.split(".")
    return len(parts) == 3 and parts[1] in games(root) and parts[2] in ("entry", "hooks")


def import_graph(root: Path = ROOT, lazy: bool = False) -> dict[str, dict[str, list[str]]]:
    """module -> imported module -> where ("tutto_sim/x/y.py:LINE"), between
    modules of the package. ``lazy``: also the imports inside functions, except
    those of a game's adapter (``is_adapter``)."""
    paths = {module_name(p, root): p for p in sources(root)}
    graph = {}
    for m, p in paths.items():
        edges = graph.setdefault(m, {})
        for t, line, is_lazy in import_edges(p, root):
            if t in paths and t != m and (not is_lazy or (lazy and not is_adapter(m, root))):
                edges.setdefault(t, []).append(f"{p.relative_to(root)}:{line}")
    return graph


def circles(root: Path = ROOT, lazy: bool = False) -> list[list[str]]:
    """Groups of modules that import each other (Tarjan's SCCs of ``import_graph``):
    at load time, or with ``lazy`` also through the imports inside functions."""
    graph = import_graph(root, lazy)
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


def circle_lines(root: Path = ROOT, lazy: bool = False) -> list[str]:
    """Each import inside a circle, as "file:line: module imports module" (what to cut)."""
    graph = import_graph(root, lazy)
    lines = []
    for group in circles(root, lazy):
        lines.append(f"circle of {len(group)}: {', '.join(group)}")
        edges = [(where, m, t) for m in group for t in set(graph[m]) & set(group) for where in graph[m][t]]
        edges.sort(key=lambda e: (e[0].split(":")[0], int(e[0].split(":")[1])))
        lines += [f"  {where}: {m} imports {t}" for where, m, t in edges]
    return lines


def adapter_imports(root: Path = ROOT) -> list[str]:
    """Imports of a game's adapter (``entry``/``hooks``) from the rest of its game,
    as "file:line: module imports adapter"."""
    bad = []
    for path in sources(root):
        me = module_name(path, root)
        if is_adapter(me, root):
            continue
        bad += [f"{path.relative_to(root)}:{line}: {me} imports {t}" for t, line, _ in import_edges(path, root)
                if is_adapter(t, root) and home(t, root) == home(me, root)]
    return bad


def test_there_are_games_and_a_core():
    assert {"tutto", "macke"} <= games()
    assert (PKG / "core" / "registry.py").exists() and (PKG / "dice").is_dir()


def test_packages_import_only_downwards():
    assert violations() == []


def test_no_import_circle():
    bad = circle_lines()
    assert not bad, "\n" + "\n".join(bad)


def test_no_import_circle_through_imports_inside_functions():
    """Imports inside functions close no circle either (only the adapter's don't count)."""
    bad = circle_lines(lazy=True)
    assert not bad, "\n" + "\n".join(bad)


def test_nothing_in_a_game_imports_its_adapter():
    """entry/hooks are the outermost layer: the game's own modules never use them as a library."""
    bad = adapter_imports()
    assert not bad, "\n" + "\n".join(bad)


def fake_tree(root: Path, packages, files: dict[str, str]) -> None:
    """A fake ``tutto_sim`` under ``root``: the packages (``""`` the top) and the files."""
    for name, text in {**{pkg + "__init__.py": "" for pkg in packages}, **files}.items():
        f = root / "tutto_sim" / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)


def test_the_checks_can_fail(tmp_path):
    """A fake tree with each fault: every one is reported."""
    def write(name, text):
        fake_tree(tmp_path, (), {name: text})

    fake_tree(tmp_path, ("", "core/", "dice/", "tutto/", "macke/"), {})
    write("core/x.py", "from tutto_sim.tutto.rules import R\n")
    write("dice/d.py", "from tutto_sim.macke import rules\n")
    write("tutto/rules.py", "R = 1\nfrom tutto_sim.macke.rules import M\n")
    write("macke/rules.py", "M = 1\nfrom tutto_sim.macke.a import f\n")
    write("macke/a.py", "from tutto_sim.macke.rules import M\ndef f():\n    from tutto_sim.tutto import rules\n")
    write("macke/b.py", "def f():\n    from tutto_sim.macke import c\n")
    write("macke/c.py", "from tutto_sim.macke.b import f\n")
    write("macke/hooks.py", "from tutto_sim.macke import entry\ndef f():\n    from tutto_sim.macke import d\n")
    write("macke/entry.py", "")
    write("macke/d.py", "def f():\n    from tutto_sim.macke.hooks import f\n")
    assert sorted(violations(tmp_path)) == [
        "tutto_sim.core.x imports tutto_sim.tutto.rules",
        "tutto_sim.dice.d imports tutto_sim.macke.rules",
        "tutto_sim.macke.a imports tutto_sim.tutto.rules",
        "tutto_sim.tutto.rules imports tutto_sim.macke.rules"]
    assert circles(tmp_path) == [["tutto_sim.macke.a", "tutto_sim.macke.rules"]]
    assert circles(tmp_path, lazy=True) == [
        ["tutto_sim.macke.a", "tutto_sim.macke.rules", "tutto_sim.tutto.rules"],
        ["tutto_sim.macke.b", "tutto_sim.macke.c"]]
    assert circle_lines(tmp_path, lazy=True)[-3:] == [
        "circle of 2: tutto_sim.macke.b, tutto_sim.macke.c",
        "  tutto_sim/macke/b.py:2: tutto_sim.macke.b imports tutto_sim.macke.c",
        "  tutto_sim/macke/c.py:1: tutto_sim.macke.c imports tutto_sim.macke.b"]
    assert adapter_imports(tmp_path) == ["tutto_sim/macke/d.py:2: tutto_sim.macke.d imports tutto_sim.macke.hooks"]


def test_one_registry_line_per_game():
    from tutto_sim.core import registry

    names = [e.name for e in registry.entries()]
    assert names == ["tutto", "macke", "rutsmieter", "tutti"]
    text = (PKG / "games.py").read_text()
    assert all(text.count(f"register({n.upper()})") == 1 for n in names)
    assert registry.by_name("Volle-Lotte").name == "macke"
