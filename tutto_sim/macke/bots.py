"""Berliner Macke and Volle Lotte bots and their specs.

Every bot implements the bot protocol (``core.api``); table and threshold
bots also have ``table()``, their decisions as a
:class:`~tutto_sim.macke.game_kernel.MackeBotTable`, and so play in the numba
game kernel too.

=========================  ====================================================
``optimal``                the optimal turn policy (``tutto_sim/data/policies/macke-default.json``
                           or ``volle-lotte-default.json`` for the default turn
                           rules, else solved for the rules in play)
``winopt[:FILE]``          plays to win: decisions from the exact two-player
                           win table (docs/macke-win.md) of ``FILE`` (from
                           ``solve --objective win``), by default of
                           ``results/GAME-win-TARGET-<run>.json`` when it fits the
                           rules, else solved and saved there (reference game
                           only: its decisions depend on both scores); at a
                           table of three or more the table's decisions for
                           its own score against the leader's
                           (``macke.win.planner.two_player_scores``)
``table:FILE``             a Macke policy file (``export-policy --game macke``)
``endgame[:FILE]``         a table (default: optimal) that banks at once when
                           banking reaches the target and presses on when
                           behind in its last turn (nachwerfen)
``threshold[:K[:CLEAR]]``  keep every scoring unit, never return, bank at >= K
                           (default 300), after a clear at >= CLEAR (default K)
``cautious``               bank at the first chance >= the minimum score
``reckless``               never bank before a series ends, bank every clear
``random``                 a uniformly random legal action (reference game only)
``py:MODULE:NAME``         ``NAME()`` from a Python module or ``.py`` file
=========================  ====================================================
"""

from __future__ import annotations

import functools

from tutto_sim.core.bots import (POLICY_DIR, BotSpecError, file_error, parse_points, table_bot,
                                  threshold_parts)
from tutto_sim.core.policyfile import PolicyFileError, saved_table
from tutto_sim.dice.api import BANK, BANK_OR_THROW, KEEP, THROW
from tutto_sim.macke.flags import VALID_BOTS
from tutto_sim.macke.game import BANK_OR_SERIES, RETURN, MackeDecision
from tutto_sim.macke.game_kernel import MackeBotTable
from tutto_sim.macke.policy import MackeTablePolicy, load_macke_policy
from tutto_sim.macke.rules import MackeRules, macke_turn_rules
from tutto_sim.macke.threshold import MackeThresholdPolicy

#: The Macke files `optimal` loads (by variant) when the turn rules are the preset's.
MACKE_POLICY_FILES = {"standard": POLICY_DIR / "macke-default.json",
                      "volle-lotte": POLICY_DIR / "volle-lotte-default.json"}


def macke_endgame_banks(table_banks: bool, d: MackeDecision) -> bool:
    """Endgame rule for Macke: press on when banking leaves the player behind
    in his last turn (nachwerfen); bank at once when banking reaches the
    target; otherwise follow the table. Banking adds ``d.bank_result`` (minus
    the turn total below the minimum score)."""
    g = d.game
    mine = g.my_score + d.bank_result
    if g.last_round and g.best_other is not None and mine < g.best_other:
        return False
    if mine >= g.rules.target:
        return True
    return table_banks


class KernelBot:
    """Plays a Macke turn policy (``macke.api``): the optimal
    :class:`~tutto_sim.macke.policy.MackeTablePolicy` or a
    :class:`~tutto_sim.macke.threshold.MackeThresholdPolicy`;
    ``endgame`` adds the overrides of :func:`macke_endgame_banks`."""

    def __init__(self, policy, name: str = "optimal", endgame: bool = False):
        self.policy = policy
        self.name = name
        self.endgame = endgame

    def act(self, d: MackeDecision):
        return policy_action(self.policy, d, self.endgame)

    def table(self) -> MackeBotTable:
        """The decisions as the game kernel's arrays (a threshold policy compiled
        by ``macke.solver.threshold_decisions``)."""
        if isinstance(self.policy, MackeThresholdPolicy):
            from tutto_sim.macke.solver import threshold_decisions

            dec = threshold_decisions(self.policy.to_array(), self.policy.rules)
        else:
            dec = self.policy.decisions
        return MackeBotTable.from_decisions(dec, self.endgame)


def policy_action(p, d: MackeDecision, endgame: bool = False):
    """The action of Macke turn policy ``p`` (``macke.api``) at ``d``."""
    if d.kind == KEEP:
        return d.legal[d.options.index(p.keep(d.view, d.throw_id, list(d.options)))]
    if d.kind == RETURN:
        return d.legal[d.options.index(p.before_throw(d.view))]
    if d.kind in (BANK_OR_THROW, BANK_OR_SERIES):
        banks = bool(p.bank(d.view))
        if endgame:
            banks = macke_endgame_banks(banks, d)
        return BANK if banks else THROW
    raise ValueError(f"unknown decision kind {d.kind!r}")


class MackeWinOptBot:
    """Plays to win (``macke.win.planner.WinPlanner``): at each decision the
    win-optimal turn of the scores in play, as a decision table; at a table of
    three or more that of its own score against the leader's."""

    def __init__(self, table, name: str = "winopt"):
        from tutto_sim.macke.win.planner import WinPlanner

        self.planner = WinPlanner(table)
        self.name = name

    def act(self, d: MackeDecision):
        return policy_action(self.planner.for_view(d.game)[2], d)


def win_table(rules: MackeRules, path: str | None = None, say=None):
    """The win table of ``winopt``: from ``path``; else ``results/GAME-win-TARGET-<run>.json``
    when it fits the rules; else solved now (``say`` is told first: it can take
    minutes) and saved there for the next time."""
    from tutto_sim.macke.win.table import MackeWinTable, default_win_file, load_win_table, win_rules

    if path:
        return load_win_table(path, rules)
    table = saved_table(default_win_file(rules)[0], load_win_table, rules)
    return table if table is not None else MackeWinTable.from_solution(_solve_and_save(win_rules(rules), say))


@functools.lru_cache(maxsize=4)
def _solve_and_save(rules: MackeRules, say=None):
    from tutto_sim.core.cli import atomic_write, err
    from tutto_sim.macke.win.solve_n import solve_macke_win
    from tutto_sim.macke.win.table import default_win_file, write_win_table

    path = default_win_file(rules)[0]
    (say or err.print)(f"winopt: no win table in {path} for these rules; solving one now "
                       f"(target {rules.target:,}: about {_minutes(rules.target)} on 2 cores) "
                       f"and saving it there")
    sol = solve_macke_win(rules)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda tmp: write_win_table(sol, tmp))
    except OSError:
        pass  # a read-only folder: the table serves this process all the same
    return sol


def _minutes(target: int) -> str:
    """Rough solve time (docs/macke-win.md: 1,000 in about 3 minutes, 5,000 in about 24)."""
    m = max(1, round(3 + (target - 1000) * 21 / 4000)) if target > 1000 else 3
    return f"{m} minutes"




def optimal_macke_policy(rules: MackeRules) -> MackeTablePolicy:
    """The optimal Macke turn policy: the shipped file when it fits, else solved (< 1 s)."""
    return _optimal_macke(macke_turn_rules(rules))


@functools.lru_cache(maxsize=8)
def _optimal_macke(tr: MackeRules) -> MackeTablePolicy:
    path = MACKE_POLICY_FILES.get(tr.variant)
    if path is not None and tr == MackeRules.preset(tr.variant) and path.exists():
        return load_macke_policy(path, tr)
    from tutto_sim.macke.solver import solve_macke

    return MackeTablePolicy.from_solution(solve_macke(tr))


@functools.lru_cache(maxsize=16)
def _load_macke_table(path: str, rules: MackeRules) -> MackeTablePolicy:
    policy = load_macke_policy(path, asked=rules)
    if macke_turn_rules(policy.rules) != macke_turn_rules(rules):
        fr, r = policy.rules.to_dict(), rules.to_dict()
        wrong = [f"{k}={r[k]!r} (file: {fr[k]!r})" for k in r if k != "target" and r[k] != fr[k]]
        raise PolicyFileError(f"policy file {path} was solved for other rules: {', '.join(wrong)}")
    return policy


def parse_bot(spec: str, rules: MackeRules = MackeRules()):
    """A Berliner Macke / Volle Lotte bot from its spec (module docstring)."""
    valid = VALID_BOTS
    bot, text, kind, arg = table_bot(spec, valid, lambda: optimal_macke_policy(rules),
                                     lambda path: _load_macke_table(path, rules), KernelBot)
    if bot is not None:
        return bot
    if kind == "threshold":
        parts = threshold_parts(spec, arg, "K:CLEAR", valid)
        k = parse_points(spec, "K", parts[0], valid) if parts else 300
        clear = parse_points(spec, "CLEAR", parts[1], valid) if len(parts) > 1 else k
        return KernelBot(MackeThresholdPolicy(rules, k, clear), text)
    if kind == "winopt":
        try:
            return MackeWinOptBot(win_table(rules, arg or None), text)
        except PolicyFileError as e:
            raise file_error(spec, e) from None
        except ValueError as e:
            raise BotSpecError(f"bot {spec!r}: {e}; {valid}") from None
    if kind == "cautious" and not arg:
        return KernelBot(MackeThresholdPolicy.first_chance(rules), text)
    if kind == "reckless" and not arg:
        return KernelBot(MackeThresholdPolicy(rules, None, 0), text)
    raise BotSpecError(f"unknown bot {spec!r}; {valid}")
