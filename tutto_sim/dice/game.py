"""The dice games' game loop in plain Python, shared by the reference games of
Tutto (``tutto.game``) and Berliner Macke / Volle Lotte (``macke.game``), which
keep their turn (``_turn``), end rules and words; ``dice.game_kernel`` is its twin.

Game ``i`` of a run with seed ``s`` reads stream ``(s, i)``; seat 0 starts.
A player's reaching the target at the end of his turn makes him the
*finisher*: with ``ROUND_END`` the game ends when the round is finished
(before seat 0's next turn), else before the finisher's own next turn (every
other player has one more turn). With ``immediate()`` the first to reach the
target wins at once. A turn that raises :class:`InstantWin` wins the game at
once and adds nothing; an :class:`~tutto_sim.core.api.IllegalAction` counts as
a bust (``_bust``). A game that reaches ``max_rounds`` rounds with no finisher
ends there (a safety net for bots that never bank). Then the highest score
wins; ties share the win.
"""

from __future__ import annotations

from typing import Callable, Sequence

from tutto_sim.core.api import Bot, IllegalAction
from tutto_sim.core.games import GameRecord, bot_rng
from tutto_sim.core.rng import Stream


class InstantWin(Exception):
    """Raised inside a turn: the player wins the game at once."""


class DiceGame:
    """One game: ``Game(bots, config, seed, index).play()`` -> ``GameRecord``; ``config``
    has ``rules`` and ``max_rounds``, ``narrate`` receives one line per event."""

    #: End kinds of ``GameRecord.end``: the finisher's game end, an ``immediate()`` win,
    #: an instant win, the cap.
    END_FINISHED = END_TARGET = END_INSTANT = END_CAP = ""
    #: The game ends when the round is finished (else before the finisher's next turn).
    ROUND_END = True
    #: What is said at an instant win, after the player's name.
    INSTANT_WIN_WORDS = "wins at once!"

    def __init__(self, bots: Sequence[Bot], config, seed: int = 1, index: int = 0,
                 narrate: Callable[[str], None] | None = None):
        if not 1 <= len(bots) <= 8:
            raise ValueError(f"a game needs 1-8 players, not {len(bots)}")
        self.bots = list(bots)
        self.config = config
        self.rules = config.rules
        self.n = len(bots)
        self.stream = Stream(seed, index)
        self.scores = [0] * self.n
        self.rngs = [bot_rng(seed, index, j) for j in range(self.n)]
        self.turn = 0
        self.finisher: int | None = None
        self.say = narrate or (lambda text: None)

    @property
    def last_round(self) -> bool:  # somebody reached the target
        return self.finisher is not None

    # ---- what a game says and decides besides its turn ------------------------
    def immediate(self) -> bool:
        """The first to reach the target wins at once."""
        return False

    def _bust(self, error: IllegalAction) -> tuple[int, str]:
        """An illegal action: what the turn adds, and what is said."""
        return 0, f"{error}; counted as a bust"

    def _heading(self, seat: int) -> str:
        return f"-- {self._who(seat)}: turn {self.turn // self.n + 1}, score {self.scores[seat]:,}"

    def _reached(self, seat: int) -> None:
        """Say that ``seat`` is the first to reach the target."""

    def _who(self, seat: int) -> str:
        return f"seat {seat} ({self.bots[seat].name})"

    def standing(self) -> str:
        """The score so far, for a game left before its end (``play``)."""
        return ("points banked: " + ", ".join(f"{self._who(j)} {s:,}" for j, s in enumerate(self.scores))
                + f" (target {self.rules.target:,})")

    # ---- the game -------------------------------------------------------
    def play(self) -> GameRecord:
        n, target = self.n, self.rules.target
        banked, banked_sq, turns_by_seat, errors = [0] * n, [0] * n, [0] * n, []
        end, winners = self.END_CAP, None
        while True:
            seat = self.turn % n
            if self.finisher is not None and seat == (0 if self.ROUND_END else self.finisher):
                end = self.END_FINISHED
                break
            if self.finisher is None and seat == 0 and self.turn >= self.config.max_rounds * n:
                break
            self.say(self._heading(seat))
            try:
                points = self._turn(seat)
            except InstantWin:
                points = 0
                winners, end = (seat,), self.END_INSTANT
            except IllegalAction as e:
                points, words = self._bust(e)
                errors.append((seat, str(e)))
                self.say(words)
            self.turn += 1
            turns_by_seat[seat] += 1
            banked[seat] += points
            banked_sq[seat] += points * points
            if winners is not None:
                self.say(f"{self._who(seat)} {self.INSTANT_WIN_WORDS}")
                break
            self.scores[seat] += points
            if self.scores[seat] >= target:
                if self.immediate():
                    winners, end = (seat,), self.END_TARGET
                    break
                if self.finisher is None:
                    self.finisher = seat
                    self._reached(seat)
        if winners is None:  # the highest score wins, ties share
            winners = tuple(j for j in range(n) if self.scores[j] == max(self.scores))
        self.say("game over: " + ", ".join(f"{self._who(j)} {s:,}" for j, s in enumerate(self.scores))
                 + "; winner" + ("s " if len(winners) > 1 else " ")
                 + ", ".join(self._who(j) for j in winners))
        return GameRecord(list(self.scores), winners, self.turn, end, banked, banked_sq,
                          turns_by_seat, errors)
