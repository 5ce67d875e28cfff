"""The numba kernel plays the reference engine's games: every throw, move,
place, statistic and count, for every bot and every option; and its block
runner gives the same results on 1 and 2 threads."""

import itertools

import numba
import numpy as np
import pytest

from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.reference import BOT_NAMES, STAT_NAMES, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

OPTIONS = list(itertools.product((False, True), repeat=4))


def assert_same_game(bots, rules, seed, index, players=None):
    seats = None if players is None else (0,)
    rec = play_game(bots, rules, seed, index, seats=seats)
    n = len(bots)
    trace = np.full((rec.throws + 1, 4), -9, dtype=np.int64)
    w, t, u, places, stats = K.play_traced(seed, index, K.kernel_params(rules, players),
                                           K.kernel_offsets(n), K.bot_ids(bots), trace)
    assert [tuple(r) for r in trace[:t].tolist()] == [tuple(x) for x in rec.log]
    assert (w, t, u) == (rec.winner, rec.throws, rec.turns)
    assert tuple(places) == rec.places
    assert stats.tolist() == [[s[k] for k in STAT_NAMES] for s in rec.stats]
    return rec


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "".join("LCJT"[i] if v else "-"
                                                                 for i, v in enumerate(o)))
def test_kernel_plays_the_reference_games_for_every_option_and_bot(options):
    leave, capture, no_jump, third = options
    for b, bot in enumerate(BOT_NAMES):
        players = 2 + b % 3
        rules = RutsmieterRules(players, leave, capture, no_jump, third)
        assert_same_game([bot] * players, rules, seed=17 + b, index=b)


def test_kernel_plays_the_reference_games_mixed_tables_many_seeds():
    rng = np.random.default_rng(0)
    for i in range(30):
        players = (2, 3, 4)[i % 3]
        bots = [BOT_NAMES[j] for j in rng.integers(0, len(BOT_NAMES), players)]
        opts = OPTIONS[i % len(OPTIONS)]
        rules = RutsmieterRules(players, *opts)
        assert_same_game(bots, rules, seed=1000 + i, index=int(rng.integers(0, 2**40)))


def test_kernel_plays_the_solo_games():
    for i in range(10):
        rec = assert_same_game(["first"], RutsmieterRules(), seed=5, index=i, players=1)
        assert rec.places == (1,) and rec.winner == 0


def test_block_runner_matches_single_games_and_thread_counts():
    rules = RutsmieterRules(players=3, goal_no_jump=True)
    lineups = np.array([[0, 1, 4], [3, 2, 1]])
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = K.simulate(lineups, rules, seed=8, n_games=700, start=40, block=64)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = K.simulate(lineups, rules, seed=8, n_games=700, start=40, block=64)
        other_blocks = K.simulate(lineups, rules, seed=8, n_games=700, start=40, block=100)
    finally:
        numba.set_num_threads(old)
    for res in (two, other_blocks):
        for name in ("winner", "places", "throws", "turns", "totals"):
            assert np.array_equal(getattr(one, name), getattr(res, name)), name
    # game 40 + g of the run is the single game (8, 40 + g) with lineup (40 + g) % 2
    for g in (0, 1, 333, 699):
        i = 40 + g
        trace = np.zeros((0, 4), np.int64)
        w, t, u, places, stats = K.play_traced(8, i, K.kernel_params(rules), K.kernel_offsets(3),
                                               lineups[i % 2], trace)
        assert (w, t, u) == (one.winner[g], one.throws[g], one.turns[g])
        assert places.tolist() == one.places[g].tolist()
    assert one.totals[:, 0].sum() == one.throws.sum()
    assert one.wins().sum() == 700


def test_simulate_rejects_bad_bots_in_one_line():
    with pytest.raises(ValueError, match="unknown Rutsmieter bot 'best'; valid: random"):
        K.simulate(["first", "best"], RutsmieterRules(players=2), n_games=1)
    with pytest.raises(ValueError, match="2 players need 2 bots"):
        K.simulate(["first"] * 3, RutsmieterRules(players=2), n_games=1)


def _random_position(rng, seats):
    """Pieces of every player at random, on distinct ring squares and goal squares."""
    n = len(seats)
    pos = np.full(4 * n, -1, np.int64)
    ring_taken = set()
    for j in range(n):
        own = set()
        for k in range(4):
            for _ in range(20):
                x = int(rng.integers(-1, 44)) if rng.random() < 0.8 else -1
                if x == -1:
                    break
                sq = (x + 10 * seats[j]) % 40 if x < 40 else None
                if x in own or (sq is not None and sq in ring_taken):
                    continue
                own.add(x)
                if sq is not None:
                    ring_taken.add(sq)
                pos[4 * j + k] = x
                break
    return pos


def test_fast_path_of_deterministic_bots_chooses_the_reference_move():
    """``first``, ``last`` and ``aggressive`` choose in one pass (kernel._fast_move):
    on random positions, every option and throw, the reference's move."""
    from tutto_sim.rutsmieter.reference import BOTS, Board, Observation, legal_moves

    rng = np.random.default_rng(42)
    checked = 0
    for trial in range(1500):
        players = (2, 3, 4)[trial % 3]
        rules = RutsmieterRules(players, *OPTIONS[trial % len(OPTIONS)])
        seats = rules.seats
        pos = _random_position(rng, seats)
        board = Board(seats, [list(pos[4 * j:4 * j + 4]) for j in range(players)])
        p = int(rng.integers(0, players))
        params = K.kernel_params(rules)
        offs = K.kernel_offsets(players)
        for die in range(1, 7):
            moves = legal_moves(board, p, die, rules)
            for name in ("first", "last", "aggressive"):
                k, end, vic = K.fast_move_at(pos, params, offs, p, die, BOT_NAMES.index(name))
                if not moves:
                    assert k == -1
                    continue
                obs = Observation(seats, tuple(map(tuple, board.pieces)), p, die, tuple(moves))
                m = moves[BOTS[name].choose(obs)]
                want_vic = -1 if m.victim is None else 4 * m.victim[0] + m.victim[1]
                assert (k, end, vic) == (m.piece, m.end, want_vic), (name, pos, p, die, rules)
                checked += 1
    assert checked > 10_000
