"""The contract between core and a game (``core.contract.GameHooks``) is the
only place of hooks and their defaults: every hook core calls is declared
there, every game's hooks are a subclass of it, and core's commands hold no
default of a game."""

import ast
import inspect
import re
from pathlib import Path

import pytest

from tutto_sim.core import registry
from tutto_sim.core.contract import GameHooks, MissingHook

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "tutto_sim" / "core"
#: The modules that call hooks: core, and the root app that mounts each game's commands.
CALLERS = sorted(CORE.glob("*.py")) + [ROOT / "tutto_sim" / "cli.py"]
#: Names under which core holds a game's hooks object.
HOOKS_NAMES = {"hooks", "game_hooks"}
#: Calls that name a hook by a string: entry.hook("x"), hooks.require("x"), hooks.offers("x"),
#: and the help tails of each game's default bots (commands_games.bots_by_game("x")).
BY_NAME = {"hook", "require", "offers", "bots_by_game"}

REQUIRED = sorted(n for n in dir(GameHooks) if getattr(getattr(GameHooks, n), "required", False))
#: The required hooks each game leaves out (the command says so in one line).
LEFT_OUT = {
    "tutto": [],
    "macke": [],
    "rutsmieter": ["exact_turn_values", "export_policy", "solve_win", "threshold_words", "validate"],
    "tutti": ["advisor_table", "exact_turn_values", "export_policy", "optimize", "solve",
              "solve_win", "threshold_words", "validate", "web_cases"],
}


def _holds_hooks(node) -> bool:
    """Whether ``node`` is core's hooks object: ``x.hooks``, ``hooks``, ``_hooks(...)``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "hooks"
    if isinstance(node, ast.Name):
        return node.id in HOOKS_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "_hooks"
    return False


def hook_calls(path: Path) -> set[str]:
    """The hooks ``path`` uses: attributes of the hooks object and hooks named by string."""
    used = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and _holds_hooks(node.value):
            used.add(node.attr)
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in BY_NAME and isinstance(node.args[0].value, str):
                used.add(node.args[0].value)
    return used


def test_every_hook_core_calls_is_declared_on_the_contract():
    used = set().union(*map(hook_calls, CALLERS))
    assert len(used) >= 30, sorted(used)  # the walk finds them (about 35)
    assert sorted(n for n in used if not hasattr(GameHooks, n) and n != "entry") == []


def test_core_reaches_hooks_only_through_the_contract():
    """No module of hooks is read by name in core (``entry.module()``, ``getattr(module, ...)``)."""
    for path in CALLERS:
        text = path.read_text()
        assert ".module()" not in text, path.name


@pytest.mark.parametrize("entry", registry.entries(), ids=lambda e: e.name)
def test_each_game_hooks_is_a_contract_subclass(entry):
    hooks = entry.hooks
    module = __import__(entry.hooks_module, fromlist=["HOOKS"])
    assert hooks is module.HOOKS and type(hooks) is not GameHooks
    assert isinstance(hooks, GameHooks) and hooks.entry is entry
    # every required hook the game offers is its own; the ones it leaves out say so in one line
    offered = [n for n in REQUIRED if hooks.offers(n)]
    assert all(getattr(type(hooks), n) is not getattr(GameHooks, n) for n in offered)
    assert sorted(set(REQUIRED) - set(offered)) == LEFT_OUT[entry.name]
    assert set(hooks.MISSING) <= set(LEFT_OUT[entry.name])  # a reason only for a hook left out
    for name in LEFT_OUT[entry.name]:
        why = re.escape(f": {hooks.MISSING[name]}") if name in hooks.MISSING else r" \(yet\)"
        with pytest.raises(MissingHook, match=rf"^{entry.title} has no {name.replace('_', ' ')}{why}$"):
            hooks.require(name)
    # no hook left at module level, outside the class (core would never call it)
    stray = [n for n, v in vars(module).items()
             if inspect.isfunction(v) and v.__module__ == module.__name__ and hasattr(GameHooks, n)]
    assert stray == []
    # an override takes what core passes: the contract's parameters, by name
    for name, fn in vars(type(hooks)).items():
        base = getattr(GameHooks, name, None)
        if callable(base) and not name.startswith("_"):
            want = list(inspect.signature(base).parameters)[1:]
            got = list(inspect.signature(getattr(hooks, name)).parameters)
            assert got[:len(want)] == want or "kw" in want, (name, got, want)


#: Defaults of games that core once kept in its command code (strings and the table sizes).
GAME_DEFAULTS = ("optimal,cautious", "each counted as a bust", "turns per point",
                 "at each choice type its number; ? shows the optimal table's advice, q leaves")


@pytest.mark.parametrize("path", sorted(CORE.glob("commands*.py")) + [CORE / "cli.py", CORE / "play.py",
                                                                   CORE / "analysis.py"],
                         ids=lambda p: p.name)
def test_no_core_command_holds_a_games_default(path):
    text = path.read_text()
    assert "range(2, 9)" not in text
    for node in ast.walk(ast.parse(text)):
        assert not (isinstance(node, ast.Constant) and node.value in GAME_DEFAULTS), path.name
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)  # no fallback for a hook
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and hasattr(GameHooks, node.args[1].value)):
            assert ast.unparse(node.args[0]) in ("command", "rules"), (path.name, ast.unparse(node))
