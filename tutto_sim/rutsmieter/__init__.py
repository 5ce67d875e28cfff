"""Rutsmieter, the platform's Ludo ("Mensch ärgere dich nicht") with house rules.

Data flows one way through the package (docs/rutsmieter.md has the rules for
players): ``rules`` (the settings) → ``reference`` (the readable engine and
built-in bots) → ``kernel`` (the numba twin that plays the same games fast)
→ ``solo`` (exact expected throws for one player alone, a check on both).
Around them: ``policy`` (the weights bot's linear move evaluator and its
policy file), ``bots`` (``--bots`` specs), ``game`` (the shared tournament's
config, reference record and kernel wrapper), ``cli`` (``solve --solo``), and
``entry`` / ``hooks`` (the registry's view of the game).
"""

from .rules import RutsmieterRules

__all__ = ["RutsmieterRules"]
