"""``tutto-sim advisor --out DIR``: the strategy advisor, a static web page.

The page answers a player at the table, on a phone: choose the game and the
table of decisions (the rules it was solved for are shown from the file),
enter the situation, read the advice as the cheat sheet would say it. It
needs no server: everything it reads is in the folder, and it opens from disk
(``file://``) as well as from any static host.

What the folder holds
---------------------
``index.html``, ``advisor.css``, ``advisor.js`` (the page, an ES module that
imports ``./policy.mjs``), ``policy.mjs`` (the JavaScript policy reader,
copied from the package), ``boot.js`` and ``sources.js`` (see below),
``manifest.js`` (which tables there are, with their rules in words) and
``policies/``: every policy file as it was (``NAME.json``, for bots and
downloads) and as a script (``NAME.js``) that hands the same text to the page.

Why the scripts: a page opened from disk has no origin, so the browser
(Chromium) refuses to ``fetch()`` a JSON file or to load an ES module from
disk. Classic ``<script src>`` tags still load, so the policy texts come as
``policies/NAME.js`` and the two modules' sources as ``sources.js``; on
``file://`` ``boot.js`` imports them from ``blob:`` URLs, on ``http(s)://``
it imports ``advisor.js`` as it is. The page checks every file with the
reader before it uses it (format, version, game, content hash, rules), so a
damaged file is refused in the page with the reader's one-line reason.

The command checks each file with the game's own Python loader first: a
file Python would refuse never reaches the page (one line, exit 2). Win
tables (Tutto, Berliner Macke, Volle Lotte; ``--win-table``, else those in
``results/``) add the chances to win by the scores.

This package sits above the games (like ``tutto_sim/cli.py``): it may import
them; no game imports it (tests/core/test_layout.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Optional

import typer

from tutto_sim.core.cli import RESULTS_DIR, UserError, prepare_dir, save

HERE = Path(__file__).resolve().parent
SITE = HERE / "site"
READER = HERE / "policy.mjs"
#: The page's own files, copied as they are.
PAGE_FILES = ("index.html", "advisor.css", "advisor.js", "boot.js")
#: Games of the page, in its menu: key -> name shown.
GAME_NAMES = {"tutto": "Tutto", "macke": "Berliner Macke", "volle-lotte": "Volle Lotte",
              "rutsmieter": "Rutsmieter"}


@dataclass
class Table:
    """One policy file as the page lists it."""

    path: Path
    game: str  # a key of GAME_NAMES
    reader_game: str  # what policy.mjs's loadPolicy calls the file's game
    kind: str  # "turn" (decisions of one turn / one move) or "win" (chance to win by scores)
    rules: dict
    rules_words: str
    rules_lines: list[str]
    extra: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path.stem

    def manifest(self) -> dict:
        return {"id": self.name, "game": self.game, "game_name": GAME_NAMES[self.game],
                "reader_game": self.reader_game, "kind": self.kind,
                "file": f"policies/{self.name}.json", "script": f"policies/{self.name}.js",
                "rules": self.rules, "rules_words": self.rules_words,
                "rules_lines": self.rules_lines, **self.extra}


def shipped_policies() -> list[Path]:
    """The shipped tables, ``tutto_sim/data/policies/*.json``."""
    from tutto_sim.core.bots import POLICY_DIR

    return sorted(POLICY_DIR.glob("*.json"))


#: Win tables that ``tutto-sim solve --objective win`` writes into ``results/``.
WIN_TABLE_NAMES = ("tutto-win-*.json", "macke-win-*.json", "volle-lotte-win-*.json")


def found_win_tables(results: Path = RESULTS_DIR) -> list[Path]:
    """The win tables in ``results/`` (Tutto, Berliner Macke, Volle Lotte)."""
    return sorted(p for g in WIN_TABLE_NAMES for p in results.glob(g)) if results.is_dir() else []


def _peek(path: Path) -> dict | None:
    """The file's JSON object, or None (the game's loader then says what is wrong)."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    return d if isinstance(d, dict) else None


def read_table(path: Path, flag: str) -> Table:
    """Check ``path`` with its game's Python loader (the game's hook
    ``advisor_table``) and describe it for the page."""
    from tutto_sim.core import registry

    tutto = registry.by_name("tutto").hooks.advisor_table  # names what is wrong with any file
    path = Path(path)
    if path.suffix != ".json":
        raise UserError(f"{flag} {path}: give a policy file (.json) written by tutto-sim")
    d = _peek(path)
    if d is None:  # unreadable, not UTF-8, not JSON: the loader's own line
        tutto(None, path)
        raise UserError(f"{flag} {path}: not a tutto-sim policy file")
    game, kind = d.get("game"), d.get("kind")
    if kind is not None and not (kind == "win-table" and game in {"tutto", "macke"}):
        raise UserError(f"{flag} {path}: the advisor shows win tables of Tutto, Berliner Macke "
                        f"and Volle Lotte, not {game} {kind}s")
    if game not in registry.game_names() or not registry.by_name(game).hooks.offers("advisor_table"):
        tutto(None, path)  # a file of no known game: the loader names what is wrong
        raise UserError(f"{flag} {path}: the advisor shows tutto, macke (Berliner Macke, Volle Lotte) "
                        f"and rutsmieter policy files, not {game!r}")
    return Table(path, *registry.by_name(game).hooks.advisor_table(kind, path))


def _script(name: str, text: str) -> str:
    """A classic script that hands ``text`` to the page under ``name``."""
    return (f"(globalThis.ADVISOR_FILES ||= {{}})[{json.dumps(name)}] = "
            f"{json.dumps(text, ensure_ascii=True)};\n")


def build_site(out: Path, tables: list[Table]) -> list[Path]:
    """Write the page and the tables into ``out``; returns the files written."""
    if not READER.exists():
        raise UserError(f"the JavaScript policy reader {READER} is missing from this installation")
    written = []

    def put(name: str, text: str) -> None:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")  # in save's staging folder: moved in when all are
        path.chmod(0o644)  # a static host serves it to everyone
        written.append(path)

    for name in PAGE_FILES:
        put(name, (SITE / name).read_text(encoding="utf-8"))
    reader = READER.read_text(encoding="utf-8")
    put("policy.mjs", reader)
    put("sources.js", "".join(_script(n, t) for n, t in
                              (("policy.mjs", reader), ("advisor.js", (SITE / "advisor.js").read_text()))))
    names = [t.name for t in tables]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise UserError(f"two policy files named {twice[0]}.json: give files of different names")
    for t in tables:
        text = t.path.read_text(encoding="utf-8")
        put(f"policies/{t.name}.json", text)
        put(f"policies/{t.name}.js", _script(t.name, text))
    manifest = {"games": GAME_NAMES, "tables": [t.manifest() for t in tables]}
    put("manifest.js", "globalThis.ADVISOR_MANIFEST = "
        + json.dumps(manifest, ensure_ascii=True, indent=1) + ";\n")
    return written


def advisor(
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder for the page (created; files of the same names are replaced).")],
    policy: Annotated[Optional[list[Path]], typer.Option("--policy", metavar="FILE", help="A policy file to offer besides the shipped ones (tutto_sim/data/policies/*.json), e.g. one solved for other rules; repeat for more.")] = None,
    win_table: Annotated[Optional[list[Path]], typer.Option("--win-table", metavar="FILE", help="A win table of Tutto, Berliner Macke or Volle Lotte (tutto-sim solve --objective win) for the chances to win by the scores; repeat for more. Default: those in results/ (tutto-win-*.json, macke-win-*.json, volle-lotte-win-*.json).")] = None,
) -> None:
    """Write the strategy advisor: a static web page (docs/advisor.md).

    Open DIR/index.html in a browser, from disk or any static host: choose the
    game and the rules, enter the situation, read the advice.
    """
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: is a file, not a folder")
    given = []  # the files given first: a bad one is refused before the shipped ones are read
    for p in policy or []:
        given.append(read_table(p, "--policy"))
        if given[-1].kind == "win":
            raise UserError(f"--policy {p}: a win table; give it with --win-table")
    for p in win_table or []:
        given.append(read_table(p, "--win-table"))
        if given[-1].kind != "win":
            raise UserError(f"--win-table {p}: not a win table (give it with --policy)")
    for p in [] if win_table else found_win_tables():  # found, not asked for: a bad one is left out
        try:
            given.append(read_table(p, "found win table"))
        except UserError as e:
            typer.echo(f"left out {p}: {e}", err=True)
    tables = [read_table(p, "shipped policy") for p in shipped_policies()] + given
    prepare_dir(out, "--out")
    written = []
    out = save(out, lambda folder: written.extend(build_site(folder, tables)), folder=True)
    counts = ", ".join(f"{sum(t.game == g for t in tables)} {name}" for g, name in GAME_NAMES.items())
    wins_n = sum(t.kind == "win" for t in tables)
    typer.echo(f"{out.verb} the advisor ({len(written)} files) {'in' if out.replaced else 'to'} "
               f"{out}: tables {counts}"
               f" ({wins_n} of them win tables); open {out / 'index.html'}")
