"""Tutti's strongest honest bot, ``expert``: inference, exact endgames, the win.

``expert`` builds on the perfect-information Monte Carlo of ``tutti.pimc``
(deal the unseen cards, search every deal face up, play the best average)
and adds what the strongest card-game programs add to it (Skat's Kermit:
Buro, Long, Furtak & Sturtevant 2009; Rebstock, Solinas & Buro 2019):

1. **Inference** (policy-based, as Rebstock et al.): the deals are not
   taken uniformly among those the observation allows, but by how likely
   each makes the other players' cards so far. The model of their play is
   the heuristic bot's rule, softened: a player plays the heuristic's card
   with probability ``1 − ε`` and each other legal card with ``ε / (k −
   1)`` (``ε`` = :data:`EPSILON`). For each play of another player in the
   last :data:`WINDOW` tricks the bot rebuilds that player's hand at the
   time in the candidate deal (with 3–4 players exactly: the hand now plus
   the cards it played since; with 2 players minus the cards it drew since,
   which the bot cannot know: a random choice of as many of them) and the
   trick, trumps, declarations and stock as they were, and multiplies the
   deal's weight by the model's probability of the card played.
   :data:`CANDIDATES` times as many uniform deals as the bot searches are
   weighted so, and the searched deals drawn from them by weight
   (systematic resampling): likely deals are searched more often.
2. **Exact where information is complete**: every deal is played by the
   heuristic until at most ``ENDGAME`` cards are left to play, then solved
   exactly by alpha-beta (``tutti.search``). With 2 players every card is
   known once the stock is empty (16 cards left): then every deal is the
   true one and the bot plays the exact solution. With 3–4 players the
   exact search starts at :data:`ENDGAME` cards.
3. **The right objective**: a deal counts 1 when the bot's side wins the
   hand, ½ for a tie (the hand is replayed) and 0 when it loses, plus
   :data:`TIEBREAK` per point of margin to break ties between equally
   winning actions. A match is won by hands, not by points, so the bot
   plays for the chance of winning the hand; ``pimc`` scores the margin
   plus 30 for a win.
4. **Speed**: the same face-up search as ``pimc`` (transpositions at the
   start of each trick, the heuristic's card searched first); the
   inference costs a few microseconds per candidate deal.

``expert`` / ``expert:SAMPLES`` searches ``SAMPLES`` deals per decision
(default :data:`DEFAULT_SAMPLES`); ``expert@50ms`` searches batches of
:data:`BATCH` deals until 50 ms are spent (by the clock: not reproducible).
The ablations switch one ingredient off, to measure what it adds
(docs/tutti.md): ``expert-uniform`` (no inference), ``expert-points``
(``pimc``'s objective), ``expert-heuristic-end`` (``pimc``'s endgame).

The deals come from a stream seeded by a hash of the observation (as
``pimc``): the same observation gives the same decision with a count
budget, and a game replays exactly from its seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from tutto_sim.core.streams import below, mix64

from . import search
from .pimc import ENDGAME as PIMC_ENDGAME
from .pimc import BATCH, Estimate, batch_seed, choose, distinct, points_score, search_deals
from .reference import Action, Observation
from .rules import STOCK_SIZE
from .sampling import HiddenDeal, observation_seed

#: Deals searched per decision (``expert:SAMPLES``).
DEFAULT_SAMPLES = 200
MAX_SAMPLES = 10_000
#: Uniform candidate deals weighted per searched deal (inference).
CANDIDATES = 4
#: The softened heuristic: the chance that a player plays another card than the heuristic's.
EPSILON = 0.3
#: Tricks back (finished ones, and the current trick) whose plays the inference reads.
WINDOW = 12
#: Cards left to play (hands and stock) at which each deal is solved exactly, by table size
#: (2 players: from the last trick with a stock, the two last cards drawn included).
ENDGAME = {2: 18, 3: 13, 4: 13}
#: Whether the inference is on, by table size (with 2 players the hands held before the
#: draws are not known, and weighting measured weaker than uniform deals: docs/tutti.md).
INFERENCE = {2: False, 3: True, 4: True}
#: The objective by table size: "win" (the chance of winning the hand) or "points"
#: (``pimc``'s margin + 30 for a win; measured stronger with 2 players, docs/tutti.md).
OBJECTIVE = {2: "points", 3: "win", 4: "win"}
#: What a point of margin adds to a deal's score (1 a win, ½ a tie, 0 a loss).
TIEBREAK = 1e-3
#: Random choices of the cards drawn since, averaged (2 players, inference).
REDRAWS = 6
#: The ablations' names and what they switch off.
VARIANTS = {"expert": {}, "expert-uniform": {"inference": False},
            "expert-points": {"objective": "points"}, "expert-heuristic-end": {"exact": False}}


# -- inference ------------------------------------------------------------------------------------


def history(obs: Observation, window: int = WINDOW):
    """The other players' card plays the inference reads, as arrays:
    ``templates[k]`` the search state at play ``k`` with that player's hand
    left empty (the trick so far, trumps, declarations, the stock's size),
    ``cards[k]`` the card played, ``seats[k]`` who played it, ``after[k]``
    the cards that seat played since (a mask), ``draws[k]`` the cards it
    has drawn since (2 players)."""
    rules = obs.rules
    n = rules.players
    tricks = [t.plays for t in obs.tricks] + [obs.trick]
    first = max(0, len(tricks) - window)
    rows, cards, seats, after, draws = [], [], [], [], []
    later = [0] * n  # cards each seat played after the play at hand (walking back)
    drawn_since = [0] * n
    finished = len(obs.tricks)
    for t in range(len(tricks) - 1, first - 1, -1):
        plays = tricks[t]
        if t < finished and n == 2 and STOCK_SIZE - 2 * t > 0:
            for p in range(n):  # both drew after trick t
                drawn_since[p] += 1
        declared = 0
        for d in obs.declarations:
            if d.suit >= 0 and d.trick <= t:
                declared |= 1 << d.suit
        for k in range(len(plays) - 1, -1, -1):
            seat, c = plays[k]
            if seat != obs.seat:
                s = np.zeros(search.SIZE, np.int64)
                s[search.N] = n
                s[search.PAIRS] = rules.pairs
                s[search.MUST_ANSWER] = rules.must_answer_trump
                s[search.ALLOW_TUTE] = rules.allow_tute
                s[search.TRUMP] = obs.trump_suit
                s[search.TOMOVE] = seat
                s[search.LEADER] = plays[0][0]
                s[search.TLEN] = k
                for j in range(k):
                    s[search.TC + j] = plays[j][1]
                s[search.DECL] = declared
                s[search.STOCKN] = max(0, STOCK_SIZE - 2 * t) if n == 2 else 0
                rows.append(s)
                cards.append(c)
                seats.append(seat)
                after.append(later[seat])
                draws.append(drawn_since[seat])
            later[seat] |= 1 << c
    if not rows:
        return (np.zeros((0, search.SIZE), np.int64),) + tuple(np.zeros(0, np.int64) for _ in range(4))
    return (np.array(rows), np.array(cards, np.int64), np.array(seats, np.int64),
            np.array(after, np.int64), np.array(draws, np.int64))


@njit(cache=True)
def _popcount(m):
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def _play_chance(row, p, hand, c, eps):
    """The softened heuristic's chance that seat ``p`` with ``hand`` plays
    ``c`` in the position ``row`` (its hand field is overwritten)."""
    row[search.H + p] = hand
    legal = search.legal_cards(row)
    if not legal >> c & 1:
        return eps
    cnt = _popcount(legal)
    if cnt == 1:
        return 1.0
    if search.heuristic_card(row, legal) == c:
        return 1.0 - eps
    return eps / (cnt - 1)


@njit(cache=True)
def likelihoods(deals, templates, cards, seats, after, draws, eps, seed, out):
    """``out[i]``: the softened heuristic's probability of the plays of
    :func:`history` in deal ``deals[i]`` (module docstring, step 1). With 2
    players a hand held before cards were drawn is not known: one card
    drawn since, every choice of it is averaged; more, :data:`REDRAWS`
    random choices of them."""
    rs = np.empty(1, np.uint64)
    rs[0] = seed
    row = np.empty(search.SIZE, np.int64)
    pool = np.empty(40, np.int64)
    for i in range(deals.shape[0]):
        w = 1.0
        for k in range(templates.shape[0]):
            p = seats[k]
            c = cards[k]
            bit = np.int64(1) << c
            hand = (deals[i, search.H + p] | after[k]) & ~bit
            row[:] = templates[k]
            if draws[k] == 0:
                w *= _play_chance(row, p, hand | bit, c, eps)
                continue
            m = 0
            h = hand
            while h:
                pool[m] = trailing_zeros(h)
                h &= h - 1
                m += 1
            total = 0.0
            if draws[k] == 1:
                for j in range(m):
                    total += _play_chance(row, p, (hand & ~(np.int64(1) << pool[j])) | bit, c,
                                          eps)
                w *= total / m
                continue
            for _ in range(REDRAWS):
                taken = hand
                left = m
                for _ in range(min(draws[k], m)):
                    j = below(rs, left)
                    taken &= ~(np.int64(1) << pool[j])
                    left -= 1
                    x = pool[j]
                    pool[j] = pool[left]
                    pool[left] = x
                total += _play_chance(row, p, taken | bit, c, eps)
            w *= total / REDRAWS
        out[i] = w


def resample(weights: np.ndarray, count: int, seed: int) -> np.ndarray:
    """``count`` indices drawn by ``weights`` (systematic resampling: one
    uniform offset from ``seed``, then evenly spaced), in increasing order."""
    total = weights.sum()
    if not total > 0:
        return np.arange(min(count, len(weights)))
    cum = np.cumsum(weights / total)
    u = (int(mix64(np.uint64(seed)) >> np.uint64(11)) / 2.0**53 + np.arange(count)) / count
    return np.minimum(np.searchsorted(cum, u, side="right"), len(weights) - 1)


# -- the bot --------------------------------------------------------------------------------------


class ExpertBot:
    """``expert`` (module docstring): ``samples`` deals per decision, or
    batches of :data:`BATCH` until ``budget_ms`` is spent; ``inference``,
    ``objective`` ("win" or "points"; None: by the table, :data:`INFERENCE`,
    :data:`OBJECTIVE`) and ``exact`` switch the ingredients."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, name: str | None = None,
                 inference: bool | None = None, objective: str | None = None,
                 exact: bool = True,
                 budget_ms: float | None = None, endgame: int | None = None,
                 candidates: int = CANDIDATES, epsilon: float = EPSILON, window: int = WINDOW):
        if objective not in (None, "win", "points"):
            raise ValueError(f"objective must be win or points, not {objective!r}")
        self.samples = samples
        self.inference = inference
        self.objective = objective
        self.exact = exact
        self.budget_ms = budget_ms
        self.endgame = endgame
        self.candidates = candidates
        self.epsilon = epsilon
        self.window = window
        self.name = name or "expert"

    # the deals

    def _endgame(self, obs: Observation) -> int:
        if self.endgame is not None:
            return self.endgame
        if not self.exact:
            return PIMC_ENDGAME[obs.rules.players]
        return ENDGAME[obs.rules.players]

    def deals(self, obs: Observation, count: int, batch: int = 0,
              hidden: HiddenDeal | None = None, past=None) -> np.ndarray:
        """``count`` deals to search (batch ``batch`` of the decision), as
        search states: drawn by the inference's weights from
        ``candidates · count`` uniform deals, or uniformly."""
        hidden = hidden or HiddenDeal(obs)
        seed = batch_seed(observation_seed(obs), batch)
        if not self._inference(obs):
            return hidden.deal_states(seed, count)
        past = past if past is not None else history(obs, self.window)
        if len(past[0]) == 0 or hidden.count() == 1:
            return hidden.deal_states(seed, count)
        cands = hidden.deal_states(seed, count * self.candidates)
        w = np.empty(len(cands), np.float64)
        likelihoods(cands, *past, self.epsilon, np.uint64(seed ^ 0x5DEECE66D), w)
        return cands[resample(w, count, seed)]

    def _inference(self, obs: Observation) -> bool:
        return INFERENCE[obs.rules.players] if self.inference is None else self.inference

    def _objective(self, obs: Observation) -> str:
        return OBJECTIVE[obs.rules.players] if self.objective is None else self.objective

    def _scores(self, margins: np.ndarray, objective: str) -> np.ndarray:
        if objective == "points":
            return points_score(margins)
        return (margins > 0) + 0.5 * (margins == 0) + TIEBREAK * margins

    def explain(self, obs: Observation) -> dict[Action, Estimate]:
        """Every legal action's :class:`~tutto_sim.tutti.pimc.Estimate`
        (``value``: the mean score of the objective)."""
        hidden = HiddenDeal(obs)
        past = history(obs, self.window) if self._inference(obs) else None
        objective = self._objective(obs)
        once = hidden.count() == 1
        count = 1 if once else BATCH if self.budget_ms else self.samples

        def draw(batch: int):
            return distinct(self.deals(obs, count, batch, hidden, past))

        return search_deals(obs, draw, self._endgame(obs),
                            lambda margins: self._scores(margins, objective), self.budget_ms,
                            once=once)

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return choose(self.explain(obs))
