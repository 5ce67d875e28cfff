"""The checks every policy file passes, whatever the game.

A policy file is versioned JSON: ``format`` (``tutto-sim-policy``),
``version``, ``game``, the rules it was solved for and their hash, the
decisions, and a content hash over the decision fields. :func:`read_policy_file`
refuses, with one clear line (:class:`PolicyFileError`), anything it cannot
trust: unreadable or non-UTF-8 bytes, broken JSON, another format, version or
game, a schema violation, a changed content hash, rules that do not match
their hash or the caller's rules. Each game adds its own legality checks.
Game-independent.
"""

from __future__ import annotations

import json
from pathlib import Path

FORMAT = "tutto-sim-policy"
VERSION = 1


class PolicyFileError(ValueError):
    """A policy file that must not be used; the message says why, in one line."""


def fields_sha256(d: dict, fields) -> str:
    """SHA-256 of the canonical JSON of the ``fields`` of ``d`` (a content hash)."""
    import hashlib

    body = {k: d.get(k) for k in fields}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def schema_of(package: str, name: str) -> dict:
    """The JSON Schema ``schema/NAME`` shipped in ``package``."""
    from importlib import resources

    return json.loads(resources.files(package).joinpath(f"schema/{name}").read_text())


def load_for_cli(load, *args, prefix: str = ""):
    """``load(*args)``; a file it refuses becomes one line for the command line
    (``UserError``: exit 2), after ``prefix`` (e.g. the option's name)."""
    from tutto_sim.core.cli import UserError

    try:
        return load(*args)
    except PolicyFileError as e:
        raise UserError(f"{prefix}{e}") from None


def write_for_cli(policy, path, fmt: str):
    """``policy.write(path, fmt)`` through ``core.cli.save`` (a full disk saves
    it in the temporary folder and says where); a refusal becomes one line for
    the command line (``UserError``: exit 2). Returns the ``core.cli.Saved`` path."""
    from tutto_sim.core.cli import UserError, save

    try:
        return save(Path(path), lambda tmp: policy.write(tmp, fmt))
    except PolicyFileError as e:
        raise UserError(str(e)) from None


def check_win_kind(path: Path | str, kind: str, write_with: str) -> None:
    """Refuse, in one line, a policy file of another kind than the win table
    ``kind`` (``write_with`` says how to make one); an unreadable file is left
    to :func:`read_policy_file`, which says what is wrong."""
    found = None
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8")).get("kind")
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        pass
    if found is not None and found != kind:
        raise PolicyFileError(f"{path} is not a win table (kind {found!r}; {write_with})")


def check_win_fields(path, rules, file_rules, fields) -> None:
    """A win table read from ``path`` for ``rules`` (None: any) that was solved
    for other values of the rule ``fields`` it depends on: PolicyFileError in
    one line naming each field, asked and found."""
    if rules is None:
        return
    wrong = [f"{f}={getattr(rules, f)!r} (file: {getattr(file_rules, f)!r})"
             for f in fields if getattr(rules, f) != getattr(file_rules, f)]
    if wrong:
        raise PolicyFileError(f"win table {path} was solved for other rules: {', '.join(wrong)}")


def saved_table(path: Path, load, rules):
    """``load(path, rules)`` when the file is there and fits ``rules``, else
    None (no file, or one of another rule set)."""
    if path.exists():
        try:
            return load(path, rules)
        except PolicyFileError:
            pass
    return None


def win_table_document(game: str, rules, kind: str, version: int, objective: str, body: dict,
                       hash_fn) -> dict:
    """A win-table policy file's document: the first fields, the same for every
    game, then the game's ``body``, then the content hash ``hash_fn(document)``."""
    from tutto_sim import __version__

    d = {"format": FORMAT, "version": VERSION, "game": game, "kind": kind,
         "win_table_version": version, "created_by": f"tutto-sim {__version__}",
         "rules": rules.to_dict(), "rules_sha256": rules.digest(), "objective": objective, **body}
    d["content_sha256"] = hash_fn(d)
    return d


def write_compact(path: Path | str, d: dict) -> None:
    """Write ``d`` as compact JSON and a newline (the caller makes the write atomic)."""
    Path(path).write_text(json.dumps(d, separators=(",", ":")) + "\n")


def write_policy(path: Path | str, fmt: str, doc, frame, formats=("json", "csv")) -> Path:
    """Write a policy to ``path`` (its folder made) as ``fmt``, one of
    ``formats``: ``json`` the document ``doc()``, compact, under a temporary
    name first (never a half-written policy); ``csv`` or ``parquet`` the
    table ``frame()``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        tmp = path.with_suffix(path.suffix + ".partial")
        try:
            write_compact(tmp, doc())
            tmp.replace(path)
        except BaseException:
            tmp.unlink(missing_ok=True)  # a full disk leaves no half file behind
            raise
        return path
    if fmt == "csv":
        frame().to_csv(path, index=False)
        return path
    if fmt == "parquet" and fmt in formats:
        try:
            frame().to_parquet(path, index=False)
        except ImportError as e:
            raise PolicyFileError("--format parquet needs pyarrow: pip install 'tutto-sim[parquet]'") from e
        return path
    raise PolicyFileError(f"unknown format {fmt!r}; valid: {', '.join(formats)}")


def _asked_game(game: str, asked) -> str:
    """The game the user asked for, as ``--game`` names it (a variant preset's
    name, not the file's game): the label of ``asked`` (rules) if given."""
    if asked is None:
        return game
    from tutto_sim.core import registry

    try:
        return registry.for_rules(asked).hooks.label(asked)
    except (TypeError, registry.MissingHook):
        return game


def read_policy_file(path: Path | str, game: str, schema_doc: dict, rules_cls, hash_fn,
                     rules=None, asked=None):
    """The checks every policy file passes, whatever the game: readable JSON,
    format, version, game, JSON Schema, content hash, rules and rules hash, and
    the caller's rules. ``asked`` (default ``rules``): the rules the command
    plays, whose name a file of another game is refused with. Returns
    ``(document, file's rules, path)``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PolicyFileError(f"cannot read policy file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise PolicyFileError(
            f"policy file {path} is damaged or not a policy file (not UTF-8 text)") from None
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        at = e.msg if e.msg.endswith(" at") else f"{e.msg} at"  # "Invalid control character at"
        raise PolicyFileError(
            f"policy file {path} is damaged or truncated (not valid JSON: {at} line {e.lineno}, column {e.colno})"
        ) from None
    except (ValueError, RecursionError):  # absurd numbers or nesting: damage, not a policy
        raise PolicyFileError(f"policy file {path} is damaged (JSON nested or sized beyond any policy)") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise PolicyFileError(f"{path} is not a tutto-sim policy file (format must be {FORMAT!r})")
    if d.get("version") != VERSION:
        raise PolicyFileError(
            f"policy file {path} has version {d.get('version')!r}; this tutto-sim reads version {VERSION}"
        )
    if d.get("game") != game:
        raise PolicyFileError(f"policy file {path} is for game {d.get('game')!r}, "
                              f"not {_asked_game(game, rules if asked is None else asked)}")
    _check_schema(d, path, schema_doc)
    if hash_fn(d) != d["content_sha256"]:
        raise PolicyFileError(f"policy file {path} was changed or damaged: its content hash does not match")
    try:
        file_rules = rules_cls.from_dict(d["rules"])
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise PolicyFileError(f"policy file {path} has invalid rules: {' '.join(str(e).split())}") from None
    if file_rules.digest() != d["rules_sha256"]:
        raise PolicyFileError(f"policy file {path}: rules_sha256 does not match its rules")
    if rules is not None and rules != file_rules:
        diff = ", ".join(f"{k}={v!r} (file: {d['rules'].get(k)!r})"
                         for k, v in rules.to_dict().items() if d["rules"].get(k) != v)
        raise PolicyFileError(f"policy file {path} was solved for other rules: {diff}")
    return d, file_rules, path


def _check_schema(d: dict, path: Path, schema_doc: dict) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema_doc)
    err = jsonschema.exceptions.best_match(validator.iter_errors(d))
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        msg = " ".join(err.message.split())
        if len(msg) > 160:
            msg = msg[:157] + "..."
        raise PolicyFileError(f"policy file {path} does not match the schema at {where}: {msg}")
