"""Same seeds, same outputs: run a fixed list of commands and compare two runs.

The list covers every game (Tutto, Berliner Macke, Volle Lotte, Rutsmieter,
Tutti) and every command (solve, optimize, export-policy, validate,
tournament, explore, analyze ..., play with scripted input, advisor, the web
cases of ``python -m tutto_sim.web.export``, every ``--help``): the examples
of README.md and docs/*.md at small sizes, each with a seed and ``--json``
where the command has one. The commands run one after the other in this
process (``--fresh``: each in a new process, as a user runs it; slower, the
imports take a second or two each) with a temporary directory as the working
directory (so ``results/`` is a temporary one too; the files a command writes
are recorded by their normalised content or their sha256). What may
differ between two runs of the same code is normalised away: timings
(seconds, rates per second, ETA lines), the temporary and the checkout's
paths, dates.

Usage::

    python scripts/same_outputs.py --out before.json         # run the list (a few minutes)
    python scripts/same_outputs.py --out after.json
    python scripts/same_outputs.py --compare before.json after.json   # exit 1 on a difference
    python scripts/same_outputs.py --list                     # the commands
    python scripts/same_outputs.py --out x.json --only tutti  # the commands containing a word

Not in the list, with the reason: ``report`` (no ``--json``; its files are
checked byte for byte by ``scripts/make_reports.py`` against ``reports/``),
``--cluster`` (needs Dask workers; the same kernels run on them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Scripted input for ``play``: one ``?`` (the advice), then always the first choice;
#: the end of input leaves the game.
PLAY_INPUT = "?\n" + "1\n" * 400

#: (command, files it writes that are recorded). ``tutto-sim`` and ``webexport``
#: (``python -m tutto_sim.web.export``) are run from a temporary directory, the paths
#: relative to it (a path in a bot spec goes into the run's digest and the files' created_by;
#: ``examples/rutsmieter_bot.py`` is copied there).
#: ``play`` commands read :data:`PLAY_INPUT`. The win tables are solved at small targets;
#: the later commands read the committed ones (:data:`COPIED`).
COMMANDS: list[tuple[str, list[str]]] = [
    # --- every command's help (the texts a user reads)
    *[(" ".join(["tutto-sim", *c.split(), "--help"]), []) for c in (
        "", "optimize", "solve", "export-policy", "validate", "tournament", "play", "explore",
        "report", "advisor", "analyze", "analyze seats", "analyze threshold", "analyze rules",
        "analyze pieces", "analyze lead", "analyze exchange", "analyze declare", "analyze trump",
        "analyze tute")],
    # --- Tutto
    ("tutto-sim solve --json", []),
    ("tutto-sim solve --json --x2-scope card --cloverleaf-value 6000", []),
    ("tutto-sim solve", []),
    ("tutto-sim optimize --card fireworks --json --turns 20000 --search-turns 5000 --seed 42", []),
    ("tutto-sim optimize --card bonus300 --method exact --json", []),
    ("tutto-sim optimize --card street --json --turns 20000 --search-turns 5000 --seed 3", []),
    ("tutto-sim optimize --card x2 --x2-scope card --turns 20000 --search-turns 5000 --seed 1", []),
    ("tutto-sim export-policy --out tutto.json", ["tutto.json"]),
    ("tutto-sim export-policy --out tutto-card.json --x2-scope card --cloverleaf-value 6000",
     ["tutto-card.json"]),
    ("tutto-sim export-policy --out tutto.csv --format csv", ["tutto.csv"]),
    ("tutto-sim validate --turns 20000 --seed 1 --json", []),
    ("tutto-sim validate --turns 20000 --seed 2 --policy tutto.json --json", []),
    ("tutto-sim tournament --game tutto --bots optimal,cautious,threshold:300 --players 3 --games 3000 "
     "--seed 1 --json", []),
    ("tutto-sim tournament --game tutto --bots optimal,endgame,cautious,reckless --players 2 --games 2000 "
     "--seed 1", []),
    ("tutto-sim tournament --game tutto --bots optimal,cautious --players 2 --games 300 --seed 1 "
     "--engine reference --json", []),
    ("tutto-sim solve --objective win --game tutto --target 300 --json --out tutto-win-300.json",
     ["tutto-win-300.json"]),
    ("tutto-sim solve --objective win --game tutto --target 300 --game-end immediate --json "
     "--out tutto-win-300-imm.json", ["tutto-win-300-imm.json"]),
    ("tutto-sim tournament --game tutto --players 2 --bots winopt:committed-tutto-win-300.json,optimal --deck iid "
     "--target 300 --games 2000 --seed 2 --json", []),
    ("tutto-sim analyze seats --game tutto --players 2-4 --games 2000 --seed 1 --json", []),
    ("tutto-sim analyze threshold --games 2000 --search-games 1000 --seed 1 --json", []),
    ("tutto-sim play --game tutto --bots optimal --seed 5", []),
    ("tutto-sim play --game tutto --target 300 --seed 4 --win-table committed-tutto-win-300.json", []),
    ("webexport --game tutto --n 300 --seed 1 --out cases-tutto.json", ["cases-tutto.json"]),
    ("webexport --game tutto-win --n 300 --seed 1 --policy committed-tutto-win-300.json "
     "--out cases-tutto-win.json", ["cases-tutto-win.json"]),
    # --- Berliner Macke
    ("tutto-sim solve --game macke --json", []),
    ("tutto-sim solve --game macke", []),
    ("tutto-sim solve --game macke --variant jackpot --json", []),
    ("tutto-sim solve --game macke --bust zero --min-score 400 --json", []),
    ("tutto-sim optimize --game macke --json --turns 20000 --search-turns 5000 --seed 1", []),
    ("tutto-sim explore --game macke --json", []),
    ("tutto-sim explore --game macke --min-score 0,300", []),
    ("tutto-sim export-policy --game macke --out macke.json", ["macke.json"]),
    ("tutto-sim validate --game macke --turns 20000 --seed 1 --json", []),
    ("tutto-sim tournament --game macke --bots optimal,cautious,threshold:300 --players 3 --games 3000 "
     "--seed 1 --json", []),
    ("tutto-sim tournament --game macke --bots optimal,cautious --games 2000 --seed 1", []),
    ("tutto-sim solve --objective win --game macke --target 500 --json --out macke-win-500.json",
     ["macke-win-500.json"]),
    ("tutto-sim tournament --game macke --target 500 --players 2 --bots winopt:committed-macke-win-500.json,optimal "
     "--games 2000 --seed 1 --json", []),
    ("tutto-sim analyze seats --game macke --players 2-3 --games 2000 --seed 1 --json", []),
    ("tutto-sim analyze threshold --game macke --games 2000 --search-games 1000 --seed 1 --json", []),
    ("tutto-sim play --game macke --bots optimal --seed 5", []),
    ("tutto-sim play --game macke --bots optimal --target 500 --seed 5 --win-table committed-macke-win-500.json",
     []),
    ("webexport --game macke --n 300 --seed 1 --out cases-macke.json", ["cases-macke.json"]),
    ("webexport --game macke-win --n 300 --seed 1 --policy committed-macke-win-500.json "
     "--out cases-macke-win.json", ["cases-macke-win.json"]),
    # --- Volle Lotte
    ("tutto-sim solve --game volle-lotte --json", []),
    ("tutto-sim export-policy --game volle-lotte --out volle-lotte.json", ["volle-lotte.json"]),
    ("tutto-sim tournament --game volle-lotte --bots optimal,endgame,cautious,reckless --players 2 "
     "--games 2000 --seed 1 --json", []),
    ("tutto-sim solve --objective win --game volle-lotte --target 300 --json "
     "--out volle-lotte-win-300.json", ["volle-lotte-win-300.json"]),
    ("tutto-sim explore --game volle-lotte --json", []),
    ("tutto-sim play --game volle-lotte --seed 3", []),
    ("webexport --game volle-lotte --n 300 --seed 1 --out cases-vl.json", ["cases-vl.json"]),
    # --- Rutsmieter
    ("tutto-sim solve --game rutsmieter --solo --json", []),
    ("tutto-sim solve --game rutsmieter --duel --json", []),
    ("tutto-sim solve --game rutsmieter --duel", []),
    ("tutto-sim tournament --game rutsmieter --bots expert,tuned --games 100 --seed 2025 --json", []),
    ("tutto-sim tournament --game rutsmieter --players 4 --bots first,last,aggressive,defensive "
     "--games 2000 --seed 1 --json", []),
    ("tutto-sim tournament --game rutsmieter --players 3 --bots random,first,last,tuned --games 1200 "
     "--seed 1", []),
    ("tutto-sim tournament --game rutsmieter --players 2 --bots py:rutsmieter_bot.py:Careful,"
     "first --games 100 --seed 3 --json", []),
    ("tutto-sim tournament --game rutsmieter --bots tuned,first --games 1000 --seed 2026 "
     "--must-capture off --play-to-third on --players 3 --json", []),
    ("tutto-sim optimize --game rutsmieter --players 2 --field first,random --candidates 8 "
     "--search-games 200 --games 1000 --seed 1 --json --out rm-policy.json", ["rm-policy.json"]),
    ("tutto-sim tournament --game rutsmieter --bots weights:committed-rutsmieter-default.json,first --games 500 "
     "--seed 1 --json", []),
    ("tutto-sim analyze seats --game rutsmieter --games 2000 --seed 1 --json", []),
    ("tutto-sim analyze rules --game rutsmieter --games 500 --skill-games 300 --seed 1 --json", []),
    ("tutto-sim analyze pieces --players 2 --games 500 --positions 50 --position-games 4 --seed 1 --json",
     []),
    ("tutto-sim play --game rutsmieter --bots first,tuned --seed 11", []),
    ("webexport --game rutsmieter --n 200 --seed 1 --out cases-rm.json", ["cases-rm.json"]),
    # --- Tutti
    ("tutto-sim tournament --game tutti --players 2 --bots heuristic,random --games 3000 --seed 1 --json",
     []),
    ("tutto-sim tournament --game tutti --players 2 --bots heuristic,random --games 2000 --seed 1", []),
    ("tutto-sim tournament --game tutti --players 4 --pairs on --bots heuristic,random --games 2000 "
     "--seed 1 --json", []),
    ("tutto-sim tournament --game tutti --players 3 --bots heuristic,random --games 1200 --seed 1 "
     "--hands 3 --json", []),
    ("tutto-sim tournament --game tutti --players 2 --bots pimc:10,heuristic --games 20 --seed 1 --json", []),
    ("tutto-sim tournament --game tutti --players 2 --bots ismcts:50,heuristic --games 10 --seed 1 --json",
     []),
    ("tutto-sim analyze lead --games 1000 --seed 1 --json", []),
    ("tutto-sim analyze exchange --seed 1 --json", []),
    ("tutto-sim analyze declare --deals 100 --seed 1 --json", []),
    ("tutto-sim analyze trump --deals 5000 --seed 1 --json", []),
    ("tutto-sim analyze tute --deals 20000 --seed 1 --json", []),
    ("tutto-sim analyze seats --game tutti --players 2-4 --games 1000 --seed 1 --json", []),
    ("tutto-sim play --game tutti --bots heuristic --hands 3 --hints --seed 2", []),
    ("tutto-sim play --game tutti --players 4 --pairs on --bots heuristic,random,heuristic --seed 5", []),
    # --- the advisor page (after the win tables above: it reads results/*-win-*.json, none here)
    ("tutto-sim advisor --out site", ["site"]),
]

#: Committed files copied into the working directory, read there by the commands: the files
#: ``solve --objective win`` and ``optimize --game rutsmieter`` write hold their seconds, and a
#: bot's file goes into the run's digest (the CSV's name).
COPIED = {
    "committed-tutto-win-300.json": "tests/web/data/tutto-win-300.json",
    "committed-macke-win-500.json": "tests/web/data/macke-win-500.json",
    "committed-rutsmieter-default.json": "tutto_sim/data/policies/rutsmieter-default.json",
}

#: Keys of JSON objects whose values are timings or machine facts, not results.
VOLATILE_KEYS = re.compile(
    r"(^|_)(seconds|secs|elapsed|time|times|duration|wall|rate_per_s|per_second|per_s|"
    r"turns_per_second|games_per_second|throughput|eta|date|timestamp|created|threads|cpu|host)($|_)",
    re.IGNORECASE)

#: Text that may differ between two runs of the same code: (pattern, replacement).
TEXT_RULES: list[tuple[re.Pattern, str]] = [
    (re.compile(r"\d[\d,.]*\s*(?:[kKM]\s*)?(?:turns|games|matches|hands|deals|throws|positions|it|situations)?"
                r"\s*(?:/\s*s\b|per second|a second)"), "<RATE>"),
    (re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:s|sec|seconds|ms|min|minutes)\b"), "<SECONDS>"),
    (re.compile(r"\b\d+:\d\d(?::\d\d)?\b"), "<CLOCK>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?)?"), "<DATE>"),
    # numba threads: a machine fact (results do not depend on it); one command's --threads
    # stays set in this process for the later ones
    (re.compile(r"\b\d+ threads?\b"), "<THREADS>"),
]

#: Lines dropped from the text: progress and ETA lines, compile notes.
DROP_LINES = re.compile(r"\bETA\b|eta |elapsed|compil|it/s|━|█|\r|at the measured rate", re.IGNORECASE)


def _tool(word: str) -> list[str]:
    if word == "tutto-sim":
        exe = Path(sys.executable).with_name("tutto-sim")
        return [str(exe)] if exe.exists() else [sys.executable, "-c", "from tutto_sim.cli import main; main()"]
    if word == "webexport":
        return [sys.executable, "-m", "tutto_sim.web.export"]
    raise ValueError(word)


def _norm_text(text: str, tmp: Path) -> str:
    text = text.replace(str(tmp), "{T}").replace(str(ROOT), "{ROOT}")
    text = text.replace(os.path.realpath(tmp), "{T}")
    lines = []
    for line in text.splitlines():
        if DROP_LINES.search(line):
            continue
        for pattern, repl in TEXT_RULES:
            line = pattern.sub(repl, line)
        lines.append(line.rstrip())
    return "\n".join(lines)


def _norm_json(value, tmp: Path):
    if isinstance(value, dict):
        return {_norm_json(k, tmp): ("<VOLATILE>" if VOLATILE_KEYS.search(k) else _norm_json(v, tmp))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_norm_json(v, tmp) for v in value]
    if isinstance(value, str):
        return value.replace(str(tmp), "{T}").replace(str(ROOT), "{ROOT}")
    return value


def _norm_output(text: str, tmp: Path):
    """A JSON document (one object, or one per line) normalised; else normalised text."""
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            return {"json": _norm_json(json.loads(stripped), tmp)}
        except json.JSONDecodeError:
            try:
                return {"json_lines": [_norm_json(json.loads(line), tmp) for line in stripped.splitlines()
                                       if line.strip()]}
            except json.JSONDecodeError:
                pass
    return {"text": _norm_text(text, tmp)}


def _record_file(path: Path, tmp: Path):
    if path.is_dir():
        return {str(p.relative_to(path)): _record_file(p, tmp) for p in sorted(path.rglob("*")) if p.is_file()}
    if not path.exists():
        return None
    data = path.read_bytes()
    # of the bytes with the checkout's and the temporary paths replaced: the file's own sha256
    # when it names no path (the policy and win-table files), comparable between checkouts
    for where, word in ((tmp, b"{T}"), (ROOT, b"{ROOT}")):
        data = data.replace(str(where).encode(), word)
    digest = hashlib.sha256(data).hexdigest()
    if path.suffix == ".json" and len(data) < 200_000:
        try:
            raw = json.loads(data)
        except json.JSONDecodeError:
            raw = None
        if raw is not None:
            doc = _norm_json(raw, tmp)
            if doc != raw:  # seconds inside (win tables, weights): the digest of what is left
                return {"sha256_normalised": hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest(),
                        "json": doc}
            return {"sha256": digest, "json": doc}
    return {"sha256": digest, "bytes": len(data)}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _env() -> dict:
    return {"COLUMNS": "100", "LINES": "50", "TERM": "dumb", "NO_COLOR": "1", "PYTHONHASHSEED": "0",
            "PYTHONIOENCODING": "utf-8"}


def _invoke_subprocess(argv: list[str], stdin: str, tmp: Path, timeout: float) -> tuple:
    env = dict(os.environ) | _env()
    env.pop("FORCE_COLOR", None)
    try:
        proc = subprocess.run(_tool(argv[0]) + argv[1:], cwd=tmp, input=stdin, capture_output=True,
                              text=True, env=env, timeout=timeout, check=False)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def _invoke_here(argv: list[str], stdin: str, tmp: Path) -> tuple:
    """Run the command in this process (imports once: the list takes minutes, not an hour)."""
    import contextlib
    import io

    if argv[0] == "tutto-sim":
        from tutto_sim.cli import main as entry
    else:
        from tutto_sim.web.export import main as entry
    out, err = io.StringIO(), io.StringIO()
    old_in, old_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    rc = 0
    try:
        os.chdir(tmp)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                got = entry(argv[1:])
                rc = got if isinstance(got, int) else 0
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException as e:  # noqa: BLE001  (a crash is an output too)
                rc = f"exception {type(e).__name__}: {e}"
    finally:
        sys.stdin = old_in
        os.chdir(old_cwd)
    return rc, out.getvalue(), err.getvalue()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime + _children_cpu()


def run_one(command: str, files: list[str], tmp: Path, timeout: float, seen: dict, fresh: bool) -> dict:
    argv = command.replace("{T}", str(tmp)).replace("{ROOT}", str(ROOT)).split()
    stdin = PLAY_INPUT if argv[:2] == ["tutto-sim", "play"] else ""
    t0, cpu0 = time.perf_counter(), _cpu()
    rc, out, err = (_invoke_subprocess(argv, stdin, tmp, timeout) if fresh else _invoke_here(argv, stdin, tmp))
    seconds, cpu = time.perf_counter() - t0, _cpu() - cpu0
    record = {"rc": rc, "stdout": _norm_output(out, tmp), "stderr": _norm_text(err, tmp)}
    if files:
        record["files"] = {f: _record_file(tmp / f, tmp) for f in files}
    written = {str(p.relative_to(tmp)): p.stat().st_mtime_ns for p in (tmp / "results").rglob("*") if p.is_file()}
    new = sorted(p for p, m in written.items() if seen.get(p) != m)
    if new:  # what the command wrote into results/ (CSV of tournaments, analyses, win tables)
        record["results"] = {p: _record_file(tmp / p, tmp) for p in new}
    seen.update(written)
    return record | {"_seconds": round(seconds, 1), "_cpu_seconds": round(cpu, 1)}


def run_all(only: list[str] | None, timeout: float, fresh: bool) -> dict:
    results = {}
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="same-outputs-") as d:
        tmp = Path(d)
        shutil.copy(ROOT / "examples" / "rutsmieter_bot.py", tmp)
        for name, src in COPIED.items():
            shutil.copy(ROOT / src, tmp / name)
        seen: dict[str, int] = {}
        for command, files in COMMANDS:
            if only and not any(w in command for w in only):
                continue
            record = run_one(command, files, tmp, timeout, seen, fresh)
            print(f"{record['_seconds']:6.1f} s ({record['_cpu_seconds']:5.1f} s CPU)  rc {record['rc']}  {command}",
                  file=sys.__stderr__, flush=True)
            results[command] = record
    print(f"{len(results)} commands in {time.perf_counter() - t_all:.0f} s "
          f"({sum(r['_cpu_seconds'] for r in results.values()):.0f} s CPU)", file=sys.stderr)
    return results


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, value


def renormalise(value, key: str = "", in_json: bool = False):
    """A stored record normalised again with the rules of this version of the script (so that
    a rule added later applies to runs stored before it)."""
    in_json = in_json or key in ("json", "json_lines")
    if isinstance(value, dict):
        return {k: ("<VOLATILE>" if in_json and VOLATILE_KEYS.search(k) else renormalise(v, k, in_json))
                for k, v in value.items()}
    if isinstance(value, list):
        return [renormalise(v, key, in_json) for v in value]
    if isinstance(value, str) and not in_json and key in ("text", "stderr"):
        return _norm_text(value, Path("/nonexistent"))
    return value


def compare(before: dict, after: dict) -> int:
    """Print every difference between two runs; the number of commands that differ."""
    differing = 0
    for command in sorted(set(before) | set(after), key=lambda c: list(before).index(c) if c in before else 1e9):
        if command not in before or command not in after:
            print(f"== {command}: only in {'the second' if command in after else 'the first'} run")
            differing += 1
            continue
        a = renormalise({k: v for k, v in before[command].items() if not k.startswith("_")})
        b = renormalise({k: v for k, v in after[command].items() if not k.startswith("_")})
        if a == b:
            continue
        differing += 1
        print(f"== {command}")
        fa, fb = dict(_flatten(a)), dict(_flatten(b))
        for key in sorted(set(fa) | set(fb)):
            va, vb = fa.get(key, "<missing>"), fb.get(key, "<missing>")
            if va == vb:
                continue
            if isinstance(va, str) and isinstance(vb, str) and "\n" in va + vb:
                import difflib

                diff = difflib.unified_diff(va.splitlines(), vb.splitlines(), "before", "after", lineterm="", n=1)
                print(f"  {key}:")
                for line in diff:
                    print(f"    {line}")
            else:
                print(f"  {key}: {va!r} -> {vb!r}")
    return differing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="JSON file to write: {command: normalised output}")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    ap.add_argument("--list", action="store_true", help="print the commands")
    ap.add_argument("--only", action="append", help="run only the commands containing this word (repeatable)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds per command with --fresh (default 600)")
    ap.add_argument("--fresh", action="store_true",
                    help="each command in a new process (as a user runs it; slower: imports each time)")
    args = ap.parse_args()
    if args.list:
        for command, _ in COMMANDS:
            print(command)
        return 0
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        n = compare(before, after)
        print(f"{n} of {len(set(before) | set(after))} commands differ" if n else
              f"the same outputs: {len(before)} commands")
        return 1 if n else 0
    if not args.out:
        ap.error("--out, --compare or --list")
    os.environ.update(_env())  # before tutto_sim is imported: rich reads COLUMNS once
    os.environ.pop("FORCE_COLOR", None)
    results = run_all(args.only, args.timeout, args.fresh)
    from tutto_sim.core.cli import save  # a full disk: saved in the temporary folder, said

    save(args.out, lambda tmp: tmp.write_text(
        json.dumps(results, indent=1, ensure_ascii=False, sort_keys=False) + "\n"))
    failed = [c for c, r in results.items() if r["rc"] not in (0,)]
    if failed:
        print("commands with a nonzero exit code (recorded as they are):", *failed, sep="\n  ", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
