"""What every command shares: one-line user errors, checked counts, and
output places that never lose a finished result.

Game-independent (no rules, no engines): the ``tutto-sim`` commands of every
game use it.

Output places
-------------
Commands write what they produce (CSV files, policy tables, reports) under
``results/`` in the current directory unless ``--out-dir`` / ``--out`` says
otherwise; ``data/`` of the repository holds only the shipped policy tables.
The place is checked **before** any computing starts (:func:`prepare_dir`,
:func:`prepare_file`), so a typing error costs nothing. A file is written to
a temporary name beside its target and renamed when complete
(:func:`atomic_write`), so a reader never sees half a file. If the write
fails all the same (the disk filled up during a long run), the result goes to
the system's temporary directory instead and the command says where
(:func:`save_csv`): a finished result is never lost.

Interrupted runs (Ctrl-C) write what finished to ``NAME-interrupted.csv``
with a column ``interrupted`` = ``True``, so they never overwrite a complete
result of the same run.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable

#: Default folder for everything a command writes, relative to the current directory.
RESULTS_DIR = Path("results")

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
            where = "is a file" if p == path else f"{p} is a file"
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
    any failure the temporary file is removed and the error raised.
    """
    path = Path(path)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def interrupted_name(path: Path) -> Path:
    """``x.csv`` -> ``x-interrupted.csv``: where an interrupted run's part goes."""
    return path.with_name(f"{path.stem}-interrupted{path.suffix}")


def save_csv(path: Path, rows: list[dict], interrupted: bool = False,
             warn: Callable[[str], None] | None = None) -> Path:
    """Write ``rows`` as CSV to ``path`` (atomically) and return where they went.

    Every row gets the column ``interrupted``; an interrupted run writes to
    :func:`interrupted_name` instead, so it never replaces a complete result.
    If writing fails, the CSV goes to the temporary directory (and ``warn``
    says so) rather than being lost.
    """
    import pandas as pd

    path = Path(path)
    if interrupted:
        path = interrupted_name(path)
    frame = pd.DataFrame([{**r, "interrupted": interrupted} for r in rows])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False))
    except OSError as e:
        fd, rescue = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=path.suffix)
        os.close(fd)
        frame.to_csv(rescue, index=False)
        (warn or (lambda m: print(m, file=sys.stderr)))(
            f"warning: cannot write {path} ({_why(e)}); the results are saved in {rescue}")
        return Path(rescue)


def polish_help(command) -> None:
    """Help for players: flags show no value type, values a plain placeholder.

    Walks the click command tree that typer built: ``--json`` reads as a
    flag instead of ``--json <bool>``, ``--turns N``, ``--out-dir DIR``.
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
    for sub in getattr(command, "commands", {}).values():
        polish_help(sub)
