"""Result file names that say which run made them, and the mode files get.

Game-independent. Every result a command writes under ``results/`` (or
``--out-dir``) by default carries in its name a *run digest*: the first
:data:`DIGEST_CHARS` hex digits of the SHA-256 of every setting that changes
the figures (the game and all its rules, the players, the bots with their
budgets and the files they read, the run sizes, the seed, ...; not
``--threads``, ``--cluster``, ``--engine`` (the kernel and the reference
engine play the same games), the output place or ``--json``, on which no
figure depends). The readable part stays in front:
``tournament-GAME-2p-seed1-<digest>.csv``. Two runs that differ in any
such setting never share a file; the same run repeated replaces its own. The
command's JSON gives the same digest (``run_digest``) and the CSV rows carry
it in a column of that name.

Files are created with the usual permissions, ``0o666`` less the process's
umask (0644 under umask 022): results, reports and tables are for sharing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

#: Hex digits of the run digest in file names (40 bits: two different runs
#: share a name once in about a trillion pairs).
DIGEST_CHARS = 10

#: Default folder for everything a command writes, relative to the current directory.
RESULTS_DIR = Path("results")


def _plain(value):
    """A setting as plain JSON: rules objects by their ``to_dict()``."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"run_digest: a {type(value).__name__} is not a setting")


def run_digest(kind: str, **settings) -> str:
    """The digest of a run of ``kind`` (``tournament``, ``optimize``, ...) with
    these figure-changing ``settings``: :data:`DIGEST_CHARS` hex digits of the
    SHA-256 of their canonical JSON (keys sorted)."""
    doc = {"kind": kind, **{k: _plain(v) for k, v in settings.items()}}
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


def run_file(folder: Path | str, stem: str, digest: str, suffix: str = ".csv") -> Path:
    """``folder/stem-digest.suffix``: the default name of a run's result."""
    return Path(folder) / f"{stem}-{digest}{suffix}"


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def bot_specs(text: str) -> list:
    """The bots of a comma-separated ``--bots`` list as settings: each spec
    (spaces around it dropped) with the SHA-256 of every file it names
    (``table:FILE``, ``weights:FILE``, ``py:FILE:NAME``), so a changed file
    is another run."""
    specs = []
    for spec in (s.strip() for s in text.split(",")):
        files = {}
        for part in spec.split(":"):
            try:
                if part and Path(part).is_file():
                    files[part] = _file_sha256(Path(part))
            except (OSError, ValueError):
                pass  # unreadable or no path at all: the bot's own loader says so
        specs.append([spec, files] if files else spec)
    return specs


def file_digest(path: Path | str | None) -> str | None:
    """The SHA-256 of a file a run reads (``report --tournament``), or None."""
    return None if path is None else _file_sha256(Path(path))


def _umask_at_import() -> int:
    # the only os.umask round trip, once, while the module is imported (before
    # a command starts any thread); later reads go through /proc (thread-safe)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK_AT_IMPORT = _umask_at_import()


def current_umask() -> int:
    """The process's umask, read without changing it (Linux: ``Umask:`` of
    /proc/self/status; elsewhere the umask when this module was imported)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return _UMASK_AT_IMPORT


def file_mode() -> int:
    """The mode of a new result file: ``0o666`` less the umask (0644 under 022)."""
    return 0o666 & ~current_umask()


def win_table_file(label: str, win_rules, folder: Path | str = RESULTS_DIR, players: int = 2
                   ) -> tuple[Path, str]:
    """(path, run digest) of a win table: ``results/LABEL-win-TARGET-<run>.json``
    (or in ``folder``), ``win_rules`` the rules with only the fields the table
    depends on set (the game's own projection), so ``solve --objective win``
    writes it where ``winopt``, the reports and the advisor look for it. A
    table of more than two ``players``: ``LABEL-win-TARGET-Np-<run>.json``."""
    if players == 2:
        digest = run_digest("win-table", game=label, rules=win_rules)
        return run_file(folder, f"{label}-win-{win_rules.target}", digest, ".json"), digest
    digest = run_digest("win-table", game=label, rules=win_rules, players=players)
    return run_file(folder, f"{label}-win-{win_rules.target}-{players}p", digest, ".json"), digest
