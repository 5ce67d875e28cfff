"""Playing at the terminal, for every game: the words that ask for advice or
leave, and the signal that the human left. Game-independent."""

from __future__ import annotations

ADVICE_WORDS = ("?", "a", "advice", "h", "help")


QUIT_WORDS = ("q", "quit", "exit")


class QuitGame(BaseException):
    """The human left (``q`` or end of input). A BaseException, so that the
    game's check of bot answers does not count it as an illegal action."""
