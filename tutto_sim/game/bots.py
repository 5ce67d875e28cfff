"""Tutto, Berliner Macke and Volle Lotte bots, and the bot specs of the command line.

Part of ``tutto_sim.game``. Every bot implements the protocol of
``game.api`` (a ``name`` and ``act(decision)``), so every bot plays in the
reference game. Table and threshold bots also have ``table()``, their
decisions as a :class:`~tutto_sim.game.tutto_kernel.BotTable`, and so also
play in the numba kernel; the tests check that both ways give the same games.

Bot specs (``parse_bot``):

=========================  ====================================================
``optimal``                the optimal turn policy (``table`` of
                           ``data/policies/tutto-default.json``, or solved for
                           the rules in play)
``table:FILE``             a policy file from ``tutto-sim export-policy``
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

With :class:`~tutto_sim.rules.macke.MackeRules` (Berliner Macke, Volle
Lotte) the same names give Macke bots (:func:`parse_macke_bot`):

=========================  ====================================================
``optimal``                the optimal turn policy (``data/policies/macke-default.json``
                           or ``volle-lotte-default.json`` for the default turn
                           rules, else solved for the rules in play)
``table:FILE``             a Macke policy file (``export-policy --game macke``)
``endgame[:FILE]``         a table (default: optimal) that banks at once when
                           banking reaches the target and presses on when
                           behind in its last turn (nachwerfen)
``threshold[:K[:CLEAR]]``  keep every scoring unit, never return, bank at >= K
                           (default 300), after a clear at >= CLEAR (default K)
``cautious``               bank at the first chance >= the minimum score
``reckless``               never bank before a series ends, bank every clear
``random``, ``py:…``       as for Tutto (reference game only)
=========================  ====================================================
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..policy.exact import ExactPolicy, PolicyFileError, load_policy
from ..policy.macke_exact import MackeTablePolicy, load_macke_policy
from ..policy.macke_threshold import MackeThresholdPolicy
from ..policy.threshold import CardPolicy, ThresholdPolicy
from ..reference.tutto import choose_keep
from ..rules.cards import BANKABLE_CARDS, Card
from ..rules.macke import MackeRules
from ..rules.scoring import POINT_UNIT
from ..rules.tutto import TuttoRules
from ..tables.throws import KEEP_RULES, MAX_DICE, build_tables
from .api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, STREET, THROW, Decision
from .macke import BANK_OR_SERIES, RETURN, MackeDecision
from .macke_kernel import MackeBotTable
from .tutto_kernel import BotTable

#: The file `optimal` loads when the rules' turn part is the default.
POLICY_DIR = Path(__file__).resolve().parents[2] / "data" / "policies"
DEFAULT_POLICY_FILE = POLICY_DIR / "tutto-default.json"
#: The Macke files `optimal` loads (by variant) when the turn rules are the preset's.
MACKE_POLICY_FILES = {"standard": POLICY_DIR / "macke-default.json",
                      "volle-lotte": POLICY_DIR / "volle-lotte-default.json"}
#: Rule fields a turn policy depends on (the others only matter for whole games).
TURN_FIELDS = ("six_of_kind", "x2_scope", "plusminus_chain")

BOT_SPECS = ("optimal", "endgame[:FILE]", "table:FILE", "threshold[:BANK[:AFTER_TUTTO[:KEEP]]]",
             "cautious", "reckless", "random", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)
MACKE_BOT_SPECS = ("optimal", "endgame[:FILE]", "table:FILE", "threshold[:K[:CLEAR]]", "cautious",
                   "reckless", "random", "py:MODULE:NAME")
MACKE_VALID_BOTS = "valid bots: " + ", ".join(MACKE_BOT_SPECS)


def valid_bots(rules=None) -> str:
    """The one-line list of valid bot specs for the game of ``rules``."""
    return MACKE_VALID_BOTS if isinstance(rules, MackeRules) else VALID_BOTS


class BotSpecError(ValueError):
    """A bot spec that cannot be used; the message is one line and names the valid bots."""


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


class TableBot:
    """Plays a decision table (:class:`~tutto_sim.policy.exact.ExactPolicy`)."""

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
    """Plays a :class:`~tutto_sim.policy.threshold.ThresholdPolicy`: a keep rule,
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
            from ..solve import max_card_points

            p = max_card_points(t) + 1
            kx = np.ascontiguousarray(np.repeat(keep[Card.X2][None], p, axis=0))
            bx = np.ascontiguousarray(np.repeat(bank[Card.X2][None], p, axis=0))
        else:
            kx = np.zeros((1, 1, n_ms), dtype=np.int8)
            bx = np.zeros((1, MAX_DICE, 1), dtype=np.bool_)
        return BotTable(keep, bank, draw, street, kx, bx, False)


class RandomBot:
    """A uniformly random legal action at every decision (its seat's own generator)."""

    def __init__(self, name: str = "random"):
        self.name = name

    def act(self, d: Decision):
        return d.legal[d.rng.randrange(len(d.legal))]


# ---- specs ------------------------------------------------------------------


def turn_rules(rules: TuttoRules) -> TuttoRules:
    """The rules with every game-level field at its default: what a turn policy sees."""
    return TuttoRules(**{f: getattr(rules, f) for f in TURN_FIELDS})


def optimal_policy(rules: TuttoRules) -> ExactPolicy:
    """The optimal turn policy for these rules: the shipped file when it fits, else solved."""
    return _optimal(turn_rules(rules))


@functools.lru_cache(maxsize=8)
def _optimal(tr: TuttoRules) -> ExactPolicy:
    if tr == TuttoRules() and DEFAULT_POLICY_FILE.exists():
        return load_policy(DEFAULT_POLICY_FILE, tr)
    from ..solve import solve_tutto

    return ExactPolicy.from_solution(solve_tutto(tr))


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


#: Thresholds above this are "never" in effect (no turn reaches them); larger ones are typos.
MAX_THRESHOLD = 1_000_000


def _points(spec: str, what: str, text: str, valid: str = VALID_BOTS) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0 or v % POINT_UNIT or v > MAX_THRESHOLD:
        raise BotSpecError(f"bot {spec!r}: {what} must be a multiple of 50 from 0 to "
                           f"{MAX_THRESHOLD:,}, not {text!r}; {valid}")
    return v


def _python_bot(spec: str, target: str, valid: str = VALID_BOTS):
    module_name, _, attr = target.rpartition(":")
    if not module_name or not attr:
        raise BotSpecError(f"bot {spec!r}: write py:MODULE:NAME or py:FILE.py:NAME; {valid}")
    try:
        if module_name.endswith(".py"):
            loc = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
            if loc is None or not Path(module_name).exists():
                raise ImportError(f"no file {module_name}")
            module = importlib.util.module_from_spec(loc)
            loc.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
        bot = getattr(module, attr)()
    except Exception as e:
        raise BotSpecError(f"bot {spec!r}: cannot load {attr} from {module_name}: "
                           f"{type(e).__name__}: {e}; {valid}") from None
    if not callable(getattr(bot, "act", None)):
        raise BotSpecError(f"bot {spec!r}: {attr}() has no act(decision) method; {valid}")
    if not getattr(bot, "name", None):
        bot.name = spec
    return bot


def parse_bot(spec: str, rules: TuttoRules | MackeRules = TuttoRules()):
    """A bot from its spec (module docstring); :class:`BotSpecError` if unusable.
    With ``MackeRules`` a Macke bot (:func:`parse_macke_bot`)."""
    if isinstance(rules, MackeRules):
        return parse_macke_bot(spec, rules)
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    try:
        if kind == "optimal" and not arg:
            return TableBot(optimal_policy(rules), text)
        if kind == "endgame":
            policy = _load_table(arg, rules) if arg else optimal_policy(rules)
            return TableBot(policy, text, endgame=True)
        if kind == "table":
            if not arg:
                raise BotSpecError(f"bot {spec!r}: table needs a policy file, table:FILE; {VALID_BOTS}")
            return TableBot(_load_table(arg, rules), text)
    except PolicyFileError as e:
        raise BotSpecError(f"bot {spec!r}: {e}; {VALID_BOTS}") from None
    if kind == "threshold":
        parts = arg.split(":") if arg else []
        if len(parts) > 3:
            raise BotSpecError(f"bot {spec!r}: threshold takes at most BANK:AFTER_TUTTO:KEEP; {VALID_BOTS}")
        bank = _points(spec, "BANK", parts[0]) if parts else 300
        after = _points(spec, "AFTER_TUTTO", parts[1]) if len(parts) > 1 else bank
        keep = parts[2] if len(parts) > 2 else "all"
        if keep not in KEEP_RULES:
            raise BotSpecError(f"bot {spec!r}: KEEP must be one of {', '.join(KEEP_RULES)}, "
                               f"not {keep!r}; {VALID_BOTS}")
        return ThresholdBot(threshold_policy(bank, after, keep), rules, text)
    if kind == "cautious" and not arg:
        return ThresholdBot(threshold_policy(300, 300, "all"), rules, text)
    if kind == "reckless" and not arg:
        return ThresholdBot(threshold_policy(None, 0, "all"), rules, text)
    if kind == "random" and not arg:
        return RandomBot(text)
    if kind == "py":
        return _python_bot(text, arg)
    raise BotSpecError(f"unknown bot {spec!r}; {VALID_BOTS}")


def parse_bots(specs: str | list[str], rules: TuttoRules | MackeRules = TuttoRules()) -> list:
    """Bots from a comma-separated list; repeated specs get distinct names (``#2``)."""
    items = [s for s in (specs.split(",") if isinstance(specs, str) else specs)]
    if not items or any(not s.strip() for s in items):
        raise BotSpecError(f"--bots needs a comma-separated list of bots, not {specs!r}; "
                           f"{valid_bots(rules)}")
    bots, seen = [], {}
    for s in items:
        bot = parse_bot(s, rules)
        seen[bot.name] = seen.get(bot.name, 0) + 1
        if seen[bot.name] > 1:
            bot.name = f"{bot.name}#{seen[bot.name]}"
        bots.append(bot)
    return bots


def kernel_capable(bots) -> bool:
    return all(callable(getattr(b, "table", None)) for b in bots)


# ---- Berliner Macke / Volle Lotte ----------------------------------------------


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


class MackePolicyBot:
    """Plays a Macke turn policy (``policy.macke_protocol``): the optimal
    :class:`~tutto_sim.policy.macke_exact.MackeTablePolicy` or a
    :class:`~tutto_sim.policy.macke_threshold.MackeThresholdPolicy`;
    ``endgame`` adds the overrides of :func:`macke_endgame_banks`."""

    def __init__(self, policy, name: str = "optimal", endgame: bool = False):
        self.policy = policy
        self.name = name
        self.endgame = endgame

    def act(self, d: MackeDecision):
        p = self.policy
        if d.kind == KEEP:
            return d.legal[d.options.index(p.keep(d.view, d.throw_id, list(d.options)))]
        if d.kind == RETURN:
            return d.legal[d.options.index(p.before_throw(d.view))]
        if d.kind in (BANK_OR_THROW, BANK_OR_SERIES):
            banks = bool(p.bank(d.view))
            if self.endgame:
                banks = macke_endgame_banks(banks, d)
            return BANK if banks else THROW
        raise ValueError(f"unknown decision kind {d.kind!r}")

    def table(self) -> MackeBotTable:
        """The decisions as the game kernel's arrays (a threshold policy compiled
        by ``solve.macke_dp.threshold_decisions``)."""
        if isinstance(self.policy, MackeThresholdPolicy):
            from ..solve.macke_dp import threshold_decisions

            dec = threshold_decisions(self.policy.to_array(), self.policy.rules)
        else:
            dec = self.policy.decisions
        return MackeBotTable.from_decisions(dec, self.endgame)


def macke_turn_rules(rules: MackeRules) -> MackeRules:
    """The rules with the target at the variant's preset: what a turn policy sees
    (the target is the only game-level field of ``MackeRules``)."""
    return replace(rules, target=MackeRules.preset(rules.variant).target)


def optimal_macke_policy(rules: MackeRules) -> MackeTablePolicy:
    """The optimal Macke turn policy: the shipped file when it fits, else solved (< 1 s)."""
    return _optimal_macke(macke_turn_rules(rules))


@functools.lru_cache(maxsize=8)
def _optimal_macke(tr: MackeRules) -> MackeTablePolicy:
    path = MACKE_POLICY_FILES.get(tr.variant)
    if path is not None and tr == MackeRules.preset(tr.variant) and path.exists():
        return load_macke_policy(path, tr)
    from ..solve.macke_dp import solve_macke

    return MackeTablePolicy.from_solution(solve_macke(tr))


@functools.lru_cache(maxsize=16)
def _load_macke_table(path: str, rules: MackeRules) -> MackeTablePolicy:
    policy = load_macke_policy(path)
    if macke_turn_rules(policy.rules) != macke_turn_rules(rules):
        fr, r = policy.rules.to_dict(), rules.to_dict()
        wrong = [f"{k}={r[k]!r} (file: {fr[k]!r})" for k in r if k != "target" and r[k] != fr[k]]
        raise PolicyFileError(f"policy file {path} was solved for other rules: {', '.join(wrong)}")
    return policy


def parse_macke_bot(spec: str, rules: MackeRules = MackeRules()):
    """A Berliner Macke / Volle Lotte bot from its spec (module docstring)."""
    valid = MACKE_VALID_BOTS
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    try:
        if kind == "optimal" and not arg:
            return MackePolicyBot(optimal_macke_policy(rules), text)
        if kind == "endgame":
            policy = _load_macke_table(arg, rules) if arg else optimal_macke_policy(rules)
            return MackePolicyBot(policy, text, endgame=True)
        if kind == "table":
            if not arg:
                raise BotSpecError(f"bot {spec!r}: table needs a policy file, table:FILE; {valid}")
            return MackePolicyBot(_load_macke_table(arg, rules), text)
    except PolicyFileError as e:
        raise BotSpecError(f"bot {spec!r}: {e}; {valid}") from None
    if kind == "threshold":
        parts = arg.split(":") if arg else []
        if len(parts) > 2:
            raise BotSpecError(f"bot {spec!r}: threshold takes at most K:CLEAR; {valid}")
        k = _points(spec, "K", parts[0], valid) if parts else 300
        clear = _points(spec, "CLEAR", parts[1], valid) if len(parts) > 1 else k
        return MackePolicyBot(MackeThresholdPolicy(rules, k, clear), text)
    if kind == "cautious" and not arg:
        return MackePolicyBot(MackeThresholdPolicy.first_chance(rules), text)
    if kind == "reckless" and not arg:
        return MackePolicyBot(MackeThresholdPolicy(rules, None, 0), text)
    if kind == "random" and not arg:
        return RandomBot(text)
    if kind == "py":
        return _python_bot(text, arg, valid)
    raise BotSpecError(f"unknown bot {spec!r}; {valid}")
