"""Bundle the JavaScript sources (js/) into the files the package ships.

    python scripts/bundle_js.py            write the bundles
    python scripts/bundle_js.py --check    exit 1 if a committed bundle is not what the sources make

The sources are ES modules, one per part (js/reader/: the shared parts of the
policy reader and one module per game; js/advisor/: the advisor page, one
module per game on shared helpers). Each bundle is one module made from an
entry module and every module it imports from ``./`` (dependencies first, each
once): the imports between them are dropped, ``export`` stays only on the names
the entry re-exports (``export { a, b } from "./x.mjs";``, the public API) and
imports from outside the bundle (the advisor's from the reader) become one
import line of the shipped name. The entry's own leading comment opens the
bundle, under a first line that says it is generated; the entry's own code
(the advisor's start) closes it. tests/web/test_js_bundle.py fails when a
committed bundle differs from what this script makes.

The modules keep to what this needs: imports and re-exports of named bindings
(``import { a, b } from "./x.mjs";``, on one line or several) at the top level,
exports as ``export`` before a declaration (function, class, const, let), and no
two modules declaring the same top-level name.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Bundle:
    entry: str  # the entry module, relative to ROOT
    out: str  # the shipped bundle, relative to ROOT
    external: dict  # an import path outside the bundle (relative to the entry's folder) -> its shipped name


BUNDLES = (
    Bundle("js/reader/policy.mjs", "tutto_sim/web/policy.mjs", {}),
    Bundle("js/advisor/advisor.mjs", "tutto_sim/web/site/advisor.js", {"../reader/policy.mjs": "./policy.mjs"}),
)

IMPORT = re.compile(r'^(import|export) \{([^}]*)\}\s*from\s*"([^"]+)";\n', re.M)
DECL = re.compile(r"^(export )?(?:async function\*? |function\*? |class |const |let )([\w$]+)", re.M)


class BundleError(Exception):
    """A source the bundler does not take (one line)."""


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _module(path: Path) -> tuple[str, list[tuple[str, list[str], str]]]:
    """A module's text without its import and re-export lines, and those lines as (kind, names, path)."""
    text = path.read_text(encoding="utf-8")
    links = [(m.group(1), _names(m.group(2)), m.group(3)) for m in IMPORT.finditer(text)]
    body = IMPORT.sub("", text)
    if re.search(r"^(import|export \{|export \*|export default)", body, re.M):
        raise BundleError(f"{path.name}: an import or export the bundler does not take")
    return re.sub(r"\n{3,}", "\n\n", body), links


def make(bundle: Bundle) -> str:
    """The text of one bundle, from its sources."""
    entry = (ROOT / bundle.entry).resolve()
    order: list[Path] = []  # dependencies first
    parts: dict[Path, tuple[str, list]] = {}

    def visit(path: Path, seen: tuple) -> None:
        if path in seen:
            raise BundleError(f"import circle: {' -> '.join(p.name for p in (*seen, path))}")
        if path in parts:
            return
        if not path.is_file():
            raise BundleError(f"{seen[-1].name if seen else 'the bundle'} imports {path.name}, which is missing")
        parts[path] = _module(path)
        for _kind, _imported, rel in parts[path][1]:
            if rel not in bundle.external:
                visit((path.parent / rel).resolve(), (*seen, path))
        order.append(path)

    visit(entry, ())
    declared: dict[str, Path] = {}
    exported: dict[Path, set] = {}
    for path in order:
        exported[path] = set()
        for m in DECL.finditer(parts[path][0]):
            if m.group(2) in declared:
                raise BundleError(f"{m.group(2)} is declared in {declared[m.group(2)].name} and {path.name}")
            declared[m.group(2)] = path
            if m.group(1):
                exported[path].add(m.group(2))
    public = set()
    outside: dict[str, set[str]] = {}  # the shipped name -> the names imported from it
    for path in order:
        for kind, names, rel in parts[path][1]:
            if rel in bundle.external:
                if kind == "export" or path.parent != entry.parent:
                    raise BundleError(f"{path.name}: only modules beside the entry may import {rel}")
                outside.setdefault(bundle.external[rel], set()).update(names)
                continue
            source = (path.parent / rel).resolve()
            missing = [n for n in names if n not in exported[source]]
            if missing:
                raise BundleError(f"{path.name} {kind}s {', '.join(missing)} from {rel}, which does not export it")
            if kind == "export":
                if path != entry:
                    raise BundleError(f"{path.name}: only the entry re-exports")
                public.update(names)

    def strip(m: re.Match) -> str:
        return m.group(0) if m.group(2) in public else m.group(0).removeprefix("export ")

    head, _, own = parts[entry][0].partition("\n\n")
    sources = Path(bundle.entry).parent / "*.mjs"
    out = [f"// Generated from {sources} by scripts/bundle_js.py: do not edit; edit the sources and run it.\n{head}\n"]
    out += [f'import {{ {", ".join(sorted(names, key=str.lower))} }} from "{shipped}";\n'
            for shipped, names in outside.items()]
    out += [DECL.sub(strip, parts[p][0]).strip("\n") + "\n" for p in order if p != entry]
    if own.strip():
        out.append(own.strip("\n") + "\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only check that the committed bundles are up to date")
    args = ap.parse_args(argv)
    stale = []
    for b in BUNDLES:
        try:
            text = make(b)
        except BundleError as e:
            print(f"bundle_js: {e}", file=sys.stderr)
            return 2
        out = ROOT / b.out
        if out.is_file() and out.read_text(encoding="utf-8") == text:
            continue
        stale.append(b.out)
        if not args.check:
            out.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"bundle_js: out of date: {', '.join(stale)} (run python scripts/bundle_js.py)", file=sys.stderr)
        return 1
    print(f"bundle_js: {'wrote ' + ', '.join(stale) if stale else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
