"""Exact (optimal) policy tables: the model, and the versioned file bots load.

Part of the policy layer. An :class:`ExactPolicy` holds the solver's
decision arrays (``tutto.decisions``) with the rules they were solved for.
:meth:`ExactPolicy.write` saves it as JSON (the format bots load; schema in
``docs/policy.schema.json``, guide in ``docs/policy-format.md``) or as a long
CSV / Parquet table for analysis; :func:`load_policy` reads the JSON back and
refuses, with :class:`PolicyFileError`, anything it cannot trust: a damaged or
truncated file, an unknown format version, a schema violation, a content hash
or rules hash that does not match, a decision that is not legal for its throw,
or rules other than the ones the caller plays.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tutto_sim import __version__
from tutto_sim.core.bots import POLICY_DIR
from tutto_sim.core.policyfile import FORMAT, VERSION, PolicyFileError, read_policy_file
from tutto_sim.core.policyfile import fields_sha256, schema_of, write_policy
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import MAX_DICE, ThrowTables, build_tables
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import TuttoRules

OBJECTIVE = (
    "maximise the expected banked points of one turn (docs/rules.md section 6, "
    "turn-analysis conventions: later cards drawn independently with the deck frequencies; "
    "a Kleeblatt success is worth rules.cloverleaf_value)"
)
BANKABLE = [c for c in Card if c.can_bank_before_tutto]
TUTTO_ONLY = [Card.PLUSMINUS, Card.CLOVERLEAF, Card.FIREWORKS]


def throw_names(tables: ThrowTables) -> list[str]:
    """Throw ids -> sorted dice as text ("11356"), in table order."""
    return ["".join(str(f + 1) * int(c) for f, c in enumerate(row)) for row in tables.counts]


def best_keep_dice(dice: str, k: int, points_units: int, scoring) -> str:
    """The dice of a keep of ``k`` dice worth ``points_units`` (the best such keep)."""
    from itertools import combinations

    from tutto_sim.dice.reference import best_split

    for sub in sorted(set(combinations(dice, k))):
        pts = best_split(tuple(int(x) for x in sub), scoring)
        if pts is not None and pts // POINT_UNIT == points_units:
            return "".join(sub)
    raise AssertionError(f"no keep of {k} dice worth {points_units} units in {dice}")


@dataclass
class ExactPolicy:
    """The optimal decisions, ready to play (kernel) or to save (file)."""

    rules: TuttoRules
    t_max: int
    keep: np.ndarray
    bank: np.ndarray
    draw: np.ndarray
    street_take: np.ndarray
    keep_x2p: np.ndarray | None = None
    bank_x2p: np.ndarray | None = None
    summary: dict = field(default_factory=dict)

    @classmethod
    def from_solution(cls, sol) -> "ExactPolicy":
        from tutto_sim.tutto.decisions import decision_arrays

        a = decision_arrays(sol)
        return cls(sol.rules, a.t_max, a.keep, a.bank, a.draw, a.street_take,
                   a.keep_x2p, a.bank_x2p, solution_summary(sol))

    # ---- the JSON file -------------------------------------------------
    def to_json_dict(self) -> dict:
        names = throw_names(build_tables(self.rules.scoring))
        keeps = keeps_table(self.rules.scoring)

        def rows(a: np.ndarray) -> list[str]:
            return ["".join(map(str, r)) for r in a.tolist()]

        def bits(a: np.ndarray) -> str:
            return "".join("1" if x else "0" for x in a.tolist())

        d = {
            "format": FORMAT,
            "version": VERSION,
            "game": "tutto",
            "created_by": f"tutto-sim {__version__}",
            "rules": self.rules.to_dict(),
            "rules_sha256": self.rules.digest(),
            "objective": OBJECTIVE,
            "point_unit": POINT_UNIT,
            "turn_total_rows": self.t_max + 1,
            "throws": names,
            "keeps": keeps,
            "keep": {c.cli_name: rows(self.keep[c]) for c in BANKABLE},
            "tutto_keep": {c.cli_name: rows(self.keep[c][:1])[0] for c in TUTTO_ONLY},
            "bank": {c.cli_name: {str(n): bits(self.bank[c, n]) for n in range(1, 6)}
                     for c in BANKABLE},
            "draw": bits(self.draw),
            "street_take": self.street_take.astype(int).tolist(),
            "x2_by_card_points": None,
            "summary": self.summary,
        }
        if self.keep_x2p is not None:
            d["x2_by_card_points"] = [
                {"keep": rows(self.keep_x2p[p]),
                 "bank": {str(n): bits(self.bank_x2p[p, n]) for n in range(1, 6)}}
                for p in range(self.keep_x2p.shape[0])
            ]
        d["content_sha256"] = content_hash(d)
        return d

    def write(self, path: Path, fmt: str = "json") -> Path:
        return write_policy(path, fmt, self.to_json_dict, self.to_frame, ("json", "csv", "parquet"))

    def to_frame(self):
        """One row per decision state: (kind, card, card_points, dice, turn_total, throw, action)."""
        import pandas as pd

        names = np.array(throw_names(build_tables(self.rules.scoring)))
        lens = np.array([len(x) for x in names])
        totals = np.arange(self.t_max + 1) * POINT_UNIT
        recs = []

        def keep_rows(card: str, points: int, k: np.ndarray) -> None:
            rows = k.shape[0]
            recs.append(pd.DataFrame({
                "kind": "keep", "card": card, "card_points": points,
                "dice": np.tile(lens, rows), "turn_total": np.repeat(totals[:rows], len(names)),
                "throw": np.tile(names, rows), "action": k.ravel().astype(int)}))

        def bank_rows(card: str, points: int, bank: np.ndarray) -> None:
            for n in range(1, 6):
                recs.append(pd.DataFrame({
                    "kind": "bank", "card": card, "card_points": points, "dice": n,
                    "turn_total": totals, "throw": "", "action": bank[n].astype(int)}))

        by_points = self.keep_x2p is not None
        for c in BANKABLE:
            if by_points and c is Card.X2:
                for p in range(self.keep_x2p.shape[0]):
                    keep_rows("x2", p * POINT_UNIT, self.keep_x2p[p])
                    bank_rows("x2", p * POINT_UNIT, self.bank_x2p[p])
            else:
                keep_rows(c.cli_name, 0, self.keep[c])
                bank_rows(c.cli_name, 0, self.bank[c])
        for c in TUTTO_ONLY:
            recs.append(pd.DataFrame({"kind": "keep", "card": c.cli_name, "card_points": 0,
                                      "dice": lens, "turn_total": 0, "throw": names,
                                      "action": self.keep[c, 0].astype(int)}))
        recs.append(pd.DataFrame({"kind": "draw", "card": "", "card_points": 0, "dice": 6,
                                  "turn_total": totals, "throw": "",
                                  "action": self.draw.astype(int)}))
        m, j = np.nonzero(self.street_take)
        recs.append(pd.DataFrame({"kind": "street_take", "card": "street", "card_points": 0,
                                  "dice": 6 - m, "turn_total": 0, "throw": [f"{jj} new" for jj in j],
                                  "action": self.street_take[m, j].astype(int)}))
        return pd.concat(recs, ignore_index=True)

    # ---- for the kernel ------------------------------------------------
    def kernel_arrays(self):
        """(keep, bank, draw, street_take, keep_x2p, bank_x2p) as the table kernel wants."""
        kx = self.keep_x2p if self.keep_x2p is not None else np.zeros((1, 1, 1), np.int8)
        bx = self.bank_x2p if self.bank_x2p is not None else np.zeros((1, 1, 1), np.bool_)
        return (np.ascontiguousarray(self.keep), np.ascontiguousarray(self.bank),
                np.ascontiguousarray(self.draw), np.ascontiguousarray(self.street_take),
                np.ascontiguousarray(kx), np.ascontiguousarray(bx))


@functools.lru_cache(maxsize=4)
def _keeps_json(scoring) -> str:
    t = build_tables(scoring)
    keeps = []
    for ms, name in enumerate(throw_names(t)):
        row = []
        for k in range(1, MAX_DICE + 1):
            pts = int(t.best_pts[ms, k])
            if pts >= 0:
                row.append([k, best_keep_dice(name, k, pts, scoring), pts * POINT_UNIT])
        keeps.append(row)
    return json.dumps(keeps)


def keeps_table(scoring) -> list:
    """Per throw id: ``[dice, faces set aside, points]`` of the best keep of each size."""
    return json.loads(_keeps_json(scoring))


def solution_summary(sol) -> dict:
    """The compact, human-readable part of a policy: thresholds and values."""
    def th(v):
        return None if v >= 1 << 40 else int(v)

    cards = {}
    for c in Card:
        entry = {"ev": float(sol.card_ev[c])}
        if c.can_bank_before_tutto:
            entry["bank_thresholds"] = {str(n): th(sol.bank_threshold[c, n]) for n in range(1, 6)}
        cards[c.cli_name] = entry
    return {
        "turn_ev": float(sol.turn_ev),
        "p_tutto": float(sol.p_tutto),
        "p_street": float(sol.p_street),
        "p_cloverleaf": float(sol.p_cloverleaf),
        "draw_below": th(sol.draw_below),
        "draw_exceptions": [int(x) for x in sol.draw_exceptions],
        "bank_exceptions": [
            {"card": c.cli_name, "dice_left": int(d), "turn_total": int(t),
             "card_points": None if p is None else int(p)}
            for c, d, t, p in sol.bank_exceptions
        ],
        "cards": cards,
        "cap": int(sol.cap_units) * POINT_UNIT,
    }


#: The fields ``content_sha256`` covers: everything a decision depends on. They
#: hold only strings, integers, lists, objects and null, so their canonical
#: JSON (sorted keys, no spaces, ASCII) is the same in every language.
HASHED_FIELDS = ("format", "version", "game", "rules", "rules_sha256", "point_unit",
                 "turn_total_rows", "throws", "keeps", "keep", "tutto_keep", "bank", "draw",
                 "street_take", "x2_by_card_points")


def content_hash(d: dict) -> str:
    """SHA-256 of the canonical JSON of the :data:`HASHED_FIELDS` of ``d``."""
    return fields_sha256(d, HASHED_FIELDS)


def schema() -> dict:
    """The JSON Schema of the policy file (also shipped as docs/policy.schema.json)."""
    return schema_of(__package__, "policy.schema.json")


def load_policy(path: Path | str, rules: TuttoRules | None = None) -> ExactPolicy:
    """Read and check a policy file; raise :class:`PolicyFileError` if it is not sound.

    ``rules``: the rules the caller plays; a policy solved for others is refused.
    """
    d, file_rules, path = read_policy_file(path, "tutto", schema(), TuttoRules, content_hash, rules)
    return _from_json(d, file_rules, path)


def _from_json(d: dict, rules: TuttoRules, path: Path) -> ExactPolicy:
    t = build_tables(rules.scoring)
    names = throw_names(t)
    n_ms = len(names)
    if d["throws"] != names:
        raise PolicyFileError(f"policy file {path}: its list of throws is not this version's")
    if d["keeps"] != keeps_table(rules.scoring):
        raise PolicyFileError(f"policy file {path}: its keeps (dice and points per throw) are wrong for these rules")
    rows = d["turn_total_rows"]
    legal = [{k for k in range(1, MAX_DICE + 1) if t.best_pts[ms, k] >= 0} for ms in range(n_ms)]

    def keep_rows(strings: list[str], what: str) -> np.ndarray:
        if len(strings) != rows or any(len(s) != n_ms for s in strings):
            raise PolicyFileError(f"policy file {path}: {what} must have {rows} rows of {n_ms} decisions")
        a = np.array([[ord(ch) - 48 for ch in s] for s in strings], dtype=np.int8)
        for ms in range(n_ms):
            col = set(np.unique(a[:, ms]).tolist())
            ok = legal[ms] if legal[ms] else {0}
            if not col <= ok:
                raise PolicyFileError(
                    f"policy file {path}: {what} sets aside {sorted(col - ok)} dice from throw "
                    f"{names[ms]}, which is not a legal keep"
                )
        return a

    def bank_rows(b: dict, what: str) -> np.ndarray:
        a = np.zeros((MAX_DICE, rows), dtype=np.bool_)
        for n in range(1, 6):
            s = b[str(n)]
            if len(s) != rows:
                raise PolicyFileError(f"policy file {path}: {what} dice {n} must have {rows} decisions")
            a[n] = [ch == "1" for ch in s]
        return a

    keep = np.zeros((N_CARDS, rows, n_ms), dtype=np.int8)
    bank = np.zeros((N_CARDS, MAX_DICE, rows), dtype=np.bool_)
    for c in BANKABLE:
        keep[c] = keep_rows(d["keep"][c.cli_name], f"keep/{c.cli_name}")
        bank[c] = bank_rows(d["bank"][c.cli_name], f"bank/{c.cli_name}")
    for c in TUTTO_ONLY:
        keep[c] = keep_rows([d["tutto_keep"][c.cli_name]] * rows, f"tutto_keep/{c.cli_name}")
    if len(d["draw"]) != rows:
        raise PolicyFileError(f"policy file {path}: draw must have {rows} decisions")
    draw = np.array([ch == "1" for ch in d["draw"]], dtype=np.bool_)
    street = np.array(d["street_take"], dtype=np.int8)
    for m in range(7):
        for j in range(7):
            possible = j >= 1 and m + j <= 6
            if not (1 <= street[m, j] <= j if possible else street[m, j] == 0):
                raise PolicyFileError(f"policy file {path}: street_take[{m}][{j}] = {street[m, j]} is not legal")
    keep_x2p = bank_x2p = None
    if (d["x2_by_card_points"] is not None) != (rules.x2_scope == "card"):
        raise PolicyFileError(f"policy file {path}: x2_by_card_points must be present exactly for x2_scope=card")
    if d["x2_by_card_points"] is not None:
        parts = d["x2_by_card_points"]
        from tutto_sim.tutto.solver import max_card_points

        if len(parts) != max_card_points(t) + 1:
            raise PolicyFileError(f"policy file {path}: x2_by_card_points needs {max_card_points(t) + 1} "
                                  f"entries (card points 0..{max_card_points(t) * POINT_UNIT}), not {len(parts)}")
        keep_x2p = np.stack([keep_rows(p["keep"], f"x2_by_card_points/{i}/keep") for i, p in enumerate(parts)])
        bank_x2p = np.stack([bank_rows(p["bank"], f"x2_by_card_points/{i}/bank") for i, p in enumerate(parts)])
    if not np.array_equal(keep[Card.FIREWORKS, 0], t.keep_dice[0]):
        raise PolicyFileError(f"policy file {path}: the Feuerwerk keep must be the forced one (every scoring die)")
    return ExactPolicy(rules, rows - 1, keep, bank, draw, street, keep_x2p, bank_x2p, d["summary"])


#: The file ``optimal`` loads when the rules' turn part is the default.
DEFAULT_POLICY_FILE = POLICY_DIR / "tutto-default.json"
#: Rule fields a turn policy depends on (the others only matter for whole games).
TURN_FIELDS = ("six_of_kind", "x2_scope", "plusminus_chain")


def turn_rules(rules: TuttoRules) -> TuttoRules:
    """The rules with every game-level field at its default: what a turn policy sees."""
    return TuttoRules(**{f: getattr(rules, f) for f in TURN_FIELDS})


def optimal_policy(rules: TuttoRules) -> ExactPolicy:
    """The optimal turn policy for these rules: the shipped file when it fits, else solved."""
    return _optimal(turn_rules(rules))


@functools.lru_cache(maxsize=8)
def _optimal(tr: TuttoRules) -> ExactPolicy:
    if tr == TuttoRules() and DEFAULT_POLICY_FILE.exists():
        return load_policy(DEFAULT_POLICY_FILE, tr)
    from tutto_sim.tutto.solver import solve_tutto

    return ExactPolicy.from_solution(solve_tutto(tr))
