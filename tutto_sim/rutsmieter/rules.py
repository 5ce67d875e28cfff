"""Rutsmieter's rules as one frozen settings object (docs/rutsmieter.md).

Rutsmieter is a Ludo ("Mensch ärgere dich nicht") with house rules. This
module is the first link of the game's chain: rules → ``reference`` (the
readable engine) → ``kernel`` (the numba twin) → ``solo`` (the exact solver
that checks both). Every option is a field here, with its default; the docs
give the reason for each default.

The game, as states and moves
-----------------------------
*Players and seats.* ``n`` players (2, 3 or 4) sit at seats ``S(n)``:
``S(2) = (0, 2)`` (opposite), ``S(3) = (0, 1, 2)``, ``S(4) = (0, 1, 2, 3)``.
Player ``j`` sits at seat ``S(n)[j]``; player 0 begins, play goes clockwise.

*State.* Each player owns 4 pieces; a piece's position ``x`` is counted from
its owner's start square: ``x = -1`` is the house, ``0 ≤ x ≤ 39`` the ring,
``40 ≤ x ≤ 43`` the goal lane. A ring position ``x`` of the player at seat
``s`` is ring square ``(x + 10 s) mod 40``; ring square ``10 s`` is that
player's **start square**. Every ring square and goal square holds at most one
piece. The state is all positions plus whose turn it is.

*Moves.* A throw ``d ∈ {1..6}`` allows, for the player to move:

- *leave the house*: ``d = 6``, some piece at ``-1``, no own piece at ``0``:
  one piece goes to ``0`` (one move, whichever piece leaves);
- *walk*: a piece at ``x ≥ 0`` goes to ``x + d`` if ``x + d ≤ 43`` (exact
  into the goal) and no own piece stands at ``x + d``. With ``goal_no_jump``
  no own piece may stand on a goal square strictly between ``x`` and
  ``x + d``.

Landing on another player's piece (also when leaving the house) **captures**
it: it goes back to its house. The obligations then narrow the legal set
``M``, one after another, each only where it applies:

1. leave the house (``must_leave_house``): if ``d = 6`` and leaving is in
   ``M``, ``M = {leave}``;
2. clear the start square (``must_leave_house``): if a piece waits in the
   house and the own piece on ``0`` can walk, ``M = {that walk}`` (every
   throw, 6s included);
3. capture (``must_capture``): if some move in ``M`` captures, ``M`` = the
   capturing moves.

*Throws and turns.* After every 6 the same player throws again. Before every
run of throws (also the one after a 6): if no ``d ∈ {1..5}`` gives a legal
move, the player throws up to three times until a 6 comes. ``M = ∅`` passes
the throw.

*End.* The first player with all four pieces at ``40..43`` wins. The others
are placed by pieces in the goal lane, then by progress ``Σ x`` (house
``-1``); equal both share a place. With ``play_to_third`` the others play on
until one player is left, places going by finishing order.

Examples
--------
>>> RutsmieterRules().players
4
>>> RutsmieterRules(players=2).seats
(0, 2)
>>> RutsmieterRules(goal_no_jump=True).digest() != RutsmieterRules().digest()
True
>>> RutsmieterRules(players=5)
Traceback (most recent call last):
...
ValueError: players must be one of 2, 3, 4, not 5
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from tutto_sim.core.rules import GameRules

#: Pieces per player.
PIECES = 4
#: Squares of the ring, and squares between two neighbouring start squares.
RING = 40
SEAT_SPACING = 10
#: Goal lane length; the last position a piece can reach.
GOAL_LANE = 4
FIRST_GOAL = RING  # 40
LAST_POSITION = RING + GOAL_LANE - 1  # 43
#: Position of a piece in its house.
HOUSE = -1
#: Throws a player may take in a row when only a 6 could help.
THREE_THROWS = 3

PLAYER_CHOICES = (2, 3, 4)
#: The board seats used for each table size (seat s has its start at 10*s).
SEATS = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
#: The house rules, each on or off (a rule flag each: ``rutsmieter.entry``).
HOUSE_RULES = ("must_leave_house", "must_capture", "goal_no_jump", "play_to_third")


@dataclass(frozen=True)
class RutsmieterRules(GameRules):
    """Settings of a Rutsmieter game; defaults are the seed's (docs/rutsmieter.md).

    ``players`` defaults to 4, the full board the game is drawn for; the
    house rules default to the host's defaults of the original rule text.
    """

    GAME = "rutsmieter"
    TITLE = "Rutsmieter"

    #: Table size: 2 (seats 0 and 2), 3 (seats 0, 1, 2) or 4.
    players: int = 4
    #: Ruttreck-Plicht: a 6 must bring a piece out, and a piece on the own
    #: start square must move first while pieces wait in the house.
    must_leave_house: bool = True
    #: Slaagdwang: if a move captures, a capturing move must be made.
    must_capture: bool = True
    #: In the goal lane (also when entering it) no jumping over own pieces.
    goal_no_jump: bool = False
    #: After the first winner the others play on for the places.
    play_to_third: bool = False

    def __post_init__(self) -> None:
        self.check_choice("players", PLAYER_CHOICES)
        self.check_flags(*HOUSE_RULES)

    @property
    def seats(self) -> tuple[int, ...]:
        """Board seats of players 0..n-1."""
        return SEATS[self.players]

    def to_dict(self) -> dict:
        return {"game": "rutsmieter", **asdict(self)}


def table_rules(rules: RutsmieterRules, players: int) -> RutsmieterRules:
    """The rules for a table of ``players`` (``--players``): 2, 3 or 4 (one line otherwise)."""
    from tutto_sim.core.cli import UserError

    if players not in PLAYER_CHOICES:
        raise UserError(f"--players must be 2, 3 or 4 for Rutsmieter, not {players}")
    return replace(rules, players=players)
