"""Time the commands the README quotes: on a first run and warm, side by side.

A first run in a fresh clone pays for numba compiling the kernels (and a
report for solving the tables it keeps in its folder); every later run reuses
both. The README quotes the two times together, read from the file this
script writes (``command-times.json`` beside the saved measurements of
``core.measured``), so the figures a user reads are the figures measured, with
the machine, its load and the date.

How a run is timed: the command runs as its own process (the ``tutto-sim``
script beside this Python, Python's start included), in a fresh folder as its current
directory. The *first* run gets an empty numba cache (``NUMBA_CACHE_DIR`` set
to a new folder), as a fresh clone has; the *warm* run is the same command
again in the same folder with the same cache, as a user's second run is. Wall
time and CPU time (user + system of the process and its children) are both
kept, and the load average before each run, so a figure measured on a busy
machine says so. Usage::

    python scripts/time_commands.py                 # every command (about 12 min, idle 2 cores)
    python scripts/time_commands.py --only report-macke --only solve
    python scripts/time_commands.py --list

``--only`` re-times some commands and keeps the others' figures in the file.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # runnable from a checkout without installing

from tutto_sim.core.measured import MEASURED_DIR  # noqa: E402

TIMES_FILE = MEASURED_DIR / "command-times.json"
#: The command as a user runs it: the script beside this Python (the venv's).
TUTTO_SIM = Path(sys.executable).parent / "tutto-sim"

#: key -> the command's words after ``tutto-sim``: what the README times.
COMMANDS: dict[str, list[str]] = {
    "solve": ["solve"],
    "optimize-bonus400": ["optimize", "--card", "bonus400"],
    "solve-win-1000": ["solve", "--objective", "win", "--target", "1000", "--json"],
    "tournament-rutsmieter": ["tournament", "--game", "rutsmieter"],
    "analyze-rules-rutsmieter": ["analyze", "rules", "--game", "rutsmieter"],
    "report-tutto": ["report", "--game", "tutto"],
    "report-macke": ["report", "--game", "macke"],
    "report-rutsmieter": ["report", "--game", "rutsmieter"],
    "report-tutti": ["report", "--game", "tutti"],
}


def _machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def _run(words: list[str], cwd: Path, cache: Path) -> dict:
    """One timed run of ``tutto-sim WORDS``: wall and CPU seconds, the load before it."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(TUTTO_SIM), *words], cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"time_commands: tutto-sim {shlex.join(words)} failed "
                         f"(exit {done.returncode}): {done.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "load": round(load, 2)}


def time_command(words: list[str]) -> dict:
    """The first and the warm run of one command, in a fresh folder and numba cache."""
    with tempfile.TemporaryDirectory(prefix="tutto-sim-times-") as tmp:
        cwd, cache = Path(tmp, "work"), Path(tmp, "numba-cache")
        cwd.mkdir()
        cache.mkdir()
        first = _run(words, cwd, cache)
        warm = _run(words, cwd, cache)
    return {"command": "tutto-sim " + shlex.join(words), "first": first, "warm": warm}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=sorted(COMMANDS), metavar="KEY",
                    help="time only this command (repeat for more); the others' figures are kept")
    ap.add_argument("--out", type=Path, default=TIMES_FILE, help="the file (default: %(default)s)")
    ap.add_argument("--list", action="store_true", help="list the commands and stop")
    args = ap.parse_args()
    if args.list:
        for key, words in COMMANDS.items():
            print(f"{key:28} tutto-sim {shlex.join(words)}")
        return
    keys = args.only or list(COMMANDS)
    old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    commands = old.get("commands", {})
    for key in keys:
        print(f"timing {key}: tutto-sim {shlex.join(COMMANDS[key])} ...", file=sys.stderr, flush=True)
        commands[key] = {**time_command(COMMANDS[key]),
                         "date": dt.date.today().isoformat(), "machine": _machine()}
        f, w = commands[key]["first"], commands[key]["warm"]
        print(f"  first run {f['wall_s']} s (load {f['load']}), warm {w['wall_s']} s "
              f"(load {w['load']})", file=sys.stderr, flush=True)
        data = {"format": "tutto-sim-command-times", "version": 1,
                "how": "python scripts/time_commands.py: each command as its own process in a "
                       "fresh folder, first with an empty numba cache, then again (warm); "
                       "wall and CPU seconds, the 1-minute load average before each run",
                "commands": {k: commands[k] for k in COMMANDS if k in commands}}
        tmp = args.out.with_name(args.out.name + ".partial")
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, args.out)  # after each command: an interrupted run keeps what it timed
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
