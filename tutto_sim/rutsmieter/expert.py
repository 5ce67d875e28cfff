"""Rutsmieter's ``expert`` bot: every legal move tried out by rollouts.

A link after ``policy`` in the game's chain (rules → reference → kernel →
policy → expert): the expert looks one move ahead and lets the tuned policy
(bot ``tuned``, ``policy.default_policy``) play the rest of the game, many
times over.

Rollouts
--------
For the mover ``p`` with throw ``d`` and the legal moves ``m_1 .. m_k`` (after
the obligations), each move is made on a copy of the board, and from the
position after it games are played to the end (*rollouts*), every player
played by the tuned policy. The next to throw is ``p`` again after a 6, else
the next player still playing (a fresh run of throws either way, as in
``reference.play_game(board=..., first_player=...)``). The estimate of move
``m`` after ``R`` rollouts is the mover's **win share**

    w(m) = (1 / R) · #{ r < R : p takes first place in rollout r after m },

"first place" counted among the players still playing (with
``play_to_third`` a player who finished already is out of the race, so after
the first winner the mover plays for the best place left). A move that brings
the mover's last piece home wins outright (``w = 1``, no rollouts).

Common random numbers: rollout ``r`` of every candidate move reads the same
stream ``(s, r)``, so two moves are compared on the same dice. The seed ``s``
is a hash of the observation (table size, mover, throw, pieces;
:func:`decision_seed`) and the bot's own fixed seed :data:`EXPERT_SEED`: the
decision depends only on what the bot sees, never on the game's stream, so
tournaments are reproducible and the same on any number of threads.

The decision
------------
Between good moves the win shares differ by a point or two, less than the
noise of a few hundred rollouts: measured on 400 decisions of ``tuned``
games against 8,000-rollout values, taking the highest ``w`` outright plays
*worse* than ``tuned`` below about 400 rollouts per move. So the tuned
policy's move is the default, and the expert departs from it only on
evidence (:func:`decide`):

1. rounds of :data:`ROUND` rollouts per move (at 3 and 4 players a half and
   a quarter of it, :func:`round_size`: rollouts are longer games there), up
   to the budget ``R``;
2. after each round the leader (most wins; ties to the tuned move) is
   compared with the tuned move over the common rollouts (``a`` rollouts won
   by the leader only, ``b`` by the tuned move only); the rounds stop early
   when the tuned move leads, or the leader is ahead by :data:`DECIDED`
   (``z = 3``) standard errors of the paired difference;
3. the expert makes the leader's move if it is ahead by :data:`GATE`
   (``z² = 9/4 + 80/R``: ``z = 1.5`` with a guard for small samples, where the
   best of several moves is often ahead by chance), else the tuned move.

The tests are exact integer comparisons (:func:`clearly_ahead`), so both
engines decide alike.

A time budget instead of a count (``expert@50ms``, :func:`decide_timed`):
batches of :data:`CLOCK_BATCH` rollouts of every move (the same rollouts for
each, so the moves stay balanced and paired) until the budget per decision
has passed on the machine's clock (at least one batch, at most
:data:`MAX_ROLLOUTS` a move), then the gate of step 3 on all of them; no
early stop, the time is there to be used. The clock is read between
batches, so a decision may overrun by one batch. How many rollouts fit
depends on the machine and its load: a timed decision is not reproducible,
and the kernel, which cannot read the clock, does not play it (a timed
expert plays in the reference engine, its rollouts still in the kernel).

Two engines, one decision
-------------------------
:func:`advise` runs the rollouts in the numba kernel
(:func:`kernel_rollouts`: ``kernel.simulate_positions`` in the calling
thread); :func:`reference_rollouts` is its readable twin, the same rollouts
in the reference engine (``advise(..., engine=reference_rollouts)``). The
kernel also plays the expert itself in whole games (bot ids from
``kernel.BOT_EXPERT``, a row of :func:`kernel_row` each): the same rounds,
rollouts and tests inside the game loop, so tournaments with the expert run
in parallel blocks. The tests demand identical rollouts, advice and games.
:func:`advise` is what the terminal ``play`` command shows for its ``?``
key: per move its index, the move, the estimated win share, its 95%
confidence half-width and the rollouts used, the expert's move first.

>>> from tutto_sim.rutsmieter.reference import legal_moves
>>> rules = RutsmieterRules(players=2)
>>> board = Board(rules.seats, [[35, 41, 42, 43], [-1, -1, -1, -1]])
>>> moves = tuple(legal_moves(board, 0, 5, rules))   # 35 + 5 = 40: the last piece home
>>> obs = Observation(rules.seats, tuple(map(tuple, board.pieces)), 0, 5, moves)
>>> [(a.move.end, a.win_share, a.rollouts) for a in advise(obs, rules, rollouts=8)]
[(40, 1.0, 0)]
"""

from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from tutto_sim.core.rng import GOLDEN, MASK, mix64
from tutto_sim.core.stats import Estimate

from .reference import Board, Bot, Move, Observation, apply_move, play_game
from .rules import RutsmieterRules

#: The expert's own fixed seed, hashed with each observation into its rollout seed.
EXPERT_SEED = 0x5275_7473_6D69_6574  # "Rutsmiet"
#: Rollouts per legal move of bot ``expert`` (``expert:N`` sets another budget).
DEFAULT_ROLLOUTS = 1000
#: The largest budget ``expert:N`` accepts.
MAX_ROLLOUTS = 10_000


class Threshold(NamedTuple):
    """A lead of ``z`` standard errors with ``z² = num / den + small / r`` after
    ``r`` rollouts: the ``small / r`` part guards small samples, where the
    best of several moves is often ahead by chance."""

    num: int
    den: int
    small: int

    def z2(self, r: int) -> Fraction:
        return Fraction(self.num, self.den) + Fraction(self.small, r)


#: The lead over the tuned policy's move, paired over the common rollouts,
#: that lets the expert prefer the best move: z = 1.5 (z² = 9/4) plus 80/r.
GATE = Threshold(9, 4, 80)
#: Rollouts per move in each round, and the lead that ends the rounds early
#: (the best move is clearly better than the tuned one): z = 3.
ROUND = 100
DECIDED = Threshold(9, 1, 0)
#: A round at 3 and 4 players is ROUND divided by these (rollouts there are
#: longer games): the median decision stays near that of 2 players.
ROUND_DIVISOR = {1: 1, 2: 1, 3: 2, 4: 4}


def round_size(players: int) -> int:
    """Rollouts per move in a round at a table of ``players``."""
    return max(1, ROUND // ROUND_DIVISOR[players])
#: Rollouts per move between two readings of the clock of a timed ``expert@Nms``.
CLOCK_BATCH = 10


class ExpertTable(NamedTuple):
    """The expert as the tournament's kernel plays it (``ExpertBot.table()``):
    its budget and the weights of its rollout policy."""

    rollouts: int
    weights: tuple[float, ...]


class Advice(NamedTuple):
    """One legal move as the expert sees it."""

    index: int  # in Observation.moves
    move: Move
    win_share: float  # estimated share of rollouts the mover wins after the move
    ci95: float  # 95% confidence half-width of win_share (0 when exact)
    rollouts: int  # rollouts played (0: the move wins outright)


@lru_cache(maxsize=None)
def tuned_policy(rules: RutsmieterRules):
    """The rollout policy: the shipped tuned weights (``policy.default_policy``)."""
    from .policy import default_policy

    return default_policy(rules)


def decision_seed(obs: Observation, seed: int = EXPERT_SEED) -> int:
    """The rollout seed of a decision: a hash of what the bot sees (the table
    size, the mover, the throw, every piece's position) and its own seed,
    SplitMix64 steps ``h = mix64((h xor (v + 1)) + golden)`` over the values
    ``v`` in that order, from ``h = mix64(seed)`` (the kernel hashes alike)."""
    h = mix64(seed)
    for v in (len(obs.seats), obs.player, obs.die, *(x for p in obs.pieces for x in p)):
        h = mix64(((h ^ (v + 1)) + GOLDEN) & MASK)
    return h


def successor(obs: Observation, i: int) -> tuple[Board, int]:
    """The board after move ``i`` and the player to throw next: the mover
    again after a 6, else the next player still playing; -1 when the move
    brings the mover's last piece home."""
    board = obs.board()
    apply_move(board, obs.player, obs.moves[i])
    if board.finished(obs.player):
        return board, -1
    if obs.die == 6:
        return board, obs.player
    n = len(obs.seats)
    return board, next(q % n for q in range(obs.player + 1, obs.player + n)
                       if not board.finished(q % n))


def _check(obs: Observation, rules: RutsmieterRules, rollouts: int | None) -> int:
    rollouts = DEFAULT_ROLLOUTS if rollouts is None else rollouts
    if not (isinstance(rollouts, int) and 1 <= rollouts <= MAX_ROLLOUTS):
        raise ValueError(f"rollouts must be 1..{MAX_ROLLOUTS:,}, not {rollouts!r}")
    if tuple(obs.seats) != rules.seats:
        raise ValueError(f"the observation's seats {obs.seats} are not those of "
                         f"{rules.players} players {rules.seats}")
    return rollouts


def _finished(obs: Observation) -> int:
    return sum(all(x >= 40 for x in pieces) for pieces in obs.pieces)


def kernel_rollouts(obs: Observation, rules: RutsmieterRules, policy=None):
    """The rollouts of a decision in the numba kernel: a function
    ``(start, count) -> wins`` with ``wins[i, c]`` True when the mover takes
    first place (among those still playing) in rollout ``start + c`` after
    move ``i``. A move that wins outright has a row of True."""
    from . import kernel as K

    policy = policy if policy is not None else tuned_policy(rules)
    after = [successor(obs, i) for i in range(len(obs.moves))]
    play = [i for i, (_, nxt) in enumerate(after) if nxt >= 0]
    positions = [after[i][0].pieces for i in play]
    firsts = [after[i][1] for i in play]
    seed = decision_seed(obs)
    first = _finished(obs) + 1

    def wins(start: int, count: int) -> np.ndarray:
        out = np.ones((len(after), count), dtype=bool)
        if play:
            results = K.simulate_positions(positions, firsts, [K.BOT_WEIGHTS] * rules.players,
                                           rules, seed, count, start, block=count,
                                           weights=[policy.weights], parallel=False)
            for i, res in zip(play, results):
                out[i] = res.places[:, obs.player] == first
        return out

    return wins


def reference_rollouts(obs: Observation, rules: RutsmieterRules, policy=None):
    """:func:`kernel_rollouts` in the reference engine: the readable twin."""
    policy = policy if policy is not None else tuned_policy(rules)
    bots = [policy.bot()] * rules.players
    after = [successor(obs, i) for i in range(len(obs.moves))]
    seed = decision_seed(obs)
    first = _finished(obs) + 1

    def wins(start: int, count: int) -> np.ndarray:
        out = np.ones((len(after), count), dtype=bool)
        for i, (board, nxt) in enumerate(after):
            if nxt < 0:
                continue
            for c in range(count):
                rec = play_game(bots, rules, seed, start + c, board=board, first_player=nxt)
                out[i, c] = rec.places[obs.player] == first
        return out

    return wins


def lead(wins: np.ndarray, preferred: int) -> tuple[int, int, int]:
    """The move with the most wins (ties to ``preferred``) and, over the common
    rollouts, how often it won where ``preferred`` lost (``a``) and lost where
    ``preferred`` won (``b``)."""
    totals = wins.sum(axis=1)
    best = int(np.argmax(totals))
    if totals[best] == totals[preferred]:
        return preferred, 0, 0
    a = int((wins[best] & ~wins[preferred]).sum())
    b = int((~wins[best] & wins[preferred]).sum())
    return best, a, b


def clearly_ahead(a: int, b: int, r: int, t: Threshold) -> bool:
    """Is the paired difference over ``r`` rollouts (``a`` times +1, ``b`` times
    -1) more than ``z`` standard errors above 0 (``z² = t.z2(r)``)? With mean
    ``m = (a - b) / r`` and sample variance ``s² = (a + b - r m²) / (r - 1)``,
    ``m > z s / √r`` is ``(a - b)² (r - 1 + z²) > z² r (a + b)`` with
    ``a > b``; times ``den · r`` it is in integers: exact, the same in
    every engine.

    >>> clearly_ahead(2, 0, 6, Threshold(9, 4, 0))   # differences 0,0,1,0,0,1: t = 1.58
    True
    >>> clearly_ahead(2, 0, 6, GATE)                 # z² = 9/4 + 80/6: z = 3.95
    False
    >>> clearly_ahead(1, 0, 3, Threshold(9, 4, 0))   # 0,0,1: t = 1.0
    False
    """
    d = a - b
    z2_den_r = t.num * r + t.small * t.den  # z² · den · r
    return d > 0 and d * d * ((r - 1) * t.den * r + z2_den_r) > z2_den_r * r * (a + b)


def decide(obs: Observation, budget: int, preferred: int, rollouts) -> tuple[np.ndarray, int]:
    """The expert's decision (module docstring): rounds of :func:`round_size`
    rollouts per move, from ``rollouts(start, count)``, up to ``budget``.
    Returns the rollout results used and the move."""
    size = round_size(len(obs.seats))
    wins = rollouts(0, min(size, budget))
    while True:
        best, a, b = lead(wins, preferred)
        r = wins.shape[1]
        if best == preferred or r >= budget or clearly_ahead(a, b, r, DECIDED):
            break
        wins = np.concatenate([wins, rollouts(r, min(size, budget - r))], axis=1)
    return wins, _verdict(obs, wins, preferred)


def decide_timed(obs: Observation, budget_ms: float, preferred: int, rollouts,
                 start: float | None = None) -> tuple[np.ndarray, int]:
    """:func:`decide` by the clock (module docstring): batches of
    :data:`CLOCK_BATCH` rollouts per move until ``budget_ms`` after
    ``start`` (a ``time.perf_counter()``, default now), then the gate."""
    deadline = (time.perf_counter() if start is None else start) + budget_ms / 1000
    batches = [rollouts(0, CLOCK_BATCH)]
    r = CLOCK_BATCH
    while time.perf_counter() < deadline and r < MAX_ROLLOUTS:
        batches.append(rollouts(r, min(CLOCK_BATCH, MAX_ROLLOUTS - r)))
        r += batches[-1].shape[1]
    wins = np.concatenate(batches, axis=1)
    return wins, _verdict(obs, wins, preferred)


def _verdict(obs: Observation, wins: np.ndarray, preferred: int) -> int:
    """Step 3 of the decision: the leader if the gate lets it past the tuned move."""
    outright = [i for i in range(len(obs.moves)) if successor(obs, i)[1] < 0]
    if outright:
        return preferred if preferred in outright else outright[0]
    best, a, b = lead(wins, preferred)
    return best if clearly_ahead(a, b, wins.shape[1], GATE) else preferred


def rank(obs: Observation, wins: np.ndarray, pick: int) -> list[Advice]:
    """The advice: the expert's move ``pick`` first, then the others by win
    share (ties to the piece furthest along)."""
    out = []
    for i, move in enumerate(obs.moves):
        n = 0 if successor(obs, i)[1] < 0 else wins.shape[1]
        est = Estimate.proportion(int(wins[i].sum()), n) if n else Estimate(1.0, 0.0, 0)
        out.append(Advice(i, move, est.mean, est.ci95, n))
    return sorted(out, key=lambda a: (a.index != pick, -a.win_share, -a.move.start))


def advise(obs: Observation, rules: RutsmieterRules, rollouts: int | None = None, *,
           policy=None, engine=kernel_rollouts) -> list[Advice]:
    """Every legal move with its estimated win share for the mover, the
    expert's move first (module docstring); ``rollouts``: the budget per move,
    default :data:`DEFAULT_ROLLOUTS`. ``engine``: :func:`kernel_rollouts` or
    :func:`reference_rollouts`."""
    budget = _check(obs, rules, rollouts)
    policy = policy if policy is not None else tuned_policy(rules)
    wins, pick = decide(obs, budget, policy.choose(obs), engine(obs, rules, policy))
    return rank(obs, wins, pick)


def kernel_row(rollouts: int, weights_row: int, players: int = 2) -> tuple[int, ...]:
    """The expert as a row of the kernel's experts table (``kernel.X_*``
    columns) at a table of ``players``: its budget, the weights row of its
    rollout policy, and the constants of :func:`decide` and :func:`decision_seed`."""
    return (rollouts, weights_row, round_size(players), *GATE, *DECIDED, EXPERT_SEED)


def expert_bot(rules: RutsmieterRules, rollouts: int = DEFAULT_ROLLOUTS, name: str = "expert",
               reference: bool = False, budget_ms: float | None = None) -> Bot:
    """The expert as a reference-engine bot; a single legal move needs no rollouts.
    ``reference=True`` runs the rollouts in the reference engine (tests);
    ``budget_ms`` decides by the clock (:func:`decide_timed`), not ``rollouts``."""
    policy = tuned_policy(rules)
    engine = reference_rollouts if reference else kernel_rollouts
    _check(Observation(rules.seats, (), 0, 1, ()), rules, rollouts)

    def choose(obs: Observation) -> int:
        if len(obs.moves) == 1:
            return 0
        if budget_ms:
            start = time.perf_counter()
            return decide_timed(obs, budget_ms, policy.choose(obs), engine(obs, rules, policy),
                                start)[1]
        return decide(obs, rollouts, policy.choose(obs), engine(obs, rules, policy))[1]

    return Bot(name, choose)

