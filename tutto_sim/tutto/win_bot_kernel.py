r"""The ``winopt`` bot in the game kernel: playing to win by table lookups.

Part of ``tutto_sim.game``. The reference bot (``bots.WinOptBot``) decides by
one turn's dynamic programme with the win table ``W`` at its leaves
(:class:`tutto_sim.tutto.winprob.WinPlanner`, docs/win.md); its values depend
on the seat and both scores, so a decision table like the other kernel bots'
would be ``2 x N x N`` turn tables of every keep of every throw. Instead this
module stores, once per win table, the values the planner compares, and the
kernel repeats the planner's comparisons on them:

* for every turn start ``(seat, own, other)`` (units of 50, both below
  ``N = target / 50``) and every *layer* ``j`` of that turn (``j``
  Plus/Minus Tuttos whose deduction waits for the bank) the planner's arrays
  ``bl[T]`` (banking ``T``), ``A[T]`` (after a Tutto), ``D[T]`` (drawing a
  card), ``U[c, T, d]`` (holding ``d`` dice under a Bonus or x2 card, and
  ``UX[T, p, d]`` for x2 under scope "card", ``p`` its points), the value of
  a Niete ``bust`` and the next layer; ``T < tcap`` (the planner banks from
  ``tcap`` on), ``bl`` up to the planner's last column;
* under ``--game-end round`` seat 1's last turn: one layer per margin
  ``m = -1 .. mmax`` (the planner's last-turn programme).

The decisions, exactly the planner's (``WinPlanner.keep_dice``, ``banks``,
``banks_after_tutto``, ``street_take``):

* keep under a Bonus or x2 card: of the keeps with the most points for their
  number of dice, the first with the largest value after it (``U`` of the
  total after the keep and the dice left, ``A`` or ``bl`` after a Tutto,
  ``bl`` from ``tcap`` on);
* bank with ``d`` dice left iff ``U[c, T, d] <= bl[T]``; after a Tutto bank
  iff ``bl[T] >= D[T]`` (always from ``tcap`` on);
* Plus/Minus and Straße: the most likely Tutto (fewest numbers left) when the
  value after it is at least a Niete's, else the least likely; the Kleeblatt
  always the most likely; the Feuerwerk keeps every scoring die (forced).

Which layer: under deduction ``bank`` layer ``j`` = the Tuttos so far (at
most the last layer); under deduction ``tutto`` the scores already carry the
deductions, so layer 0 of the turn at the current scores. In seat 1's last
turn the margin after the waiting deductions picks the layer.

Layers of all win tables of a run sit in one flat ``vals`` array with a
column table ``lay[L, :]`` (offsets, lengths, ``tcap``, the next layer's
id); nothing is allocated per decision. Memory: one to a few layers per turn
start of ``36 tcap + 2 tcap`` doubles plus ``bl``: 15 MB at target 1000,
83 MB at 2000, 3.0 GB at 6000 (docs/win.md, *Checked by games*).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.tutto.cards import BANKABLE_CARDS, N_CARDS, Card

# columns of the layer table ``lay``
L_BL, L_BLN, L_A, L_D, L_U, L_UX, L_TCAP, L_NXT = range(8)
N_LAY_COLS = 8
#: the cards whose holding values ``U`` are stored: Bonus 200 .. x2
FIRST_U = min(int(c) for c in BANKABLE_CARDS)
N_U = len(BANKABLE_CARDS)
assert sorted(int(c) for c in BANKABLE_CARDS) == list(range(FIRST_U, FIRST_U + N_U))
_X2, _PM, _CLOVER = int(Card.X2), int(Card.PLUSMINUS), int(Card.CLOVERLEAF)
_PM_UNITS, _STREET_UNITS = 1000 // POINT_UNIT, 2000 // POINT_UNIT


@dataclass(frozen=True)
class WinBotData:
    """One win table's values for the kernel (module docstring).

    ``state[seat, own, other] = (first layer, layers)``; the last-turn layers
    are ``last0 + m + 1``, ``m = -1 .. mmax`` (``mmax = -2``: none, game end
    ``immediate``). ``cpx``: x2 card points + 1 (1 under scope "turn")."""

    key: str
    vals: np.ndarray  # float64 [V]
    lay: np.ndarray  # int64 [L, N_LAY_COLS]
    bust: np.ndarray  # float64 [L]
    state: np.ndarray  # int64 [2, N, N, 2]
    last0: int
    mmax: int
    cpx: int

    @property
    def nbytes(self) -> int:
        return self.vals.nbytes + self.lay.nbytes + self.bust.nbytes + self.state.nbytes


@dataclass(frozen=True)
class WinBotTable:
    """What ``WinOptBot.table()`` hands the game kernel: its win values and a
    decision table for what is not its choice (the Feuerwerk's forced keep)."""

    data: WinBotData
    forced: object  # game_kernel.BotTable


def table_key(table) -> str:
    """A digest of what the decisions depend on: rules, W, the last turn, the cap."""
    h = hashlib.sha256()
    h.update(table.rules.digest().encode())
    h.update(np.ascontiguousarray(table.W, dtype=np.float64).tobytes())
    h.update(np.ascontiguousarray(table.last_turn_table, dtype=np.float64).tobytes())
    h.update(str(table.margin_cap).encode())
    return h.hexdigest()


_BUILT: dict[str, WinBotData] = {}


def win_bot_data(table, progress=None) -> WinBotData:
    """The kernel's values of a win table (kept for this process: the same
    table is built once, however many bots play it)."""
    key = table_key(table)
    if key not in _BUILT:
        _BUILT.clear()  # one table at a time: they can be large
        _BUILT[key] = _build(table, key, progress)
    return _BUILT[key]


def _build(table, key: str, progress) -> WinBotData:
    from tutto_sim.tutto.winprob import WinPlanner

    planner = WinPlanner(table)
    n, x2 = planner.n, planner.x2_card
    chunks: list[np.ndarray] = []
    rows: list[list[int]] = []
    busts: list[float] = []
    used = [0]

    def put(a) -> int:
        a = np.ascontiguousarray(a, dtype=np.float64).ravel()
        off = used[0]
        chunks.append(a)
        used[0] += a.size
        return off

    def layer(bl, A, D, U, UX, tcap: int, nxt: int, bust: float) -> None:
        o_bl = put(bl)
        o_a = put(A)
        o_d = put(D[:tcap])
        o_u = put(U[FIRST_U:FIRST_U + N_U, :tcap, :])
        o_ux = put(UX[:tcap]) if x2 else 0
        rows.append([o_bl, len(bl), o_a, o_d, o_u, o_ux, tcap, nxt])
        busts.append(float(bust))

    state = np.zeros((2, n, n, 2), dtype=np.int64)
    for seat in (0, 1):
        for own in range(n):
            for other in range(n):
                lay = planner.turn(seat, own, other)
                first, nl, tc = len(rows), len(lay.U), lay.tcap
                state[seat, own, other] = first, nl
                for j in range(nl):
                    layer(lay.bl[j], lay.A[j, :tc], lay.D[j], lay.U[j], lay.UX[j], tc,
                          first + lay.nxt[j], lay.bust[j])
                if progress is not None:
                    progress(1)
    last0, mmax = len(rows), -2
    if not planner.immediate:
        mmax = table.last_turn_table.shape[1] - 2
        for m in range(-1, mmax + 1):
            lay, row = planner.last_turn(m)
            # a Plus/Minus Tutto reads the after-Tutto values of a smaller
            # margin at this margin's totals: keep the whole row of A
            layer(lay.bl[row], lay.A[row], lay.D[row], lay.U[row], lay.UX[row], lay.tcap,
                  last0 + lay.nxt[row], lay.bust[row])
    cpx = planner.p.cpmax + 1 if x2 else 1
    return WinBotData(key, np.concatenate(chunks), np.array(rows, dtype=np.int64),
                      np.array(busts), state, last0, mmax, cpx)


def forced_table(rules):
    """A decision table whose only row is read: the Feuerwerk's keep (every
    scoring die, the most points), as the reference game forces it."""
    from tutto_sim.tutto.game_kernel import BotTable
    from tutto_sim.tutto.solver import max_card_points

    t = build_tables(rules.scoring)
    m = t.n_multisets
    p = max_card_points(t) + 1 if rules.x2_scope == "card" else 1  # stacks with the others
    keep = np.ascontiguousarray(np.repeat(t.keep_dice[0][None, None, :], N_CARDS, axis=0))
    return BotTable(keep, np.zeros((N_CARDS, MAX_DICE, 1), dtype=np.bool_),
                    np.zeros((N_CARDS, 1), dtype=np.bool_), np.zeros((7, 7), dtype=np.int8),
                    np.zeros((p, 1, m), dtype=np.int8), np.zeros((p, MAX_DICE, 1), dtype=np.bool_),
                    False)


def _static_choices(rules) -> tuple[np.ndarray, ...]:
    """Plus/Minus, Kleeblatt and Straße keeps, most or least likely Tutto
    (``WinPlanner.keep_dice`` and ``street_take`` without the scores)."""
    from tutto_sim.tutto.solver import _street_new_numbers
    from tutto_sim.tutto.win_kernel import _tutto_extremes
    from tutto_sim.tutto.winprob import _street_by_numbers

    t = build_tables(rules.scoring)
    best = np.asarray(t.best_pts)
    p_hi, p_lo = _tutto_extremes(np.ascontiguousarray(t.prob),
                                 np.ascontiguousarray(t.start).astype(np.int64),
                                 best.astype(np.int64))
    keep_hi = np.zeros(t.n_multisets, dtype=np.int8)
    keep_lo = np.zeros(t.n_multisets, dtype=np.int8)
    for dice in range(1, MAX_DICE + 1):
        for ms in t.ids(dice):
            ks = [kk for kk in range(1, dice + 1) if best[ms, kk] >= 0]
            if ks:
                keep_hi[ms] = ks[int(np.argmax([p_hi[dice - kk] for kk in ks]))]
                keep_lo[ms] = ks[int(np.argmax([-p_lo[dice - kk] for kk in ks]))]
    r = _street_new_numbers(np.ascontiguousarray(t.prob),
                            np.ascontiguousarray(t.start).astype(np.int64),
                            np.ascontiguousarray(t.faces))
    q_hi, q_lo = _street_by_numbers(r)
    street_hi = np.zeros((7, 7), dtype=np.int8)
    street_lo = np.zeros((7, 7), dtype=np.int8)
    for have in range(MAX_DICE):
        for new in range(1, MAX_DICE - have + 1):
            street_hi[have, new] = int(np.argmax([q_hi[have + t] for t in range(1, new + 1)])) + 1
            street_lo[have, new] = int(np.argmax([-q_lo[have + t] for t in range(1, new + 1)])) + 1
    return keep_hi, keep_lo, street_hi, street_lo


def kernel_win_args(rules, tables) -> tuple:
    """The game kernel's ``win`` argument for the bots' ``table()`` results:
    ``(slot, vals, lay, bust, state, last0, mmax, cpx, keep_hi, keep_lo,
    street_hi, street_lo)``; ``slot[b]`` is bot b's win table, -1 for a
    decision-table bot. Several win tables are laid one after the other."""
    datas: list[WinBotData] = []
    slot = np.full(len(tables), -1, dtype=np.int64)
    for b, t in enumerate(tables):
        if isinstance(t, WinBotTable):
            keys = [d.key for d in datas]
            if t.data.key not in keys:
                datas.append(t.data)
                keys.append(t.data.key)
            slot[b] = keys.index(t.data.key)
    statics = _static_choices(rules)
    if not datas:
        z = np.zeros(1)
        return (slot, z, np.zeros((1, N_LAY_COLS), dtype=np.int64), z,
                np.zeros((1, 2, 1, 1, 2), dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)) + statics
    shapes = {d.state.shape for d in datas}
    if len(shapes) != 1:
        raise ValueError("win tables of different targets cannot play in one game")
    vals, lays, busts, states = [], [], [], []
    v0 = l0 = 0
    last0, mmax, cpx = [], [], []
    for d in datas:
        lay = d.lay.copy()
        for c in (L_BL, L_A, L_D, L_U, L_UX):
            lay[:, c] += v0
        lay[:, L_NXT] += l0
        st = d.state.copy()
        st[..., 0] += l0
        vals.append(d.vals)
        lays.append(lay)
        busts.append(d.bust)
        states.append(st)
        last0.append(d.last0 + l0)
        mmax.append(d.mmax)
        cpx.append(d.cpx)
        v0 += d.vals.size
        l0 += d.lay.shape[0]
    return (slot, np.concatenate(vals), np.ascontiguousarray(np.concatenate(lays)),
            np.concatenate(busts), np.ascontiguousarray(np.stack(states)),
            np.array(last0, dtype=np.int64), np.array(mmax, dtype=np.int64),
            np.array(cpx, dtype=np.int64)) + statics


# --------------------------------------------------------------------------
# the kernel's side: which layer, and the decisions
# --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _bl(vals, lay, L, t):
    n = lay[L, L_BLN]
    return vals[lay[L, L_BL] + (t if t < n else n - 1)]


@njit(cache=True, inline="always")
def _hold(vals, lay, L, card, t, cp, d, x2_card, cpx):
    """``U[card, t, d]`` (``UX[t, cp, d]`` for x2 by its points); t < tcap."""
    tcap = lay[L, L_TCAP]
    if card == _X2 and x2_card:
        return vals[lay[L, L_UX] + (t * cpx + cp) * MAX_DICE + d]
    return vals[lay[L, L_U] + ((card - FIRST_U) * tcap + t) * MAX_DICE + d]


@njit(cache=True)
def win_layer(win, w, me, scores, last_round, pending, immediate):
    """The layer of the player in seat ``me`` (two players) with ``pending``
    deductions waiting (0 under deduction at the Tutto)."""
    state, last0, mmax = win[4], win[5], win[6]
    own = scores[me]
    other = scores[1 - me]
    if last_round and me == 1 and not immediate:
        m = other - own
        for _ in range(pending):
            m = m - _PM_UNITS if m >= _PM_UNITS else -1
        if m < -1:
            m = -1
        if m > mmax[w]:
            m = mmax[w]
        return last0[w] + m + 1
    first = state[w, me, own, other, 0]
    layers = state[w, me, own, other, 1]
    return first + (pending if pending < layers else layers - 1)


@njit(cache=True)
def win_wants_tutto(win, L, total, pm_chain):
    """Plus/Minus: is the value after its Tutto at least a Niete's?"""
    vals, lay, bust = win[1], win[2], win[3]
    t = total + _PM_UNITS
    nj = lay[L, L_NXT]
    if pm_chain == 0:
        after = vals[lay[nj, L_A] + t] if t < lay[L, L_TCAP] else _bl(vals, lay, nj, t)
    elif pm_chain == 1:
        after = _bl(vals, lay, nj, t)
    else:
        after = _bl(vals, lay, nj, _PM_UNITS)
    return after >= bust[L]


@njit(cache=True)
def win_keep(win, w, L, card, total, card_pts, dice, ms, best_pts, bonus, x2_card, pm_chain):
    """Dice to set aside from throw ``ms`` (every card but the Feuerwerk and the Straße)."""
    vals, lay, cpx = win[1], win[2], win[7][w]
    if card == _PM or card == _CLOVER:
        if card == _CLOVER or win_wants_tutto(win, L, total, pm_chain):
            return win[8][ms]
        return win[9][ms]
    tcap = lay[L, L_TCAP]
    kbest = 0
    vbest = -np.inf
    for kk in range(1, dice + 1):
        pts = best_pts[ms, kk]
        if pts < 0:
            continue
        t2 = total + pts
        left = dice - kk
        if left == 0:
            if card == _X2:
                tt = t2 + card_pts + pts if x2_card else 2 * t2
            else:
                tt = t2 + bonus[card]
            v = vals[lay[L, L_A] + tt] if tt < tcap else _bl(vals, lay, L, tt)
        elif t2 >= tcap:
            v = _bl(vals, lay, L, t2)
        else:
            v = _hold(vals, lay, L, card, t2, card_pts + pts, left, x2_card, cpx)
        if v > vbest:
            vbest = v
            kbest = kk
    return kbest


@njit(cache=True)
def win_banks(win, w, L, card, total, card_pts, dice, x2_card):
    """Bank with ``dice`` dice left (a Bonus or x2 card)?"""
    vals, lay = win[1], win[2]
    if total >= lay[L, L_TCAP]:
        return True
    return _hold(vals, lay, L, card, total, card_pts, dice, x2_card, win[7][w]) <= \
        _bl(vals, lay, L, total)


@njit(cache=True)
def win_banks_after_tutto(win, L, total):
    vals, lay = win[1], win[2]
    if total >= lay[L, L_TCAP]:
        return True
    return _bl(vals, lay, L, total) >= vals[lay[L, L_D] + total]


@njit(cache=True)
def win_street(win, L, total, have, new):
    """Straße: new numbers to set aside (``have`` set aside, ``new`` new ones)."""
    vals, lay, bust = win[1], win[2], win[3]
    t = total + _STREET_UNITS
    after = vals[lay[L, L_A] + t] if t < lay[L, L_TCAP] else _bl(vals, lay, L, t)
    return win[10][have, new] if after >= bust[L] else win[11][have, new]
