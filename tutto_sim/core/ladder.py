"""A ladder: every bot against every other, one rating per bot with its 95% CI.

Game-independent; ``core.commands_ladder`` is its command. The games come
from ``core.tournament.run_tournament``: with more bots than seats every
combination of ``n`` bots is a lineup, seats rotated (every seating where
the game asks for it), and :class:`Outcomes` keeps every finished game as
``(bot in each seat, win share of each seat)``, counted: integer counts, so
the ratings do not depend on threads, worker processes or a cluster.

**How many games.** A *cycle* is ``L · n`` consecutive games (``L``
lineups, ``n`` seats): in it every lineup sits in every rotation once, so
every bot holds every seat equally often. ``per_pair`` (``--games-per-pair
K``) is how often each pair of bots is to sit at one table: a cycle seats
the pair ``A, B`` together ``M`` times (``n`` times each lineup holding both:
``C(m-2, n-2)`` lineups of ``m`` bots, times the seatings of each), so the
ladder plays ``ceil(K / M)`` cycles (:func:`ladder_games`). At two players
that is ``K`` games per pair (rounded up to whole cycles); at three or four
every pair also meets about ``K`` times, at tables shared with others.

**The model.** A game is won by one *side* (a player, or a pair of
partners) of the table; side ``s`` has strength ``R_s``, the sum of the
ratings ``r_i`` of its players (a bot seated twice counts twice), and

    P(side s wins) = exp(R_s) / sum over the sides t of the table of exp(R_t),

the Bradley–Terry model at two sides and its generalisation by Luce
(Plackett–Luce, the winner only) at more. A win shared in a tie gives each
tied side its share ``w_s`` (the shares of a game add up to 1); a game no
side won (a cap) drops out. The log-likelihood

    l(r) = sum over games of [ sum_s w_s R_s - log sum_t exp(R_t) ]

is concave; :func:`fit` maximises it by Newton's method on the ratings that
sum to zero (their mean is 0), with step halving. Its Hessian does not
depend on the outcomes, so it is the Fisher information ``I``; the
covariance of the ratings is ``Q (Qᵀ I Q)⁻¹ Qᵀ`` (``Q``: a basis of the
ratings that sum to zero), and the 95% CI is ``r ± 1.96·se``. A bot that
wins every game (or none) has no finite maximum: every pair of bots is
given :data:`PRIOR_GAMES` virtual game, shared half and half, a weak prior
that keeps every rating finite and moves a rating of ``K`` real games by
about ``1/K`` of itself. Ratings are shown on the Elo scale,
``400·log10(e)·r`` (:data:`ELO`): 100 points apart at two players is a
64% chance for the stronger.

**Head to head** (:meth:`LadderResult.matrix`): among the games in which
bots ``A`` and ``B`` both sat at the table, on different sides, and one of
them won, ``A``'s share: ``a / (a + b)`` of each game, with ``a`` the win
share of the sides that hold ``A`` and not ``B`` (a tie of the two: half
each). At two players that is the plain pairwise win rate (games no one
won left out); the 95% CI is Wilson's (``core.stats``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from tutto_sim.core.stats import Z95, Estimate

#: Rating points per unit of the model's ``r``: the Elo scale, 400·log10(e).
ELO = 400 / math.log(10)
#: Virtual games per pair of bots (shared half and half): the weak prior of :func:`fit`.
PRIOR_GAMES = 1.0
#: Default games per pair (``--games-per-pair``) and the most it may be.
DEFAULT_PER_PAIR = 400
MAX_PER_PAIR = 10_000_000


def pairs_per_cycle(lineups: np.ndarray, n_bots: int) -> int:
    """``M`` of the module docstring: the fewest times any pair of bots sits at
    one table in a cycle of ``len(lineups) · n`` games (each lineup in each
    rotation once)."""
    n = lineups.shape[1]
    met = np.zeros((n_bots, n_bots), np.int64)
    for line in lineups.tolist():
        present = sorted(set(line))
        for a, b in itertools.combinations(present, 2):
            met[a, b] += n
    upper = met[np.triu_indices(n_bots, 1)]
    return int(upper.min()) if upper.size else 0


def ladder_games(lineups: np.ndarray, n_bots: int, per_pair: int) -> tuple[int, int, int]:
    """(games, cycles, meetings of a pair per cycle) for ``per_pair`` meetings of
    every pair: whole cycles (module docstring)."""
    cycle = lineups.shape[0] * lineups.shape[1]
    meets = pairs_per_cycle(lineups, n_bots)
    cycles = -(-per_pair // meets)
    return cycles * cycle, cycles, meets


def seat_sides(players: int, sides: int, partners: bool) -> np.ndarray:
    """The side of each seat: partners sit ``sides`` apart (seat ``j`` on side
    ``j mod sides``), else every seat is its own side."""
    return np.arange(players) % sides if partners and sides else np.arange(players)


class Outcomes:
    """Every finished game as ``(bot of each seat, win share of each seat)``,
    counted (``core.tournament`` gives them chunk by chunk: :meth:`add`)."""

    def __init__(self, n_bots: int, players: int, sides: np.ndarray):
        self.n_bots, self.players = n_bots, players
        self.sides = np.asarray(sides, np.int64)
        self.counts: dict[tuple, int] = {}
        self.games = 0

    def add(self, batch, seats: np.ndarray) -> None:
        """A chunk of games: ``seats[g, j]`` the bot in seat j, ``batch.share``
        the win shares (``on_batch`` of ``core.tournament.run_tournament``)."""
        rows = np.concatenate([np.asarray(seats, np.int64),
                               np.asarray(batch.share, np.int64)], axis=1)
        if not len(rows):
            return
        unique, counts = np.unique(rows, axis=0, return_counts=True)
        for row, c in zip(unique.tolist(), counts.tolist()):
            key = tuple(row)
            self.counts[key] = self.counts.get(key, 0) + c
        self.games += len(rows)

    def games_of(self):
        """``(seats, side weights, count)`` in a fixed order: the bots of the
        seats, and each side's share of the win (they add up to 1; all zero
        for a game no side won)."""
        n, s = self.players, int(self.sides.max()) + 1
        for key in sorted(self.counts):
            seats, share = np.array(key[:n]), np.array(key[n:], float)
            side = np.zeros(s)
            np.maximum.at(side, self.sides, share)  # partners hold the same share
            total = side.sum()
            yield seats, side / total if total > 0 else side, self.counts[key]

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The fit's data: ``A[c, s, i]`` how many seats of side s bot i holds at
        table c, ``W[c, s]`` the wins of side s there (shares added up over
        its games with a winner)."""
        s = int(self.sides.max()) + 1
        rows: dict[tuple, np.ndarray] = {}
        for seats, w, c in self.games_of():
            if w.sum() == 0:
                continue
            key = tuple(seats.tolist())
            rows[key] = rows.get(key, np.zeros(s)) + c * w
        a = np.zeros((len(rows), s, self.n_bots))
        wins = np.zeros((len(rows), s))
        for k, (key, w) in enumerate(rows.items()):
            np.add.at(a[k], (self.sides, np.array(key)), 1.0)
            wins[k] = w
        return a, wins

    def decided(self) -> int:
        """Games some side won."""
        return sum(c for _, w, c in self.games_of() if w.sum() > 0)

    def head_to_head(self) -> tuple[np.ndarray, np.ndarray]:
        """``(games, wins)`` [m, m]: row bot against column bot (module docstring)."""
        m = self.n_bots
        games, wins = np.zeros((m, m), np.int64), np.zeros((m, m))
        side_of = self.sides
        for seats, w, c in self.games_of():
            if w.sum() == 0:
                continue
            holds = np.zeros((len(w), m), bool)
            holds[side_of, seats] = True
            present = sorted(set(seats.tolist()))
            for a, b in itertools.permutations(present, 2):
                mine = (w * (holds[:, a] & ~holds[:, b])).sum()
                theirs = (w * (holds[:, b] & ~holds[:, a])).sum()
                if mine + theirs > 0:
                    games[a, b] += c
                    wins[a, b] += c * mine / (mine + theirs)
        return games, wins


@dataclass(frozen=True)
class Fit:
    """The fitted ratings (model units, mean 0), their covariance and the
    log-likelihood at the maximum; ``iterations`` of Newton's method."""

    r: np.ndarray
    cov: np.ndarray
    loglik: float
    iterations: int


def _zero_sum_basis(m: int) -> np.ndarray:
    """``Q`` [m, m-1]: orthonormal columns spanning the vectors that sum to 0."""
    u, _, _ = np.linalg.svd(np.eye(m) - 1.0 / m)
    return u[:, :m - 1]


def _with_prior(a: np.ndarray, wins: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """The tables plus ``prior`` virtual games per pair, shared half and half
    (two sides of one bot each; the table's other sides stay empty)."""
    m, s = a.shape[2], a.shape[1]
    pairs = list(itertools.combinations(range(m), 2))
    if not prior or not pairs:
        return a, wins
    extra_a = np.zeros((len(pairs), s, m))
    extra_w = np.zeros((len(pairs), s))
    for k, (i, j) in enumerate(pairs):
        extra_a[k, 0, i] = extra_a[k, 1, j] = 1.0
        extra_w[k, :2] = prior / 2
    return np.concatenate([a, extra_a]), np.concatenate([wins, extra_w])


def fit(a: np.ndarray, wins: np.ndarray, prior: float = PRIOR_GAMES) -> Fit:
    """The maximum-likelihood ratings of the module docstring's model for the
    tables ``a`` [C, S, m] (seats of each side held by each bot; a side
    with no seat is no side) and their wins ``wins`` [C, S], with ``prior``
    virtual games per pair. Pure numpy: Newton's method on the ratings that
    sum to zero, halving the step until the likelihood rises.

    >>> a = np.array([[[1.0, 0.0], [0.0, 1.0]]])  # one pair, bot 0 against bot 1
    >>> f = fit(a, np.array([[64.0, 36.0]]), prior=0)
    >>> round(float(ELO * (f.r[0] - f.r[1])), 1)  # exp(r0 - r1) = 64/36
    100.0
    """
    a, wins = _with_prior(np.asarray(a, float), np.asarray(wins, float), prior)
    m = a.shape[2]
    if m < 2:
        return Fit(np.zeros(m), np.zeros((m, m)), 0.0, 0)
    real = a.sum(axis=2) > 0  # sides that exist at each table
    n = wins.sum(axis=1)
    q = _zero_sum_basis(m)

    def state(r):
        strength = a @ r
        top = np.where(real, strength, -np.inf).max(axis=1, keepdims=True)
        e = np.where(real, np.exp(np.minimum(strength - top, 0.0)), 0.0)
        z = e.sum(axis=1, keepdims=True)
        ll = float((wins * strength).sum() - (n * (top[:, 0] + np.log(z[:, 0]))).sum())
        return ll, e / z

    def derivatives(p):
        grad = np.einsum("csm,cs->m", a, wins - n[:, None] * p)
        ap = np.einsum("csm,cs->cm", a, p)
        info = (np.einsum("c,csm,cs,csk->mk", n, a, p, a) - np.einsum("c,cm,ck->mk", n, ap, ap))
        return grad, info

    r = np.zeros(m)
    ll, p = state(r)
    iterations = 0
    for iterations in range(1, 201):
        grad, info = derivatives(p)
        iz = q.T @ info @ q
        step = q @ np.linalg.solve(iz, q.T @ grad)
        t = 1.0
        while True:
            new_ll, new_p = state(r + t * step)
            if new_ll >= ll - 1e-12 * max(1.0, abs(ll)) or t < 1e-10:
                break
            t /= 2
        r, ll, p = r + t * step, new_ll, new_p
        if np.abs(t * step).max() < 1e-11:
            break
    _, info = derivatives(p)
    cov = q @ np.linalg.inv(q.T @ info @ q) @ q.T
    return Fit(r - r.mean(), cov, ll, iterations)


@dataclass(frozen=True)
class Rating:
    """A bot's rating on the Elo scale (mean 0 over the bots) with its 95% CI."""

    name: str
    rating: float
    se: float

    @property
    def low(self) -> float:
        return self.rating - Z95 * self.se

    @property
    def high(self) -> float:
        return self.rating + Z95 * self.se

    def json(self) -> dict:
        return {"rating": round(self.rating, 2), "low": round(self.low, 2),
                "high": round(self.high, 2), "se": round(self.se, 2)}


def model_name(players: int, sides: int) -> str:
    """The model's name as the output says it."""
    if sides:
        return (f"Bradley-Terry on {sides} sides of partners (a side's strength: the sum of "
                "its players' ratings)" if sides == 2 else
                f"Plackett-Luce, the winner of {sides} sides of partners (a side's strength: "
                "the sum of its players' ratings)")
    if players == 2:
        return "Bradley-Terry (P(A beats B) = 1 / (1 + 10^((rating B - rating A) / 400)))"
    return (f"Plackett-Luce, the winner only (Luce's choice model at {players} seats: "
            "P(A wins) = 10^(rating A / 400) / the sum over the table)")


@dataclass
class LadderResult:
    """A ladder's games and what is fitted to them."""

    names: list[str]
    players: int
    outcomes: Outcomes
    model: str
    per_pair: int
    prior: float = PRIOR_GAMES
    fitted: Fit | None = field(default=None, repr=False)
    _matrix: dict | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.fitted is None:
            self.fitted = fit(*self.outcomes.tables(), prior=self.prior)

    @property
    def games(self) -> int:
        return self.outcomes.games

    def ratings(self) -> list[Rating]:
        """Every bot's rating, in the order of the bots."""
        r, cov = self.fitted.r, self.fitted.cov
        return [Rating(name, float(ELO * r[i]), float(ELO * math.sqrt(max(cov[i, i], 0.0))))
                for i, name in enumerate(self.names)]

    def ranking(self) -> list[Rating]:
        """The ratings, best first (ties: the order of the bots)."""
        return sorted(self.ratings(), key=lambda x: -x.rating)

    def matrix(self) -> dict[str, dict[str, Estimate]]:
        """Head to head (module docstring): ``matrix[a][b]`` is ``a``'s share
        against ``b``, Wilson CI; pairs that never decided a game are left out."""
        if self._matrix is not None:
            return self._matrix
        games, wins = self.outcomes.head_to_head()
        out: dict[str, dict[str, Estimate]] = {}
        for i, a in enumerate(self.names):
            out[a] = {b: Estimate.proportion(float(wins[i, j]), int(games[i, j]))
                      for j, b in enumerate(self.names) if i != j and games[i, j]}
        self._matrix = out
        return out

    def json(self) -> dict:
        """``ratings``, ``matrix``, ``model`` and the counts, for ``--json``."""
        by_name = {x.name: x for x in self.ratings()}
        return {
            "model": self.model,
            "scale": "Elo: 400 * log10(e) * r, mean 0 over the bots; low/high: 95% CI",
            "prior": f"{self.prior:g} virtual game per pair of bots, shared half and half",
            "ratings": {x.name: by_name[x.name].json() for x in self.ranking()},
            "ranking": [x.name for x in self.ranking()],
            "matrix": {a: {b: {"win_rate": e.mean, "low": e.low, "high": e.high, "games": e.n}
                           for b, e in row.items()} for a, row in self.matrix().items()},
            "matrix_is": ("among the games where both sat at the table (on different sides) "
                          "and one of them won, the row bot's share (a tie of the two: half)"),
            "games": self.games,
            "decided_games": self.outcomes.decided(),
            "games_per_pair": self.per_pair,
        }
