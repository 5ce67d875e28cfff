"""Rutsmieter's rules on hand-made positions: every rule and fine point of
docs/rutsmieter.md, asked of the reference engine and of the kernel alike."""

import numpy as np
import pytest

from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.reference import (
    Board,
    exposure,
    legal_moves,
    only_six_helps,
    play_game,
    rank_unfinished,
)
from tutto_sim.rutsmieter.rules import RutsmieterRules

H = -1
DEFAULT = RutsmieterRules()
FREE = RutsmieterRules(must_leave_house=False, must_capture=False)


def moves(board: Board, player: int, die: int, rules: RutsmieterRules = DEFAULT):
    """Reference moves as ``(piece, start, end, victim id)``; the kernel must agree."""
    ref = [(m.piece, m.start, m.end, -1 if m.victim is None else 4 * m.victim[0] + m.victim[1])
           for m in legal_moves(board, player, die, rules)]
    pos = np.array([x for row in board.pieces for x in row], dtype=np.int64)
    offs = np.array([10 * s for s in board.seats], dtype=np.int64)
    params = K.kernel_params(rules, len(board.seats))
    ker = [tuple(int(v) for v in row) for row in K.legal_moves_at(pos, params, offs, player, die)]
    assert ker == ref
    assert bool(K.only_six_helps_at(pos, offs, player, rules.goal_no_jump)) == only_six_helps(
        board, player, rules)
    return ref


def two(p0, p1):
    """A 2-player board (seats 0 and 2: player 1 starts at ring square 20)."""
    return Board((0, 2), [list(p0), list(p1)])


# -- settings ------------------------------------------------------------------------------


def test_rules_defaults_round_trip_and_digest():
    r = RutsmieterRules()
    assert (r.players, r.must_leave_house, r.must_capture, r.goal_no_jump, r.play_to_third) == (
        4, True, True, False, False)
    assert RutsmieterRules.from_dict(r.to_dict()) == r
    assert r.to_dict()["game"] == "rutsmieter"
    digests = {RutsmieterRules(players=n, goal_no_jump=g).digest() for n in (2, 3, 4)
               for g in (False, True)}
    assert len(digests) == 6
    assert RutsmieterRules(players=3).seats == (0, 1, 2)


@pytest.mark.parametrize("kwargs, text", [
    ({"players": 1}, "players must be one of 2, 3, 4, not 1"),
    ({"players": True}, "players must be one of 2, 3, 4"),
    ({"must_capture": "yes"}, "must_capture must be true or false"),
])
def test_rules_reject_bad_values_in_one_line(kwargs, text):
    with pytest.raises(ValueError, match=text) as exc:
        RutsmieterRules(**kwargs)
    assert "\n" not in str(exc.value)


def test_rules_from_dict_names_unknown_options():
    with pytest.raises(ValueError, match=r"unknown Rutsmieter rule option.*blocking.*valid"):
        RutsmieterRules.from_dict({"blocking": True})
    with pytest.raises(ValueError, match="not a Rutsmieter"):
        RutsmieterRules.from_dict({"game": "tutto"})


# -- moving ----------------------------------------------------------------------------------


def test_a_six_brings_one_piece_out_whichever_piece_leaves():
    b = two([H, H, H, H], [H, H, H, H])
    assert moves(b, 0, 6) == [(0, H, 0, -1)]  # one move, the lowest-numbered piece
    assert moves(b, 0, 5) == []
    assert moves(b, 0, 6, FREE) == [(0, H, 0, -1)]


def test_walk_exactly_no_landing_on_own_jumping_is_free():
    b = two([5, 8, H, H], [H, H, H, H])
    # 5+3 = 8 is own: not allowed; 8+3 = 11 fine, jumping nothing
    assert moves(b, 0, 3, FREE) == [(1, 8, 11, -1)]
    # jumping over own and other pieces is allowed
    b = two([5, 6, H, H], [27, H, H, H])  # player 1's 27 is ring square 7
    assert moves(b, 0, 4, FREE) == [(0, 5, 9, -1), (1, 6, 10, -1)]


def test_landing_on_an_opponent_captures_it_also_on_a_start_square():
    # player 1's piece at its own 0 = ring square 20; player 0 reaches it from 17
    b = two([17, H, H, H], [0, H, H, H])
    assert moves(b, 0, 3) == [(0, 17, 20, 4)]
    from tutto_sim.rutsmieter.reference import apply_move

    (m,) = legal_moves(b, 0, 3, DEFAULT)
    apply_move(b, 0, m)
    assert b.pieces == [[20, H, H, H], [H, H, H, H]]


def test_leaving_the_house_captures_on_the_own_start_square():
    b = two([H, H, H, H], [20, H, H, H])  # player 1's 20 is ring square 0
    assert moves(b, 0, 6) == [(0, H, 0, 4)]


def test_exact_into_the_goal_and_within_the_lane():
    b = two([41, 38, H, H], [H, H, H, H])
    assert moves(b, 0, 3, FREE) == []  # 41 + 3 > 43; 38 + 3 = 41 is own
    assert moves(b, 0, 2, FREE) == [(0, 41, 43, -1), (1, 38, 40, -1)]
    assert moves(b, 0, 6, FREE) == [(2, H, 0, -1)]  # only leaving: 38 + 6 > 43
    assert moves(b, 0, 5, FREE) == [(1, 38, 43, -1)]


def test_goal_no_jump_forbids_jumping_own_pieces_in_and_into_the_lane():
    gnj = RutsmieterRules(must_leave_house=False, goal_no_jump=True)
    b = two([41, 38, 40, 20], [H, H, H, H])
    # 38 + 4 = 42 would jump own 40 and 41 when entering; 40 + 3 = 43 jumps 41
    assert moves(b, 0, 4, FREE) == [(1, 38, 42, -1), (3, 20, 24, -1)]
    assert moves(b, 0, 4, gnj) == [(3, 20, 24, -1)]
    assert moves(b, 0, 3, FREE) == [(2, 40, 43, -1), (3, 20, 23, -1)]
    assert moves(b, 0, 3, gnj) == [(3, 20, 23, -1)]
    # jumping ring squares (and an opponent) stays allowed: 38 + 1 = 39
    b = two([36, 40, H, H], [H, H, H, H])
    assert moves(b, 0, 5, gnj) == []  # 36 + 5 = 41 jumps own 40 when entering
    assert moves(b, 0, 5, FREE) == [(0, 36, 41, -1)]
    assert moves(b, 0, 3, gnj) == [(0, 36, 39, -1), (1, 40, 43, -1)]


# -- obligations ------------------------------------------------------------------------------


def test_must_leave_house_beats_capture():
    # a 6: leaving is the only move although 14 + 6 captures on ring square 20
    b = two([14, H, H, H], [0, H, H, H])
    assert moves(b, 0, 6) == [(1, H, 0, -1)]
    assert moves(b, 0, 6, RutsmieterRules(must_leave_house=False)) == [(0, 14, 20, 4)]
    assert moves(b, 0, 6, FREE) == [(0, 14, 20, 4), (1, H, 0, -1)]


def test_clear_the_start_square_first_even_where_another_piece_could_capture():
    b = two([0, 17, H, H], [0, H, H, H])  # 17 + 3 captures at ring square 20
    assert moves(b, 0, 3) == [(0, 0, 3, -1)]
    # also with a 6: the start square is own, so leaving is impossible; clearing applies
    assert moves(b, 0, 6) == [(0, 0, 6, -1)]
    # when the start piece cannot move the obligation does not apply: capture does
    b = two([0, 17, 3, H], [0, H, H, H])
    assert moves(b, 0, 3) == [(1, 17, 20, 4)]
    # without a piece waiting in the house the start piece is free
    b = two([0, 17, 30, 41], [0, H, H, H])
    assert moves(b, 0, 3) == [(1, 17, 20, 4)]
    assert moves(b, 0, 2) == [(0, 0, 2, -1), (1, 17, 19, -1), (2, 30, 32, -1), (3, 41, 43, -1)]
    # the option off: no clearing, capture still applies
    b = two([0, 17, H, H], [0, H, H, H])
    assert moves(b, 0, 3, RutsmieterRules(must_leave_house=False)) == [(1, 17, 20, 4)]


def test_must_capture_leaves_every_capturing_move():
    # player 1's pieces at its own 0 (square 20) and 5 (square 25)
    b = two([17, 22, 30, 41], [0, 5, H, H])
    assert moves(b, 0, 3) == [(0, 17, 20, 4), (1, 22, 25, 5)]
    assert moves(b, 0, 3, RutsmieterRules(must_capture=False)) == [
        (0, 17, 20, 4), (1, 22, 25, 5), (2, 30, 33, -1)]


def test_the_obligations_narrow_only_where_they_apply():
    # a 6 with the start square blocked by an own piece that cannot move (6 is own)
    b = two([0, 6, 14, H], [0, H, H, H])
    assert moves(b, 0, 6) == [(2, 14, 20, 4)]  # neither leaving nor clearing: capture


# -- three throws -------------------------------------------------------------------------------


def test_only_six_helps_when_no_throw_of_1_to_5_moves():
    assert only_six_helps(two([H] * 4, [H] * 4), 0, DEFAULT)
    assert only_six_helps(two([H, 41, 42, 43], [H] * 4), 0, DEFAULT)
    assert not only_six_helps(two([H, 40, 42, 43], [H] * 4), 0, DEFAULT)
    assert not only_six_helps(two([H, 38, 42, 43], [H] * 4), 0, DEFAULT)
    assert not only_six_helps(two([H, 40, 41, 43], [H] * 4), 0, DEFAULT)  # 41 + 1 = 42
    gnj = RutsmieterRules(goal_no_jump=True)
    assert not only_six_helps(two([H, 40, 42, 43], [H] * 4), 0, gnj)  # 40 + 1 jumps nothing
    for b in (two([H, 41, 42, 43], [H] * 4), two([H, H, 40, 42], [H] * 4),
              two([0, 41, 42, 43], [H] * 4)):
        for die in range(1, 7):
            moves(b, 0, die)  # the kernel agrees on these positions too
            moves(b, 0, die, gnj)


def _runs(record, player, skip):
    """The player's throws after the first ``skip`` throws, up to the next player."""
    out = []
    for t in record.log[skip:]:
        if t.player != player:
            break
        out.append(t.die)
    return out


def test_three_throws_at_the_start_of_a_game():
    seen = set()
    for i in range(200):
        rec = play_game(["first", "first"], RutsmieterRules(players=2), 3, i)
        first = _runs(rec, 0, 0)
        if 6 not in first:
            assert len(first) == 3  # all pieces in the house: up to three throws
            seen.add("three")
        else:
            six = first.index(6)
            assert six < 3
            seen.add("six")
    assert seen == {"three", "six"}


def test_three_throws_rule_is_checked_again_after_a_six():
    # player 0: 35 goes to 41 with a 6 (first picks it over leaving), then only a 6 helps
    rules = RutsmieterRules(players=2, must_leave_house=False)
    start = two([H, 35, 42, 43], [10, 11, 12, 13])
    found = 0
    for i in range(400):
        rec = play_game(["first", "first"], rules, 5, i, board=start)
        if rec.log[0].die != 6:
            assert len(_runs(rec, 0, 0)) == 1  # 35 can move: a single throw
            continue
        assert rec.log[0][2:] == (1, 41)
        after = _runs(rec, 0, 1)
        if 6 not in after:
            assert len(after) == 3
            found += 1
    assert found > 0


def test_after_every_six_the_same_player_throws_again_also_when_passing():
    for i in range(20):
        rec = play_game(["random"] * 3, RutsmieterRules(players=3), 11, i)
        log = rec.log
        for a, b in zip(log, log[1:]):
            if a.die == 6:
                assert b.player == a.player
    rules = RutsmieterRules(players=2)
    # a 6 with no move (37 + 6 = 43 is own) is passed, and thrown again
    blocked = two([37, 41, 42, 43], [H] * 4)
    # only a 6 helps: leaving captures player 1's piece on square 0, then throw again
    stuck = two([H, 41, 42, 43], [20, H, H, H])
    for board, first_move in ((blocked, (-1, -1)), (stuck, (0, 0))):
        for i in range(100):
            rec = play_game(["first", "first"], rules, 9, i, board=board)
            if rec.log[0].die == 6:
                assert rec.log[0][2:] == first_move and rec.log[1].player == 0
                break
        else:
            pytest.fail("no opening 6 in 100 games")


# -- places -----------------------------------------------------------------------------------------


def test_places_go_by_goal_pieces_then_progress_and_ties_share():
    b = Board((0, 1, 2, 3), [[40, 41, 42, 43], [40, 5, H, H], [10, 34, H, H], [41, 3, H, H]])
    # player 1: 1 in goal, progress 43; player 3: 1 in goal, progress 42; player 2: 0, 42
    assert rank_unfinished(b, [1, 2, 3], 2) == {1: 2, 3: 3, 2: 4}
    b.pieces[3] = [40, 5, H, H]  # now equal to player 1
    assert rank_unfinished(b, [1, 2, 3], 2) == {1: 2, 3: 2, 2: 4}


def test_game_records_are_consistent():
    for players in (2, 3, 4):
        for third in (False, True):
            rules = RutsmieterRules(players=players, play_to_third=third)
            for i in range(4):
                rec = play_game(["aggressive"] * players, rules, 2, i)
                assert rec.board.finished(rec.winner) and rec.places[rec.winner] == 1
                assert rec.throws == len(rec.log) == sum(s["throws"] for s in rec.stats)
                assert rec.turns == sum(s["turns"] for s in rec.stats)
                assert sum(s["captures"] for s in rec.stats) == sum(s["lost"] for s in rec.stats)
                if third:
                    assert len(rec.finish_order) == players - 1
                    assert sorted(rec.places) == list(range(1, players + 1))
                else:
                    rest = [p for p in range(players) if p != rec.winner]
                    assert {p: rec.places[p] for p in rest} == rank_unfinished(rec.board, rest, 2)


# -- bots -----------------------------------------------------------------------------------------


def test_exposure_counts_pieces_one_to_six_behind_and_a_waiting_house():
    b = Board((0, 1, 2, 3), [[12, H, H, H], [H] * 4, [H] * 4, [H] * 4])
    assert exposure(b, 0) == 0  # square 12: nobody behind, no start square
    b.pieces[1] = [0, H, H, H]  # player 1 on its start square 10: 2 behind
    assert exposure(b, 0) == 1
    b.pieces[0] = [10, H, H, H]  # on player 1's start square, player 1's house waits
    b.pieces[1] = [5, H, H, H]  # square 15 is ahead
    assert exposure(b, 0) == 1
    b.pieces[0] = [10, 12, 40, H]  # 12 is behind player 1's 15: safe; the goal lane too
    assert exposure(b, 0) == 1
    # a piece about to enter its goal lane is no threat past its own 39
    b = Board((0, 1), [[11, H, H, H], [37, 40, 41, 42]])  # 37 is square 7, 4 behind 11
    assert exposure(b, 0) == 0
    b.pieces[1] = [0, 40, 41, 42]  # square 10: its own walk reaches 11
    assert exposure(b, 0) == 1
