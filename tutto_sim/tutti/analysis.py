"""Tutti's own analyses: the lead's advantage, what the trump exchange and
declaring are worth, what the face-up trump's rank does to the points, and
how often a Tute is dealt.

Near the end of the game's chain (rules → reference → kernel → bots →
analyses → CLI, ``tutti.analysis_cli``). Every figure is a mean with its 95%
CI, and every random result follows from the seed: hand ``i`` of an analysis
with seed ``s`` is dealt from stream ``(s, i)``, exactly as the engines deal
it (``reference.deal``, led by seat 0), match ``i`` as ``reference.play_match``
plays it.

Tables
------
A *table* is ``"2"``, ``"3"``, ``"4"`` (each for himself) or ``"4p"`` (four
in pairs, partners opposite); :func:`named_table_rules` gives its rules from the
other options (``must_answer_trump``, ``allow_tute``, ``tute_wins``,
``hands``). A *side* is a player, or a pair at ``4p``.

Analyses
--------
- :func:`lead_advantage`: the same bot in every seat, matches
  ``0 .. games-1`` (the tournament's, ``core.tournament``): the win rate of
  seat 0, who leads the first hand (and its replays after a tie), against the
  fair share 1/sides, and each seat's points per hand (its side's points
  over the hands dealt).
- :func:`abstain_value` (``what`` = ``"exchange"`` or ``"declare"``): **common
  random numbers**: every deal ``i`` is played once by the bot in every seat
  and once more for each side with that side's players never exchanging
  (never declaring: no 20, 40 or Tute; a partner asked passes); the same
  deal, the same random streams. The value for a side is its points (and
  hands won; a tied hand is not won) with the option minus without; per deal
  the mean over the sides, and the CI comes from the deal-by-deal values.
  The trump exchange exists only at 2 players. The reference engine plays
  (the variant bots are not in the kernel).
- :func:`trump_rank`: hands ``0 .. deals-1`` in the kernel with the bot in
  every seat, grouped by the rank of the card that shows the trump suit
  (2 players: the face-up card under the stock; 3-4 players: the dealer's
  last card, which he keeps): each side's mean points per hand and the
  leader's share of hands won.
- :func:`dealt_tute`: P(a Tute is dealt): four Kings or four Horses in one
  hand at the deal (2 players: among the 8 cards dealt, before any draw).
  *Exact* by counting (:func:`p_dealt_tute`), and *sampled* from deals
  ``0 .. deals-1``, per player (the mean over the seats of a deal, so its
  standard error comes from whole deals; the Wilson interval on the
  effective number of hands p(1-p)/SE²) and at the table (some player has
  one; Wilson).

Every analysis cuts its deals (hands, matches) into chunks of consecutive
ones, each a pure function of its first deal, added up in order: with
``--cluster`` a chunk is one Dask task (``core.cluster``), with the same
figures.

Examples
--------
>>> [(r.players, r.pairs) for r in map(lambda t: named_table_rules(TuttiRules(), t), TABLES)]
[(2, False), (3, False), (4, False), (4, True)]
>>> parse_tables("4p,2")
['4p', '2']
>>> parse_tables("5")
Traceback (most recent call last):
...
ValueError: --tables must be a list of 2, 3, 4, 4p (4p: four in pairs), not '5'
>>> exact = p_dealt_tute(4)
>>> str(exact["player"]), f"{float(exact['table']):.6f}"
('7853/1708993', '0.018282')
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np
from numba import njit, prange

from tutto_sim.core import cluster
from tutto_sim.core.stats import Estimate
from tutto_sim.core.streams import below, stream_start

from .cards import HORSE, KING, RANK_NAMES, RANKS, card, deck
from .rules import HAND_SIZE, TuttiRules

#: Every table an analysis can play.
TABLES = ("2", "3", "4", "4p")
#: What :func:`abstain_value` takes away, and the actions that are.
ABSTAIN = {"exchange": ("exchange",), "declare": ("declare", "tute")}
#: Deals per call of the deal kernel (progress and Ctrl-C granularity).
DEAL_CHUNK = 1 << 17
#: Hands per kernel call in :func:`trump_rank`.
HAND_CHUNK = 1 << 15
#: Deals per Dask task of :func:`abstain_value` on a cluster (here: one at a time).
ABSTAIN_TASK = 25
KINGS = sum(1 << card(s, KING) for s in range(4))
HORSES = sum(1 << card(s, HORSE) for s in range(4))

Phase = Callable[[str, int], Callable[[int], None]]


def _no_phase(label: str, total: int):
    return lambda n: None


def parse_tables(text: str, allowed: tuple[str, ...] = TABLES) -> list[str]:
    """The tables of ``--tables`` (a comma-separated list); one-line ValueError."""
    items = [t.strip().lower() for t in str(text).split(",")]
    if not items or any(t not in allowed for t in items) or len(set(items)) != len(items):
        pairs = " (4p: four in pairs)" if "4p" in allowed else ""
        raise ValueError(f"--tables must be a list of {', '.join(allowed)}{pairs}, not {text!r}")
    return items


def named_table_rules(base: TuttiRules, table: str) -> TuttiRules:
    """The rules of ``table`` with the other options of ``base``."""
    return dataclasses.replace(base, players=int(table[0]), pairs=table == "4p")


def table_words(table: str) -> str:
    return "4 in pairs" if table == "4p" else f"{table} players"


def side_words(table: str, side: int) -> str:
    """A side in players' words: ``player 0 (leads)``, ``the leader's pair``."""
    if table == "4p":
        return "the leader's pair" if side == 0 else "the dealer's pair"
    n = int(table)
    who = " (leads)" if side == 0 else " (deals)" if side == n - 1 else ""
    return f"player {side}{who}"


# -- deals ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, parallel=True)
def _deal_blocks(seed, start, n_deals, n, h, block, hands, shown):
    """Deals ``start ..``: Fisher–Yates of the deck from stream ``(seed, i)``
    as ``reference.deal`` (leader seat 0); ``hands[g, p]`` masks, ``shown[g]``."""
    n_blocks = (n_deals + block - 1) // block
    for blk in prange(n_blocks):
        cards = np.zeros(40, np.int64)
        rs = np.zeros(1, np.uint64)
        for g in range(blk * block, min(n_deals, (blk + 1) * block)):
            m = 0
            for c in range(40):
                if not (n == 3 and c % 10 == 9):
                    cards[m] = c
                    m += 1
            rs[0] = stream_start(seed, np.uint64(start + g))
            for k in range(m - 1, 0, -1):
                j = below(rs, k + 1)
                t = cards[k]
                cards[k] = cards[j]
                cards[j] = t
            for p in range(n):
                mask = np.int64(0)
                for q in range(p * h, (p + 1) * h):
                    mask |= np.int64(1) << cards[q]
                hands[g, p] = mask
            shown[g] = cards[2 * h] if n == 2 else cards[m - 1]


def deals(players: int, seed: int, start: int, n_deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``start .. start + n_deals - 1`` of a run with ``seed``, led by seat 0:
    each seat's hand as a mask ``[n_deals, players]`` and the card that shows
    trumps ``[n_deals]`` (as ``reference.deal(rules, seed, i).hands`` and ``.shown``)."""
    hands = np.zeros((n_deals, players), np.int64)
    shown = np.zeros(n_deals, np.int64)
    _deal_blocks(np.uint64(seed), start, n_deals, players, HAND_SIZE[players], 4096, hands, shown)
    return hands, shown


def holds_tute(hands: np.ndarray) -> np.ndarray:
    """Per hand mask: four Kings or four Horses."""
    return ((hands & KINGS) == KINGS) | ((hands & HORSES) == HORSES)


# -- P(dealt Tute), exact ----------------------------------------------------------------------


def p_dealt_tute(players: int) -> dict[str, Fraction]:
    """Exact P(a Tute is dealt) at a table of ``players``, by counting hands.

    With ``N`` cards, hands of ``h`` and ``C`` the binomial coefficient:
    one player holds the four Kings with ``C(N-4, h-4) / C(N, h)``, the four
    Kings and the four Horses with ``C(N-8, h-8) / C(N, h)``, so *per player*
    ``2 C(N-4, h-4) / C(N, h) - C(N-8, h-8) / C(N, h)``. *At the table*: no two
    players hold the four Kings at once, so some player holds them with ``n``
    times the one-player chance; the same for Horses; the Kings with one
    player and the Horses with another: ``C(N-8, h-4) C(N-h-4, h-4) / (C(N, h)
    C(N-h, h))`` for each ordered pair of players; inclusion–exclusion."""
    n, h = players, HAND_SIZE[players]
    size = len(deck(players))
    one = Fraction(math.comb(size, h))
    kings = math.comb(size - 4, h - 4) / one
    both_one = math.comb(size - 8, h - 8) / one
    apart = Fraction(math.comb(size - 8, h - 4) * math.comb(size - h - 4, h - 4),
                     math.comb(size, h) * math.comb(size - h, h))
    player = 2 * kings - both_one
    table = 2 * n * kings - (n * both_one + n * (n - 1) * apart)
    return {"player": player, "table": table}


# -- result rows ---------------------------------------------------------------------------------


def _est(e: Estimate | None) -> dict:
    return {} if e is None else {"mean": e.mean, "ci95": e.ci95, "n": e.n}


@dataclass
class TuteRow:
    players: int
    deals: int
    exact_player: Fraction
    exact_table: Fraction
    player: Estimate  # sampled, per player
    table: Estimate  # sampled, some player at the table

    def to_dict(self) -> dict:
        return {"deals": self.deals, "exact": float(self.exact_player),
                "exact_fraction": str(self.exact_player), **self.player.json("sampled"),
                "table_exact": float(self.exact_table),
                "table_exact_fraction": str(self.exact_table), **self.table.json("table_sampled")}


@dataclass
class LeadRow:
    table: str
    games: int
    seats: list[Estimate]  # win rate by seat (seat 0 leads first)
    fair: float
    points: list[Estimate]  # points per hand by seat (its side's)
    hands: Estimate  # hands per match

    @property
    def advantage(self) -> Estimate:
        return self.seats[0].shift(-self.fair)

    def to_dict(self) -> dict:
        return {"games": self.games, **self.seats[0].json("first_leader", "first_leader_win_rate"),
                "fair_share": self.fair, **self.advantage.json("lead_advantage"),
                "lead_advantage_measurable": self.advantage.measurable,
                "seat_win_rates": [e.mean for e in self.seats],
                "seat_ci95": [e.ci95 for e in self.seats],
                "seat_low": [e.low for e in self.seats], "seat_high": [e.high for e in self.seats],
                "points_per_hand": [e.mean for e in self.points],
                "points_per_hand_ci95": [e.ci95 for e in self.points],
                "hands_per_match": self.hands.mean, "hands_per_match_ci95": self.hands.ci95}


@dataclass
class AbstainRow:
    table: str
    deals: int
    uses: Estimate  # per side and hand, by the bot that may (exchanges or declarations)
    points_with: Estimate
    points_without: Estimate
    points_value: Estimate  # with minus without, per deal (mean over the sides)
    wins_with: Estimate
    wins_without: Estimate
    wins_value: Estimate

    def to_dict(self) -> dict:
        return {"deals": self.deals, "uses_per_hand": self.uses.mean,
                "uses_per_hand_ci95": self.uses.ci95,
                "points_with": self.points_with.mean, "points_without": self.points_without.mean,
                "points_value": self.points_value.mean,
                "points_value_ci95": self.points_value.ci95,
                "points_value_measurable": self.points_value.measurable,
                "hands_won_with": self.wins_with.mean,
                "hands_won_without": self.wins_without.mean,
                "win_rate_value": self.wins_value.mean,
                "win_rate_value_ci95": self.wins_value.ci95,
                "win_rate_value_measurable": self.wins_value.measurable}


@dataclass
class TrumpRow:
    table: str
    rank: int  # of the card that shows trumps
    points: list[Estimate]  # per side, points per hand
    leader_wins: Estimate  # the leader's side: share of hands won (a tie is not won)

    def to_dict(self) -> dict:
        return {"rank": RANK_NAMES[self.rank], "hands": self.leader_wins.n,
                "points_per_hand": [e.mean for e in self.points],
                "points_per_hand_ci95": [e.ci95 for e in self.points],
                **self.leader_wins.json("leader_hands_won")}


@dataclass
class Result:
    """What an analysis found; ``interrupted``: only the parts done by then."""

    analysis: str
    rules: TuttiRules
    bot: str
    seed: int
    size: int  # games, deals or hands per table
    rows: list = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    def to_dict(self) -> dict:
        key = {"tute": "p_dealt_tute"}.get(self.analysis, "tables")
        if self.analysis == "trump":
            body: dict = {}
            for r in self.rows:
                body.setdefault(r.table, {})[RANKS[r.rank]] = r.to_dict()
        else:
            body = {(str(r.players) if self.analysis == "tute" else r.table): r.to_dict()
                    for r in self.rows}
        return {"analysis": self.analysis, "bot": self.bot, "seed": self.seed, "size": self.size,
                key: body, "seconds": round(self.seconds, 2), "interrupted": self.interrupted}


class _Sums:
    """Running sums of a sample: n, Σx, Σx²."""

    def __init__(self):
        self.n, self.s, self.ss = 0, 0.0, 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.s += x
        self.ss += x * x

    def estimate(self) -> Estimate:
        return Estimate.from_sums(self.s, self.ss, self.n)


# -- the analyses -------------------------------------------------------------------------------


def _per_table(out: Result, tables, part) -> Result:
    """``part(table)`` gives the rows of each table in turn; Ctrl-C keeps the
    tables that finished (``out.interrupted``)."""
    t0 = time.perf_counter()
    try:
        for table in tables:
            out.rows.extend(part(table))
    except KeyboardInterrupt:
        out.interrupted = True
    out.seconds = time.perf_counter() - t0
    return out


def _tute_counts(players: int, seed: int, offset: int, n: int) -> np.ndarray:
    """Deals ``offset ..`` (``n``): Σ seats dealt a Tute, Σ its square, deals with one
    (one chunk of :func:`dealt_tute`, here or on a Dask worker)."""
    hands, _ = deals(players, seed, offset, n)
    count = holds_tute(hands).sum(axis=1).astype(np.int64)
    return np.array([count.sum(), (count * count).sum(), (count > 0).sum()], np.int64)


def dealt_tute(tables=(2, 3, 4), n_deals: int = 1_000_000, seed: int = 1,
               phase: Phase = _no_phase) -> Result:
    """Exact and sampled P(a Tute is dealt) per table size (module docstring)."""

    def part(n):
        per = np.zeros(3, np.int64)  # Σ seats with a Tute, Σ its square, deals with one
        cluster.add_up(functools.partial(_tute_counts, n, seed), per, n_deals, DEAL_CHUNK,
                       DEAL_CHUNK // cluster.CLUSTER_BLOCKS, phase(f"{n} players", n_deals),
                       catch_interrupt=False)
        exact = p_dealt_tute(n)
        return [TuteRow(n, n_deals, exact["player"], exact["table"],
                        Estimate.share_of_means(
                            Estimate.from_sums(int(per[0]), int(per[1]), n_deals, 1 / n)),
                        Estimate.proportion(int(per[2]), n_deals))]

    return _per_table(Result("tute", TuttiRules(), "", seed, n_deals), tables, part)


def lead_advantage(base: TuttiRules, tables=TABLES, bot: str = "heuristic", games: int = 20_000,
                   seed: int = 1, phase: Phase = _no_phase) -> Result:
    """The first leader's win rate and each seat's points per hand (module docstring)."""
    from tutto_sim.core.bots import parse_bots
    from tutto_sim.core.tournament import run_tournament

    from .game import GameConfig

    def part(table):
        rules = named_table_rules(base, table)
        n = rules.players
        seat = np.zeros((n, 6), np.int64)  # per seat: 1, p, p², h, h², p·h

        def collect(batch, seats):
            p = np.asarray(batch.extra["points"], np.int64)
            h = np.broadcast_to(np.asarray(batch.counts["hands"], np.int64)[:, None], p.shape)
            for k, v in enumerate((np.ones_like(p), p, p * p, h, h * h, p * h)):
                seat[:, k] += v.sum(axis=0)

        res = run_tournament(parse_bots([bot], rules), n, games, seed, GameConfig(rules),
                             progress=phase(table_words(table), games), catch_interrupt=False,
                             on_batch=collect)
        points = [Estimate.ratio(*(int(x) for x in seat[j, 1:]), int(seat[j, 0]))
                  for j in range(n)]
        return [LeadRow(table, res.games, res.seat_rates(), res.fair_share(), points,
                        res.game_count("hands"))]

    return _per_table(Result("lead", base, bot, seed, games), tables, part)


class Abstain:
    """A bot that never takes the actions of ``kinds``: ``inner`` sees the
    observation without them (a partner asked to declare then passes)."""

    def __init__(self, inner, kinds: tuple[str, ...]):
        self.inner = inner
        self.kinds = kinds
        self.name = f"{inner.name} never {'/'.join(kinds)}"

    def act(self, obs):
        return self.inner.act(obs._replace(legal=tuple(a for a in obs.legal
                                                       if a.kind not in self.kinds)))


def _abstain_hand(what: str, bot: str, rules: TuttiRules, seed: int, i: int, abstaining=()):
    """Deal ``i`` played by ``bot`` in every seat, the seats ``abstaining`` never
    taking the actions of ``what``."""
    from .bots import make_bot
    from .reference import play_hand

    bots = [make_bot(bot, j, seed, i) for j in range(rules.players)]
    for j in abstaining:
        bots[j] = Abstain(bots[j], ABSTAIN[what])
    return play_hand(bots, rules, seed, i)


#: The per-deal figures of :func:`abstain_value`, in the order of its sums.
ABSTAIN_KEYS = ("uses", "pw", "pwo", "pv", "ww", "wwo", "wv")


def _abstain_deals(what: str, bot: str, rules: TuttiRules, seed: int, offset: int,
                   n: int) -> list[tuple[float, ...]]:
    """Deals ``offset ..`` (``n``) of :func:`abstain_value`, each played with the
    option and once more for each side without: per deal the figures of
    :data:`ABSTAIN_KEYS` (means over the sides)."""
    rows = []
    for i in range(offset, offset + n):
        full = _abstain_hand(what, bot, rules, seed, i)
        made = full.exchanges if what == "exchange" else full.declarations
        row = dict.fromkeys(ABSTAIN_KEYS, 0.0)
        for s in range(rules.sides):
            without = _abstain_hand(what, bot, rules, seed, i,
                                    [j for j in range(rules.players) if rules.side(j) == s])
            for k, v in (("uses", sum(rules.side(x.seat) == s for x in made)),
                         ("pw", full.scores[s]), ("pwo", without.scores[s]),
                         ("ww", float(full.winner == s)), ("wwo", float(without.winner == s))):
                row[k] += v / rules.sides
        row["pv"] = row["pw"] - row["pwo"]
        row["wv"] = row["ww"] - row["wwo"]
        rows.append(tuple(row[k] for k in ABSTAIN_KEYS))
    return rows


def abstain_value(base: TuttiRules, what: str = "declare", tables=TABLES, bot: str = "heuristic",
                  n_deals: int = 1_000, seed: int = 1, phase: Phase = _no_phase) -> Result:
    """The value of the trump exchange or of declaring (module docstring). On a
    cluster :data:`ABSTAIN_TASK` deals are one task; the deals' figures are
    added up in deal order either way."""
    if what not in ABSTAIN:
        raise ValueError(f"what must be one of {', '.join(ABSTAIN)}, not {what!r}")

    def part(table):
        rules = named_table_rules(base, table)
        sums = [_Sums() for _ in ABSTAIN_KEYS]

        def take(offset: int, n: int, rows) -> None:
            for row in rows:
                for acc, v in zip(sums, row):
                    acc.add(v)

        cluster.run_chunks(functools.partial(_abstain_deals, what, bot, rules, seed), n_deals,
                           ABSTAIN_TASK if cluster.active() else 1, take,
                           phase(table_words(table), n_deals))
        e = dict(zip(ABSTAIN_KEYS, (acc.estimate() for acc in sums)))
        return [AbstainRow(table, n_deals, e["uses"], e["pw"], e["pwo"], e["pv"], e["ww"],
                           e["wwo"], e["wv"])]

    return _per_table(Result(what, base, bot, seed, n_deals), tables, part)


def trump_rank(base: TuttiRules, tables=TABLES, bot: str = "heuristic", n_deals: int = 200_000,
               seed: int = 1, phase: Phase = _no_phase) -> Result:
    """Points per hand by the rank of the card that shows trumps (module docstring)."""

    def part(table):
        rules = named_table_rules(base, table)
        sides = rules.sides
        # per rank: hands, hands the leader won, then per side Σp, then per side Σp²
        acc = np.zeros((10, 2 + 2 * sides), np.int64)
        cluster.add_up(functools.partial(_trump_sums, bot, rules, seed), acc, n_deals,
                       HAND_CHUNK, HAND_CHUNK // cluster.CLUSTER_BLOCKS,
                       phase(table_words(table), n_deals), catch_interrupt=False)
        count, wins = acc[:, 0], acc[:, 1]
        return [TrumpRow(table, r, [Estimate.from_sums(int(acc[r, 2 + s]),
                                                       int(acc[r, 2 + sides + s]), int(count[r]))
                                    for s in range(sides)],
                         Estimate.proportion(int(wins[r]), int(count[r])))
                for r in range(10) if count[r]]

    return _per_table(Result("trump", base, bot, seed, n_deals), tables, part)


def _trump_sums(bot: str, rules: TuttiRules, seed: int, offset: int, n: int) -> np.ndarray:
    """Hands ``offset ..`` (``n``) of :func:`trump_rank` in the kernel, by the rank
    of the card that shows trumps: ``[rank, (hands, leader's wins, Σp per side,
    Σp² per side)]``."""
    from . import kernel as K

    sides = rules.sides
    res = K.simulate_hands([bot] * rules.players, rules, seed, n, offset)
    rank = deals(rules.players, seed, offset, n)[1] % 10
    p = res.points.astype(np.int64)[:, :sides]
    acc = np.zeros((10, 2 + 2 * sides), np.int64)
    np.add.at(acc[:, 0], rank, 1)
    np.add.at(acc[:, 1], rank, (res.winner == 0).astype(np.int64))
    for s in range(sides):
        np.add.at(acc[:, 2 + s], rank, p[:, s])
        np.add.at(acc[:, 2 + sides + s], rank, p[:, s] * p[:, s])
    return acc
