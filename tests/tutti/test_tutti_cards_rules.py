"""Tutti's deck and card codes, and its rules object."""

import pytest

from tutto_sim.tutti.cards import (
    ALL_CARDS, DECK_POINTS, POINTS, SUIT_MASK, card, cards_of, code, codes, deck, mask, name,
    parse, rank, suit,
)
from tutto_sim.tutti.rules import TuttiRules


def test_deck_sizes_and_points():
    assert len(deck(2)) == len(deck(4)) == 40 and len(deck(3)) == 36
    for n in (2, 3, 4):
        assert sum(POINTS[c] for c in deck(n)) == DECK_POINTS == 120
    assert all(rank(c) != 9 for c in deck(3))
    for s in range(4):
        assert sum(POINTS[c] for c in cards_of(SUIT_MASK[s])) == 30
    assert [POINTS[card(0, r)] for r in range(10)] == [11, 10, 4, 3, 2, 0, 0, 0, 0, 0]
    assert mask(range(40)) == ALL_CARDS


def test_codes_round_trip():
    assert [code(c) for c in range(10)] == ["AD", "3D", "KD", "HD", "JD", "7D", "6D", "5D", "4D", "2D"]
    for c in range(40):
        assert parse(code(c)) == c and parse(code(c).lower()) == c
    assert (suit(parse("HB")), rank(parse("HB"))) == (3, 3)
    assert name(parse("3C")) == "Three of coppe"
    assert codes(mask([parse("KS"), parse("AD")])) == "AD KS"


@pytest.mark.parametrize("bad", ["", "A", "1D", "AX", "ADX", "10D"])
def test_bad_codes_are_one_line_errors(bad):
    with pytest.raises(ValueError) as e:
        parse(bad)
    msg = str(e.value)
    assert "\n" not in msg and "AD" in msg and "bastoni" in msg


def test_defaults():
    r = TuttiRules()
    assert (r.players, r.pairs, r.must_answer_trump, r.allow_tute, r.tute_wins, r.hands) == \
        (2, False, False, True, "match", 1)
    assert r.sides == 2 and r.hand_size == 8
    assert TuttiRules(players=3).hand_size == 12 and TuttiRules(players=4).hand_size == 10
    assert TuttiRules(players=4).sides == 4 and TuttiRules(players=4, pairs=True).sides == 2
    assert [TuttiRules(players=4, pairs=True).side(p) for p in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("kwargs, words", [
    ({"players": 5}, "players must be one of 2, 3, 4"),
    ({"players": True}, "players must be one of 2, 3, 4"),
    ({"pairs": True}, "pairs needs 4 players, not 2"),
    ({"players": 3, "pairs": True}, "pairs needs 4 players, not 3"),
    ({"pairs": 1, "players": 4}, "pairs must be true or false"),
    ({"must_answer_trump": "yes"}, "must_answer_trump must be true or false"),
    ({"allow_tute": None}, "allow_tute must be true or false"),
    ({"tute_wins": "game"}, "tute_wins must be one of match, hand"),
    ({"hands": 0}, "hands must be one of 1, 2, 3, 4, 5"),
    ({"hands": 6}, "hands must be one of 1, 2, 3, 4, 5"),
])
def test_bad_options_are_one_line_errors(kwargs, words):
    with pytest.raises(ValueError) as e:
        TuttiRules(**kwargs)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_dict_round_trip_and_digest():
    r = TuttiRules(players=4, pairs=True, must_answer_trump=True, allow_tute=False,
                   tute_wins="hand", hands=3)
    d = r.to_dict()
    assert d["game"] == "tutti"
    assert TuttiRules.from_dict(d) == r
    assert r.digest() == TuttiRules.from_dict(d).digest() != TuttiRules().digest()
    with pytest.raises(ValueError, match="not a Tutti rules object"):
        TuttiRules.from_dict({"game": "macke"})
    with pytest.raises(ValueError, match="unknown Tutti rule option"):
        TuttiRules.from_dict({"game": "tutti", "stock": 3})
    digests = {TuttiRules(must_answer_trump=m, allow_tute=a, tute_wins=t, hands=h).digest()
               for m in (False, True) for a in (False, True) for t in ("match", "hand")
               for h in (1, 5)}
    assert len(digests) == 16
