"""Berliner Macke and Volle Lotte as one frozen settings object (docs/macke.md).

Part of the rules layer. Every option of docs/macke.md ("Options") is a
field with its default; the variants are presets (:meth:`MackeRules.preset`).
Scoring is docs/rules.md §3 plus straights, configured here and turned into
unit tables by ``tutto_sim.macke.tables`` (the same scoring rules as Tutto,
extended, not a copy).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from tutto_sim.core.rules import GameRules
from tutto_sim.dice.scoring import MAX_POINTS, POINT_UNIT, SIX_OF_KIND_CHOICES

VARIANTS = ("standard", "instant-win", "jackpot", "ones-and-fives", "volle-lotte")
BUST_CHOICES = ("subtract", "zero")
#: The rule fields a win table depends on (``win_value`` is the turn analysis'
#: price of five 1s; to win, five 1s are worth the game).
WIN_FIELDS = ("variant", "min_score", "throws", "bust", "target", "six_of_kind")


#: Ceiling of the minimum score (the exact solver's tables grow with it).
MAX_MIN_SCORE = 10_000


@dataclass(frozen=True)
class MackeRules(GameRules):
    """Settings of a Berliner Macke game; docs/macke.md gives every default's reason.

    >>> MackeRules().n_dice, MackeRules.preset("volle-lotte").n_dice
    (5, 6)
    >>> MackeRules.preset("volle-lotte").target
    6000
    >>> MackeRules(min_score=275)
    Traceback (most recent call last):
    ...
    ValueError: min_score must be a non-negative multiple of 50 up to 10,000, not 275
    """

    GAME = "macke"
    TITLE = "Berliner Macke"

    #: ``standard`` or one of the rule text's variants (docs/macke.md, "Variants").
    variant: str = "standard"
    #: A turn total below this is subtracted instead of added.
    min_score: int = 300
    #: Throws per series (a clear starts a new series with this many).
    throws: int = 3
    #: A Macke after the first throw subtracts the turn total (``subtract``) or scores 0.
    bust: str = "subtract"
    #: Points to win.
    target: int = 5000
    #: Six of a kind (Volle Lotte only): two triples or one.
    six_of_kind: str = "two-triples"
    #: Turn-level analysis of ``instant-win``: what the instant win is worth, in points.
    win_value: int = 5000

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}")
        if self.bust not in BUST_CHOICES:
            raise ValueError(f"bust must be one of {', '.join(BUST_CHOICES)}, not {self.bust!r}")
        if self.six_of_kind not in SIX_OF_KIND_CHOICES:
            raise ValueError(f"six_of_kind must be one of {', '.join(SIX_OF_KIND_CHOICES)}, "
                             f"not {self.six_of_kind!r}")
        for name in ("min_score", "target", "win_value"):
            value = getattr(self, name)
            top = MAX_MIN_SCORE if name == "min_score" else MAX_POINTS
            if (not isinstance(value, int) or value < 0 or value % POINT_UNIT or value > top
                    or (name == "target" and value == 0)):
                raise ValueError(f"{name} must be a non-negative multiple of {POINT_UNIT} up to "
                                 f"{top:,}, not {value}")
        if not isinstance(self.throws, int) or not 1 <= self.throws <= 6:
            raise ValueError(f"throws must be 1..6, not {self.throws}")

    @classmethod
    def preset(cls, variant: str = "standard", **overrides) -> "MackeRules":
        """The rules of a variant: Volle Lotte plays with 6 dice to 6000."""
        base = cls(variant=variant)
        if variant == "volle-lotte" and "target" not in overrides:
            base = replace(base, target=6000)
        return replace(base, **overrides)

    @property
    def n_dice(self) -> int:
        return 6 if self.variant == "volle-lotte" else 5

    @property
    def game(self) -> str:
        return "volle-lotte" if self.variant == "volle-lotte" else "macke"

    def result(self, turn_total: int) -> int:
        """Points a turn adds to the score: +T at or above the minimum, else -T."""
        return turn_total if turn_total >= self.min_score else -turn_total

    def to_dict(self) -> dict:
        return {"game": "macke", **asdict(self)}


def macke_turn_rules(rules: MackeRules) -> MackeRules:
    """The rules with the target at the variant's preset: what a turn policy sees
    (the target is the only game-level field of ``MackeRules``)."""
    return replace(rules, target=MackeRules.preset(rules.variant).target)
