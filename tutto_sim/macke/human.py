"""A human player of Berliner Macke / Volle Lotte at the terminal (:class:`MackeHumanBot`),
with the optimal turn policy's advice on request (:class:`MackeAdvisor`), as ``tutto.human``."""

from __future__ import annotations

from collections import Counter

from tutto_sim.core.cli import plural
from tutto_sim.core.play import TerminalPlayer
from tutto_sim.dice.api import BANK, BANK_OR_THROW, KEEP, THROW
from tutto_sim.macke.game import BANK_OR_SERIES, RETURN, MackeDecision
from tutto_sim.macke.rules import MackeRules, macke_turn_rules


class MackeAdvisor:
    """The optimal turn policy's value of every choice at a Macke decision: the
    expected signed result of the turn after that choice, the rest of the turn
    played optimally (``macke.solver.MackeSolution`` values; turn analysis,
    not the chance to win the game). :meth:`best` breaks ties as the solver
    does, so following it is playing the ``optimal`` table."""

    def __init__(self, rules: MackeRules):
        from tutto_sim.macke.solver import solve_macke
        from tutto_sim.macke.tables import build_macke_tables

        self.rules = macke_turn_rules(rules)
        self.sol = solve_macke(self.rules)
        self.tables = build_macke_tables(self.rules)

    def _r(self, t: int) -> float:
        return float(t if t >= self.rules.min_score // 50 else -t)

    def _after_keep(self, t0: int, u2: int, left: int) -> float:
        m, sol, cap = self.tables, self.sol, self.sol.cap_units
        t = t0 + int(m.state_pts[u2])
        if int(m.state_dice[u2]) == self.rules.n_dice:  # a clear
            return float(sol.clear_value[t]) if t < cap else self._r(t)
        if left == 0 or t0 >= cap:
            return self._r(t)
        return max(self._r(t), float(sol.before_value[t0, left, u2]))

    def values(self, d: MackeDecision) -> list[float]:
        """One value per legal action (real points)."""
        m, sol, cap = self.tables, self.sol, self.sol.cap_units
        t0, u, t = d.locked // 50, d.view.aside, d.turn_total // 50
        if d.kind == KEEP:
            vals = [self._after_keep(t0, int(m.add[u, s]), d.throws_left) for s in d.options]
        elif d.kind == RETURN:
            vals = [float(sol.throw_value[min(t0, cap - 1), d.throws_left, s]) for s in d.options]
        elif d.kind == BANK_OR_THROW:
            on = float(sol.before_value[t0, d.throws_left, u]) if t0 < cap else self._r(t)
            vals = [self._r(t), on]
        elif d.kind == BANK_OR_SERIES:
            on = float(sol.throw_value[t, self.rules.throws, m.empty]) if t < cap else self._r(t)
            vals = [self._r(t), on]
        else:
            raise ValueError(f"no advice for a {d.kind} decision")
        return [v * 50 for v in vals]

    def explain(self, d: MackeDecision, vals: list[float], best: int) -> list[str]:
        """Why, in words, where the advice rests on a rule a player may not see:
        ties between choices, and returning every unit (docs/macke.md)."""
        lines = []
        top = vals[best]
        ties = sum(abs(v - top) < 1e-6 for v in vals)
        free = "the turn total drops to 0, so a Macke on that throw costs nothing" if not d.locked \
            else f"the turn total drops to the {d.locked:,} locked by earlier series"
        if d.kind == KEEP and ties > 1:
            t0 = d.locked // 50
            restart = (float(self.sol.throw_value[min(t0, self.sol.cap_units - 1), d.throws_left,
                                                  self.tables.empty]) * 50
                       if d.throws_left > 0 else None)
            if restart is not None and abs(restart - top) < 1e-6:
                lines.append(f"{ties} keeps are worth the same: whichever you set aside, the best "
                             "next step is to return every unit and throw all dice again, "
                             f"which the rules allow before the next throw ({free})")
            else:
                lines.append(f"{ties} keeps are worth the same: the rest of the turn, played "
                             "at its best, is worth the same after each of them")
        elif d.kind == RETURN and d.legal[best] != d.legal[0] and not d.legal[best].units:
            lines.append(f"returning everything pays here: you may put every set-aside unit back "
                         f"before this throw; {free}")
        elif ties > 1:
            lines.append(f"{ties} choices are worth the same: either is optimal")
        if d.kind == BANK_OR_THROW:
            lines += self._departure(d, d.legal[best] == BANK)
        return lines

    def _departure(self, d: MackeDecision, banks: bool) -> list[str]:
        """A line of why, where the advice departs from the bank threshold
        ``solve --game macke`` prints for these throws and dice left: the
        exception of the optimal table that holds this spot, or that the
        thresholds sum up only the spots optimal play reaches."""
        from tutto_sim.macke.turn_kernel import NEVER
        from tutto_sim.macke.words import exception_words, unit_words

        tl, left = d.throws_left, d.dice
        th = int(self.sol.bank_threshold[tl, left])
        if banks == (d.turn_total >= th):
            return []
        where = f"{plural(tl, 'throw')} and {plural(left, 'die', 'dice')} left"
        rule = f"bank at ≥ {th:,}" if th < NEVER else "never bank"
        aside = self.tables.state_name(d.view.aside)
        for e_tl, e_d, u, lo, hi in self.sol.bank_exceptions:
            if (e_tl, e_d, u) == (tl, left, aside) and lo <= d.turn_total <= hi and banks:
                return [f"why: with {where} the threshold is {rule}, but the optimal table banks "
                        f"{exception_words(u, lo, hi)} (an exception: which units lie aside "
                        "matters, not only the total)"]
        return [f"why: with {where} the threshold is {rule}, which sums up the spots optimal "
                f"play reaches; it does not reach {unit_words(aside)} aside at "
                f"{d.turn_total:,}, where {'banking' if banks else 'throwing on'} is worth more"]

    def best(self, d: MackeDecision) -> int:
        """Index of the best action; ties as the solver: the first keep in table
        order, returning the least, banking."""
        vals = self.values(d)
        top = max(vals)
        best = [j for j, v in enumerate(vals) if v == top]
        if d.kind == KEEP:
            return min(best, key=lambda j: d.options[j])
        if d.kind == RETURN:
            dice = self.tables.state_dice
            return min(best, key=lambda j: (-int(dice[d.options[j]]), d.options[j]))
        return best[0]


class MackeHumanBot(TerminalPlayer):
    """A player who answers at the terminal: numbered choices, ``?`` shows
    :class:`MackeAdvisor`'s values (``advisor``, or None), and with ``win`` (a
    ``macke.win.planner.WinPlanner``, two players) each choice's chance to win;
    ``q`` leaves (``core.play.QuitGame``)."""

    win = None

    @staticmethod
    def label(d: MackeDecision, a) -> str:
        if d.kind == KEEP:
            return f"set aside {a}"
        if d.kind == RETURN:
            if a == d.legal[0]:
                return "return nothing"
            if not a.units:
                return f"return everything (throw all {d.game.rules.n_dice} dice)"
            back = Counter(d.aside.units) - Counter(a.units)
            return f"return {' + '.join(sorted(back.elements()))}, keep {a}"
        if a == BANK:
            return "bank"
        return f"throw all {d.game.rules.n_dice} dice again" if d.kind == BANK_OR_SERIES else "throw on"

    def _header(self, d: MackeDecision) -> None:
        g = d.game
        scores = ", ".join(f"{n} {s:,}" for n, s in zip(g.names, g.scores))
        head = f"turn total {d.turn_total:,}" + (f" ({d.locked:,} locked)" if d.locked else "")
        head += f"; scores: {scores}"
        if g.last_round:
            head += f"; your last turn (target {g.rules.target:,} reached)"
        self.write(head)
        L = g.rules.throws
        if d.kind == KEEP:
            self.write(f"your throw ({L - d.throws_left} of {L} in this series): "
                       + " ".join(map(str, d.throw)))
        elif d.kind == RETURN:
            self.write(f"before throw {L - d.throws_left + 1} of {L}: set aside {d.aside}; "
                       "return units to the cup? (they are thrown again, their points are lost)")
        elif d.kind == BANK_OR_THROW:
            self.write(f"{plural(d.dice, 'die', 'dice')} and {plural(d.throws_left, 'throw')} left: bank {d.turn_total:,} "
                       f"({d.bank_result:+,}) or throw on?")
        elif d.kind == BANK_OR_SERIES:
            self.write(f"all dice set aside! bank {d.turn_total:,} or throw all {g.rules.n_dice} "
                       "dice again (a new series, the total at risk)?")

    def _advise(self, d: MackeDecision) -> None:
        if self.advisor is None:
            self.write("no advice available")
            return
        vals = self.advisor.values(d)
        best = self.advisor.best(d)
        chances = self.win.option_chances(d) if self.win is not None else None
        if chances is None:
            self.write("advice (optimal turn policy; expected points this turn adds):")
        else:
            self.write("advice: expected points this turn adds (optimal turn policy), and your "
                       "chance to win the game (both play to win from here; win table to "
                       f"{self.win.rules.target:,}):")
        for i, (a, v) in enumerate(zip(d.legal, vals)):
            mark = "  <- best" if i == best else ""
            if chances is not None:
                top = max(chances)
                mark += "  <- best to win" if chances[i] == top else ""
                mark = f"  {chances[i]:>7.2%}{mark}"
            self.write(f"  {i + 1}) {self.label(d, a):<34} {v:,.1f}{mark}")
        for line in self.advisor.explain(d, vals, best):
            self.write("  " + line)

    def act(self, d: MackeDecision):
        from tutto_sim.core.play import ask_choice, choose_words

        self._header(d)
        for i, a in enumerate(d.legal, start=1):
            self.write(f"  {i}) {self.label(d, a)}")
        if self.always_advise:
            self._advise(d)
        letters = {"b": BANK, "t": THROW} if d.kind in (BANK_OR_THROW, BANK_OR_SERIES) else {}
        choose, again = choose_words(len(d.legal))
        prompt = choose + (", b=bank, t=throw" if letters else "") + " (? advice, q quit): "
        retry = again + (" or b, t" if letters else "") + ", ? for advice, q to quit"
        return ask_choice(self.read, self.write, prompt, d.legal, letters,
                          lambda: self._advise(d), retry)
