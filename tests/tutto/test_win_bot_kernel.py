"""The winopt bot in the game kernel (``tutto.win.bot_kernel``).

1. It plays the very games of the reference game's ``winopt`` bot, whose
   decisions come from one turn's programme per decision
   (``win.planner.WinPlanner``): same seeds, same scores, winners, turns and
   banked points, under both game ends and the rule options that change its
   decisions (deduction at the Tutto, the Plus/Minus chains; the x2 card's
   own points were checked the same way outside the tests, where solving its
   turn table takes a minute).
2. Its tournaments with cards drawn independently (``--deck iid``) win as
   often as the exact solver says (``win.solve2.solve_win``): winopt against
   winopt in the first seat ``p_first_wins``, winopt against the points bot
   ``optimal`` in each seat ``win_vs_ev_seats`` and on average ``win_vs_ev``,
   within 95% confidence (the checks together, ``family_z``).
3. Its values, built for all turn starts at once by the parallel kernel
   (``win.bot_kernel._fill_turns``), are byte for byte those of the
   planner's programme run turn start by turn start (``WinPlanner.turn``,
   the reference below), on 1 and 2 threads.
"""

from __future__ import annotations

import dataclasses
import itertools

import numba
import numpy as np
import pytest

from tutto_sim.core.blocks import set_threads
from tutto_sim.core.bots import parse_bots
from tutto_sim.core.stats import Z95, Estimate, family_z
from tutto_sim.core.tournament import kernel_batch, make_lineups, reference_batch
from tutto_sim.tutto.bots import WinOptBot, parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.game_kernel import SHARE, TuttoGameKernel
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.bot_kernel import FIRST_U, N_U, WinBotData, _build
from tutto_sim.tutto.win.seat import two_player_state
from tutto_sim.tutto.win.planner import WinPlanner
from tutto_sim.tutto.win.solve2 import default_margin_cap, solve_win
from tutto_sim.tutto.win.table import WinTable

#: The winopt bots solve and save their win tables under results/ of the current folder.
pytestmark = pytest.mark.usefixtures("in_tmp_dir")

CASES = [
    # rule options, bots, games
    ({"target": 300}, "winopt,optimal", 80),
    ({"target": 300, "game_end": "immediate"}, "winopt,winopt", 80),
    ({"target": 200, "plusminus_deduction": "tutto", "plusminus_chain": "flat"}, "winopt,optimal", 60),
    ({"target": 200, "plusminus_chain": "bank"}, "optimal,winopt", 60),
]


@pytest.mark.parametrize("options, specs, games", CASES,
                         ids=["round", "immediate-self", "tutto-flat", "bank-chain"])
def test_kernel_plays_the_reference_games(options, specs, games):
    rules = TuttoRules(deck="iid", **options)
    config = GameConfig(rules)
    bots = parse_bots(specs, rules)
    lineups = make_lineups(2, 2)
    k = kernel_batch(TuttoGameKernel(config, [b.table() for b in bots]), 11, 0, games, lineups)
    errors: dict = {}
    r = reference_batch(bots, config, 11, 0, games, lineups, errors)
    assert errors == {}
    for field in ("share", "score", "banked", "banked_sq", "turns", "end"):
        a, b = getattr(k, field), getattr(r, field)
        bad = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        assert bad.size == 0, f"{field} differs in games {bad[:5]}: kernel {a[bad[:2]]} reference {b[bad[:2]]}"
    # the games reach the decisions that matter: the last round, both seats winning
    assert set(k.end.tolist()) >= ({0} if rules.game_end == "round" else {1})
    assert 0 < k.share[:, 0].sum() < SHARE * games


def test_two_win_tables_in_one_game():
    """Bots of two different win tables (another cap on seat 0's last margins)
    each play by their own values: the kernel lays them one after the other."""
    rules = TuttoRules(target=200, deck="iid")
    sol = solve_win(TuttoRules(target=200), margin_cap=4, evaluate_ev=False)
    other = WinOptBot(WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, {}),
                      "winopt-cap4")
    bots = [parse_bot("winopt", rules), other]
    tables = [b.table() for b in bots]
    assert tables[0].data.key != tables[1].data.key
    config = GameConfig(rules)
    lineups = make_lineups(2, 2)
    k = kernel_batch(TuttoGameKernel(config, tables), 13, 0, 60, lineups)
    r = reference_batch(bots, config, 13, 0, 60, lineups)
    assert (k.score == r.score).all() and (k.share == r.share).all() and (k.turns == r.turns).all()


# --------------------------------------------------------------------------
# tables of three and four: the reduced two-player state (tutto.win.seat)
# --------------------------------------------------------------------------

N_CASES = [
    # rule options, bots, games (each seat rotation of the lineup in turn)
    ({"target": 300}, "winopt,optimal,optimal", 90),
    ({"target": 300}, "winopt,winopt,optimal,optimal", 80),
    ({"target": 300, "game_end": "immediate"}, "winopt,optimal,winopt", 60),
    ({"target": 200, "plusminus_deduction": "tutto", "plusminus_chain": "flat"},
     "optimal,winopt,optimal,winopt", 60),
]


@pytest.mark.parametrize("options, specs, games", N_CASES,
                         ids=["three", "four", "three-immediate", "four-tutto-flat"])
def test_kernel_plays_the_reference_games_at_more_players(options, specs, games):
    """At tables of three and four the kernel's winopt plays the reference
    game's, game for game; every seat of the rotation ends with a share."""
    rules = TuttoRules(deck="iid", **options)
    config = GameConfig(rules)
    bots = parse_bots(specs, rules)
    n = len(bots)
    lineups = make_lineups(n, n)
    k = kernel_batch(TuttoGameKernel(config, [b.table() for b in bots]), 17, 0, games, lineups)
    errors: dict = {}
    r = reference_batch(bots, config, 17, 0, games, lineups, errors)
    assert errors == {}
    for field in ("share", "score", "banked", "banked_sq", "turns", "end"):
        a, b = getattr(k, field), getattr(r, field)
        bad = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        assert bad.size == 0, f"{field} differs in games {bad[:5]}: kernel {a[bad[:2]]} reference {b[bad[:2]]}"
    assert (k.share.sum(axis=0) > 0).all()
    if rules.game_end == "round":
        assert 0 in set(k.end.tolist())


def test_winopt_needs_another_player():
    rules = TuttoRules(target=200, deck="iid")
    kern = TuttoGameKernel(GameConfig(rules), [parse_bot("winopt", rules).table()])
    with pytest.raises(ValueError, match="at least one other player"):
        kern.run(1, 0, 10, make_lineups(1, 1))


def test_the_reduced_state():
    """Own score, the leader's among the others, seat 1 for the last of the round."""
    s = np.array([10, 40, 25, 40], dtype=np.int64)
    assert two_player_state(s, 0, 4) == (0, 10, 40)
    assert two_player_state(s, 1, 4) == (0, 40, 40)
    assert two_player_state(s, 2, 4) == (0, 25, 40)
    assert two_player_state(s, 3, 4) == (1, 40, 40)
    s = np.array([7, 3, 9], dtype=np.int64)
    assert two_player_state(s, 2, 3) == (1, 9, 7)
    assert two_player_state(s, 1, 3) == (0, 3, 9)
    # two players: the table's own seat and the other's score
    s = np.array([5, 8], dtype=np.int64)
    assert two_player_state(s, 0, 2) == (0, 5, 8)
    assert two_player_state(s, 1, 2) == (1, 8, 5)


class _TwoPlayerTwin:
    """Beside each decision of ``bot`` at a table of N, the decision of a
    second ``winopt`` bot shown the game as two players: own score against
    the leader's, in the first seat unless nobody moves after it in the round."""

    def __init__(self, bot, twin):
        self.bot, self.twin, self.name = bot, twin, bot.name
        self.asked = {}  # (seat in the two-player game, last round): decisions

    def act(self, d):
        g = d.game
        others = [x for q, x in enumerate(g.scores) if q != g.seat]
        seat = 1 if g.seat == len(g.scores) - 1 else 0
        two = (g.scores[g.seat], max(others))[::1 if seat == 0 else -1]
        start = g.turn_start or g.scores  # the turn's start: Plus/Minus losers are fixed there
        others0 = [x for q, x in enumerate(start) if q != g.seat]
        two0 = (start[g.seat], max(others0))[::1 if seat == 0 else -1]
        view = dataclasses.replace(g, scores=two, turn_start=two0, seat=seat, names=g.names[:2])
        mine = self.bot.act(d)
        assert self.twin.act(dataclasses.replace(d, game=view)) == mine, (d.kind, g.scores, g.seat)
        self.asked[seat, g.last_round] = self.asked.get((seat, g.last_round), 0) + 1
        return mine


def test_at_three_it_plays_the_two_player_bot_in_the_reduced_game():
    """The decisions at a table of three are the two-player bot's in the
    two-player game of own score against the leader's (last round included)."""
    rules = TuttoRules(target=300, deck="iid")
    bots = [_TwoPlayerTwin(parse_bot("winopt", rules), parse_bot("winopt", rules)),
            parse_bot("optimal", rules), parse_bot("optimal", rules)]
    errors: dict = {}
    reference_batch(bots, GameConfig(rules), 5, 0, 60, make_lineups(3, 3), errors)
    assert errors == {}
    # every kind of seat: first or second, before and in the last round
    assert min(bots[0].asked.get(k, 0) for k in itertools.product((0, 1), (False, True))) > 5


def _rate(share: np.ndarray, z: float) -> Estimate:
    x = share.astype(np.float64) / SHARE
    e = Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))
    return Estimate(e.mean, e.ci95 / Z95 * z, e.n)


def test_kernel_tournaments_win_as_the_solver_says():
    rules = TuttoRules(target=300, deck="iid")
    sol = solve_win(TuttoRules(target=300))
    win = WinOptBot(WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap,
                             sol.summary()))
    opt = parse_bot("optimal", rules)
    config = GameConfig(rules)
    z = family_z(4)
    games = 60_000
    self_play = kernel_batch(TuttoGameKernel(config, [win.table()]), 21, 0, games,
                             make_lineups(1, 2))
    first = _rate(self_play.share[:, 0], z)
    assert first.contains(sol.p_first_wins), (str(first), sol.p_first_wins)
    # game i: winopt in seat (i % 2), optimal in the other
    mixed = kernel_batch(TuttoGameKernel(config, [win.table(), opt.table()]), 22, 0, 2 * games,
                         make_lineups(2, 2))
    seats = [_rate(mixed.share[s::2, s], z) for s in (0, 1)]
    for s in (0, 1):
        assert seats[s].contains(sol.win_vs_ev_seats[s]), (s, str(seats[s]), sol.win_vs_ev_seats)
    both = _rate(np.concatenate([mixed.share[0::2, 0], mixed.share[1::2, 1]]), z)
    assert both.contains(sol.win_vs_ev), (str(both), sol.win_vs_ev)
    # the checks can fail: the points player's figures are outside these CIs
    assert not first.contains(sol.p_first_wins_ev)
    assert not both.contains(0.5)


# --------------------------------------------------------------------------
# the parallel build against the planner, turn start by turn start
# --------------------------------------------------------------------------


def _planner_build(table) -> WinBotData:
    """The reference: every turn start's programme from ``WinPlanner.turn``
    (its own scratch each time), its arrays laid one after the other."""
    planner = WinPlanner(table)
    n, x2 = planner.n, planner.x2_card
    chunks: list[np.ndarray] = []
    rows: list[list[int]] = []
    busts: list[float] = []
    used = [0]

    def put(a) -> int:
        off = used[0]
        chunks.append(np.array(a, dtype=np.float64).ravel())
        used[0] += chunks[-1].size
        return off

    def layer(bl, A, D, U, UX, tcap, nxt, bust) -> None:
        o_bl, o_a, o_d = put(bl), put(A), put(D[:tcap])
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
    last0, mmax = len(rows), -2
    if not planner.immediate:
        mmax = table.last_turn_table.shape[1] - 2
        for m in range(-1, mmax + 1):
            lay, row = planner.last_turn(m)
            layer(lay.bl[row], lay.A[row], lay.D[row], lay.U[row], lay.UX[row], lay.tcap,
                  last0 + lay.nxt[row], lay.bust[row])
    return WinBotData("reference", np.concatenate(chunks), np.array(rows, dtype=np.int64),
                      np.array(busts), state, last0, mmax, planner.p.cpmax + 1 if x2 else 1)


def _random_table(seed: int, margin_cap: int | None = None, **options) -> WinTable:
    """A win table of random values: the build is a function of any table,
    and random values send the comparisons every way."""
    rules = TuttoRules(**options)
    n = rules.target // 50
    mc = 0 if rules.game_end == "immediate" else margin_cap or default_margin_cap(n)
    rng = np.random.default_rng(seed)
    return WinTable(rules, rng.random((2, n, n)), rng.random((2, n + mc + 3)), mc, {})


def _same(a: WinBotData, b: WinBotData) -> None:
    for f in ("vals", "lay", "bust", "state"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and np.array_equal(x, y), f
    assert (a.last0, a.mmax, a.cpx) == (b.last0, b.mmax, b.cpx)


BUILD_CASES = [
    # target 1100: up to 3 layers (the opponent at 1050 or more); seat 0
    # followed 5 units past the target (keeps the reference quick)
    ({"target": 1100}, 5),
    ({"target": 600, "game_end": "immediate", "plusminus_deduction": "tutto",
      "plusminus_chain": "flat"}, None),
    ({"target": 300, "x2_scope": "card", "plusminus_chain": "bank"}, None),
]


@pytest.mark.parametrize("options, cap", BUILD_CASES,
                         ids=["round-bank", "immediate-tutto-flat", "x2card-chain-bank"])
def test_parallel_build_is_the_planners_turns(options, cap):
    table = _random_table(5, cap, **options)
    n = table.rules.target // 50
    calls: list[int] = []
    before = set_threads(None)
    try:
        set_threads(1)
        one = _build(table, "k", calls.append, slots=1)
        set_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _build(table, "k", None, slots=2)
    finally:
        set_threads(before)
    _same(_planner_build(table), one)
    _same(one, two)  # 1 and 2 threads
    assert sum(calls) == 2 * n * n  # progress by blocks of turn starts
    assert one.state[..., 1].max() == (3 if n > 21 else 2)


@pytest.mark.parametrize("deduction", ["bank", "tutto"])
def test_kernel_layer_is_the_planners_after_plusminus_tuttos(deduction):
    """The layer the kernel picks after j Plus/Minus Tuttos (``win_layer``, from
    the scores at the turn's start) holds the planner's values there
    (``WinPlanner.where``, checked against the table in test_win_solve2.py): the
    players who lose are fixed at the start of the turn. Target 1100: the
    opponent on 21 units falls below a roller on 15 after one Tutto; seat 1's
    last turns against a leader at or above the target."""
    from types import SimpleNamespace

    from tutto_sim.tutto.win.bot_kernel import L_BL, L_BLN, WinBotTable, forced_table, kernel_win_args, win_layer

    table = _random_table(7, 5, target=1100, plusminus_deduction=deduction)
    rules = table.rules
    data = _build(table, "k", None, slots=1)
    win = kernel_win_args(rules, [WinBotTable(data, forced_table(rules))])
    planner = WinPlanner(table)
    vals, lay = win[1], win[2]
    starts = [(0, 15, 21, False), (1, 15, 21, False), (0, 21, 21, False), (1, 2, 21, False),
              (1, 15, 30, True), (1, 0, 25, True), (1, 21, 22, True)]
    for seat, own, other, last in starts:
        for j in range(4):
            L = win_layer(win, 0, seat, own, other, last, j, False)
            start = (50 * own, 50 * other) if seat == 0 else (50 * other, 50 * own)
            view = SimpleNamespace(seat=seat, last_round=last, turn_start=start, scores=start)
            p_lay, p_j = planner.where(view, j)
            bl = vals[lay[L, L_BL]:lay[L, L_BL] + lay[L, L_BLN]]
            assert np.array_equal(bl, p_lay.bl[p_j, :len(bl)]), (seat, own, other, last, j)
