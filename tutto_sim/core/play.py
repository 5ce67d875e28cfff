"""Playing at the terminal, for every game: the words that ask for advice or
leave, and the signal that the human left. Game-independent."""

from __future__ import annotations

from typing import Callable

ADVICE_WORDS = ("?", "a", "advice", "h", "help")
QUIT_WORDS = ("q", "quit", "exit")


class QuitGame(BaseException):
    """The human left (``q`` or end of input). A BaseException, so that the
    game's check of bot answers does not count it as an illegal action."""


def ask_choice(read: Callable[[str], str], write: Callable[[str], None], prompt: str,
               choices: tuple, letters: dict, advise: Callable[[], None], retry: str):
    """Read answers until one picks an action: a number 1..len(choices), one of
    ``letters`` (e.g. ``b`` -> bank), ``?`` for ``advise()``; ``q`` or end of
    input leaves the game (:class:`QuitGame`); anything else repeats ``retry``."""
    while True:
        try:
            line = read(prompt)
        except EOFError:
            raise QuitGame("input ended") from None
        answer = line.strip().lower()
        if answer in QUIT_WORDS:
            raise QuitGame("you left the game")
        if answer in ADVICE_WORDS:
            advise()
            continue
        if answer in letters:
            return letters[answer]
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1]
        write(retry)
