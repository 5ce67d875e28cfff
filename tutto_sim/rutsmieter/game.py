"""Rutsmieter in the shared tournament (``core.tournament``): the config, the
record of one reference game as the tournament reads it, and the kernel
wrapper that plays the tournament's games in ``rutsmieter.kernel``.

A game's winner is the first player with all four pieces in the goal lane;
he takes the whole win (the tournament's integer ``SHARE``). A game stopped
by the simulator's safety net (``reference.MAX_THROWS``) has no winner and
ends as ``cap``. Rutsmieter has no points: the score columns stay zero and the
tournament leaves them out (``GameKind.points``); it reports the game's
throws per game besides its turns (``GameKind.counts``). The order round the
table matters (who sits behind whom), so a tournament plays every seating
(``GameKind.all_seatings``). A ``py:`` bot's illegal move is reported in the
record's ``errors`` (the tournament's warning) and the first legal move is
played instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tutto_sim.core.blocks import SHARE
from tutto_sim.core.tournament import SeatingsKernel, TableConfig, TournamentRecord, check_table

from .bots import engine_of
from .reference import play_game
from .rules import RutsmieterRules

#: How a game ends: a winner, or the simulator's safety net on the throws.
END_KINDS = ("won", "cap")
#: Per-game counts a tournament reports (``mean_throws``).
COUNTS = ("throws",)
#: Games per chunk (progress, Ctrl-C) and per block of parallel work when an
#: expert plays: its games take a good part of a second each.
EXPERT_CHUNK = 64
EXPERT_BLOCK = 4


@dataclass(frozen=True)
class GameConfig(TableConfig):
    """The rules of a Rutsmieter table (``rules.players`` is the table size)."""

    rules: RutsmieterRules = RutsmieterRules()




def play_tournament_game(bots, config: GameConfig, seed: int, index: int) -> TournamentRecord:
    """Game ``index`` of a run with ``seed`` in the reference engine; ``bots[j]``
    (parsed bots, ``rutsmieter.bots``) plays for player j."""
    rules = config.rules
    check_table(rules, len(bots))
    errors: list = []  # (seat, message) of each illegal move of a py: bot
    engines = [engine_of(b, lambda text, seat=j: errors.append((seat, text)))
               for j, b in enumerate(bots)]
    rec = play_game(engines, rules, seed, index)
    n = len(bots)
    return TournamentRecord(
        winners=(rec.winner,) if rec.winner >= 0 else (),
        scores=[0] * n, banked=[0] * n, banked_sq=[0] * n,
        turns=rec.turns, end="cap" if rec.capped else "won",
        counts={"throws": rec.throws}, errors=errors,
    )


class RutsmieterGameKernel(SeatingsKernel):
    """The tournament's games in the numba kernel (built-in bots only).

    ``tables`` are the bots' ``table()``: a built-in bot's kernel id, a
    weights bot's weights (a row of the kernel's weights table), or an
    expert's ``expert.ExpertTable`` (a row of the experts table, its rollout
    weights a row of the weights table). Games with an expert are slow: they
    come in small chunks and blocks (:data:`EXPERT_CHUNK`). Every seating
    plays (``core.tournament.SeatingsKernel``)."""

    def __init__(self, config: GameConfig, tables: list[int]):
        from .expert import ExpertTable, kernel_row
        from .kernel import BOT_EXPERT, BOT_WEIGHTS

        self.config = config
        ids, rows, experts = [], [], []
        for t in tables:
            if isinstance(t, (int, np.integer)):
                ids.append(int(t))
            elif isinstance(t, ExpertTable):
                ids.append(BOT_EXPERT + len(experts))
                experts.append(kernel_row(t.rollouts, len(rows), config.rules.players))
                rows.append(tuple(float(w) for w in t.weights))
            else:
                ids.append(BOT_WEIGHTS + len(rows))
                rows.append(tuple(float(w) for w in t))
        self.ids = np.array(ids, dtype=np.int64)
        self.weights = np.array(rows, dtype=np.float64) if rows else None
        self.experts = np.array(experts, dtype=np.int64) if experts else None
        if experts:
            self.chunk = EXPERT_CHUNK

    def play(self, seatings: np.ndarray, rules, seed: int, start: int, n_games: int,
             block: int | None):
        from . import kernel as K

        n = rules.players
        if block is None:
            block = K.BLOCK if self.experts is None else EXPERT_BLOCK
        res = K.simulate(seatings, rules, seed, n_games, start, block=block,
                         weights=self.weights, experts=self.experts)
        share = np.zeros((n_games, n), np.int32)
        won = np.flatnonzero(res.winner >= 0)
        share[won, res.winner[won].astype(np.int64)] = SHARE
        zeros = np.zeros((n_games, n), np.int32)
        zeros64 = np.zeros((n_games, n), np.int64)
        end = np.where(res.winner >= 0, 0, 1).astype(np.int8)
        return (share, zeros, zeros64, zeros64.copy(), res.turns, end,
                {"throws": res.throws.astype(np.int64)})
