"""Rutsmieter's linear move evaluator and its policy file (bot ``weights:FILE``).

A move's **features** (docs/rutsmieter.md, "The weights bot"), for player
``p`` making move ``m`` (positions in p's own count):

``progress``       squares walked, ``end - start`` (leaving the house: 1)
``capture``        1 if the move captures
``danger_behind``  threats to the moved piece on its new ring square: opponent
                   pieces 1-6 squares behind it along their own walks, plus 1
                   per opponent whose start square it is while that opponent
                   has a piece in its house (0 in the goal lane)
``danger_ahead``   opponent pieces 1-6 squares ahead of the moved piece on
                   its ring walk (``end + d <= 39``): what it threatens next
``leave_house``    1 if the move brings a piece out of the house
``enter_goal``     1 if the move goes from the ring into the goal lane
``block_start``    1 if after the move an own piece stands on the own start
                   square while an own piece waits in the house

The score is ``Σ weight · feature`` summed in the order of :data:`FEATURES`;
the bot makes the legal move (after the obligations) with the highest score,
ties going to the piece furthest along (as ``first``).

The policy file is versioned JSON checked by ``core.policyfile.read_policy_file``
(UTF-8, JSON, format, version, game, the schema in
``schema/rutsmieter-policy.schema.json``, the content hash, the rules and
their hash) plus the house rules of the caller: a file made for other house
rules is refused in one line. The table size may differ (the features do not
depend on it). The numba kernel plays the same bot (``kernel._weights_choice``):
the same features, summed in the same order.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

from tutto_sim.core.policyfile import FORMAT, VERSION, PolicyFileError, fields_sha256, read_policy_file, schema_of

from .reference import Board, Bot, Move, Observation, apply_move, threats
from .rules import FIRST_GOAL, HOUSE, RING, RutsmieterRules

GAME = "rutsmieter"
EVALUATOR = "linear-move-evaluator"
FEATURES = ("progress", "capture", "danger_behind", "danger_ahead", "leave_house",
            "enter_goal", "block_start")
#: The fields ``content_sha256`` covers: everything a decision depends on.
HASHED_FIELDS = ("format", "version", "game", "rules", "rules_sha256", "evaluator", "features",
                 "weights")


def move_features(board: Board, player: int, move: Move) -> tuple[int, ...]:
    """The features of ``move`` (module docstring), in the order of :data:`FEATURES`."""
    after = board.copy()
    apply_move(after, player, move)
    behind = ahead = 0
    if move.end < RING:
        square = after.ring_square(player, move.end)
        behind = threats(after, player, square)
        for d in range(1, 7):
            if move.end + d >= RING:
                break
            hit = after.on_ring_square(after.ring_square(player, move.end + d))
            if hit is not None and hit[0] != player:
                ahead += 1
    own = after.pieces[player]
    return (
        move.end - move.start,
        int(move.victim is not None),
        behind,
        ahead,
        int(move.start == HOUSE),
        int(move.start < FIRST_GOAL <= move.end),
        int(0 in own and HOUSE in own),
    )


@dataclass(frozen=True)
class WeightsPolicy:
    """The weights of the linear move evaluator, for a set of rules."""

    weights: tuple[float, ...]  # in the order of FEATURES
    rules: RutsmieterRules = RutsmieterRules()
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES) or not all(
                isinstance(w, (int, float)) and math.isfinite(w) for w in self.weights):
            raise ValueError(f"a weights policy needs {len(FEATURES)} finite weights "
                             f"({', '.join(FEATURES)})")

    def score(self, features) -> float:
        total = 0.0
        for w, f in zip(self.weights, features):
            total += w * f
        return total

    def choose(self, obs: Observation) -> int:
        board = obs.board()
        best, best_key = 0, None
        for i, m in enumerate(obs.moves):
            key = (self.score(move_features(board, obs.player, m)), m.start)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    def bot(self, name: str = "weights") -> Bot:
        return Bot(name, self.choose)

    def to_json(self, created_by: str = "tutto-sim", summary: dict | None = None) -> dict:
        out = {
            "format": FORMAT, "version": VERSION, "game": GAME, "created_by": created_by,
            "rules": self.rules.to_dict(), "rules_sha256": self.rules.digest(),
            "evaluator": EVALUATOR, "features": list(FEATURES),
            "weights": {f: float(w) for f, w in zip(FEATURES, self.weights)},
        }
        if summary is not None:
            out["summary"] = summary
        out["content_sha256"] = content_hash(out)
        return out

    def write(self, path: Path | str, **kw) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_json(**kw), indent=2) + "\n", encoding="utf-8")
        return path


def content_hash(d: dict) -> str:
    """SHA-256 of the canonical JSON of the :data:`HASHED_FIELDS` of ``d``."""
    return fields_sha256(d, HASHED_FIELDS)


def schema() -> dict:
    """The JSON Schema of the Rutsmieter policy file."""
    return schema_of(__package__, "rutsmieter-policy.schema.json")


#: The shipped tuned policy (bot ``tuned``), written by ``optimize --game rutsmieter``.
DEFAULT_FILE = "rutsmieter-default.json"


def default_policy_path() -> Path:
    """Where the shipped tuned policy lives: ``data/policies/rutsmieter-default.json``."""
    from tutto_sim.core.bots import POLICY_DIR

    return POLICY_DIR / DEFAULT_FILE


def default_policy(rules: RutsmieterRules | None = None) -> WeightsPolicy:
    """The shipped tuned policy (checked like any policy file). It was tuned for
    the default house rules; other house rules get its weights too, re-labelled
    with their rules (the features mean the same under every option)."""
    rules = rules if rules is not None else RutsmieterRules()
    path = default_policy_path()
    d, file_rules, path = read_policy_file(path, GAME, schema(), RutsmieterRules, content_hash)
    if d["features"] != list(FEATURES):
        raise PolicyFileError(f"policy file {path}: features must be {', '.join(FEATURES)} "
                              "in this order")
    weights = tuple(float(d["weights"][f]) for f in FEATURES)
    return WeightsPolicy(weights, rules, str(path))


def load_weights_policy(path: Path | str, rules: RutsmieterRules | None = None) -> WeightsPolicy:
    """Read and check a policy file; :class:`PolicyFileError` (one line) if it is
    not sound or was made for other house rules than ``rules``."""
    d, file_rules, path = read_policy_file(path, GAME, schema(), RutsmieterRules, content_hash)
    if rules is not None and replace(rules, players=file_rules.players) != file_rules:
        diff = ", ".join(f"{k}={v!r} (file: {d['rules'].get(k)!r})"
                         for k, v in rules.to_dict().items()
                         if k != "players" and d["rules"].get(k) != v)
        raise PolicyFileError(f"policy file {path} was made for other rules: {diff}")
    if d["features"] != list(FEATURES):
        raise PolicyFileError(f"policy file {path}: features must be {', '.join(FEATURES)} "
                              "in this order")
    weights = tuple(float(d["weights"][f]) for f in FEATURES)
    return WeightsPolicy(weights, rules if rules is not None else file_rules, str(path))
