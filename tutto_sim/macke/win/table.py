"""The Macke / Volle Lotte win tables' policy files: two players (version 1,
:class:`MackeWinTable`) and N players (version 2, :class:`MackeWinNTable`;
the loader reads either): the JSON documents, writing, reading with their
checks, the rule fields a table depends on (``rules.WIN_FIELDS``) and where a
table is kept (:func:`default_win_file`, :func:`default_win_file_n`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

import numpy as np

from tutto_sim.core.policyfile import (check_win_fields, fields_sha256, schema_of, win_table_document,
                                       write_compact)
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.rules import WIN_FIELDS, MackeRules
from tutto_sim.macke.win.solve2 import MackeWinSolution, WinSetup, check_win_rules

#: The package whose ``schema/`` holds the win tables' JSON Schemas.
SCHEMA_PACKAGE = "tutto_sim.macke"


# --------------------------------------------------------------------------
# the policy file
# --------------------------------------------------------------------------

WIN_TABLE_KIND = "win-table"
WIN_TABLE_VERSION = 1
WIN_OBJECTIVE = ("both players maximise their chance of winning a two-player game "
                 "(docs/macke-win.md; scores below the floor are held at it)")
_WIN_HASHED = ("format", "version", "game", "kind", "win_table_version", "rules",
               "rules_sha256", "point_unit", "target_units", "floor_units", "cap_units", "W",
               "last_turn")


@dataclass(frozen=True)
class MackeWinTable:
    """A Macke / Volle Lotte win table: ``W[a - floor, b - floor]`` (units; the
    seat does not matter), ``last_turn[d]`` as in :class:`MackeWinSolution`."""

    rules: MackeRules
    floor: int
    cap_units: int
    W: np.ndarray
    last_turn: np.ndarray
    summary: dict = field(default_factory=dict)

    @classmethod
    def from_solution(cls, sol: MackeWinSolution) -> "MackeWinTable":
        return cls(sol.rules, sol.floor, sol.cap_units, np.ascontiguousarray(sol.W[0]),
                   np.ascontiguousarray(sol.last_turn), sol.summary())

    @property
    def target(self) -> int:
        return self.rules.target

    def win(self, mine: int, theirs: int) -> float:
        """W for the mover's and the opponent's scores in points (held at the floor)."""
        f, n = self.floor // POINT_UNIT, self.W.shape[0]
        i, j = (max(x // POINT_UNIT, f) - f for x in (mine, theirs))
        if not (i < n and j < n):
            raise ValueError(f"scores must be below the target {self.target:,}")
        return float(self.W[i, j])


def _win_hash(d: dict) -> str:
    return fields_sha256(d, _WIN_HASHED)


def write_win_table(sol: MackeWinSolution, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    write_compact(path, win_table_dict(sol))


def win_table_dict(sol: MackeWinSolution) -> dict:
    """The JSON document of the win policy file (schema/macke-win-policy.schema.json)."""
    r = sol.rules
    return win_table_document(r.GAME, r, WIN_TABLE_KIND, WIN_TABLE_VERSION, WIN_OBJECTIVE, {
        "point_unit": POINT_UNIT, "target_units": r.target // POINT_UNIT,
        "floor_units": sol.floor // POINT_UNIT, "cap_units": sol.cap_units,
        "W": np.clip(sol.W[0], 0.0, 1.0).tolist(),
        "last_turn": np.clip(sol.last_turn, 0.0, 1.0).tolist(),
        "summary": sol.summary(),
    }, _win_hash)


def win_schema() -> dict:
    """The JSON Schema of the win policy file (``schema/macke-win-policy.schema.json``)."""
    return schema_of(SCHEMA_PACKAGE, "macke-win-policy.schema.json")


def load_win_table(path, rules: MackeRules | None = None) -> MackeWinTable:
    """Read a Macke / Volle Lotte win policy file; :class:`PolicyFileError` (one
    line) for a damaged file, another version or kind, a floor or shapes that
    do not fit, or rules other than ``rules`` (the fields of ``rules.WIN_FIELDS``)."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file

    check_win_kind(path, WIN_TABLE_KIND, "write one with: tutto-sim solve --objective win --game macke")
    d, file_rules, path = read_policy_file(path, MackeRules.GAME, win_schema(), MackeRules,
                                           _win_hash, asked=rules)
    floor = d["floor_units"] * POINT_UNIT
    try:
        check_win_rules(file_rules, floor)
    except ValueError as e:
        raise PolicyFileError(f"policy file {path}: {e}") from None
    n = file_rules.target // POINT_UNIT - d["floor_units"]
    w = d["W"]
    if d["target_units"] != file_rules.target // POINT_UNIT or not (
            len(w) == n and all(len(r) == n for r in w)):
        raise PolicyFileError(f"policy file {path}: W must be {n} x {n} for target "
                              f"{file_rules.target:,} and floor {floor:,}")
    series_max = int(WinSetup(file_rules, floor, 1).series_max)
    if len(d["last_turn"]) != d["cap_units"] + series_max + 1:
        raise PolicyFileError(f"policy file {path}: last_turn must have "
                              f"{d['cap_units'] + series_max + 1} entries for its cap")
    check_win_fields(path, rules, file_rules, WIN_FIELDS)
    return MackeWinTable(file_rules, floor, int(d["cap_units"]), np.array(w, dtype=float),
                         np.array(d["last_turn"], dtype=float), d["summary"])


def win_rules(rules: MackeRules) -> MackeRules:
    """The rule fields a win table depends on, ``win_value`` at its default."""
    return replace(rules, win_value=MackeRules().win_value)


def default_win_file(rules):
    """(path, run digest) of the win table of ``rules``: where ``solve --objective
    win`` writes it by default and where ``winopt``, the report and the
    advisor look for it, ``results/GAME-win-TARGET-<run>.json``, ``<run>`` the run digest
    (``core.runs``) of the rule fields the table depends on."""
    from tutto_sim.core.cli import game_label
    from tutto_sim.core.runs import win_table_file

    return win_table_file(game_label(rules), win_rules(rules))


# --------------------------------------------------------------------------
# the policy file of N players
# --------------------------------------------------------------------------

#: Version 1 is the two-player file (:data:`WIN_TABLE_VERSION`); it stays as it is.
WIN_TABLE_VERSION_N = 2
WIN_OBJECTIVE_N = ("every player maximises his own chance of winning; a win shared by k tied "
                   "players counts 1/k (docs/macke-win.md; scores below the floor are held at it)")
_HASHED_N = ("format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
             "players", "point_unit", "target_units", "floor_units", "cap_units", "W")


def chances_of(W: np.ndarray, floor: int, target: int, scores) -> list[float]:
    f = floor // POINT_UNIT
    n = W.shape[0]
    idx = tuple(max(x // POINT_UNIT, f) - f for x in scores)
    if len(idx) != W.ndim - 1 or not all(i < n for i in idx):
        raise ValueError(f"give {W.ndim - 1} scores, each below the target {target:,}")
    return [float(x) for x in W[idx]]


@dataclass(frozen=True)
class MackeWinNTable:
    """A win table of ``players`` players: ``W`` in the layout of
    :class:`MackeWinNSolution` (read from a version-2 file, or from a
    two-player version-1 file with the opponent's chance as one minus the mover's)."""

    rules: MackeRules
    players: int
    floor: int
    cap_units: int
    W: np.ndarray
    summary: dict = field(default_factory=dict)

    @property
    def target(self) -> int:
        return self.rules.target

    def chances(self, scores) -> list[float]:
        """Every player's chance, mover first, for scores in points from the mover on."""
        return chances_of(self.W, self.floor, self.target, scores)


def _hash_n(d: dict) -> str:
    return fields_sha256(d, _HASHED_N)


def win_table_n_dict(sol) -> dict:
    """The JSON document of the N-player win policy file of a
    :class:`solve_n.MackeWinNSolution` (schema/macke-win-n-policy.schema.json)."""
    r, N = sol.rules, sol.players
    return win_table_document(r.GAME, r, WIN_TABLE_KIND, WIN_TABLE_VERSION_N, WIN_OBJECTIVE_N, {
        "players": N, "point_unit": POINT_UNIT, "target_units": r.target // POINT_UNIT,
        "floor_units": sol.floor // POINT_UNIT, "cap_units": sol.cap_units,
        "W": np.clip(sol.W.reshape(-1, N), 0.0, 1.0).tolist(), "summary": sol.summary(),
    }, _hash_n)


def write_win_table_n(sol, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    write_compact(path, win_table_n_dict(sol))


def win_n_schema() -> dict:
    """The JSON Schema of the N-player win policy file."""
    return schema_of(SCHEMA_PACKAGE, "macke-win-n-policy.schema.json")


def load_win_table_n(path, rules: MackeRules | None = None,
                     players: int | None = None) -> MackeWinNTable:
    """Read a Macke / Volle Lotte win table of any number of players (a
    two-player version-1 file too); :class:`PolicyFileError` in one line for a
    damaged file, another kind or version, shapes that do not fit, rules other
    than ``rules`` (the fields of ``rules.WIN_FIELDS``) or other ``players``."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file

    check_win_kind(path, WIN_TABLE_KIND, "write one with: tutto-sim solve --objective win --game macke")
    try:
        version = json.loads(open(path, encoding="utf-8").read()).get("win_table_version")
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        version = None
    if version == 1:
        t = load_win_table(path, rules)
        found, W = 2, np.stack([t.W, 1.0 - t.W], axis=-1)
        out = MackeWinNTable(t.rules, 2, t.floor, t.cap_units, W, t.summary)
    else:
        d, file_rules, path = read_policy_file(path, MackeRules.GAME, win_n_schema(), MackeRules,
                                               _hash_n, asked=rules)
        floor, found = d["floor_units"] * POINT_UNIT, d["players"]
        try:
            check_win_rules(file_rules, floor)
        except ValueError as e:
            raise PolicyFileError(f"policy file {path}: {e}") from None
        n = file_rules.target // POINT_UNIT - d["floor_units"]
        w = d["W"]
        if d["target_units"] != file_rules.target // POINT_UNIT or len(w) != n ** found or any(
                len(row) != found for row in w):
            raise PolicyFileError(f"policy file {path}: W must have {n ** found:,} rows of "
                                  f"{found} chances for {found} players, target "
                                  f"{file_rules.target:,} and floor {floor:,}")
        W = np.array(w, dtype=float).reshape((n,) * found + (found,))
        out = MackeWinNTable(file_rules, found, floor, int(d["cap_units"]), W, d["summary"])
        check_win_fields(path, rules, file_rules, WIN_FIELDS)
    if players is not None and players != found:
        raise PolicyFileError(f"win table {path} is for {found} players, not {players}")
    return out


def default_win_file_n(rules: MackeRules, players: int):
    """(path, run digest) of the ``players``-player win table of ``rules``:
    ``results/GAME-win-TARGET-Np-<run>.json``; two players: the two-player
    solver's ``results/GAME-win-TARGET-<run>.json``."""
    from tutto_sim.core.cli import game_label
    from tutto_sim.core.runs import RESULTS_DIR, run_digest, run_file

    if players == 2:
        return default_win_file(rules)
    label, wr = game_label(rules), win_rules(rules)
    digest = run_digest("win-table", game=label, rules=wr, players=players)
    return run_file(RESULTS_DIR, f"{label}-win-{wr.target}-{players}p", digest, ".json"), digest
