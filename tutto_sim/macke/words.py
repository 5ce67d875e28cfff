"""Berliner Macke's and Volle Lotte's rules in the players' words, for captions
and report covers (``core.report`` asks through the registry)."""

from __future__ import annotations

from tutto_sim.core.report import count, dice, join_words, pts

RULES_DOC = "docs/macke.md"
#: Six of a kind in the players' words (Volle Lotte has six dice).
SIX_WORDS = {"one-triple": "six of a kind counted as one triple",
             "two-triples": "six of a kind counted as two triples"}
SIX_LINES = {"two-triples": "two triples (six 1s = 2,000)",
             "one-triple": "one triple and singles (six 1s = 1,300)"}


#: Berliner Macke's variants in the players' words.
VARIANT_WORDS = {
    "standard": "standard",
    "instant-win": "instant win (five 1s in one throw win)",
    "jackpot": "jackpot (five 5s = 5,000, five 1s = 10,000)",
    "ones-and-fives": "only 1s and 5s score",
    "volle-lotte": "Volle Lotte (6 dice)",
}


def unit_words(state: str) -> str:
    """Units as players write them: "111 + 5" -> "1-1-1 + 5" (a triple of 1s and a 5)."""
    return " + ".join("-".join(u) if len(u) == 3 and u.isdigit() and len(set(u)) == 1 else u
                      for u in state.split(" + "))


def exception_words(u: str, lo: int, hi: int) -> str:
    """One exception to the bank thresholds: "6-6-6 at 600–650"."""
    return f"{unit_words(u)} at {pts(lo)}" + ("" if hi == lo else f"–{pts(hi)}")


def exceptions_lines(sol) -> list[str]:
    """The bank thresholds' exceptions of a ``MackeSolution`` (every one),
    grouped by throws and dice left, one line each."""
    exc = sol.bank_exceptions
    if not exc:
        return ["no exceptions: the thresholds are the whole policy"]
    groups: dict[tuple[int, int], list[str]] = {}
    for tl, d, u, lo, hi in exc:
        groups.setdefault((tl, d), []).append(exception_words(u, lo, hi))
    lines = [f"{count(len(exc), 'exception')} (bank below the threshold):"]
    for (tl, d), items in sorted(groups.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        lines.append(f"{count(tl, 'throw')} and {dice(d)} left: " + "; ".join(items))
    return lines


#: What a Macke costs under each bust rule, in the players' words.
BUST_WORDS = {"subtract": "a Macke subtracts the turn total",
              "zero": "a Macke scores 0"}


def _macke_with(field_name: str, value) -> str:
    if field_name == "min_score":
        return f"a minimum score of {pts(value)}"
    if field_name == "throws":
        return f"{count(value, 'throw')} per series"
    if field_name == "bust":
        return {"zero": "a Macke scoring 0 instead of subtracting the turn total",
                "subtract": "a Macke subtracting the turn total"}[value]
    if field_name == "target":
        return f"a target of {pts(value)} points"
    if field_name == "six_of_kind":
        return SIX_WORDS[value]
    if field_name == "win_value":
        return f"an instant win counted as {pts(value)} points"
    return f"{field_name.replace('_', ' ')} {value}"


def macke_game_words(rules) -> str:
    """The game and its variant: "Berliner Macke", "Volle Lotte",
    "Berliner Macke, variant jackpot (five 5s = 5,000, five 1s = 10,000)"."""
    if rules.variant == "volle-lotte":
        return "Volle Lotte"
    if rules.variant == "standard":
        return "Berliner Macke"
    return f"Berliner Macke, variant {VARIANT_WORDS.get(rules.variant, rules.variant)}"


def changed_rules(rules) -> list[str]:
    """The options that differ from the variant's preset, in the players' words."""
    default = type(rules).preset(rules.variant).to_dict()
    return [_macke_with(k, v) for k, v in rules.to_dict().items()
            if k not in ("game", "variant") and default.get(k) != v]


def rules_words(rules) -> str:
    """The rules in one phrase, without the fingerprint: the game and its
    variant, and the options that differ from the variant's preset (so Volle
    Lotte's 6000 target is not a change).

    >>> from tutto_sim.macke.rules import MackeRules
    >>> from tutto_sim.core.report import rules_label
    >>> rules_label(MackeRules())
    'default Berliner Macke rules (docs/macke.md), rules fingerprint 184119dac88f'
    >>> rules_label(MackeRules.preset("volle-lotte", bust="zero")).split(", rules f")[0]
    'rules: docs/macke.md, Volle Lotte with a Macke scoring 0 instead of subtracting the turn total'
    """
    diff = changed_rules(rules)
    game = macke_game_words(rules)
    if not diff and rules.variant in ("standard", "volle-lotte"):
        return f"default {game} rules ({RULES_DOC})"
    return f"rules: {RULES_DOC}, {game}" + (f" with {join_words(diff)}" if diff else "")


def rules_flags(rules) -> list[str]:
    """The flags that give ``rules`` (the variant and what differs from its preset).

    >>> from tutto_sim.macke.rules import MackeRules
    >>> rules_flags(MackeRules.preset("jackpot", min_score=400))
    ['--variant jackpot', '--min-score 400']
    """
    default = type(rules).preset(rules.variant).to_dict()
    flags = [f"--variant {rules.variant}"] if rules.variant != type(rules)().variant else []
    flags += [f"--{k.replace('_', '-')} {v}" for k, v in rules.to_dict().items()
              if k not in ("game", "variant") and default.get(k) != v]
    return flags


def rules_lines(rules) -> list[str]:
    """Every rule option as a line in the players' words (the cover)."""
    d = rules.to_dict()
    lines = [f"Game: {macke_game_words(rules)}, {count(rules.n_dice, 'die')}",
             f"Minimum score: a turn total below {pts(d['min_score'])} is subtracted",
             f"Throws per series: {d['throws']} (a clear starts a new series)",
             f"Macke after the first throw: {BUST_WORDS[d['bust']].replace('a Macke ', '')}",
             f"Target: {pts(d['target'])} points"]
    if rules.n_dice == 6:
        lines.append("Six of a kind: " + SIX_LINES[d["six_of_kind"]])
    if rules.variant == "instant-win":
        lines.append(f"An instant win counts as {pts(d['win_value'])} points in this "
                     "turn analysis")
    return lines


def title_of_label(label: str) -> str | None:
    """``macke`` -> Berliner Macke, ``macke-jackpot`` -> Berliner Macke (jackpot),
    ``volle-lotte`` -> Volle Lotte; None for another game's label."""
    if label == "macke":
        return "Berliner Macke"
    if label == "volle-lotte":
        return "Volle Lotte"
    if label.startswith("macke-"):
        return f"Berliner Macke ({label[len('macke-'):]})"
    return None


def variant_words(variant: str) -> str:
    return VARIANT_WORDS.get(variant, variant)
