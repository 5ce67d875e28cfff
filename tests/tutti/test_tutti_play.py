"""``tutto-sim play --game tutti``: a human against bots, driven by scripted
input. The human's answers (numbers, card codes, ``x``, ``40``/``20``) are the
actions of the match: the same match as a reference bot making the same
choices on the same seed. The words are checked on hand-made positions, the
advice against pimc's own figures, and bad options are one line."""

import io
import random
import re

import pytest
from conftest import run_cli

from tutto_sim.core.bots import parse_bots
from tutto_sim.tutti.cards import code, parse
from tutto_sim.tutti.human import (
    HumanPlayer,
    Narrator,
    card_words,
    hand_lines,
)
from tutto_sim.tutti.pimc import DEFAULT_SAMPLES, PimcBot, choose
from tutto_sim.tutti.reference import Play, apply, deal_cards, observe, play_match
from tutto_sim.tutti.rules import TuttiRules


def play(capsys, monkeypatch, text, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "play", "--game", "tutti", *args)


class Script:
    """A reference bot that chooses as a player at the terminal might, and
    writes down what he would type: the exchange (``x``) and a declaration
    (``40``/``20``, or its number when two 20s fit) whenever offered, else a
    card drawn by a seeded generator, typed as its code or as its number."""

    name = "script"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.answers: list[str] = []
        self.seen: list = []  # the observations of the choices asked

    def act(self, obs):
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        self.seen.append(obs)
        exchange = [a for a in legal if a.kind == "exchange"]
        declares = [a for a in legal if a.kind == "declare"]
        if exchange:
            self.answers.append("x")
            return exchange[0]
        if declares:
            a = declares[0]
            points = 40 if a.suit == obs.trump_suit else 20
            same = [d for d in declares if (d.suit == obs.trump_suit) == (points == 40)]
            self.answers.append(str(points) if len(same) == 1 else str(legal.index(a) + 1))
            return a
        a = self.rng.choice(legal)
        by_code = a.kind == "play" and self.rng.random() < 0.5
        self.answers.append(code(a.card).lower() if by_code else str(legal.index(a) + 1))
        return a


class First:
    """The first legal action (what "1" at every choice picks)."""

    name = "first"

    def act(self, obs):
        return obs.legal[0]


PLAYED = re.compile(r"^(you|player (\d) \(.*?\)) (?:lead|leads|play|plays) the .+ \((\w\w)\)$",
                    re.M)


def played(out: str) -> list[tuple[int, str]]:
    """The cards narrated, in order: (seat, code), the human at seat 0."""
    return [(0 if who == "you" else int(seat), c) for who, seat, c in PLAYED.findall(out)]


def record_plays(rec) -> list[tuple[int, str]]:
    return [(s, code(a.card)) for h in rec.hands for s, a in h.actions if a.kind == "play"]


def test_the_answers_are_the_actions_of_the_match(capsys, monkeypatch):
    """Codes, numbers, x and 40/20 typed as the script bot chose them, after an
    unknown answer, a card not held and a request for advice: the match is the
    reference match of that bot, action for action, with its exchanges and
    declarations, over three hands (first to 2)."""
    rules = TuttiRules(hands=2)
    script = Script(60)
    rec = play_match([script, *parse_bots("heuristic", rules)], rules, 60, 0)
    mine = [a.kind for h in rec.hands for s, a in h.actions if s == 0]
    assert mine.count("exchange") == 2 and mine.count("declare") == 3 and len(rec.hands) == 3
    assert {"x", "40", "20"} <= set(script.answers) and any(a.isalpha() is False and len(a) == 2
                                                              and a[1] in "dcsb"
                                                              for a in script.answers)
    first = script.seen[0]
    not_held = next(c for c in range(40) if not first.hand >> c & 1)
    text = "zz\n" + code(not_held) + "\n?\n" + "\n".join(script.answers) + "\n"
    code_, out, err = play(capsys, monkeypatch, text, "--bots", "heuristic", "--seed", "60",
                           "--hands", "2")
    assert code_ == 0, err
    assert out.startswith("Tutti, 2 players: seat 0 you, seat 1 heuristic; seed 60 "
                          "(replay: --seed 60)\n")
    assert played(out) == record_plays(rec)
    assert out.count("you exchange the ") == 2
    assert len(re.findall(r"^you declare (20|40) in ", out, re.M)) == 3
    assert out.count("your turn: ") == len(script.seen)
    assert out.count("please answer 1-") == 1
    assert f"you do not hold {card_words(not_held)}" in out
    # each hand's points per side, and the match
    ends = re.findall(r"^hand (\d) over: you (\d+) .*; player 1 \(heuristic\) (\d+) ", out, re.M)
    assert [(int(a), int(b)) for _, a, b in ends] == [h.scores for h in rec.hands]
    wins = [sum(h.winner == s for h in rec.hands) for s in (0, 1)]
    assert wins[rec.winner] == 2 and f"hands won: you {wins[0]}, player 1 (heuristic) {wins[1]}" in out
    winner = "you win" if rec.winner == 0 else "player 1 (heuristic) wins"
    assert f"match over after 3 hands: {winner} the match" in out
    assert out.rstrip().endswith("you win!") == (rec.winner == 0)

    # the advice at the first choice: pimc's averages for that observation
    block = out[out.index("advice: "):].splitlines()
    est = PimcBot(DEFAULT_SAMPLES).explain(first)  # the advice is the default pimc's
    assert f"pimc deals the cards you cannot see {DEFAULT_SAMPLES} times" in out
    lines = block[1:1 + len(first.legal)]
    for i, (a, line) in enumerate(zip(first.legal, lines), 1):
        m = re.match(r"^ +(\d+)\) .+  value +([-+][\d.]+)  margin +([-+][\d.]+)  won +(\d+)%",
                     line)
        assert int(m.group(1)) == i
        assert float(m.group(2)) == pytest.approx(est[a].value, abs=0.051)
        assert float(m.group(3)) == pytest.approx(est[a].margin, abs=0.051)
        assert int(m.group(4)) == round(100 * est[a].win)
        assert line.endswith("<- pimc's choice") == (a == choose(est))


def test_ones_in_pairs_are_the_first_legal_actions(capsys, monkeypatch):
    """"1" at every choice in a four-player match in pairs: the reference match
    of a bot that takes the first legal action; the partner is named so."""
    code_, out, err = play(capsys, monkeypatch, "1\n" * 200, "--players", "4", "--pairs", "on",
                           "--bots", "heuristic,random,heuristic", "--seed", "5")
    assert code_ == 0, err
    rules = TuttiRules(players=4, pairs=True)
    bots = [First(), *parse_bots("heuristic,random,heuristic", rules)]
    rec = play_match(bots, rules, 5, 0)
    assert played(out) == record_plays(rec)
    other = play_match(parse_bots("heuristic,heuristic,random,heuristic", rules), rules, 5, 0)
    assert record_plays(other) != record_plays(rec)  # the answers matter
    assert "2: player 2 (random, your partner)" in out
    h = rec.hands[-1]
    assert f"hand {len(rec.hands)} over: your pair {h.scores[0]} (" in out
    assert f"; players 1 and 3 {h.scores[1]} (" in out
    assert ("you win!" in out) == (rec.winner == 0)


def test_default_bots_fill_the_table_and_quit(capsys, monkeypatch):
    code_, out, _ = play(capsys, monkeypatch, "q\n", "--players", "3", "--seed", "4")
    assert code_ == 0
    assert out.startswith("Tutti, 3 players: seat 0 you, seat 1 pimc, seat 2 pimc#2; seed 4")
    # left at the first choice of the first hand: no hand won, no trick taken
    assert ("you left the game: game abandoned; hands won: you 0, player 1 (pimc) 0, player 2 "
            "(pimc#2) 0; hand 1 so far: you 0 points, player 1 (pimc) 0 points, player 2 "
            "(pimc#2) 0 points (the first to win 1 hand wins the match)") == out.rstrip().splitlines()[-1]
    code_, out, _ = play(capsys, monkeypatch, "", "--bots", "random", "--seed", "4")
    assert code_ == 0 and out.rstrip().splitlines()[-1].startswith(
        "input ended: game abandoned; hands won: you 0, player 1 (random) 0; hand 1 so far: ")
    assert "match over" not in out


def test_hints_show_the_advice_at_every_choice(capsys, monkeypatch):
    code_, out, _ = play(capsys, monkeypatch, "1\nq\n", "--bots", "heuristic", "--seed", "3",
                         "--hints")
    assert code_ == 0
    assert out.count("your turn: ") == 2 and out.count("advice: pimc deals") == 2


@pytest.mark.parametrize("args, needle", [
    (("--pairs", "on", "--bots", "heuristic,heuristic"), "--pairs on needs --players 4, not 3"),
    (("--players", "3", "--pairs", "on"), "--pairs on needs --players 4, not 3"),
    (("--players", "5",), "--players must be 2, 3 or 4 for Tutti, not 5"),
    (("--players", "3", "--bots", "heuristic"), "--players 3 needs 2 bots in --bots"),
    (("--bots", "heuristic,random,random,random"), "at most 3 bots play against you"),
    (("--bots", "clever"), "valid bots: random, heuristic"),
    (("--bots", "heuristic", "--hands", "0"), "--hands must be 1..5"),
    (("--bots", "heuristic", "--seat", "2"), "--seat must be 0..1"),
])
def test_bad_options(capsys, monkeypatch, args, needle):
    code_, _, err = play(capsys, monkeypatch, "", *args)
    assert code_ == 2 and needle in err and len(err.strip().splitlines()) == 1, err


# ---- hand-made positions ---------------------------------------------------------------------
# Three players (no 2s): seat 0 leads, seat 1 is the human, seat 2 deals; hands of 12 cards.
RULES3 = TuttiRules(players=3)


def _position(seat0: str, seat1: str, seat2: str):
    """A 3-player deal from the three hands' codes (the dealer's last card shows trumps)."""
    cards = [parse(c) for c in (seat0 + " " + seat1 + " " + seat2).split()]
    return deal_cards(RULES3, cards)


def _human(answers: list[str]):
    lines: list[str] = []
    human = HumanPlayer("you", lambda prompt: answers.pop(0), lines.append)
    human.narrator = Narrator(RULES3, ["first", "you", "dealer"], 1, lines.append)
    return human, lines


# trumps are Batons (seat 2's last card is the Seven of Batons)
DEAL = ("5S AD 3D KD HD JD 7D 6D 5D 4D AC 3C",          # seat 0
        "KS HS 4S AB 3B KB HB JB 6B 5B 4B KC",          # seat 1, the human
        "AS 3S JS 7S 6S 7C 6C 5C 4C JC HC 7B")          # seat 2


def test_a_card_that_must_not_be_played_is_refused_with_the_duty():
    state = _position(*DEAL)
    apply(state, Play(parse("5S")))  # seat 0 leads the Five of Swords
    human, lines = _human(["4s", "ad", "KS"])
    assert human.act(observe(state, 1)) == Play(parse("KS"))
    assert ("you may not play the Four of Swords (4S) now: you must follow Swords and beat "
            "the Five of Swords (5S)") in lines
    assert "you do not hold the Ace of Coins (AD)" in lines
    assert "on the table: player 0 (first) led the Five of Swords (5S)" in lines
    assert lines[0] == ("your hand: Batons (trumps): Ace AB, Three 3B, King KB, Horse HB, "
                        "Jack JB, Six 6B, Five 5B, Four 4B | Cups: King KC | "
                        "Swords: King KS, Horse HS, Four 4S")
    assert "trumps: Batons; player 2 (dealer) still holds the shown Seven of Batons (7B)" in lines


def test_without_the_led_suit_a_trump_is_due():
    state = _position(*DEAL)
    apply(state, Play(parse("AD")))  # Coins led; the human has none, and has trumps
    human, lines = _human(["kc", "4b"])
    assert human.act(observe(state, 1)) == Play(parse("4B"))
    assert "you may not play the King of Cups (KC) now: you have no Coins, so you must play " \
           "a trump" in lines


def test_hand_lines_trumps_first_high_to_low():
    hand = sum(1 << parse(c) for c in "2C AC 7D KS HS 3S".split())
    assert hand_lines(hand, trump=2) == ["Swords (trumps): Three 3S, King KS, Horse HS",
                                         "Coins: Seven 7D", "Cups: Ace AC, Two 2C"]
