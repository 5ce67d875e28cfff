"""Tutti in the shared tournament (``core.tournament``): the config, the record
of one reference match as the tournament reads it, the kernel wrapper that
plays the tournament's matches in ``tutti.kernel``, and Tutti's own figures.

A tournament game is a **match** (``reference.play_match``): the first side
to win ``rules.hands`` hands wins, a tied hand is replayed, a Tute ends the
match at once (``tute_wins = "match"``). The winner takes the whole win (the
tournament's integer ``SHARE``); with ``pairs`` the winning side's win counts
whole for **both partners** (``GameKind.partners``), and the fair share is
1/2. A match stopped by the simulator's safety net (``reference.MAX_HANDS``)
has no winner and ends as ``cap``. The order round the table matters (who
plays after whom, who partners whom), so a tournament plays every seating
(``GameKind.all_seatings``): with ``pairs`` a bot sits with every partner,
its own copies included.

Turns are cards played (tricks × players); the counts per match are the
hands dealt (``hands``), the tied hands replayed (``ties``) and the hands a
Tute ended (``tutes``). Tutti's own figures (:class:`TuttiSummary`): each
bot's **points per hand** (its side's points summed over the hands dealt,
divided by the hands dealt), the share of hands that a **Tute** ended, and
the share of hands **tied** and replayed.

A ``py:`` bot's illegal action is reported in the record's ``errors`` (the
tournament's warning) and the first legal action is played instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tutto_sim.core.api import checked_act
from tutto_sim.core.blocks import SHARE
from tutto_sim.core.stats import Estimate
from tutto_sim.core.tournament import SeatingsKernel, TableConfig, TournamentRecord, check_table

from .reference import play_match
from .rules import TuttiRules

#: How a match ends: hands won, a Tute (``tute_wins = "match"``), the safety net.
END_KINDS = ("won", "tute", "cap")
#: Per-match counts a tournament reports (``mean_hands``, ``mean_ties``, ``mean_tutes``).
COUNTS = ("hands", "ties", "tutes")


@dataclass(frozen=True)
class GameConfig(TableConfig):
    """The rules of a Tutti table (``rules.players`` is the table size)."""

    rules: TuttiRules = TuttiRules()



class _Checked:
    """A ``py:`` bot in the reference engine: an illegal answer (or an
    exception) goes to ``report`` and the first legal action is played."""

    def __init__(self, bot, report):
        self.bot = bot
        self.name = bot.name
        self.report = report

    def act(self, obs):
        answer, problem = checked_act(self.bot, obs, lambda a: a if a in obs.legal else None,
                                      lambda a: f"action {a!r}")
        if problem is None:
            return answer
        self.report(f"{problem} (legal: {', '.join(map(str, obs.legal[:6]))})")
        return obs.legal[0]


def engine_of(bot, report):
    """What ``reference.play_hand`` takes for a parsed bot's seat: its
    ``engine`` (a built-in bot's makes each hand's bot), else the bot,
    checked (:class:`_Checked`)."""
    engine = getattr(bot, "engine", None)
    return engine if engine is not None else _Checked(bot, report)



def play_tournament_game(bots, config: GameConfig, seed: int, index: int) -> TournamentRecord:
    """Match ``index`` of a run with ``seed`` in the reference engine; ``bots[j]``
    (parsed bots, ``tutti.bots.parse_bot``) plays seat j."""
    rules = config.rules
    n = len(bots)
    check_table(rules, n)
    errors: list = []  # (seat, message) of each illegal action of a py: bot
    engines = [engine_of(b, lambda text, seat=j: errors.append((seat, text)))
               for j, b in enumerate(bots)]
    rec = play_match(engines, rules, seed, index)
    winners = tuple(j for j in range(n) if rules.side(j) == rec.winner) if rec.winner >= 0 else ()
    points = [sum(h.scores[rules.side(j)] for h in rec.hands) for j in range(n)]
    return TournamentRecord(
        winners=winners, scores=[0] * n, banked=[0] * n, banked_sq=[0] * n,
        turns=n * sum(len(h.tricks) for h in rec.hands),
        end="cap" if rec.capped else ("tute" if rec.tute else "won"),
        counts={"hands": len(rec.hands), "ties": sum(h.winner < 0 for h in rec.hands),
                "tutes": sum(h.tute >= 0 for h in rec.hands)},
        extra={"points": points},
        errors=errors,
    )


class TuttiGameKernel(SeatingsKernel):
    """The tournament's matches in the numba kernel (``random``, ``heuristic``).

    ``tables`` are the bots' ``table()``: kernel bot ids. Every seating plays
    (``core.tournament.SeatingsKernel``)."""

    def __init__(self, config: GameConfig, tables: list[int]):
        self.config = config
        self.ids = np.array([int(t) for t in tables], dtype=np.int64)

    def play(self, seatings: np.ndarray, rules, seed: int, start: int, n_games: int,
             block: int | None):
        from . import kernel as K

        n = rules.players
        res = K.simulate(seatings, rules, seed, n_games, start, block=block or K.BLOCK)
        sides = np.array([rules.side(j) for j in range(n)], dtype=np.int64)
        winner = res.winner.astype(np.int64)
        share = np.where((winner[:, None] == sides[None, :]) & (winner[:, None] >= 0),
                         SHARE, 0).astype(np.int32)
        zeros = np.zeros((n_games, n), np.int32)
        zeros64 = np.zeros((n_games, n), np.int64)
        tute_end = (res.tute >= 0) & (rules.tute_wins == "match")
        end = np.where(winner < 0, 2, np.where(tute_end, 1, 0)).astype(np.int8)
        hands = res.hands.astype(np.int64)
        counts = {"hands": hands, "ties": hands - res.wins.astype(np.int64).sum(axis=1),
                  "tutes": res.tutes.astype(np.int64)}
        extra = {"points": res.points.astype(np.int64)[:, sides]}
        return (share, zeros, zeros64, zeros64.copy(), (res.tricks * n).astype(np.int32), end,
                counts, extra)


class TuttiSummary:
    """Tutti's own tournament figures, added up over every chunk of matches:
    per bot the points per hand (its side's points over the hands dealt, a
    ratio over the seats it held, CI by the delta method), and over all hands
    the shares ended by a Tute and tied (replayed)."""

    def __init__(self, names: list[str]):
        self.names = list(names)
        self.bot = np.zeros((len(names), 6), np.int64)  # seats, Σp, Σp², Σh, Σh², Σph
        self.hands = 0
        self.ties = 0
        self.tutes = 0

    def add(self, batch, seats: np.ndarray) -> None:
        points = np.asarray(batch.extra["points"], np.int64)
        hands = np.asarray(batch.counts["hands"], np.int64)
        h = np.broadcast_to(hands[:, None], points.shape)
        for k, vals in enumerate((np.ones_like(points), points, points * points, h, h * h,
                                  points * h)):
            np.add.at(self.bot[:, k], seats.ravel(), vals.ravel())
        self.hands += int(hands.sum())
        self.ties += int(np.sum(batch.counts["ties"]))
        self.tutes += int(np.sum(batch.counts["tutes"]))

    def points_per_hand(self, i: int) -> Estimate:
        m, p, pp, h, hh, ph = (int(x) for x in self.bot[i])
        return Estimate.ratio(p, pp, h, hh, ph, m)

    def tute_share(self) -> Estimate:
        return Estimate.proportion(self.tutes, self.hands)

    def tie_share(self) -> Estimate:
        return Estimate.proportion(self.ties, self.hands)

    def to_dict(self) -> dict:
        tute, tie = self.tute_share(), self.tie_share()
        return {
            "bots": {name: {"points_per_hand": self.points_per_hand(i).mean,
                            "points_per_hand_ci95": self.points_per_hand(i).ci95}
                     for i, name in enumerate(self.names)},
            "hands": self.hands,
            "tute_hands": self.tutes,
            **tute.json("tute_hand_share"),
            "replayed_ties": self.ties,
            **tie.json("tied_hand_share"),
            "points": "a seat's points are its side's: card points, 10 for the last trick, "
                      "declarations; points per hand = over the hands dealt, replays included",
        }

    def lines(self) -> list:
        from rich.table import Table

        t = Table("bot", "points per hand", "95% CI", title="points per hand (a side's points; "
                  "a hand holds 130 card points plus the declarations)", title_justify="left")
        for i in sorted(range(len(self.names)), key=lambda i: -self.points_per_hand(i).mean):
            e = self.points_per_hand(i)
            t.add_row(self.names[i], f"{e.mean:.2f}", f"± {e.ci95:.2f}")
        tute, tie = self.tute_share(), self.tie_share()
        line = (f"{self.hands:,} hands: a Tute ended {tute.text(2, percent=True)}; "
                f"tied and replayed {tie.text(2, percent=True)} ({self.ties:,}; 95% CIs)")
        return [t, line]
