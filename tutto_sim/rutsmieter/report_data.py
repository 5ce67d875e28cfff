"""The numbers behind the Rutsmieter report, computed once and drawn by
``report_figures``.

Near the end of the game's chain (rules → reference → kernel → bots →
analyses → report). ``games`` (the report's ``--turns``) is the number of
games of every table the report plays in the numba kernel: each bot
tournament, each table size, each rule set of the house-rule analysis. The
checks in the reference engine play fewer (:data:`REFERENCE_SHARE`), and the
sample of real choices behind the cheat sheet fewer still
(:data:`CHOICE_SHARE`). Every part reads the game streams ``(seed, 0 ..)``,
so the same seed gives the same report, on any number of threads.

The parts
---------
- **Bots**: a tournament of the built-in bots and ``tuned`` at 2 and at 4
  players, every seating (``core.tournament``), in the kernel; ``expert``
  (one move ahead by rollouts of the tuned policy) against ``tuned``: at its
  own budget from the saved measurement (``core.measured``:
  ``tutto_sim/data/measured/rutsmieter-expert-tuned.json``, the 2,000 games the README
  and docs/rutsmieter.md quote) when one was made under the report's rules,
  else in a short match of its own with a small budget, which the page
  labels as such (:func:`expert_spec`).
- **Table sizes**: ``tuned`` in every seat at 2, 3 and 4 players: the throws
  and turns of every game (``run_tournament``'s ``on_batch``) and the win
  rate by seat.
- **House rules**: ``analysis.rule_effects`` (game length with ``tuned`` in
  every seat at 4 players; skill spread ``tuned`` minus ``random`` at 2).
- **Exact figures**: ``solo.solo_expected_throws`` beside simulated solo
  games (``first`` in the kernel, the throw-minimising bot in the reference
  engine), and ``duel.solve_duel`` beside reference games with one piece
  each (the direct linear solve that checks the value iteration is the duel
  tests' business: a dense solve of 3,446 equations would double this part).
- **Choices**: reference games with ``tuned`` in every seat at the cheat
  sheet's table size (``players``, default 4), playing the shipped file's
  weight set for that size (``default_policy``). At every throw that leaves two or more moves the features of each move are
  recorded, with the move the tuned policy makes and the move it would make
  without each weight (that weight set to 0). The cheat sheet ranks the
  weights, counts how often each one decides, and draws worked examples
  from these choices.
- **Ladders**: the saved ladders of every bot at 2, 3 and 4 players
  (``tutto_sim/data/ladders/rutsmieter-{2,3,4}p.json``, the JSON of ``tutto-sim ladder
  --game rutsmieter --json`` with the ``command``, ``machine`` and
  ``measured_on`` that made it), read, not played (:func:`saved_ladders`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from tutto_sim.core.report import PhaseHook, no_phase
from tutto_sim.core.stats import Estimate

from .policy import FEATURES, WeightsPolicy, default_policy, move_features
from .reference import BOT_NAMES, Board, Bot, Observation, play_game
from .rules import RutsmieterRules, table_rules


#: The bots of the tournaments: the built-in ones and the tuned policy.
TOURNAMENT_BOTS = (*BOT_NAMES, "tuned")
#: Table sizes of the bot tournaments, and of the length and seat pages.
TOURNAMENT_PLAYERS = (2, 4)
TABLE_SIZES = (2, 3, 4)
#: The reference-engine checks (exact figures) play ``games // REFERENCE_SHARE`` games.
REFERENCE_SHARE = 16
#: The sample of real choices plays ``games // CHOICE_SHARE`` reference games (at least 1).
CHOICE_SHARE = 720
#: The expert's match against ``tuned``: about ``games // EXPERT_SHARE`` games
#: with a small budget of rollouts per move (its rollouts make every game slow).
EXPERT_SHARE = 360
EXPERT_ROLLOUTS = 50
#: Worked examples on the cheat sheet, at most.
MAX_EXAMPLES = 4
#: The cheat sheet's table size unless the report is asked for another.
CHEAT_SHEET_PLAYERS = 4
#: The saved ladders of the bot ladder page (``tutto-sim ladder --json`` and the command that made it).
LADDER_FILE = "rutsmieter-{players}p.json"


def estimate_of(x) -> Estimate:
    x = np.asarray(x, dtype=np.float64)
    return Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))


def reference_games(games: int) -> int:
    """Games of each reference-engine check for a report of ``games`` games a table."""
    return max(1, games // REFERENCE_SHARE)


def choice_games(games: int) -> int:
    """Reference games sampled for the cheat sheet."""
    return max(1, games // CHOICE_SHARE)


# -- tournaments ---------------------------------------------------------------------------


def _parse(spec: str, rules: RutsmieterRules):
    from .bots import parse_bot

    return parse_bot(spec, rules)


def bot_tournament(rules: RutsmieterRules, players: int, games: int, seed: int,
                   phase: PhaseHook = no_phase, on_batch=None, names=TOURNAMENT_BOTS,
                   engine: str = "kernel", label: str | None = None):
    """A tournament of ``names`` at ``players``, every seating (``core.tournament``)."""
    from tutto_sim.core.tournament import run_tournament

    from .game import GameConfig

    table = table_rules(rules, players)
    bots = [_parse(n, table) for n in names]
    for b in bots:  # "expert:50" is the expert on the page; the caption gives its budget
        b.name = b.name.split(":")[0] if b.name.startswith("expert") else b.name
    label = label or f"bots, {players} players"
    return run_tournament(bots, players, games, seed, GameConfig(table), engine=engine,
                          progress=phase(label, games), catch_interrupt=False,
                          on_batch=on_batch)


def expert_spec() -> str | None:
    """The expert with the report's budget, if this version has that bot, else None."""
    from tutto_sim.core.bots import BotSpecError

    spec = f"expert:{EXPERT_ROLLOUTS}"
    try:
        _parse(spec, RutsmieterRules(players=2))
    except (BotSpecError, ImportError):
        return None
    return spec


@dataclass
class TableGames:
    """``tuned`` in every seat at ``players``: every game's throws and turns."""

    players: int
    result: object  # core.tournament.TournamentResult
    throws: np.ndarray
    turns: np.ndarray

    @property
    def seats(self) -> list[Estimate]:
        return self.result.seat_rates()

    @property
    def capped(self) -> int:
        return self.result.end_counts().get("cap", 0)


def table_games(rules: RutsmieterRules, players: int, games: int, seed: int,
                phase: PhaseHook = no_phase) -> TableGames:
    throws, turns = [], []

    def keep(batch, seats):
        throws.append(np.asarray(batch.counts["throws"], np.int64))
        turns.append(np.asarray(batch.turns, np.int64))

    res = bot_tournament(rules, players, games, seed, phase, keep, names=("tuned",),
                         label=f"tuned in every seat, {players} players")
    return TableGames(players, res, np.concatenate(throws), np.concatenate(turns))


# -- exact figures and their simulation checks -------------------------------------------


@dataclass
class ExactChecks:
    solo: object  # solo.SoloResult
    solo_first: Estimate  # simulated throws, kernel
    solo_optimal: Estimate  # simulated throws, reference engine
    duel: object  # duel.DuelResult
    duel_first_wins: Estimate  # reference games with one piece each
    duel_throws: Estimate


def exact_checks(rules: RutsmieterRules, games: int, seed: int,
                 phase: PhaseHook = no_phase) -> ExactChecks:
    from . import kernel as K
    from .duel import solve_duel
    from .solo import optimal_solo_bot, solo_expected_throws

    ref = reference_games(games)
    advance = phase("exact: one player alone", 1)
    solo = solo_expected_throws(rules)
    advance(1)
    first = K.simulate(["first"], rules, seed, games, players=1)
    advance = phase("reference engine: alone, fewest throws", ref)
    bot = optimal_solo_bot(solo)
    optimal = []
    for i in range(ref):
        optimal.append(play_game([bot], rules, seed, i, seats=(0,)).throws)
        advance(1)
    advance = phase("exact: two players, one piece each", 1)
    two = table_rules(rules, 2)
    duel = solve_duel(two)
    advance(1)
    advance = phase("reference engine: one piece each", ref)
    board = Board.start(two.seats, n_pieces=1)
    wins, throws = [], []
    for i in range(ref):
        rec = play_game(["first", "first"], two, seed, i, board=board)
        wins.append(rec.winner == 0)
        throws.append(rec.throws)
        advance(1)
    return ExactChecks(solo, estimate_of(first.throws), estimate_of(optimal), duel,
                       Estimate.proportion(int(np.sum(wins)), ref), estimate_of(throws))


# -- the tuned policy's choices -------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A throw that left two or more moves, in a reference game of ``tuned``."""

    game: int
    throw: int  # the throw's number in its game, from 1
    obs: Observation
    features: tuple[tuple[int, ...], ...]  # per move, in the order of FEATURES
    scores: tuple[float, ...]  # the tuned policy's score of each move
    chosen: int  # the move the tuned policy makes
    without: tuple[int, ...]  # per feature: the move it makes with that weight set to 0


def _best(policy: WeightsPolicy, obs: Observation, features) -> int:
    """``WeightsPolicy.choose`` on features already computed: the highest score, ties
    to the piece furthest along (the first such move in order)."""
    best, best_key = 0, None
    for i, (m, f) in enumerate(zip(obs.moves, features)):
        key = (policy.score(f), m.start)
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


def without_weight(policy: WeightsPolicy, feature: str) -> WeightsPolicy:
    """``policy`` with the weight of ``feature`` set to 0."""
    k = FEATURES.index(feature)
    return WeightsPolicy(tuple(0.0 if j == k else w for j, w in enumerate(policy.weights)),
                         policy.rules)


@dataclass
class Choices:
    """The sample of real choices behind the cheat sheet."""

    policy: WeightsPolicy
    players: int
    games: int
    throws: int  # throws in the sampled games
    choices: list[Choice] = field(default_factory=list)

    def decided(self, feature: str) -> int:
        """Choices whose move changes without the weight of ``feature``."""
        k = FEATURES.index(feature)
        return sum(c.without[k] != c.chosen for c in self.choices)

    def ties(self) -> int:
        """Choices where the best score is shared: the piece furthest along decides."""
        return sum(sorted(c.scores)[-2] == max(c.scores) for c in self.choices)


def sample_choices(policy: WeightsPolicy, rules: RutsmieterRules, games: int, seed: int,
                   phase: PhaseHook = no_phase) -> Choices:
    """Reference games ``0 .. games-1`` with the tuned policy in every seat at
    ``rules.players``, recording every choice (module docstring)."""
    variants = [without_weight(policy, f) for f in FEATURES]
    out = Choices(policy, rules.players, games, 0)
    game = [0]
    throw = [0]

    def choose(obs: Observation) -> int:
        board = obs.board()
        feats = tuple(move_features(board, obs.player, m) for m in obs.moves)
        chosen = _best(policy, obs, feats)
        if len(obs.moves) > 1:
            out.choices.append(Choice(
                game[0], throw[0], obs, feats, tuple(policy.score(f) for f in feats), chosen,
                tuple(_best(v, obs, feats) for v in variants)))
        return chosen

    bot = Bot("tuned", choose)
    advance = phase("choices of the tuned bot", games)
    for g in range(games):
        game[0], throw[0] = g, 1
        rec = play_game([bot] * rules.players, rules, seed, g, observe=_Counter(throw))
        out.throws += rec.throws
        advance(1)
    return out


class _Counter:
    """``play_game``'s ``observe``: counts the throws, so a choice knows its throw's number."""

    def __init__(self, throw: list):
        self.throw = throw

    def __call__(self, seen) -> None:
        self.throw[0] += 1


def examples(choices: Choices, order: list[str], limit: int = MAX_EXAMPLES) -> list[tuple[str, Choice]]:
    """Worked examples: for each weight in ``order`` that decides a choice, the
    first such choice (two moves preferred, each choice used once), then, if
    room is left, the first tie settled by the piece furthest along
    (``"tie"``)."""
    out: list[tuple[str, Choice]] = []
    used: set[int] = set()
    for feature in order:
        k = FEATURES.index(feature)
        found = [i for i, c in enumerate(choices.choices) if c.without[k] != c.chosen
                 and i not in used]
        if not found:
            continue
        two = [i for i in found if len(choices.choices[i].obs.moves) == 2]
        pick = (two or found)[0]
        used.add(pick)
        out.append((feature, choices.choices[pick]))
        if len(out) == limit:
            return out
    ties = [i for i, c in enumerate(choices.choices) if i not in used
            and len(c.obs.moves) == 2 and c.scores[0] == c.scores[1]]
    if ties and len(out) < limit:
        out.append(("tie", choices.choices[ties[0]]))
    return out


# -- the saved ladders ------------------------------------------------------------------------


def ladder_dir():
    from tutto_sim.core.bots import DATA_DIR

    return DATA_DIR / "ladders"


def saved_ladders(rules: RutsmieterRules, folder=None) -> dict:
    """players -> the saved ladder (``tutto_sim/data/ladders/rutsmieter-2p.json``, ``-3p``, ``-4p``) of 2, 3
    and 4 players that was played under ``rules``' house rules at that table;
    a file that is missing, unreadable or of other rules is left out."""
    import json
    from pathlib import Path

    out = {}
    for n in TABLE_SIZES:
        path = Path(folder or ladder_dir()) / LADDER_FILE.format(players=n)
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(d, dict) and d.get("rules") == table_rules(rules, n).to_dict() \
                and {"ranking", "ratings"} <= set(d):
            out[n] = d
    return out


# -- everything ------------------------------------------------------------------------------


@dataclass
class RutsmieterReportData:
    rules: RutsmieterRules  # the house rules, at the full board of 4
    seed: int
    games: int  # games of every kernel table (the report's --turns)
    bots: dict  # players -> TournamentResult of TOURNAMENT_BOTS
    expert: object | None  # TournamentResult of expert (small budget) against tuned, or None
    expert_spec: str | None
    tables: dict  # players -> TableGames
    house: object  # analysis.RuleEffects
    exact: ExactChecks
    choices: Choices  # at the cheat sheet's table size (choices.players)
    seconds: dict = field(default_factory=dict)  # part -> seconds
    tournament: object | None = None  # core.report.Tournament of --tournament, if given
    saved_expert: object | None = None  # core.measured.Measured: expert at its own budget
    ladders: dict = field(default_factory=dict)  # players -> saved ladder JSON (saved_ladders)

    @property
    def policy(self) -> WeightsPolicy:
        return self.choices.policy

    @property
    def reference_games(self) -> int:
        return reference_games(self.games)

    @property
    def expert_games(self) -> int:
        return expert_games(self.games)


def expert_games(games: int) -> int:
    """Games of the expert's match (an even number: each bot begins as often)."""
    return max(2, 2 * (games // (2 * EXPERT_SHARE)))


def saved_expert(rules: RutsmieterRules, folder=None):
    """The saved measurement (``core.measured``) of the expert against tuned at
    2 players under ``rules``' house rules, or None."""
    from tutto_sim.core.measured import measured

    return measured("rutsmieter", "expert", "tuned", table_rules(rules, 2), folder)


def compute(rules: RutsmieterRules, seed: int, games: int,
            phase: PhaseHook = no_phase, measured_dir=None,
            players: int = CHEAT_SHEET_PLAYERS, ladder_dir=None) -> RutsmieterReportData:
    """Every number of the report (module docstring). Ctrl-C raises
    KeyboardInterrupt (the report is all or nothing). ``measured_dir``: where
    the saved measurements are (default ``tutto_sim/data/measured``); ``players``: the
    cheat sheet's table size; ``ladder_dir``: where the saved ladders are
    (default ``tutto_sim/data/ladders``)."""
    from .analysis import rule_effects

    rules = table_rules(rules, 4)
    saved = saved_expert(rules, measured_dir)
    seconds = {}

    def timed(part, fn, *a, **k):
        t0 = time.perf_counter()
        value = fn(*a, **k)
        seconds[part] = time.perf_counter() - t0
        return value

    bots = {p: timed(f"bots {p}", bot_tournament, rules, p, games, seed, phase)
            for p in TOURNAMENT_PLAYERS}
    spec = expert_spec() if saved is None else None
    expert = None
    if spec is not None:
        expert = timed("expert", bot_tournament, rules, 2, expert_games(games), seed, phase,
                       names=(spec, "tuned"), engine="auto",
                       label="expert against tuned, 2 players")
    tables = {p: timed(f"table {p}", table_games, rules, p, games, seed, phase)
              for p in TABLE_SIZES}
    house = timed("house rules", rule_effects, rules, players=4, games=games,
                  skill_games=games, seed=seed, bot="tuned", strong="tuned", weak="random",
                  skill_players=2, phase=phase)
    if house.interrupted:
        raise KeyboardInterrupt
    exact = timed("exact", exact_checks, rules, games, seed, phase)
    choices = timed("choices", cheat_sheet_choices, rules, players, games, seed, phase)
    return RutsmieterReportData(rules, seed, games, bots, expert, spec, tables, house, exact,
                                choices, seconds, saved_expert=saved,
                                ladders=saved_ladders(rules, ladder_dir))


def cheat_sheet_choices(rules: RutsmieterRules, players: int, games: int, seed: int,
                        phase: PhaseHook = no_phase) -> Choices:
    """The cheat sheet's sample at ``players``: the shipped policy's weight set
    for that table (``default_policy``) in every seat."""
    table = table_rules(rules, players)
    return sample_choices(default_policy(table), table, choice_games(games), seed, phase)
