"""What a Berliner Macke policy decides, and what it sees: the shared protocol.

Part of the policy layer. The reference engine (``macke.reference``)
asks a :class:`MackePolicy` three questions during a turn; simple threshold
policies (``macke.threshold``) and exact decision tables
(``macke.policy``) both answer them. Units and states are those of
``macke.tables``: a *state* is a multiset of set-aside units, an index into
``MackeTables.state_*``.

A turn: a *series* starts with nothing set aside and ``rules.throws`` throws.
Before the 2nd and later throw of a series the player may return set-aside
units (:meth:`MackePolicy.before_throw`); after each scoring throw it picks a
keep (:meth:`MackePolicy.keep`) and then banks or goes on
(:meth:`MackePolicy.bank`): after a *clear* (all dice set aside) "go on" means
a new series with the turn total locked; after the last throw of a series the
turn ends without asking.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol


class TurnView(NamedTuple):
    locked: int  # points from earlier series of this turn (real points)
    aside: int  # state index: units set aside in this series
    throws_left: int  # throws left in this series (before the coming throw, or after the one just made)
    first_throw_of_turn: bool  # the coming / just made throw is the turn's first

    def turn_total(self, tables) -> int:
        return self.locked + int(tables.state_pts[self.aside]) * 50


class MackePolicy(Protocol):
    def before_throw(self, view: TurnView) -> int:
        """State to keep set aside (``view.aside`` or one of its sub-states,
        ``MackeTables.sub_states``); the rest goes back into the cup. Asked only
        before the 2nd and later throw of a series."""

    def keep(self, view: TurnView, throw: int, keeps: list[int]) -> int:
        """One of ``keeps`` (keep states legal for multiset id ``throw``) to set aside."""

    def bank(self, view: TurnView) -> bool:
        """After a keep (``view.aside`` includes it): True to bank now. On a
        clear, False starts a new series."""
