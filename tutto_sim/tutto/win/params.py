"""One turn's parameters for the win solvers' programme: the tables it reads,
built once per rules from the throw tables and the EV-optimal table (the
throws grouped into classes that score alike, the keep slots, the chances the
pruning needs, the EV table's turn outcomes), and the per-thread scratch.

Read with :mod:`tutto_sim.tutto.win.programme` (the kernels these feed);
both solvers, the planners and the ``winopt`` bot take their parameters here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES, TuttoRules
from tutto_sim.tutto.solver import CARD_FREQ, max_card_points, street_new_numbers
from tutto_sim.tutto.win import programme as k
#: The first phase of a win solve (``phase``): the tables of a turn, the last turns.
PREPARING = "preparing the tables of a turn"


# --------------------------------------------------------------------------
# parameters for the kernels
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnParams:
    tp: tuple
    ev: tuple
    t_max: int
    cpmax: int
    #: the EV table's turn outcomes (q, po, hfw, pb, pw) of :func:`_ev_outcomes`
    ev_out: tuple = ()


def points_player(rules: TuttoRules, opponent=None):
    """The points player the solvers value play against: ``opponent`` (an
    :class:`tutto_sim.tutto.policy.ExactPolicy`, e.g. a policy file read with
    ``policy.load_policy``) when given, else the ``optimal`` bot's table
    (``policy.optimal_policy``). Its table must be one of these rules' turn
    (``policy.turn_rules``): else ``ValueError`` naming the fields."""
    from tutto_sim.tutto.policy import optimal_policy, turn_rules

    if opponent is None:
        return optimal_policy(rules)
    want, got = turn_rules(rules), turn_rules(opponent.rules)
    wrong = [f for f in want.__dataclass_fields__ if getattr(want, f) != getattr(got, f)]
    if wrong:
        raise ValueError(f"the points player's table was solved for other rules: "
                         f"{', '.join(wrong)}")
    return opponent


def turn_params(rules: TuttoRules, gmax: int, opponent=None) -> TurnParams:
    """The kernels' parameters for turn totals up to ``gmax``, with the points
    player's table :func:`points_player` (``opponent``, default ``optimal``)."""

    t = build_tables(rules.scoring)
    prob = np.ascontiguousarray(t.prob)
    start = np.ascontiguousarray(t.start).astype(np.int64)
    best_pts = np.ascontiguousarray(t.best_pts).astype(np.int64)
    kd = np.ascontiguousarray(t.keep_dice).astype(np.int64)
    kp = np.ascontiguousarray(t.keep_pts).astype(np.int64)
    bonus = np.array([Card(c).bonus // POINT_UNIT for c in range(N_CARDS)], dtype=np.int64)
    p_hi, p_lo = k.tutto_extremes(prob, start, best_pts)
    r = street_new_numbers(prob, start, np.ascontiguousarray(t.faces))
    q_hi, q_lo = k.street_extremes(r)
    pol = points_player(rules, opponent)
    cpmax = max_card_points(t)
    # the Feuerwerk's gains as far as a turn of the EV table reaches (_ev_outcomes)
    pmf, surv = k.fireworks_pmf(prob, start, kd, kp,
                                 max(gmax, _ev_reach(int(pol.t_max), best_pts, bonus, cpmax) + 3))
    gstart, gprob, _, gk, kdice, kpts = _throw_classes(prob, start, best_pts, None)
    kslot, slot_lk = _keep_slots(gstart, gk, kdice, kpts)
    p_niete, rho = _bust_chances(gstart, gprob, gk, float(p_hi[MAX_DICE]), float(q_hi))
    tp = (rules.x2_scope == "card", PLUSMINUS_CHAIN_CHOICES.index(rules.plusminus_chain),
          gstart, gprob, gk, kdice, kpts, best_pts, np.ascontiguousarray(CARD_FREQ), bonus,
          float(p_hi[MAX_DICE]), float(p_lo[MAX_DICE]), float(q_hi), float(q_lo), pmf, surv,
          kslot, slot_lk, p_niete, rho, kleeblatt_bound(float(p_hi[MAX_DICE]), float(q_hi)))

    _check_ev_banks_at_top(pol)
    keep = np.ascontiguousarray(pol.keep.astype(np.int64))
    p_pm = float(k.tutto_value_table(prob, start, keep[Card.PLUSMINUS, 0]))
    p_cl = float(k.tutto_value_table(prob, start, keep[Card.CLOVERLEAF, 0])) ** 2
    q_ev = float(k.street_table(r, np.ascontiguousarray(pol.street_take.astype(np.int64))))
    if pol.keep_x2p is not None:
        kx = np.ascontiguousarray(pol.keep_x2p.astype(np.int64))
        bx = np.ascontiguousarray(pol.bank_x2p)
    else:
        kx = np.zeros((1, 1, keep.shape[2]), dtype=np.int64)
        bx = np.zeros((1, MAX_DICE, 1), dtype=np.bool_)
    # the EV table's throws: alike when they score alike and the table keeps alike
    ev_key = np.concatenate([keep.reshape(-1, keep.shape[2]), kx.reshape(-1, kx.shape[2])]).T
    egstart, egprob, egrep, _, _, _ = _throw_classes(prob, start, best_pts, ev_key)
    ev = (keep, np.ascontiguousarray(pol.bank), np.ascontiguousarray(pol.draw), kx, bx,
          int(pol.t_max), p_pm, p_cl, q_ev, egstart, egprob, egrep)
    return TurnParams(tp, ev, int(pol.t_max), cpmax, _ev_outcomes(tp, ev, gmax - 2, cpmax))


def _ev_reach(t_max: int, best_pts, bonus, cpmax: int) -> int:
    """A bound on the largest total a turn of the EV table reaches: it draws
    and throws only below ``t_max``; an x2 Tutto doubles."""
    return 2 * (t_max + int(best_pts.max()) + cpmax) + int(bonus.max()) + 2 * k.STREET_UNITS


def _ev_outcomes(tp, ev, tsize: int, cpmax: int) -> tuple:
    """The EV table's turn outcomes for :func:`kernel_n.ev_state`: with
    ``po, fw, pb, pw`` of :func:`programme.ev_turn_outcomes`, ``q[j, T]`` adds
    the Feuerwerk's banks (gain ``g`` from ``fw[j, T - g]``) and ``hfw[j, c]``
    is the chance that a Feuerwerk from below ``c`` reaches ``c``; ``po`` is
    cut after its last total."""
    t_max = ev[5]
    width = max(tsize, _ev_reach(t_max, tp[7], tp[9], cpmax) + 1)
    n_j = width // (2 * k.PM_UNITS) + 4  # at least the layers of any turn
    po, fw, pb, pw = k.ev_turn_outcomes(tp, ev, n_j, width, cpmax + 1 if tp[0] else 1)
    pmf, surv = tp[14], tp[15]
    q = po.copy()
    hfw = np.zeros((n_j, width))
    for t0 in range(t_max + 1):
        w = fw[:, t0]
        q[:, t0:] += w[:, None] * pmf[None, :width - t0]
        hfw[:, t0 + 1:] += w[:, None] * surv[None, 1:width - t0]
    assert not fw[:, t_max + 1:].any()
    last = int(np.flatnonzero(po.any(axis=0)).max()) + 1
    return (q, np.ascontiguousarray(po[:, :last]), hfw, pb, float(pw))


def _throw_classes(prob, start, best_pts, extra):
    """Throws of d dice that score alike (the most points for each number of
    dice set aside, and the row ``extra[ms]`` if given) are one class: a turn's
    value after a throw depends only on its class.

    Returns ``start[d]`` (classes of d dice are ``start[d]..start[d+1]-1``),
    the class's chance, one throw of it, and its keeps: ``keep[start_k[g]:
    start_k[g+1]]`` dice with ``pts`` points, fewer dice first (a Niete has none)."""
    cstart = np.zeros(MAX_DICE + 2, dtype=np.int64)
    cprob, rep, kstart, kdice, kpts = [], [], [0], [], []
    for d in range(1, MAX_DICE + 1):
        cstart[d] = len(cprob)
        seen: dict = {}
        for ms in range(start[d], start[d + 1]):
            sig = tuple(int(best_pts[ms, kk]) for kk in range(1, d + 1))
            key = sig if extra is None else (sig, extra[ms].tobytes())
            if key in seen:
                cprob[seen[key]] += float(prob[ms])
                continue
            seen[key] = len(cprob)
            cprob.append(float(prob[ms]))
            rep.append(ms)
            for kk, pts in enumerate(sig, start=1):
                if pts >= 0:
                    kdice.append(kk)
                    kpts.append(pts)
            kstart.append(len(kdice))
    cstart[MAX_DICE + 1] = len(cprob)
    cstart[0] = 0
    return (cstart, np.array(cprob), np.array(rep, dtype=np.int64),
            np.array(kstart, dtype=np.int64), np.array(kdice, dtype=np.int64),
            np.array(kpts, dtype=np.int64))


def _bust_chances(gstart, gprob, gk, p_hi: float, q_hi: float) -> tuple[np.ndarray, float]:
    """For the kernel's pruning (:func:`programme._layer`): ``p_niete[d]``, the
    chance of a Niete with d dice, and ``rho``, the least chance that a card
    drawn after a Tutto ends the turn at once with a Niete's value: a Stop, a
    Niete in the first throw under a Bonus or x2 card, a Plus/Minus, Straße
    or Kleeblatt missed even at its likeliest (the Feuerwerk never does)."""
    p_niete = np.zeros(MAX_DICE + 1)
    for d in range(1, MAX_DICE + 1):
        p_niete[d] = sum(gprob[g] for g in range(gstart[d], gstart[d + 1]) if gk[g] == gk[g + 1])
    f = CARD_FREQ
    bankable = sum(f[c] for c in range(N_CARDS) if Card(c).can_bank_before_tutto)
    rho = (f[Card.STOP] + bankable * p_niete[MAX_DICE] + f[Card.PLUSMINUS] * (1.0 - p_hi)
           + f[Card.STREET] * (1.0 - q_hi) + f[Card.CLOVERLEAF] * (1.0 - p_hi * p_hi))
    return p_niete, float(rho)


def kleeblatt_bound(p_hi: float, q_hi: float) -> float:
    """The most a Kleeblatt's win can weigh in what follows a turn's next
    card, for the kernel's pruning (:func:`programme._layer`): ``K``, the
    chance of a Kleeblatt won at a later draw, whatever the player does.

    A card drawn wins by a Kleeblatt (two Tuttos, at most ``p_hi^2``), or
    leads to another draw only after a Tutto of a Bonus, x2, Plus/Minus (at
    most ``p_hi`` each) or Straße (at most ``q_hi``) card; Stop, Feuerwerk
    and Kleeblatt never draw again. So ``K <= f_K p_hi^2 + s K`` with ``s``
    the chance to draw again at its likeliest, ``K = f_K p_hi^2 / (1 - s)``."""
    f = CARD_FREQ
    again = sum(f[c] for c in range(N_CARDS) if Card(c).can_bank_before_tutto)
    again += f[Card.PLUSMINUS]
    s = again * p_hi + f[Card.STREET] * q_hi
    return float(f[Card.CLOVERLEAF] * p_hi * p_hi / (1.0 - s))


#: Width of the kernels' small scratch rows: at least the keep slots of :func:`_keep_slots`.
SLOT_WIDTH = 256


def _keep_slots(gstart, gk, kdice, kpts) -> tuple[np.ndarray, np.ndarray]:
    """What a keep leads to depends only on the dice left and its points: the
    distinct pairs are the *slots* (83 for the standard scoring, against 576
    keeps). ``kslot[i]`` is keep i's slot, ``slot_lk[s] = (dice left, points)``.
    The kernel values each slot once per card and total and each class then
    compares its keeps' slots."""
    slots: dict = {}
    kslot = np.zeros(len(kdice), dtype=np.int64)
    for d in range(1, MAX_DICE + 1):
        for g in range(gstart[d], gstart[d + 1]):
            for i in range(gk[g], gk[g + 1]):
                key = (d - int(kdice[i]), int(kpts[i]))
                kslot[i] = slots.setdefault(key, len(slots))
    if len(slots) > SLOT_WIDTH or kpts.min(initial=1) < 1:
        raise ValueError("keep slots do not fit the kernels' scratch")
    return kslot, np.array(list(slots), dtype=np.int64).reshape(-1, 2)


def _check_ev_banks_at_top(pol) -> None:
    """The EV table banks at every decision of its last row, so the kernel
    may stop following its turns there (its totals beyond repeat that row)."""
    row = pol.t_max
    ok = not pol.draw[row] and all(
        pol.bank[c, d, row] for c in range(N_CARDS) if Card(c).can_bank_before_tutto
        for d in range(1, MAX_DICE))
    if pol.bank_x2p is not None:
        ok = ok and bool(pol.bank_x2p[:, 1:, row].all())
    if not ok:
        raise ValueError("the EV-optimal table does not bank at every decision of its "
                         "last row; the win solver cannot follow it")


class WinScratch:
    """Per-thread scratch of the kernels (never shared between threads)."""

    def __init__(self, slots: int, layers: int, tsize: int, x2_card: bool, cpmax: int,
                 nv: int = 3):
        self.A = np.zeros((slots, nv, layers, tsize))
        self.D = np.zeros((slots, nv, layers, tsize))
        self.U = np.zeros((slots, nv, N_CARDS, tsize, MAX_DICE))
        ux = (tsize, cpmax + 1, MAX_DICE) if x2_card else (1, 1, MAX_DICE)
        self.UX = np.zeros((slots, nv) + ux)
        self.bl = np.zeros((slots, nv, layers, tsize))
        self.bust = np.zeros((slots, nv, layers))
        self.win = np.zeros((slots, nv))
        self.chain = np.zeros((slots, layers), dtype=np.int64)
        self.sc = np.zeros((slots, 2 + nv, SLOT_WIDTH))
        self.dm = np.zeros((slots, layers, layers))
        self.am = np.zeros((slots, layers, layers))


def turn_size_for(rules: TuttoRules, n: int, mc: int, t_max: int) -> int:
    return 2 * max(n + mc, t_max + 1, n + mc + 2) + 90


@functools.lru_cache(maxsize=4)
def params_for(rules: TuttoRules, n: int, mc: int) -> TurnParams:
    probe = turn_params(rules, 8)
    return turn_params(rules, turn_size_for(rules, n, mc, probe.t_max) + 2)


def turn_params_for(rules: TuttoRules, turn_size: int, opponent=None) -> TurnParams:
    """The kernels' parameters for turn totals below ``turn_size`` (units),
    at least the EV table's reach: ``(params, size)``; the N-player solver's.
    Kept for the ``optimal`` points player (``opponent`` None); another is
    worked out each time."""
    if opponent is None:
        return _turn_params_for(rules, turn_size)
    return _sized(rules, turn_size, opponent)


@functools.lru_cache(maxsize=4)
def _turn_params_for(rules: TuttoRules, turn_size: int) -> TurnParams:
    return _sized(rules, turn_size, None)


def _sized(rules: TuttoRules, turn_size: int, opponent) -> tuple[TurnParams, int]:
    probe = turn_params(rules, 8, opponent)
    size = max(turn_size, probe.t_max + 2)
    return turn_params(rules, size + 2, opponent), size


def layers_of(own: int, other: int) -> int:
    chain = np.zeros(64, dtype=np.int64)
    return int(k.win_chain(own, other, chain))


def street_by_numbers(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Most and least likely Straße with m numbers set aside (m = 0..6)."""
    hi = np.zeros(MAX_DICE + 1)
    lo = np.zeros(MAX_DICE + 1)
    hi[MAX_DICE] = lo[MAX_DICE] = 1.0
    for m in range(MAX_DICE - 1, -1, -1):
        hi[m] = sum(r[m, j] * max(hi[m + t] for t in range(1, j + 1))
                    for j in range(1, MAX_DICE - m + 1))
        lo[m] = sum(r[m, j] * min(lo[m + t] for t in range(1, j + 1))
                    for j in range(1, MAX_DICE - m + 1))
    return hi, lo


class WinScratchN(WinScratch):
    """The two-player solver's per-thread scratch with ``nv`` components, and
    the N-player kernels' own rows (never shared between threads)."""

    def __init__(self, slots, nv, layers, tsize, x2_card, cpmax, players, links):
        super().__init__(slots, layers, tsize, x2_card, cpmax, nv)
        self.xs = np.zeros((slots, players), dtype=np.int64)
        self.ys = np.zeros((slots, players), dtype=np.int64)
        self.lose = np.zeros((slots, players), dtype=np.bool_)
        self.vec = np.zeros((slots, nv))
        self.vecd = np.zeros((slots, nv))
        self.link_layer = np.zeros((slots, links), dtype=np.int64)
        self.link_idx = np.zeros((slots, links), dtype=np.int64)
        self.nlink = np.zeros((slots, 1), dtype=np.int64)
