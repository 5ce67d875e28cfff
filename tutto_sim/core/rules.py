"""What every game's rules object shares: its dict form read back with checks,
and a fingerprint. Game-independent.

A game's rules are a frozen dataclass that inherits :class:`GameRules` and
names itself (``GAME``, the ``game`` key of its dict form, and ``TITLE`` for
messages); ``to_dict()`` is the game's own (it adds ``"game": GAME``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from typing import ClassVar


class GameRules:
    """Mixin: ``from_dict`` (refuses another game and unknown options, one line)
    and ``digest`` (SHA-256 of the canonical JSON of ``to_dict()``, as result
    CSVs and policy files record it)."""

    GAME: ClassVar[str]
    TITLE: ClassVar[str]

    @classmethod
    def from_dict(cls, d: dict):
        d = dict(d)
        if d.pop("game", cls.GAME) != cls.GAME:
            raise ValueError(f"not a {cls.TITLE} rules object")
        names = {f.name for f in fields(cls) if f.init}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"unknown {cls.TITLE.split()[-1]} rule option(s): "
                             f"{', '.join(sorted(unknown))}; valid: {', '.join(sorted(names))}")
        return cls(**d)

    def changed(self, names) -> list[tuple[str, object]]:
        """``(name, value)`` of the options ``names`` that differ from the defaults."""
        default = type(self)()
        return [(k, getattr(self, k)) for k in names if getattr(self, k) != getattr(default, k)]

    def check_choice(self, name: str, choices: tuple) -> None:
        """The option ``name`` is one of ``choices``, of their type (``True``
        is no table size); else one line (``ValueError``) naming them."""
        value = getattr(self, name)
        if type(value) is not type(choices[0]) or value not in choices:
            raise ValueError(f"{name} must be one of {', '.join(map(str, choices))}, "
                             f"not {value!r}")

    def check_flags(self, *names: str) -> None:
        """The on/off options ``names`` are true or false; else one line."""
        for name in names:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not {value!r}")

    def digest(self) -> str:
        """SHA-256 of the canonical JSON form."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def rules_phrase(changes: list[str], doc: str, default: str) -> str:
    """The rules in one phrase: ``default`` when nothing ``changes``, else the
    rules document with the changes (in the players' words)."""
    from tutto_sim.core.report import join_words

    return f"rules: {doc} with {join_words(changes)}" if changes else default
