"""Rutsmieter's linear move evaluator and its policy file (bot ``weights:FILE``).

A move's **features** (docs/rutsmieter.md, "The weights bot", has them all), for
player ``p`` making move ``m`` (positions in p's own count): first what the
move does,

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
``capture_progress``  the captured piece's position + 1 (0 without a capture)
``capture_leader`` 1 if the captured piece's owner leads the opponents
                   (:func:`_rank`: goal-lane pieces, then progress)

then :data:`POSITION_FEATURES`, the board after the move for ``p``
(:func:`position_features`; a piece's progress is its position + 1): own
ring pieces' threats times their progress, own ring pieces 1-6 ahead of the
start square of an opponent with a piece in its house, threats from the next
player to throw, own goal pieces that can still move up, the own progress,
goal and house pieces, own threatened pieces, the opponents' progress (sum,
leader's), the most goal pieces of an opponent, the opponents' house pieces,
and the opponents' ring pieces ``p`` threatens times their progress. All are
integers.

The score is ``Σ weight · feature`` summed in the order of :data:`FEATURES`;
the bot makes the legal move (after the obligations) with the highest score,
ties going to the piece furthest along (as ``first``).

The policy file is versioned JSON checked by ``core.policyfile.read_policy_file``
(UTF-8, JSON, format, version, game, the schema in
``schema/rutsmieter-policy.schema.json``, the content hash, the rules and
their hash) plus the house rules of the caller: a file made for other house
rules is refused in one line. A file may hold a weight set per table size
(``weights_by_players``); the bot plays the one of its table. The numba
kernel plays the same bot (``kernel._weights_choice``): the same features,
summed in the same order.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

from tutto_sim.core.policyfile import FORMAT, VERSION, PolicyFileError, fields_sha256, read_policy_file, schema_of

from .reference import Board, Bot, Move, Observation, apply_move, threats, threats_by
from .rules import FIRST_GOAL, HOUSE, LAST_POSITION, RING, RutsmieterRules

GAME = "rutsmieter"
EVALUATOR = "linear-move-evaluator"
#: The features of the first policy files (version 1 of the evaluator): a file
#: may give these seven only, the others then weigh 0.
FEATURES_V1 = ("progress", "capture", "danger_behind", "danger_ahead", "leave_house",
               "enter_goal", "block_start")
#: What the move does and what the board looks like after it (module docstring).
FEATURES = FEATURES_V1 + (
    "capture_progress", "capture_leader", "risk_progress", "start_danger", "next_danger",
    "goal_loose", "own_progress", "own_goal", "own_house", "own_threatened", "opp_progress",
    "lead_progress", "lead_goal", "opp_house", "opp_risk")
#: The features that depend on the position after the move only (not on the
#: move that led there): a position's value, which self-play learns (``td``).
POSITION_FEATURES = FEATURES[FEATURES.index("risk_progress"):]
#: The fields ``content_sha256`` covers: everything a decision depends on
#: (``weights_by_players`` where the file has it).
HASHED_FIELDS = ("format", "version", "game", "rules", "rules_sha256", "evaluator", "features",
                 "weights")
TABLE_FIELD = "weights_by_players"


def _goal_count(pieces) -> int:
    return sum(x >= FIRST_GOAL for x in pieces)


def _rank(pieces) -> int:
    """How far a player is (as the places at the end): pieces in the goal lane, then progress."""
    return 1000 * _goal_count(pieces) + sum(pieces)


def next_player(board: Board, player: int) -> int:
    """The next player clockwise who has not finished (``player`` itself if none)."""
    n = len(board.seats)
    for step in range(1, n):
        q = (player + step) % n
        if not board.finished(q):
            return q
    return player


def position_features(after: Board, player: int) -> tuple[int, ...]:
    """The :data:`POSITION_FEATURES` of a position for ``player`` (who has just moved)."""
    own = after.pieces[player]
    others = [o for o in range(len(after.seats)) if o != player]
    ring = [x for x in own if 0 <= x < RING]
    risk = [threats(after, player, after.ring_square(player, x)) for x in ring]
    start_danger = sum(1 for x in ring for o in others if HOUSE in after.pieces[o]
                       and 1 <= after.own_position(o, after.ring_square(player, x)) <= 6)
    q = next_player(after, player)
    next_danger = 0 if q == player else sum(
        threats_by(after, q, after.ring_square(player, x)) for x in ring)
    goal_loose = sum(1 for x in own if x >= FIRST_GOAL
                     and any(y not in own for y in range(x + 1, LAST_POSITION + 1)))
    progress = [sum(x + 1 for x in after.pieces[o]) for o in others]
    opp_risk = sum(threats_by(after, player, after.ring_square(o, y)) * (y + 1)
                   for o in others for y in after.pieces[o] if 0 <= y < RING)
    return (
        sum(r * (x + 1) for r, x in zip(risk, ring)),
        start_danger,
        next_danger,
        goal_loose,
        sum(x + 1 for x in own),
        _goal_count(own),
        sum(x == HOUSE for x in own),
        sum(r > 0 for r in risk),
        sum(progress),
        max(progress, default=0),
        max((_goal_count(after.pieces[o]) for o in others), default=0),
        sum(sum(y == HOUSE for y in after.pieces[o]) for o in others),
        opp_risk,
    )


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
    capture_progress = capture_leader = 0
    if move.victim is not None:
        vp, vk = move.victim
        capture_progress = board.pieces[vp][vk] + 1
        lead = max(_rank(board.pieces[o]) for o in range(len(board.seats))
                   if o != player and not board.finished(o))
        capture_leader = int(_rank(board.pieces[vp]) == lead)
    return (
        move.end - move.start,
        int(move.victim is not None),
        behind,
        ahead,
        int(move.start == HOUSE),
        int(move.start < FIRST_GOAL <= move.end),
        int(0 in own and HOUSE in own),
        capture_progress,
        capture_leader,
    ) + position_features(after, player)


def full_weights(weights) -> tuple[float, ...]:
    """All of :data:`FEATURES`' weights: seven (:data:`FEATURES_V1`) are padded with zeros."""
    weights = tuple(weights)
    if len(weights) == len(FEATURES_V1):
        weights += (0.0,) * (len(FEATURES) - len(FEATURES_V1))
    return weights


@dataclass(frozen=True)
class WeightsPolicy:
    """The weights of the linear move evaluator, for a set of rules.

    ``weights`` are the ones the bot plays at ``rules.players``; ``by_players``
    (optional) holds a weight set per table size, as the policy file does, and
    :meth:`at` picks the one for another table."""

    weights: tuple[float, ...]  # in the order of FEATURES (or FEATURES_V1, padded)
    rules: RutsmieterRules = RutsmieterRules()
    source: str = ""
    by_players: tuple[tuple[int, tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "weights", full_weights(self.weights))
        object.__setattr__(self, "by_players", tuple(
            (int(n), full_weights(w)) for n, w in self.by_players))
        for w in (self.weights, *(w for _, w in self.by_players)):
            if len(w) != len(FEATURES) or not all(
                    isinstance(x, (int, float)) and math.isfinite(x) for x in w):
                raise ValueError(f"a weights policy needs {len(FEATURES)} finite weights "
                                 f"({', '.join(FEATURES)}), or the first {len(FEATURES_V1)}")

    def at(self, rules: RutsmieterRules) -> "WeightsPolicy":
        """The policy for ``rules``: the weight set of its table size where there is one."""
        table = dict(self.by_players)
        return replace(self, weights=table.get(rules.players, self.weights), rules=rules)

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
        if self.by_players:
            out[TABLE_FIELD] = {str(n): {f: float(x) for f, x in zip(FEATURES, w)}
                                for n, w in sorted(self.by_players)}
        if summary is not None:
            out["summary"] = summary
        out["content_sha256"] = content_hash(out)
        return out

    def write(self, path: Path | str, **kw) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_json(**kw), indent=2) + "\n", encoding="utf-8")
        return path


def content_hash(d: dict) -> str:
    """SHA-256 of the canonical JSON of the :data:`HASHED_FIELDS` of ``d``, and of
    its ``weights_by_players`` where it has them (files without keep their hash)."""
    return fields_sha256(d, HASHED_FIELDS + ((TABLE_FIELD,) if TABLE_FIELD in d else ()))


def schema() -> dict:
    """The JSON Schema of the Rutsmieter policy file."""
    return schema_of(__package__, "rutsmieter-policy.schema.json")


#: The shipped tuned policy (bot ``tuned``), written by ``optimize --game rutsmieter``.
DEFAULT_FILE = "rutsmieter-default.json"
#: The shipped weights learned by self-play (bot ``td``), written by
#: ``optimize --game rutsmieter --method td`` (``rutsmieter.td``).
TD_FILE = "rutsmieter-td.json"


def default_policy_path() -> Path:
    """Where the shipped tuned policy lives: ``tutto_sim/data/policies/rutsmieter-default.json``."""
    from tutto_sim.core.bots import POLICY_DIR

    return POLICY_DIR / DEFAULT_FILE


def weights_file(arg: str) -> Path:
    """The file of bot ``weights:FILE``: FILE as given when it exists, else the shipped file
    of that name (``tutto_sim/data/policies``), so ``weights:rutsmieter-tuned-v1.json`` plays in
    any folder, an installed package too; so does the path the saved ladders spell, written
    before the shipped files moved into the package)."""
    from tutto_sim.core.bots import POLICY_DIR

    given = Path(arg)
    shipped = POLICY_DIR / given.name
    return shipped if not given.exists() and shipped.is_file() else given


def _weights_of(d: dict, path) -> tuple[tuple[float, ...], tuple]:
    features = d["features"]
    if features not in (list(FEATURES), list(FEATURES_V1)):
        raise PolicyFileError(f"policy file {path}: features must be {', '.join(FEATURES)} "
                              f"in this order (or the first {len(FEATURES_V1)} of them)")
    sets = [d["weights"], *d.get(TABLE_FIELD, {}).values()]
    for w in sets:
        if sorted(w) != sorted(features):
            raise PolicyFileError(f"policy file {path}: every weight set needs the weights of "
                                  f"its features, {', '.join(features)}")
    weights = tuple(float(d["weights"][f]) for f in features)
    table = tuple((int(n), tuple(float(w[f]) for f in features))
                  for n, w in sorted(d.get(TABLE_FIELD, {}).items()))
    return weights, table


def default_policy(rules: RutsmieterRules | None = None) -> WeightsPolicy:
    """The shipped tuned policy (checked like any policy file), with the weight
    set of the table size of ``rules``. It was tuned for the default house
    rules; other house rules get its weights too, re-labelled with their rules
    (the features mean the same under every option)."""
    rules = rules if rules is not None else RutsmieterRules()
    path = default_policy_path()
    d, file_rules, path = read_policy_file(path, GAME, schema(), RutsmieterRules, content_hash)
    weights, table = _weights_of(d, path)
    return WeightsPolicy(weights, file_rules, str(path), table).at(rules)


def load_weights_policy(path: Path | str, rules: RutsmieterRules | None = None) -> WeightsPolicy:
    """Read and check a policy file; :class:`PolicyFileError` (one line) if it is
    not sound or was made for other house rules than ``rules``. The weights
    are the file's weight set for the table size of ``rules`` where it has one."""
    d, file_rules, path = read_policy_file(path, GAME, schema(), RutsmieterRules, content_hash)
    if rules is not None and replace(rules, players=file_rules.players) != file_rules:
        diff = ", ".join(f"{k}={v!r} (file: {d['rules'].get(k)!r})"
                         for k, v in rules.to_dict().items()
                         if k != "players" and d["rules"].get(k) != v)
        raise PolicyFileError(f"policy file {path} was made for other rules: {diff}")
    weights, table = _weights_of(d, path)
    policy = WeightsPolicy(weights, file_rules, str(path), table)
    return policy.at(rules) if rules is not None else policy
