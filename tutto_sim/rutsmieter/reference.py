"""Reference Rutsmieter engine: the rules of ``rutsmieter.rules`` in plain Python.

Second link of the game's chain (rules → reference → kernel → solo). Written
to be read against docs/rutsmieter.md, not to be fast: the numba kernel
(``rutsmieter.kernel``) plays the same games, and the tests demand identical
throws, moves and results on the same seeds.

Board and moves
---------------
:class:`Board` holds every piece's position counted from its owner's start
square (house ``-1``, ring ``0..39``, goal lane ``40..43``). A :class:`Move`
names the piece, where it starts and ends, and the piece it captures.
:func:`legal_moves` lists the moves of a throw after the obligations, in
piece order; leaving the house is one move, made by the lowest-numbered piece
in the house. :func:`apply_move` makes a move.

Random numbers
--------------
Game ``i`` of a run with seed ``s`` reads stream ``(s, i)`` of
``tutto_sim.core.rng`` and nothing else does. Per throw, in this order:

1. the die: ``below(6) + 1``;
2. only when the player's bot is a *chance* bot (``random``) and the throw
   leaves two or more moves: ``below(len(moves))``, handed to the bot as
   :attr:`Observation.chance`; ``random`` plays ``moves[chance]``.

Bots see an :class:`Observation` (the board as tuples, the die, the legal
moves, the draw above), never the stream.

Built-in bots
-------------
- ``random``: ``moves[chance]``, uniform among the moves the obligations leave;
- ``first``: the piece furthest along (largest start position; the house is
  ``-1``, the goal lane beyond the ring);
- ``last``: the piece least far along;
- ``aggressive``: a capturing move if there is one — the one whose victim is
  furthest along in its own count, then the furthest own piece; else ``first``;
- ``defensive``: least *exposure* after the move, then ``first``. Exposure
  is summed over the own pieces on the ring: for a piece on ring square
  ``r`` and each opponent, the opponent's ring pieces at ``1..6`` squares
  behind ``r`` counted along that opponent's walk (so a piece about to enter
  its goal lane is no threat past it), plus 1 if ``r`` is that opponent's
  start square and it has a piece in the house. Goal-lane pieces are safe.

Game end and counting
---------------------
A *throw* is one die roll, a *turn* all throws of one player before the
next player's. The game ends when a player has all pieces in the goal lane
(with ``play_to_third``: when one player is left). :data:`MAX_THROWS` is a
safety net, not a rule: a game reaching it ends unfinished (``capped``) and
the players still playing are placed as the losers are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

from tutto_sim.core.api import timed
from tutto_sim.core.rng import Stream

from .rules import (
    FIRST_GOAL,
    HOUSE,
    LAST_POSITION,
    PIECES,
    RING,
    SEAT_SPACING,
    THREE_THROWS,
    RutsmieterRules,
)

#: Safety net on the throws of one game (a real game takes a few hundred).
MAX_THROWS = 100_000
#: Built-in bots, in the order of their kernel ids.
BOT_NAMES = ("random", "first", "last", "aggressive", "defensive")
#: Per-player statistics of a game record, in this order (the kernel's too).
STAT_NAMES = ("throws", "turns", "moves", "captures", "lost", "sixes", "passes")


class Move(NamedTuple):
    """One legal move: ``piece`` walks from ``start`` to ``end`` (own count);
    ``victim`` is ``(player, piece)`` of the captured piece, or None."""

    piece: int
    start: int
    end: int
    victim: tuple[int, int] | None = None

    @property
    def captures(self) -> bool:
        return self.victim is not None


@dataclass
class Board:
    """Positions of every piece: ``pieces[player][k]`` counted from the
    player's own start square; ``seats[player]`` is the player's board seat."""

    seats: tuple[int, ...]
    pieces: list[list[int]]

    @classmethod
    def start(cls, seats: Sequence[int], n_pieces: int = PIECES) -> "Board":
        return cls(tuple(seats), [[HOUSE] * n_pieces for _ in seats])

    def copy(self) -> "Board":
        return Board(self.seats, [list(p) for p in self.pieces])

    def ring_square(self, player: int, x: int) -> int:
        """Ring square of the player's position ``x`` (``0 <= x <= 39``)."""
        return (x + SEAT_SPACING * self.seats[player]) % RING

    def own_position(self, player: int, square: int) -> int:
        """The player's own count of ring square ``square``."""
        return (square - SEAT_SPACING * self.seats[player]) % RING

    def on_ring_square(self, square: int) -> tuple[int, int] | None:
        """The ``(player, piece)`` on a ring square, or None."""
        for p in range(len(self.seats)):
            for k, x in enumerate(self.pieces[p]):
                if 0 <= x < RING and self.ring_square(p, x) == square:
                    return p, k
        return None

    def in_goal(self, player: int) -> int:
        return sum(x >= FIRST_GOAL for x in self.pieces[player])

    def finished(self, player: int) -> bool:
        return all(x >= FIRST_GOAL for x in self.pieces[player])

    def progress(self, player: int) -> int:
        return sum(self.pieces[player])


# -- moves ---------------------------------------------------------------------------


def _victim(board: Board, player: int, end: int) -> tuple[int, int] | None:
    if end >= RING:  # goal lanes are private
        return None
    hit = board.on_ring_square(board.ring_square(player, end))
    return hit if hit is not None and hit[0] != player else None


def possible_moves(board: Board, player: int, die: int, rules: RutsmieterRules) -> list[Move]:
    """The moves the board allows for a throw, before the obligations, in piece order."""
    own = board.pieces[player]
    moves = []
    left = False
    for k, x in enumerate(own):
        if x == HOUSE:
            # One move however many pieces wait: the lowest-numbered one leaves.
            if die == 6 and not left and 0 not in own:
                moves.append(Move(k, HOUSE, 0, _victim(board, player, 0)))
                left = True
            continue
        end = x + die
        if end > LAST_POSITION or end in own:
            continue
        if rules.goal_no_jump and end >= FIRST_GOAL:
            if any(max(x, FIRST_GOAL - 1) < y < end for y in own):
                continue
        moves.append(Move(k, x, end, _victim(board, player, end)))
    return moves


def legal_moves(board: Board, player: int, die: int, rules: RutsmieterRules) -> list[Move]:
    """The moves the player may make: :func:`possible_moves` narrowed by the
    obligations in their order (leave the house, clear the start square,
    capture), each one only where it applies."""
    moves = possible_moves(board, player, die, rules)
    waiting = HOUSE in board.pieces[player]
    if rules.must_leave_house and waiting:
        leaving = [m for m in moves if m.start == HOUSE]
        if leaving:  # only with a 6 and a free start square
            moves = leaving
        else:
            clearing = [m for m in moves if m.start == 0]
            if clearing:
                moves = clearing
    if rules.must_capture:
        capturing = [m for m in moves if m.captures]
        if capturing:
            moves = capturing
    return moves


def only_six_helps(board: Board, player: int, rules: RutsmieterRules) -> bool:
    """True when no throw of 1-5 gives a legal move: the player may throw three times."""
    return not any(possible_moves(board, player, d, rules) for d in range(1, 6))


def apply_move(board: Board, player: int, move: Move) -> None:
    """Make ``move`` on ``board``: the piece walks, a captured piece goes home."""
    if move.victim is not None:
        vp, vk = move.victim
        board.pieces[vp][vk] = HOUSE
    board.pieces[player][move.piece] = move.end


# -- bots ------------------------------------------------------------------------------


class Observation(NamedTuple):
    """What a bot sees when it must choose: never the random stream."""

    seats: tuple[int, ...]
    pieces: tuple[tuple[int, ...], ...]
    player: int
    die: int
    moves: tuple[Move, ...]
    #: ``random``'s draw ``below(len(moves))``; -1 for other bots or a single move.
    chance: int = -1

    def board(self) -> Board:
        return Board(self.seats, [list(p) for p in self.pieces])


@dataclass(frozen=True)
class Bot:
    """A bot: ``choose(observation)`` returns the index of its move in
    ``observation.moves``. ``chance`` bots get the engine's draw (module docstring)."""

    name: str
    choose: Callable[[Observation], int]
    chance: bool = False


def _furthest(moves: Sequence[Move]) -> int:
    return max(range(len(moves)), key=lambda i: moves[i].start)


def exposure(board: Board, player: int) -> int:
    """Threats to the player's ring pieces: opponent pieces 1-6 squares behind
    along the opponent's own walk, plus an opponent's house on its start square."""
    return sum(threats(board, player, board.ring_square(player, x))
               for x in board.pieces[player] if 0 <= x < RING)


def threats(board: Board, player: int, square: int) -> int:
    """Opponent pieces that could land on ring ``square`` with one throw (and
    opponents whose start square it is, with a piece in the house)."""
    return sum(threats_by(board, o, square) for o in range(len(board.seats)) if o != player)


def threats_by(board: Board, o: int, square: int) -> int:
    """Pieces of player ``o`` that could land on ring ``square`` with one throw
    (1-6 squares behind it along o's walk), plus 1 if it is o's start square
    while o has a piece in the house."""
    target = board.own_position(o, square)
    total = sum(1 for q in board.pieces[o] if 0 <= q < RING and 1 <= target - q <= 6)
    return total + int(target == 0 and HOUSE in board.pieces[o])


def _random(obs: Observation) -> int:
    return max(obs.chance, 0)


def _first(obs: Observation) -> int:
    return _furthest(obs.moves)


def _last(obs: Observation) -> int:
    return min(range(len(obs.moves)), key=lambda i: obs.moves[i].start)


def _aggressive(obs: Observation) -> int:
    capturing = [i for i, m in enumerate(obs.moves) if m.captures]
    if not capturing:
        return _furthest(obs.moves)
    board = obs.board()

    def damage(i: int) -> tuple[int, int]:
        vp, vk = obs.moves[i].victim
        return board.pieces[vp][vk], obs.moves[i].start

    return max(capturing, key=damage)


def _defensive(obs: Observation) -> int:
    def key(i: int) -> tuple[int, int]:
        after = obs.board()
        apply_move(after, obs.player, obs.moves[i])
        return exposure(after, obs.player), -obs.moves[i].start

    return min(range(len(obs.moves)), key=key)


BOTS = {
    "random": Bot("random", _random, chance=True),
    "first": Bot("first", _first),
    "last": Bot("last", _last),
    "aggressive": Bot("aggressive", _aggressive),
    "defensive": Bot("defensive", _defensive),
}
assert tuple(BOTS) == BOT_NAMES


def get_bot(bot: str | Bot) -> Bot:
    if isinstance(bot, Bot):
        return bot
    if bot not in BOTS:
        raise ValueError(f"unknown Rutsmieter bot {bot!r}; valid: {', '.join(BOT_NAMES)}")
    return BOTS[bot]


# -- whole games -------------------------------------------------------------------------


class ThrowSeen(NamedTuple):
    """What ``play_game(observe=...)`` hears after every throw (the terminal
    game narrates it): the legal moves, the move made (None: the throw
    passed), the board after it (read it, do not change it), and the throw's
    place in its run (``attempt`` of ``tries``: 3 tries when only a 6 helps)."""

    player: int
    die: int
    moves: tuple[Move, ...]
    move: Move | None
    board: Board
    attempt: int
    tries: int


class Throw(NamedTuple):
    """One throw of a game's log: ``piece`` is -1 when the throw passed."""

    player: int
    die: int
    piece: int
    end: int


@dataclass
class GameRecord:
    """A finished game. ``places[j]`` is player j's place (1 = best; equal
    places are shared and the next place is skipped, as 1, 2, 2, 4);
    ``stats[j]`` counts :data:`STAT_NAMES` for player j."""

    winner: int
    places: tuple[int, ...]
    throws: int
    turns: int
    stats: list[dict[str, int]]
    finish_order: list[int]
    capped: bool
    log: list[Throw] = field(repr=False, default_factory=list)
    board: Board | None = field(repr=False, default=None)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner as the shared commands read it: ``(winner,)``, or ``()`` if capped."""
        return (self.winner,) if self.winner >= 0 else ()


def rank_unfinished(board: Board, players: Sequence[int], first_place: int) -> dict[int, int]:
    """Places of players still playing: by pieces in the goal lane, then by
    progress; equal both share a place (competition ranking)."""
    key = {p: (board.in_goal(p), board.progress(p)) for p in players}
    return {p: first_place + sum(key[q] > key[p] for q in players) for p in players}


def play_game(bots: Sequence[str | Bot], rules: RutsmieterRules = RutsmieterRules(),
              seed: int = 0, game_index: int = 0, seats: Sequence[int] | None = None,
              board: Board | None = None, first_player: int = 0,
              observe: Callable[[ThrowSeen], None] | None = None) -> GameRecord:
    """Play game ``game_index`` of a run with ``seed``: ``bots[j]`` plays for player j.

    ``seats`` overrides the rules' seats (the solo analysis plays one player at
    seat 0). ``board`` starts from a given position instead of all pieces in
    the house, ``first_player`` throws first, at the start of a run of throws
    (after a 6 the same player simply throws again, a fresh run: so the
    position and the player to move are the whole state). A player whose
    pieces are all in the goal lane on ``board`` has finished already: out of
    play, placed before the others in player order (with ``play_to_third``;
    without it the game is over before the first throw). ``observe``, if
    given, hears every throw (:class:`ThrowSeen`); it draws nothing from the
    stream, so the games are the same with or without it.
    """
    seats = tuple(seats) if seats is not None else rules.seats
    n = len(seats)
    players = [get_bot(b) for b in bots]
    if len(players) != n:
        raise ValueError(f"{n} players need {n} bots, not {len(players)}")
    board = board.copy() if board is not None else Board.start(seats)
    stream = Stream(seed, game_index)
    stats = [dict.fromkeys(STAT_NAMES, 0) for _ in range(n)]
    log: list[Throw] = []
    finish_order = [p for p in range(n) if board.finished(p)]
    active = [p for p in range(n) if p not in finish_order]
    if first_player not in active:
        raise ValueError(f"first_player must be a player still playing ({active}), "
                         f"not {first_player!r}")
    throws = turns = 0
    player = first_player

    def game_over() -> bool:
        return len(finish_order) >= (n - 1 if rules.play_to_third else 1) or throws >= MAX_THROWS

    while not game_over():
        turns += 1
        stats[player]["turns"] += 1
        turn_over = False
        while not turn_over and not game_over():
            # The three-throws rule is checked before every run, also after a 6.
            tries = THREE_THROWS if only_six_helps(board, player, rules) else 1
            for attempt in range(1, tries + 1):
                die = stream.below(6) + 1
                throws += 1
                st = stats[player]
                st["throws"] += 1
                st["sixes"] += die == 6
                moves = legal_moves(board, player, die, rules)
                if not moves:
                    st["passes"] += 1
                    log.append(Throw(player, die, -1, -1))
                    if observe is not None:
                        observe(ThrowSeen(player, die, (), None, board, attempt, tries))
                else:
                    bot = players[player]
                    chance = stream.below(len(moves)) if bot.chance and len(moves) > 1 else -1
                    obs = Observation(seats, tuple(map(tuple, board.pieces)), player, die,
                                      tuple(moves), chance)
                    move = moves[timed(bot.name, bot.choose, obs)]  # core.api.timing
                    apply_move(board, player, move)
                    st["moves"] += 1
                    if move.victim is not None:
                        st["captures"] += 1
                        stats[move.victim[0]]["lost"] += 1
                    log.append(Throw(player, die, move.piece, move.end))
                    if observe is not None:
                        observe(ThrowSeen(player, die, obs.moves, move, board, attempt, tries))
                    if board.finished(player):
                        finish_order.append(player)
                        active.remove(player)
                        turn_over = True
                        break
                if game_over():
                    break
                if die == 6:
                    break  # after every 6 the same player throws again
            else:
                turn_over = True  # the run ended without a 6
        if game_over():
            break
        # Next player clockwise who is still playing.
        player = min((p for p in active if p > player), default=active[0])

    places = {p: i + 1 for i, p in enumerate(finish_order)}
    rest = [p for p in range(n) if p not in places]
    places.update(rank_unfinished(board, rest, len(finish_order) + 1))
    return GameRecord(
        winner=finish_order[0] if finish_order else -1,
        places=tuple(places[p] for p in range(n)),
        throws=throws, turns=turns, stats=stats, finish_order=finish_order,
        capped=throws >= MAX_THROWS and len(finish_order) < (n - 1 if rules.play_to_third else 1),
        log=log, board=board,
    )
