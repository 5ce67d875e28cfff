r"""Playing to win: exact win probabilities of two-player Berliner Macke and Volle Lotte.

Part of the solver layer, beside the turn solver ``macke.solver`` (read
its docstring first: the states of one turn, its throws, keeps, returns and
clears are the same here). That solver maximises a turn's expected signed
result; this module maximises the chance of winning the game, for two
players who both play to win (docs/macke-win.md).

Scores and the floor
--------------------
Points are in units of 50. ``G`` is the target (``rules.target``), ``F < 0``
the *floor*: scores below it are held at it (default ``F`` = -2500 points,
as Busche did for Farkle). A turn-start state is ``(a, b)``: the score of
the player to move and the opponent's, ``F <= a, b < G``. The table is

.. math:: W[\text{seat}, a - F, b - F]

(units), the probability that the player to move wins when both maximise
their chances; ties count one half. Seat 0 moves first in each round. In
Macke the seat does not matter (below), so ``W[0] == W[1]``.

Game end, two players
---------------------
docs/macke.md (end of the game): "when a player ends a turn at or above the target, each other
player gets exactly one more turn". With two players this reads the same
for both seats: whoever ends a turn at ``s >= G`` first, the opponent (score
``b``) plays exactly one more turn, and then the higher score wins (the game
engines ``macke.game`` and ``macke.game_kernel`` do this too: after seat 1
finishes, seat 0 throws once more). That last turn is a one-turn problem:
the player needs a result above ``d = s - b >= 1`` (equal: half a win), so
its chance is a function ``L(d)`` alone, the best chance over every turn
policy. Variant ``instant-win``: five 1s in one throw win at once, also in
the last turn.

The Bellman equation
--------------------
A turn from ``(a, b)`` ends with a signed result ``r`` (``+T`` for a total
``T >=`` the minimum, ``-T`` below it, ``-T`` for a Macke after the first
throw, ``0`` with ``bust=zero``), the new score ``s = max(F, a + r)``, and
the value of that outcome for the mover is

.. math::
   g_{ab}(s) = \begin{cases} 1 - L(s - b) & s \ge G \\
                             1 - W[b, s] & s < G \text{ (the opponent moves)} \end{cases}

(five 1s: 1). ``W[a, b]`` is the optimal value of one turn of the turn
solver with these leaves in place of ``r`` (banking at total ``T`` is worth
``g(a + r(T))``, a Macke at ``T`` is worth ``g(a - T)``):

.. math:: W[a, b] = \max_{\text{turn policy}} \mathbb{E}\, g_{ab}(s), \qquad
          L(d) = \max_{\text{turn policy}} P(r > d) + \tfrac12 P(r = d).

*Why iterate.* Scores can fall (a result below the minimum, a Macke), so
``W[a, b]`` depends on ``W[b, s]`` with ``s < a``, and on ``W[b, a]`` (a zero
result) which depends on ``W[a, b]``: no order of the states solves it in one
pass, unlike the turn itself. ``L`` needs no iteration (one turn).

*Solve.* Policy iteration: the greedy turn of every pair against the current
``W`` (one *sweep*: the turn DP per pair, numba, parallel over fixed blocks
of pairs), the exact distribution of that turn's outcomes (a forward pass
under its decisions), then the exact value of playing that policy on both
sides (a linear system, solved by Jacobi iteration to 1e-14). The start is
the value of both playing the EV-optimal turn policy. It stops when a sweep
changes no value by more than ``tol`` (default 1e-10): ``residual`` =
``max |T W - W|`` of the last sweep, whose ``T W`` is returned. The game ends
with probability 1 from every state, so the operator is a contraction over
enough turns and ``W`` is its fixed point (PI is a heuristic for games; the
residual certifies the answer whatever path led there).

*The turn totals that matter.* The turn DP of pair ``(a, b)`` runs over the
locked totals ``T0 < t*`` only: a new series after a clear at ``T`` is worth
at most ``p0 g(a - T) + (1 - p0)`` (``p0``: a Macke on a throw of all dice;
``g(a)`` with ``bust=zero``), so where banking ``g(a + T)`` is at least that
for every larger ``T``, banking the clear is optimal. ``t*`` is the smallest
such total, and ``cap_units`` (default 400 units = 20,000 points) bounds it:
a clear at or above it is banked. The best chance to make 20,000 points in
one turn is about 1e-13 (``last_turn``), so this changes no value by more;
the tests raise the cap and see nothing change.

*The floor.* Holding scores at ``F`` makes the state space finite. It
changes the game only where a score would fall below ``F``; the tests
compare floors and report the largest difference in ``W``.

Figures beside ``W``
--------------------
``p_first_wins = W[0, -F, -F]``; ``p_first_wins_ev``: both play the
EV-optimal turn policy of ``solve_macke`` (the ``optimal`` bot; its turn does
not depend on the scores, so one forward pass gives its outcome
distribution); ``win_vs_ev``: the win-optimal player against the EV-optimal
one, averaged over both seatings, both exact by the same linear evaluation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from tutto_sim.core.blocks import chunks
from tutto_sim.core.policyfile import fields_sha256, schema_of, win_table_document, write_compact
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke import win_kernel as wk
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import kernel_args, slot_layout, solve_macke, turn_level

#: A clear at a turn total of at least this many units (20,000 points) is
#: banked: the best chance to make that much in one turn is about 1e-13.
DEFAULT_CAP_UNITS = 400
#: Scores below this (points) are held at it (Busche's Farkle floor).
DEFAULT_FLOOR = -2500
#: Lowest floor accepted (points): the tables grow with target - floor.
MIN_FLOOR = -20_000
#: Largest target (points) the win solve accepts.
MAX_TARGET = 20_000
#: Stop when a sweep changes no value by more than this.
DEFAULT_TOL = 1e-10
#: Fixed blocks of score pairs (each with its own scratch) for the parallel sweeps.
N_BLOCKS = 8
_EVAL_TOL = 1e-14


@dataclass(frozen=True)
class MackeWinSolution:
    """Exact win probabilities of two-player Macke (module docstring).

    ``W[seat, a - floor, b - floor]`` (units of 50) and ``last_turn[d]``
    (the best chance in a last turn that needs a result above ``d`` units)
    are probabilities; ``floor`` and ``target`` are points.
    ``win_vs_ev_seats``: the win-optimal player's chance against the
    EV-optimal one when moving first and second (``win_vs_ev`` their mean);
    ``max_locked``: the largest locked total (points) any pair's turn needed;
    ``ev_table``: ``W`` when both play the EV-optimal turn.
    """

    rules: MackeRules
    floor: int
    target: int
    cap_units: int
    W: np.ndarray
    last_turn: np.ndarray
    p_first_wins: float
    p_first_wins_ev: float
    win_vs_ev: float
    residual: float
    iterations: int
    seconds: float
    win_vs_ev_seats: tuple = (0.0, 0.0)
    max_locked: int = 0
    ev_table: np.ndarray = field(default=None, repr=False)

    @property
    def states(self) -> int:
        """Turn-start states: both seats times every pair of scores."""
        return int(self.W.size)

    def win(self, mine: int, theirs: int, seat: int = 0) -> float:
        """W for the mover's and the opponent's scores in points (held at the floor)."""
        f, n = self.floor // POINT_UNIT, self.W.shape[1]
        i, j = (max(x // POINT_UNIT, f) - f for x in (mine, theirs))
        if not (i < n and j < n):
            raise ValueError(f"scores must be below the target {self.target:,}")
        return float(self.W[seat, i, j])

    def summary(self) -> dict:
        """The figures of ``solve --objective win --json``."""
        return {"game": self.rules.game, "variant": self.rules.variant, "objective": "win",
                "target": self.target, "floor": self.floor, "p_first_wins": self.p_first_wins,
                "p_first_wins_ev": self.p_first_wins_ev, "win_vs_ev": self.win_vs_ev,
                "states": self.states, "residual": self.residual,
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "cap_units": self.cap_units, "rules": self.rules.to_dict()}


class WinSetup:
    """Tables, scalars and scratch of one rule set (units of 50)."""

    def __init__(self, rules: MackeRules, floor: int, cap_units: int):
        m, t, args = kernel_args(rules)
        self.rules, self.m = rules, m
        self.tab = tuple(args)
        self.n_all, self.L = rules.n_dice, rules.throws
        self.min_u = rules.min_score // POINT_UNIT
        self.subtract = rules.bust == "subtract"
        self.floor_u, self.target_u = floor // POINT_UNIT, rules.target // POINT_UNIT
        self.n = self.target_u - self.floor_u
        self.hc = int(cap_units)
        self.series_max = int(m.state_pts.max())
        self.n_t = self.hc + self.series_max + 1  # every turn total below the cap's reach
        n = rules.n_dice
        ms = np.arange(t.start[n], t.start[n + 1])
        macke = (m.keep_start[ms + 1] == m.keep_start[ms]) & ~m.win[ms]
        self.p0 = float(t.prob[ms][macke].sum())
        _, self.n_slots = slot_layout(m)

    def scratch(self, rows: int):
        ns, L1, nb = len(self.m.state_dice), self.L + 1, N_BLOCKS
        sf = (np.zeros((nb, self.n_t)), np.zeros((nb, self.n_t)), np.zeros((nb, self.hc)),
              np.zeros((nb, L1, ns)), np.zeros((nb, L1, ns)), np.zeros((nb, self.n_t)),
              np.zeros((nb, self.n_t)))
        si = (np.zeros((nb, self.hc), dtype=np.bool_), np.zeros((nb, rows, L1, self.n_slots), np.int8),
              np.zeros((nb, rows, L1, ns), np.int8), np.zeros((nb, rows, L1, ns), np.bool_))
        return sf, si

    def last_turn(self) -> np.ndarray:
        """``L(d)``, d = 0 .. cap + best series: the win-optimal last turn."""
        sf, si = self.scratch(1)
        return wk.last_turn(self.n_t, self.hc, self.p0, self.min_u, self.subtract, self.n_all,
                            self.L, self.tab, self.m.empty, sf, si)

    def ev_outcomes(self):
        """Outcome distribution of the EV-optimal turn (``solve_macke``): by total."""
        from tutto_sim.macke.rules import macke_turn_rules

        sol = solve_macke(macke_turn_rules(self.rules))
        dec = sol.decisions
        cap = sol.cap_units
        n_t = cap + self.series_max + 1
        bank_mass, macke_mass = np.zeros(n_t), np.zeros(n_t)
        mass = np.zeros((cap, self.L + 1, len(self.m.state_dice)))
        p_win = wk.turn_outcomes(cap, self.n_all, self.L, self.tab, self.m.empty, dec.keep,
                                 dec.ret, dec.bank, dec.clear_bank, mass, bank_mass, macke_mass)
        return bank_mass, macke_mass, p_win

    def chances_above(self, bank_mass, macke_mass, p_win) -> np.ndarray:
        """``out[d]`` = P(result > d) + P(result = d)/2 (+ five 1s) of a turn's outcomes."""
        t = np.arange(len(bank_mass))
        res = np.concatenate([np.where(t >= self.min_u, t, -t), -t if self.subtract else 0 * t])
        mass = np.concatenate([bank_mass, macke_mass])
        d = np.arange(len(bank_mass))[:, None]
        return p_win + ((res[None, :] > d) * mass).sum(1) + 0.5 * ((res[None, :] == d) * mass).sum(1)


def last_turn_chances(rules: MackeRules = MackeRules(),
                      cap_units: int = DEFAULT_CAP_UNITS) -> np.ndarray:
    """``L[d]``: the best chance to end one turn with a result above ``d``
    units (equal: one half; five 1s win), d = 0 .. cap + the best series."""
    return WinSetup(rules, -POINT_UNIT, cap_units).last_turn()


def ev_game(rules: MackeRules = MackeRules(), floor: int = DEFAULT_FLOOR) -> np.ndarray:
    """``E[a - floor, b - floor]``: the mover's chance when both play the
    EV-optimal turn policy (the ``optimal`` bot), exact (module docstring)."""
    check_win_rules(rules, floor)
    s = WinSetup(rules, floor, DEFAULT_CAP_UNITS)
    ev = s.ev_outcomes()
    le = s.chances_above(*ev)
    n = s.n
    q, c = np.zeros((n * n, n)), np.zeros((n * n, 2))
    wk.settle_all(n, s.floor_u, s.target_u, s.min_u, s.subtract, *ev, le, le, q, c)
    (e,), _ = policy_values([q.reshape(n, n, n)], [c.reshape(n, n, 2)[..., 1]])
    return e


def policy_values(q: list, c: list, start: list | None = None, tol: float = _EVAL_TOL,
                  max_iter: int = 1_000_000):
    """Exact values of fixed turn policies (Jacobi iteration).

    Mover ``k`` (of one, or two playing each other) at pair ``(a, b)``
    reaches score ``s < target`` with probability ``q[k][a, b, s]`` and wins
    through the rest of its outcomes with ``c[k][a, b]``:
    ``V_k[a, b] = c_k[a, b] + sum_s q_k[a, b, s] (1 - V_other[b, s])``.
    """
    v = [np.array(x) for x in start] if start is not None else [np.array(x) for x in c]
    other = [0] if len(q) == 1 else [1, 0]
    for it in range(max_iter):
        new = [c[k] + np.einsum("abs,bs->ab", q[k], 1.0 - v[other[k]]) for k in range(len(q))]
        delta = max(float(np.abs(x - y).max()) for x, y in zip(new, v))
        v = new
        if delta <= tol:
            return v, it + 1
    raise RuntimeError(f"policy evaluation did not converge ({delta:.2e} after {max_iter} steps)")


def sweep_label(it: int) -> str:
    """The phase of sweep ``it`` of a win solve: the number of sweeps is known only at the end."""
    return f"solving to win: sweep {it} (usually 4 to 6)"


def check_win_rules(rules: MackeRules, floor: int) -> None:
    """ValueError in one line for a floor or target the win solve does not take."""
    if not isinstance(floor, int) or floor % POINT_UNIT or not MIN_FLOOR <= floor < 0:
        raise ValueError(f"the floor must be a negative multiple of {POINT_UNIT} from "
                         f"{MIN_FLOOR:,} to -{POINT_UNIT}, not {floor}")
    if rules.target > MAX_TARGET:
        raise ValueError(f"the win solve takes targets up to {MAX_TARGET:,}, not {rules.target:,}")


def solve_macke_win(rules: MackeRules = MackeRules(), floor: int = DEFAULT_FLOOR,
                    cap_units: int = DEFAULT_CAP_UNITS, tol: float = DEFAULT_TOL,
                    max_iter: int = 50, phase=None) -> MackeWinSolution:
    """Win probabilities of two-player Macke under win-optimal play (module docstring).

    ``phase(label, total) -> advance(n)`` reports progress (``core.cli.progress_phases``).

    Examples
    --------
    >>> sol = solve_macke_win(MackeRules(target=200), floor=-300, cap_units=40)
    >>> 0.5 < sol.p_first_wins < 1, sol.residual <= 1e-10
    (True, True)
    """
    check_win_rules(rules, floor)
    phase = phase or (lambda label, total, unit=None: (lambda k: None))
    t_start = time.perf_counter()
    advance = phase("the last turn and the points player", 1, "steps")
    s = WinSetup(rules, floor, cap_units)
    n, f, g = s.n, s.floor_u, s.target_u
    lw = s.last_turn()
    ev = s.ev_outcomes()
    le = s.chances_above(*ev)
    q_e, c_e = np.zeros((n * n, n)), np.zeros((n * n, 2))
    wk.settle_all(n, f, g, s.min_u, s.subtract, ev[0], ev[1], ev[2], lw, le, q_e, c_e)
    q_e, c_e = q_e.reshape(n, n, n), c_e.reshape(n, n, 2)
    (e,), _ = policy_values([q_e], [c_e[..., 1]])
    sf, si = s.scratch(s.hc)
    mass = np.zeros((N_BLOCKS, s.hc, s.L + 1, len(s.m.state_dice)))
    w = e
    q_w, c_w = np.zeros((n * n, n)), np.zeros((n * n, 2))
    w_new, tstars = np.zeros(n * n), np.zeros(n * n, dtype=np.int64)
    advance(1)
    for it in range(1, max_iter + 1):
        advance = phase(sweep_label(it), n * n, "turn-start states")
        for lo, hi in chunks(n * n):
            wk.greedy_sweep(w, lw, le, f, g, s.hc, s.p0, s.min_u, s.subtract, s.n_all, s.L,
                            s.tab, s.m.empty, sf, si, mass, w_new, q_w, c_w, tstars, lo, hi)
            advance(hi - lo)
        residual = float(np.abs(w_new.reshape(n, n) - w).max())
        if residual <= tol:
            break
        qw3, cw3 = q_w.reshape(n, n, n), c_w.reshape(n, n, 2)
        (w,), _ = policy_values([qw3], [cw3[..., 0]], start=[w_new.reshape(n, n)])
    else:
        raise RuntimeError(f"the win solve did not reach {tol:g} in {max_iter} sweeps "
                           f"(residual {residual:.2e})")
    w = w_new.reshape(n, n).copy()
    qw3, cw3 = q_w.reshape(n, n, n), c_w.reshape(n, n, 2)
    (x, y), _ = policy_values([qw3, q_e], [cw3[..., 1], c_e[..., 0]])
    z = -f
    return MackeWinSolution(
        rules=rules, floor=floor, target=rules.target, cap_units=s.hc,
        W=np.stack([w, w]), last_turn=lw, p_first_wins=float(w[z, z]),
        p_first_wins_ev=float(e[z, z]), win_vs_ev=float((x[z, z] + 1.0 - y[z, z]) / 2),
        win_vs_ev_seats=(float(x[z, z]), float(1.0 - y[z, z])),
        residual=residual, iterations=it, seconds=time.perf_counter() - t_start,
        max_locked=int(tstars.max()) * POINT_UNIT, ev_table=e)


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
#: Rule fields a win table depends on (``win_value`` is the turn analysis' price
#: of five 1s; to win, five 1s are worth the game).
WIN_FIELDS = ("variant", "min_score", "throws", "bust", "target", "six_of_kind")


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
    return schema_of(__package__, "macke-win-policy.schema.json")


def load_win_table(path, rules: MackeRules | None = None) -> MackeWinTable:
    """Read a Macke / Volle Lotte win policy file; :class:`PolicyFileError` (one
    line) for a damaged file, another version or kind, a floor or shapes that
    do not fit, or rules other than ``rules`` (the fields of :data:`WIN_FIELDS`)."""
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
    if rules is not None:
        wrong = [f"{f}={getattr(rules, f)!r} (file: {getattr(file_rules, f)!r})"
                 for f in WIN_FIELDS if getattr(rules, f) != getattr(file_rules, f)]
        if wrong:
            raise PolicyFileError(f"win table {path} was solved for other rules: {', '.join(wrong)}")
    return MackeWinTable(file_rules, floor, int(d["cap_units"]), np.array(w, dtype=float),
                         np.array(d["last_turn"], dtype=float), d["summary"])


# --------------------------------------------------------------------------
# decisions inside a turn (the winopt bot)
# --------------------------------------------------------------------------


def two_player_scores(scores, seat: int) -> tuple[int, int]:
    """The two-player state a seat at a table of N plays to win by: its own
    score against the leader's among the others (the strongest opponent).
    The table has no seats (whoever moves, the state is the two scores), and
    in the last round (nachwerfen) the leader's score is the one to pass.
    The one place that decides it: an exact N-player table would be chosen
    here. With two players it is the table itself."""
    if len(scores) < 2:
        raise ValueError("winopt plays against at least one other player")
    return scores[seat], max(x for q, x in enumerate(scores) if q != seat)


class WinPlanner:
    """Win-optimal decisions inside a turn from a win table (two players).

    The turn of a pair of scores is the solver's greedy turn
    (:func:`win_kernel.greedy_sweep`): one turn's programme with the table's
    values at its leaves, solved once per pair and kept as
    :class:`~tutto_sim.macke.solver.MackeDecisions` (a clear at or above the
    pair's ``t*`` is banked). The last turn (nachwerfen) needing more than
    ``d`` units is :func:`win_kernel.last_turn`'s programme for that ``d``.
    Scores below the floor count as the floor, as in the table.
    """

    def __init__(self, table: MackeWinTable, keep_turns: int = 4096):
        import threading

        self.table = table
        self.rules = table.rules
        self.s = WinSetup(table.rules, table.floor, table.cap_units)
        self._sf, self._si = self.s.scratch(self.s.hc)
        self._turns: dict = {}
        self._advice: dict = {}  # turn -> the values that advice reads
        self._lock = threading.Lock()  # one scratch: one turn programme at a time
        self.keep_turns = keep_turns

    def _solve(self, bankv, mackev):
        from tutto_sim.macke.solver import MackeDecisions

        s = self.s
        cv, vt, bt = self._sf[2][0], self._sf[3][0], self._sf[4][0]
        cbank, keep, ret, bank = self._si[0][0], self._si[1][0], self._si[2][0], self._si[3][0]
        tstar = wk.bank_bound_cap(bankv, mackev, s.p0, s.hc)
        value = wk.turn_value(tstar, True, s.n_all, s.L, s.tab, s.m.empty, bankv, mackev, 1.0,
                              cv, cbank, vt, bt, keep, ret, bank)
        clear = np.append(cbank[:tstar], True)
        dec = MackeDecisions(self.rules, keep[:tstar].copy(), ret[:tstar].copy(),
                             bank[:tstar].copy(), clear)
        return float(value), dec

    def _cached(self, key, leaves):
        """``(chance, decisions, policy)``: the policy plays the decisions
        (:class:`~tutto_sim.macke.policy.MackeTablePolicy`)."""
        from tutto_sim.macke.policy import MackeTablePolicy

        with self._lock:
            if key not in self._turns:
                if len(self._turns) >= self.keep_turns:
                    self._turns.clear()
                bankv, mackev = self._sf[0][0], self._sf[1][0]
                leaves(bankv, mackev)
                value, dec = self._solve(bankv, mackev)
                self._turns[key] = value, dec, MackeTablePolicy(self.rules, dec)
            return self._turns[key]

    def units(self, points: int) -> int:
        """A score in units, held at the floor."""
        return max(points // POINT_UNIT, self.s.floor_u)

    def turn(self, own: int, other: int):
        """``(chance, decisions, policy)`` of the turn from scores ``own``, ``other`` (points)."""
        s = self.s
        a, b = self.units(own), self.units(other)
        if not (a < s.target_u and b < s.target_u):
            raise ValueError(f"scores must be below the target {self.rules.target:,}")
        key = ("turn", a, b)
        return self._cached(key, lambda bankv, mackev: self._fill_leaves(key, bankv, mackev))

    def last_turn(self, own: int, best_other: int):
        """``(chance, decisions, policy)`` of the last turn (nachwerfen) on ``own`` points
        against ``best_other``: more wins, equal is half a win."""
        key = ("last", best_other // POINT_UNIT - self.units(own))
        return self._cached(key, lambda bankv, mackev: self._fill_leaves(key, bankv, mackev))

    def for_view(self, game):
        """``(chance, decisions, policy)`` of the player to move in a game view;
        at a table of three or more in the reduced state of :func:`two_player_scores`."""
        own, other = two_player_scores(game.scores, game.seat)
        if game.last_round:
            return self.last_turn(own, other)
        return self.turn(own, other)

    # ---- advice: the chance to win after each choice ----------------------
    def option_chances(self, d) -> list[float]:
        """The chance to win after each of ``d.legal`` (a ``MackeDecision`` of a
        two-player game), the rest of the game played to win: the values of
        the turn's programme at the decision (docs/macke-win.md)."""
        from tutto_sim.dice.api import BANK_OR_THROW, KEEP
        from tutto_sim.macke.game import BANK_OR_SERIES, RETURN

        g = d.game
        if len(g.scores) != 2:
            raise ValueError(f"the win table is for two players, not {len(g.scores)}")
        s, m = self.s, self.s.m
        own, other = g.scores[g.seat], g.scores[1 - g.seat]
        key = ("last", other // POINT_UNIT - self.units(own)) if g.last_round else (
            "turn", self.units(own), self.units(other))
        t0, u, t = d.locked // POINT_UNIT, d.view.aside, d.turn_total // POINT_UNIT
        with self._lock:
            bankv, cv, tstar = self._values(key)
            if d.kind == BANK_OR_SERIES:
                if t >= s.hc:
                    return [float(bankv[t]), float(bankv[t])]
                vt, _ = self._level(key, t)
                return [float(bankv[t]), float(vt[s.L, m.empty])]
            if t0 >= s.hc:  # past the cap every turn ends banked
                return [float(bankv[t])] * len(d.legal)
            vt, bt = self._level(key, t0)
            if d.kind == KEEP:
                out = []
                for st in d.options:
                    u2 = int(m.add[u, st])
                    tt = t0 + int(m.state_pts[u2])
                    if int(m.state_dice[u2]) == s.n_all:
                        out.append(float(cv[tt] if tt < tstar else bankv[tt]))
                    elif d.throws_left == 0:
                        out.append(float(bankv[tt]))
                    else:
                        out.append(float(max(bankv[tt], bt[d.throws_left, u2])))
                return out
            if d.kind == RETURN:
                return [float(vt[d.throws_left, st]) for st in d.options]
            if d.kind == BANK_OR_THROW:
                return [float(bankv[t]), float(bt[d.throws_left, u])]
        raise ValueError(f"no advice for a {d.kind} decision")

    def _values(self, key):
        """``(leaves, values after a clear, t*)`` of a turn, kept per turn."""
        s = self.s
        if key not in self._advice:
            if len(self._advice) >= 64:
                self._advice.clear()
            bankv, mackev = self._sf[0][0], self._sf[1][0]
            cv, vt, bt = self._sf[2][0], self._sf[3][0], self._sf[4][0]
            cbank, keep, ret, bank = self._si[0][0], self._si[1][0], self._si[2][0], self._si[3][0]
            self._fill_leaves(key, bankv, mackev)
            tstar = wk.bank_bound_cap(bankv, mackev, s.p0, s.hc)
            wk.turn_value(tstar, True, s.n_all, s.L, s.tab, s.m.empty, bankv, mackev, 1.0, cv,
                          cbank, vt, bt, keep, ret, bank)  # fills cv for every total
            self._advice[key] = (bankv.copy(), mackev.copy(), cv.copy(), tstar, {})
        bankv, _, cv, tstar, _ = self._advice[key]
        return bankv, cv, tstar

    def _level(self, key, t0: int):
        """``(vt, bt)``: the values of a turn's locked total ``t0`` (``turn_level``)."""
        s = self.s
        bankv, mackev, cv, tstar, levels = self._advice[key]
        if t0 not in levels:
            vt, bt = np.zeros_like(self._sf[3][0]), np.zeros_like(self._sf[4][0])
            keep, ret, bank = self._si[1][0][0], self._si[2][0][0], self._si[3][0][0]
            turn_level(t0, s.n_all, s.L, s.tab, bankv, mackev, 1.0, tstar, cv, vt, bt, keep, ret,
                       bank)
            levels[t0] = vt, bt
        return levels[t0]

    def _fill_leaves(self, key, bankv, mackev) -> None:
        s = self.s
        if key[0] == "turn":
            _, a, b = key
            wk.win_leaves(a, b, self.table.W[b - s.floor_u], self.table.last_turn, s.floor_u,
                       s.target_u, s.min_u, s.subtract, bankv, mackev)
        else:
            d = key[1]
            t = np.arange(s.n_t)
            res = np.where(t >= s.min_u, t, -t)
            lost = -t if s.subtract else 0 * t
            bankv[:] = (res > d) + 0.5 * (res == d)
            mackev[:] = (lost > d) + 0.5 * (lost == d)


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
