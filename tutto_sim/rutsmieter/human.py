"""Rutsmieter at the terminal: ``tutto-sim play --game rutsmieter``.

A human plays against bots in the reference engine (``reference.play_game``,
game 0 of the printed seed), so a game can be replayed with ``--seed``: the
human's answers draw nothing from the stream.

What the human sees (docs/rutsmieter.md, "Playing in the terminal"):

- **Colours.** Each board seat has its colour, as on a real board: seat 0
  Red, 1 Blue, 2 Green, 3 Yellow (with two players Red and Green face each
  other). A piece is its colour's letter and number: ``B2`` is Blue's piece 2.
- **Squares in the human's own count.** The ring's 40 squares are numbered
  from the human's start square (0), in the direction of play, so every move
  reads as the human walks: the start squares are 0, 10, 20 and 30; an empty
  one shows its colour as ``(B)``. Goal squares are 1-4 of the owner's lane.
- **The board** (:meth:`Narrator.render`): the ring in two rows of 20
  squares, under each the letters of the human's moves at their target
  squares (``a×`` captures); then per player the pieces in the house and the
  goal lane. It is shown when the human's turn begins and at every choice.
- **Throws.** Every throw is one line: who threw what and the move made
  ("Blue (first) throws 4: piece 2 from square 14 to 18, captures your piece
  1"), no move, the three tries when only a 6 helps, and "throws again" after
  a 6. A single legal move of the human is made automatically (and said so).
- **A choice** lists the moves with letters a, b, c, d; ``?`` shows the
  advice (:class:`Advisor`), ``q`` leaves (``core.play.QuitGame``), end of
  input leaves as well; an unknown answer is asked again.
- **The end**: the final board and the places.
"""

from __future__ import annotations

import string
from typing import Callable, Sequence

from tutto_sim.core.play import (  # noqa: F401  (QuitGame: the human left)
    LETTERED_ADVICE_WORDS,
    InteractiveTable,
    QuitGame,
    TerminalPlayer,
    ask_choice,
)

from .bots import engine_of
from .reference import Board, Bot, Move, Observation, ThrowSeen, play_game
from .rules import FIRST_GOAL, HOUSE, PIECES, RING, SEAT_SPACING, RutsmieterRules

#: Colour of each board seat, as on a real board.
COLOURS = ("Red", "Blue", "Green", "Yellow")
#: Rollouts per move of the expert's advice (its 95% CI is about ±3 points at 50%).
ADVICE_ROLLOUTS = 1000


class Narrator:
    """Names, words and the board of one game, as the human at ``viewer`` sees them."""

    def __init__(self, rules: RutsmieterRules, names: Sequence[str], viewer: int,
                 write: Callable[[str], None]):
        self.rules = rules
        self.seats = rules.seats
        self.names = list(names)
        self.viewer = viewer
        self.write = write
        self.before = Board.start(self.seats)  # the board before the latest throw
        self.shown = False  # the board was shown in the human's current turn

    # ---- words ----------------------------------------------------------
    def colour(self, p: int) -> str:
        return COLOURS[self.seats[p]]

    def who(self, p: int) -> str:
        """The subject of a sentence: "you", "Blue (first)"."""
        return "you" if p == self.viewer else f"{self.colour(p)} ({self.names[p]})"

    def whose(self, p: int) -> str:
        return "your" if p == self.viewer else f"{self.colour(p)}'s"

    def square(self, square: int) -> int:
        """The human's count of ring square ``square`` (the human's start is 0)."""
        return (square - SEAT_SPACING * self.seats[self.viewer]) % RING

    def ring(self, p: int, x: int) -> int:
        """The human's count of player ``p``'s ring position ``x``."""
        return self.square(x + SEAT_SPACING * self.seats[p])

    def where(self, p: int, x: int) -> str:
        if x == HOUSE:
            return "the house"
        if x >= FIRST_GOAL:
            return f"goal square {x - FIRST_GOAL + 1}"
        return f"square {self.ring(p, x)}"

    def describe(self, p: int, m: Move) -> str:
        """A move in words: "piece 2 from square 14 to 18, captures Blue's piece 1"."""
        if m.start == HOUSE:
            text = f"piece {m.piece + 1} leaves the house onto square {self.ring(p, 0)}"
        elif m.start < FIRST_GOAL <= m.end:
            text = (f"piece {m.piece + 1} from square {self.ring(p, m.start)} into the goal lane, "
                    f"goal square {m.end - FIRST_GOAL + 1}")
        else:
            to = self.where(p, m.end)
            text = (f"piece {m.piece + 1} from {self.where(p, m.start)} to "
                    f"{to if m.end >= FIRST_GOAL else to.removeprefix('square ')}")
        if m.victim is not None:
            vp, vk = m.victim
            text += f", captures {self.whose(vp)} piece {vk + 1}"
        return text

    # ---- the board --------------------------------------------------------
    def render(self, board: Board, mover: int = -1, marks: Sequence[Move] = ()) -> list[str]:
        """The board as lines of text; ``marks`` are ``mover``'s moves, shown by
        letter at their target squares (module docstring)."""
        starts = {self.square(SEAT_SPACING * s): COLOURS[s][0] for s in self.seats}
        targets: dict[int, str] = {}  # ring square (human's count) -> mark
        goal_marks: dict[int, str] = {}  # goal position of the mover -> letter
        for letter, m in zip(string.ascii_lowercase, marks):
            if m.end >= FIRST_GOAL:
                goal_marks[m.end] = letter
            else:
                targets[self.ring(mover, m.end)] = letter + ("×" if m.captures else "")
        lines = []
        for half in (0, RING // 2):
            squares = range(half, half + RING // 2)
            lines.append("square " + "".join(f"{q:>3}" for q in squares))
            lines.append("ring   " + "".join(f"{self._cell(board, q, starts):>3}" for q in squares))
            if any(q in targets for q in squares):
                lines.append(("moves  " + "".join(f"{targets.get(q, ''):>3}"
                                                  for q in squares)).rstrip())
        width = max(len(self.who(p)) for p in range(len(self.seats)))
        for p, pieces in enumerate(board.pieces):
            house = " ".join(str(k + 1) for k, x in enumerate(pieces) if x == HOUSE) or "-"
            lane = []
            for g in range(FIRST_GOAL, FIRST_GOAL + PIECES):
                k = pieces.index(g) if g in pieces else -1
                lane.append(str(k + 1) if k >= 0 else goal_marks.get(g, "·") if p == mover else "·")
            lines.append(f"{self.colour(p)[0]} {self.who(p):<{width}}  start {self.ring(p, 0):>2}"
                         f"  house {house:<7}  goal [{' '.join(lane)}]")
        return lines

    def _cell(self, board: Board, q: int, starts: dict[int, str]) -> str:
        hit = board.on_ring_square((q + SEAT_SPACING * self.seats[self.viewer]) % RING)
        if hit is not None:
            return f"{self.colour(hit[0])[0]}{hit[1] + 1}"
        return f"({starts[q]})" if q in starts else "·"

    def show(self, board: Board, mover: int = -1, marks: Sequence[Move] = ()) -> None:
        for line in self.render(board, mover, marks):
            self.write(line)
        self.shown = True

    # ---- the game as it goes ------------------------------------------------
    def legend(self) -> None:
        self.write("squares are counted from your start square 0 in the direction of play; "
                   "goal squares 1-4 are each player's own lane")
        self.write("players: " + ", ".join(f"{COLOURS[s][0]} = {self.who(p)}"
                                            for p, s in enumerate(self.seats)))

    def throw(self, ev: ThrowSeen) -> None:
        """One line per throw (``play_game``'s observer); the board when the human's turn begins."""
        p = ev.player
        if p == self.viewer:
            if not self.shown:
                self.show(self.before)
        else:
            self.shown = False
        text = f"{self.who(p)} {'throw' if p == self.viewer else 'throws'} {ev.die}"
        if ev.tries > 1:
            text += f" (try {ev.attempt} of {ev.tries}: only a 6 helps)"
        if ev.move is None:
            text += ": no move"
        else:
            text += ": " + self.describe(p, ev.move)
            if p == self.viewer and len(ev.moves) == 1:
                text += " (the only move, made automatically)"
        done = ev.board.finished(p)
        if ev.die == 6 and not done:
            text += "; a 6: " + ("throw" if p == self.viewer else "throws") + " again"
        self.write(text)
        if done:
            self.write(f"{self.who(p)} {'have' if p == self.viewer else 'has'} all four pieces "
                       "in the goal lane!")
        self.before = ev.board.copy()

    def standing(self) -> str:
        """Pieces in the goal lane so far (a game left before its end)."""
        b = self.before
        return "in the goal lane: " + ", ".join(f"{self.who(p)} {b.in_goal(p)} of {len(b.pieces[p])}"
                                                for p in range(len(self.seats)))

    def end(self, rec) -> None:
        self.write("final board:")
        self.show(rec.board)
        how = ("stopped unfinished at the safety net" if rec.capped else "game over")
        self.write(f"{how} after {rec.throws:,} throws ({rec.turns:,} turns); places:")
        for p in sorted(range(len(self.seats)), key=lambda q: (rec.places[q], q)):
            b = rec.board
            self.write(f"  {rec.places[p]}. {self.who(p)}: {b.in_goal(p)} in the goal lane, "
                       f"progress {b.progress(p)}")


class Advisor:
    """The advice at a choice: the expert's estimated chance to win after each
    move (``expert.advise``: the tuned policy plays the game out from each
    move, :data:`ADVICE_ROLLOUTS` times, on common dice), the move the expert
    makes (marked), and the tuned evaluator's score of each move (``policy``;
    the bot ``tuned`` makes the highest)."""

    def __init__(self, rules: RutsmieterRules, rollouts: int = ADVICE_ROLLOUTS):
        from .policy import default_policy

        self.rules = rules
        self.rollouts = rollouts
        self.policy = default_policy(rules)

    def lines(self, obs: Observation, narrator: Narrator) -> list[str]:
        from tutto_sim.core.stats import wilson

        from .expert import advise
        from .policy import move_features

        advice = advise(obs, self.rules, self.rollouts, policy=self.policy)
        by_index = {a.index: a for a in advice}
        board = obs.board()
        scores = [self.policy.score(move_features(board, obs.player, m)) for m in obs.moves]
        words = [narrator.describe(obs.player, m) for m in obs.moves]
        width = max(map(len, words))
        out = [f"advice: your chance to win after each move (the expert plays each move's game "
               f"out up to {self.rollouts:,} times and stops early once one move is clearly ahead; "
               "95% CI, games played) and the tuned bot's score"]
        for i, (letter, text) in enumerate(zip(string.ascii_lowercase, words)):
            a = by_index[i]
            if a.rollouts == 0:
                share = "wins at once"
            else:  # the games won of those played, with their Wilson interval
                low, high = wilson(a.win_share * a.rollouts, a.rollouts)
                share = f"{a.win_share:6.1%} [{low:.1%}, {high:.1%}] ({a.rollouts:,} games)"
            mark = "  <- the expert's move" if i == advice[0].index else ""
            out.append(f"  {letter}) {text:<{width}}  {share:>36}   tuned {scores[i]:+7.2f}{mark}")
        why = self._why_not_the_highest(obs, advice)
        return out + ([why] if why else [])

    def _why_not_the_highest(self, obs: Observation, advice) -> str | None:
        """One line when another move shows as high a chance as the expert's
        (or higher): why the expert still makes its move (``expert.decide``)."""
        pick = advice[0]
        level = [a for a in advice[1:] if a.rollouts and a.win_share >= pick.win_share]
        if not level or not pick.rollouts:
            return None
        letters = ", ".join(f"{string.ascii_lowercase[a.index]})" for a in
                            sorted(level, key=lambda a: a.index))
        verb = "is" if len(level) == 1 else "are"
        if pick.index == self.policy.choose(obs):
            return (f"  why: the expert makes the tuned bot's move unless another is clearly ahead "
                    f"on the same dice (1.5 standard errors of the paired difference, more with "
                    f"few games); {letters} {verb} level or ahead only by chance")
        return (f"  why: {letters} won as many of the same games as the expert's move: a tie, "
                f"which goes to the move listed first by the game")


class HumanPlayer(TerminalPlayer):
    """The human at the table: a bot of the reference engine (``engine``)
    whose choices are read from the terminal. A single legal move is made
    without asking; the game (:class:`InteractiveGame`) gives it the
    :class:`Narrator` that draws the board and words the moves."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)  # name, read, write, advisor (an Advisor), always_advise
        self.narrator: Narrator | None = None
        self.engine = Bot(self.name, self.choose)

    def choose(self, obs: Observation) -> int:
        n = len(obs.moves)
        if n == 1:
            return 0
        words = self.narrator
        words.show(obs.board(), obs.player, obs.moves)
        self.write(f"you throw {obs.die}: choose your move")
        letters = dict(zip(string.ascii_lowercase, range(n)))
        for letter, m in zip(letters, obs.moves):
            self.write(f"  {letter}) {words.describe(obs.player, m)}")
        if self.always_advise:
            self.advise(obs, self.narrator)
        last = string.ascii_lowercase[n - 1]
        return ask_choice(self.read, self.write, f"choose a-{last} (? advice, q quit): ",
                          tuple(range(n)), letters, lambda: self.advise(obs, self.narrator),
                          f"please answer a-{last}, ? for advice, q to quit",
                          advice_words=LETTERED_ADVICE_WORDS)


class InteractiveGame(InteractiveTable):
    """A game with a human at the terminal: ``InteractiveGame(players, config,
    seed, write).play()`` plays game 0 of ``seed`` and returns the
    ``reference.GameRecord``. ``players`` are parsed bots (``rutsmieter.bots``)
    and one :class:`HumanPlayer`; a ``py:`` bot's illegal move is a warning
    line, and its first legal move is played."""

    human, narrator_type, engine_of = HumanPlayer, Narrator, staticmethod(engine_of)
    action = "move"

    def play(self):
        self.narrator.legend()
        rec = play_game(self.engines, self.rules, self.seed, 0, observe=self.narrator.throw)
        self.narrator.end(rec)
        return rec
