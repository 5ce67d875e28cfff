"""numba kernel for whole Tutto turns under a threshold policy.

Part of the kernel layer, the only layer with ``@njit``. The turn logic
mirrors ``tutto_sim.tutto.reference`` line for line, reading throws from the
throw tables; the tests play both on the same streams and demand identical
turns. A policy is an int64 array ``pol[card, col]`` (see the ``COL_*``
constants; thresholds in units of 50); a batch of policies is
``pols[p, card, col]`` and every policy sees the same turn streams (common
random numbers).

Each turn ``i`` reads stream ``(seed, start + i)``: results do not depend on
the number of threads or on ``block``, which only sets the unit of parallel
work.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.core.streams import below, stream_start
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import DECK_COUNTS, N_CARDS, Card
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES, TuttoRules

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto turn simulator"

# Policy columns.
COL_KEEP = 0  # keep rule index (tables.KEEP_RULES)
# columns 1..5: bank when the turn total >= this with that many dice left
COL_DRAW = 6  # after a Tutto with this card: bank at >= this, else draw a card
COL_STREET = 7  # Straße: set aside at most this many new numbers per throw
N_COLS = 8
NEVER = 1 << 40  # a threshold no turn total reaches

STOP = int(Card.STOP)
FIREWORKS = int(Card.FIREWORKS)
X2 = int(Card.X2)
PLUSMINUS = int(Card.PLUSMINUS)
STREET = int(Card.STREET)
CLOVERLEAF = int(Card.CLOVERLEAF)
STREET_UNITS = 2000 // POINT_UNIT
PLUSMINUS_UNITS = 1000 // POINT_UNIT

_POW6 = np.array([6**n for n in range(7)], dtype=np.int64)


class TuttoKernelData:
    """Everything the kernel reads besides the policy, built from the rules."""

    def __init__(self, rules: TuttoRules):
        t = build_tables(rules.scoring)
        self.rules = rules
        self.ordered = np.ascontiguousarray(t.ordered)
        self.ordered_off = np.ascontiguousarray(t.ordered_off)
        self.keep_dice = np.ascontiguousarray(t.keep_dice)
        self.keep_pts = np.ascontiguousarray(t.keep_pts)
        self.faces = np.ascontiguousarray(t.faces)
        self.deck = np.repeat(
            np.arange(N_CARDS, dtype=np.int64),
            [DECK_COUNTS[Card(c)] for c in range(N_CARDS)],
        )
        bonus = np.zeros(N_CARDS, dtype=np.int64)
        bankable = np.zeros(N_CARDS, dtype=np.bool_)
        for c in Card:
            bonus[c] = c.bonus // POINT_UNIT
            bankable[c] = c.can_bank_before_tutto
        self.bonus = bonus
        self.bankable = bankable
        # rule switches as plain ints for the kernel
        self.params = np.array(
            [
                1 if rules.x2_scope == "card" else 0,
                PLUSMINUS_CHAIN_CHOICES.index(rules.plusminus_chain),
                rules.cloverleaf_value // POINT_UNIT,
            ],
            dtype=np.int64,
        )

    def args(self):
        return (self.ordered, self.ordered_off, self.keep_dice, self.keep_pts,
                self.faces, self.deck, self.bonus, self.bankable, self.params)


@njit(cache=True, inline="always")
def draw_throw(st, dice, ordered, ordered_off):
    return ordered[ordered_off[dice] + below(st, _POW6[dice])]


@njit(cache=True, inline="always")
def street_throw(st, dice, mask, ordered, ordered_off, faces):
    """A Straße throw of ``dice`` dice, ``mask`` the numbers set aside (bits):
    the new numbers (bits; 0 is a Niete) and how many there are."""
    new = faces[draw_throw(st, dice, ordered, ordered_off)] & ~mask & 63
    j = 0
    x = new
    while x != 0:
        x &= x - 1
        j += 1
    return new, j


@njit(cache=True, inline="always")
def street_aside(new, mask, take):
    """Set aside the ``take`` smallest of the new numbers ``new``: the mask after."""
    for _ in range(take):
        low = new & -new
        mask |= low
        new ^= low
    return mask


@njit(cache=True, inline="always")
def set_aside(card, k, ms, dice, total, card_pts, can_bank, best_pts):
    """Set aside ``k`` dice of throw ``ms`` under ``card``: dice left, turn total and
    card points after (points count under a bankable card and the Feuerwerk)."""
    if can_bank or card == FIREWORKS:
        pts = best_pts[ms, k]
        return dice - k, total + pts, card_pts + pts
    return dice - k, total, card_pts


@njit(cache=True, inline="always")
def tutto_bonus(card, total, card_pts, x2_card_scope, pm_chain, bonus):
    """A Tutto under a Bonus, x2 or Plus/Minus card: (new turn total, banked at once?);
    Plus/Minus banks at once under ``plusminus_chain`` "bank" (1), only 1000 under "flat" (2)."""
    if card == X2:
        return (total + card_pts if x2_card_scope else 2 * total), False
    if card == PLUSMINUS:
        if pm_chain == 2:
            return PLUSMINUS_UNITS, True
        return total + PLUSMINUS_UNITS, pm_chain == 1
    return total + bonus[card], False


@njit(cache=True)
def play_turn(first_card, st, pol, ordered, ordered_off, keep_dice, keep_pts,
              faces, deck, bonus, bankable, params):
    """One turn. Returns (banked units, Tuttos under the first card, throws)."""
    x2_card_scope = params[0] == 1
    pm_chain = params[1]
    clover_value = params[2]
    total = 0
    throws = 0
    first_tuttos = 0
    first = True
    card = first_card
    if card < 0:
        card = deck[below(st, deck.shape[0])]
    while True:
        if card == STOP:
            return 0, first_tuttos, throws
        if card == FIREWORKS:
            dice = 6
            while True:
                ms = draw_throw(st, dice, ordered, ordered_off)
                throws += 1
                used = keep_dice[0, ms]
                if used == 0:
                    return total, first_tuttos, throws
                total += keep_pts[0, ms]
                dice -= used
                if dice == 0:
                    dice = 6
                    if first:
                        first_tuttos += 1
        if card == STREET:
            mask = 0
            dice = 6
            take = pol[card, COL_STREET]
            while dice > 0:
                new, j = street_throw(st, dice, mask, ordered, ordered_off, faces)
                throws += 1
                if new == 0:
                    return 0, first_tuttos, throws
                k = min(take, j)
                mask = street_aside(new, mask, k)
                dice -= k
            total += STREET_UNITS
        else:
            rule = pol[card, 0]
            can_bank = bankable[card]
            dice = 6
            card_pts = 0
            clover_tuttos = 0
            while True:
                ms = draw_throw(st, dice, ordered, ordered_off)
                throws += 1
                used = keep_dice[rule, ms]
                if used == 0:
                    return 0, first_tuttos, throws
                dice -= used
                if can_bank:
                    pts = keep_pts[rule, ms]
                    total += pts
                    card_pts += pts
                if dice == 0:
                    if card != CLOVERLEAF:
                        break
                    clover_tuttos += 1
                    if first:
                        first_tuttos += 1
                    if clover_tuttos == 2:
                        return clover_value, first_tuttos, throws
                    dice = 6
                elif can_bank and total >= pol[card, dice]:
                    return total, first_tuttos, throws
            total, ends = tutto_bonus(card, total, card_pts, x2_card_scope, pm_chain, bonus)
            if ends:
                return total, first_tuttos + (1 if first else 0), throws
        # a Tutto: bank, or draw the next card and play it with 6 dice
        if first:
            first_tuttos += 1
        if total >= pol[card, COL_DRAW]:
            return total, first_tuttos, throws
        card = deck[below(st, deck.shape[0])]
        first = False


@njit(cache=True, parallel=True)
def simulate_batch(pols, first_card, seed, start, n_turns, block, ordered,
                   ordered_off, keep_dice, keep_pts, faces, deck, bonus,
                   bankable, params):
    """Sums over ``n_turns`` turns for each policy of the batch.

    Returns int64 ``out[p, b, k]`` per policy p and block b: k=0 sum of banked
    units, 1 sum of squares, 2 turns with >= 1 Tutto under the first card,
    3 turns with >= 2, 4 throws.
    """
    n_pol = pols.shape[0]
    n_blocks = (n_turns + block - 1) // block
    out = np.zeros((n_pol, n_blocks, 5), dtype=np.int64)
    for job in prange(n_pol * n_blocks):
        p = job // n_blocks
        b = job % n_blocks
        pol = pols[p]
        st = np.empty(1, dtype=np.uint64)
        s = 0
        s2 = 0
        t1 = 0
        t2 = 0
        th = 0
        hi = min(n_turns, (b + 1) * block)
        for i in range(b * block, hi):
            st[0] = stream_start(seed, np.uint64(start + i))
            v, tu, nt = play_turn(first_card, st, pol, ordered, ordered_off,
                                  keep_dice, keep_pts, faces, deck, bonus,
                                  bankable, params)
            s += v
            s2 += v * v
            if tu >= 1:
                t1 += 1
            if tu >= 2:
                t2 += 1
            th += nt
        out[p, b, 0] = s
        out[p, b, 1] = s2
        out[p, b, 2] = t1
        out[p, b, 3] = t2
        out[p, b, 4] = th
    return out


@njit(cache=True, parallel=True)
def simulate_turns(pol, first_card, seed, start, n_turns, block, ordered,
                   ordered_off, keep_dice, keep_pts, faces, deck, bonus,
                   bankable, params):
    """Per-turn results: int64 ``out[i] = (banked units, Tuttos, throws)``."""
    out = np.zeros((n_turns, 3), dtype=np.int64)
    n_blocks = (n_turns + block - 1) // block
    for b in prange(n_blocks):
        st = np.empty(1, dtype=np.uint64)
        for i in range(b * block, min(n_turns, (b + 1) * block)):
            st[0] = stream_start(seed, np.uint64(start + i))
            v, tu, nt = play_turn(first_card, st, pol, ordered, ordered_off,
                                  keep_dice, keep_pts, faces, deck, bonus,
                                  bankable, params)
            out[i, 0] = v
            out[i, 1] = tu
            out[i, 2] = nt
    return out
