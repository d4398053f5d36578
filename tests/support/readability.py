"""How hard a text is to read (Flesch-Kincaid grade, textstat), for the tests of what students read."""

from __future__ import annotations

import re
import textstat
from tokens_edu import load_cards


CARDS = load_cards().cards()
CARD_GRADE = 7
PROSE_GRADE = 6
MESSAGE_GRADE = 6


#: Words a student page never uses: each is jargon we do not define for students (the game
#: says "new hand", "turn sideways", "the player who owns it"...). Matched as whole words.
UNDEFINED_WORDS = (
    "mulligan", "exert", "exerted", "exerts", "controller", "heuristic", "heuristics",
    "stochastic", "algorithmic", "parameters", "ply", "resolve", "resolves", "instantiate",
    "iterate", "boolean", "null", "params", "API", "kwargs",
)


_CARD_NAMES = re.compile("|".join(re.escape(c.name) for c in sorted(CARDS, key=lambda c: -len(c.name))))


def grade(text: str) -> float:
    """Flesch-Kincaid grade of ``text`` (textstat 0.7.4)."""
    return textstat.flesch_kincaid_grade(text)


def without_card_names(text: str) -> str:
    """``text`` with every card name replaced by the one-syllable word "card"."""
    return _CARD_NAMES.sub("card", text)


def report(title: str, scored: list[tuple[float, str, str]], limit: float, show: int = 8) -> list:
    """Print the worst items; return those over ``limit``."""
    scored = sorted(scored, key=lambda x: -x[0])
    values = [s for s, _, _ in scored]
    print(f"\n{title}: {len(values)} items, mean grade {sum(values) / len(values):.1f}, "
          f"worst {values[0]:.1f} (limit {limit})")
    for g, where, text in scored[:show]:
        print(f"  {g:5.1f}  {where}: {text[:140]}")
    return [(g, where, text) for g, where, text in scored if g > limit]
