"""Tutto's rules as one frozen settings object (docs/rules.md).

Part of the rules layer. Every option of ``docs/rules.md`` is a field here,
with its default; the CLI exposes each as a flag, and ``docs/rules.md`` gives
the reason for every default. ``TuttoRules`` is hashable and has a stable JSON
form (:meth:`to_dict`), which policy files record together with
:meth:`digest`. ``deck`` joins the JSON form only when it is not the default
``real``: rules written before the option existed (policy files, result CSVs)
keep their form and their digest.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from tutto_sim.core.rules import GameRules
from tutto_sim.dice.scoring import MAX_POINTS, POINT_UNIT, ScoringRules

X2_SCOPE_CHOICES = ("turn", "card")
PLUSMINUS_CHAIN_CHOICES = ("continue", "bank", "flat")
PLUSMINUS_DEDUCTION_CHOICES = ("bank", "tutto")
RESHUFFLE_CHOICES = ("full", "discard")
GAME_END_CHOICES = ("round", "immediate")
DECK_CHOICES = ("real", "iid")
#: The rule fields a win table depends on (the deck, the reshuffle and the
#: Kleeblatt's turn-analysis value do not change it: the win solvers draw the
#: cards independently).
WIN_FIELDS = ("six_of_kind", "x2_scope", "plusminus_chain", "plusminus_deduction", "target",
              "game_end")


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")


@dataclass(frozen=True)
class TuttoRules(GameRules):
    """Settings of a Tutto game; defaults are the readings of docs/rules.md.

    Examples
    --------
    >>> TuttoRules().x2_scope
    'turn'
    >>> TuttoRules(x2_scope="card").digest() != TuttoRules().digest()
    True
    >>> "deck" in TuttoRules().to_dict(), TuttoRules(deck="iid").to_dict()["deck"]
    (False, 'iid')
    >>> TuttoRules(target=6001)
    Traceback (most recent call last):
    ...
    ValueError: target must be a positive multiple of 50 up to 1,000,000, not 6001
    """

    GAME = "tutto"
    TITLE = "Tutto"

    #: Six of a kind: two triples (default) or one triple.
    six_of_kind: str = "two-triples"
    #: x2 doubles the whole turn total (``turn``) or only this card's points (``card``).
    x2_scope: str = "turn"
    #: After a Plus/Minus Tutto: ``continue`` (bank or draw), ``bank`` (+1000 and the
    #: turn ends), ``flat`` (the turn ends and banks exactly 1000).
    plusminus_chain: str = "continue"
    #: Plus/Minus deduction applied when the turn is banked (``bank``) or at the Tutto.
    plusminus_deduction: str = "bank"
    #: Reshuffle all 56 cards (``full``) or the discard pile only; identical in effect.
    reshuffle: str = "full"
    #: Points to reach.
    target: int = 6000
    #: ``round``: finish the round, highest score wins; ``immediate``: first to target wins.
    game_end: str = "round"
    #: Turn-level analysis only: what a Kleeblatt success is worth, in points.
    cloverleaf_value: int = 0
    #: Cards in whole games: ``real`` (the 56-card deck, drawn without replacement) or
    #: ``iid`` (every card drawn independently at the deck frequencies, 10/56 Stop ...,
    #: as the turn analysis assumes). Game-level only.
    deck: str = "real"
    scoring: ScoringRules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_choice("x2_scope", self.x2_scope, X2_SCOPE_CHOICES)
        _check_choice("plusminus_chain", self.plusminus_chain, PLUSMINUS_CHAIN_CHOICES)
        _check_choice(
            "plusminus_deduction", self.plusminus_deduction, PLUSMINUS_DEDUCTION_CHOICES
        )
        _check_choice("reshuffle", self.reshuffle, RESHUFFLE_CHOICES)
        _check_choice("game_end", self.game_end, GAME_END_CHOICES)
        _check_choice("deck", self.deck, DECK_CHOICES)
        for name in ("target", "cloverleaf_value"):
            value = getattr(self, name)
            low_ok = value > 0 if name == "target" else value >= 0
            if not isinstance(value, int) or not low_ok or value % POINT_UNIT or value > MAX_POINTS:
                kind = "positive" if name == "target" else "non-negative"
                raise ValueError(
                    f"{name} must be a {kind} multiple of {POINT_UNIT} up to {MAX_POINTS:,}, not {value}"
                )
        # ScoringRules validates six_of_kind.
        object.__setattr__(self, "scoring", ScoringRules(6, self.six_of_kind))

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("scoring", None)
        if d["deck"] == "real":  # the default, left out: older digests stay valid
            del d["deck"]
        return {"game": "tutto", **d}
