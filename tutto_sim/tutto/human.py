"""A human player at the terminal, with the optimal table's advice on request.

Part of the game layer. :class:`HumanBot` is an ordinary bot (``core.api``):
it shows the card, the dice and the legal actions as numbered choices, and
reads the answer from a line-reading function (``input`` at the terminal, a
list of lines in the tests). ``?`` shows :class:`Advisor`'s advice: the
expected points this turn banks after each choice when the rest of the turn
is played optimally (``tutto.solver.TuttoSolution``; turn analysis, not the chance
to win the game), ``q`` leaves the game. With a win table (``play --win-table``:
two players, or a table of three or four from ``solve --objective win
--players N`` at a table of that size) :class:`WinAdvisor` adds each choice's
chance to win the game when everyone plays to win from here
(``tutto.win.planner.WinPlanner``, ``tutto.win.planner.WinPlannerN``: the turn
programme of the win-optimal player, whose leaves are the table's ``W``; in the
end of the round, the end-phase values ``E``).

The chance after each choice is the planner's value of the state it leads to:
after a keep under a Bonus or x2 card the value of banking or throwing on with
the new total and dice (or, after a Tutto, of banking or drawing); after a
keep under Plus/Minus, the Kleeblatt or the Straße, where only the Tutto
counts, ``Z + p (V - Z)`` with ``Z`` the bust leaf, ``V`` the value of the
Tutto (Kleeblatt: 1, the game is won; before its first Tutto
``Z + p6 (1 - Z)``) and ``p`` the chance of the Tutto from the dice left,
the most likely play when ``V >= Z``, else the least likely (as the planner
plays). Banking is worth the table's leaf, drawing the planner's draw value,
throwing on the mean over the throws of the best keep's value (a Niete: ``Z``).
"""

from __future__ import annotations

from dataclasses import replace

from tutto_sim.core.play import ADVICE_WORDS, QUIT_WORDS, QuitGame, TerminalPlayer, ask_choice, choose_words  # noqa: F401  (shared)
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, STREET, THROW, Decision, Keep
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.rules import TuttoRules


class Advisor:
    """The optimal turn policy's value of every choice at a decision."""

    def __init__(self, rules: TuttoRules):
        from tutto_sim.tutto.policy import turn_rules
        from tutto_sim.tutto.solver import solve_tutto, street_probability

        self.rules = turn_rules(rules)
        self.sol = solve_tutto(self.rules)
        self._street = [street_probability(None, m, self.rules) for m in range(7)]

    def _after_keep(self, card: Card, t2: int, cp2: int, left: int) -> float:
        """Value (units) once the dice are set aside: turn total t2, card points cp2."""
        sol = self.sol
        cap = sol.cap_units
        x2_card = self.rules.x2_scope == "card"
        if left == 0:  # a Tutto: its reward, then bank or draw
            if card is Card.X2:
                tt = t2 + cp2 if x2_card else 2 * t2
            else:
                tt = t2 + card.bonus // POINT_UNIT
            return float(tt) if tt >= cap else float(sol.after_tutto_value[tt])
        if t2 >= cap:
            return float(t2)
        if card is Card.X2 and x2_card:
            return max(float(t2), float(sol.x2_throw_value[t2, cp2, left]))
        return max(float(t2), float(sol.throw_value[card, t2, left]))

    def values(self, d: Decision) -> tuple[list[float], str]:
        """One value per legal action, and what the values mean."""
        sol, unit = self.sol, POINT_UNIT
        t = d.turn_total // unit
        cp = d.card_points // unit
        if d.kind == KEEP and d.card in (Card.PLUSMINUS, Card.CLOVERLEAF):
            left = [d.dice - len(k.dice) for k in d.legal]
            return [float(sol.p_tutto_by_dice[x]) for x in left], "chance of the Tutto"
        if d.kind == KEEP:
            vals = [self._after_keep(d.card, t + k.points // unit, cp + k.points // unit,
                                     d.dice - len(k.dice)) * unit for k in d.legal]
            return vals, "expected points this turn banks"
        if d.kind == STREET:
            have = len(d.street_numbers)
            return [self._street[have + len(k.dice)] for k in d.legal], "chance of the Straße"
        if d.kind == BANK_OR_THROW:
            if t >= sol.cap_units:
                on = float(t)
            elif d.card is Card.X2 and self.rules.x2_scope == "card":
                on = float(sol.x2_throw_value[t, cp, d.dice])
            else:
                on = float(sol.throw_value[d.card, t, d.dice])
            return [float(d.turn_total), on * unit], "expected points this turn banks"
        if d.kind == BANK_OR_DRAW:
            on = float(t) if t >= sol.cap_units else float(sol.draw_value[t])
            return [float(d.turn_total), on * unit], "expected points this turn banks"
        raise ValueError(f"no advice for a {d.kind} decision")


class WinAdvisor:
    """Each choice's chance to win the game (module docstring), from a
    two-player ``tutto.win.table.WinTable`` or an N-player
    ``tutto.win.table.WinTableN`` (the table's size is the table's at play)."""

    def __init__(self, table):
        from tutto_sim.tutto.win.planner import WinPlanner
        from tutto_sim.tutto.win.planner import WinPlannerN
        from tutto_sim.tutto.win.table import WinTableN

        n_table = isinstance(table, WinTableN)
        self.planner = WinPlannerN(table) if n_table else WinPlanner(table)
        self.players = table.players if n_table else 2
        self.rules = table.rules
        self._here = (None, None)  # the last (place, programme): a last turn is re-solved per call

    def _where(self, d: Decision):
        g = d.game
        key = (g.seat, g.scores, getattr(g, "turn_start", None), g.last_round, d.plusminus_tuttos)
        if self._here[0] != key:
            self._here = (key, self.planner.where(g, d.plusminus_tuttos))
        return self._here[1]

    def chances(self, d: Decision, clover_second: bool = False) -> list[float | None]:
        """One chance per legal action of ``d`` (None: past the table's cap, where
        the programme banks: drawing, or throwing on where banking does not
        win outright). ``clover_second``: under the Kleeblatt,
        the first Tutto is made (the next one wins)."""
        pl, unit = self.planner, POINT_UNIT
        lay, j = self._where(d)
        t, cp = d.turn_total // unit, d.card_points // unit
        top = lay.bl.shape[1] - 1
        bust = float(lay.bust[j])

        def tutto_after(p: list[float], after: float) -> list[float]:
            want = after >= bust  # as the planner: the most likely Tutto, else the least
            return [bust + (hi if want else lo) * (after - bust) for hi, lo in p]

        if d.kind == KEEP and d.card is Card.CLOVERLEAF:
            after = 1.0 if clover_second else bust + pl.p_hi[6] * (1.0 - bust)
            return tutto_after([(pl.p_hi[d.dice - len(k.dice)],) * 2 for k in d.legal], after)
        if d.kind == KEEP and d.card is Card.PLUSMINUS:
            after = pl.after_plusminus(lay, j, d.turn_total)
            left = [d.dice - len(k.dice) for k in d.legal]
            return tutto_after([(pl.p_hi[x], pl.p_lo[x]) for x in left], after)
        if d.kind == KEEP:
            return [float(pl.after_keep(lay, j, int(d.card), t + k.points // unit,
                                        cp + k.points // unit, d.dice - len(k.dice)))
                    for k in d.legal]
        if d.kind == STREET:
            after = pl.after_street(lay, j, d.turn_total)
            have = len(d.street_numbers)
            return tutto_after([(pl.q_hi[have + len(k.dice)], pl.q_lo[have + len(k.dice)])
                                for k in d.legal], after)
        bank = float(lay.bl[j, min(t, top)])
        if t >= lay.tcap and (d.kind == BANK_OR_DRAW or bank < 1.0):
            return [bank, None]  # past the cap the programme banks (exact only where that wins)
        if d.kind == BANK_OR_THROW:  # the programme's U is max(bank, throw on): throw here
            tb = pl.tables
            on = 0.0
            for ms in tb.ids(d.dice):
                ks = [x for x in range(1, d.dice + 1) if pl.best_pts[ms, x] >= 0]
                on += float(tb.prob[ms]) * max(
                    (float(pl.after_keep(lay, j, int(d.card), t + int(pl.best_pts[ms, x]),
                                         cp + int(pl.best_pts[ms, x]), d.dice - x))
                     for x in ks), default=bust)
            return [bank, on]
        if d.kind == BANK_OR_DRAW:
            return [bank, float(lay.D[j, t])]
        raise ValueError(f"no advice for a {d.kind} decision")


def _label(action) -> str:
    if isinstance(action, Keep):
        return "set aside " + str(action)
    return {BANK: "bank", THROW: "throw on", DRAW: "draw a card"}[action]


def tie_reason(meaning: str) -> str:
    """Why several choices are marked best: in words, for the advice."""
    if meaning == "chance of the Tutto":
        return ("these are equally good: points rolled under this card do not count, so keeps "
                "that leave the same number of dice give the same chance of the Tutto")
    if meaning == "chance of the Straße":
        return ("these are equally good: they leave the same numbers to find, so the chance "
                "of the Straße is the same")
    return ("these are equally good: after each of them the best play for the rest of the turn "
            "is worth the same expected points, so either choice is optimal")


class HumanBot(TerminalPlayer):
    """A player who answers at the terminal (module docstring); ``advisor`` an
    :class:`Advisor` or None; ``win`` a :class:`WinAdvisor` or None."""

    win = None
    _clover_turn = None  # the turn whose first Tutto under the Kleeblatt is made

    def _header(self, d: Decision) -> None:
        g = d.game
        scores = ", ".join(f"{n} {s:,}" for n, s in zip(g.names, g.scores))
        head = f"[{d.card.display}] turn total {d.turn_total:,}; scores: {scores}"
        if g.last_round:
            head += f"; last round (target {g.rules.target:,} reached)"
        self.write(head)
        if d.throw is not None:
            self.write(f"your throw: {' '.join(map(str, d.throw))}")
        if d.kind == STREET:
            have = " ".join(map(str, d.street_numbers)) or "none"
            self.write(f"Straße: numbers set aside so far: {have}; how many new numbers to set aside?")
        elif d.kind == KEEP and d.card in (Card.PLUSMINUS, Card.CLOVERLEAF):
            self.write("(points rolled under this card do not count; only the Tutto does)")
        elif d.kind == BANK_OR_THROW:
            left = "1 die" if d.dice == 1 else f"{d.dice} dice"
            self.write(f"{left} left: bank {d.turn_total:,} or throw on?")
        elif d.kind == BANK_OR_DRAW:
            self.write(f"Tutto! bank {d.turn_total:,} or draw another card?")

    def _advise(self, d: Decision) -> None:
        if self.advisor is None:
            self.write("no advice available")
            return
        vals, meaning = self.advisor.values(d)
        best = max(vals)
        chances = None
        if self.win is None:
            self.write(f"advice (optimal turn policy; {meaning}):")
        else:
            chances = self.win.chances(d, self._clover_turn == d.game.turn)
            top = max(c for c in chances if c is not None)
            who = "both play" if self.win.players == 2 else f"all {self.win.players} players play"
            self.write(f"advice: {meaning} (optimal turn policy), and your chance to win the "
                       f"game ({who} to win from here; win table to "
                       f"{self.win.rules.target:,}):")
        for i, (a, v) in enumerate(zip(d.legal, vals), start=1):
            text = f"{v:.4f}" if meaning.startswith("chance") else f"{v:,.1f}"
            mark = "  <- best" if abs(v - best) < 1e-9 else ""
            if chances is not None:
                c = chances[i - 1]
                if c is None:  # past the table's cap: it banks there
                    mark = f"  {'-':>7}{mark}"
                else:
                    mark = f"  {c:>7.2%}{mark}" + ("  <- best to win" if c == top else "")
            self.write(f"  {i}) {_label(a):<28} {text}{mark}")
        if sum(abs(v - best) < 1e-9 for v in vals) > 1:
            self.write("  " + tie_reason(meaning))

    def _choices(self, d: Decision) -> tuple:
        """The actions offered as numbers. Under the Straße only how many new
        numbers are set aside matters (the faces are symmetric), so the human
        gets one choice per count, smallest numbers first."""
        if d.kind != STREET:
            return d.legal
        new = sorted(set(d.throw) - set(d.street_numbers))
        return tuple(k for k in d.legal if k.dice == tuple(new[:len(k.dice)]))

    def act(self, d: Decision):
        self._header(d)
        choices = self._choices(d)
        view = d if choices is d.legal else replace(d, legal=choices)
        for i, a in enumerate(choices, start=1):
            self.write(f"  {i}) {_label(a)}")
        if self.always_advise:
            self._advise(view)
        letters = {}
        if d.kind == BANK_OR_THROW:
            letters = {"b": BANK, "t": THROW}
        elif d.kind == BANK_OR_DRAW:
            letters = {"b": BANK, "d": DRAW}
        choose, again = choose_words(len(choices))
        prompt = (choose + "".join(f", {k}={_label(v)}" for k, v in letters.items())
                  + " (? advice, q quit): ")
        retry = again + "".join(f" or {k}" for k in letters) + ", ? for advice, q to quit"
        choice = ask_choice(self.read, self.write, prompt, choices, letters,
                            lambda: self._advise(view), retry)
        if d.kind == KEEP and d.card is Card.CLOVERLEAF and len(choice.dice) == d.dice:
            self._clover_turn = d.game.turn  # the first Tutto (a second one ends the game)
        return choice
