"""The rule option ``deck``: ``real`` (the 56-card deck without replacement)
and ``iid`` (every card drawn independently at the deck frequencies).

The expected frequencies come from the deck as docs/rules.md §4.1 lists it
(10 Stop; 5 each of Feuerwerk, Bonus 200 … 600, ×2, Plus/Minus and Straße;
1 Kleeblatt), written out here, not taken from the code. The reference game and the numba kernel
must play identical games under ``iid`` for every kind of rules and bots,
and ``real`` must stay what it was.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli as run
from numba import njit
from scipy.stats import chi2

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.rng import Stream
from tutto_sim.core.streams import stream_start
from tutto_sim.core.tournament import kernel_batch, make_lineups, reference_batch, run_tournament
from tutto_sim.tutto.game import Deck, GameConfig
from tutto_sim.tutto.game_kernel import SHARE, TuttoGameKernel, _draw_card
from tutto_sim.tutto.rules import TuttoRules

ROOT = Path(__file__).resolve().parents[2]
# docs/rules.md §4.1, in card order: Stop, Feuerwerk, Bonus 200..600, x2,
# Plus/Minus, Straße, Kleeblatt.
DECK_COUNTS = np.array([10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1])
DRAWS = 1_200_000


@njit
def _kernel_draws(seed, index, deck0, k, independent):
    """k cards drawn by the game kernel's own ``_draw_card`` on stream (seed, index)."""
    st = np.empty(1, dtype=np.uint64)
    st[0] = stream_start(seed, index)
    deck = deck0.copy()
    pos = np.zeros(1, dtype=np.int64)
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = _draw_card(st, deck, pos, independent)
    return out


def _deck0():
    return np.repeat(np.arange(11, dtype=np.int64), DECK_COUNTS)


@pytest.mark.parametrize("independent", [True, False], ids=["iid", "real"])
def test_kernel_draws_the_reference_cards(independent):
    kernel = _kernel_draws(np.uint64(17), np.uint64(4), _deck0(), 3000, independent)
    deck = Deck(Stream(17, 4), independent)
    assert kernel.tolist() == [int(deck.draw()) for _ in range(3000)]


def test_iid_cards_come_at_the_deck_frequencies():
    """Chi-square goodness of fit (10 degrees of freedom) at p = 1e-4 on 1.2 million
    seeded draws, and each card's share within 4.5 standard errors of count/56."""
    cards = _kernel_draws(np.uint64(2026), np.uint64(0), _deck0(), DRAWS, True)
    observed = np.bincount(cards, minlength=11)
    p = DECK_COUNTS / 56
    expected = DRAWS * p
    stat = float(((observed - expected) ** 2 / expected).sum())
    assert chi2.sf(stat, df=10) > 1e-4, (observed, expected)
    se = np.sqrt(DRAWS * p * (1 - p))
    assert (np.abs(observed - expected) < 4.5 * se).all()
    # independent: a Stop right after a Stop is as likely as any Stop
    after_stop = cards[1:][cards[:-1] == 0]
    share = (after_stop == 0).mean()
    assert abs(share - 10 / 56) < 4.5 * np.sqrt(10 / 56 * 46 / 56 / len(after_stop))


def test_real_deck_deals_every_56_cards_once():
    cards = _kernel_draws(np.uint64(5), np.uint64(1), _deck0(), 56 * 4, False)
    for lap in cards.reshape(4, 56):
        assert np.bincount(lap, minlength=11).tolist() == DECK_COUNTS.tolist()


IID_CASES = [
    (TuttoRules(deck="iid"), "optimal,cautious,threshold:400:900:triples-ones,endgame", 3, 120),
    (TuttoRules(deck="iid", plusminus_deduction="tutto", game_end="immediate",
                target=2000), "optimal,endgame,threshold:250:1500:fewest-dice", 2, 150),
    (TuttoRules(deck="iid", six_of_kind="one-triple", plusminus_chain="flat", target=1000),
     "endgame,reckless,optimal,cautious", 4, 100),
]


@pytest.mark.parametrize("rules, specs, players, games", IID_CASES,
                         ids=["default-3p", "tutto-immediate-2p", "one-triple-flat-4p"])
def test_reference_and_kernel_play_the_same_iid_games(rules, specs, players, games):
    bots = parse_bots(specs, rules)
    lineups = make_lineups(len(bots), players)
    config = GameConfig(rules)
    k = kernel_batch(TuttoGameKernel(config, [b.table() for b in bots]), 11, 0, games, lineups)
    r = reference_batch(bots, config, 11, 0, games, lineups)
    for name in ("share", "score", "banked", "banked_sq", "turns", "end"):
        assert np.array_equal(getattr(k, name), getattr(r, name)), name
    assert (k.share.sum(axis=1) == SHARE).all()
    # the option changes the games: the same seeds with the real deck differ
    real = kernel_batch(TuttoGameKernel(GameConfig(replace(rules, deck="real")),
                                        [b.table() for b in bots]), 11, 0, games, lineups)
    assert not np.array_equal(real.score, k.score)


def test_default_rules_keep_their_fingerprint():
    """``deck`` is left out of the dict form at its default, so the shipped
    policy file (written before the option) still matches its rules hash."""
    d = json.loads((ROOT / "tutto_sim" / "data" / "policies" / "tutto-default.json").read_text())
    assert TuttoRules().digest() == d["rules_sha256"]
    assert TuttoRules.from_dict(d["rules"]) == TuttoRules()
    iid = TuttoRules(deck="iid")
    assert iid.to_dict()["deck"] == "iid" and TuttoRules.from_dict(iid.to_dict()) == iid
    assert iid.digest() != TuttoRules().digest()
    with pytest.raises(ValueError, match="deck must be one of real, iid"):
        TuttoRules(deck="shuffled")


def test_cli_tournament_with_iid_deck(capsys, tmp_path):
    args = ("tournament", "--game", "tutto", "--bots", "optimal,cautious", "--target", "1000",
            "--games", "4000", "--seed", "3", "--json", "--out-dir", str(tmp_path))
    code, out, err = run(capsys, *args, "--deck", "iid")
    assert code == 0, err
    d = json.loads(out)
    assert d["rules"]["deck"] == "iid"
    rules = TuttoRules(target=1000, deck="iid")
    api = run_tournament(parse_bots("optimal,cautious", rules), 2, 4000, 3, GameConfig(rules))
    assert d["seat_win_rates"] == [e.mean for e in api.seat_rates()]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    real = json.loads(out)
    assert "deck" not in real["rules"] and real["seat_win_rates"] != d["seat_win_rates"]


@pytest.mark.parametrize("args, needle", [
    (("--deck", "shuffled"), "--deck must be one of real, iid"),
    (("--game", "macke", "--deck", "iid"), "--deck does not apply to --game macke"),
])
def test_bad_deck_is_one_line(capsys, tmp_path, args, needle):
    code, out, err = run(capsys, "tournament", "--games", "10", *args, "--out-dir", str(tmp_path))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
