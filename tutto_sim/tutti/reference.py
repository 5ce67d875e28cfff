"""Reference Tutti engine: the rules of ``tutti.rules`` in plain Python.

Second link of the game's chain (rules → reference → kernels and search bots
later). Written to be read against docs/tutti.md, not to be fast; the state
is small integer data (card ids 0..39, hands as 40-bit masks, the stock as a
list of ids) so that a numba kernel can mirror it field by field.

API (in the style of OpenSpiel)
-------------------------------
:func:`deal` makes the :class:`State` of a new hand; :func:`legal_actions`
``(state, seat)`` lists what that seat may do now (nothing unless it is the
seat to move); :func:`apply` makes one action; :func:`is_over`,
:func:`scores` and :func:`returns` read a finished hand; :func:`observe`
builds the :class:`Observation` of one seat, the only thing a bot sees.
:func:`play_hand` and :func:`play_match` play whole hands and matches.

Actions are small named tuples, each with a ``kind`` field so that equal
arguments of different kinds never compare equal: :class:`Play` (a card),
:class:`Exchange` (give the own trump 7 or 2 for the face-up trump card),
:class:`Declare` (the King and Horse of a suit: 40 in trumps, else 20),
:class:`Tute` (four Kings or four Horses) and :class:`Pass` (a partner who
does not declare). :func:`encode` maps them to integers 0..86 for a kernel.

Turns
-----
The declaration *moment* opens for the side that wins a trick (after the
draw with 2 players) and closes when the next card is played or a
declaration is made. The trick's winner leads next; at his turn he may
exchange (2 players), declare and then play a card, in any order, each
action one call of :func:`apply`. With ``pairs``, if the winner's partner
has a legal declaration, the partner is asked first (phase ``DECLARE``: a
declaration or :class:`Pass`); if he passes the winner may still declare.

Random numbers
--------------
Hand ``i`` of a run with seed ``s`` is dealt from stream ``(s, i)`` of
``tutto_sim.core.rng``: a Fisher–Yates shuffle of the deck in ascending id
order (``j = below(k + 1)`` for ``k`` from the last position down to 1, swap
positions ``k`` and ``j``); nothing else reads that stream. A ``random``
bot of seat ``p`` draws from its own stream ``(stream_start(s, i), p + 1)``.
Hand ``j`` of match ``m`` (replays included) is hand ``j`` of the run with
seed ``stream_start(s, m)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

from tutto_sim.core.api import ask
from tutto_sim.core.rng import Stream, stream_start

from .cards import (
    HIGH_RANKS,
    HORSE,
    KING,
    LAST_TRICK,
    LOW_RANKS,
    N_SUITS,
    POINTS,
    SEVEN,
    SUIT_MASK,
    TWO,
    bit,
    card,
    cards_of,
    deck,
    mask,
    rank,
    stronger_in_suit,
    suit,
)
from .rules import TuttiRules

#: Phases of a hand.
PLAY, DECLARE, OVER = 0, 1, 2
#: Safety net on the hands of one match (ties replay; a real match takes a few).
MAX_HANDS = 1000
#: The built-in bots (``tutti.bots``), by their kernel ids (``tutti.kernel``).
BOT_NAMES = ("random", "heuristic")


# -- actions ---------------------------------------------------------------------------


class Play(NamedTuple):
    """Play ``card`` to the trick."""

    card: int
    kind: str = "play"


class Exchange(NamedTuple):
    """Give the own trump 7 or 2 (``card``) for the face-up trump card."""

    card: int
    kind: str = "exchange"


class Declare(NamedTuple):
    """Declare the King and Horse of ``suit``: 40 in the trump suit, else 20."""

    suit: int
    kind: str = "declare"


class Tute(NamedTuple):
    """Declare all four cards of ``rank`` (KING or HORSE)."""

    rank: int
    kind: str = "tute"


class Pass(NamedTuple):
    """A partner's answer when he does not declare."""

    kind: str = "pass"


Action = Play | Exchange | Declare | Tute | Pass


def encode(action: Action) -> int:
    """Integer id of an action: play 0..39, exchange 40..79, declare 80..83,
    Tute 84 (Kings) / 85 (Horses), pass 86."""
    if action.kind == "play":
        return action.card
    if action.kind == "exchange":
        return 40 + action.card
    if action.kind == "declare":
        return 80 + action.suit
    if action.kind == "tute":
        return 84 if action.rank == KING else 85
    return 86


def decode(a: int) -> Action:
    """The action of an integer id (inverse of :func:`encode`)."""
    if a < 40:
        return Play(a)
    if a < 80:
        return Exchange(a - 40)
    if a < 84:
        return Declare(a - 80)
    if a < 86:
        return Tute(KING if a == 84 else HORSE)
    return Pass()


# -- public records ----------------------------------------------------------------------


class Trick(NamedTuple):
    """A finished trick: ``plays`` are ``(seat, card)`` in order."""

    plays: tuple[tuple[int, int], ...]
    winner: int


class Declaration(NamedTuple):
    """A declaration: ``suit`` (-1 for a Tute, then ``rank`` tells which) and points."""

    seat: int
    suit: int
    points: int
    trick: int  # number of tricks finished when it was made
    rank: int = -1


class ExchangeRecord(NamedTuple):
    seat: int
    given: int
    taken: int


# -- state ---------------------------------------------------------------------------------


@dataclass
class State:
    """One hand in progress. Hands are masks; ``stock`` is the 2-player
    stock in drawing order (``stock[-1]`` the face-up trump card), ``drawn``
    how many of its cards are gone. ``known``/``excluded`` are public
    knowledge per seat: cards known to be in, and known not to be in, the
    seat's hand (docs: Information)."""

    rules: TuttiRules
    dealer: int
    first_leader: int
    hands: list[int]
    stock: list[int]
    drawn: int
    trump_suit: int
    shown: int  # 3-4 players: the dealer's shown card; 2 players: the first face-up card
    leader: int
    to_move: int
    phase: int = PLAY
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    card_points: list[int] = field(default_factory=list)  # per seat, last trick included
    decl_points: list[int] = field(default_factory=list)  # per seat
    declared: list[int] = field(default_factory=lambda: [-1] * N_SUITS)  # seat per suit
    declarations: list[Declaration] = field(default_factory=list)
    exchanges: list[ExchangeRecord] = field(default_factory=list)
    just_drawn: list[int] = field(default_factory=list)
    moment: int = -1  # the seat that won the last trick while its moment is open
    tute: int = -1
    last_trick: int = -1
    known: list[int] = field(default_factory=list)
    excluded: list[int] = field(default_factory=list)
    log: list[tuple[int, Action]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.rules.players
        for name in ("won", "card_points", "decl_points", "known", "excluded"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        if not self.just_drawn:
            self.just_drawn = [-1] * n

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.drawn

    @property
    def trump_card(self) -> int:
        """The face-up trump card under the stock (2 players), -1 once drawn;
        with 3-4 players the dealer's shown card while he still holds it."""
        if self.n == 2:
            return self.stock[-1] if self.stock_size else -1
        return self.shown if self.hands[self.dealer] >> self.shown & 1 else -1

    def copy(self) -> "State":
        s = State(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        for name in ("hands", "stock", "trick", "tricks", "won", "card_points", "decl_points",
                     "declared", "declarations", "exchanges", "just_drawn", "known",
                     "excluded", "log"):
            setattr(s, name, list(getattr(self, name)))
        return s

    def __deepcopy__(self, memo) -> "State":
        # copy() is a deep copy (the lists hold ints and immutable tuples, the
        # rules are frozen), twenty times faster than the generic one, which
        # OpenSpiel's clone of a state (tutti.openspiel_game) would use
        return self.copy()


def deal(rules: TuttiRules = TuttiRules(), seed: int = 0, index: int = 0,
         leader: int = 0) -> State:
    """Shuffle and deal hand ``index`` of a run with ``seed`` (module docstring)."""
    n = rules.players
    cards = deck(n)
    stream = Stream(seed, index)
    for k in range(len(cards) - 1, 0, -1):
        j = stream.below(k + 1)
        cards[k], cards[j] = cards[j], cards[k]
    return deal_cards(rules, cards, leader)


def deal_cards(rules: TuttiRules, cards: Sequence[int], leader: int = 0) -> State:
    """Deal a given card order: blocks of a hand each from the leader round to
    the dealer; 2 players: card 17 is the trump card, the stock the rest then it."""
    n, h = rules.players, rules.hand_size
    if sorted(cards) != deck(n):
        raise ValueError(f"a {n}-player deal needs each of the {len(deck(n))} cards once")
    dealer = (leader - 1) % n
    hands = [0] * n
    for k in range(n):
        hands[(leader + k) % n] = mask(cards[k * h:(k + 1) * h])
    if n == 2:
        shown = cards[2 * h]
        stock = list(cards[2 * h + 1:]) + [shown]
    else:
        shown = cards[-1]  # the dealer's last card
        stock = []
    state = State(rules=rules, dealer=dealer, first_leader=leader, hands=hands, stock=stock,
                  drawn=0, trump_suit=suit(shown), shown=shown, leader=leader, to_move=leader)
    if n > 2:
        state.known[dealer] = bit(shown)
    return state


# -- the rules of play -------------------------------------------------------------------


def side(state: State, seat: int) -> int:
    return state.rules.side(seat)


def partner(state: State, seat: int) -> int:
    """The partner's seat with ``pairs``, else -1."""
    return (seat + 2) % 4 if state.rules.pairs else -1


def duties_apply(state: State) -> bool:
    """Must follow / overtake / trump: 3-4 players, or 2 with an empty stock."""
    return state.n > 2 or state.stock_size == 0


def beats(a: int, b: int, trump: int) -> bool:
    """Does card ``a``, played after ``b``, beat ``b`` (``b`` the best so far)?"""
    if suit(a) == suit(b):
        return rank(a) < rank(b)
    return suit(a) == trump


def trick_winner(plays: Sequence[tuple[int, int]], trump: int) -> int:
    """Seat of the winning card: the highest trump, else the highest of the led suit."""
    best_seat, best = plays[0]
    for seat, c in plays[1:]:
        if beats(c, best, trump):
            best_seat, best = seat, c
    return best_seat


def best_of_suit(plays: Sequence[tuple[int, int]], s: int) -> int:
    """The strongest card of suit ``s`` in the plays, -1 if none."""
    found = [c for _, c in plays if suit(c) == s]
    return min(found, key=rank) if found else -1


def legal_cards(state: State, seat: int) -> list[int]:
    """The cards ``seat`` may play now under the duties, ascending."""
    hand = state.hands[seat]
    if not state.trick:
        return cards_of(hand)
    trump = state.trump_suit
    led = suit(state.trick[0][1])
    if not duties_apply(state):
        if state.rules.must_answer_trump and led == trump and hand & SUIT_MASK[trump]:
            return cards_of(hand & SUIT_MASK[trump])
        return cards_of(hand)
    follow = hand & SUIT_MASK[led]
    if follow:
        trump_on_table = led != trump and best_of_suit(state.trick, trump) >= 0
        if not trump_on_table:
            best = best_of_suit(state.trick, led)
            beating = follow & stronger_in_suit(led, rank(best))
            if beating:
                return cards_of(beating)
        return cards_of(follow)
    best_trump = best_of_suit(state.trick, trump)
    limit = rank(best_trump) if best_trump >= 0 else 10
    beating = hand & stronger_in_suit(trump, limit)
    return cards_of(beating) if beating else cards_of(hand)


def legal_exchange(state: State, seat: int) -> list[Exchange]:
    """The trump exchange ``seat`` may make now (0 or 1 action)."""
    if (state.n != 2 or state.phase != PLAY or state.to_move != seat
            or state.stock_size == 0 or state.won[seat] == 0):
        return []
    face = state.stock[-1]
    if rank(face) in HIGH_RANKS:
        give = card(state.trump_suit, SEVEN)
    elif rank(face) in LOW_RANKS:
        give = card(state.trump_suit, TWO)
    else:
        return []
    return [Exchange(give)] if state.hands[seat] >> give & 1 else []


def legal_declarations(state: State, seat: int) -> list[Declare | Tute]:
    """Declarations ``seat`` may make now: Tutes, then the pairs by suit."""
    if state.moment < 0 or side(state, seat) != side(state, state.moment):
        return []
    if state.n == 2 and state.stock_size == 0:
        return []
    hand = state.hands[seat]
    fresh = bit(state.just_drawn[seat]) if state.n == 2 and state.just_drawn[seat] >= 0 else 0
    out: list[Declare | Tute] = []
    made = any(d.seat == seat for d in state.declarations)
    if state.rules.allow_tute and made:
        for r in (KING, HORSE):
            four = mask(card(s, r) for s in range(N_SUITS))
            if hand & four == four and not four & fresh:
                out.append(Tute(r))
    pairs = []
    for s in range(N_SUITS):
        both = bit(card(s, KING)) | bit(card(s, HORSE))
        if state.declared[s] < 0 and hand & both == both and not both & fresh:
            pairs.append(Declare(s))
    if Declare(state.trump_suit) in pairs:  # no 20 while the 40 can be declared
        pairs = [Declare(state.trump_suit)]
    return out + pairs


def legal_actions(state: State, seat: int) -> list[Action]:
    """Everything ``seat`` may do now, in a fixed order: exchange, declarations
    (Tutes first), then cards ascending; in phase DECLARE the declarations and Pass."""
    if state.phase == OVER or seat != state.to_move:
        return []
    if state.phase == DECLARE:
        return [*legal_declarations(state, seat), Pass()]
    return [*legal_exchange(state, seat), *legal_declarations(state, seat),
            *(Play(c) for c in legal_cards(state, seat))]


def is_over(state: State) -> bool:
    return state.phase == OVER


def apply(state: State, action: Action, legal: Sequence[Action] | None = None) -> None:
    """Make ``action`` for the seat to move; ValueError if it is not legal.
    ``legal``: that seat's :func:`legal_actions` here, if the caller has them
    already (the OpenSpiel game does), so that they are not listed twice."""
    seat = state.to_move
    if action not in (legal_actions(state, seat) if legal is None else legal):
        raise ValueError(f"illegal Tutti action {action!r} for seat {seat}")
    state.log.append((seat, action))
    kind = action.kind
    if kind == "play":
        _play(state, seat, action.card)
    elif kind == "exchange":
        face = state.stock[-1]
        state.hands[seat] ^= bit(action.card) | bit(face)
        state.stock[-1] = action.card
        state.known[seat] |= bit(face)
        state.exchanges.append(ExchangeRecord(seat, action.card, face))
    elif kind == "declare":
        s = action.suit
        points = 40 if s == state.trump_suit else 20
        state.declared[s] = seat
        state.decl_points[seat] += points
        state.known[seat] |= bit(card(s, KING)) | bit(card(s, HORSE))
        state.declarations.append(Declaration(seat, s, points, len(state.tricks)))
        _close_moment(state)
    elif kind == "tute":
        state.tute = seat
        four = mask(card(s, action.rank) for s in range(N_SUITS))
        state.known[seat] |= four
        state.declarations.append(Declaration(seat, -1, 0, len(state.tricks), action.rank))
        state.moment = -1
        state.phase = OVER
    else:  # pass
        state.phase = PLAY
        state.to_move = state.leader


def _close_moment(state: State) -> None:
    state.moment = -1
    state.phase = PLAY
    state.to_move = state.leader


def _record_exclusions(state: State, seat: int, c: int) -> None:
    """What a follower's card shows about his hand (Information)."""
    trump = state.trump_suit
    led = suit(state.trick[0][1])
    cs = suit(c)
    ex = 0
    if not duties_apply(state):
        if state.rules.must_answer_trump and led == trump and cs != trump:
            ex = SUIT_MASK[trump]
    elif cs != led:
        ex = SUIT_MASK[led]
        best_trump = best_of_suit(state.trick, trump)
        limit = rank(best_trump) if best_trump >= 0 else 10
        if cs != trump or rank(c) > limit:
            ex |= stronger_in_suit(trump, limit)
    elif not (led != trump and best_of_suit(state.trick, trump) >= 0):
        best = best_of_suit(state.trick, led)
        if rank(c) > rank(best):
            ex = stronger_in_suit(led, rank(best))
    state.excluded[seat] |= ex


def _play(state: State, seat: int, c: int) -> None:
    if state.trick:
        _record_exclusions(state, seat, c)
    state.hands[seat] &= ~bit(c)
    state.known[seat] &= ~bit(c)
    state.trick.append((seat, c))
    state.moment = -1
    if len(state.trick) < state.n:
        state.to_move = (seat + 1) % state.n
        return
    winner = trick_winner(state.trick, state.trump_suit)
    state.won[winner] += 1
    state.card_points[winner] += sum(POINTS[x] for _, x in state.trick)
    state.tricks.append(Trick(tuple(state.trick), winner))
    state.trick = []
    if state.n == 2 and state.stock_size:
        for p in (winner, 1 - winner):
            d = state.stock[state.drawn]
            state.drawn += 1
            state.hands[p] |= bit(d)
            state.just_drawn[p] = d
            if state.drawn == len(state.stock):  # the face-up trump card: seen by all
                state.known[p] |= bit(d)
                state.excluded[p] &= ~bit(d)
            else:
                state.excluded[p] = 0
    if not any(state.hands):
        state.card_points[winner] += LAST_TRICK
        state.last_trick = winner
        state.phase = OVER
        return
    state.leader = state.to_move = winner
    state.moment = winner
    state.phase = PLAY
    mate = partner(state, winner)
    if mate >= 0 and legal_declarations(state, mate):
        state.phase = DECLARE
        state.to_move = mate


def scores(state: State) -> list[int]:
    """Points per side so far: card points (+10 for the last trick) + declarations."""
    out = [0] * state.rules.sides
    for p in range(state.n):
        out[side(state, p)] += state.card_points[p] + state.decl_points[p]
    return out


def hand_winner(state: State) -> int:
    """The side that wins the finished hand, -1 for a tie (the hand is replayed)."""
    if state.tute >= 0:
        return side(state, state.tute)
    sc = scores(state)
    top = max(sc)
    return sc.index(top) if sc.count(top) == 1 else -1


def returns(state: State) -> list[float]:
    """Per seat: 1.0 if the seat's side won the finished hand, else 0.0."""
    w = hand_winner(state) if is_over(state) else -1
    return [1.0 if w >= 0 and side(state, p) == w else 0.0 for p in range(state.n)]


# -- what a seat sees ------------------------------------------------------------------------


class Observation(NamedTuple):
    """Everything seat ``seat`` knows, and nothing else. Masks are 40-bit.

    ``known[p]`` / ``excluded[p]``: cards public knowledge puts in / rules
    out of seat ``p``'s hand (the dealer's shown card, declared Kings and
    Horses, cards taken by exchange, the face-up trump card drawn last; and
    the suits and trumps a follower showed he lacks — reset for a seat when
    it draws a hidden card). ``drawn`` is the card this seat drew at the last
    trick (2 players), ``trump_card`` the face-up card while it is visible.
    """

    rules: TuttiRules
    seat: int
    phase: int
    hand: int
    drawn: int
    trump_suit: int
    trump_card: int
    stock_size: int
    dealer: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    tricks: tuple[Trick, ...]
    won: tuple[int, ...]
    declarations: tuple[Declaration, ...]
    exchanges: tuple[ExchangeRecord, ...]
    scores: tuple[int, ...]
    moment: int
    known: tuple[int, ...]
    excluded: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    legal: tuple[Action, ...]

    @property
    def kind(self) -> str:
        return "declare" if self.phase == DECLARE else "play"


def observe(state: State, seat: int) -> Observation:
    """The observation of ``seat`` (its legal actions are empty unless it moves)."""
    return Observation(
        rules=state.rules, seat=seat, phase=state.phase, hand=state.hands[seat],
        drawn=state.just_drawn[seat], trump_suit=state.trump_suit,
        trump_card=state.trump_card, stock_size=state.stock_size, dealer=state.dealer,
        leader=state.leader, trick=tuple(state.trick), tricks=tuple(state.tricks),
        won=tuple(state.won), declarations=tuple(state.declarations),
        exchanges=tuple(state.exchanges), scores=tuple(scores(state)),
        moment=state.moment, known=tuple(state.known), excluded=tuple(state.excluded),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        legal=tuple(legal_actions(state, seat)),
    )


# -- whole hands and matches -------------------------------------------------------------------


@dataclass
class HandRecord:
    """A finished hand. Per-side lists are indexed by side (``rules.side``)."""

    rules: TuttiRules
    seed: int
    index: int
    leader: int
    dealer: int
    trump_suit: int
    shown: int
    deal: tuple[int, ...]  # each seat's hand mask at the deal
    stock: tuple[int, ...]  # 2 players: the stock as dealt, the trump card last
    actions: tuple[tuple[int, Action], ...]
    tricks: tuple[Trick, ...]
    card_points: tuple[int, ...]  # per side, last trick included
    declarations: tuple[Declaration, ...]
    exchanges: tuple[ExchangeRecord, ...]
    scores: tuple[int, ...]  # per side
    winner: int  # side, -1 for a tie
    tute: int  # seat, -1 if none
    last_trick: int  # seat, -1 if a Tute ended the hand

    @property
    def declared_points(self) -> int:
        return sum(d.points for d in self.declarations)


def _bots(bots, rules: TuttiRules, seed: int, index: int) -> list:
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(bots)}")
    return [b.for_hand(seat, seed, index) if hasattr(b, "for_hand") else b
            for seat, b in enumerate(bots)]


def play_hand(bots: Sequence, rules: TuttiRules = TuttiRules(), seed: int = 0,
              index: int = 0, leader: int = 0, state: State | None = None,
              watch: Callable | None = None) -> HandRecord:
    """Play hand ``index`` of a run with ``seed``; ``bots[p]`` (a bot with
    ``act(observation)``, or a parsed bot whose ``for_hand(p, seed, index)``
    makes the hand's) plays seat ``p``. ``state`` starts from a given
    position instead of a fresh deal (tests). ``watch(state, seat, action)``,
    if given, sees the hand go: once at the start (``seat`` -1, ``action``
    None), then after each action (the terminal game narrates from it)."""
    agents = _bots(bots, rules, seed, index)
    state = deal(rules, seed, index, leader) if state is None else state.copy()
    start = state.copy()
    if watch is not None:
        watch(state, -1, None)
    while not is_over(state):
        seat = state.to_move
        if getattr(agents[seat], "sees_state", False):  # the cheating bot, labelled so
            agents[seat].see(state.copy())
        action = ask(agents[seat], observe(state, seat))
        apply(state, action)
        if watch is not None:
            watch(state, seat, action)
    sc = scores(state)
    pts = [0] * rules.sides
    for p in range(rules.players):
        pts[rules.side(p)] += state.card_points[p]
    return HandRecord(
        rules=rules, seed=seed, index=index, leader=start.leader, dealer=start.dealer,
        trump_suit=start.trump_suit, shown=start.shown, deal=tuple(start.hands),
        stock=tuple(start.stock), actions=tuple(state.log), tricks=tuple(state.tricks),
        card_points=tuple(pts), declarations=tuple(state.declarations),
        exchanges=tuple(state.exchanges), scores=tuple(sc), winner=hand_winner(state),
        tute=state.tute, last_trick=state.last_trick,
    )


@dataclass
class MatchRecord:
    """A finished match: ``wins`` per side, ``winner`` side, every hand played."""

    wins: tuple[int, ...]
    winner: int
    hands: list[HandRecord]
    tute: bool  # a Tute won the match at once
    capped: bool = False


def play_match(bots: Sequence, rules: TuttiRules = TuttiRules(), seed: int = 0,
               index: int = 0, watch: Callable | None = None) -> MatchRecord:
    """Play match ``index`` of a run with ``seed`` (module docstring): the first
    side to win ``rules.hands`` hands wins; ties replay with the same leader.
    ``watch`` sees every hand (:func:`play_hand`)."""
    match_seed = stream_start(seed, index)
    wins = [0] * rules.sides
    hands: list[HandRecord] = []
    leader = 0
    while len(hands) < MAX_HANDS:
        rec = play_hand(bots, rules, match_seed, len(hands), leader, watch=watch)
        hands.append(rec)
        if rec.winner < 0:
            continue  # a tie: replayed with the same leader
        if rec.tute >= 0 and rules.tute_wins == "match":
            wins[rec.winner] += 1
            return MatchRecord(tuple(wins), rec.winner, hands, tute=True)
        wins[rec.winner] += 1
        if wins[rec.winner] >= rules.hands:
            return MatchRecord(tuple(wins), rec.winner, hands, tute=False)
        leader = (leader + 1) % rules.players
    return MatchRecord(tuple(wins), -1, hands, tute=False, capped=True)
