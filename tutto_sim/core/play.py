"""Playing at the terminal, for every game: the human player's base, the words
that ask for advice or leave, and the signal that the human left. Game-independent."""

from __future__ import annotations

from typing import Callable, Sequence

ADVICE_WORDS = ("?", "a", "advice", "h", "help")
#: The advice words of a game where ``a`` may be an answer (a move's letter, a card's code).
LETTERED_ADVICE_WORDS = ("?", "advice", "h", "help")
QUIT_WORDS = ("q", "quit", "exit")


class TerminalPlayer:
    """A human at the terminal, for every game: ``read(prompt)`` returns a line
    (``input`` at the terminal, a list of lines in the tests), ``write(text)``
    shows one; ``advisor`` is the game's advice (None: none), ``always_advise``
    shows it at every choice (``--hints``). The game's subclass asks."""

    def __init__(self, name: str = "you", read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, advisor=None,
                 always_advise: bool = False):
        self.name = name
        self.read = read
        self.write = write
        self.advisor = advisor
        self.always_advise = always_advise

    def advise(self, *context) -> None:
        """Write the advisor's ``lines(*context)`` for this choice, or that
        there is no advice."""
        if self.advisor is None:
            self.write("no advice available")
            return
        for line in self.advisor.lines(*context):
            self.write(line)


class QuitGame(BaseException):
    """The human left (``q`` or end of input). A BaseException, so that the
    game's check of bot answers does not count it as an illegal action."""


def choose_words(n: int) -> tuple[str, str]:
    """How to ask for one of ``n`` numbered choices, and how to ask again:
    ``("choose 1-3", "please answer 1-3")``; with one choice ``("press 1, the
    only choice", "please answer 1")``."""
    if n == 1:
        return "press 1, the only choice", "please answer 1"
    return f"choose 1-{n}", f"please answer 1-{n}"


def ask_choice(read: Callable[[str], str], write: Callable[[str], None], prompt: str,
               choices: tuple, letters: dict, advise: Callable[[], None], retry: str,
               advice_words: tuple[str, ...] = ADVICE_WORDS):
    """Read answers until one picks an action: a number 1..len(choices), one of
    ``letters`` (e.g. ``b`` -> bank), ``?`` (any of ``advice_words``) for
    ``advise()``; ``q`` or end of input leaves the game (:class:`QuitGame`);
    anything else repeats ``retry``. A game that labels its choices a, b, c
    passes ``advice_words`` without ``a``."""
    while True:
        try:
            line = read(prompt)
        except EOFError:
            raise QuitGame("input ended") from None
        answer = line.strip().lower()
        if answer in QUIT_WORDS:
            raise QuitGame("you left the game")
        if answer in advice_words:
            advise()
            continue
        if answer in letters:
            return letters[answer]
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1]
        write(retry)


def seat_table(players, human_type: type, engine_of, write: Callable[[str], None],
               action: str = "action") -> tuple[int, list]:
    """A table with a human at the terminal: the seat of the one ``human_type``
    among ``players`` (ValueError if there is not exactly one) and each
    player's engine, ``engine_of(player, report)``; a ``py:`` bot's illegal
    answer is a warning line and its first legal ``action`` is played."""
    humans = [j for j, p in enumerate(players) if isinstance(p, human_type)]
    if len(humans) != 1:
        raise ValueError(f"a game at the terminal needs one human player, not {len(humans)}")
    warn = lambda text: write(f"warning: {text}; the first legal {action} is played")  # noqa: E731
    return humans[0], [engine_of(p, warn) for p in players]


class InteractiveTable:
    """A game with a human at the terminal, told by a narrator:
    ``Game(players, config, seed, write).play()``. ``players`` are parsed bots
    and one of the game's ``human`` type; the subclass names it, its
    ``narrator_type`` (made with the rules, the players' names, the human's
    seat and ``write``; the human player gets it), ``engine_of`` (a
    staticmethod, :func:`seat_table`) and the word for an ``action``."""

    human: type
    narrator_type: type
    action = "action"

    def __init__(self, players: Sequence, config, seed: int, write: Callable[[str], None]):
        self.rules = config.rules
        self.seed = seed
        self.write = write
        human, self.engines = seat_table(players, self.human, self.engine_of, write, self.action)
        self.narrator = self.narrator_type(self.rules, [p.name for p in players], human, write)
        players[human].narrator = self.narrator

    def standing(self) -> str:
        """The score so far in the game's words (the narrator's ``standing``),
        for a game the human leaves before its end."""
        return self.narrator.standing()
