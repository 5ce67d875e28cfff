"""Bot specs on the command line, for every game: ``--bots a,b,c``.

Game-independent. Each game parses its own specs (``GameEntry`` hook
``parse_bot``); here live what all games share: the error type
(:class:`BotSpecError`, one line naming the valid bots; :func:`file_error`
when a policy file is unusable), ``random``, Python
bots from a module or file (``py:MODULE:NAME``), points arguments, and
:func:`parse_bots`, which gives repeated specs distinct names.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import sys
from pathlib import Path

from tutto_sim.core import registry

#: What the package ships besides code, read at run time (``tutto_sim/data``, in the wheel too):
#: ``policies`` (the tables ``optimal`` bots and the advisor load), ``measured`` (saved
#: measurements, ``core.measured``), ``ladders`` (saved ladders the reports read).
DATA_DIR = Path(__file__).resolve().parents[1] / "data"
#: The shipped policy tables (``optimal`` bots load them).
POLICY_DIR = DATA_DIR / "policies"
#: Thresholds above this are "never" in effect (no turn reaches them); larger ones are typos.
MAX_THRESHOLD = 1_000_000
#: Points are multiples of this in the dice games.
POINT_STEP = 50


#: Games a tournament plays without ``--games`` when no search bot is at the table.
DEFAULT_GAMES = 100_000
#: Without ``--games``, a bot that plays only in Python (the reference engine:
#: ``py:`` bots) and names no games of its own caps a tournament at this many
#: (a Python bot plays some tens to hundreds of games per second).
PYTHON_BOT_GAMES = 2_000


class BotSpecError(ValueError):
    """A bot spec that cannot be used; the message is one line and names the valid bots."""


def file_error(spec: str, e: Exception) -> BotSpecError:
    """A bot whose policy file cannot be used (``e``, a ``PolicyFileError``):
    one line saying what is wrong with the file. The spec was valid, so the
    valid bots are not listed."""
    return BotSpecError(f"bot {spec!r}: {e}")


class RandomBot:
    """A uniformly random legal action at every decision (its seat's own generator)."""

    def __init__(self, name: str = "random"):
        self.name = name

    def act(self, d):
        return d.legal[d.rng.randrange(len(d.legal))]


def table_bot(spec: str, valid: str, optimal, load, make):
    """The bots every dice game with policy tables has, and the spec split:
    ``(bot or None, text, kind, arg)`` (``text`` the stripped spec, ``kind``
    its lower-case part before the first ``:``, ``arg`` the rest). The bots:
    ``optimal``, ``endgame[:FILE]`` and ``table:FILE`` (``optimal()`` gives the
    optimal table, ``load(path)`` reads a file, ``make(policy, text,
    endgame=...)`` builds the bot), ``random`` and ``py:MODULE:NAME``; a
    damaged file is a :class:`BotSpecError`."""
    from tutto_sim.core.policyfile import PolicyFileError

    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    try:
        if kind == "optimal" and not arg:
            return make(optimal(), text, endgame=False), text, kind, arg
        if kind == "endgame":
            return make(load(arg) if arg else optimal(), text, endgame=True), text, kind, arg
        if kind == "table":
            if not arg:
                raise BotSpecError(f"bot {spec!r}: table needs a policy file, table:FILE; {valid}")
            return make(load(arg), text, endgame=False), text, kind, arg
    except PolicyFileError as e:
        raise file_error(spec, e) from None
    if kind == "random" and not arg:
        return RandomBot(text), text, kind, arg
    if kind == "py":
        return python_bot(text, arg, valid), text, kind, arg
    return None, text, kind, arg


def parse_points(spec: str, what: str, text: str, valid: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0 or v % POINT_STEP or v > MAX_THRESHOLD:
        raise BotSpecError(f"bot {spec!r}: {what} must be a multiple of 50 from 0 to "
                           f"{MAX_THRESHOLD:,}, not {text!r}; {valid}")
    return v


def threshold_parts(spec: str, arg: str, most: str, valid: str) -> list[str]:
    """The ``:``-separated parts of a ``threshold:...`` spec, at most as many
    as ``most`` names (``K:CLEAR``)."""
    parts = arg.split(":") if arg else []
    if len(parts) > most.count(":") + 1:
        raise BotSpecError(f"bot {spec!r}: threshold takes at most {most}; {valid}")
    return parts


def _load_quietly(spec: str, attr: str, load, valid: str):
    """``load()`` with the module's command line kept out: ``sys.argv`` holds
    only the module's name, and what it prints is held back until it succeeds.
    A module or function that exits (argparse's ``usage:`` and ``error:``, a
    ``sys.exit``) is not a bot: one line says so instead of its usage text."""
    saved_argv, out, err = sys.argv, io.StringIO(), io.StringIO()
    sys.argv = [spec]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return load()
    except SystemExit as e:
        out, err = io.StringIO(), io.StringIO()  # its usage text is not shown
        raise BotSpecError(f"bot {spec!r}: {attr} is not a bot: running it started its command line "
                           f"(it exited with code {e.code}); a bot is a function or class whose call "
                           f"takes no arguments and returns an object with act(decision); "
                           f"{valid}") from None
    finally:
        sys.argv = saved_argv
        sys.stdout.write(out.getvalue())
        sys.stderr.write(err.getvalue())


def python_bot(spec: str, target: str, valid: str):
    module_name, _, attr = target.rpartition(":")
    if not module_name or not attr:
        raise BotSpecError(f"bot {spec!r}: write py:MODULE:NAME or py:FILE.py:NAME; {valid}")

    def load():
        if module_name.endswith(".py"):
            loc = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
            if loc is None or not Path(module_name).exists():
                raise ImportError(f"no file {module_name}")
            module = importlib.util.module_from_spec(loc)
            loc.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
        return getattr(module, attr)()

    try:
        bot = _load_quietly(spec, attr, load, valid)
    except BotSpecError:
        raise
    except Exception as e:
        raise BotSpecError(f"bot {spec!r}: cannot load {attr} from {module_name}: "
                           f"{type(e).__name__}: {e}; {valid}") from None
    if not callable(getattr(bot, "act", None)):
        raise BotSpecError(f"bot {spec!r}: {attr}() has no act(decision) method; {valid}")
    if not getattr(bot, "name", None):
        bot.name = spec
    return bot


def bot_ids(bots, names, game: str):
    """Bot names (of ``names``) or ids as an int64 lineup row of a kernel."""
    import numpy as np

    ids = []
    for b in bots:
        if isinstance(b, str):
            if b not in names:
                raise ValueError(f"unknown {game} bot {b!r}; valid: {', '.join(names)}")
            b = names.index(b)
        ids.append(int(b))
    return np.array(ids, dtype=np.int64)


def lineup_rows(bots, n: int, names, game: str):
    """One lineup (names or ids) or a 2-D array of them, as int64 rows of ``n`` bots."""
    import numpy as np

    arr = np.asarray(bots)
    rows = (bot_ids(bots, names, game)[None, :] if arr.ndim == 1 else
            np.array([bot_ids(row, names, game) for row in arr], dtype=np.int64))
    if rows.shape[1] != n:
        raise ValueError(f"{n} players need {n} bots per lineup, not {rows.shape[1]}")
    return rows


def valid_bots(rules) -> str:
    """The one-line list of valid bot specs for the game of ``rules``."""
    return registry.for_rules(rules).hooks.valid_bots(rules)


def parse_bot(spec: str, rules):
    """A bot of the game of ``rules`` from its spec; :class:`BotSpecError` if unusable."""
    return registry.for_rules(rules).hooks.parse_bot(spec, rules)


def parse_bots(specs: str | list[str], rules) -> list:
    """Bots from a comma-separated list; repeated specs get distinct names (``#2``)."""
    items = [s for s in (specs.split(",") if isinstance(specs, str) else specs)]
    if not items or any(not s.strip() for s in items):
        raise BotSpecError(f"--bots needs a comma-separated list of bots, not {specs!r}; "
                           f"{valid_bots(rules)}")
    bots, seen = [], {}
    for s in items:
        bot = parse_bot(s, rules)
        seen[bot.name] = seen.get(bot.name, 0) + 1
        if seen[bot.name] > 1:
            bot.name = f"{bot.name}#{seen[bot.name]}"
        bots.append(bot)
    return bots


#: Longest time budget per decision (``SPEC@Nms``), in milliseconds.
MAX_BUDGET_MS = 60_000


def split_time_budget(spec: str, valid: str) -> tuple[str, float | None]:
    """A search bot's spec and its time budget per decision: ``"pimc@50ms"``
    gives ``("pimc", 50.0)``; a spec without ``@`` gives ``(spec, None)``.
    The budget is a whole number of milliseconds ``1..MAX_BUDGET_MS`` written
    ``Nms`` (or ``Ns`` for seconds); anything else is a one-line
    :class:`BotSpecError` naming the valid bots. A timed bot decides by the
    clock, so a run with one is not reproducible (``is_timed``).

    >>> split_time_budget("PIMC@50ms", ""), split_time_budget("pimc:100", "")
    (('PIMC', 50.0), ('pimc:100', None))
    >>> split_time_budget("expert@2s", "")
    ('expert', 2000.0)
    >>> split_time_budget("pimc@fast", "valid bots: pimc")
    Traceback (most recent call last):
    ...
    tutto_sim.core.bots.BotSpecError: bot 'pimc@fast': a time budget per decision is written as pimc@50ms (1..60,000 ms) or pimc@2s; valid bots: pimc
    """
    import re

    text = spec.strip()
    base, sep, budget = text.rpartition("@")
    if not sep:
        return text, None
    m = re.fullmatch(r"\s*([0-9]{1,6})\s*(ms|s)\s*", budget.lower())
    ms = None if m is None else int(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    if not base.strip() or ms is None or not 1 <= ms <= MAX_BUDGET_MS:
        kind = base.strip().partition(":")[0] or "pimc"
        raise BotSpecError(f"bot {text!r}: a time budget per decision is written as "
                           f"{kind}@50ms (1..{MAX_BUDGET_MS:,} ms) or {kind}@2s; {valid}")
    return base.strip(), float(ms)


def is_timed(bots) -> bool:
    """Whether any of ``bots`` decides by the clock (a time budget: attribute
    ``budget_ms`` set), so that a run with them is not reproducible."""
    return any(getattr(b, "budget_ms", None) for b in bots)


def kernel_capable(bots) -> bool:
    return all(callable(getattr(b, "table", None)) for b in bots)


def budget_games(games: int, default_budget: int, budget: int) -> int:
    """A search bot's ``tournament_games`` at ``budget``: ``games`` (about two
    minutes on one core at ``default_budget``) scaled by the budget, a
    multiple of 10, at least 10."""
    return max(10, round(games * default_budget / budget / 10) * 10)


def default_games(bots) -> tuple[int, bool]:
    """The games of a tournament without ``--games``: (games, chosen for search
    bots). Search bots name the games they play in about two minutes on one
    core (an attribute ``tournament_games``, which a game's search bots set); a bot that plays only
    in Python and names none counts :data:`PYTHON_BOT_GAMES`. The fewest of
    them, else :data:`DEFAULT_GAMES`.

    >>> class Slow:
    ...     tournament_games = 120
    ...     def table(self): ...
    >>> class Table:
    ...     def table(self): ...
    >>> default_games([Slow(), Table()]), default_games([Table()]), default_games([object()])
    ((120, True), (100000, False), (2000, True))
    """
    caps = [getattr(b, "tournament_games", None)
            or (None if callable(getattr(b, "table", None)) else PYTHON_BOT_GAMES) for b in bots]
    caps = [c for c in caps if c]
    return (min(caps), True) if caps else (DEFAULT_GAMES, False)


def prepare_bots(bots, phase) -> None:
    """Bots that build something long before they play in the kernel (an
    optional method ``prepare(phase)``, as a bot that plays from a win table
    built for every turn start) build it now, each as a phase of the command's
    progress: ``phase(label, total)`` gives the callback to advance. Their
    ``table()`` then finds it built."""
    for b in bots:
        prepare = getattr(b, "prepare", None)
        if callable(prepare):
            prepare(phase)
