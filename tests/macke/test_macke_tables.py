"""The Macke unit and keep tables (``tables.macke``) agree with the brute-force
reference scorer (``reference.macke_scoring``) on every throw of 1..n dice,
for every variant, and with values checked by hand from the rule text."""

import itertools

import pytest

from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.reference import StateCodec
from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.scoring import best_keep, is_instant_win, keep_dice, legal_keeps, unit_dice, unit_points
from tutto_sim.macke.tables import build_macke_tables

RULE_SETS = [MackeRules.preset(v) for v in VARIANTS] + [
    MackeRules.preset("volle-lotte", six_of_kind="one-triple"),
]


def _ids(r):
    return f"{r.variant}-{r.six_of_kind}"


def _dice(counts):
    return [f + 1 for f in range(6) for _ in range(int(counts[f]))]


def _table_keeps(t, codec, ms):
    states = t.keep_states[t.keep_start[ms]:t.keep_start[ms + 1]]
    return {codec.keeps[s]: int(t.state_pts[s]) * 50 for s in states}


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids)
def test_keeps_match_brute_force_for_every_throw(rules):
    t = build_macke_tables(rules)
    codec = StateCodec(t)
    throws = build_tables(ScoringRules(6, rules.six_of_kind))
    for ms in range(throws.n_multisets):
        dice = _dice(throws.counts[ms])
        if len(dice) > rules.n_dice:  # more dice than the game has: never thrown
            assert t.keep_start[ms] == t.keep_start[ms + 1] and t.all_keep[ms] == -1
            continue
        mine = legal_keeps(dice, rules)
        assert _table_keeps(t, codec, ms) == mine, dice
        best = best_keep(dice, rules)
        if best is None:
            assert t.all_keep[ms] == -1, dice
        else:
            s = int(t.all_keep[ms])
            assert (int(t.state_dice[s]), int(t.state_pts[s]) * 50) == \
                (keep_dice(best[0], rules), best[1]), dice
        assert bool(t.win[ms]) == is_instant_win(dice, rules), dice


@pytest.mark.parametrize("rules", RULE_SETS, ids=_ids)
def test_state_tables(rules):
    t = build_macke_tables(rules)
    codec = StateCodec(t)
    pts, dice = unit_points(rules), unit_dice(rules)
    assert sorted(u.name for u in t.types) == sorted(pts)
    for u, ud, up in zip(t.types, t.unit_dice, t.unit_pts):
        assert (u.dice, u.points * 50, int(ud), int(up) * 50) == (dice[u.name], pts[u.name]) * 2
    S = len(t.state_dice)
    assert len(set(codec.keeps)) == S  # every state once
    for s, keep in enumerate(codec.keeps):
        assert int(t.state_dice[s]) == sum(dice[u] for u in keep) <= rules.n_dice
        assert int(t.state_pts[s]) * 50 == sum(pts[u] for u in keep)
        subs = list(t.sub_states[t.sub_start[s]:t.sub_start[s + 1]])
        assert subs[0] == s  # returning nothing comes first
        want = {tuple(sorted(c)) for r in range(len(keep) + 1)
                for c in itertools.combinations(keep, r)}
        assert sorted(codec.keeps[x] for x in subs) == sorted(want)
    assert codec.keeps[t.empty] == ()
    for a, b in itertools.product(range(S), repeat=2):
        joined = tuple(sorted(codec.keeps[a] + codec.keeps[b]))
        expect = codec.index.get(joined, -1)
        assert t.add[a, b] == expect
        assert (expect == -1) == (int(t.state_dice[a] + t.state_dice[b]) > rules.n_dice)


def _keep_pts(dice, rules):
    return {tuple(sorted(k)): p for k, p in legal_keeps(dice, rules).items()}


def test_hand_checked_values_standard():
    r = MackeRules()
    k = _keep_pts([1, 2, 3, 4, 5], r)
    assert k[("big straight",)] == 1000
    assert k[("5", "small straight")] == 550 and k[("1", "small straight")] == 600
    assert k[("1", "5")] == 150 and k[("1",)] == 100 and k[("5",)] == 50
    assert best_keep([1, 2, 3, 4, 5], r) == (("big straight",), 1000)
    assert best_keep([2, 3, 4, 5, 6], r) == (("big straight",), 1000)
    assert best_keep([2, 3, 4, 5, 5], r) == (("5", "small straight"), 550)
    assert best_keep([3, 4, 5, 6, 6], r) == (("small straight",), 500)
    # 2-3-4-6 is no straight, 2-2 no triple: a Macke
    assert legal_keeps([2, 2, 3, 4, 6], r) == {}
    assert legal_keeps([6, 6, 4, 4, 3], r) == {}
    assert best_keep([1, 1, 1, 1, 5], r) == (("1", "111", "5"), 1150)
    assert _keep_pts([1, 1, 1, 1], r)[("1", "1", "1", "1")] == 400  # four singles: legal
    assert best_keep([2, 2, 2, 2, 3], r) == (("222",), 200)
    assert best_keep([1, 1, 1, 1, 1], r) == (("1", "1", "111"), 1200)
    assert best_keep([6, 6, 6, 5, 5], r) == (("5", "5", "666"), 700)
    # a straight only within one throw: a single 4 never scores
    assert legal_keeps([4], r) == {}


def test_hand_checked_values_variants():
    jack = MackeRules.preset("jackpot")
    assert _keep_pts([1] * 5, jack)[("five 1s",)] == 10000
    assert _keep_pts([5] * 5, jack)[("five 5s",)] == 5000
    assert best_keep([1] * 5, jack) == (("five 1s",), 10000)
    # the five dice never also count at their normal value
    assert ("1", "1", "111") not in _keep_pts([1] * 5, jack)
    assert _keep_pts([1] * 4, jack)[("1", "111")] == 1100  # four 1s: as usual
    win = MackeRules.preset("instant-win")
    assert is_instant_win([1] * 5, win) and not is_instant_win([1] * 5, MackeRules())
    assert not is_instant_win([1] * 4, win)
    of = MackeRules.preset("ones-and-fives")
    assert legal_keeps([2, 2, 2], of) == {}
    assert legal_keeps([2, 3, 4, 6, 6], of) == {}
    assert best_keep([1, 2, 3, 4, 5], of) == (("1", "5"), 150)  # no straights
    assert best_keep([5, 5, 5, 1, 3], of) == (("1", "555"), 600)
    assert best_keep([1, 1, 1, 6, 6], of) == (("111",), 1000)
    vl = MackeRules.preset("volle-lotte")
    assert best_keep([1, 2, 3, 4, 5, 6], vl) == (("big straight",), 2000)
    # five in a row is no straight with 6 dice: a small one plus a single
    assert best_keep([1, 2, 3, 4, 5, 2], vl) == (("1", "small straight"), 600)
    assert best_keep([4, 4, 4, 4, 4, 4], vl) == (("444", "444"), 800)
    one = MackeRules.preset("volle-lotte", six_of_kind="one-triple")
    assert best_keep([4, 4, 4, 4, 4, 4], one) == (("444",), 400)
    assert best_keep([1] * 6, one) == (("1", "1", "1", "111"), 1300)


def test_macke_on_the_first_throw_counted_by_hand():
    # Standard: every straight holds a 1 or a 5, so a Macke is 5 dice from
    # 2, 3, 4, 6 with no face three times: 4**5 - 4 * (C(5,3)*3**2 + C(5,4)*3 + 1)
    # = 1024 - 4 * 106 = 600 of 6**5 ordered throws. Ones-and-fives: no 1 and
    # no 5, 4**5 = 1024.
    for rules, hand in ((MackeRules(), 600), (MackeRules.preset("ones-and-fives"), 1024)):
        brute = sum(1 for d in itertools.product(range(1, 7), repeat=5)
                    if not legal_keeps(d, rules))
        t = build_macke_tables(rules)
        throws = build_tables(ScoringRules(6, rules.six_of_kind))
        table = int(sum(throws.ways[ms] for ms in throws.ids(5) if t.all_keep[ms] < 0))
        assert brute == table == hand
