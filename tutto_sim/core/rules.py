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

    def digest(self) -> str:
        """SHA-256 of the canonical JSON form."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()
