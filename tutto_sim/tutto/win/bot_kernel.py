r"""The ``winopt`` bot in the game kernel: playing to win by table lookups.

Part of the game layer. The reference bot (``bots.WinOptBot``) decides by
one turn's dynamic programme with the win table ``W`` at its leaves
(:class:`tutto_sim.tutto.win.planner.WinPlanner`, docs/win.md); its values depend
on the seat and both scores, so a decision table like the other kernel bots'
would be ``2 x N x N`` turn tables of every keep of every throw. Instead this
module stores, once per win table, the values the planner compares, and the
kernel repeats the planner's comparisons on them:

* for every turn start ``(seat, own, other)`` (units of 50, both below
  ``N = target / 50``) and every *layer* ``j`` of that turn (after ``j``
  Plus/Minus Tuttos) the planner's arrays
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

Which layer: the players a turn's Plus/Minus Tuttos take from are fixed at
its start, so under either deduction layer ``j`` = the Tuttos so far (at most
the last layer) of the turn start ``(seat, own, other)``, the scores at the
start of the turn. In seat 1's last turn the margin after the Tuttos so far
(``programme.last_turn_margin``) picks the layer.

Layers of all win tables of a run sit in one flat ``vals`` array with a
column table ``lay[L, :]`` (offsets, lengths, ``tcap``, the next layer's
id); nothing is allocated per decision. Memory: one to a few layers per turn
start of ``36 tcap + 2 tcap`` doubles plus ``bl``: 15 MB at target 1000,
93 MB at 2000, 4.2 GB at 6000 (docs/win.md, *Checked by games*).

How they are built (:func:`_build`): the layer table comes first, in numpy
(each turn start's layers, ``params.layers_of``, in the order seat, own,
other, layer); ``vals`` is allocated once and the numba kernel
:func:`_fill_turns` fills it, block by block of turn starts (a progress
report after each) and in parallel inside a block, one scratch per thread
slot. For each turn start it runs the planner's programme once: the leaves
as ``kernel2.state_value`` fills them for the win-optimal player, then
``programme.one_layer`` layer by layer, deepest first, each layer's
arrays written into place as soon as it is solved (``U`` has no layer axis).
The bytes are those of ``WinPlanner.turn`` run turn start by turn start, on
any number of threads (the tests compare them); seat 1's last-turn layers,
one per margin, still come from ``WinPlanner.last_turn``. Measured on 2
threads: 0.34 s at target 1000, 1.55 s at 2000, 48 s at 6000 (the planner
turn start by turn start: 1.5 s and 6.4 s at 1000 and 2000).
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.tutto.cards import BANKABLE_CARDS, N_CARDS, Card
from tutto_sim.tutto.table_kernel import BotTable
from tutto_sim.tutto.win.programme import MAX_MODE, last_turn_margin, leaf_value, one_layer, win_chain
from tutto_sim.tutto.win.kernel_n import fill_leaves as fill_leaves_n
from tutto_sim.tutto.win.kernel_n import losers_of as losers_of_n
from tutto_sim.tutto.win.seat import two_player_state

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto win-table bots' kernels"

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
    #: the table's players (2: ``state`` by seat and both scores; more: one index per state)
    players: int = 2

    @property
    def nbytes(self) -> int:
        return self.vals.nbytes + self.lay.nbytes + self.bust.nbytes + self.state.nbytes


@dataclass(frozen=True)
class WinBotTable:
    """What ``WinOptBot.table()`` hands the game kernel: its win values and a
    decision table for what is not its choice (the Feuerwerk's forced keep)."""

    data: WinBotData
    forced: BotTable


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


def _build(table, key: str, progress, slots: int | None = None) -> WinBotData:
    """The values of every turn start by :func:`_fill_turns` (``slots``
    scratch slots, default one per thread; the same bytes for any number),
    then seat 1's last-turn layers from the planner."""
    from tutto_sim.tutto.win.params import WinScratch
    from tutto_sim.tutto.win.planner import WinPlanner

    planner = WinPlanner(table)
    n, x2, tsize = planner.n, planner.x2_card, planner.tsize
    first, lay, size = _turn_layout(planner)
    last = _last_turn_layers(planner, len(lay))
    size_last = sum(a.size for row in last for a in row[0])
    vals = np.zeros(size + size_last)
    bust = np.zeros(len(lay) + len(last))
    slots = slots or max(1, numba.get_num_threads())
    s = WinScratch(slots, n // 20 + 3, tsize, x2, planner.p.cpmax)
    dirty = np.zeros(slots, dtype=np.int64)
    W = np.ascontiguousarray(table.W, dtype=np.float64)
    L = np.ascontiguousarray(table.last_turn_table, dtype=np.float64)
    total = 2 * n * n
    # blocks of turn starts, so that a long build reports as it goes
    step = max(slots, min(_BLOCK, total))
    for i0 in range(0, total, step):
        i1 = min(i0 + step, total)
        _fill_turns(i0, i1, first, n, planner.mc, planner.immediate,
                    planner.rules.plusminus_deduction == "tutto", W, L, planner.p.tp,
                    planner.p.ev, lay, vals, bust, s.A, s.D, s.U, s.UX, s.bl, s.bust, s.win,
                    s.chain, s.sc, dirty)
        if progress is not None:
            progress(i1 - i0)
    rows = [lay]
    off = size
    for i, (arrays, tcap, nxt, b) in enumerate(last):
        offs = []
        for a in arrays:
            offs.append(off)
            vals[off:off + a.size] = a
            off += a.size
        o_bl, o_a, o_d, o_u = offs[:4]
        o_ux = offs[4] if x2 else 0
        rows.append(np.array([[o_bl, arrays[0].size, o_a, o_d, o_u, o_ux, tcap, nxt]],
                             dtype=np.int64))
        bust[len(lay) + i] = b
    state = np.zeros((2, n, n, 2), dtype=np.int64)
    state[..., 0] = first.reshape(2, n, n)
    state[..., 1] = np.diff(np.append(first, len(lay))).reshape(2, n, n)
    last0 = len(lay)
    mmax = -2 if planner.immediate else table.last_turn_table.shape[1] - 2
    cpx = planner.p.cpmax + 1 if x2 else 1
    return WinBotData(key, vals, np.ascontiguousarray(np.concatenate(rows)), bust, state,
                      last0, mmax, cpx)


#: Turn starts per call of the kernel (between two progress reports).
_BLOCK = 512


def _turn_layout(planner) -> tuple[np.ndarray, np.ndarray, int]:
    """The layer table of the turn starts ``(seat, own, other)`` in that
    order (index ``(seat * N + own) * N + other``): each layer's ``bl`` (the
    planner's whole row), ``A``, ``D``, ``U``, ``UX`` one after the other.
    Returns the first layer of each turn start, ``lay`` and the doubles used."""
    from tutto_sim.tutto.win.params import layers_of

    n, tsize, x2 = planner.n, planner.tsize, planner.x2_card
    cpx = planner.p.cpmax + 1
    nl_ab = np.array([[layers_of(a, b) for b in range(n)] for a in range(n)], dtype=np.int64)
    nl = np.concatenate([nl_ab.ravel(), nl_ab.ravel()])
    own = np.tile(np.repeat(np.arange(n, dtype=np.int64), n), 2)
    seat = np.repeat(np.arange(2, dtype=np.int64), n * n)
    tcap = n - own + np.where(seat == 0, planner.mc, 0)
    first = np.concatenate([[0], np.cumsum(nl)[:-1]]).astype(np.int64)
    # one row per layer
    turn = np.repeat(np.arange(nl.size), nl)
    j = np.arange(turn.size) - first[turn]
    tc = tcap[turn]
    size = tsize + 2 * tc + N_U * tc * MAX_DICE + (tc * cpx * MAX_DICE if x2 else 0)
    o_bl = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    lay = np.zeros((turn.size, N_LAY_COLS), dtype=np.int64)
    lay[:, L_BL] = o_bl
    lay[:, L_BLN] = tsize
    lay[:, L_A] = o_bl + tsize
    lay[:, L_D] = lay[:, L_A] + tc
    lay[:, L_U] = lay[:, L_D] + tc
    lay[:, L_UX] = lay[:, L_U] + N_U * tc * MAX_DICE if x2 else 0
    lay[:, L_TCAP] = tc
    lay[:, L_NXT] = first[turn] + np.minimum(j + 1, nl[turn] - 1)
    return first, lay, int(size.sum())


def _last_turn_layers(planner, last0: int) -> list:
    """Seat 1's last-turn layers, margins -1 .. mmax (``round`` only): the
    arrays (bl, A, D, U, UX), ``tcap``, the next layer, the Niete's value."""
    out = []
    if planner.immediate:
        return out
    x2 = planner.x2_card
    mmax = planner.table.last_turn_table.shape[1] - 2
    for m in range(-1, mmax + 1):
        lay, row = planner.last_turn(m)
        tc = lay.tcap
        # a Plus/Minus Tutto reads the after-Tutto values of a smaller
        # margin at this margin's totals: keep the whole row of A
        arrays = [lay.bl[row].copy(), lay.A[row].copy(), lay.D[row, :tc].copy(),
                  lay.U[row][FIRST_U:FIRST_U + N_U, :tc, :].ravel()]
        if x2:
            arrays.append(lay.UX[row][:tc].ravel())
        out.append((arrays, tc, last0 + lay.nxt[row], float(lay.bust[row])))
    return out


@njit(cache=True, parallel=True)
def _fill_turns(i0, i1, first, n, mc, immediate, ded_tutto, W, LT, tp, ev, lay, vals, bust_out,
                A, D, U, UX, bl, bust, win, chain, sc_buf, dirty):
    """The layers of turn starts ``i0 .. i1 - 1`` into ``vals`` and
    ``bust_out`` at the places ``lay`` gives. Scratch slot ``k`` takes turn
    starts ``i0 + k``, ``i0 + k + slots``, ...: each turn start is computed
    from the win table alone, so the bytes do not depend on the threads.

    Under x2 scope "card" the programme's states that no turn reaches (more
    points on the card than its dice can hold) read ``UX`` past the card's
    points, in the next total's row; that row is kept as a fresh scratch
    has it (zero from ``tcap`` on; ``dirty[k]``: the rows slot k wrote), so
    even those values are the planner's."""
    slots = A.shape[0]
    for k in prange(slots):
        for i in range(i0 + k, i1, slots):
            seat = i // (n * n)
            own = (i // n) % n
            if tp[0]:
                tcap = n - own + (mc if seat == 0 else 0)
                UX[k, 0, tcap:dirty[k]] = 0.0
                dirty[k] = tcap
            _fill_turn(seat, own, i % n, first[i], n, mc, immediate, ded_tutto, W, LT, tp, ev,
                       lay, vals, bust_out, A[k], D[k], U[k], UX[k], bl[k], bust[k], win[k],
                       chain[k], sc_buf[k])


@njit(cache=True)
def _fill_turn(s, a, b, row0, n, mc, immediate, ded_tutto, W, LT, tp, ev, lay, vals, bust_out,
               A, D, U, UX, bl, bust, win, chain, sc_buf):
    """One turn start: the leaves as ``kernel2.state_value`` (kind 0)
    fills them, then the layers deepest first (``WinPlanner.turn``)."""
    nl = win_chain(a, b, chain)
    tcap = n - a + (mc if s == 0 else 0)
    beta = W[1 - s, b, a]
    win[0] = 1.0
    for j in range(nl):
        e = chain[j]
        for t in range(bl.shape[2]):
            bl[0, j, t] = leaf_value(W, LT, s, a, e, a + t, n, immediate)
        eb = e if ded_tutto else b
        bust[0, j] = 1.0 - beta if eb == b else 1.0 - W[1 - s, eb, a]
        bust_out[row0 + j] = bust[0, j]
    # banking nothing (a Feuerwerk's first throw a Niete) hands over like a bust
    bl[0, 0, 0] = 1.0 - beta
    for j in range(nl):
        o = lay[row0 + j, L_BL]
        for t in range(bl.shape[2]):
            vals[o + t] = bl[0, j, t]
    for j in range(nl - 1, -1, -1):
        nj = j + 1 if j + 1 < nl else j
        t_lo = min(_PM_UNITS * j, tcap)
        # np.int64, not literals: the solver's compile of the layer serves here too
        one_layer(np.int64(MAX_MODE), np.int64(1), tcap, t_lo, j, nj, sc_buf, bl, bust, win, A,
                   D, U, UX, tp, ev)
        r = row0 + j
        for t in range(t_lo, tcap):
            vals[lay[r, L_A] + t] = A[0, j, t]
            vals[lay[r, L_D] + t] = D[0, j, t]
        _store_hold(vals, lay, r, U, UX, t_lo, tcap, tp[0])
    # below 20 j layer j is never reached (each Plus/Minus Tutto adds 20);
    # U has no layer axis, and the planner leaves layer 0's values there
    for j in range(1, nl):
        _store_hold(vals, lay, row0 + j, U, UX, 0, min(_PM_UNITS * j, tcap), tp[0])


@njit(cache=True)
def _store_hold(vals, lay, r, U, UX, t0, t1, x2_card):
    """``U[FIRST_U:, t]`` (and ``UX[t]`` under x2 "card") for t0 <= t < t1."""
    tcap = lay[r, L_TCAP]
    o = lay[r, L_U]
    for c in range(N_U):
        for t in range(t0, t1):
            for d in range(MAX_DICE):
                vals[o + (c * tcap + t) * MAX_DICE + d] = U[0, FIRST_U + c, t, d]
    if x2_card:
        o = lay[r, L_UX]
        cpx = UX.shape[2]
        for t in range(t0, t1):
            for p in range(cpx):
                for d in range(MAX_DICE):
                    vals[o + (t * cpx + p) * MAX_DICE + d] = UX[0, t, p, d]


def forced_table(rules):
    """A decision table whose only row is read: the Feuerwerk's keep (every
    scoring die, the most points), as the reference game forces it."""
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
    from tutto_sim.tutto.solver import street_new_numbers
    from tutto_sim.tutto.win.programme import tutto_extremes
    from tutto_sim.tutto.win.params import street_by_numbers

    t = build_tables(rules.scoring)
    best = np.asarray(t.best_pts)
    p_hi, p_lo = tutto_extremes(np.ascontiguousarray(t.prob),
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
    r = street_new_numbers(np.ascontiguousarray(t.prob),
                            np.ascontiguousarray(t.start).astype(np.int64),
                            np.ascontiguousarray(t.faces))
    q_hi, q_lo = street_by_numbers(r)
    street_hi = np.zeros((7, 7), dtype=np.int8)
    street_lo = np.zeros((7, 7), dtype=np.int8)
    for have in range(MAX_DICE):
        for new in range(1, MAX_DICE - have + 1):
            street_hi[have, new] = int(np.argmax([q_hi[have + t] for t in range(1, new + 1)])) + 1
            street_lo[have, new] = int(np.argmax([-q_lo[have + t] for t in range(1, new + 1)])) + 1
    return keep_hi, keep_lo, street_hi, street_lo


#: Most entries of the stacked turn-start index of a two-player and an N-player
#: win table in one game (their shapes differ, each is padded to the larger).
MAX_MIXED_STATE = 80_000_000


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
        # a two-player table (2, n, n, 2) beside an N-player one (2, 1, states, 2): both fit
        # in the larger of each axis (indices past a table's own are never read)
        big = tuple(max(x) for x in zip(*shapes))
        if np.prod(big) > MAX_MIXED_STATE:
            raise ValueError("a two-player and an N-player win table of this target cannot "
                             f"play in one game (their index would take "
                             f"{8 * np.prod(big) / 1e9:.1f} GB)")
        for i, d in enumerate(datas):
            st = np.zeros(big, dtype=np.int64)
            st[tuple(slice(0, k) for k in d.state.shape)] = d.state
            datas[i] = dataclasses.replace(d, state=st)
    vals, lays, busts, states = [], [], [], []
    v0 = l0 = 0
    last0, mmax, cpx = [], [], []
    for d in datas:
        lay = d.lay.copy()
        for c in (L_BL, L_A, L_D, L_U, L_UX):
            lay[:, c] += v0
        lay[:, L_NXT] += l0
        st = d.state.copy()
        if d.last0 >= 0:
            st[..., 0] += l0
        else:  # an N-player table: its turn starts' first layers (-1: none); [1, 0, 0] is (n, M)
            first = st[0, 0, :, 0]
            first[first >= 0] += l0
        vals.append(d.vals)
        lays.append(lay)
        busts.append(d.bust)
        states.append(st)
        last0.append(d.last0 + l0 if d.last0 >= 0 else d.last0)  # < 0: an N-player table
        mmax.append(d.mmax)
        cpx.append(d.cpx)
        v0 += d.vals.size
        l0 += d.lay.shape[0]
    # one table (the usual case) is not copied: 4 GB at target 6000
    return (slot, vals[0] if len(vals) == 1 else np.concatenate(vals),
            np.ascontiguousarray(np.concatenate(lays)),
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
def win_layer(win, w, me, own, other, last_round, tuttos, immediate):
    """The layer of the two-player table's seat ``me`` (``own`` against
    ``other`` units at the start of the turn; at a table of three or more the
    reduced state of ``tutto.win.seat``) after ``tuttos`` Plus/Minus Tuttos of
    this turn: the players they take from are fixed at the turn's start, so
    layer ``tuttos`` of that turn start under either deduction. In the last
    round every seat still to move plays seat 1's last turn."""
    state, last0, mmax = win[4], win[5], win[6]
    if last_round and not immediate:
        m = last_turn_margin(own, other, tuttos)
        if m > mmax[w]:
            m = mmax[w]
        return last0[w] + m + 1
    first = state[w, me, own, other, 0]
    layers = state[w, me, own, other, 1]
    return first + (tuttos if tuttos < layers else layers - 1)


@njit(cache=True)
def win_state_n(win, w, me, scores, last_round, immediate):
    """An N-player table's turn start (``win_bot_data_n``): the index of seat
    ``me`` at ``scores`` (the turn's start), in the end of the round when
    ``last_round`` (scores past the table's cap count as the cap)."""
    state = win[4]
    nn = scores.shape[0]
    n = state[w, 1, 0, 0, 0]
    M = state[w, 1, 0, 0, 1]
    i = 0
    if last_round and not immediate:
        for q in range(nn):
            i = i * M + min(scores[q], M - 1)
        return i + nn * n ** nn + me * M ** nn
    for q in range(nn):
        i = i * n + scores[q]
    return i + me * n ** nn


@njit(cache=True)
def win_layer_n(win, w, i, tuttos):
    """The layer of N-player turn start ``i`` (:func:`win_state_n`) after
    ``tuttos`` Plus/Minus Tuttos of this turn (the losers fixed at its start)."""
    state = win[4]
    first = state[w, 0, 0, i, 0]
    layers = state[w, 0, 0, i, 1]
    return first + (tuttos if tuttos < layers else layers - 1)


@njit(cache=True)
def win_turn_start(win, w, me, n, scores, last_round, immediate):
    """What the game kernel keeps of ``winopt``'s turn start (the scores before
    any deduction of the turn): ``(i0, seat, own, other)``, ``i0`` the state's
    index in an N-player table (``win_bot_data_n``: ``last0 < 0``), else the
    two-player table's state (``tutto.win.seat.two_player_state``)."""
    if win[5][w] < 0:
        return win_state_n(win, w, me, scores, last_round, immediate), 0, 0, 0
    seat, own, other = two_player_state(scores, me, n)
    return 0, seat, own, other


@njit(cache=True)
def win_layer_at(win, w, i0, seat, own, other, last_round, tuttos, immediate):
    """The layer after ``tuttos`` Plus/Minus Tuttos of the turn started at
    :func:`win_turn_start`'s result."""
    if win[5][w] < 0:
        return win_layer_n(win, w, i0, tuttos)
    return win_layer(win, w, seat, own, other, last_round, tuttos, immediate)


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


# --------------------------------------------------------------------------
# tables of N players (solve_n): the same layers, one turn start per state
# --------------------------------------------------------------------------


def n_state_index(players: int, n: int, M: int, seat: int, scores, end_phase: bool) -> int:
    """The flat index of an N-player turn start in :class:`WinBotData`'s ``state``."""
    if not end_phase:
        return seat * n ** players + int(np.ravel_multi_index(tuple(scores), (n,) * players))
    return (players * n ** players + seat * M ** players
            + int(np.ravel_multi_index(tuple(min(v, M - 1) for v in scores), (M,) * players)))


def win_bot_data_n(table, progress=None) -> WinBotData:
    """The kernel's values of an N-player win table (``table.WinTableN``),
    kept for this process as :func:`win_bot_data`'s: every main-phase turn
    start and every end-of-round turn start, each one turn's programme."""
    h = hashlib.sha256()
    h.update(table.rules.digest().encode())
    h.update(np.ascontiguousarray(table.W, dtype=np.float64).tobytes())
    h.update(np.ascontiguousarray(table.E, dtype=np.float64).tobytes())
    h.update(f"{table.margin_cap},{table.players}".encode())
    key = h.hexdigest()
    if key not in _BUILT:
        _BUILT.clear()
        _BUILT[key] = _build_n(table, key, progress)
    return _BUILT[key]


def _build_n(table, key: str, progress) -> WinBotData:
    from tutto_sim.tutto.win.kernel_n import losers_of, tcap_of
    from tutto_sim.tutto.win.planner import programme_of
    from tutto_sim.tutto.win.table import end_state_ids

    pr = programme_of(table)
    N, n, M, tsize = pr.N, pr.n, pr.M, pr.tsize
    x2 = table.rules.x2_scope == "card"
    cpx = pr.p.cpmax + 1
    seats, ends, xs = [], [], []
    main = np.indices((n,) * N).reshape(N, -1).T
    for s in range(N):
        seats.append(np.full(len(main), s))
        ends.append(np.zeros(len(main), dtype=bool))
        xs.append(main)
    if not pr.immediate:
        allx = np.indices((M,) * N).reshape(N, -1).T
        for m, ids in enumerate(end_state_ids(n, M, N), start=1):
            seats.append(np.full(len(ids), m))
            ends.append(np.ones(len(ids), dtype=bool))
            xs.append(allx[ids])
    seat = np.concatenate(seats).astype(np.int64)
    end = np.concatenate(ends)
    x = np.ascontiguousarray(np.concatenate(xs).astype(np.int64))
    flat = np.array([n_state_index(N, n, M, int(s), xx, bool(e)) for s, xx, e in zip(seat, x, end)],
                    dtype=np.int64)
    lose = np.zeros(N, dtype=np.bool_)
    nl = np.array([min(losers_of(xx, int(s), N, lose), pr.layers) for s, xx in zip(seat, x)],
                  dtype=np.int64)
    tc = np.array([tcap_of(int(s), xx, bool(e), N, n, M, pr.immediate)
                   for s, xx, e in zip(seat, x, end)], dtype=np.int64)
    used = np.minimum(2 * tc + 90, tsize)
    first = np.concatenate([[0], np.cumsum(nl)[:-1]]).astype(np.int64)
    turn = np.repeat(np.arange(nl.size), nl)
    j = np.arange(turn.size) - first[turn]
    t_c = tc[turn]
    bln = used[turn]
    size = bln + 2 * t_c + N_U * t_c * MAX_DICE + (t_c * cpx * MAX_DICE if x2 else 0)
    o_bl = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    lay = np.zeros((turn.size, N_LAY_COLS), dtype=np.int64)
    lay[:, L_BL] = o_bl
    lay[:, L_BLN] = bln
    lay[:, L_A] = o_bl + bln
    lay[:, L_D] = lay[:, L_A] + t_c
    lay[:, L_U] = lay[:, L_D] + t_c
    lay[:, L_UX] = lay[:, L_U] + N_U * t_c * MAX_DICE if x2 else 0
    lay[:, L_TCAP] = t_c
    lay[:, L_NXT] = first[turn] + np.minimum(j + 1, nl[turn] - 1)
    vals = np.zeros(int(size.sum()))
    bust = np.zeros(len(lay))
    s = pr.s
    total = len(seat)
    step = 2048
    ded_tutto = table.rules.plusminus_deduction == "tutto"
    for i0 in range(0, total, step):
        i1 = min(i0 + step, total)
        _fill_turns_n(i0, i1, seat, x, end, first, nl, tc, used, N, n, M, pr.immediate,
                      ded_tutto, pr.V, pr.Ev, pr.p.tp, pr.p.ev, lay, vals, bust, s.A, s.D, s.U,
                      s.UX, s.bl, s.bust, s.win, s.sc, s.ys, s.lose, s.vec, s.vecd,
                      s.link_layer, s.link_idx, s.nlink)
        if progress is not None:
            progress(i1 - i0)
    n_flat = N * n ** N + (N * M ** N if not pr.immediate else 0)
    state = np.full((1, 2, 1, n_flat, 2), -1, dtype=np.int64)
    state[0, 0, 0, flat, 0] = first
    state[0, 0, 0, flat, 1] = nl
    state[0, 1, 0, 0, 0] = n
    state[0, 1, 0, 0, 1] = M
    return WinBotData(key, vals, lay, bust, state[0], -N, -2, cpx if x2 else 1, N)


@njit(cache=True)
def _fill_turns_n(i0, i1, seat, xs, end, first, nl, tc, used, N, n, M, immediate, ded_tutto, V, E,
                  tp, ev, lay, vals, bust_out, A, D, U, UX, bl, bust, win, sc_buf, ys, lose, vec,
                  vecd, link_layer, link_idx, nlink):
    """One turn's programme per N-player turn start ``i0 .. i1 - 1`` (slot 0
    of the scratch; the leaves as ``kernel_n.fill_leaves`` fills them for
    the win-optimal player), its layers stored as :func:`_fill_turn` does."""
    for i in range(i0, i1):
        s = seat[i]
        x = xs[i]
        tcap = tc[i]
        n_layers = nl[i]
        row0 = first[i]
        if tp[0]:
            UX[0, 0, :, :, :] = 0.0
        lev = 0
        for q in range(N):
            lev += x[q]
        losers_of_n(x, s, N, lose[0])  # who loses to a Plus/Minus: fixed at the turn's start
        fill_leaves_n(False, False, s, x, end[i], N, n, M, immediate, ded_tutto, lev, V, E, V, E,
                      lose[0], n_layers, nlink[0], used[i], bl[0], bust[0], win[0], ys[0],
                      vec[0], vecd[0], link_layer[0], link_idx[0])
        for j in range(n_layers):
            bust_out[row0 + j] = bust[0, 0, j]
            o = lay[row0 + j, L_BL]
            for t in range(used[i]):
                vals[o + t] = bl[0, 0, j, t]
        for j in range(n_layers - 1, -1, -1):
            nj = j + 1 if j + 1 < n_layers else j
            t_lo = min(_PM_UNITS * j, tcap)
            one_layer(np.int64(MAX_MODE), np.int64(1), tcap, t_lo, j, nj, sc_buf[0], bl[0],
                      bust[0], win[0], A[0], D[0], U[0], UX[0], tp, ev)
            r = row0 + j
            for t in range(t_lo, tcap):
                vals[lay[r, L_A] + t] = A[0, 0, j, t]
                vals[lay[r, L_D] + t] = D[0, 0, j, t]
            _store_hold(vals, lay, r, U[0], UX[0], t_lo, tcap, tp[0])
        for j in range(1, n_layers):
            _store_hold(vals, lay, row0 + j, U[0], UX[0], 0, min(_PM_UNITS * j, tcap), tp[0])
