"""A position's value learned by self-play: TD(λ) for Rutsmieter
(``tutto-sim optimize --game rutsmieter --method td``; docs/rutsmieter.md,
"Learning by self-play").

**The model.** For player ``p`` who has just moved, the value of the position
``s`` after the move is ``V(s, p) = sigmoid(b + θ · ψ̃(s, p))``, an estimate
of p's chance to win: ``ψ`` are the 13 :data:`policy.POSITION_FEATURES`
(``policy.position_features``), ``ψ̃ = ψ / SCALE`` the same in units the
learner steps well in (sums of pieces' progress divided by 40, counts as they
are). One model per table size (2, 3, 4 players).

**It is a weights policy.** The sigmoid is monotone and ``b`` the same for
every move, so the move to the best position (greedy in ``V``) is the move
with the highest ``θ_raw · ψ``, ``θ_raw = θ / SCALE``: the linear move
evaluator of ``rutsmieter.policy`` with weight 0 on the 9 move features and
``θ_raw`` on the position features (:func:`weights_row`). The trained
evaluator is written as a policy file (one weight set per table size) and
plays wherever the weights bot plays: the kernel, the reference engine, the
expert's rollouts, the JavaScript reader. Bot ``td`` plays the shipped file,
``tutto_sim/data/policies/rutsmieter-td.json``.

**Self-play.** Every seat plays the current weights greedily: the kernel's
own game loop (``kernel.play_on``) with the row ``(0, …, 0, θ_raw)`` in every
seat, ties to the piece furthest along, exactly as ``weights:FILE``. The
game's throw log is then replayed: each player has its own sequence of
after-move positions ``s_1 … s_T`` (every move it makes, a single legal move
too) and its own eligibility trace ``e``::

    e_t = λ e_{t-1} + ∇V(s_t)          ∇V = V (1 - V) · (1, ψ̃)   (the bias first)
    δ_t = V(s_{t+1}) - V(s_t)           (the next after-move position of the same player)
    Δ  += α δ_t e_t

At the end the target is the result: a move that brings all of a player's
pieces home is terminal, ``δ = z - V(s_T)`` with ``z = 1`` for the winner
and 0 for the others; a player still playing when the game ends gets
``δ = 0 - V(s_T)``. A game capped by ``reference.MAX_THROWS`` has no result
and no final step. ``Δ`` is added to ``(b, θ)`` when the game is over: the
weights are fixed during a game (Sutton 1988's form of the updates, the
sum over the sequence applied after it), so the game is the kernel's game
of a weights bot, throw for throw.

**Reproducible.** Training game ``g`` at every table size reads stream
``(seed, g)``; the weights after ``G`` games depend on the seed only (the
table sizes train side by side, ``numba.prange``, each its own sequence of
games and nothing shared). A plain-Python reference of the same equations on
the reference engine (tests/rutsmieter/test_rutsmieter_td.py) gets the same
weights.

**The curve.** After 0, 100, 200, 500, 1,000, … training games
(:func:`checkpoints`) the current weights play fixed games against the field
(``optimize.Games``: the learner in every seat equally often, the field bot
in the others, common random numbers, streams from
``core.analysis.FRESH_START`` on that training never reads): its win rate
with a 95% CI, by training games, one line per table size (:func:`chart`).

References: R. S. Sutton, *Learning to predict by the methods of temporal
differences*, Machine Learning 3 (1988) 9-44; G. Tesauro, *Temporal
difference learning and TD-Gammon*, Communications of the ACM 38 (1995) 58-68.
"""

from __future__ import annotations

import math
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from numba import njit, prange

from . import kernel as K
from .policy import FEATURES, POSITION_FEATURES
from .reference import MAX_THROWS
from .rules import PLAYER_CHOICES, RutsmieterRules

#: Position features, and the first of them in the weights (``kernel.F_POSITION``).
N_POSITION = len(POSITION_FEATURES)
assert FEATURES[K.F_POSITION:] == POSITION_FEATURES and N_POSITION == 13
#: The learner's unit of each position feature: sums of pieces' progress
#: (positions + 1) by 40, a lap of the ring; counts by 1.
PROGRESS_SUMS = ("risk_progress", "own_progress", "opp_progress", "lead_progress", "opp_risk")
SCALE = np.array([40.0 if f in PROGRESS_SUMS else 1.0 for f in POSITION_FEATURES])
#: Step size, trace decay and training games per table size of the shipped run.
ALPHA = 0.002
LAMBDA = 0.7
GAMES = 200_000
#: The curve's games against each field bot at each of its points (:func:`checkpoints`).
CURVE_GAMES = 2_000
#: Games against each field bot for the final win rates (the curve's games and more).
FINAL_GAMES = 10_000
#: The field of the curve: the built-in bots and the first tuned weights.
TUNED_V1 = "rutsmieter-tuned-v1.json"
FIELD = ("first", "aggressive", "defensive", "random", "weights:" + TUNED_V1)

Phase = Callable[[str, int], Callable[[int], None]]


# -- the learner, in numba --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def position_vector(psi, pos, n, offs, p):
    """Fill ``psi[0:13]`` with ``policy.position_features`` of ``pos`` (the
    kernel's flat positions) for player p; allocates nothing."""
    f = K.position_features(pos, n, offs, p, True, True)
    for i in range(N_POSITION):
        psi[i] = f[i]


@njit(cache=True, nogil=True, inline="always")
def _sigmoid(z):
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@njit(cache=True, nogil=True, inline="always")
def _value(theta, psi, scale):
    """``V = sigmoid(b + θ · ψ̃)``, summed in feature order (``theta[0]`` is ``b``)."""
    z = theta[0]
    for i in range(N_POSITION):
        z += theta[1 + i] * (psi[i] / scale[i])
    return _sigmoid(z)


@njit(cache=True, nogil=True, inline="always")
def _step(delta, elig, p, a):
    """``Δ += a · e_p`` (``a = α δ``)."""
    for i in range(delta.shape[0]):
        delta[i] += a * elig[p, i]


@njit(cache=True, nogil=True)
def _train_games(seed, start, n_games, params, offs, theta, alpha, lam, scale, trace):
    """Training games ``start .. start + n_games - 1`` at the table of
    ``params``: ``theta`` (``b`` then the 13 weights, learner's units) is
    updated in place after each game (module docstring)."""
    n = params[K.P_PLAYERS]
    m = theta.shape[0]
    state, pos, board, mask, aux, mp, ms, me, mv, active, finish, stats, places, six = \
        K.scratch(n)
    bots = np.full(n, K.BOT_WEIGHTS, np.int64)
    wtab = np.zeros((1, K.N_FEATURES))
    psi = np.zeros(N_POSITION)
    elig = np.zeros((4, m))
    delta = np.zeros(m)
    v_prev = np.zeros(4)
    live = np.zeros(4, np.bool_)
    replay = np.zeros(16, np.int64)
    for g in range(n_games):
        for i in range(N_POSITION):
            wtab[0, K.F_POSITION + i] = theta[1 + i] / scale[i]
        for j in range(4 * n):
            pos[j] = -1
        nfin = K.set_position(n, offs, pos, board, mask, aux, active, finish, stats, six)
        winner, throws, _ = K.play_on(seed, start + g, params, offs, bots, wtab, 0, nfin, state,
                                       pos, board, mask, aux, mp, ms, me, mv, active, finish,
                                       stats, places, six, trace, None)
        # the game again from its throw log: each player's after-move positions
        for j in range(4 * n):
            replay[j] = -1
        for j in range(m):
            delta[j] = 0.0
        for p in range(n):
            live[p] = False
            for j in range(m):
                elig[p, j] = 0.0
        for t in range(min(throws, trace.shape[0])):
            k = trace[t, 2]
            if k < 0:
                continue
            p = trace[t, 0]
            end = trace[t, 3]
            if end < 40:  # a captured piece goes home
                sq = K.square(end, offs[p])
                for o in range(n):
                    if o == p:
                        continue
                    for kk in range(4):
                        y = replay[4 * o + kk]
                        if 0 <= y < 40 and K.square(y, offs[o]) == sq:
                            replay[4 * o + kk] = -1
            replay[4 * p + k] = end
            if K.finished(replay, p):  # terminal: the result is the target
                if live[p]:
                    z = 1.0 if p == winner else 0.0
                    _step(delta, elig, p, alpha * (z - v_prev[p]))
                live[p] = False
                continue
            position_vector(psi, replay, n, offs, p)
            v = _value(theta, psi, scale)
            if live[p]:
                _step(delta, elig, p, alpha * (v - v_prev[p]))
            gv = v * (1.0 - v)
            elig[p, 0] = lam * elig[p, 0] + gv
            for i in range(N_POSITION):
                elig[p, 1 + i] = lam * elig[p, 1 + i] + gv * (psi[i] / scale[i])
            v_prev[p] = v
            live[p] = True
        if winner >= 0:  # still playing at the end: lost
            for p in range(n):
                if live[p]:
                    _step(delta, elig, p, alpha * (0.0 - v_prev[p]))
        for j in range(m):
            theta[j] += delta[j]


@njit(cache=True, nogil=True, parallel=True)
def _train_tables(seed, start, n_games, params, offs, thetas, alpha, lam, scale):
    """:func:`_train_games` for each table (row of ``params``, ``offs``,
    ``thetas``), side by side: each its own games and weights row."""
    for t in prange(params.shape[0]):
        n = params[t, K.P_PLAYERS]
        trace = np.zeros((MAX_THROWS, 4), np.int64)
        _train_games(seed, start, n_games, params[t], offs[t, :n], thetas[t], alpha, lam, scale,
                     trace)


# -- in Python -------------------------------------------------------------------------------


def weights_row(theta) -> tuple[float, ...]:
    """The weights policy's row (``policy.FEATURES``) of the learner's ``theta``
    (``b`` first, then θ in the learner's units): 0 on the move features,
    ``θ / SCALE`` on the position features (``b`` changes no choice)."""
    theta = np.asarray(theta, np.float64)
    return (0.0,) * K.F_POSITION + tuple(float(w) for w in theta[1:] / SCALE)


def train(rules_by_table, seed: int, games: int, alpha: float = ALPHA, lam: float = LAMBDA,
          start: int = 0, thetas=None, chunk: int | None = None,
          step: Callable[[int], None] | None = None) -> np.ndarray:
    """Train ``games`` games at each table of ``rules_by_table`` (from
    ``thetas``, default 0); returns the weights, a row per table (``b``
    first). ``chunk``: games per kernel call, ``step(games)`` after each."""
    params = np.array([K.kernel_params(r) for r in rules_by_table], np.int64)
    offs = np.zeros((len(params), 4), np.int64)
    for t, r in enumerate(rules_by_table):
        offs[t, :r.players] = K.kernel_offsets(r.players)
    thetas = (np.zeros((len(params), 1 + N_POSITION)) if thetas is None
              else np.array(thetas, np.float64))
    chunk = chunk or games
    done = 0
    while done < games:
        size = min(chunk, games - done)
        _train_tables(np.uint64(seed), start + done, size, params, offs, thetas, alpha, lam,
                      SCALE)
        done += size
        if step is not None:
            step(size)
    return thetas


@dataclass
class CurvePoint:
    games: int  # training games so far (at each table size)
    players: int
    win_rate: float
    low: float
    high: float
    n: int  # games against the field


@dataclass
class TDResult:
    """What :func:`learn` did (the CLI's JSON and the policy file's summary)."""

    seed: int
    players: tuple[int, ...]
    games: int  # asked, per table size
    alpha: float
    lam: float
    field: list[str]
    thetas: dict[int, tuple[float, ...]] = field(default_factory=dict)  # b first
    games_done: int = 0
    curve: list[CurvePoint] = field(default_factory=list)
    final: dict[int, dict] = field(default_factory=dict)  # per table: bot -> Estimate, "all"
    train_seconds: float = 0.0
    seconds: float = 0.0
    interrupted: bool = False

    def weights(self, players: int) -> tuple[float, ...]:
        return weights_row(self.thetas[players])


def field_bots(rules: RutsmieterRules, specs=FIELD) -> list:
    """The curve's field at the table of ``rules``: parsed bots that play in the
    kernel. ``weights:NAME`` is a shipped file of ``tutto_sim/data/policies``
    (``policy.weights_file``), named without ``rutsmieter-`` and played under the house
    rules of ``rules`` (as ``tuned``: the features mean the same under every option)."""
    from .bots import WeightsBot, parse_bot
    from .policy import load_weights_policy, weights_file

    bots = []
    for s in specs:
        kind, _, arg = s.partition(":")
        if kind == "weights":
            bots.append(WeightsBot(Path(arg).stem.removeprefix("rutsmieter-"),
                                   load_weights_policy(weights_file(arg)).at(rules)))
        else:
            bots.append(parse_bot(s, rules))
    return bots


def checkpoints(games: int) -> list[int]:
    """Where the curve is measured: after 0 games, 100, 200, 500, 1,000, 2,000,
    … (most is learned early) and after the last.

    >>> checkpoints(3_000)
    [0, 100, 200, 500, 1000, 2000, 3000]
    """
    out, k = [0], 0
    while True:
        g = (1, 2, 5)[k % 3] * 100 * 10 ** (k // 3)
        if g >= games:
            return out + [games]
        out.append(g)
        k += 1


def learn(players=PLAYER_CHOICES, seed: int = 1, games: int = GAMES, alpha: float = ALPHA,
          lam: float = LAMBDA, curve_games: int = CURVE_GAMES, final_games: int = FINAL_GAMES,
          rules: RutsmieterRules = RutsmieterRules(), phase: Phase | None = None) -> TDResult:
    """Train ``games`` games at each table size of ``players`` and draw the
    curve (module docstring) at :func:`checkpoints`, ``curve_games`` games
    against each field bot at each point, then play the final weights on
    ``final_games`` against each. Ctrl-C keeps the games trained so far (and
    the curve measured so far): ``interrupted``, without final games."""
    from dataclasses import replace

    from tutto_sim.core.analysis import FRESH_START

    from .optimize import Games, win_rate

    phase = phase or (lambda label, total, **kw: (lambda k: None))
    t0 = time.perf_counter()
    players = tuple(players)
    tables = [replace(rules, players=n) for n in players]
    fields = {r.players: field_bots(r) for r in tables}
    res = TDResult(seed, players, games, alpha, lam, [b.name for b in fields[players[0]]])
    curve = {r.players: Games(r, fields[r.players], seed, curve_games, start=FRESH_START)
             for r in tables}
    finals = {r.players: Games(r, fields[r.players], seed, final_games, start=FRESH_START)
              for r in tables}
    thetas = np.zeros((len(tables), 1 + N_POSITION))
    points = checkpoints(games)
    # the bar counts games: of self-play and against the field (about as fast)
    step = phase("self-play, the curve and the final games",
                 len(tables) * games + len(points) * sum(g.total for g in curve.values())
                 + sum(g.total for g in finals.values()), unit="games",
                 keeps="the games of self-play finished")

    def measure(th) -> None:
        for r, row in zip(tables, th):
            e = win_rate(curve[r.players].play(weights_row(row)).won)
            res.curve.append(CurvePoint(res.games_done, r.players, e.mean, e.low, e.high, e.n))
            step(curve[r.players].total)

    try:
        measure(thetas)
        for point in points[1:]:
            size = point - res.games_done
            t1 = time.perf_counter()
            new = train(tables, seed, size, alpha, lam, start=res.games_done, thetas=thetas,
                        chunk=max(1, min(size, 5_000)), step=lambda k: step(k * len(tables)))
            res.train_seconds += time.perf_counter() - t1
            thetas, res.games_done = new, res.games_done + size
            measure(thetas)
        res.thetas = {n: tuple(map(float, row)) for n, row in zip(players, thetas)}
        for r, row in zip(tables, thetas):
            final = finals[r.players]
            won = final.play(weights_row(row)).won
            res.final[r.players] = {**final.by_bot(won), "all": win_rate(won)}
            step(final.total)
    except KeyboardInterrupt:
        res.interrupted = True
    res.thetas = {n: tuple(map(float, row)) for n, row in zip(players, thetas)}
    res.seconds = time.perf_counter() - t0
    return res


def chart(res: TDResult, path: Path | str) -> Path:
    """The training curve as a PNG: win rate against the field by games of
    self-play, one line per table size with its 95% band, the fair share dashed."""
    from matplotlib.figure import Figure

    from tutto_sim.core.report import style

    path = Path(path)
    with style():
        fig = Figure(figsize=(7.5, 4.2), dpi=120)
        ax = fig.add_subplot()
        for i, n in enumerate(res.players):
            pts = [c for c in res.curve if c.players == n]
            if not pts:
                continue
            x = [c.games for c in pts]
            colour = f"C{i}"
            ax.plot(x, [c.win_rate for c in pts], marker="o", ms=3, color=colour,
                    label=f"{n} players")
            ax.fill_between(x, [c.low for c in pts], [c.high for c in pts], color=colour,
                            alpha=0.2, lw=0)
            ax.axhline(1 / n, color=colour, ls="--", lw=0.8)
        ax.set_xlabel("games of self-play (at each table size)")
        ax.set_ylabel("win rate against the field")
        ax.set_xscale("symlog", linthresh=100, linscale=0.5)
        ax.set_xlim(0, 1.2 * max(c.games for c in res.curve) if res.curve else 1)
        ticks = sorted({c.games for c in res.curve})
        ax.set_xticks(ticks, [f"{g // 1000}k" if g >= 1000 else str(g) for g in ticks],
                      fontsize=7)
        ax.minorticks_off()
        ax.set_title("Rutsmieter: learning a position's value by self-play", loc="left")
        names = ", ".join(res.field[:-1]) + " and the first tuned weights"
        fig.text(0.01, 0.01, textwrap.fill(
            f"The learner in one seat, a bot of the field ({names}) in the others, each bot "
            f"and seat equally often, the same games at every point; band: 95% CI; dashed: "
            f"the fair share. At 0 games every weight is 0: the learner plays as first.", 130),
            fontsize=7)
        ax.legend(loc="upper left", fontsize=8)
        ax.grid(alpha=0.3)
        fig.subplots_adjust(bottom=0.22)
        fig.savefig(path, format="png")
    return path
