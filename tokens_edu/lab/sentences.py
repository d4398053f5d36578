"""The kit's own sentences for lesson 12 and notebook 09, and a check for private details.

``tokens_edu/lab/data/sentences.yaml`` holds about 300 short sentences written for this kit (none
copied from anywhere): the game's rules and cards, AI ideas, and everyday things an 11-year-old
writes about. Every number it says about a card (cost, CAP, TRU, Tokens) is checked against the
card data by the tests. The file's groups:

``game``          the rules, in short sentences;
``card numbers``  "Chatbot has a CAP of 1." and the like (so a model can stitch a false one);
``cards``         what cards are and do;
``ai``            AI ideas in plain words;
``everyday``      school, home, animals, food, weather; ten start "I like to";
``private``       one made-up person's address and phone number (555-01xx numbers are kept
                  for stories), seen once, so the model repeats it word for word.

``demos`` in the same file names what lesson 12 shows, and the tests check the model writes it:
``made_up`` (two true sentences stitched into a false one, and the seam), ``made_up_card`` and
``private``.

:func:`personal_details` looks at a student's sentence before the class sees it: a name, an
address, a phone number or an email address gets a plain warning (lesson 12 asks "Share it
anyway?"). It is a simple check by patterns, so it can miss things and can warn about a
place name; the teacher can still hide any sentence on the dashboard.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

__all__ = ["SENTENCE_FILE", "GROUPS", "kit_sentences", "demos", "personal_details", "WARNINGS"]

#: The shipped sentences (in the package, so a wheel carries them).
SENTENCE_FILE = Path(__file__).resolve().parent / "data" / "sentences.yaml"
#: The groups of sentences in the file, in order.
GROUPS = ("game", "card numbers", "cards", "ai", "everyday", "private")

#: What a student reads when a sentence may hold private details (the readability test measures
#: these; ``{found}`` is what was found, in quotes).
WARNINGS = {
    "name": "This may be a person's name: {found}. Use a made-up name instead.",
    "address": "This looks like an address: {found}. Never share where someone lives.",
    "phone": "This looks like a phone number: {found}. Never share a phone number.",
    "email": "This looks like an email address: {found}. Keep it private.",
}


@lru_cache(maxsize=1)
def _data() -> dict:
    with open(SENTENCE_FILE, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict) or any(not isinstance(data.get(g), list) for g in GROUPS):
        raise ValueError(f"{SENTENCE_FILE.name} needs the groups {', '.join(GROUPS)}, each a list of sentences.")
    return data


def kit_sentences(groups: tuple[str, ...] | None = None) -> list[str]:
    """The kit's sentences, in the file's order.

    Args:
        groups: which groups (names from :data:`GROUPS`); None: all of them.

    Returns:
        list[str]: the sentences as written (capitals and all).

    Raises:
        ValueError: an unknown group (the message names the groups).
    """
    chosen = GROUPS if groups is None else tuple(groups)
    unknown = [g for g in chosen if g not in GROUPS]
    if unknown:
        raise ValueError(f"There is no group {unknown[0]!r}; the groups are {', '.join(GROUPS)}.")
    data = _data()
    return [str(s) for g in chosen for s in data[g]]


def demos() -> dict:
    """What lesson 12 shows from the kit's sentences (a copy of the file's ``demos``).

    Returns:
        dict: ``made_up`` (``prompt``, what a context-2 model ``writes`` from it at the surprise 0
        as lower-case tokens joined, the two true sentences it came ``from``, and the token after
        the ``seam``), ``made_up_card`` (``prompt``, ``writes``, the true ``fact``) and ``private``
        (``prompt``, ``writes``: a sentence of the ``private`` group, word for word).
    """
    return {k: dict(v) for k, v in _data()["demos"].items()}


# -- private details --------------------------------------------------------------------------------
_PHONE = re.compile(r"(?<![\w-])\+?\(?\d[\d\s().-]{5,}\d(?![\w-])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_STREET = (r"street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|court|ct|close|place|pl|boulevard|blvd|"
           r"terrace|crescent|square|hill|gardens|row|highway")
_ADDRESS = re.compile(rf"\b\d{{1,5}}[a-z]?,?\s+(?:[A-Za-z'-]+\s+){{0,3}}(?:{_STREET})\b\.?", re.I)
_LIVES = re.compile(r"\blives?\s+(?:at|on)\s+(?:[\w'-]+\s+){0,4}?\d+[\w-]*(?:\s+[A-Za-z'-]+){0,3}", re.I)
_NAME_SAID = re.compile(r"\b(?i:my name is|my name's|i am called|i'm called|his name is|her name is|"
                        r"their name is)\s+([A-Za-z][\w'-]*)")
_WORD = re.compile(r"[A-Za-z][\w'-]*|[.!?]")
#: Capitalised words that are not names: the game's words, days, months, languages...
_NOT_NAMES = frozenset("""
    I AI OK Tokens Token Data System Systems Tool Tools Action Actions Task Tasks Audit Audits Flag
    Flags CAP TRU Training Set Deprecated Legacy Big Fast-Tracked Highly Trusted Adversarial
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December Christmas Easter English Spanish French
    Mr Mrs Ms Miss Dr Celsius Fahrenheit Internet Python CUDA GPU CPU RAM GPT GAN
""".split())


@lru_cache(maxsize=1)
def _card_words() -> frozenset:
    # the card names' words are the game's own (cards are content, below this layer)
    from ..content.cards import load_cards  # noqa: PLC0415  (the card data loads only when a sentence is checked)

    return frozenset(w for c in load_cards().cards() for w in re.findall(r"[\w'-]+", c.name))


def _inside_capitals(text: str) -> list[str]:
    """Capitalised words that do not start a sentence ("'s" cut off): "I met Sam." gives ["Sam"]."""
    out, start = [], True
    for word in _WORD.findall(text):
        if word in ".!?":
            start = True
            continue
        if not start and word[0].isupper() and word[1:2].islower():
            out.append(word[:-2] if word.endswith("'s") else word)
        start = False
    return out


def personal_details(text: str) -> list[str]:
    """Plain warnings for what in ``text`` looks like private details, before the class sees it.

    It looks for a phone number (7 or more digits, with spaces, dots or dashes), an email
    address, a street address (a number then a street word, or "lives at ..."), and a name (after
    "my name is", or a capitalised word inside a sentence that is not a word of the game, a day,
    a month or a language). It is a check by patterns (no list of real names and places), so it
    can miss things and can warn about a place or a pet.

    Args:
        text: the student's sentence (any length).

    Returns:
        list[str]: one sentence of :data:`WARNINGS` for each kind found (names, address, phone,
        email, in that order), each quoting what it found; ``[]`` when nothing was found.
    """
    text = str(text)
    found: list[str] = []
    emails = _EMAIL.findall(text)
    rest = _EMAIL.sub(" ", text)
    phones = [p.strip() for p in _PHONE.findall(rest) if sum(ch.isdigit() for ch in p) >= 7]
    addresses = [m.group(0).strip(" .") for m in _ADDRESS.finditer(rest)]
    if not addresses:  # "I live at number 5": a number after "live at"
        addresses = [m.group(0).strip(" .") for m in _LIVES.finditer(rest)]
    rest = _ADDRESS.sub(" ", rest)  # a street's name is not a person's
    names = [m.group(1) for m in _NAME_SAID.finditer(rest)]
    cards = _card_words()
    names += [w for w in _inside_capitals(rest) if w not in _NOT_NAMES and w not in cards]
    for kind, items in (("name", names), ("address", addresses), ("phone", phones), ("email", emails)):
        seen = list(dict.fromkeys(items))
        if seen:
            found.append(WARNINGS[kind].format(found=", ".join(f'"{s}"' for s in seen[:3])))
    return found
