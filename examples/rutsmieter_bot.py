"""A small Rutsmieter bot in plain Python: capture, bring pieces home, stay out of reach.

Play it in a tournament or against it at the terminal:

    tutto-sim tournament --game rutsmieter --players 2 --bots py:examples/rutsmieter_bot.py:Careful,first
    tutto-sim play --game rutsmieter --bots py:examples/rutsmieter_bot.py:Careful,tuned

The engine calls ``act(obs)`` at every throw that leaves a move and plays the
move whose index it returns (docs/rutsmieter.md, "Python bots"). ``obs`` is
tutto-sim's ``Observation``:

- ``obs.seats``: each player's board seat (seat s starts at ring square 10·s);
- ``obs.pieces[p]``: player p's four positions in p's own count: -1 the house,
  0-39 the ring from p's start square, 40-43 p's goal lane;
- ``obs.player``: who moves (this bot), ``obs.die``: the throw;
- ``obs.moves``: the legal moves after the obligations, each with ``piece``,
  ``start``, ``end`` (own count) and ``victim`` (``(player, piece)`` or None).

This file imports nothing from tutto-sim: the board's geometry is three lines.
"""

RING = 40  # squares of the ring
SPACING = 10  # squares between two start squares
GOAL = 40  # first goal-lane position
HOUSE = -1


def ring_square(seat: int, x: int) -> int:
    """The ring square of position ``x`` (0-39) of the player at ``seat``."""
    return (x + SPACING * seat) % RING


def threats(obs, square: int) -> int:
    """Opponent pieces that could land on ring ``square`` with their next throw:
    1-6 squares behind it along their own walk (a piece never walks past its
    position 39), plus an opponent who could leave its house onto it."""
    count = 0
    for p, pieces in enumerate(obs.pieces):
        if p == obs.player:
            continue
        target = (square - SPACING * obs.seats[p]) % RING  # the square in p's own count
        count += sum(1 for x in pieces if 0 <= x < RING and 1 <= target - x <= 6)
        if target == 0 and HOUSE in pieces:
            count += 1
    return count


class Careful:
    """Captures first (the victim furthest along), then brings a piece into the
    goal lane, then makes the move that leaves the moved piece least exposed
    (rescuing a threatened piece counts for it); ties go to the piece furthest
    along."""

    name = "careful"

    def value(self, obs, move) -> tuple:
        seat = obs.seats[obs.player]
        captured = obs.pieces[move.victim[0]][move.victim[1]] if move.victim else -2
        home = move.start < GOAL <= move.end
        before = threats(obs, ring_square(seat, move.start)) if 0 <= move.start < RING else 0
        after = threats(obs, ring_square(seat, move.end)) if move.end < GOAL else 0
        return (move.victim is not None, captured, home, before - after, move.start)

    def act(self, obs) -> int:
        return max(range(len(obs.moves)), key=lambda i: self.value(obs, obs.moves[i]))
