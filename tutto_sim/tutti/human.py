"""Tutti at the terminal: ``tutto-sim play --game tutti``.

A human plays a match against bots in the reference engine
(``reference.play_match``, match 0 of the printed seed), so a match can be
replayed with ``--seed``: the human's answers draw nothing from any stream.

What the human sees (docs/tutti.md, "Playing in the terminal"):

- **Cards in words and codes**: "the Ace of Cups (AC)". Suits in English
  with the code letters of the Italian names: Coins ``D`` (denari), Cups
  ``C`` (coppe), Swords ``S`` (spade), Batons ``B`` (bastoni).
- **Players**: "you", and each bot as "player 1 (heuristic)"; in pairs the
  partner is marked. Seats are numbered in playing order from 0.
- **At the deal**: who deals and leads, the trump suit and the card that
  shows it (2 players: the trump card under the stock; 3-4: the dealer's
  shown card), and the human's hand.
- **As the hand goes** (:class:`Narrator`, the engine's ``watch``): every
  card played, who wins each trick and its points, the draws (the human's
  own card; the other player's only when it is the face-up trump card), the
  exchanges and declarations, and at the end of each hand the points of
  each side (tricks, last trick, declarations), who won it and the hands
  won so far.
- **A choice** (:class:`HumanPlayer`): the hand sorted by suit (trumps
  first, each suit high to low), the trump card, the trick on the table,
  the points so far, and the legal actions numbered 1, 2, 3 (cards, the
  trump exchange and declarations when allowed, a partner's pass). A card's
  code plays it; ``x`` exchanges, ``40``/``20`` declare (when one pair
  fits), ``tute`` declares a Tute, ``p`` passes. A card held but not legal
  now is refused with the reason (the duty to follow, beat or trump); any
  other answer is asked again with the valid choices. A single legal action
  is made automatically (and said so).
- ``?`` shows the advice (:class:`Advisor`: what ``pimc`` would do and its
  average over its deals for each action; ``--hints`` at every choice),
  ``q`` leaves (``core.play.QuitGame``), end of input leaves as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from tutto_sim.core.cli import plural
from tutto_sim.core.play import (  # noqa: F401  (QuitGame: the human left)
    LETTERED_ADVICE_WORDS,
    InteractiveTable,
    QuitGame,
    TerminalPlayer,
    ask_choice,
)

from .cards import (
    KING,
    LAST_TRICK,
    N_SUITS,
    POINTS,
    RANK_NAMES,
    SUIT_MASK,
    cards_of,
    code,
    deck,
    rank,
    suit,
)
from .game import engine_of
from .reference import (
    DECLARE,
    Action,
    MatchRecord,
    Observation,
    State,
    best_of_suit,
    hand_winner,
    is_over,
    play_match,
    trick_winner,
)
from .rules import TuttiRules

#: Suits in English, in the order of the code letters D C S B.
SUIT_WORDS = ("Coins", "Cups", "Swords", "Batons")


def card_name(c: int) -> str:
    """``Ace of Cups``."""
    return f"{RANK_NAMES[rank(c)]} of {SUIT_WORDS[suit(c)]}"


def card_words(c: int) -> str:
    """``the Ace of Cups (AC)``: a card in a sentence, with its code."""
    return f"the {card_name(c)} ({code(c)})"


def hand_lines(hand: int, trump: int) -> list[str]:
    """The hand by suit, trumps first, each suit high to low: ``Cups (trumps):
    Ace AC, Seven 7C``; a suit not held is left out."""
    out = []
    for s in sorted(range(N_SUITS), key=lambda s: s != trump):
        held = sorted(cards_of(hand & SUIT_MASK[s]), key=rank)
        if held:
            label = SUIT_WORDS[s] + (" (trumps)" if s == trump else "")
            out.append(f"{label}: " + ", ".join(f"{RANK_NAMES[rank(c)]} {code(c)}"
                                               for c in held))
    return out


class Narrator:
    """Words for one match as the human at ``viewer`` sees it, and the
    engine's ``watch`` (``reference.play_hand``) that tells the match as it goes."""

    def __init__(self, rules: TuttiRules, names: Sequence[str], viewer: int,
                 write: Callable[[str], None]):
        self.rules = rules
        self.names = list(names)
        self.viewer = viewer
        self.write = write
        self.hand_no = 0
        self.wins = [0] * rules.sides
        self.drawn = 0  # stock cards gone before the latest action
        self.state: State | None = None  # the hand as the latest action left it

    # ---- words ----------------------------------------------------------
    def who(self, p: int) -> str:
        """The subject of a sentence: "you", "player 1 (heuristic)", "player 2
        (heuristic, your partner)"."""
        if p == self.viewer:
            return "you"
        mate = self.rules.pairs and self.rules.side(p) == self.rules.side(self.viewer)
        return f"player {p} ({self.names[p]}{', your partner' if mate else ''})"

    def verb(self, p: int, verb: str) -> str:
        """``you play`` / ``player 1 (random) plays``."""
        if p == self.viewer:
            return f"you {verb}"
        third = verb[:-1] + "ies" if verb.endswith("y") and verb[-2] not in "aeiou" else \
            verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")
        return f"{self.who(p)} {third}"

    def side_name(self, side: int) -> str:
        """A side: "you", "player 1 (random)"; in pairs "your pair" / "players 1 and 3"."""
        if not self.rules.pairs:
            return self.who(side)
        if side == self.rules.side(self.viewer):
            return "your pair"
        a, b = (p for p in range(4) if self.rules.side(p) == side)
        return f"players {a} and {b}"

    def describe(self, action: Action, trump: int, face: int = -1) -> str:
        """A choice in words: "play the Ace of Cups (AC)", "exchange your Seven of
        Cups (7C) for the trump card, the King of Cups (KC)", "declare 40 in Cups"."""
        kind = action.kind
        if kind == "play":
            return f"play {card_words(action.card)}"
        if kind == "exchange":
            took = f", {card_words(face)}" if face >= 0 else ""
            return f"exchange your {card_name(action.card)} ({code(action.card)}) for the trump card{took}"
        if kind == "declare":
            points = 40 if action.suit == trump else 20
            return f"declare {points} in {SUIT_WORDS[action.suit]} (King and Horse)"
        if kind == "tute":
            return f"declare a Tute (all four {'Kings' if action.rank == KING else 'Horses'})"
        return "pass (declare nothing)"

    def trump_line(self, trump: int, face: int, stock: int, dealer: int) -> str:
        text = f"trumps: {SUIT_WORDS[trump]}"
        if self.rules.players == 2:
            if stock:
                text += f"; the trump card under the stock: {card_words(face)}; {stock} cards left"
            else:
                text += "; the stock is empty"
        elif face >= 0:
            text += f"; {self.who(dealer)} still {'hold' if dealer == self.viewer else 'holds'} " \
                    f"the shown {card_name(face)} ({code(face)})"
        return text

    # ---- the match as it goes ----------------------------------------------
    def legend(self) -> None:
        self.write("cards: rank A 3 K H J 7 6 5 4 2 (Ace, Three, King, Horse, Jack, ...), "
                   "suit D Coins (denari), C Cups (coppe), S Swords (spade), "
                   "B Batons (bastoni); AC is the Ace of Cups")
        rules = self.rules
        table = ", ".join(f"{p}: {self.who(p)}" for p in range(rules.players))
        goal = f"first to {rules.hands} hand{'s' if rules.hands > 1 else ''} wins the match"
        self.write(f"players in playing order: {table}; {goal}")

    def watch(self, state: State, seat: int, action: Action | None) -> None:
        """The engine's ``watch``: the deal, then each action."""
        if action is None:
            self._deal(state)
        elif action.kind == "play":
            verb = "lead" if len(state.trick) == 1 else "play"
            self.write(f"{self.verb(seat, verb)} {card_words(action.card)}")
            if not state.trick:
                self._trick_done(state)
        elif action.kind == "exchange":
            taken = state.exchanges[-1].taken
            self.write(f"{self.verb(seat, 'exchange')} {card_words(action.card)} for the trump "
                       f"card, {card_words(taken)}")
        elif action.kind == "declare":
            points = 40 if action.suit == state.trump_suit else 20
            self.write(f"{self.verb(seat, 'declare')} {points} in {SUIT_WORDS[action.suit]} "
                       f"(the King and the Horse of {SUIT_WORDS[action.suit]})")
        elif action.kind == "tute":
            four = "Kings" if action.rank == KING else "Horses"
            self.write(f"{self.verb(seat, 'declare')} a Tute: all four {four}!")
        else:
            self.write(f"{self.who(seat)} {'declare' if seat == self.viewer else 'declares'} "
                       "nothing")
        self.drawn = state.drawn
        self.state = state
        if is_over(state) and action is not None:
            self._hand_over(state)

    def _deal(self, state: State) -> None:
        self.hand_no += 1
        self.drawn = state.drawn
        lead = "you lead" if state.leader == self.viewer else f"{self.who(state.leader)} leads"
        self.write(f"— hand {self.hand_no}: {self.verb(state.dealer, 'deal')}, {lead} —")
        if self.rules.players == 2:
            self.write(f"trumps: {SUIT_WORDS[state.trump_suit]}; the trump card, face up "
                       f"under the stock of {state.stock_size} cards: {card_words(state.shown)}")
        else:
            self.write(f"trumps: {SUIT_WORDS[state.trump_suit]}; {self.verb(state.dealer, 'show')} "
                       f"{card_words(state.shown)}, the last card dealt, and "
                       f"{'keep' if state.dealer == self.viewer else 'keeps'} it")

    def _trick_done(self, state: State) -> None:
        t = state.tricks[-1]
        points = sum(POINTS[c] for _, c in t.plays)
        self.write(f"{self.verb(t.winner, 'win')} the trick ({points} points)")
        if state.drawn > self.drawn:  # 2 players: the winner drew, then the other
            mine = state.just_drawn[self.viewer]
            other = 1 - self.viewer
            face = state.stock[-1]
            text = f"you draw {card_words(mine)}"
            if state.stock_size == 0 and state.just_drawn[other] == face:
                text += f"; {self.who(other)} draws the trump card, {card_words(face)}"
            elif state.stock_size == 0:  # the human drew the face-up trump card
                text = (f"you draw the trump card, {card_words(mine)}; {self.who(other)} draws "
                        "the last hidden card")
            else:
                text += f"; {self.who(other)} draws a card"
            self.write(text + f"; {state.stock_size} left in the stock")

    def _hand_over(self, state: State) -> None:
        rules = self.rules
        if state.last_trick >= 0:
            self.write(f"{self.verb(state.last_trick, 'take')} the last trick: "
                       f"+{LAST_TRICK} points")
        winner = hand_winner(state)
        parts = []
        for s in range(rules.sides):
            seats = [p for p in range(rules.players) if rules.side(p) == s]
            cards = sum(state.card_points[p] for p in seats)
            said = sum(state.decl_points[p] for p in seats)
            last = f", {LAST_TRICK} of them for the last trick" if state.last_trick in seats else ""
            decl = f" + {said} declared" if said else ""
            parts.append(f"{self.side_name(s)} {cards + said} ({cards} in tricks{last}{decl})")
        self.write(f"hand {self.hand_no} over: " + "; ".join(parts))
        if winner < 0:
            self.write("a tie: nobody wins the hand; it is replayed with the same leader")
            return
        tute = " with a Tute" if state.tute >= 0 else ""
        self.wins[winner] += 1
        self.write(f"{self.side_win(winner)} the hand{tute}; hands won: " + ", ".join(
            f"{self.side_name(s)} {self.wins[s]}" for s in range(rules.sides)))

    def standing(self) -> str:
        """Hands won, and the points of the hand being played (a match left before its end)."""
        rules, state = self.rules, self.state
        text = "hands won: " + ", ".join(f"{self.side_name(s)} {self.wins[s]}"
                                         for s in range(rules.sides))
        if state is not None and not is_over(state):
            text += f"; hand {self.hand_no} so far: " + ", ".join(
                f"{self.side_name(s)} " + plural(sum(state.card_points[p] + state.decl_points[p]
                                                     for p in range(rules.players)
                                                     if rules.side(p) == s), "point")
                for s in range(rules.sides))
        return text + f" (the first to win {plural(rules.hands, 'hand')} wins the match)"

    def side_win(self, side: int) -> str:
        name = self.side_name(side)
        return f"{name} {'win' if name in ('you', 'your pair') else 'wins'}"

    def end(self, rec: MatchRecord) -> None:
        if rec.winner < 0:
            self.write("match stopped unfinished at the safety net of hands")
            return
        how = " at once with the Tute" if rec.tute else ""
        self.write(f"match over after {len(rec.hands)} hand{'s' if len(rec.hands) > 1 else ''}: "
                   f"{self.side_win(rec.winner)} the match{how}")


def duty_words(obs: Observation) -> str:
    """Why only ``obs``'s legal cards may be played now, in words."""
    legal = [a.card for a in obs.legal if a.kind == "play"]
    if not obs.trick or len(legal) == obs.hand.bit_count():
        return "every card is legal now"
    trump = obs.trump_suit
    led = suit(obs.trick[0][1])
    if all(suit(c) == trump for c in legal) and not obs.hand & SUIT_MASK[led]:
        best = best_of_suit(obs.trick, trump)
        higher = f" that beats {card_words(best)}" if best >= 0 else ""
        return f"you have no {SUIT_WORDS[led]}, so you must play a trump{higher}"
    if led == trump and not (obs.rules.players > 2 or obs.stock_size == 0):
        return "a trump was led: you must answer with a trump"
    if all(suit(c) == led for c in legal):
        best = best_of_suit(obs.trick, led)
        if len(legal) < (obs.hand & SUIT_MASK[led]).bit_count():
            return f"you must follow {SUIT_WORDS[led]} and beat {card_words(best)}"
        return f"you must follow {SUIT_WORDS[led]}"
    return "the duties allow only the cards listed"


class Advisor:
    """The advice at a choice: for each legal action ``pimc``'s average over
    its deals (``pimc.PimcBot.explain``: it deals the cards the human cannot
    see as the observation allows, ``samples`` times, by default as often as
    the bot ``pimc``, the default opponent, does, and plays
    each deal out face up): its value (the points margin plus a bonus for
    winning the hand, what it maximises), the mean margin in points and the
    share of the deals won; the action ``pimc`` takes is marked. The
    heuristic bot's choice is named too."""

    def __init__(self, samples: int | None = None):
        from .pimc import DEFAULT_SAMPLES, PimcBot

        self.samples = DEFAULT_SAMPLES if samples is None else samples
        self.bot = PimcBot(self.samples)

    def lines(self, obs: Observation, narrator: Narrator, face: int = -1) -> list[str]:
        from .bots import HeuristicBot
        from .pimc import WIN_BONUS, choose

        estimates = self.bot.explain(obs)
        best = choose(estimates)
        words = [narrator.describe(a, obs.trump_suit, face) for a in obs.legal]
        width = max(map(len, words))
        out = [f"advice: pimc deals the cards you cannot see {self.samples} times as your "
               "observation allows and plays each deal out face up; per choice its average: "
               f"value (points margin ± {WIN_BONUS} for winning or losing the hand), margin, "
               "deals won"]
        for i, (a, text) in enumerate(zip(obs.legal, words), 1):
            e = estimates[a]
            mark = "  <- pimc's choice" if a == best else ""
            out.append(f"  {i:>2}) {text:<{width}}  value {e.value:+7.1f}  margin "
                       f"{e.margin:+6.1f}  won {e.win:4.0%}{mark}")
        h = HeuristicBot().act(obs)
        out.append(f"the heuristic bot would choose {obs.legal.index(h) + 1}) "
                   f"{words[obs.legal.index(h)]}")
        return out


@dataclass(frozen=True)
class NotNow:
    """An answer naming a card that may not be played now (``held``: in the hand)."""

    card: int
    held: bool


@dataclass
class PlayedMatch:
    """A finished match at the terminal: the record and the winning seats."""

    record: MatchRecord
    winners: tuple[int, ...]


class HumanPlayer(TerminalPlayer):
    """The human at the table: a bot of the reference engine (its own
    ``engine``) whose choices are read from the terminal. The game
    (:class:`InteractiveGame`) gives it the :class:`Narrator`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)  # name, read, write, advisor, always_advise
        self.narrator: Narrator | None = None
        self.engine = self

    def _show(self, obs: Observation, face: int) -> None:
        words = self.narrator
        self.write("your hand: " + " | ".join(hand_lines(obs.hand, obs.trump_suit)))
        self.write(words.trump_line(obs.trump_suit, face, obs.stock_size, obs.dealer))
        if obs.trick:
            plays = [f"{words.who(p)} {'led' if k == 0 else 'played'} {card_words(c)}"
                     for k, (p, c) in enumerate(obs.trick)]
            best = trick_winner(obs.trick, obs.trump_suit)
            self.write("on the table: " + ", ".join(plays)
                       + (f"; {words.who(best)} {'are' if best == words.viewer else 'is'} winning"
                          if len(obs.trick) > 1 else ""))
        self.write("points so far: " + ", ".join(f"{words.side_name(s)} {obs.scores[s]}"
                                                 for s in range(obs.rules.sides)))

    def answers(self, obs: Observation) -> dict:
        """Words that pick an action (besides its number): card codes, ``x``
        (exchange), ``40``/``20`` (when one pair fits), ``tute``, ``p`` (pass);
        the code of any other card of the deck is a :class:`NotNow` (refused
        with the reason)."""
        words: dict = {code(c).lower(): NotNow(c, held=bool(obs.hand >> c & 1))
                       for c in deck(obs.rules.players)}
        for a in obs.legal:
            if a.kind == "play":
                words[code(a.card).lower()] = a
            elif a.kind == "exchange":
                words["x"] = words["exchange"] = a
            elif a.kind == "tute":
                words["tute"] = a
            elif a.kind == "pass":
                words["p"] = words["pass"] = a
        for points in (40, 20):
            fits = [a for a in obs.legal if a.kind == "declare"
                    and (a.suit == obs.trump_suit) == (points == 40)]
            if len(fits) == 1:
                words[str(points)] = fits[0]
        return words

    def act(self, obs: Observation) -> Action:
        face = obs.trump_card
        words = self.narrator
        legal = obs.legal
        if len(legal) == 1:
            self.write("only one choice, made for you:")
            return legal[0]
        self._show(obs, face)
        what = "declare" if obs.phase == DECLARE else "choose"
        self.write(f"your turn: {what}")
        for i, a in enumerate(legal, 1):
            self.write(f"  {i:>2}) {words.describe(a, obs.trump_suit, face)}")
        if self.always_advise:
            self.advise(obs, self.narrator, face)
        answers = self.answers(obs)
        codes = [code(a.card) for a in legal if a.kind == "play"]
        extra = [w for w in ("x", "40", "20", "tute", "p") if w in answers]
        valid = f"1-{len(legal)}" + (f", a card code ({', '.join(codes)})" if codes else "") \
            + "".join(f", {w}" for w in extra)
        while True:
            choice = ask_choice(self.read, self.write, f"choose {valid} (? advice, q quit): ",
                                legal, answers, lambda: self.advise(obs, self.narrator, face),
                                f"please answer {valid}, ? for advice, q to quit",
                                advice_words=LETTERED_ADVICE_WORDS)
            if isinstance(choice, NotNow):  # a card not held, or not legal now
                self.write(f"you may not play {card_words(choice.card)} now: {duty_words(obs)}"
                           if choice.held else f"you do not hold {card_words(choice.card)}")
                continue
            return choice


class InteractiveGame(InteractiveTable):
    """A match with a human at the terminal: ``InteractiveGame(players, config,
    seed, write).play()`` plays match 0 of ``seed`` and returns a
    :class:`PlayedMatch`. ``players`` are parsed bots (``tutti.bots``) and one
    :class:`HumanPlayer`; a ``py:`` bot's illegal action is a warning line,
    and its first legal action is played."""

    human, narrator_type, engine_of = HumanPlayer, Narrator, staticmethod(engine_of)

    def play(self) -> PlayedMatch:
        self.narrator.legend()
        rec = play_match(self.engines, self.rules, self.seed, 0, watch=self.narrator.watch)
        self.narrator.end(rec)
        winners = tuple(p for p in range(self.rules.players)
                        if rec.winner >= 0 and self.rules.side(p) == rec.winner)
        return PlayedMatch(rec, winners)
