"""Tutti as an OpenSpiel game (``pyspiel.load_game("python_tutti")``).

A Python game in the manner of OpenSpiel's own (``open_spiel/python/games/
kuhn_poker.py``): a :class:`pyspiel.GameType` and :class:`pyspiel.GameInfo`
declared once, a :class:`TuttiGame` and a :class:`TuttiState`, registered by
name with the options as parameters. The rules are not written again here:
every hand is a ``tutti.reference`` :class:`~tutto_sim.tutti.reference.State`,
and OpenSpiel's actions go through ``reference.legal_actions`` and
``reference.apply``. Needs the optional ``open_spiel`` package
(``pip install 'tutto-sim[openspiel]'``).

The game
--------
*Parameters* (``python_tutti(players=4,pairs=True,hands=3)``): ``players``
(2, 3, 4), ``pairs`` (4 players only), ``must_answer_trump``, ``allow_tute``,
``tute_wins`` (``"match"`` or ``"hand"``) and ``hands`` (1..5), the fields
of :class:`~tutto_sim.tutti.rules.TuttiRules` with the same defaults; a bad
value is a one-line ``pyspiel.SpielError``.

*Chance.* A game is a match. Each hand starts with one chance node per card
of the deck (40; 36 at 3 players): outcome ``c`` puts card ``c`` next in the
shuffled deck, uniformly among the cards not placed yet, so the deck order
is uniform, as the reference's Fisher–Yates shuffle. When the last card is
placed the order is dealt by ``reference.deal_cards`` (blocks of a hand from
the leader round to the dealer; 2 players: the 17th card shows trumps, the
rest is the stock), so the same order gives the reference engine's hand.

*Actions* are ``reference.encode``'s integers (87 distinct): play a card
0..39, exchange the trump 7 or 2 40..79, declare the King and Horse of a
suit 80..83, a Tute of Kings 84 or of Horses 85, a partner's pass 86;
chance outcomes are card ids 0..39.

*Hands and the match.* After a hand: a tie is replayed with the same leader,
else the winner's side gets a hand and the next seat leads; a Tute ends the
match when ``tute_wins = "match"``; the first side with ``hands`` hands wins.
The reference's safety net (``reference.MAX_HANDS`` hands) ends a match with
no winner.

*Returns* (zero-sum, only at the end): +1 for each player of the winning
side, and the others share −1: −1 each at 2 players and in pairs, −1/(n−1)
each at 3 or 4 players alone; 0 for everybody if the safety net ended the
match.

Information
-----------
A player's *information state* is our observation
(``reference.observe``: his hand, the card he just drew, trumps and the
face-up card, every trick so far by seat, the trick on the table, the
declarations, the exchanges, what public knowledge puts in or rules out of
each hand, the hand sizes, the stock's size and the scores) plus the match:
hands won per side and the hand's number. While a hand is being dealt a
player sees how many cards are placed, nothing more. The observation is not
a perfect-recall history: the order in which a player drew his own cards
(2 players), when an exchange was made and a partner's passes are not in
it. None of them bears on what anyone may still do or win, nor, with
hidden cards dealt uniformly over what the observation allows
(``tutti.sampling``), on where the hidden cards are. One thing it forgets
does: at 2 players with ``must_answer_trump``, a void in trumps shown
before a draw is dropped at the draw (docs/tutti.md, Information).
Earlier hands are summed up by the match score, as the next hand is
shuffled afresh. The observation string and tensor are the same as the
information state's.

*Resampling* (``state.resample_from_infostate(player, sampler)``, what
OpenSpiel's ISMCTS asks for): a state whose hidden cards — the other hands
and the stock — are dealt anew, uniformly over every deal the player's
observation allows (``sampling.HiddenDeal``), built by
``sampling.determinize``; the player's information state is unchanged. Such
a state starts where the observation is, with an empty ``history()``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_tutti", {"players": 4, "pairs": True})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 87, 40)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 40)
>>> for c in range(40):
...     state.apply_action(c)  # the deck in id order: seat 0 gets all the denari
>>> state.current_player(), state.legal_actions()[:3], state.action_to_string(0)
(0, [0, 1, 2], 'play AD')
>>> pyspiel.load_game("python_tutti", {"players": 3, "pairs": True})
Traceback (most recent call last):
...
pyspiel.SpielError: python_tutti: pairs needs 4 players, not 3
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyspiel

from tutto_sim.core.rng import Stream

from .cards import KING, N_CARDS, N_SUITS, code, codes, deck
from .reference import (
    MAX_HANDS,
    Observation,
    State,
    apply,
    deal_cards,
    decode,
    encode,
    hand_winner,
    is_over,
    legal_actions,
    observe,
)
from .rules import STOCK_SIZE, TuttiRules
from .sampling import HiddenDeal, determinize

SHORT_NAME = "python_tutti"
#: Player actions: ``reference.encode``'s ids 0..86.
N_ACTIONS = 87
#: Most points a side can score in a hand (130 card points with the last
#: trick, declarations up to 100): the scale of the score in the tensor.
MAX_POINTS = 230
#: Player actions in one hand at most: the cards, two exchanges, four pairs
#: and a Tute, a pass per trick.
_EXTRA_ACTIONS = 2 + 5 + 10

_DEFAULTS = TuttiRules()
_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Tutti (tutto-sim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": _DEFAULTS.players,
        "pairs": _DEFAULTS.pairs,
        "must_answer_trump": _DEFAULTS.must_answer_trump,
        "allow_tute": _DEFAULTS.allow_tute,
        "tute_wins": _DEFAULTS.tute_wins,
        "hands": _DEFAULTS.hands,
    },
)


def rules_of(params: dict) -> TuttiRules:
    """The :class:`TuttiRules` of a game's parameters (missing ones default)."""
    fields = {k: params[k] for k in _GAME_TYPE.parameter_specification if k in params}
    return TuttiRules(**fields)


def params_of(rules: TuttiRules) -> dict:
    """The game parameters of ``rules`` (``load_game(SHORT_NAME, params_of(r))``)."""
    return {k: getattr(rules, k) for k in _GAME_TYPE.parameter_specification}


def _game_info(rules: TuttiRules) -> pyspiel.GameInfo:
    n = rules.players
    cards = len(deck(n))
    return pyspiel.GameInfo(
        num_distinct_actions=N_ACTIONS,
        max_chance_outcomes=N_CARDS,
        num_players=n,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_HANDS * (2 * cards + _EXTRA_ACTIONS),
    )


class TuttiGame(pyspiel.Game):
    """Tutti with the options as parameters (module docstring); ``rules`` is
    the :class:`TuttiRules` they make."""

    def __init__(self, params=None):
        params = dict(params or {})
        try:
            rules = rules_of(params)
        except (ValueError, TypeError) as e:
            raise pyspiel.SpielError(f"{SHORT_NAME}: {e}") from None
        super().__init__(_GAME_TYPE, _game_info(rules), params)
        self.rules = rules

    def new_initial_state(self) -> "TuttiState":
        """A match before its first card is dealt."""
        return TuttiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "TuttiObserver":
        """The observer of information states and observations (they are the same)."""
        return TuttiObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                             self.rules, params)

    def state_from(self, hand: State, wins=None, dealt: int = 1) -> "TuttiState":
        """A state of this game at the reference position ``hand`` (a copy is
        kept), in a match with ``wins`` hands per side so far (none by
        default) and ``dealt`` hands dealt. Its ``history()`` is empty."""
        if replace(hand.rules, hands=self.rules.hands) != self.rules:
            raise ValueError(f"the hand's rules are not the game's: {hand.rules} "
                             f"against {self.rules}")
        state = TuttiState(self)
        state.hand = hand.copy()
        state.hand.rules = self.rules  # the hands to win are the game's
        state.leader = hand.first_leader
        state.dealt = dealt
        if wins is not None:
            state.wins = list(wins)
        return state


class TuttiState(pyspiel.State):
    """A match in progress: ``hand`` is the reference state of the hand in
    play (None while its cards are dealt; the last hand once the match is
    over), ``shuffle`` the cards placed so far in the deck being dealt,
    ``wins`` the hands won per side, ``leader`` the leader of the hand,
    ``dealt`` the hands dealt, ``winner`` the side that won the match (-1
    while it goes on or when the safety net ended it)."""

    def __init__(self, game: TuttiGame):
        super().__init__(game)
        self.rules: TuttiRules = game.rules
        self.hand: State | None = None
        self.shuffle: list[int] = []
        self.wins = [0] * self.rules.sides
        self.leader = 0
        self.dealt = 0
        self.winner = -1
        self.over = False
        self._legal: list | None = None  # the reference's legal actions here, once listed

    # -- the OpenSpiel API --------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self.hand is None:
            return pyspiel.PlayerId.CHANCE
        return self.hand.to_move

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.hand.to_move:
            return []
        if self._legal is None:
            self._legal = legal_actions(self.hand, player)
        return sorted(encode(a) for a in self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in deck(self.rules.players) if c not in self.shuffle]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.shuffle.append(int(action))
            if len(self.shuffle) == len(deck(self.rules.players)):
                self.hand = deal_cards(self.rules, self.shuffle, self.leader)
                self.dealt += 1
            return
        legal, self._legal = self._legal, None
        apply(self.hand, decode(int(action)), legal)
        if is_over(self.hand):
            self._end_hand()

    def _end_hand(self) -> None:
        rules = self.rules
        w = hand_winner(self.hand)
        if w >= 0:
            self.wins[w] += 1
            if (self.hand.tute >= 0 and rules.tute_wins == "match") or self.wins[w] >= rules.hands:
                self.winner = w
                self.over = True
                return
            self.leader = (self.leader + 1) % rules.players
        if self.dealt >= MAX_HANDS:
            self.over = True
            return
        self.hand = None
        self.shuffle = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {code(action)}"
        return action_text(int(action))

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        n = self.rules.players
        if not self.over or self.winner < 0:
            return [0.0] * n
        won = [self.rules.side(p) == self.winner for p in range(n)]
        lose = -sum(won) / (n - sum(won))
        return [1.0 if w else lose for w in won]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "TuttiState":
        """A state with the same information state for ``player_id``, the
        hidden cards dealt anew (module docstring); ``probability_sampler()``
        gives uniform numbers in [0, 1), two of which seed the deal."""
        if self.hand is None or self.over:
            return self.clone()  # nothing hidden while dealing; nothing left at the end
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        return resample(self.get_game(), HiddenDeal(observe(self.hand, player_id)),
                        Stream(seed, 0), self.wins, self.dealt)

    def __str__(self) -> str:
        """Every card, face up (for debugging)."""
        head = f"match {'-'.join(map(str, self.wins))}, hand {self.dealt}"
        if self.hand is None:
            return f"{head}, dealing: {len(self.shuffle)} cards placed"
        h = self.hand
        seats = " | ".join(f"{p}: {codes(h.hands[p])}" for p in range(self.rules.players))
        stock = " ".join(code(c) for c in h.stock[h.drawn:])
        return f"{head}, trump {'DCSB'[h.trump_suit]}, stock [{stock}], hands {seats}"


def action_text(a: int) -> str:
    """A player action in words: ``play AD``, ``exchange 7D``, ``declare D``,
    ``tute K``, ``pass``."""
    act = decode(a)
    if act.kind in ("play", "exchange"):
        return f"{act.kind} {code(act.card)}"
    if act.kind == "declare":
        return f"declare {'DCSB'[act.suit]}"
    if act.kind == "tute":
        return "tute K" if act.rank == KING else "tute H"
    return "pass"


def resample(game: TuttiGame, hidden: HiddenDeal, stream: Stream, wins=None,
             dealt: int = 1) -> TuttiState:
    """A state of ``game`` where ``hidden``'s observation is, the hidden cards
    dealt from ``stream`` (``HiddenDeal.sample``), in a match with ``wins``
    hands per side and ``dealt`` hands dealt (``TuttiGame.state_from``)."""
    hands, stock = hidden.sample(stream)
    return game.state_from(determinize(hidden.obs, hands, stock), wins, dealt)


# -- what a player sees ----------------------------------------------------------------------


def observation_text(obs: Observation, private: bool = True) -> str:
    """Every field of ``obs`` but its legal actions (which follow from the
    rest), in one line; ``private`` False leaves out the own hand and draw."""
    def cards(m):
        return codes(m) or "-"

    parts = [f"seat {obs.seat}"]
    if private:
        parts.append(f"hand {cards(obs.hand)} drew {code(obs.drawn) if obs.drawn >= 0 else '-'}")
    parts += [
        f"trump {'DCSB'[obs.trump_suit]} {code(obs.trump_card) if obs.trump_card >= 0 else '-'}"
        f" stock {obs.stock_size}",
        f"dealer {obs.dealer} leader {obs.leader} {('play', 'declare', 'over')[obs.phase]}"
        f" moment {obs.moment}",
        "tricks " + " ".join(",".join(f"{p}{code(c)}" for p, c in t.plays) + f">{t.winner}"
                             for t in obs.tricks),
        "table " + ",".join(f"{p}{code(c)}" for p, c in obs.trick),
        "declared " + " ".join(f"{d.seat}{'DCSB'[d.suit] if d.suit >= 0 else 'T' + 'KH'[d.rank - KING]}"
                               f"{d.points}@{d.trick}" for d in obs.declarations),
        "exchanged " + " ".join(f"{e.seat}{code(e.given)}>{code(e.taken)}" for e in obs.exchanges),
        "known " + " ".join(cards(m) for m in obs.known),
        "excluded " + " ".join(cards(m) for m in obs.excluded),
        "won " + " ".join(map(str, obs.won)),
        "sizes " + " ".join(map(str, obs.hand_sizes)),
        "scores " + " ".join(map(str, obs.scores)),
    ]
    return " | ".join(parts)


class TuttiObserver:
    """OpenSpiel's observer protocol (``open_spiel/python/observation.py``):
    ``tensor`` and its named views ``dict``, filled by ``set_from(state,
    player)``; ``string_from(state, player)``. The information state and the
    observation are the same (module docstring); ``private_info`` NOTHING
    leaves out the own hand and the card just drawn, ``public_info`` False
    everything else but the seat. Pieces (``n`` players, ``T`` tricks a
    hand): ``player`` n; ``hand``, ``drawn`` 40; ``trump_suit`` 4,
    ``trump_card`` 40, ``stock`` 25 (its size, one-hot), ``dealer``,
    ``leader``, ``moment`` n, ``phase`` 3; ``tricks`` (T, n, 40) the card
    each seat played to trick t, ``trick_winner`` (T, n), ``table`` (n, 40);
    ``declared`` (4, n) who declared each suit, ``tute`` (2, n);
    ``given``, ``taken`` (n, 40) exchanges; ``known``, ``excluded`` (n, 40);
    ``won`` n (tricks, over T), ``hand_sizes`` n (over the hand size),
    ``scores`` (sides) over 230, ``match`` (sides) hands won over
    ``hands``, ``dealing`` 1 (the share of the deck placed)."""

    def __init__(self, iig_obs_type, rules: TuttiRules, params=None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("a Tutti observer shows one player's cards, not all players'")
        self.rules = rules
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        n, sides = rules.players, rules.sides
        tricks = len(deck(n)) // n
        pieces = [("player", (n,))]
        if self.private:
            pieces += [("hand", (N_CARDS,)), ("drawn", (N_CARDS,))]
        if self.public:
            pieces += [("trump_suit", (N_SUITS,)), ("trump_card", (N_CARDS,)),
                       ("stock", (STOCK_SIZE + 1,)), ("dealer", (n,)), ("leader", (n,)),
                       ("moment", (n,)), ("phase", (3,)), ("tricks", (tricks, n, N_CARDS)),
                       ("trick_winner", (tricks, n)), ("table", (n, N_CARDS)),
                       ("declared", (N_SUITS, n)), ("tute", (2, n)), ("given", (n, N_CARDS)),
                       ("taken", (n, N_CARDS)), ("known", (n, N_CARDS)),
                       ("excluded", (n, N_CARDS)), ("won", (n,)), ("hand_sizes", (n,)),
                       ("scores", (sides,)), ("match", (sides,)), ("dealing", (1,))]
        self.tensor = np.zeros(sum(int(np.prod(s)) for _, s in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size
        self._tricks = tricks

    def set_from(self, state: TuttiState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        if self.public:
            d["match"][:] = [w / self.rules.hands for w in state.wins]
        if state.hand is None:
            if self.public:
                d["dealing"][0] = len(state.shuffle) / len(deck(self.rules.players))
            return
        obs = observe(state.hand, player)
        if self.private:
            _bits(d["hand"], obs.hand)
            if obs.drawn >= 0:
                d["drawn"][obs.drawn] = 1
        if not self.public:
            return
        d["dealing"][0] = 1
        d["trump_suit"][obs.trump_suit] = 1
        if obs.trump_card >= 0:
            d["trump_card"][obs.trump_card] = 1
        d["stock"][obs.stock_size] = 1
        d["dealer"][obs.dealer] = 1
        d["leader"][obs.leader] = 1
        if obs.moment >= 0:
            d["moment"][obs.moment] = 1
        d["phase"][obs.phase] = 1
        for t, trick in enumerate(obs.tricks):
            for p, c in trick.plays:
                d["tricks"][t, p, c] = 1
            d["trick_winner"][t, trick.winner] = 1
        for p, c in obs.trick:
            d["table"][p, c] = 1
        for dec in obs.declarations:
            if dec.suit >= 0:
                d["declared"][dec.suit, dec.seat] = 1
            else:
                d["tute"][0 if dec.rank == KING else 1, dec.seat] = 1
        for e in obs.exchanges:
            d["given"][e.seat, e.given] = 1
            d["taken"][e.seat, e.taken] = 1
        for p in range(self.rules.players):
            _bits(d["known"][p], obs.known[p])
            _bits(d["excluded"][p], obs.excluded[p])
        d["won"][:] = [w / self._tricks for w in obs.won]
        d["hand_sizes"][:] = [k / self.rules.hand_size for k in obs.hand_sizes]
        d["scores"][:] = [s / MAX_POINTS for s in obs.scores]

    def string_from(self, state: TuttiState, player: int) -> str:
        match = f"match {'-'.join(map(str, state.wins))} hand {state.dealt}"
        if state.hand is None:
            return (f"seat {player} | {match} | dealing {len(state.shuffle)}" if self.public
                    else f"seat {player}")
        obs = observe(state.hand, player)
        if not self.public:
            return f"seat {player} | hand {codes(obs.hand) or '-'}" + (
                f" drew {code(obs.drawn)}" if obs.drawn >= 0 else "")
        return f"{match} | {observation_text(obs, self.private)}"


def _bits(row: np.ndarray, m: int) -> None:
    while m:
        low = m & -m
        row[low.bit_length() - 1] = 1
        m ^= low


pyspiel.register_game(_GAME_TYPE, TuttiGame)
