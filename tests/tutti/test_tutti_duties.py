"""Hand-made Tutti positions: the deal, every duty of play, the trick winner,
the draw, the trump exchange and every fine point of the declarations."""

import pytest

from tutto_sim.tutti.cards import HORSE, KING, SUITS, bit, card, code, deck, mask, parse, suit
from tutto_sim.tutti.reference import (
    DECLARE, OVER, PLAY, Declaration, Declare, Exchange, Pass, Play, State, Tute, apply, deal, deal_cards,
    hand_winner, legal_actions, legal_declarations, returns, scores, trick_winner,
)
from tutto_sim.tutti.rules import TuttiRules

R2 = TuttiRules()
R2M = TuttiRules(must_answer_trump=True)
R3 = TuttiRules(players=3)
R4 = TuttiRules(players=4)
R4P = TuttiRules(players=4, pairs=True)
D, C, S, B = range(4)


def cs(text):
    return [parse(x) for x in text.split()]


def position(rules, hands, trump="D", stock="", leader=0, trick="", won=None):
    """A position: ``hands`` as code strings per seat, ``trick`` the codes
    played so far from ``leader`` on, ``stock`` the 2-player stock left (face-up card last)."""
    n = rules.players
    t = SUITS.index(trump)
    stock_cards = cs(stock)
    shown = stock_cards[-1] if stock_cards else card(t, 8)
    state = State(rules=rules, dealer=(leader - 1) % n, first_leader=leader,
                  hands=[mask(cs(h)) for h in hands], stock=stock_cards, drawn=0,
                  trump_suit=t, shown=shown, leader=leader, to_move=leader)
    for k, c in enumerate(cs(trick)):
        state.trick.append(((leader + k) % n, c))
    state.to_move = (leader + len(state.trick)) % n
    if won:
        state.won = list(won)
    return state


def plays(state):
    return " ".join(code(a.card) for a in legal_actions(state, state.to_move) if a.kind == "play")


def kinds(state, seat=None):
    return [a for a in legal_actions(state, state.to_move if seat is None else seat)
            if a.kind != "play"]


# -- the deal ------------------------------------------------------------------------------


def test_two_player_deal_blocks_trump_card_and_stock():
    state = deal_cards(R2, list(range(40)), leader=1)
    assert state.dealer == 0 and state.to_move == state.leader == 1
    assert state.hands[1] == mask(range(8)) and state.hands[0] == mask(range(8, 16))
    assert state.shown == 16 and state.trump_suit == suit(16) == C  # the 17th card
    assert state.stock == list(range(17, 40)) + [16] and state.stock_size == 24
    assert state.trump_card == 16


def test_four_and_three_player_deals_show_the_dealers_last_card():
    state = deal_cards(R4, list(range(40)), leader=2)
    assert state.dealer == 1
    assert [state.hands[p] for p in (2, 3, 0, 1)] == [mask(range(k, k + 10)) for k in (0, 10, 20, 30)]
    assert state.shown == 39 and state.hands[1] >> 39 & 1 and state.trump_suit == B
    assert state.known[1] == bit(39) and state.trump_card == 39 and state.stock == []
    three = deck(3)
    state = deal_cards(R3, three, leader=0)
    assert state.dealer == 2 and state.shown == three[-1] and state.hands[2] >> three[-1] & 1
    assert [h.bit_count() for h in state.hands] == [12, 12, 12]
    with pytest.raises(ValueError, match="each of the 36 cards once"):
        deal_cards(R3, list(range(40)))


def test_seeded_deals_are_shuffles_and_repeat():
    for rules in (R2, R3, R4):
        a, b = deal(rules, 5, 3), deal(rules, 5, 3)
        assert a.hands == b.hands and a.stock == b.stock
        everything = sum(a.hands) | mask(a.stock)
        assert everything == mask(deck(rules.players))
        assert deal(rules, 5, 4).hands != a.hands


# -- duties of play ------------------------------------------------------------------------


def test_must_follow_and_overtake():
    s = position(R4, ["", "AC 7C 5C KS AD", "", ""], trick="HC")
    assert plays(s) == "AC"
    s = position(R4, ["", "7C 5C KS AD", "", ""], trick="3C")
    assert plays(s) == "7C 5C"  # cannot overtake: any card of the suit


def test_trump_on_the_table_frees_the_overtake():
    s = position(R4, ["", "", "AC 7C AD", ""], trick="HC 2D")
    assert plays(s) == "AC 7C"


def test_trump_led_must_be_overtaken_if_possible():
    assert plays(position(R4, ["", "AD 5D KC", "", ""], trick="HD")) == "AD"
    assert plays(position(R4, ["", "5D 4D KC", "", ""], trick="HD")) == "5D 4D"


def test_void_must_trump_higher():
    assert plays(position(R4, ["", "5D AS", "", ""], trick="AC")) == "5D"
    assert plays(position(R4, ["", "", "KD 5D AS", ""], trick="AC 7D")) == "KD"


def test_void_with_only_lower_trumps_plays_any_card():
    assert plays(position(R4, ["", "", "5D 4D AS", ""], trick="AC KD")) == "5D 4D AS"
    assert plays(position(R3, ["", "AS 4B", ""], trick="AC")) == "AS 4B"


def test_pairs_no_exception_when_the_partner_wins():
    assert plays(position(R4P, ["", "", "KC 7C", ""], trick="HC 5C")) == "KC"
    assert plays(position(R4P, ["", "", "5D AS", ""], trick="HC 5C")) == "5D"


def test_two_players_with_stock_any_card():
    s = position(R2, ["", "7C 5D KS"], stock="4S 6D", trick="AC")
    assert plays(s) == "5D 7C KS"
    s = position(R2, ["", "4D KS 7C"], stock="4S 6D", trick="3D")
    assert plays(s) == "4D 7C KS"


def test_must_answer_trump_only_when_a_trump_is_led():
    assert plays(position(R2M, ["", "4D KS 7C"], stock="4S 6D", trick="3D")) == "4D"
    assert plays(position(R2M, ["", "4D KS 7C"], stock="4S 6D", trick="AC")) == "4D 7C KS"
    assert plays(position(R2M, ["", "KS 7C"], stock="4S 6D", trick="3D")) == "7C KS"


def test_two_players_duties_once_the_stock_is_empty():
    assert plays(position(R2, ["", "AC 7C 5D"], trick="HC")) == "AC"
    assert plays(position(R2, ["", "5D KS"], trick="HC")) == "5D"
    assert plays(position(R2M, ["", "AC 7C 5D"], trick="HC")) == "AC"


def test_trick_winner():
    t = [(0, parse("7C")), (1, parse("AS")), (2, parse("6C"))]
    assert trick_winner(t, D) == 0
    t = [(0, parse("7C")), (1, parse("2D")), (2, parse("AC")), (3, parse("4D"))]
    assert trick_winner(t, D) == 3
    assert trick_winner([(1, parse("3C")), (0, parse("AC"))], S) == 0


# -- the draw, the last trick, scoring --------------------------------------------------------


def test_winner_draws_first_and_the_face_up_card_is_drawn_last():
    s = position(R2, ["AC 5S", "2C 4B"], stock="4S 5B 7C 6D")
    apply(s, Play(parse("AC")))
    apply(s, Play(parse("2C")))
    assert s.tricks[-1].winner == 0 and s.card_points[0] == 11
    assert s.just_drawn == [parse("4S"), parse("5B")] and s.stock_size == 2
    assert s.leader == s.to_move == 0 and s.moment == 0
    apply(s, Play(parse("5S")))
    apply(s, Play(parse("4B")))  # seat 0 wins (a spade led, a baton does not follow)
    assert s.just_drawn == [parse("7C"), parse("6D")] and s.stock_size == 0
    assert s.known[1] == bit(parse("6D")) and s.trump_card == -1


def test_last_trick_ten_and_hand_end():
    s = position(R3, ["AC", "2C", "KC"], trump="B")
    s.hands[1] = mask(cs("7C"))
    for c in ("AC", "7C", "KC"):
        apply(s, Play(parse(c)))
    assert s.phase == OVER and s.last_trick == 0
    assert s.card_points == [25, 0, 0] and scores(s) == [25, 0, 0]
    assert hand_winner(s) == 0 and returns(s) == [1.0, 0.0, 0.0]
    assert legal_actions(s, 0) == []


def test_tie_wins_nothing():
    s = position(R2, ["", ""])
    s.card_points = [65, 65]
    s.phase = OVER
    assert hand_winner(s) == -1 and returns(s) == [0.0, 0.0]


# -- the trump exchange -------------------------------------------------------------------------


def test_exchange_seven_for_a_high_card_then_two_for_the_seven():
    s = position(R2, ["7D 2D AC", "4C"], stock="4S 5B KD", won=(1, 0))
    assert kinds(s) == [Exchange(parse("7D"))]
    apply(s, Exchange(parse("7D")))
    assert s.hands[0] == mask(cs("KD 2D AC")) and s.stock[-1] == parse("7D")
    assert s.trump_card == parse("7D") and s.known[0] == bit(parse("KD"))
    assert kinds(s) == [Exchange(parse("2D"))]  # twice in one turn
    apply(s, Exchange(parse("2D")))
    assert s.trump_card == parse("2D") and kinds(s) == []
    assert [(e.given, e.taken) for e in s.exchanges] == [(parse("7D"), parse("KD")),
                                                        (parse("2D"), parse("7D"))]


@pytest.mark.parametrize("hand, face, won, expect", [
    ("7D AC", "KD", (0, 1), []),  # no trick won yet
    ("7D AC", "5D", (1, 0), []),  # the 7 takes only A, 3, K, H, J
    ("2D AC", "5D", (1, 0), ["2D"]),
    ("2D AC", "7D", (1, 0), ["2D"]),
    ("2D AC", "JD", (1, 0), []),  # the 2 takes only 7, 6, 5, 4
    ("7D AC", "JD", (1, 0), ["7D"]),
    ("7D AC", "2D", (1, 0), []),  # the face-up 2 is taken by nothing
])
def test_exchange_conditions(hand, face, won, expect):
    s = position(R2, [hand, "4C"], stock="4S 5B " + face, won=won)
    assert kinds(s) == [Exchange(parse(x)) for x in expect]


def test_exchange_when_following_not_without_stock_not_with_more_players():
    s = position(R2, ["4C", "7D AC"], stock="4S 5B KD", trick="4C", won=(0, 1))
    assert kinds(s) == [Exchange(parse("7D"))]
    s = position(R2, ["7D AC", "4C"], won=(1, 0))
    assert kinds(s) == []
    s = position(R4, ["7D AC", "", "", ""], won=(1, 0, 0, 0))
    assert kinds(s) == []


def test_a_king_taken_by_exchange_may_be_declared_at_once():
    s = position(R2, ["7D HD AC", "4C"], stock="4S 5B KD", won=(1, 0))
    s.moment = 0
    assert kinds(s) == [Exchange(parse("7D"))]
    apply(s, Exchange(parse("7D")))
    assert kinds(s) == [Declare(D)]
    apply(s, Declare(D))
    assert scores(s) == [40, 0] and kinds(s) == []


# -- declarations ------------------------------------------------------------------------------


def _won_first_trick(rules, hands):
    """Seat 0 leads AC, the others follow with cups; seat 0 wins (trump denari)."""
    s = position(rules, hands)
    assert not [a for a in legal_actions(s, 0) if a.kind == "declare"]  # no trick won yet
    for _ in range(rules.players):
        apply(s, [a for a in legal_actions(s, s.to_move) if a.kind == "play"][0])
    assert s.tricks[-1].winner == 0
    return s


def test_declare_after_winning_one_per_trick_and_later():
    s = _won_first_trick(R4, ["AC KB HB KS HS 4S", "7C 4B 5B", "6C 6B 7B", "5C 6S 7S"])
    assert kinds(s) == [Declare(S), Declare(B)]
    apply(s, Declare(B))
    assert scores(s) == [31, 0, 0, 0] and s.declarations[0].points == 20
    assert kinds(s) == []  # one per trick won
    apply(s, Play(parse("4S")))
    assert legal_declarations(s, 0) == []  # the moment ended with the card
    for _ in range(3):
        apply(s, [a for a in legal_actions(s, s.to_move) if a.kind == "play"][0])
    assert s.tricks[-1].winner == 3  # 7S beats 4S
    assert legal_declarations(s, 0) == [] and legal_declarations(s, 3) == []


def test_undeclared_pair_stays_declarable():
    s = position(R4, ["KB HB KS HS AC", "", "", ""])
    s.moment = 0
    s.declared[B] = 0
    assert legal_declarations(s, 0) == [Declare(S)]
    assert legal_declarations(s, 1) == []  # not the winning side


def test_forty_before_twenty_and_forty_after_twenty():
    s = position(R4, ["KD HD KC HC", "", "", ""])
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(D)]
    apply(s, Declare(D))
    assert scores(s)[0] == 40
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(C)]
    s = position(R4, ["KD HD KC HC", "", "", ""])
    s.declared[C] = 0
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(D)]


def test_two_players_only_while_stock_and_not_with_the_card_just_drawn():
    s = position(R2, ["KD HD KC HC", "4C"], stock="4S 6B")
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(D)]
    s.just_drawn[0] = parse("KD")  # the 40 is blocked, so a 20 is allowed
    assert legal_declarations(s, 0) == [Declare(C)]
    s.just_drawn[0] = parse("7S")
    assert legal_declarations(s, 0) == [Declare(D)]
    s.just_drawn[1] = parse("KD")  # only the declarer's own draw counts
    assert legal_declarations(s, 0) == [Declare(D)]
    s = position(R2, ["KD HD KC HC", "4C"])  # stock empty after the draw
    s.moment = 0
    assert legal_declarations(s, 0) == []


def test_after_the_last_draw_no_declaration():
    s = position(R2, ["AC KS HS", "2C 4B"], stock="4S 6B")
    apply(s, Play(parse("AC")))
    apply(s, Play(parse("2C")))
    assert s.stock_size == 0 and legal_declarations(s, 0) == []


def test_pairs_partner_is_asked_then_the_winner():
    hands = ["AC KB HB", "7C 4S 5S", "6C KS HS", "5C 6S 7S"]
    s = _won_first_trick(R4P, hands)
    assert s.phase == DECLARE and s.to_move == 2
    assert legal_actions(s, 2) == [Declare(S), Pass()] and legal_actions(s, 0) == []
    apply(s, Pass())
    assert s.phase == PLAY and s.to_move == 0 and kinds(s) == [Declare(B)]
    s = _won_first_trick(R4P, hands)
    apply(s, Declare(S))
    assert s.to_move == 0 and kinds(s) == [] and scores(s) == [31, 0]
    s = _won_first_trick(R4P, ["AC KB HB", "7C 4S 5S", "6C 4B 5B", "5C 6S 7S"])
    assert s.phase == PLAY and s.to_move == 0  # a partner with nothing is not asked


def test_tute_needs_an_earlier_declaration_and_ends_the_hand():
    s = position(R4, ["KD KC KS KB HC", "", "", ""])
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(C)]  # no Tute without an earlier declaration
    s = position(R4, ["KD KC KS KB HC HB", "", "", ""])
    s.moment = 0
    assert legal_declarations(s, 0) == [Declare(C), Declare(B)]
    apply(s, Declare(C))
    s.moment = 0  # a later trick won
    assert legal_declarations(s, 0) == [Tute(KING), Declare(B)]
    apply(s, Tute(KING))
    assert s.phase == OVER and s.tute == 0 and hand_winner(s) == 0
    assert returns(s) == [1.0, 0.0, 0.0, 0.0]


def test_tute_not_by_another_player_and_not_when_off():
    s = position(R4P, ["KD KC KS KB", "", "HC HB", ""])
    s.moment = 0
    s.declarations.append(Declaration(2, C, 20, 0))  # the partner's declaration
    assert legal_declarations(s, 0) == []
    s.declarations.append(Declaration(0, B, 20, 0))
    assert legal_declarations(s, 0) == [Tute(KING)]
    off = position(TuttiRules(players=4, allow_tute=False), ["KD KC KS KB", "", "", ""])
    off.moment = 0
    off.declarations.append(Declaration(0, B, 20, 0))
    assert legal_declarations(off, 0) == []


def test_tute_blocked_by_the_card_just_drawn():
    s = position(R2, ["HD HC HS HB 4C", "4S"], stock="4S 6B")
    s.moment = 0
    s.declarations.append(Declaration(0, C, 20, 0))
    assert legal_declarations(s, 0) == [Tute(HORSE)]
    s.just_drawn[0] = parse("HS")
    assert legal_declarations(s, 0) == []


def test_illegal_action_is_refused():
    s = position(R4, ["AC", "7C", "6C", "5C"])
    with pytest.raises(ValueError, match="illegal Tutti action"):
        apply(s, Play(parse("7C")))
    with pytest.raises(ValueError, match="illegal Tutti action"):
        apply(s, Declare(C))
