"""The numba kernel plays the reference engine's Tutti hands and matches:
every action (cards, exchanges, declarations, Tutes, passes) in the same
order, the same points, winners and per-seat counts, for every option and
both bots, mixed tables too; and its block runner gives the same results on
1 and 2 threads and in any block size."""

import itertools

import numba
import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.tutti import kernel as K
from tutto_sim.tutti.cards import LAST_TRICK, POINTS
from tutto_sim.tutti.reference import encode, play_hand, play_match
from tutto_sim.tutti.rules import TuttiRules

TABLES = [(2, False), (3, False), (4, False), (4, True)]
#: Every option that changes a hand: must_answer_trump only acts at 2 players.
HAND_RULES = [TuttiRules(players=n, pairs=p, must_answer_trump=m, allow_tute=a)
              for (n, p), m, a in itertools.product(TABLES, (False, True), (False, True))
              if n == 2 or not m]
LINEUPS = ("random", "heuristic", "mixed", "mixed2")


def lineup(rules, kind):
    n = rules.players
    if kind in ("random", "heuristic"):
        return [kind] * n
    first = 0 if kind == "mixed" else 1
    return [("random", "heuristic")[(p + first) % 2] for p in range(n)]


def kind_of(a, trump):
    """The kind of an action id, 7 and 2 exchanges and 20 and 40 apart."""
    if a < 40:
        return "play"
    if a < 80:
        return "exchange 7" if (a - 40) % 10 == 5 else "exchange 2"
    if a < 84:
        return "40" if a - 80 == trump else "20"
    return "tute" if a < 86 else "pass"


def seat_counts(hands, rules):
    """Per-seat counts (``K.STAT_NAMES``) read off reference hand records."""
    out = np.zeros((rules.players, K.N_STATS), np.int64)
    for rec in hands:
        for t in rec.tricks:
            out[t.winner, K.ST_TRICKS] += 1
            out[t.winner, K.ST_POINTS] += sum(POINTS[c] for _, c in t.plays)
        if rec.last_trick >= 0:
            out[rec.last_trick, K.ST_LAST] += 1
            out[rec.last_trick, K.ST_POINTS] += LAST_TRICK
        for d in rec.declarations:
            col = K.ST_TUTE if d.suit < 0 else (K.ST_FORTY if d.points == 40 else K.ST_TWENTY)
            out[d.seat, col] += 1
        for e in rec.exchanges:
            out[e.seat, K.ST_EXCHANGE] += 1
    return out


def reference_actions(hands):
    return [(j, seat, encode(a)) for j, rec in enumerate(hands) for seat, a in rec.actions]


def assert_same_hand(bots, rules, seed, index):
    rec = play_hand(parse_bots(bots, rules), rules, seed, index)
    got = K.play_traced(bots, rules, seed, index)
    assert got.actions == reference_actions([rec])
    assert got.points == rec.scores
    assert (got.winner, got.tute, got.tricks, got.hands) == (rec.winner, rec.tute,
                                                             len(rec.tricks), 1)
    assert got.wins == tuple(int(rec.winner == s) for s in range(rules.sides))
    assert got.stats.tolist() == seat_counts([rec], rules).tolist()
    return rec


def kinds(rec):
    """The kinds of the actions of a hand record (and "tie" for a tied hand)."""
    out = {kind_of(encode(a), rec.trump_suit) for _, a in rec.actions}
    return out | ({"tie"} if rec.winner < 0 else set())


def assert_same_match(bots, rules, seed, index):
    rec = play_match(parse_bots(bots, rules), rules, seed, index)
    got = K.play_traced(bots, rules, seed, index, match=True)
    assert got.actions == reference_actions(rec.hands)
    assert (got.winner, got.hands, got.wins) == (rec.winner, len(rec.hands), rec.wins)
    assert got.points == tuple(sum(h.scores[s] for h in rec.hands) for s in range(rules.sides))
    assert got.tute == rec.hands[-1].tute
    assert rec.tute == (got.tute >= 0 and rules.tute_wins == "match")
    assert got.tricks == sum(len(h.tricks) for h in rec.hands)
    assert got.stats.tolist() == seat_counts(rec.hands, rules).tolist()
    return rec


@pytest.mark.parametrize("rules", HAND_RULES, ids=lambda r: r.digest()[:8])
def test_kernel_plays_the_reference_hands_for_every_option_and_lineup(rules):
    seen = set()
    for i in range(48):
        rec = assert_same_hand(lineup(rules, LINEUPS[i % 4]), rules, seed=31 + rules.players,
                               index=i)
        seen |= kinds(rec)
    # the comparisons cover declarations (and exchanges and passes where they exist)
    expected = {"play", "20", "40"} | ({"exchange 7", "exchange 2"} if rules.players == 2
                                       else set()) | ({"pass"} if rules.pairs else set())
    assert expected <= seen <= expected | {"tute", "tie"}


@pytest.mark.parametrize("n, pairs", TABLES)
def test_kernel_plays_the_reference_matches(n, pairs):
    k = 0
    for hands, tute_wins, tute in ((1, "match", True), (3, "match", True), (3, "hand", True),
                                   (2, "hand", False), (5, "match", True)):
        rules = TuttiRules(players=n, pairs=pairs, hands=hands, tute_wins=tute_wins,
                           allow_tute=tute, must_answer_trump=hands == 2)
        for m in range(3):
            rec = assert_same_match(lineup(rules, LINEUPS[k % 4]), rules, seed=7, index=m)
            assert rec.winner >= 0
            k += 1


@pytest.mark.parametrize("n, pairs", TABLES)
def test_kernel_and_reference_agree_on_the_rare_hands(n, pairs):
    """Tutes and ties are rare (a Tute in about 1 hand in 10,000 at four
    players alone): the kernel finds such hands among many, the reference
    replays them."""
    rules = TuttiRules(players=n, pairs=pairs)
    for bots, n_hands, want_tutes in (("heuristic", 100_000, 3), ("mixed", 20_000, 0)):
        names = lineup(rules, bots)
        res = K.simulate_hands(names, rules, seed=5, n_hands=n_hands)
        tutes, ties = np.flatnonzero(res.tute >= 0)[:want_tutes], np.flatnonzero(res.winner < 0)[:2]
        assert len(tutes) == want_tutes and len(ties) == 2
        for g in tutes:
            assert "tute" in kinds(assert_same_hand(names, rules, 5, int(g)))
        for g in ties:
            assert assert_same_hand(names, rules, 5, int(g)).winner == -1
    # matches decided by a Tute, in both readings of what it wins
    names = lineup(rules, "heuristic")
    for tute_wins in ("match", "hand"):
        r3 = TuttiRules(players=n, pairs=pairs, hands=3, tute_wins=tute_wins)
        res = K.simulate(names, r3, seed=6, n_games=30_000)
        found = np.flatnonzero(res.tutes > 0)[:2]
        assert len(found) == 2
        for m in found:
            rec = assert_same_match(names, r3, 6, int(m))
            assert sum(h.tute >= 0 for h in rec.hands) == res.tutes[m]
            assert rec.tute == (tute_wins == "match")


@pytest.mark.parametrize("match", [False, True])
def test_block_runner_matches_single_games_and_thread_counts(match):
    rules = TuttiRules(players=4, pairs=True, hands=2)
    lineups = np.array([[0, 1, 0, 1], [1, 1, 0, 0]])
    old = numba.get_num_threads()
    run = K.simulate if match else K.simulate_hands
    try:
        numba.set_num_threads(1)
        one = run(lineups, rules, 8, 3000, 40, block=64)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run(lineups, rules, 8, 3000, 40, block=64)
        other_blocks = run(lineups, rules, 8, 3000, 40, block=1000)
    finally:
        numba.set_num_threads(old)
    names = ("winner", "wins", "points", "hands", "tute", "tutes", "tricks", "totals")
    for res in (two, other_blocks):
        for name in names:
            assert np.array_equal(getattr(one, name), getattr(res, name)), name
    # game 40 + g of the run is the single game (8, 40 + g) with lineup (40 + g) % 2
    total = np.zeros_like(one.totals)
    for g in range(3000):
        i = 40 + g
        bots = lineups[i % 2]
        t = K.play_traced(bots, rules, 8, i, match=match)
        total += t.stats
        assert t.stats[:, K.ST_TUTE].sum() == one.tutes[g]
        if g % 300 == 0:
            assert (t.winner, t.hands, t.tute, t.tricks) == (one.winner[g], one.hands[g],
                                                            one.tute[g], one.tricks[g])
            assert t.wins == tuple(one.wins[g]) and t.points == tuple(one.points[g])
            names = parse_bots([K.BOT_NAMES[b] for b in bots], rules)
            ref = play_match(names, rules, 8, i) if match else play_hand(names, rules, 8, i)
            assert t.winner == ref.winner
    assert np.array_equal(total, one.totals)


def test_bad_bots_are_one_line_errors():
    with pytest.raises(ValueError, match="valid: random, heuristic"):
        K.simulate(["random", "clever"])
    with pytest.raises(ValueError, match="4 players need 4 bots per lineup, not 2"):
        K.simulate_hands(["random", "random"], TuttiRules(players=4))
