"""Games from a given position with a given player to move: the reference
engine (``play_game(board=..., first_player=...)``) and the kernel
(``kernel.simulate_from``, ``kernel.play_traced(pieces=...)``) play the same
games, throw for throw, for every bot and option; the block runner gives the
same results on 1 and 2 threads and reads stream ``(seed, i)`` for game i."""

import itertools

import numba
import numpy as np
import pytest

from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.policy import WeightsPolicy
from tutto_sim.rutsmieter.reference import (
    BOT_NAMES,
    STAT_NAMES,
    Board,
    apply_move,
    legal_moves,
    play_game,
)
from tutto_sim.rutsmieter.rules import RutsmieterRules

OPTIONS = list(itertools.product((False, True), repeat=4))
#: A weights bot that captures, fears and hurries: its choices differ from ``first``.
WEIGHTS = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0)
#: Bot names of the tests; "weights" is the kernel's weights row 0.
ALL_BOTS = (*BOT_NAMES, "weights")


def engine_bot(name, rules):
    return WeightsPolicy(WEIGHTS, rules).bot() if name == "weights" else name


def kernel_id(name):
    return K.BOT_WEIGHTS if name == "weights" else BOT_NAMES.index(name)


def reachable_positions(rules, seed, count):
    """Positions of real games (``random`` bots) at the start of a run of
    throws: after a 6 (the same player throws again) or where the turn passes.
    Replays the game's log move by move on a board."""
    rec = play_game(["random"] * rules.players, rules, seed, 0)
    board = Board.start(rules.seats)
    out = []
    for t, th in enumerate(rec.log):
        fresh_run = t > 0 and (rec.log[t - 1].die == 6 or rec.log[t - 1].player != th.player)
        if fresh_run:
            out.append((board.copy(), th.player))
        if th.piece >= 0:
            move = next(m for m in legal_moves(board, th.player, th.die, rules)
                        if m.piece == th.piece)
            apply_move(board, th.player, move)
    step = max(1, len(out) // count)
    return out[::step][:count]


def random_position(rng, rules, finished=None):
    """Pieces at random on distinct ring squares and own goal squares; player
    ``finished`` (if any) has all four in the goal lane."""
    seats = rules.seats
    taken = set()
    pieces = []
    for j, seat in enumerate(seats):
        if j == finished:
            pieces.append([40, 41, 42, 43])
            continue
        own = []
        for _ in range(4):
            while True:
                x = -1 if rng.random() < 0.3 else int(rng.integers(0, 44))
                sq = (x + 10 * seat) % 40 if 0 <= x < 40 else None
                if x == -1 or (x not in own and sq not in taken):
                    break
            own.append(x)
            if sq is not None:
                taken.add(sq)
        if all(x >= 40 for x in own):
            own[0] = -1  # finished only when asked for
        pieces.append(own)
    return Board(seats, pieces)


def assert_same_game(bots, rules, board, first, seed, index):
    """The reference's game and the kernel's from ``board`` with ``first`` to move:
    the same throws and moves, winner, counts, places and statistics."""
    rec = play_game([engine_bot(b, rules) for b in bots], rules, seed, index, board=board,
                    first_player=first)
    trace = np.full((rec.throws + 1, 4), -9, dtype=np.int64)
    kernel = K.play_traced(seed, index, K.kernel_params(rules), K.kernel_offsets(rules.players),
                           [kernel_id(b) for b in bots], trace, wtab=[WEIGHTS],
                           pieces=board.pieces, first_player=first)
    w, t, u, places, stats = kernel
    got = (trace[:t].tolist(), w, t, u, places.tolist(), stats.tolist())
    want = ([list(x) for x in rec.log], rec.winner, rec.throws, rec.turns, list(rec.places),
            [[s[k] for k in STAT_NAMES] for s in rec.stats])
    assert got == want
    return rec


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "".join("LCJT"[i] if v else "-"
                                                                 for i, v in enumerate(o)))
def test_kernel_plays_the_reference_games_from_reachable_positions(options):
    for b, bot in enumerate(ALL_BOTS):
        players = 2 + b % 3
        rules = RutsmieterRules(players, *options)
        for k, (board, first) in enumerate(reachable_positions(rules, 31 + b, 3)):
            other = ALL_BOTS[(b + k + 1) % len(ALL_BOTS)]
            bots = [bot if j % 2 == k % 2 else other for j in range(players)]
            assert_same_game(bots, rules, board, first, seed=400 + b, index=k)


def test_kernel_plays_the_reference_games_from_random_placements():
    rng = np.random.default_rng(5)
    finished_seen = 0
    for trial in range(60):
        players = (2, 3, 4)[trial % 3]
        rules = RutsmieterRules(players, *OPTIONS[trial % len(OPTIONS)])
        # with play_to_third some positions have a player who finished already
        finished = int(rng.integers(0, players)) if rules.play_to_third and trial % 2 else None
        board = random_position(rng, rules, finished)
        first = int(rng.choice([p for p in range(players) if p != finished]))
        bots = [ALL_BOTS[int(i)] for i in rng.integers(0, len(ALL_BOTS), players)]
        rec = assert_same_game(bots, rules, board, first, seed=77, index=trial)
        if finished is not None:
            finished_seen += 1
            # finished before the first throw: first in the finishing order, out of play
            assert rec.finish_order[0] == finished and rec.places[finished] == 1
            assert rec.stats[finished]["throws"] == 0
    assert finished_seen >= 5


def test_the_first_player_throws_first_and_a_finished_table_plays_no_throw():
    rules = RutsmieterRules(players=3)
    board = Board(rules.seats, [[5, -1, -1, -1], [12, 30, -1, -1], [-1, -1, -1, -1]])
    for first in range(3):
        rec = play_game(["first"] * 3, rules, 3, first, board=board, first_player=first)
        assert rec.log[0].player == first
        assert rec.stats[first]["turns"] >= 1
    # without play_to_third a player with all pieces home has won before the first throw
    done = Board(rules.seats, [[5, -1, -1, -1], [40, 41, 42, 43], [-1, -1, -1, -1]])
    rec = play_game(["first"] * 3, rules, 3, 0, board=done, first_player=2)
    assert (rec.winner, rec.throws, rec.turns, rec.places) == (1, 0, 0, (2, 1, 3))
    res = K.simulate_from(done.pieces, 2, ["first"] * 3, rules, seed=3, n_games=4)
    assert res.winner.tolist() == [1] * 4 and res.throws.tolist() == [0] * 4
    with pytest.raises(ValueError, match="first_player must be a player still playing"):
        play_game(["first"] * 3, rules, 3, 0, board=done, first_player=1)


def test_start_position_plays_the_old_games():
    """From the start position with player 0 to move, ``play_game`` and
    ``simulate_from`` play exactly the games of a run from the start."""
    rules = RutsmieterRules(players=4, goal_no_jump=True)
    lineup = ["aggressive", "random", "defensive", "last"]
    start = Board.start(rules.seats)
    for i in range(5):
        a = play_game(lineup, rules, 12, i)
        b = play_game(lineup, rules, 12, i, board=start, first_player=0)
        assert (a.log, a.places, a.stats) == (b.log, b.places, b.stats)
    full = K.simulate(lineup, rules, seed=12, n_games=500, start=3)
    fresh = K.simulate_from(np.full((4, 4), -1), 0, lineup, rules, seed=12, n_games=500, start=3)
    for name in ("winner", "places", "throws", "turns", "totals"):
        assert np.array_equal(getattr(full, name), getattr(fresh, name)), name


def test_simulate_from_plays_stream_i_for_game_i_on_any_thread_count():
    rules = RutsmieterRules(players=3, play_to_third=True)
    board, first = reachable_positions(rules, 9, 1)[0]
    lineups = np.array([[K.BOT_WEIGHTS, 1, 4], [0, K.BOT_WEIGHTS, 3]])
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = K.simulate_from(board.pieces, first, lineups, rules, seed=21, n_games=300, start=50,
                              block=32, weights=[WEIGHTS])
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = K.simulate_from(board.pieces, first, lineups, rules, seed=21, n_games=300,
                              start=50, block=50, weights=[WEIGHTS])
    finally:
        numba.set_num_threads(old)
    serial = K.simulate_positions([board.pieces], [first], lineups, rules, seed=21, n_games=300,
                                  start=50, block=7, weights=[WEIGHTS], parallel=False)[0]
    for res in (two, serial):
        for name in ("winner", "places", "throws", "turns", "totals"):
            assert np.array_equal(getattr(one, name), getattr(res, name)), name
    names = {K.BOT_WEIGHTS: "weights", **{i: b for i, b in enumerate(BOT_NAMES)}}
    for g in (0, 1, 151, 299):
        i = 50 + g
        bots = [engine_bot(names[b], rules) for b in lineups[i % 2]]
        rec = play_game(bots, rules, 21, i, board=board, first_player=first)
        assert (rec.winner, rec.throws, rec.turns) == (one.winner[g], one.throws[g], one.turns[g])
        assert rec.places == tuple(one.places[g])
    assert one.totals[:, 0].sum() == one.throws.sum()


def test_simulate_from_refuses_what_is_no_position_in_one_line():
    rules = RutsmieterRules(players=2)
    ok = [[-1] * 4, [-1] * 4]
    bad = [
        ([[-1] * 4], "shape"),
        ([[-1, -1, -1, 44], [-1] * 4], "-1 \\(house\\) .. 43"),
        ([[5, 5, -1, -1], [-1] * 4], "two pieces of player 0"),
        ([[25, -1, -1, -1], [5, -1, -1, -1]], "two pieces on one ring square"),
    ]
    for pieces, match in bad:
        with pytest.raises(ValueError, match=match):
            K.simulate_from(pieces, 0, ["first"] * 2, rules, n_games=1)
    with pytest.raises(ValueError, match=r"first_player must be 0\.\.1"):
        K.simulate_from(ok, 2, ["first"] * 2, rules, n_games=1)
    with pytest.raises(ValueError, match="finished already"):
        K.simulate_from([[40, 41, 42, 43], [-1] * 4], 0, ["first"] * 2,
                        RutsmieterRules(players=2, play_to_third=True), n_games=1)
