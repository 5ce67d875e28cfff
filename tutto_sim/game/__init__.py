"""Full games for N players, bots and tournaments (layer ``game`` of STYLE.md).

Data flows ``rules -> tables -> kernels -> policy -> game``: a game reads the
rules, plays turns with the throw tables, and lets bots decide, bots being
policy tables (``policy``) or any Python object with ``act(decision)``.

- ``api``: the bot protocol (:class:`Bot`, :class:`Decision`, :class:`Keep`).
- ``tutto``: the readable reference game (any bot).
- ``tutto_kernel``: the numba game kernel (table and threshold bots), its twin.
- ``bots``: the bots and their specs (``optimal``, ``threshold:350``, ...).
- ``tournament``: seat rotation, win rates with CIs, pairwise tables.
- ``analysis``: first-player advantage by table size; optimal vs the best threshold.
- ``human``: a human at the terminal, with the table's advice.

- ``macke``, ``macke_kernel``: Berliner Macke and Volle Lotte, the same pair.

Games are addressed by name (:data:`GAMES`).
"""

from .api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, STREET, THROW, Bot, Decision, GameView, IllegalAction, Keep
from .macke import MackeConfig, play_macke_game
from .tutto import GameConfig, GameRecord, TuttoGame, play_game

#: Games that can be played whole.
GAMES = ("tutto", "macke", "volle-lotte")

__all__ = [
    "BANK", "BANK_OR_DRAW", "BANK_OR_THROW", "DRAW", "GAMES", "KEEP", "STREET", "THROW",
    "Bot", "Decision", "GameConfig", "GameRecord", "GameView", "IllegalAction", "Keep",
    "MackeConfig", "TuttoGame", "play_game", "play_macke_game",
]
