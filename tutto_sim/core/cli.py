"""What every command shares: one-line user errors, checked counts, and
output places that never lose a finished result.

Game-independent (no rules, no engines): the ``tutto-sim`` commands of every
game use it.

Output places
-------------
Commands write what they produce (CSV files, policy tables, reports) under
``results/`` in the current directory unless ``--out-dir`` / ``--out`` says
otherwise; ``tutto_sim/data/`` holds only what ships with the package (policy tables,
saved measurements and ladders).
The place is checked **before** any computing starts (:func:`prepare_dir`,
:func:`prepare_file`; an empty ``--out`` / ``--out-dir`` is refused,
:func:`refuse_empty_places`), so a typing error costs nothing. Every result
is written by :func:`save`: a file to a temporary name beside its target,
renamed when complete (:func:`atomic_write`), a folder (a report, the
advisor) built aside and its files moved in, so a reader never sees half a
result. If the write fails all the same (the disk filled up during a long
run), the result goes to the system's temporary directory instead and the
command says where: a finished result is never lost. A file of the same
name is replaced, and the command's line says so (:class:`Saved`: ``replaced
FILE``, ``CSV: FILE (replaced the earlier file)``).

Default names carry the run digest of ``core.runs`` (every setting that
changes the figures), so two different runs never share a file and the same
run repeated replaces its own; files get mode 0666 less the umask (0644
under 022). Interrupted runs (Ctrl-C) write what finished to
``NAME-interrupted.csv`` with a column ``interrupted`` = ``True``, so they
never overwrite a complete result of the same run.
"""

from __future__ import annotations

import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Callable, Iterable, Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from tutto_sim.core import registry
from tutto_sim.core.runs import RESULTS_DIR, file_mode  # noqa: F401 (RESULTS_DIR: the commands' default folder)


#: Ceilings on run sizes: far beyond what finishes in a day on a workstation
#: (10^12 turns are about 15 hours at 19 million turns/s, 10^10 games about
#: 10 hours at 280,000 games/s), so a larger number is a typing error.
MAX_TURNS = 10**12
MAX_GAMES = 10**10


class UserError(Exception):
    """Bad input: reported in one line, exit code 2."""


class UserInterrupt(Exception):
    """Ctrl-C, with one line on what happened to the output; exit code 130."""


def choice(flag: str, value: str, choices: Iterable[str]) -> str:
    """``value`` if it is one of ``choices``, else a one-line :class:`UserError`."""
    choices = tuple(choices)
    if value not in choices:
        raise UserError(f"{flag} must be one of {', '.join(choices)}, not {value!r}")
    return value


def count(flag: str, value: int, ceiling: int = MAX_TURNS, allow_zero: bool = False) -> int:
    """A number of turns or games: positive (or >= 0) and at most ``ceiling``."""
    if value < 0 or (value == 0 and not allow_zero):
        raise UserError(f"{flag} must be {'>= 0' if allow_zero else 'a positive number'}, not {value}")
    if value > ceiling:
        raise UserError(f"{flag} must be at most {ceiling:,} (a run that large would never finish), "
                        f"not {value:,}")
    return value


def on_off(flag: str, value) -> bool:
    """An on/off rule flag's value (``on``/``off``, any case); else one line
    naming the flag ``--FLAG`` (:class:`UserError`)."""
    text = str(value).strip().lower()
    if text not in ("on", "off"):
        raise UserError(f"--{flag.replace('_', '-')} must be on or off, not {value!r}")
    return text == "on"


def seed(value: int) -> int:
    if not 0 <= value < 2**63:
        raise UserError(f"--seed must be 0 .. 2**63-1, not {value}")
    return value


def _why(e: OSError) -> str:
    return e.strerror or str(e) or type(e).__name__


def prepare_dir(path: Path, flag: str, shown: Path | None = None) -> Path:
    """Create ``path`` if needed and prove it writable, before any computing."""
    path = Path(path)
    shown = path if shown is None else shown
    for p in (path, *path.parents):
        if p.exists() and not p.is_dir():
            where = "is a file" if p == shown else f"{p} is a file"
            raise UserError(f"{flag} {shown}: cannot write there ({where}, not a folder)")
        if p.exists():
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".tutto-sim-check-"):
            pass
    except OSError as e:
        raise UserError(f"{flag} {shown}: cannot write there ({_why(e)})") from None
    return path


def prepare_file(path: Path, flag: str) -> Path:
    """Check that the file ``path`` can be written (its folder is created)."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{flag} {path}: is a folder; give a file name")
    if path.name in ("", ".", ".."):
        raise UserError(f"{flag} {path}: give a file name")
    prepare_dir(path.parent, flag, shown=path)
    return path


def atomic_write(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` for a temporary file beside ``path``, then rename it.

    Readers see the old file or the complete new one, never half of it; on
    any failure the temporary file is removed and the error raised. The file
    gets the usual mode (:func:`core.runs.file_mode`), not mkstemp's 0600.
    """
    path = Path(path)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def interrupted_name(path: Path) -> Path:
    """``x.csv`` -> ``x-interrupted.csv``: where an interrupted run's part goes."""
    return path.with_name(f"{path.stem}-interrupted{path.suffix}")


class Saved(type(Path())):
    """Where :func:`save` put a result: a path, and what happened there.

    ``replaced``: an earlier file of that name (in a folder: of one of its
    names) was replaced; ``rescued``: the place failed and the result is in the
    system's temporary folder. The words for players come from here, the same
    for every command: ``verb`` (``wrote`` / ``replaced``) where a line starts
    with it, ``shown`` (the path, then `` (replaced the earlier file)``) where a
    line names the file after a label (``CSV: …``).
    """

    replaced = False
    rescued = False

    @classmethod
    def of(cls, path: Path, replaced: bool = False, rescued: bool = False) -> "Saved":
        saved = cls(path)
        saved.replaced, saved.rescued = replaced, rescued
        return saved

    @property
    def verb(self) -> str:
        return "replaced" if self.replaced else "wrote"

    @property
    def shown(self) -> str:
        return f"{self}{' (replaced the earlier file)' if self.replaced else ''}"


def _say(message: str) -> None:
    err.print(message, markup=False, highlight=False, soft_wrap=True)


def _into_folder(staging: Path, target: Path) -> bool:
    """Move every finished file of ``staging`` (sub-folders too; not the hidden
    ``.NAME`` ones) to the same place under ``target``; whether one replaced a file."""
    replaced = False
    for f in sorted(staging.rglob("*")):
        rel = f.relative_to(staging)
        if f.is_file() and not any(part.startswith(".") for part in rel.parts):
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            replaced |= dest.exists()
            os.replace(f, dest)
    return replaced


def _folder_write(target: Path, write: Callable[[Path], None]) -> bool:
    """``write(staging)`` in a hidden folder inside ``target``, then its files moved in."""
    import shutil

    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target, prefix=".partial-"))
    try:
        write(staging)
        return _into_folder(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def save(path: Path, write: Callable[[Path], None], folder: bool = False,
         warn: Callable[[str], None] | None = None) -> Saved:
    """Write a result to ``path`` and return where it went (:class:`Saved`): the
    one way every command writes what it produces.

    A file: ``write(tmp)`` writes a temporary file beside ``path``, renamed
    when complete (:func:`atomic_write`). A folder (``folder``: a report, the
    advisor): ``write(staging)`` fills a hidden folder inside ``path`` and its
    files are moved in when all are written; files of other names stay. If
    the place fails all the same (a full disk), ``write`` is called again for
    a fresh file or folder in the system's temporary folder and ``warn`` (a
    line on stderr) says where: a finished result is never lost. Only when
    that fails too, one line (:class:`UserError`).
    """
    import shutil

    path = Path(path)
    warn = warn or _say
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if folder:
            return Saved.of(path, _folder_write(path, write))
        replaced = path.exists()
        atomic_write(path, write)
        return Saved.of(path, replaced)
    except OSError as e:
        why = _why(e)
    rescue = None
    try:
        if folder:
            rescue = Path(tempfile.mkdtemp(prefix=f"{path.name}-"))
            os.chmod(rescue, file_mode() | 0o111)
            warn(f"warning: cannot write {path} ({why}); writing it again in {rescue}")
        else:
            fd, name = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=path.suffix)
            os.close(fd)
            rescue = Path(name)
        write(rescue)
        if not folder:
            os.chmod(rescue, file_mode())
    except BaseException as e2:
        if rescue is not None and folder:
            shutil.rmtree(rescue, ignore_errors=True)
        elif rescue is not None:
            rescue.unlink(missing_ok=True)
        if isinstance(e2, OSError):
            raise UserError(f"cannot write {path} ({why}), nor in the temporary folder "
                            f"({_why(e2)})") from None
        raise
    warn(f"warning: cannot write {path} ({why}); the results are saved in {rescue}")
    return Saved.of(rescue, rescued=True)


def save_csv(path: Path, rows: list[dict], interrupted: bool = False,
             warn: Callable[[str], None] | None = None, digest: str | None = None) -> Saved:
    """Write ``rows`` as CSV to ``path`` (:func:`save`) and return where they went.

    Every row gets the column ``interrupted`` (and ``run_digest`` when
    ``digest`` is given: the run digest of the file's name); an interrupted run writes to
    :func:`interrupted_name` instead, so it never replaces a complete result.
    If writing fails, the CSV goes to the temporary directory (and ``warn``
    says so) rather than being lost.
    """
    import pandas as pd

    path = Path(path)
    if interrupted:
        path = interrupted_name(path)
    mark = {"interrupted": interrupted, **({"run_digest": digest} if digest else {})}
    frame = pd.DataFrame([{**r, **mark} for r in rows])
    return save(path, lambda tmp: frame.to_csv(tmp, index=False), warn=warn)


def polish_help(command) -> None:
    """Help for players: flags show no value type, values a plain placeholder.

    Walks the click command tree that typer built: ``--json`` reads as a
    flag instead of ``--json <bool>``, ``--turns N``, ``--out-dir DIR``. A
    command whose function has ``help_tail()`` ends its help with that text,
    computed when the help is shown (each game's bots: hooks, not a fixed list).
    Cosmetic only: whatever this typer version lacks is left as it is.
    """
    placeholders = {"int": "N", "integer": "N", "str": "TEXT", "text": "TEXT", "float": "X"}
    for p in getattr(command, "params", ()):
        if getattr(p, "metavar", "x") is not None:
            continue
        if getattr(p, "is_flag", False):
            p.metavar = ""
            continue
        kind = getattr(getattr(p, "type", None), "name", None)
        if kind is None:
            try:
                kind = str(p.display_type(None))
            except Exception:  # another typer: keep its own placeholder
                continue
        kind = kind.strip("<>").lower()
        if kind == "path":
            p.metavar = "DIR" if (p.name or "").endswith("dir") else "FILE"
        elif kind in placeholders:
            p.metavar = placeholders[kind]
    original = getattr(command, "get_help_option", None)
    if original is not None:
        def help_option(ctx, original=original):
            opt = original(ctx)
            if opt is not None:
                opt.metavar = ""
            return opt

        command.get_help_option = help_option
    tail = getattr(getattr(command, "callback", None), "help_tail", None)
    if callable(tail) and hasattr(command, "format_help"):  # text computed only for --help
        def format_help(ctx, formatter, original=command.format_help):
            command.epilog = tail()
            return original(ctx, formatter)

        command.format_help = format_help
    for sub in getattr(command, "commands", {}).values():
        polish_help(sub)


PLACE_FLAGS = ("--out", "--out-dir")


def refuse_empty_places(command) -> None:
    """``--out ""`` or ``--out-dir ""`` (a path of nothing, which would be this
    folder unsaid): one line, exit 2, for every command that has the flag.
    Walks the click command tree as :func:`polish_help` does (after it: the
    placeholder says whether a folder is asked for)."""
    for p in getattr(command, "params", ()):
        flags = [o for o in getattr(p, "opts", ()) if o in PLACE_FLAGS]
        if flags:
            folder = getattr(p, "metavar", None) == "DIR" or flags[0] == "--out-dir"
            asked = "a folder (. for this one)" if folder else "a file name"

            def process_value(ctx, value, original=p.process_value, flag=flags[0], asked=asked):
                if isinstance(value, str) and not value.strip():
                    raise UserError(f"{flag} is empty; give {asked}")
                return original(ctx, value)

            p.process_value = process_value
    for sub in getattr(command, "commands", {}).values():
        refuse_empty_places(sub)


class _Console(Console):
    """A console whose tables are at least as wide as their titles (up to its
    own width): a title is one line, not broken mid-phrase at the table's width."""

    def print(self, *objects, **kwargs):
        from rich.table import Table
        from rich.text import Text

        for o in objects:
            if isinstance(o, Table) and o.title and o.min_width is None:
                title = o.title if isinstance(o.title, Text) else Text.from_markup(str(o.title))
                o.min_width = min(self.width, max(Text(line).cell_len
                                                  for line in title.plain.splitlines()))
        super().print(*objects, **kwargs)


out = _Console()
if not out.is_terminal:  # piped or captured: wide enough for the tables, no wrapping
    out = _Console(width=120)
err = Console(stderr=True, soft_wrap=True)  # one message, one line: never wrapped


def game_option(games: tuple[str, ...], shown: tuple[str, ...] | None = None):
    """The ``--game`` option: its help lists the games (``shown``, default all
    of ``games``), with each entry's notes on its other names (``extra["name_notes"]``)."""
    notes = {}
    for e in registry.entries():
        notes.update(e.extra.get("name_notes", {}))
    games = shown or games
    names = " | ".join(games)
    said = "; ".join(f"{n} = {notes[n]}" for n in games if n in notes)
    return Annotated[str, typer.Option("--game", help=f"{names}" + (f" ({said})." if said else "."))]


def rules_from_flags(game: str = "tutto", **flags):
    """The rules of ``--game`` from the rule flags (defaults for those not given).

    Flags of another game must stay at their defaults: set, they are refused
    with one line (``--FLAG does not apply to --game NAME``).
    """
    try:
        entry = registry.by_name(game)
    except ValueError:
        raise UserError(f"--game must be one of {', '.join(registry.game_names())}, "
                        f"not {game!r}") from None
    own = {f.name for f in entry.rule_flags}
    for other in registry.entries():
        for f in other.rule_flags:
            if f.name not in own and flags.get(f.name, f.default) != f.default:
                raise UserError(f"--{f.name.replace('_', '-')} does not apply to --game {game}")
    values = {f.name: flags.get(f.name, f.default) for f in entry.rule_flags}
    return entry.rules_from_flags(game.strip().lower(), values)


def all_rule_flags() -> list:
    """Every registered game's rule flags, each name once, in registration order."""
    seen, flags = set(), []
    for e in registry.entries():
        for f in e.rule_flags:
            if f.name not in seen:
                seen.add(f.name)
                flags.append(f)
    return flags


def with_rules(games: tuple[str, ...] | None = None, default_game: str | None = None,
               only=None, taken: tuple[str, ...] | None = None):
    """Give a command every rule flag of every game; it receives the rules as ``rules``.

    The command's own parameters come first in ``--help``; the rule flags are
    grouped in each game's panels. ``games`` limits ``--game`` (default: every
    registered name; the first is the default game). ``only`` (a game's entry):
    a command of that game only, with only its rule flags and its names in
    ``--help`` (another ``--game`` still reaches the command, which refuses it);
    ``taken``: the names of those flags it takes (default: all).
    """
    import functools
    import inspect

    games = tuple(games or registry.game_names())
    default_game = default_game or games[0]
    flags = list(only.rule_flags) if only is not None else all_rule_flags()
    flags = [f for f in flags if taken is None or f.name in taken]

    def decorate(fn):
        sig = inspect.signature(fn, eval_str=True)
        own = [p for p in sig.parameters.values() if p.name != "rules"]
        extra = [inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY,
                                   annotation=game_option(games, only and only.names),
                                   default=default_game)]
        extra += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, annotation=f.annotation,
                                    default=f.default) for f in flags]

        @functools.wraps(fn)
        def command(*args, **kwargs):
            values = {f.name: kwargs.pop(f.name) for f in flags if f.name in kwargs}
            game = kwargs.pop("game", default_game)
            choice("--game", game, games)
            return fn(*args, rules=rules_from_flags(game, **values), **kwargs)

        params = own + extra
        command.__signature__ = sig.replace(parameters=params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        return command

    return decorate


def game_label(rules) -> str:
    """The game's name in file names (its ``label`` hook)."""
    return registry.for_rules(rules).hooks.label(rules)


def game_title(rules) -> str:
    """The game's name for players (its ``title`` hook)."""
    return registry.for_rules(rules).hooks.title(rules)


def positive(flag: str, value: int, allow_zero: bool = False, ceiling: int = MAX_TURNS) -> int:
    return count(flag, value, ceiling, allow_zero)


#: A phase whose rest takes longer than this (seconds) at the measured rate says so first.
LONG_RUN = 120
#: What Ctrl-C keeps of a phase, by its label (the tournaments' games; a
#: phase can say it itself, ``phase(label, total, keeps=...)``); other
#: phases keep "what finished" (the commands keep finished work), but for
#: solves (labels starting with "solving"), which Ctrl-C only stops.
KEEPS = {"games": "the games finished"}
#: The rate of a phase is measured over its last this many seconds (or all of it, if shorter).
RATE_WINDOW = 60.0
#: Without a bar (stderr not a terminal, or ``--json``): a phase that ends at least this
#: many seconds after the last line says so in a line with its time, and a phase
#: running longer says how far it is every three times this. The environment
#: variable ``TUTTO_SIM_PROGRESS_EVERY`` (seconds) sets it for a log that wants more or less.
PROGRESS_EVERY = 10.0


def progress_every() -> float:
    """:data:`PROGRESS_EVERY`, or ``TUTTO_SIM_PROGRESS_EVERY`` when it is a number >= 0."""
    try:
        value = float(os.environ.get("TUTTO_SIM_PROGRESS_EVERY", ""))
    except ValueError:
        return PROGRESS_EVERY
    return value if value >= 0 else PROGRESS_EVERY


def use_threads(threads: Optional[int]) -> int:
    """``--threads``: use that many numba threads (None: all); the number in
    use. A number out of range is one line (:class:`UserError`)."""
    from tutto_sim.core.blocks import set_threads

    try:
        return set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None


def duration_words(seconds: float) -> str:
    """``about 3 h 20 min``, ``about 7 min``, ``about 40 s``."""
    s = max(1, round(seconds))  # "about 1 s", never "about 0 s"
    if s >= 3600:
        h, m = divmod(round(s / 60), 60)
        return f"about {h} h {m} min" if m else f"about {h} h"
    if s >= 60:
        return f"about {round(s / 60)} min"
    return f"about {s} s"


def elapsed_words(seconds: float) -> str:
    """A time that passed: ``0.4 s``, ``12 s``, ``3 min 10 s``, ``1 h 5 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    s = round(seconds)
    if s >= 3600:
        h, m = divmod(round(s / 60), 60)
        return f"{h} h {m} min" if m else f"{h} h"
    m, s = divmod(s, 60)
    return f"{m} min {s} s" if m else f"{s} s"


class _Rate:
    """The rate of one phase: the work from its first finished block on (the
    first block also pays for compiling and starting workers), over the last
    :data:`RATE_WINDOW` seconds; none until the blocks span half a second
    (blocks that finish side by side on several workers are not a rate)."""

    def __init__(self, clock):
        self.clock = clock
        self.samples: list[tuple[float, int]] = []  # (time, work done), from the first block on

    def add(self, done: int) -> None:
        now = self.clock()
        self.samples.append((now, done))
        while len(self.samples) > 2 and self.samples[1][0] < now - RATE_WINDOW:
            self.samples.pop(0)

    def per_second(self) -> tuple[float, float] | None:
        """(work per second, the seconds it was measured over), or None."""
        if len(self.samples) < 2:
            return None
        (t0, d0), (t1, d1) = self.samples[0], self.samples[-1]
        if t1 - t0 <= 0.5:
            return None
        return (d1 - d0) / (t1 - t0), t1 - t0

    def rest(self, left: int, unit: str | None) -> tuple[float, str] | None:
        """(seconds left, the estimate in words naming its basis), or None."""
        got = self.per_second()
        if got is None or got[0] <= 0:
            return None
        rate, span = got
        per = f"{rate:,.0f}" if rate >= 10 else f"{rate:,.2g}"
        basis = f"at the rate of the last {elapsed_words(span)}" + (f" ({per} {unit}/s)" if unit else "")
        return left / rate, f"{duration_words(left / rate)} more, {basis}"

    def rest_short(self, left: int) -> str:
        """The estimate for a bar's narrow column: ``about 2 min more (rate of the last 40 s)``."""
        got = self.per_second()
        if got is None or got[0] <= 0:
            return ""
        return f"{duration_words(left / got[0])} more (rate of the last {elapsed_words(got[1])})"


def paced(label: str, total: int | None, advance: Callable[[int], None] | None = None,
          unit: str | None = None, keeps: str | None = None,
          say: Callable[[str], None] | None = None) -> Callable[[int], None]:
    """``advance(n)`` that also measures the rate (:class:`_Rate`): once the
    rate is known, a phase whose rest takes longer than :data:`LONG_RUN` at
    that rate says so in one line on stderr (``say``), naming what the
    estimate is based on and how to stop it. ``unit`` names what ``total``
    counts (default: a one-word ``label``, e.g. "games"); ``keeps``: what
    Ctrl-C keeps (e.g. "the games finished"; default :data:`KEEPS`). A phase
    of unknown length (``total`` None) makes no estimate."""
    import time

    unit = unit or (label if label.isalpha() else None)
    keeps = keeps or KEEPS.get(label) or (None if label.startswith("solving") else "what finished")
    say = say or (lambda line: err.print(line, markup=False, highlight=False))
    rate = _Rate(time.perf_counter)
    done, decided = 0, False

    def tick(n: int) -> None:
        nonlocal done, decided
        if advance is not None:
            advance(n)
        done += n
        rate.add(done)
        if decided or total is None or done >= total:
            return
        rest = rate.rest(total - done, unit)
        if rest is None:
            return
        decided = True
        if rest[0] > LONG_RUN:
            say(f"{label}: {rest[1]}; Ctrl-C stops "
                + (f"and keeps {keeps}" if keeps else "it and says how far it got"))

    tick.rate = rate
    return tick


class _Step:
    """``advance(n)`` of one phase (:class:`Phases`); ``more(k)`` grows its
    total honestly when the work turns out longer (another sweep). The count
    shown never passes the total: work past it grows the total."""

    def __init__(self, owner: "Phases", label: str, total: int | None, unit, keeps):
        import time

        self.owner, self.label, self.total = owner, label, total
        self.unit = unit or (label if label.isalpha() else None)
        self.done = 0
        self.t0 = time.perf_counter()
        self.tick = paced(label, total, None, unit, keeps, say=owner.say)
        self.rate = self.tick.rate

    def more(self, k: int) -> None:
        if self.total is not None:
            self.total += k
            self.owner.shown(self)

    def __call__(self, n: int) -> None:
        self.done += n
        if self.total is not None and self.done > self.total:
            self.total = self.done
        self.tick(n)  # and the long-run line
        self.owner.shown(self)

    def eta(self) -> str:
        """The estimate of the rest in words, naming its basis ("" when unknown)."""
        if self.total is None or self.done >= self.total:
            return ""
        rest = self.rate.rest(self.total - self.done, self.unit)
        return rest[1] if rest else ""

    def where(self) -> str:
        """How far the phase got: ``label: 412 of 800 (52%), 3 min 10 s``."""
        import time

        took = elapsed_words(time.perf_counter() - self.t0)
        if self.total is None:
            return f"{self.label}: {self.done:,} done, {took}"
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        what = f" {self.unit}" if self.unit else ""
        return f"{self.label}: {self.done:,} of {self.total:,}{what}{share}, {took}"


class Phases:
    """The phases of one command (:func:`progress_phases`): ``phases(label,
    total, unit=None, keeps=None) -> advance`` starts a phase; ``total`` None:
    a phase of unknown length (a count and the time, no estimate).
    :meth:`so_far` says what was done, for a command that Ctrl-C stops.

    With a bar (``prog``) the phase shows its count, the elapsed time and an
    estimate of the rest that names its basis. Without one (stderr not a
    terminal, ``--json``) a phase ending at least :data:`PROGRESS_EVERY`
    seconds after the last line says ``label: done in 1 min 52 s``, and a
    long phase says how far it is every 3 × :data:`PROGRESS_EVERY` seconds,
    so a log shows where the command is (:func:`progress_every`)."""

    def __init__(self, prog=None, task=None):
        import time

        self.prog, self.task = prog, task
        self.every = progress_every()
        self.current: _Step | None = None
        self.finished: list[tuple[str, float]] = []
        self.t0 = self.last_line = time.perf_counter()

    def say(self, line: str) -> None:
        import time

        err.print(line, markup=False, highlight=False)
        self.last_line = time.perf_counter()

    def __call__(self, label: str, total: int | None, unit: str | None = None,
                 keeps: str | None = None) -> _Step:
        self.end()
        self.current = _Step(self, label, total, unit, keeps)
        if self.prog is not None:
            self.prog.reset(self.task, total=total, description=label, eta="")
        return self.current

    def shown(self, step: _Step) -> None:
        """Show the phase's count (and the estimate), or its line when it is time."""
        import time

        if step is not self.current:
            return
        if self.prog is not None:
            short = ("" if step.total is None or step.done >= step.total
                     else step.rate.rest_short(step.total - step.done))
            self.prog.update(self.task, total=step.total, completed=step.done, eta=short)
            return
        if time.perf_counter() - self.last_line >= 3 * self.every and (
                step.total is None or step.done < step.total):
            eta = step.eta()
            self.say(f"{step.where()} so far" + (f"; {eta}" if eta else ""))

    def end(self) -> None:
        """The current phase is over: with no bar, its line when it is time."""
        import time

        step, self.current = self.current, None
        if step is None:
            return
        took = time.perf_counter() - step.t0
        self.finished.append((step.label, took))
        if self.prog is None and time.perf_counter() - self.last_line >= self.every:
            self.say(f"{step.label}: done in {elapsed_words(took)}")

    def so_far(self) -> str:
        """What was done: the finished phases with their times, how far the current
        one got, and the time in all."""
        import time

        parts = [f"{label} done in {elapsed_words(took)}" for label, took in self.finished]
        if self.current is not None:
            parts.append(self.current.where())
        return (("; ".join(parts) or "nothing finished")
                + f" ({elapsed_words(time.perf_counter() - self.t0)} in all)")


@contextmanager
def progress_phases(enabled: bool):
    """A rich progress bar on stderr (count, elapsed time, an estimate of the
    rest that says what it is based on); yields :class:`Phases`, called as
    ``phase(label, total, unit=None, keeps=None) -> advance``. Without the bar
    (``--json``, not a terminal) a long phase says so (:func:`paced`) and the
    phases write a line each with their time, at most one every
    :data:`PROGRESS_EVERY` seconds."""
    if not enabled or not err.is_terminal:
        phases = Phases()
        yield phases
        phases.end()
        return
    with Progress(TextColumn("{task.description}"), BarColumn(bar_width=20), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[eta]}"), console=err,
                  transient=True) as prog:
        task = prog.add_task("", total=1, eta="")
        phases = Phases(prog, task)
        yield phases
        phases.end()


def interrupted_solve(phases: Phases, what: str, path: Path, checkpoint=None) -> UserInterrupt:
    """Ctrl-C in a solve that writes its table only when complete: what was
    done and that nothing was written, or, with a ``checkpoint``
    (:class:`core.checkpoint.Checkpoint`), what it keeps and how to go on
    (raise it ``from None``)."""
    if checkpoint is not None and checkpoint.parts:
        return UserInterrupt(f"{phases.so_far()}; the finished work is kept in {checkpoint.folder} "
                             f"({checkpoint.summary()}); {what} is written only when complete "
                             f"(to {path}): run the same command with --resume to go on")
    return UserInterrupt(f"{phases.so_far()}; nothing written: {what} is written only when "
                         f"complete (to {path}); run the same command again to solve it")


def solve_and_save(solve: Callable, write: Callable, path: Path, progress: bool,
                   what: str = "the win table", checkpoint=None):
    """``(result, Saved)``: ``solve(phase)`` under :func:`progress_phases`, then
    ``write(result, tmp)`` saved to ``path`` (:func:`save`). Ctrl-C in the solve
    says what was done and that nothing was written (:func:`interrupted_solve`),
    or what the ``checkpoint`` keeps; once the result is saved the checkpoint
    is removed."""
    with progress_phases(progress) as phase:
        try:
            result = solve(phase)
        except KeyboardInterrupt:
            if checkpoint is not None and not checkpoint.parts:
                checkpoint.remove()  # nothing finished: no empty folder left behind
            raise interrupted_solve(phase, what, path, checkpoint) from None
    saved = save(path, lambda tmp: write(result, tmp))
    if checkpoint is not None:  # the result is saved (or rescued): the kept work is done with
        checkpoint.remove()
    return result, saved


def solve_output(out_path: Optional[Path], default: Path) -> Path:
    """Where ``solve --out`` writes a table: ``default`` without ``--out``; a
    folder (one that exists, or a name without ``.json``) gets the table under
    its default name; else the file named."""
    if out_path is None:
        return default
    out_path = Path(out_path)
    if out_path.is_dir() or out_path.suffix.lower() != ".json":
        return out_path / default.name
    return out_path


def fmt_threshold(t: Optional[int]) -> str:
    """A bank threshold in a "bank at ≥" cell: ``never``, ``always`` (0) or points."""
    if t is None:
        return "never"
    return "always" if t == 0 else f"{t:,}"


def write_csv(path: Path, rows: list[dict], interrupted: bool = False,
               digest: str | None = None) -> Saved:
    """Write a result CSV atomically (:func:`save_csv`); never loses it."""
    return save_csv(path, rows, interrupted, digest=digest)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 sweep``, ``3 sweeps``, ``1 die``, ``2 dice``."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def note_no_difference(shown) -> None:
    """Under a table whose differences mark "no measurable difference" with ``*``
    (``Estimate.difference_text(mark="*")``): the note saying so, if one of the
    differences ``shown`` has it."""
    from tutto_sim.core.stats import no_difference_note

    note = no_difference_note(shown)
    if note:
        out.print(note, highlight=False)


def merge_rows(rows: list[tuple[str, tuple]]) -> list[tuple[str, tuple]]:
    """Rows whose figures are identical (the same play on the same turns) shown once,
    their names joined with ``=``."""
    merged: dict[tuple, list[str]] = {}
    for name, figures in rows:
        merged.setdefault(figures, []).append(name)
    return [(" = ".join(names), figures) for figures, names in merged.items()]


def main(app, argv: list[str] | None = None) -> None:
    """Entry point: one-line errors with exit code 2 instead of usage boxes.

    Exit codes: 0 done, 1 a check failed (``validate``), 2 bad input or an
    output place that cannot be written, 130 interrupted (Ctrl-C). The
    parser's own errors (unknown option, a word where a number belongs) are
    recognised by their ``format_message``, so this works whether typer
    ships click itself or uses the click package. Anything else is a bug:
    one line saying so (exit 1); ``TUTTO_SIM_DEBUG=1`` shows the traceback.
    """
    import os

    import typer.main

    from tutto_sim.core import jit

    command = typer.main.get_command(app)
    polish_help(command)
    refuse_empty_places(command)
    args = sys.argv[1:] if argv is None else argv
    helping = any(a in ("--help", "-h") for a in args)  # a help compiles nothing, loads no numba
    jit.announce_compiles(err.is_terminal and not helping)  # one line if numba compiles (a first run)
    try:
        rc = command.main(args=argv, prog_name="tutto-sim", standalone_mode=False)
    except (UserError, registry.MissingHook) as e:
        print(f"tutto-sim: error: {e}", file=sys.stderr)
        sys.exit(2)
    except UserInterrupt as e:
        print(f"tutto-sim: interrupted: {e}", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("tutto-sim: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as e:  # the parser's usage errors, then output places, then bugs
        if hasattr(e, "format_message"):
            if type(e).__name__ == "NoArgsIsHelpError":  # the help is already printed
                sys.exit(2)
            if type(e).__name__ == "Abort":
                print("tutto-sim: interrupted", file=sys.stderr)
                sys.exit(130)
            if type(e).__name__ == "Exit":
                sys.exit(getattr(e, "exit_code", 0))
            msg = " ".join(e.format_message().split())
            print(f"tutto-sim: error: {msg}", file=sys.stderr)
            sys.exit(2)
        if os.environ.get("TUTTO_SIM_DEBUG"):
            raise
        if isinstance(e, OSError):
            where = f" {e.filename}" if getattr(e, "filename", None) else ""
            print(f"tutto-sim: error: cannot read or write{where}: {e.strerror or e}", file=sys.stderr)
            sys.exit(2)
        msg = " ".join(str(e).split())[:300]
        print(f"tutto-sim: internal error (a bug, please report it): {type(e).__name__}: {msg}; "
              "TUTTO_SIM_DEBUG=1 shows the traceback", file=sys.stderr)
        sys.exit(1)
    if isinstance(rc, int) and rc:
        sys.exit(rc)
