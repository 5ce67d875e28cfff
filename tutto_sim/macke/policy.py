"""Exact (optimal) Berliner Macke policies: the table model, and the versioned file.

Part of the policy layer. A :class:`MackeTablePolicy` holds the solver's
decision arrays (``macke.decisions``) with the rules they were solved
for. It answers the questions of the Macke protocol
(``macke.api``), so the reference engine ``macke.reference`` can
play it, and hands the same arrays to the numba table kernel
(``macke.table_kernel``).

:meth:`MackeTablePolicy.write` saves it as JSON (the format of the Tutto
policy files, ``format: "tutto-sim-policy"``, ``version: 1``, with
``game: "macke"``; schema in ``docs/macke-policy.schema.json``, guide in
``docs/macke-solver.md``) or as a long CSV table; :func:`load_macke_policy`
reads the JSON back and refuses, with
:class:`~tutto_sim.core.policyfile.PolicyFileError`, anything it cannot trust: a
damaged or truncated file, an unknown format version, another game, a schema
violation, a content hash or rules hash that does not match, tables (units,
states, throws, keeps) other than this version builds for the rules, a
decision that is not legal, or rules other than the ones the caller plays.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tutto_sim import __version__
from tutto_sim.core.policyfile import FORMAT, VERSION, PolicyFileError, read_policy_file
from tutto_sim.core.policyfile import fields_sha256, schema_of, write_policy
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import NEVER, MackeDecisions, keep_template, slot_layout, throw_tables
from tutto_sim.macke.tables import MackeTables, build_macke_tables

GAME = "macke"
OBJECTIVE = (
    "maximise the expected signed result of one turn (docs/macke.md, the turn's result): "
    "a turn total >= rules.min_score is added, a lower one subtracted; a Macke on the "
    "turn's first throw scores 0, on a later throw subtracts the turn total after returns "
    "(0 with bust=zero); variant instant-win: five 1s in one throw are worth rules.win_value"
)
#: A decision index as one character: index i is ALPHABET[i]; a Macke throw is MACKE.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
MACKE = "-"
_DECODE = np.full(128, -2, dtype=np.int16)
for _i, _c in enumerate(ALPHABET):
    _DECODE[ord(_c)] = _i
_DECODE[ord(MACKE)] = -1


def throw_names(rules: MackeRules) -> list[str]:
    """Throw ids 0.. (1..N dice, ``dice.throws`` order) -> sorted dice as text."""
    t = throw_tables(rules)
    n = int(t.start[rules.n_dice + 1])
    return ["".join(str(f + 1) * int(c) for f, c in enumerate(row)) for row in t.counts[:n]]


@functools.lru_cache(maxsize=16)
def _tables_json(rules: MackeRules) -> str:
    m = build_macke_tables(rules)
    n = int(throw_tables(rules).start[rules.n_dice + 1])
    d = {
        "units": [[u.name, u.dice, u.points * POINT_UNIT] for u in m.types],
        "states": m.state_counts.tolist(),
        "throws": throw_names(rules),
        "keeps": [m.keep_states[m.keep_start[ms]:m.keep_start[ms + 1]].tolist() for ms in range(n)],
        "returns": [m.sub_states[m.sub_start[s]:m.sub_start[s + 1]].tolist()
                    for s in range(len(m.state_dice))],
    }
    return json.dumps(d)


def tables_of(rules: MackeRules) -> dict:
    """The self-describing tables of a policy file: units, states, throws, keeps, returns."""
    return json.loads(_tables_json(rules))


def _encode(a: np.ndarray) -> list[str]:
    """Rows of decision indices (-1: Macke) -> strings."""
    chars = np.array(list(ALPHABET) + [MACKE])
    return ["".join(r) for r in chars[a].tolist()]


def _bits(a: np.ndarray) -> list[str]:
    return ["".join("1" if x else "0" for x in r) for r in np.atleast_2d(a).tolist()]


@dataclass
class MackeTablePolicy:
    """The optimal Macke decisions: plays the protocol, feeds the kernel, saves the file.

    ``decisions`` are cut arrays (``macke.decisions``): a locked total
    above the last row uses the last row, a clear total above the last entry
    the last entry.
    """

    rules: MackeRules
    decisions: MackeDecisions
    summary: dict = field(default_factory=dict)

    @classmethod
    def from_solution(cls, sol) -> "MackeTablePolicy":
        from tutto_sim.macke.decisions import decision_arrays

        return cls(sol.rules, decision_arrays(sol), solution_summary(sol))

    @functools.cached_property
    def tables(self) -> MackeTables:
        return build_macke_tables(self.rules)

    @functools.cached_property
    def _layout(self):
        off, _ = slot_layout(self.tables)
        return off, throw_tables(self.rules).start

    @property
    def locked_rows(self) -> int:
        return self.decisions.keep.shape[0]

    def _row(self, locked: int) -> int:
        return min(locked // POINT_UNIT, self.locked_rows - 1)

    # ---- the MackePolicy protocol -------------------------------------
    def before_throw(self, view: TurnView) -> int:
        t = self.tables
        i = int(self.decisions.ret[self._row(view.locked), view.throws_left, view.aside])
        return int(t.sub_states[t.sub_start[view.aside] + i])

    def keep(self, view: TurnView, throw: int, keeps: list[int]) -> int:
        # view.throws_left counts after the throw just made; the arrays count it
        t = self.tables
        off, start = self._layout
        n = self.rules.n_dice - int(t.state_dice[view.aside])
        slot = int(off[view.aside]) + throw - int(start[n])
        i = int(self.decisions.keep[self._row(view.locked), view.throws_left + 1, slot])
        k = int(t.keep_states[t.keep_start[throw] + i])
        if k not in keeps:
            raise ValueError(f"throw {throw}: the table's keep {k} is not among the legal keeps")
        return k

    def bank(self, view: TurnView) -> bool:
        t = self.tables
        if int(t.state_dice[view.aside]) == self.rules.n_dice:
            clear = self.decisions.clear_bank
            total = view.turn_total(t) // POINT_UNIT
            return bool(clear[min(total, len(clear) - 1)])
        return bool(self.decisions.bank[self._row(view.locked), view.throws_left, view.aside])

    # ---- for the kernel ------------------------------------------------
    def kernel_arrays(self):
        """(keep, ret, bank, clear_bank) as ``macke.table_kernel`` reads them."""
        d = self.decisions
        return tuple(np.ascontiguousarray(a) for a in (d.keep, d.ret, d.bank, d.clear_bank))

    # ---- the JSON file -------------------------------------------------
    def to_json_dict(self) -> dict:
        d = self.decisions
        n_all, n_throws = self.rules.n_dice, self.rules.throws
        off, start = self._layout
        m = self.tables
        first = slice(int(off[m.empty]), int(off[m.empty]) + int(start[n_all + 1] - start[n_all]))
        keep = {}
        for j in range(1, n_throws + 1):  # throw j of a series: tl = L - j + 1
            tl = n_throws - j + 1
            keep[str(j)] = _encode(d.keep[:, tl, first] if j == 1 else d.keep[:, tl])
        out = {
            "format": FORMAT,
            "version": VERSION,
            "game": GAME,
            "created_by": f"tutto-sim {__version__}",
            "rules": self.rules.to_dict(),
            "rules_sha256": self.rules.digest(),
            "objective": OBJECTIVE,
            "point_unit": POINT_UNIT,
            "dice": n_all,
            "throws_per_series": n_throws,
            **tables_of(self.rules),
            "locked_rows": self.locked_rows,
            "keep": keep,
            "return": {str(j): _encode(d.ret[:, n_throws - j + 1]) for j in range(2, n_throws + 1)},
            "bank": {str(j): _bits(d.bank[:, n_throws - j]) for j in range(1, n_throws)},
            "clear": _bits(d.clear_bank)[0],
            "summary": self.summary,
        }
        out["content_sha256"] = content_hash(out)
        return out

    def write(self, path: Path, fmt: str = "json") -> Path:
        return write_policy(path, fmt, self.to_json_dict, self.to_frame)

    def to_frame(self):
        """One row per decision state, long format.

        Columns: ``kind`` (keep, return, bank, clear), ``throw_of_series``
        (the throw the decision is at, before or after), ``locked`` (points of
        earlier series; the clear's turn total for ``clear``), ``aside`` (the
        set-aside units, by name), ``throw`` (sorted dice, keep only),
        ``action`` (keep: the units set aside, return: the units kept aside,
        "" for a Macke; bank/clear: 1 = bank, 0 = go on).
        """
        import pandas as pd

        m = self.tables
        d = self.decisions
        n_all, n_throws = self.rules.n_dice, self.rules.throws
        off, start = self._layout
        names = np.array([m.state_name(s) for s in range(len(m.state_dice))], dtype=object)
        throws = np.array(throw_names(self.rules), dtype=object)
        rows = self.locked_rows
        locked = np.arange(rows) * POINT_UNIT
        recs = []
        for tl in range(1, n_throws + 1):
            j = n_throws - tl + 1
            for u in range(len(m.state_dice)):
                if m.state_dice[u] == n_all or (j == 1 and u != m.empty):
                    continue
                n = n_all - int(m.state_dice[u])
                ids = np.arange(start[n], start[n + 1])
                idx = d.keep[:, tl, off[u]:off[u] + len(ids)]  # (rows, throws)
                ks = np.where(idx >= 0, m.keep_start[ids][None, :] + np.maximum(idx, 0), 0)
                act = np.where(idx >= 0, names[m.keep_states[ks]], "")
                recs.append(pd.DataFrame({
                    "kind": "keep", "throw_of_series": j, "locked": np.repeat(locked, len(ids)),
                    "aside": names[u], "throw": np.tile(throws[ids], rows),
                    "action": act.ravel()}))
        for tl in range(1, n_throws):
            j = n_throws - tl + 1
            us = np.nonzero((m.state_dice > 0) & (m.state_dice < n_all))[0]
            kept = m.sub_states[m.sub_start[us][None, :] + d.ret[:, tl, us]]
            recs.append(pd.DataFrame({
                "kind": "return", "throw_of_series": j, "locked": np.repeat(locked, len(us)),
                "aside": np.tile(names[us], rows), "throw": "", "action": names[kept].ravel()}))
            recs.append(pd.DataFrame({
                "kind": "bank", "throw_of_series": n_throws - tl,
                "locked": np.repeat(locked, len(us)), "aside": np.tile(names[us], rows),
                "throw": "", "action": d.bank[:, tl, us].astype(int).ravel().astype(str)}))
        recs.append(pd.DataFrame({
            "kind": "clear", "throw_of_series": 0,
            "locked": np.arange(len(d.clear_bank)) * POINT_UNIT, "aside": "", "throw": "",
            "action": d.clear_bank.astype(int).astype(str)}))
        return pd.concat(recs, ignore_index=True)


def solution_summary(sol) -> dict:
    """The compact, human-readable part of a policy file: values and thresholds."""
    def th(v):
        return None if v >= NEVER else int(v)

    n_all, n_throws = sol.rules.n_dice, sol.rules.throws
    returns = sol.returns_summary()
    return {
        "turn_ev": float(sol.turn_ev),
        "p_positive": float(sol.p_positive),
        "p_negative": float(sol.p_negative),
        "p_zero": float(sol.p_zero),
        "mean_throws": float(sol.mean_throws),
        "mean_returns": float(sol.mean_returns),
        "bank_thresholds": {str(tl): {str(d): th(sol.bank_threshold[tl, d]) for d in range(1, n_all)}
                            for tl in range(1, n_throws)},
        "bank_exceptions": [
            {"throws_left": tl, "dice_left": d, "aside": name, "from": lo, "to": hi}
            for tl, d, name, lo, hi in sol.bank_exceptions],
        "clear_bank_at": th(sol.clear_bank_at),
        "clear_exceptions": [int(x) for x in sol.clear_exceptions],
        "returns_at_start": {str(j): names for j, names in returns.by_throw.items()},
        "cap": int(sol.cap_units) * POINT_UNIT,
    }


#: The fields ``content_sha256`` covers: everything a decision depends on.
HASHED_FIELDS = ("format", "version", "game", "rules", "rules_sha256", "point_unit", "dice",
                 "throws_per_series", "units", "states", "throws", "keeps", "returns",
                 "locked_rows", "keep", "return", "bank", "clear")


def content_hash(d: dict) -> str:
    """SHA-256 of the canonical JSON of the :data:`HASHED_FIELDS` of ``d``."""
    return fields_sha256(d, HASHED_FIELDS)


def schema() -> dict:
    """The JSON Schema of the Macke policy file (also docs/macke-policy.schema.json)."""
    return schema_of(__package__, "macke-policy.schema.json")


def load_macke_policy(path: Path | str, rules: MackeRules | None = None,
                      asked: MackeRules | None = None) -> MackeTablePolicy:
    """Read and check a Macke policy file; raise :class:`PolicyFileError` if it is not sound.

    ``rules``: the rules the caller plays; a policy solved for others is refused.
    ``asked`` (default ``rules``): the rules whose game a file of another game is
    refused with (``volle-lotte``). The checks shared with Tutto's files are
    ``core.policyfile.read_policy_file``.
    """
    d, file_rules, path = read_policy_file(path, GAME, schema(), MackeRules, content_hash, rules,
                                           asked=asked)
    return _from_json(d, file_rules, path)


def _from_json(d: dict, rules: MackeRules, path: Path) -> MackeTablePolicy:
    m = build_macke_tables(rules)
    n_all, n_throws = rules.n_dice, rules.throws
    if d["dice"] != n_all or d["throws_per_series"] != n_throws:
        raise PolicyFileError(f"policy file {path}: dice and throws_per_series must be "
                              f"{n_all} and {n_throws} for its rules")
    tables = tables_of(rules)
    for name in ("units", "states", "throws", "keeps", "returns"):
        if d[name] != tables[name]:
            raise PolicyFileError(f"policy file {path}: its {name} are not the tables this "
                                  f"version builds for its rules")
    rows = d["locked_rows"]
    off, n_slots = slot_layout(m)
    start = throw_tables(rules).start
    n_states = len(m.state_dice)
    template = keep_template(m)
    n_keeps = np.diff(m.keep_start)
    n_subs = np.diff(m.sub_start)

    def decode(strings: list[str], width: int, what: str) -> np.ndarray:
        if len(strings) != rows or any(len(s) != width for s in strings):
            raise PolicyFileError(f"policy file {path}: {what} must have {rows} rows of {width} decisions")
        codes = np.frombuffer("".join(strings).encode("ascii"), dtype=np.uint8)
        return _DECODE[codes].reshape(rows, width)

    # the throw and set-aside state of each keep slot
    slot_ms = np.zeros(n_slots, dtype=np.int64)
    for u in range(n_states):
        if off[u] >= 0:
            n = n_all - int(m.state_dice[u])
            slot_ms[off[u]:off[u] + start[n + 1] - start[n]] = np.arange(start[n], start[n + 1])

    keep = np.empty((rows, n_throws + 1, n_slots), dtype=np.int8)
    keep[:] = template
    first = slice(int(off[m.empty]), int(off[m.empty]) + int(start[n_all + 1] - start[n_all]))
    for j in range(1, n_throws + 1):
        what = f"keep/{j}"
        cols = first if j == 1 else slice(0, n_slots)
        a = decode(d["keep"].get(str(j), []), cols.stop - cols.start, what)
        legal_n = n_keeps[slot_ms[cols]]
        bad = (a < -1) | (a >= legal_n[None, :]) | ((a == -1) != (legal_n == 0)[None, :])
        if bad.any():
            r, c = np.argwhere(bad)[0]
            ms = int(slot_ms[cols][c])
            raise PolicyFileError(f"policy file {path}: {what} row {r} chooses keep "
                                  f"{ALPHABET[a[r, c]] if a[r, c] >= 0 else a[r, c]!s} for throw "
                                  f"{d['throws'][ms]}, which has {legal_n[c]} legal keeps")
        keep[:, n_throws - j + 1, cols] = a
    ret = np.zeros((rows, n_throws + 1, n_states), dtype=np.int8)
    for j in range(2, n_throws + 1):
        what = f"return/{j}"
        a = decode(d["return"].get(str(j), []), n_states, what)
        bad = (a < 0) | (a >= n_subs[None, :])
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise PolicyFileError(f"policy file {path}: {what} row {r}: state {c} has no "
                                  f"return choice {d['return'][str(j)][r][c]!r}")
        ret[:, n_throws - j + 1] = a
    bank = np.zeros((rows, n_throws + 1, n_states), dtype=np.bool_)
    for j in range(1, n_throws):
        strings = d["bank"].get(str(j), [])
        if len(strings) != rows or any(len(s) != n_states for s in strings):
            raise PolicyFileError(f"policy file {path}: bank/{j} must have {rows} rows "
                                  f"of {n_states} decisions")
        bank[:, n_throws - j] = np.array([[ch == "1" for ch in s] for s in strings], dtype=np.bool_)
    extra = (set(d["keep"]) - {str(j) for j in range(1, n_throws + 1)}) | \
        (set(d["return"]) - {str(j) for j in range(2, n_throws + 1)}) | \
        (set(d["bank"]) - {str(j) for j in range(1, n_throws)})
    if extra:
        raise PolicyFileError(f"policy file {path}: decisions for throws {sorted(extra)} of a "
                              f"series with {n_throws} throws")
    clear = np.array([ch == "1" for ch in d["clear"]], dtype=np.bool_)
    dec = MackeDecisions(rules, keep, ret, bank, clear)
    return MackeTablePolicy(rules, dec, d["summary"])
