"""The win tables' policy files, two players (version 1: :class:`WinTable`)
and N players (version 2: :class:`WinTableN`): the JSON documents, writing,
reading with their checks, the rule fields a table depends on
(``rules.WIN_FIELDS``) and where a table is kept (:func:`default_win_file`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tutto_sim.core.policyfile import (check_win_fields, fields_sha256, schema_of, win_table_document,
                                       write_compact)
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.rules import WIN_FIELDS, TuttoRules
from tutto_sim.tutto.win.planner import TurnStart, turn_start

#: The package whose ``schema/`` holds the win tables' JSON Schemas.
SCHEMA_PACKAGE = "tutto_sim.tutto"


# --------------------------------------------------------------------------
# the policy file
# --------------------------------------------------------------------------

WIN_TABLE_KIND = "win-table"
WIN_TABLE_VERSION = 1
WIN_OBJECTIVE = ("both players maximise their chance of winning a two-player game "
                 "(docs/win.md; cards drawn independently at the deck frequencies)")
_WIN_HASHED = ("format", "version", "game", "kind", "win_table_version", "rules",
               "rules_sha256", "point_unit", "target_units", "margin_cap_units", "W",
               "last_turn")


@dataclass(frozen=True)
class WinTable:
    """A win table read from its policy file."""

    rules: TuttoRules
    W: np.ndarray
    last_turn_table: np.ndarray
    margin_cap: int
    summary: dict

    def turn_start(self, seat: int, own: int, other: int) -> TurnStart:
        return turn_start(self.rules, self.W, self.last_turn_table, self.margin_cap, seat,
                          own, other)


def _win_hash(d: dict) -> str:
    return fields_sha256(d, _WIN_HASHED)


def win_table_dict(sol) -> dict:
    """The JSON document of the win policy file of a :class:`solve2.WinSolution`
    (schema/win-policy.schema.json)."""
    return win_table_document("tutto", sol.rules, WIN_TABLE_KIND, WIN_TABLE_VERSION, WIN_OBJECTIVE, {
        "point_unit": POINT_UNIT,
        "target_units": sol.rules.target // POINT_UNIT, "margin_cap_units": sol.margin_cap,
        "W": np.clip(sol.W, 0.0, 1.0).tolist(),
        "last_turn": np.clip(sol.last_turn_table, 0.0, 1.0).tolist(),
        "summary": sol.summary(),
    }, _win_hash)


def write_win_table(sol, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    write_compact(path, win_table_dict(sol))


def win_schema() -> dict:
    return schema_of(SCHEMA_PACKAGE, "win-policy.schema.json")


def load_win_table(path, rules: TuttoRules | None = None) -> WinTable:
    """Read a win policy file; :class:`PolicyFileError` (one line) for a damaged
    file, another version or kind, shapes that do not fit the target, or
    rules other than ``rules`` (the fields of ``rules.WIN_FIELDS``)."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file

    check_win_kind(path, WIN_TABLE_KIND, "export one with: tutto-sim solve --objective win")
    d, file_rules, path = read_policy_file(path, "tutto", win_schema(), TuttoRules, _win_hash,
                                           asked=rules)
    n = file_rules.target // POINT_UNIT
    W = np.array(d["W"], dtype=float) if _square(d["W"], n) else None
    if W is None or d["target_units"] != n:
        raise PolicyFileError(f"policy file {path}: W must be 2 x {n} x {n} for target "
                              f"{file_rules.target:,}")
    last = d["last_turn"]
    if len({len(r) for r in last}) != 1:
        raise PolicyFileError(f"policy file {path}: last_turn rows differ in length")
    check_win_fields(path, rules, file_rules, WIN_FIELDS)
    return WinTable(file_rules, W, np.ascontiguousarray(np.array(last, dtype=float)),
                    int(d["margin_cap_units"]), d["summary"])


def _square(w, n: int) -> bool:
    return len(w) == 2 and all(len(rows) == n and all(len(r) == n for r in rows) for rows in w)


def win_rules(rules: TuttoRules) -> TuttoRules:
    """The rule fields a win table depends on, the others at their defaults."""
    return TuttoRules(**{f: getattr(rules, f) for f in WIN_FIELDS})


def default_win_file(rules, players: int = 2):
    """(path, run digest) of the win table of ``rules``: where ``solve --objective
    win`` writes it by default and where ``winopt``, the report and the
    advisor look for it, ``results/tutto-win-TARGET-<run>.json``, ``<run>`` the run digest
    (``core.runs``) of the rule fields the table depends on."""
    from tutto_sim.core.runs import win_table_file

    return win_table_file("tutto", win_rules(rules), players=players)


# --------------------------------------------------------------------------
# the policy file of N players
# --------------------------------------------------------------------------

#: Version 2: a table of N players (version 1: the two-player file, :data:`WIN_TABLE_VERSION`).
WIN_TABLE_VERSION_N = 2
WIN_OBJECTIVE_N = ("every player maximises his chance of winning a game of N players "
                 "(docs/win.md; cards drawn independently at the deck frequencies)")
_HASHED_N = ("format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
           "players", "point_unit", "target_units", "margin_cap_units", "W", "E")


def _pack(a: np.ndarray) -> dict:
    import base64

    a = np.ascontiguousarray(a, dtype="<f8")
    return {"shape": list(a.shape), "dtype": "float64-le",
            "base64": base64.b64encode(a.tobytes()).decode("ascii")}


def _unpack(d: dict, shape: tuple, path, what: str) -> np.ndarray:
    import base64
    import binascii

    from tutto_sim.core.policyfile import PolicyFileError

    if tuple(d["shape"]) != shape:
        raise PolicyFileError(f"policy file {path}: {what} must have the shape "
                              f"{' x '.join(map(str, shape))}, not {' x '.join(map(str, d['shape']))}")
    try:
        raw = base64.b64decode(d["base64"], validate=True)
    except (binascii.Error, ValueError):
        raise PolicyFileError(f"policy file {path}: {what} is not valid base64") from None
    if len(raw) != 8 * int(np.prod(shape)):
        raise PolicyFileError(f"policy file {path}: {what} holds {len(raw)} bytes, not "
                              f"{8 * int(np.prod(shape))}")
    a = np.frombuffer(raw, dtype="<f8").reshape(shape).astype(float)
    if not np.isfinite(a).all() or a.min(initial=0.0) < 0.0 or a.max(initial=0.0) > 1.0:
        raise PolicyFileError(f"policy file {path}: {what} holds values that are not chances")
    return a


def end_state_ids(n: int, M: int, players: int) -> list[np.ndarray]:
    """The end phase's states of seat m = 1 .. N-1 (scores' index in base M):
    the seats from m on are below the target (they have not moved since)."""
    xe = np.indices((M,) * players).reshape(players, -1)
    return [np.flatnonzero(np.all(xe[m:] < n, axis=0)) for m in range(1, players)]


def _hash_n(d: dict) -> str:
    from tutto_sim.core.policyfile import fields_sha256

    return fields_sha256(d, _HASHED_N)


def win_table_n_dict(sol) -> dict:
    """The JSON document of an N-player win table, a :class:`solve_n.WinSolutionN`
    (schema/win-policy-n.schema.json)."""
    from tutto_sim.core.policyfile import win_table_document

    N, n = sol.players, sol.rules.target // POINT_UNIT
    M = n + sol.margin_cap + 1
    ends = []
    if sol.rules.game_end == "round":
        flat = sol.E.reshape(N, -1, N)
        ends = [_pack(np.clip(flat[m][ids], 0.0, 1.0))
                for m, ids in enumerate(end_state_ids(n, M, N), start=1)]
    return win_table_document("tutto", sol.rules, WIN_TABLE_KIND, WIN_TABLE_VERSION_N,
                              WIN_OBJECTIVE_N, {
                                  "players": N, "point_unit": POINT_UNIT, "target_units": n,
                                  "margin_cap_units": sol.margin_cap,
                                  "W": _pack(np.clip(sol.W, 0.0, 1.0)),
                                  "E": ends,
                                  "summary": sol.summary(),
                              }, _hash_n)


def write_win_table_n(sol, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    from tutto_sim.core.policyfile import write_compact

    write_compact(path, win_table_n_dict(sol))


@dataclass(frozen=True)
class WinTableN:
    """An N-player win table read from its policy file."""

    rules: TuttoRules
    players: int
    W: np.ndarray
    E: np.ndarray
    margin_cap: int
    summary: dict

    def chances(self, seat: int, scores) -> np.ndarray:
        """Each player's chance at the start of ``seat``'s turn (main phase)."""
        return self.W[(seat,) + tuple(scores)]


def win_schema_n() -> dict:
    from tutto_sim.core.policyfile import schema_of

    return schema_of(SCHEMA_PACKAGE, "win-policy-n.schema.json")


def table_size(path) -> int | None:
    """Players of the win table in ``path``: its ``players`` (version 2), 2 for
    a two-player table (``win_table_version`` 1); None for a file that cannot be read as
    one (the loaders say what is wrong)."""
    import json
    from pathlib import Path

    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        n = d.get("players", 2 if d.get("win_table_version", 1) == 1 else None)
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return None
    return n if isinstance(n, int) else None


def load_win_table_n(path, rules: TuttoRules | None = None, players: int | None = None
                     ) -> WinTableN:
    """Read an N-player win table; :class:`PolicyFileError` (one line) for a
    damaged file, another kind or version, shapes that do not fit, rules
    other than ``rules`` or a table of another size than ``players``."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file

    check_win_kind(path, WIN_TABLE_KIND, "export one with: tutto-sim solve --objective win --players N")
    d, file_rules, path = read_policy_file(path, "tutto", win_schema_n(), TuttoRules, _hash_n,
                                           asked=rules)
    N = int(d["players"])
    if players is not None and N != players:
        raise PolicyFileError(f"win table {path} is for {N} players, not {players}")
    n = file_rules.target // POINT_UNIT
    if d["target_units"] != n:
        raise PolicyFileError(f"policy file {path}: target_units does not fit the target")
    check_win_fields(path, rules, file_rules, WIN_FIELDS)
    W = _unpack(d["W"], (N,) + (n,) * N + (N,), path, "W")
    mc = int(d["margin_cap_units"])
    M = n + mc + 1
    if file_rules.game_end == "round":
        ids = end_state_ids(n, M, N)
        if len(d["E"]) != N - 1:
            raise PolicyFileError(f"policy file {path}: E must hold {N - 1} end-phase tables")
        E = np.zeros((N, M ** N, N))
        for m, (blk, i) in enumerate(zip(d["E"], ids), start=1):
            E[m, i] = _unpack(blk, (len(i), N), path, f"E[{m}]")
        E = E.reshape((N,) + (M,) * N + (N,))
    else:
        E = np.zeros(0)
    return WinTableN(file_rules, N, W, E, mc, d["summary"])
