"""``tutto-sim play --game rutsmieter``: a human against bots, driven by scripted
input; the human's answers are the moves of the game (the same game as a
reference bot making the same choices on the same seed), and the board and
the words are checked on hand-made positions."""

import io
import re

import pytest
from scipy.stats import binomtest
from conftest import run_cli

from tutto_sim.rutsmieter.expert import advise
from tutto_sim.rutsmieter.human import ADVICE_ROLLOUTS, Narrator
from tutto_sim.rutsmieter.reference import BOTS, Board, Bot, Move, play_game, possible_moves
from tutto_sim.rutsmieter.rules import RutsmieterRules


def play(capsys, monkeypatch, text, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "play", "--game", "rutsmieter", *args)


def _second_choice(seen: list):
    """A reference bot answering as the script does: the second move when
    there is a choice; ``seen`` collects the observation at each throw."""
    def choose(obs):
        seen.append(obs)
        return 1 if len(obs.moves) > 1 else 0

    return Bot("script", choose)


def _final_block(out: str, players: int) -> list[str]:
    tail = out[out.index("final board:\n") + len("final board:\n"):]
    return tail.splitlines()[:4 + players]  # two halves of the ring, then the players


def test_the_answers_are_the_moves_of_the_game(capsys, monkeypatch):
    """Invalid letters are asked again, ? shows the advice, then "b" at every
    choice: the game is the reference game of a bot that makes the second move
    at every choice (same seed, same seats), and it differs from always the first."""
    code, out, err = play(capsys, monkeypatch, "z\ne\n?\nb\n" + "b\n" * 400,
                          "--bots", "first,aggressive", "--seat", "1", "--seed", "7")
    assert code == 0, err
    assert out.startswith("Rutsmieter, 3 players: seat 0 first, seat 1 you, seat 2 aggressive; "
                          "seed 7 (replay: --seed 7)\n")
    assert "at each choice type its letter; ? shows the expert's advice, q leaves" in out

    rules = RutsmieterRules(players=3)
    observed: list = []
    rec = play_game([BOTS["first"], _second_choice(observed), BOTS["aggressive"]], rules, 7, 0)
    seen = [len(obs.moves) for obs in observed]
    other = play_game([BOTS["first"], Bot("a", lambda obs: 0), BOTS["aggressive"]], rules, 7, 0)
    assert other.log != rec.log  # the answers matter in this game

    choices = sum(n > 1 for n in seen)
    assert choices >= 5
    assert out.count("choose a-") == choices + 3  # z, e and ? ask again at the first choice
    assert out.count("please answer a-") == 2
    assert out.count("(the only move, made automatically)") == sum(n == 1 for n in seen)
    assert f"game over after {rec.throws:,} throws ({rec.turns:,} turns); places:" in out
    narrator = Narrator(rules, ["first", "you", "aggressive"], 1, lambda text: None)
    assert _final_block(out, 3) == narrator.render(rec.board)
    names = {0: "Red (first)", 1: "you", 2: "Green (aggressive)"}
    places = re.findall(r"^  (\d)\. (.+?): ", out, re.M)
    assert sorted((int(p), n) for p, n in places) == sorted(
        (rec.places[j], names[j]) for j in range(3))
    assert ("you win!" in out) == (rec.winner == 1)

    # the advice at the first choice: the expert's figures for that position, by letter
    block = out[out.index("advice: "):].splitlines()
    obs = next(o for o in observed if len(o.moves) > 1)
    lines = block[1:1 + len(obs.moves)]
    assert [ln.split(")")[0].strip() for ln in lines] == list("abcd"[:len(obs.moves)])
    advice = advise(obs, rules, ADVICE_ROLLOUTS)
    assert sorted(a.index for a in advice) == list(range(len(obs.moves)))
    for a in advice:
        if a.rollouts:  # the games actually played for this move (the expert may stop early)
            assert f"({a.rollouts:,} games)" in lines[a.index]
            share = re.search(r"([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", lines[a.index])
            assert float(share.group(1)) == pytest.approx(100 * a.win_share, abs=0.05)
            # the Wilson interval of the games won, from scipy
            ci = binomtest(round(a.win_share * a.rollouts), a.rollouts).proportion_ci(
                method="wilson")
            assert float(share.group(2)) == pytest.approx(100 * ci.low, abs=0.05)
            assert float(share.group(3)) == pytest.approx(100 * ci.high, abs=0.05)
    marked = [i for i, ln in enumerate(lines) if ln.endswith("<- the expert's move")]
    assert marked == [advice[0].index]


def test_a_move_from_house_to_goal_and_places_with_four_players(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, "a\n" * 600, "--bots", "last,defensive,random",
                          "--seed", "2")
    assert code == 0, err
    assert out.startswith("Rutsmieter, 4 players: seat 0 you, seat 1 last, seat 2 defensive, "
                          "seat 3 random; seed 2")
    rules = RutsmieterRules()
    rec = play_game([Bot("a", lambda obs: 0), BOTS["last"], BOTS["defensive"], BOTS["random"]],
                    rules, 2, 0)
    narrator = Narrator(rules, ["you", "last", "defensive", "random"], 0, lambda text: None)
    assert _final_block(out, 4) == narrator.render(rec.board)
    assert "players: R = you, B = Blue (last), G = Green (defensive), Y = Yellow (random)" in out
    assert "leaves the house onto square 0" in out and "into the goal lane, goal square" in out
    assert re.search(r"^Yellow \(random\) throws \d", out, re.M)


@pytest.mark.parametrize("players", [2, 4])
def test_bots_and_hints_play_the_weight_set_of_the_table(capsys, monkeypatch, tmp_path, players):
    """With a shipped policy file of a weight set per table size, the tuned bots at
    the table, the hints' scores and the expert's rollouts use the set of the
    table's size (2 and 4 players: each its own)."""
    from tutto_sim.rutsmieter import policy as P

    base = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0)
    sets = {2: base + (0.1,) * 15, 4: base + (-0.2,) * 15}
    path = P.WeightsPolicy(base, RutsmieterRules(), by_players=tuple(sets.items())).write(
        tmp_path / P.DEFAULT_FILE)
    monkeypatch.setattr(P, "default_policy_path", lambda: path)
    seen = []
    real = P.default_policy

    def spy(rules=None):
        pol = real(rules)
        seen.append((rules.players, pol.weights))
        return pol

    monkeypatch.setattr(P, "default_policy", spy)
    bots = ["--bots", "tuned" if players == 2 else "tuned,tuned,tuned"]
    code, out, _ = play(capsys, monkeypatch, "?\n" * 3 + "q\n", "--players", str(players),
                        *bots, "--seed", "7", "--hints")
    assert code == 0, out
    assert "advice: your chance to win" in out and "tuned " in out
    assert seen and all(n == players and w == sets[players] for n, w in seen), seen
    assert len(seen) >= 2  # the bots and the advisor
    from tutto_sim.rutsmieter.bots import parse_bot

    assert parse_bot("tuned", RutsmieterRules(players=players)).policy.weights == sets[players]


def test_hints_show_the_advice_at_every_choice(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "a\nq\n", "--bots", "first", "--seed", "7", "--hints")
    assert code == 0
    assert out.count("choose a-") == 2 and out.count("advice: ") == 2
    # left in the first turns: nobody has a piece in the goal lane yet
    assert out.rstrip().endswith("you left the game: game abandoned; in the goal lane: "
                                 "you 0 of 4, Green (first) 0 of 4")


def test_quit_and_end_of_input(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "q\n", "--bots", "first", "--seed", "7")
    score = "in the goal lane: you 0 of 4, Green (first) 0 of 4"  # the first turn: none there
    assert code == 0 and out.rstrip().endswith(f"you left the game: game abandoned; {score}")
    assert "game over" not in out
    code, out, _ = play(capsys, monkeypatch, "", "--bots", "first", "--seed", "7")
    assert code == 0 and out.rstrip().endswith(f"input ended: game abandoned; {score}")


def test_two_players_sit_opposite_and_house_rules_apply(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, "b\n" * 400, "--bots", "aggressive", "--seed", "5",
                          "--must-capture", "off", "--goal-no-jump", "on")
    assert code == 0, err
    rules = RutsmieterRules(players=2, must_capture=False, goal_no_jump=True)
    rec = play_game([_second_choice([]), BOTS["aggressive"]], rules, 5, 0)
    narrator = Narrator(rules, ["you", "aggressive"], 0, lambda text: None)
    assert _final_block(out, 2) == narrator.render(rec.board)
    assert "players: R = you, G = Green (aggressive)" in out


@pytest.mark.parametrize("args, needle", [
    (("--bots", "first", "--seat", "5"), "--seat must be 0..1"),
    (("--bots", "first,first,first,first"), "at most 3 bots play against you at Rutsmieter"),
    (("--bots", "nobody"), "valid bots"),
    (("--bots", "first", "--must-capture", "maybe"), "--must-capture"),
    (("--bots", "first", "--target", "3000"), "--target"),
])
def test_bad_options(capsys, monkeypatch, args, needle):
    code, out, err = play(capsys, monkeypatch, "", *args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


# ---- the board and the words, on a hand-made position ----------------------------------
# Two players: Red (first) at board seat 0, the human Green at seat 2. The human
# counts squares from Green's start: Red's own position x is square (x - 20) mod 40.
RULES2 = RutsmieterRules(players=2)
BOARD = Board(RULES2.seats, [[2, -1, 41, 43],     # Red: own 2 = square 22; goal squares 2, 4
                             [20, 12, -1, 40]])  # Green: squares 20 and 12; goal square 1


def _narrator():
    return Narrator(RULES2, ["first", "you"], 1, lambda text: None)


def test_the_board_in_the_humans_count():
    dots = lambda k: "  ·" * k  # noqa: E731
    assert _narrator().render(BOARD) == [
        "square " + "".join(f"{q:>3}" for q in range(20)),
        "ring   " + "(G)" + dots(11) + " G2" + dots(7),
        "square " + "".join(f"{q:>3}" for q in range(20, 40)),
        "ring   " + " G1" + dots(1) + " R1" + dots(17),
        "R Red (first)  start 20  house 2        goal [· 3 · 4]",
        "G you          start  0  house 3        goal [4 · · ·]",
    ]


def test_the_moves_marked_by_letter():
    moves = possible_moves(BOARD, 1, 2, RULES2)
    # piece 1: 20 -> 22 onto Red's piece 1; piece 2: 12 -> 14; piece 4: goal 1 -> goal 3
    assert [(m.piece, m.end, m.victim) for m in moves] == [(0, 22, (0, 0)), (1, 14, None),
                                                          (3, 42, None)]
    lines = _narrator().render(BOARD, 1, moves)
    assert lines[2] == "moves  " + " " * 3 * 14 + "  b"
    assert lines[5] == "moves  " + "   " * 2 + " a×"
    assert lines[7] == "G you          start  0  house 3        goal [4 · c ·]"


def test_moves_in_words():
    words = _narrator()
    assert words.describe(0, Move(1, -1, 0)) == "piece 2 leaves the house onto square 20"
    assert words.describe(1, Move(2, -1, 0)) == "piece 3 leaves the house onto square 0"
    assert (words.describe(1, Move(0, 20, 22, (0, 0)))
            == "piece 1 from square 20 to 22, captures Red's piece 1")
    assert (words.describe(0, Move(0, 37, 41)) == "piece 1 from square 17 into the goal lane, "
            "goal square 2")
    assert words.describe(1, Move(3, 40, 42)) == "piece 4 from goal square 1 to goal square 3"
    assert (words.describe(0, Move(0, 38, 0 + 39, (1, 1)))
            == "piece 1 from square 18 to 19, captures your piece 2")


def test_the_advice_says_why_the_expert_keeps_a_move_another_matches():
    """When another move shows as high a chance as the expert's (a tie, or
    ahead by chance), one line says why: the expert keeps the tuned bot's move
    unless another is clearly ahead. The condition comes from ``advise``."""
    from tutto_sim.rutsmieter.human import Advisor
    from tutto_sim.rutsmieter.policy import default_policy

    rules = RutsmieterRules(players=2)
    seen: list = []
    play_game([_second_choice(seen), BOTS["first"]], rules, 11, 0)
    advisor, tuned = Advisor(rules, rollouts=100), default_policy(rules)
    narrator = Narrator(rules, ["you", "first"], 0, lambda text: None)
    explained = 0
    for obs in [o for o in seen if len(o.moves) > 1][:40]:
        advice = advise(obs, rules, 100, policy=tuned)
        pick = advice[0]
        level = [a for a in advice[1:] if a.rollouts and pick.rollouts
                 and a.win_share >= pick.win_share]
        why = [ln for ln in advisor.lines(obs, narrator) if ln.startswith("  why: ")]
        assert len(why) == (1 if level else 0), (advice, why)
        if level and pick.index == tuned.choose(obs):
            assert "the expert makes the tuned bot's move unless another is clearly ahead" in why[0]
            for a in level:
                assert f"{'abcd'[a.index]})" in why[0]
            explained += 1
    assert explained >= 1
