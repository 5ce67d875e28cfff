"""Tutto bots and their specs.

Every bot implements the bot protocol (``core.api``: a ``name`` and
``act(decision)``), so every bot plays in the reference game. Table and
threshold bots also have ``table()``, their decisions as a
:class:`~tutto_sim.tutto.table_kernel.BotTable`, and so also play in the numba
kernel; the tests check that both ways give the same games.

Bot specs (``parse_bot``):

=========================  ====================================================
``optimal``                the optimal turn policy (``table`` of
                           ``tutto_sim/data/policies/tutto-default.json``, or solved for
                           the rules in play)
``table:FILE``             a policy file from ``tutto-sim export-policy``
``winopt[:FILE]``          plays to win: decisions from the exact two-player
                           win table (docs/win.md) of ``FILE`` (from
                           ``solve --objective win``), by default of
                           ``results/tutto-win-TARGET-<run>.json`` when it fits the
                           rules, else solved (a phase of the progress bar)
                           and saved there for the next run (in the game
                           kernel from its values at every turn start,
                           built at load); at a table of three or more the
                           table's decisions for its own score against the
                           leader's (``tutto.win.seat``)
``endgame[:FILE]``         a table (default: optimal) that banks at once when
                           banking reaches the target and presses on (never
                           banks) when behind in the last round
``threshold[:B[:D[:K]]]``  bank as soon as the turn total is >= B (default 300,
                           the best single threshold for turn EV), after a
                           Tutto bank at >= D (default B), keep rule K
                           (default ``all``; ``triples-ones``, ``best-unit``,
                           ``fewest-dice``)
``cautious``               ``threshold:300``: banks as soon as it can with >= 300
``reckless``               never banks before a Tutto, banks right after one
``random``                 a uniformly random legal action (reference game only)
``py:MODULE:NAME``         ``NAME()`` from a Python module or ``.py`` file
                           (reference game only unless it has ``table()``)
=========================  ====================================================

Berliner Macke's bots: ``macke.bots``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from tutto_sim.core.bots import POLICY_DIR, BotSpecError, RandomBot, file_error, parse_points, table_bot, threshold_parts  # noqa: F401
from tutto_sim.core.policyfile import PolicyFileError, saved_table
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import KEEP_RULES, MAX_DICE, build_tables
from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, STREET, THROW, Decision
from tutto_sim.tutto.cards import BANKABLE_CARDS, Card
from tutto_sim.tutto.flags import VALID_BOTS
from tutto_sim.tutto.policy import TURN_FIELDS, ExactPolicy, load_policy, optimal_policy
from tutto_sim.tutto.table_kernel import BotTable
from tutto_sim.tutto.reference import choose_keep
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import CardPolicy, ThresholdPolicy




def _pick(legal, dice: int):
    """The keep of ``dice`` dice with the most points (the first such keep)."""
    best = None
    for k in legal:
        if len(k.dice) == dice and (best is None or k.points > best.points):
            best = k
    return best


def endgame_banks(table_banks: bool, d: Decision) -> bool:
    """Endgame rule: press on when behind in the last round; bank at once when
    banking reaches the target; otherwise follow the table."""
    g = d.game
    mine = g.my_score + d.turn_total
    if g.last_round and mine < g.best_other:
        return False
    if mine >= g.rules.target:
        return True
    return table_banks


class KernelBot:
    """Plays a decision table (:class:`~tutto_sim.tutto.policy.ExactPolicy`)."""

    def __init__(self, policy: ExactPolicy, name: str = "optimal", endgame: bool = False):
        self.policy = policy
        self.name = name
        self.endgame = endgame
        self._tables = build_tables(policy.rules.scoring)

    def _row(self, turn_total: int) -> int:
        return min(turn_total // POINT_UNIT, self.policy.t_max)

    def act(self, d: Decision):
        p = self.policy
        row = self._row(d.turn_total)
        by_points = d.card is Card.X2 and p.rules.x2_scope == "card"
        if d.kind == KEEP:
            ms = self._tables.multiset_of(d.throw)
            k = (p.keep_x2p[d.card_points // POINT_UNIT, row, ms] if by_points
                 else p.keep[d.card, row, ms])
            return _pick(d.legal, int(k))
        if d.kind == STREET:
            new = sorted(set(d.throw) - set(d.street_numbers))
            take = int(p.street_take[len(d.street_numbers), len(new)])
            return next(k for k in d.legal if k.dice == tuple(new[:take]))
        if d.kind == BANK_OR_THROW:
            bank = p.bank_x2p[d.card_points // POINT_UNIT] if by_points else p.bank[d.card]
            banks = bool(bank[d.dice, row])
            if self.endgame:
                banks = endgame_banks(banks, d)
            return BANK if banks else THROW
        if d.kind == BANK_OR_DRAW:
            banks = not p.draw[row]
            if self.endgame:
                banks = endgame_banks(banks, d)
            return BANK if banks else DRAW
        raise ValueError(f"unknown decision kind {d.kind!r}")

    def table(self) -> BotTable:
        p = self.policy
        n_cards = p.keep.shape[0]
        draw = np.repeat(p.draw[None, :], n_cards, axis=0)
        kx, bx = p.keep_x2p, p.bank_x2p
        if kx is None:
            kx = np.zeros((1, 1, p.keep.shape[2]), dtype=np.int8)
            bx = np.zeros((1, MAX_DICE, 1), dtype=np.bool_)
        return BotTable(p.keep, p.bank, draw, p.street_take, kx, bx, self.endgame)


class ThresholdBot:
    """Plays a :class:`~tutto_sim.tutto.threshold.ThresholdPolicy`: a keep rule,
    bank thresholds by dice left and a draw-below threshold after a Tutto."""

    def __init__(self, policy: ThresholdPolicy, rules: TuttoRules, name: str = "threshold"):
        self.policy = policy
        self.rules = rules
        self.name = name

    def act(self, d: Decision):
        plan = self.policy[d.card]
        if d.kind == KEEP:
            kept, points = choose_keep(plan.keep, list(d.throw), self.rules)
            keep = _pick(d.legal, kept)
            assert keep.points == points  # every keep rule scores its dice at their best
            return keep
        if d.kind == STREET:
            new = sorted(set(d.throw) - set(d.street_numbers))
            return next(k for k in d.legal if k.dice == tuple(new[:plan.street_take]))
        if d.kind == BANK_OR_THROW:
            at = plan.bank_at[d.dice - 1]
            return BANK if at is not None and d.turn_total >= at else THROW
        if d.kind == BANK_OR_DRAW:
            at = plan.draw_below
            return BANK if at is not None and d.turn_total >= at else DRAW
        raise ValueError(f"unknown decision kind {d.kind!r}")

    def table(self) -> BotTable:
        """The same decisions as a table: every keep rule keeps the best points
        for its number of dice, so ``keep_dice`` says it all."""
        t = build_tables(self.rules.scoring)
        arr = self.policy.to_array()  # units; NEVER for "never"
        finite = [v for v in arr[:, 1:7].ravel() if v < 1 << 40]
        rows = max(finite, default=0) + 1
        totals = np.arange(rows)
        n_cards, n_ms = arr.shape[0], t.n_multisets
        keep = np.zeros((n_cards, rows, n_ms), dtype=np.int8)
        bank = np.zeros((n_cards, MAX_DICE, rows), dtype=np.bool_)
        draw = np.zeros((n_cards, rows), dtype=np.bool_)
        for c in range(n_cards):
            rule = 0 if c == Card.FIREWORKS else int(arr[c, 0])
            keep[c] = t.keep_dice[rule][None, :]
            if Card(c) in BANKABLE_CARDS:
                for d in range(1, MAX_DICE):
                    bank[c, d] = totals >= arr[c, d]
            draw[c] = totals < arr[c, 6]
        take = int(self.policy[Card.STREET].street_take)
        street = np.zeros((7, 7), dtype=np.int8)
        for m in range(6):
            for j in range(1, 7 - m):
                street[m, j] = min(take, j)
        if self.rules.x2_scope == "card":
            from tutto_sim.tutto.solver import max_card_points

            p = max_card_points(t) + 1
            kx = np.ascontiguousarray(np.repeat(keep[Card.X2][None], p, axis=0))
            bx = np.ascontiguousarray(np.repeat(bank[Card.X2][None], p, axis=0))
        else:
            kx = np.zeros((1, 1, n_ms), dtype=np.int8)
            bx = np.zeros((1, MAX_DICE, 1), dtype=np.bool_)
        return BotTable(keep, bank, draw, street, kx, bx, False)


class WinOptBot:
    """Plays to win (``tutto.win.planner.WinPlanner``): a two-player game by the
    exact win table, a table of three or more by its decisions in a reduced
    two-player state (``tutto.win.seat``).

    ``table`` is the win table, or None with ``source(phase)`` giving it when
    first needed: :meth:`prepare` (a tournament, with the command's progress
    bar) or the first decision."""

    def __init__(self, table, name: str = "winopt", source=None):
        self._table, self._source, self._planner = table, source, None
        self.name = name

    @property
    def planner(self):
        return self._plan(None)

    def _plan(self, phase):
        from tutto_sim.tutto.win.planner import WinPlanner

        if self._planner is None:
            self._planner = WinPlanner(self._table if self._table is not None else self._source(phase))
        return self._planner

    def act(self, d: Decision):
        g, p = d.game, self.planner
        if len(g.scores) < 2:
            raise ValueError(f"{self.name} plays against at least one other player")
        pm = d.plusminus_tuttos
        if d.kind == KEEP:
            k = p.keep_dice(g, d.card, d.turn_total, d.card_points, d.dice, d.throw, pm)
            return _pick(d.legal, k)
        if d.kind == STREET:
            new = sorted(set(d.throw) - set(d.street_numbers))
            take = p.street_take(g, d.turn_total, len(d.street_numbers), len(new), pm)
            return next(k for k in d.legal if k.dice == tuple(new[:take]))
        if d.kind == BANK_OR_THROW:
            return BANK if p.banks(g, d.card, d.turn_total, d.card_points, d.dice, pm) else THROW
        if d.kind == BANK_OR_DRAW:
            return BANK if p.banks_after_tutto(g, d.turn_total, pm) else DRAW
        raise ValueError(f"unknown decision kind {d.kind!r}")

    def prepare(self, phase) -> None:
        """Build :meth:`table`'s values now, as phases of the command's
        progress (``core.bots.prepare_bots``; ``phase(label, total)`` gives the
        callback): the win table first if it is not saved yet (solved and
        saved, :func:`win_table`), then one step per turn start (who is to
        throw, both scores), about 50 s at target 6000. Built once per table:
        :meth:`table` then finds them."""
        from tutto_sim.tutto.win.bot_kernel import win_bot_data

        planner = self._plan(phase)
        n = planner.n
        win_bot_data(planner.table, phase("preparing the win-to-play bot", 2 * n * n))

    def table(self):
        """The same decisions in the game kernel (``tutto.win.bot_kernel``):
        the planner's values for every turn start, built once per table."""
        from tutto_sim.tutto.win.bot_kernel import WinBotTable, forced_table, win_bot_data

        return WinBotTable(win_bot_data(self.planner.table), forced_table(self.planner.rules))


class WinOptBotN:
    """Plays to win at a table of N (an N-player table of ``win.solve_n``): in
    the game kernel, the win-optimal player's turn programme of every state
    (``win.bot_kernel.win_bot_data_n``)."""

    def __init__(self, table, name: str = "winopt"):
        self.table_n = table
        self.name = name

    def act(self, d: Decision):
        raise ValueError(f"{self.name} with a table of {self.table_n.players} players plays in "
                         "the game kernel (--engine kernel)")

    def prepare(self, phase) -> None:
        from tutto_sim.tutto.win.bot_kernel import win_bot_data_n
        from tutto_sim.tutto.win.solve_n import work_units

        t = self.table_n
        win_bot_data_n(t, phase("preparing the win-to-play bot",
                                work_units(t.rules, t.players, evaluate_ev=False,
                                           margin_cap=t.margin_cap)))

    def table(self):
        from tutto_sim.tutto.win.bot_kernel import WinBotTable, forced_table, win_bot_data_n

        return WinBotTable(win_bot_data_n(self.table_n), forced_table(self.table_n.rules))


def _table_players(path: str) -> int:
    """The players of a win table file (2 when it does not say: version 1)."""
    import json

    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        return int(d.get("players", 2)) if isinstance(d, dict) else 2
    except (OSError, ValueError, TypeError):
        return 2  # the loader says what is wrong


def win_table(rules: TuttoRules, path: str | None = None, phase=None):
    """The win table of ``winopt``: from ``path``; else the saved table of
    ``solve --objective win`` (``win.table.default_win_file``) when it fits the
    rules (said on stderr); else solved now, with a progress bar when
    ``phase`` is given, and saved there for the next run (:func:`solve_and_save`)."""
    from tutto_sim.core.cli import err
    from tutto_sim.tutto.win.table import default_win_file, load_win_table, win_rules

    if path:
        return load_win_table(path, rules)
    cached = default_win_file(rules)[0]
    table = saved_table(cached, load_win_table, rules)
    if table is None:
        return solve_and_save(win_rules(rules), phase)
    if cached.resolve() not in _told:
        _told.add(cached.resolve())
        err.print(f"winopt: win table for target {rules.target:,} read from {cached}",
                  markup=False, highlight=False)
    return table


#: Saved win tables already named on stderr in this process.
_told: set = set()
#: Win tables solved in this process (for a folder where they cannot be saved).
_solved: dict = {}
#: Rough solve time (seconds, warm) of ``solve --objective win`` per (target in
#: units of 50 points)³: 17.5 s at target 3,000 on the idle 2-core machine
#: (``solve --objective win --target 3000 --json``, 2026-12-02).
SOLVE_SECONDS_PER_UNIT3 = 8e-5


def solve_and_save(rules: TuttoRules, phase=None):
    """Solve the win table of ``rules`` as ``solve --objective win`` does (its
    figures too), saying so first on stderr, with a progress bar when
    ``phase`` is given, and save it where that command writes it and
    :func:`win_table` finds it (``win.table.default_win_file``). The table is then
    read back from the file, so that this run plays exactly as the next one,
    which finds it. A folder that cannot be written keeps the table for this
    process only (said on stderr)."""
    from tutto_sim.core.cli import atomic_write, duration_words, err
    from tutto_sim.tutto.win.solve2 import solve_win, work_units
    from tutto_sim.tutto.win.table import WinTable, default_win_file, load_win_table, write_win_table

    if rules in _solved:
        return _solved[rules]
    path = default_win_file(rules)[0]
    n = rules.target // POINT_UNIT
    say = lambda m: err.print(m, markup=False, highlight=False)  # noqa: E731
    say(f"winopt: no win table for target {rules.target:,} in {path}; solving the win table for "
        f"target {rules.target:,} ({duration_words(SOLVE_SECONDS_PER_UNIT3 * n ** 3)}, longer on a first "
        "run that compiles; "
        "saved for later runs)")
    sol = solve_win(rules, progress=phase("solving the win table", work_units(rules))
                    if phase is not None else None)
    table = WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, sol.summary())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: write_win_table(sol, tmp))
        table = load_win_table(path, rules)
        say(f"winopt: win table written to {path}; later runs read it")
    except (OSError, PolicyFileError) as e:
        say(f"winopt: the win table could not be saved in {path} ({e}); it serves this run only")
    _solved[rules] = table
    return table


# ---- specs ------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _load_table(path: str, rules: TuttoRules) -> ExactPolicy:
    policy = load_policy(path)
    wrong = [f"{f}={getattr(rules, f)!r} (file: {getattr(policy.rules, f)!r})"
             for f in TURN_FIELDS if getattr(rules, f) != getattr(policy.rules, f)]
    if wrong:
        raise PolicyFileError(f"policy file {path} was solved for other rules: {', '.join(wrong)}")
    return policy


def threshold_policy(bank: int, after_tutto: int, keep: str) -> ThresholdPolicy:
    """One bank threshold for every card and dice count, one after a Tutto."""
    cards = []
    for c in Card:
        at = (bank,) * 5 if c in BANKABLE_CARDS else (None,) * 5
        cards.append(CardPolicy(keep, at, after_tutto))
    return ThresholdPolicy(tuple(cards))


def parse_bot(spec: str, rules: TuttoRules = TuttoRules()):
    """A Tutto bot from its spec (module docstring); :class:`BotSpecError` if unusable."""
    bot, text, kind, arg = table_bot(spec, VALID_BOTS, lambda: optimal_policy(rules),
                                     lambda path: _load_table(path, rules), KernelBot)
    if bot is not None:
        return bot
    if kind == "winopt":
        try:
            if arg and _table_players(arg) > 2:
                from tutto_sim.tutto.win.table import load_win_table_n

                return WinOptBotN(load_win_table_n(arg, rules), text)
            if arg:
                return WinOptBot(win_table(rules, arg), text)
            from tutto_sim.tutto.win.solve2 import MAX_TARGET

            if rules.target > MAX_TARGET:
                raise ValueError(f"the win solver takes targets up to {MAX_TARGET:,}, "
                                 f"not {rules.target:,}")
            return WinOptBot(None, text, source=lambda phase: win_table(rules, None, phase))
        except PolicyFileError as e:
            raise file_error(spec, e) from None
        except ValueError as e:
            raise BotSpecError(f"bot {spec!r}: {e}; {VALID_BOTS}") from None
    if kind == "threshold":
        parts = threshold_parts(spec, arg, "BANK:AFTER_TUTTO:KEEP", VALID_BOTS)
        bank = parse_points(spec, "BANK", parts[0], VALID_BOTS) if parts else 300
        after = parse_points(spec, "AFTER_TUTTO", parts[1], VALID_BOTS) if len(parts) > 1 else bank
        keep = parts[2] if len(parts) > 2 else "all"
        if keep not in KEEP_RULES:
            raise BotSpecError(f"bot {spec!r}: KEEP must be one of {', '.join(KEEP_RULES)}, "
                               f"not {keep!r}; {VALID_BOTS}")
        return ThresholdBot(threshold_policy(bank, after, keep), rules, text)
    if kind == "cautious" and not arg:
        return ThresholdBot(threshold_policy(300, 300, "all"), rules, text)
    if kind == "reckless" and not arg:
        return ThresholdBot(threshold_policy(None, 0, "all"), rules, text)
    raise BotSpecError(f"unknown bot {spec!r}; {VALID_BOTS}")


