"""Scenarios: a game set up at any position, from a dict or a YAML file (``Game.from_scenario``).

The format (also in the project's API)::

    title: Audit or Task?      # shown to students
    seed: 7                     # for later shuffles
    active: 0                   # whose turn; the game starts in the main phase of `turn`
    turn: 5
    players:
      - name: Ada
        tokens: 9
        hand: [Bias in Data, Chatbot]
        deck: [Sensor, Neuron]              # top first
        discard: []
        training_set: {ready: 3, exerted: 1}  # or a list of card names (all ready)
        trained_this_turn: false
        systems:
          - {card: Neural Network, flags: 1, exerted: false, new: false}
        tools:
          - {card: Python, exerted: false}
      - name: Bo
        ...

Missing keys take the empty or zero value. Optional extras: ``description`` (text for the
teacher), ``first_player`` (default: the player whose turns are odd-numbered), per player
``model_card_used``. Anything that breaks a rule (a card that does not exist, 3 copies of a
card, Flags at or over Trust, a Tool listed as a System) is refused with a
:class:`ScenarioError` that names the entry. Colors are not checked (R1 is about decks, and a
lesson may show cards of any colors together).

A Training Set given as counts is filled with copies of a vanilla card (Not Alive) that do not
count toward the copy limit. They are real cards: if an effect discards one (R21), a Not Alive
goes to the discard pile. To choose the cards, give the Training Set as a list of names.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import yaml

from ..content.cards import load_cards
from ..content.decks import MAX_COPIES
from ..content.inputs import InputTooLarge, read_text_limited
from ..content.names import clean_name
from ..engine import events, new_state
from ..engine.state import State
from ..engine.verbs import say
from ..errors import ScenarioError

__all__ = ["build_scenario", "load_scenario", "yaml_shape_problem", "ScenarioStart", "TRAINING_SET_FILLER", "check_names", "check_seed",
           "check_turn_limit"]

#: The card that fills a Training Set given as counts (``{ready: 3, exerted: 1}``). It is face
#: down, so which card it is rarely matters; it does not count toward the copy limit.
TRAINING_SET_FILLER = "Not Alive"
_TOP = {"title", "seed", "active", "turn", "players", "first_player", "description"}
_PLAYER = {"name", "tokens", "hand", "deck", "discard", "training_set", "trained_this_turn", "systems",
           "tools", "model_card_used"}
_MAX_LIST = 200


#: How deep lists and mappings may nest in a scenario file (a real one needs 4 or 5 levels).
MAX_YAML_DEPTH = 20
#: The largest scenario file read, in characters (a real one is a few hundred).
MAX_YAML_CHARS = 200_000


def yaml_shape_problem(text: str) -> tuple[int, str] | None:
    """Why YAML ``text`` is not shaped like a scenario file at all, before it is loaded:
    ``(line, message)``, or None when it may be loaded. Refused: anchors and aliases (``&a``,
    ``*a``: a scenario never needs them, and they can make a tiny file expand without end or
    refer to itself), nesting deeper than :data:`MAX_YAML_DEPTH`, text longer than
    :data:`MAX_YAML_CHARS`. Reads the YAML's events only (nothing is built), so it is quick on
    any input. YAML syntax errors are left to the loader, which names their line.
    """
    if len(text) > MAX_YAML_CHARS:
        return 0, f"The file is too long for a scenario (over {MAX_YAML_CHARS:,} characters)."
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            line = event.start_mark.line + 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                return line, ("Anchors and aliases (& and *) are not used in scenario files: "
                              "write each entry out in full.")
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    return line, f"Lists and mappings are nested too deep here (more than {MAX_YAML_DEPTH} levels)."
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return None
    return None


def load_scenario(source) -> dict:
    """Read a scenario from a dict or a YAML file path into a plain dict.

    Raises:
        ScenarioError: the file cannot be read, is not YAML, or is not a mapping.
    """
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source))
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            text = read_text_limited(path, "scenario", encoding="utf-8")
        except InputTooLarge as e:
            raise ScenarioError(str(e)) from None
        except (OSError, ValueError) as e:
            raise ScenarioError(f"Cannot read the scenario file {str(source)[:80]!r}: {getattr(e, 'strerror', None) or e}.") from None
        shape = yaml_shape_problem(text)
        if shape is not None:
            line, message = shape
            raise ScenarioError(f"The scenario file {path.name} cannot be used{f' (line {line})' if line else ''}: {message}")
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            raise ScenarioError(f"The scenario file {path.name} is not valid YAML{where}.") from None
        if not isinstance(data, Mapping):
            raise ScenarioError(f"The scenario file {path.name} must be a mapping with 'players'.")
        return dict(data)
    raise ScenarioError(f"A scenario is a dict or a path to a YAML file, not {type(source).__name__}.")


def _int(value, where: str, lo: int, hi: int, default: int = 0) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ScenarioError(f"{where} must be a whole number from {lo} to {hi}, not {value!r:.40}.")
    return value


def _bool(value, where: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ScenarioError(f"{where} must be true or false, not {value!r:.40}.")
    return value


def _names(value, where: str, pool) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, list):
        raise ScenarioError(f"{where} must be a list of card names, like [Chatbot, Sensor].")
    if len(value) > _MAX_LIST:
        raise ScenarioError(f"{where} has more than {_MAX_LIST} cards.")
    out = []
    for i, name in enumerate(value):
        card = pool.get_card(name)
        if card is None:
            raise ScenarioError(f"{where}[{i}]: {pool.unknown_message(name)}")
        out.append(card.name)
    return out


class ScenarioStart(NamedTuple):
    """A scenario read and checked: the engine ``state`` at its first position, the players'
    ``names``, its ``title`` (or None) and ``origin`` (the scenario as JSON-able data, for
    records)."""

    state: State
    names: tuple
    title: str | None
    origin: dict


def build_scenario(source) -> ScenarioStart:
    """Read and check a scenario (see the module docstring) and set up its position.

    Raises:
        ScenarioError: naming the bad entry, e.g. "players[0].systems[0]: Neural Network has
            2 Flags, but its Trust is 2 (Flags must stay below Trust, R15)."
    """
    data = load_scenario(source)
    pool = load_cards()
    unknown = set(map(str, data)) - _TOP
    if unknown:
        raise ScenarioError(f"Unknown scenario key(s): {', '.join(sorted(unknown))}. Known keys: {', '.join(sorted(_TOP))}.")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ScenarioError("A scenario needs 'players': a list of exactly two players.")
    active = _int(data.get("active"), "active", 0, 1)
    turn = _int(data.get("turn"), "turn", 1, 100_000, default=1)
    first = active if turn % 2 == 1 else 1 - active
    if data.get("first_player") is not None:
        f = _int(data.get("first_player"), "first_player", 0, 1)
        if (f == active) != (turn % 2 == 1):
            raise ScenarioError(f"first_player {f} does not fit: the first player's turns are the odd ones, and turn {turn} is player {active}'s.")
        first = f
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        raise ScenarioError("title must be text.")
    try:
        seed = check_seed(data.get("seed", 0))
    except ScenarioError as e:
        raise ScenarioError(f"seed: {e}") from None

    cards: list = []
    owners: list[int] = []
    # per player: zone name -> card ids; and (card id, exerted, flags, new) for cards in play
    zones: list[dict] = [{}, {}]
    in_play: list[list] = [[], []]
    names = []
    numbers: list[dict] = [{}, {}]
    for p, pdata in enumerate(players):
        at = f"players[{p}]"
        if not isinstance(pdata, Mapping):
            raise ScenarioError(f"{at} must be a mapping with name, tokens, hand...")
        bad = set(map(str, pdata)) - _PLAYER
        if bad:
            raise ScenarioError(f"{at}: unknown key(s) {', '.join(sorted(bad))}. Known keys: {', '.join(sorted(_PLAYER))}.")
        names.append(pdata.get("name") or f"Player {p + 1}")
        z = zones[p]
        numbers[p]["tokens"] = _int(pdata.get("tokens"), f"{at}.tokens", 0, 14)
        counted: list[str] = []

        def add(name: str, owner: int = p) -> int:
            cards.append(pool[name])
            owners.append(owner)
            return len(cards) - 1

        hand = _names(pdata.get("hand"), f"{at}.hand", pool)
        deck = _names(pdata.get("deck"), f"{at}.deck", pool)
        discard = _names(pdata.get("discard"), f"{at}.discard", pool)
        counted += hand + deck + discard
        z["hand"] = [add(n) for n in hand]
        z["deck"] = [add(n) for n in reversed(deck)]  # stored top-last
        z["discard"] = [add(n) for n in discard]
        z["ts"], z["ts_ex"] = [], []
        ts = pdata.get("training_set")
        if ts is None:
            pass
        elif isinstance(ts, Mapping):
            extra = set(map(str, ts)) - {"ready", "exerted"}
            if extra:
                raise ScenarioError(f"{at}.training_set: use 'ready' and 'exerted' counts (unknown: {', '.join(sorted(extra))}).")
            r = _int(ts.get("ready"), f"{at}.training_set.ready", 0, 60)
            e = _int(ts.get("exerted"), f"{at}.training_set.exerted", 0, 60)
            for flag in [False] * r + [True] * e:
                z["ts"].append(add(TRAINING_SET_FILLER))
                z["ts_ex"].append(flag)
        elif isinstance(ts, list):
            names_ts = _names(ts, f"{at}.training_set", pool)
            counted += names_ts
            for n in names_ts:
                z["ts"].append(add(n))
                z["ts_ex"].append(False)
        else:
            raise ScenarioError(f"{at}.training_set must be {{ready: N, exerted: M}} or a list of card names.")
        numbers[p]["trained"] = _bool(pdata.get("trained_this_turn"), f"{at}.trained_this_turn")
        numbers[p]["model_card_used"] = _bool(pdata.get("model_card_used"), f"{at}.model_card_used")
        for zone in ("systems", "tools"):
            z[zone] = []
            entries = pdata.get(zone) or []
            if not isinstance(entries, list) or len(entries) > 50:
                raise ScenarioError(f"{at}.{zone} must be a list (at most 50) of {{card: Name, ...}} entries.")
            for i, entry in enumerate(entries):
                where = f"{at}.{zone}[{i}]"
                if isinstance(entry, str):
                    entry = {"card": entry}
                if not isinstance(entry, Mapping) or "card" not in entry:
                    raise ScenarioError(f"{where} must look like {{card: Neural Network, flags: 0}}.")
                allowed = {"card", "flags", "exerted", "new"} if zone == "systems" else {"card", "exerted", "new"}
                extra = set(map(str, entry)) - allowed
                if extra:
                    raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(extra))} (allowed: {', '.join(sorted(allowed))}).")
                card = pool.get_card(entry["card"])
                if card is None:
                    raise ScenarioError(f"{where}: {pool.unknown_message(entry['card'])}")
                want = "System" if zone == "systems" else "Tool"
                if card.type == "Action":
                    raise ScenarioError(f"{where}: {card.name} is an Action. Actions never stay in play: "
                                        "put it in hand, deck or discard.")
                if card.type != want:
                    raise ScenarioError(f"{where}: {card.name} is a {card.type}, not a {want}; put it under {card.type.lower()}s.")
                counted.append(card.name)
                new = _bool(entry.get("new"), f"{where}.new")
                if new and p != active:
                    raise ScenarioError(f"{where}: only the active player's cards can be new (deployed this turn).")
                exerted = _bool(entry.get("exerted"), f"{where}.exerted")
                flags = 0
                if zone == "systems":
                    flags = _int(entry.get("flags"), f"{where}.flags", 0, 99)
                    if flags >= card.tru:
                        raise ScenarioError(f"{where}: {card.name} has {flags} Flags, but its Trust is {card.tru} "
                                            "(Flags must stay below Trust, or it would be Deprecated: R15).")
                x = add(card.name)
                z[zone].append(x)
                in_play[p].append((x, exerted, flags, turn if new else turn - 1))
        for name in sorted(set(counted)):
            k = counted.count(name)
            if k > MAX_COPIES:
                raise ScenarioError(f"{at}: {k} copies of {name} (at most {MAX_COPIES}, R1).")

    s = new_state(cards, owners, seed)
    for p in (0, 1):
        for zone, ids in zones[p].items():
            getattr(s, zone)[p].extend(ids)
        for x, exerted, flags, entered in in_play[p]:
            s.exerted[x], s.flags[x], s.entered[x] = exerted, flags, entered
        s.tokens[p] = numbers[p]["tokens"]
        if numbers[p]["trained"]:
            s.trained[p], s.trained_turn[p] = 1, turn
        s.model_card_used[p] = numbers[p]["model_card_used"]
    s.turn, s.active, s.first, s.phase = turn, active, first, "main"
    say(s, events.SCENARIO, active)
    data_out = {k: v for k, v in data.items()}
    data_out["seed"] = seed
    return ScenarioStart(s, check_names(tuple(names)), title, _jsonable(data_out, pool))


def check_names(names) -> tuple[str, str]:
    """Two different player names of 1-40 characters, cleaned as every typed name is
    (:func:`tokens_edu.content.names.clean_name`: no control, bidi-override or invisible characters,
    spaces tidied). Raises ScenarioError."""
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) != 2:
        raise ScenarioError("names must be two names, like ('Ada', 'Bo').")
    out = []
    for n in names:
        if isinstance(n, str):  # plain printable ASCII needs only its spaces tidied
            n = " ".join(n.split()) if n.isascii() and n.isprintable() else clean_name(n)
        if not isinstance(n, str) or not n or len(n) > 40:
            raise ScenarioError("Each player's name must be some text of 1 to 40 characters.")
        out.append(n)
    if out[0] == out[1]:
        raise ScenarioError(f"The two players need different names (both are '{out[0]}').")
    return (out[0], out[1])


def check_seed(seed) -> int:
    """A seed (a whole number; None picks one at random). Raises ScenarioError."""
    if seed is None:
        return int.from_bytes(os.urandom(4), "big")
    if isinstance(seed, bool) or not isinstance(seed, int) or not -(2 ** 63) <= seed < 2 ** 63:
        if isinstance(seed, int) and not isinstance(seed, bool):
            raise ScenarioError(f"The seed is too big: use a whole number between -{2 ** 63} and {2 ** 63 - 1}.")
        raise ScenarioError(f"The seed must be a whole number, not {seed!r:.40}.")
    return seed


def check_turn_limit(limit) -> int | None:
    """A turn limit (1-100000) or None (R25). Raises ScenarioError."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100_000:
        raise ScenarioError(f"turn_limit must be a whole number from 1 to 100000, or None (not {limit!r:.40}).")
    return limit


def _jsonable(value, pool):
    """A JSON-safe deep copy of a validated scenario (YAML may hold dates or tuples)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v, pool) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, pool) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
