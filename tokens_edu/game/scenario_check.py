"""Check a scenario file the way a teacher needs: every problem at once, each with its line.

``Game.from_scenario`` stops at the first problem and does not know where in the file it was.
A teacher writing a puzzle wants the whole list, in plain words, with line numbers::

    $ tokens-edu check-scenario my-puzzle.yaml
    my-puzzle.yaml, line 9: There is no card called 'Nueral Network'. Did you mean Neural Network?
    my-puzzle.yaml, line 14: Explainability has 2 Flags, but its Trust is 2. Flags must stay below Trust.
    2 problems found. Fix them, then check again.

How it works: the YAML is read with PyYAML's composer, which keeps the line of every key and
value, so each problem points at the line to change. The checks follow the scenario format of
:mod:`tokens_edu.game.scenario` (the same keys, ranges and card rules). When no problem is found,
the game is really built with :meth:`tokens_edu.Game.from_scenario`, so the engine has the last
word: anything it refuses is reported too (at the line of the entry its message names).

Public names: :func:`check_scenario` (a file), :func:`check_scenario_text` (YAML text),
:class:`Problem`, :func:`describe` (a summary of a good scenario for the command's output).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..content.cards import load_cards
from ..content.decks import MAX_COPIES
from ..content.inputs import read_limited
from ..errors import ScenarioError
from .game import Game
from .scenario import _MAX_LIST, _PLAYER, _TOP, yaml_shape_problem

__all__ = ["Problem", "check_scenario", "check_scenario_text", "describe"]

# The entries a System or a Tool may have (as in tokens_edu.game.scenario.build_scenario).
_SYSTEM_KEYS = ("card", "flags", "exerted", "new")
_TOOL_KEYS = ("card", "exerted", "new")
_MAX_ENTRIES = 50


@dataclass(frozen=True)
class Problem:
    """One problem in a scenario file.

    Attributes:
        line: the 1-based line in the file (0 when the problem is about the whole file).
        message: what is wrong and how to fix it, in plain words.
        where: the entry in the scenario's own terms, e.g. ``"players[0].systems[1].flags"``
            (``""`` for the whole file).
    """

    line: int
    message: str
    where: str = ""

    def text(self, filename: str = "") -> str:
        """The problem as one line: ``"puzzle.yaml, line 9: ..."``."""
        at = f"line {self.line}" if self.line else ""
        head = ", ".join(x for x in (filename, at) if x)
        return f"{head}: {self.message}" if head else self.message


class _Marks:
    """The line of every key and value of a composed YAML document, by path."""

    def __init__(self):
        self.key_line: dict[tuple, int] = {}
        self.value_line: dict[tuple, int] = {}

    def line(self, path: tuple, key: bool = False) -> int:
        """The line of ``path`` (its key's line when ``key``), else of its nearest parent."""
        table = self.key_line if key else self.value_line
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if p in self.key_line:
                return self.key_line[p]
            p = p[:-1]
        return self.value_line.get((), 1)


def _where(path: tuple) -> str:
    """``("players", 0, "systems", 1)`` -> ``"players[0].systems[1]"``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _walk(node, path: tuple, marks: _Marks, problems: list[Problem]) -> None:
    """Record the lines of ``node`` and its children; report keys written twice."""
    marks.value_line.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            line = key_node.start_mark.line + 1
            if key is None:
                problems.append(Problem(line, "A key must be a plain word like 'tokens', "
                                              "not a list or a mapping.", _where(path)))
                continue
            if key in seen:
                problems.append(Problem(line, f"'{key}' is written twice here (also on line "
                                              f"{seen[key]}). Keep only one: the last one would win.",
                                        _where(path + (key,))))
            seen[key] = line
            sub = path + (_key_value(key),)
            marks.key_line[sub] = line
            marks.value_line[sub] = value_node.start_mark.line + 1
            _walk(value_node, sub, marks, problems)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            marks.key_line[path + (i,)] = item.start_mark.line + 1
            _walk(item, path + (i,), marks, problems)


def _key_value(key: str):
    """A mapping key as PyYAML's safe loader reads it (``0`` is the number 0, not "0")."""
    try:
        return yaml.safe_load(key) if key and key[0].isdigit() else key
    except yaml.YAMLError:
        return key


def _yaml_problem(error: yaml.YAMLError, name: str) -> Problem:
    """A YAML syntax error in plain words, at its line."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line = mark.line + 1 if mark is not None else 0
    problem = str(getattr(error, "problem", "") or "")
    if "'\\t'" in problem or "tab" in problem.lower():
        text = "There is a tab character here. YAML needs spaces to indent: replace the tab with spaces."
    elif "mapping values are not allowed" in problem:
        text = ("A colon ':' is in the wrong place. Each line is 'key: value' with one colon and "
                "a space after it; put text that holds a colon in quotes.")
    elif "could not find expected ':'" in problem:
        text = "A line here needs 'key: value' (a colon and a space). Check the spelling and the indentation."
    elif "expected ',' or ']'" in problem or "expected ',' or '}'" in problem:
        text = "A list [ ... ] or a mapping { ... } is not closed, or a comma is missing."
    elif "found undefined alias" in problem:
        text = "A '*' starts an alias (a YAML feature). Put names that start with '*' in quotes."
    elif "block sequence entries are not allowed" in problem or "expected <block end>" in problem:
        text = "The indentation is off: a line starts further in or out than the lines around it."
    else:
        text = f"This is not valid YAML ({problem or 'the file cannot be read'}). Check the indentation and the colons."
    return Problem(line, text)


class _Checker:
    """Collects every problem of one scenario document."""

    def __init__(self, data, marks: _Marks):

        self.data = data
        self.marks = marks
        self.pool = load_cards()
        self.top_keys = set(_TOP)
        self.player_keys = set(_PLAYER)
        self.max_list = _MAX_LIST
        self.problems: list[Problem] = []

    # -- reporting ----------------------------------------------------------------------
    def bad(self, path: tuple, message: str, key: bool = False) -> None:
        self.problems.append(Problem(self.marks.line(path, key=key), message, _where(path)))

    def unknown_keys(self, mapping: Mapping, path: tuple, known: set, what: str) -> None:
        for key in mapping:
            if str(key) not in known:
                close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else f" The keys here are: {', '.join(sorted(known))}."
                self.bad(path + (key,), f"'{key}' is not a key {what} knows.{hint}", key=True)

    # -- value checks (each returns the value, or None after reporting) ---------------------
    def whole(self, path: tuple, value, lo: int, hi: int, what: str):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(path, f"{what} must be a whole number from {lo} to {hi}, not {_show(value)}.")
            return None
        if not lo <= value <= hi:
            self.bad(path, f"{what} must be from {lo} to {hi}, not {value}.")
            return None
        return value

    def yes_no(self, path: tuple, value, what: str) -> None:
        if value is not None and not isinstance(value, bool):
            self.bad(path, f"{what} must be true or false, not {_show(value)}.")

    def card_list(self, path: tuple, value, what: str) -> list[str]:
        """Card names of a list (the real names; unknown ones reported)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, f"{what} must be a list of card names, like [Chatbot, Sensor].")
            return []
        if len(value) > self.max_list:
            self.bad(path, f"{what} has {len(value)} cards; the most is {self.max_list}.")
        out = []
        for i, name in enumerate(value):
            card = self.pool.get_card(name) if isinstance(name, str) else None
            if card is None:
                if isinstance(name, str):
                    self.bad(path + (i,), self.pool.unknown_message(name))
                else:
                    self.bad(path + (i,), f"Each card in {what} is a card's name, not {_show(name)}.")
                continue
            out.append(card.name)
        return out

    # -- the document -------------------------------------------------------------------
    def run(self) -> list[Problem]:
        data = self.data
        if not isinstance(data, Mapping):
            self.problems.append(Problem(1, "A scenario is a list of 'key: value' lines, starting with "
                                            "title, seed, active, turn and players."))
            return self.problems
        self.unknown_keys(data, (), self.top_keys, "a scenario")
        title = data.get("title")
        if title is not None and not isinstance(title, str):
            self.bad(("title",), "The title must be text (put it in quotes if it looks like a number).")
        if data.get("description") is not None and not isinstance(data.get("description"), str):
            self.bad(("description",), "The description must be text.")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not -(2 ** 63) <= seed < 2 ** 63):
            self.bad(("seed",), f"The seed must be a whole number, like 7, not {_show(seed)}.")
        active = self.whole(("active",), data.get("active"), 0, 1,
                            "active (whose turn: 0 for the first player listed, 1 for the second)")
        turn = self.whole(("turn",), data.get("turn"), 1, 100_000, "turn")
        first = data.get("first_player")
        if first is not None:
            f = self.whole(("first_player",), first, 0, 1, "first_player")
            a = 0 if active is None else active
            t = 1 if turn is None else turn
            if f is not None and (f == a) != (t % 2 == 1):
                self.bad(("first_player",),
                         f"first_player {f} does not fit: the first player takes the odd turns "
                         f"(1, 3, 5...), and turn {t} is player {a}'s turn. Change first_player, "
                         "active or turn.")
        players = data.get("players")
        if players is None:
            self.problems.append(Problem(self.marks.line(()), "The scenario has no 'players': add a "
                                                               "list of exactly two players.", "players"))
        elif not isinstance(players, list) or len(players) != 2:
            n = len(players) if isinstance(players, list) else None
            got = f" (it has {n})" if n is not None else ""
            self.bad(("players",), f"'players' must be a list of exactly two players, each starting "
                                   f"with '- name: ...'{got}.")
        else:
            names = []
            for p, pdata in enumerate(players):
                names.append(self.player(p, pdata, 0 if active is None else active))
            if names[0] and names[1] and names[0] == names[1]:
                self.bad(("players", 1, "name"), f"Both players are called '{names[0]}'. "
                                                 "Give them different names.")
        return self.problems

    def player(self, p: int, pdata, active: int) -> str | None:
        at = ("players", p)
        if not isinstance(pdata, Mapping):
            self.bad(at, f"Player {p} must be a set of 'key: value' lines (name, tokens, hand...).")
            return None
        self.unknown_keys(pdata, at, self.player_keys, "a player")
        name = pdata.get("name")
        shown = f"Player {p + 1}"
        if name:  # like the engine: a missing or empty name is "Player 1" / "Player 2"
            if not isinstance(name, str) or not name.strip() or len(name) > 40:
                self.bad(at + ("name",), "A player's name must be text of 1 to 40 characters.")
            else:
                shown = " ".join(name.split())
        self.whole(at + ("tokens",), pdata.get("tokens"), 0, 14,
                   "tokens (15 would have won the game already)")
        counted: list[tuple[str, tuple]] = []
        for zone in ("hand", "deck", "discard"):
            names = self.card_list(at + (zone,), pdata.get(zone), zone)
            counted += [(n, at + (zone,)) for n in names]
        ts = pdata.get("training_set")
        if isinstance(ts, Mapping):
            for key in ts:
                if str(key) not in ("ready", "exerted"):
                    self.bad(at + ("training_set", key), f"'{key}' is not part of a Training Set: use "
                                                         "'ready' and 'exerted' counts, like {ready: 3, exerted: 1}.",
                             key=True)
            for key in ("ready", "exerted"):
                self.whole(at + ("training_set", key), ts.get(key), 0, 60, f"training_set {key}")
        elif isinstance(ts, list):
            names = self.card_list(at + ("training_set",), ts, "training_set")
            counted += [(n, at + ("training_set",)) for n in names]
        elif ts is not None:
            self.bad(at + ("training_set",), "training_set must be counts like {ready: 3, exerted: 1}, "
                                             "or a list of card names (all ready).")
        self.yes_no(at + ("trained_this_turn",), pdata.get("trained_this_turn"), "trained_this_turn")
        self.yes_no(at + ("model_card_used",), pdata.get("model_card_used"), "model_card_used")
        for zone, want, allowed in (("systems", "System", _SYSTEM_KEYS), ("tools", "Tool", _TOOL_KEYS)):
            entries = pdata.get(zone)
            if not entries:  # like the engine: none, [] (or any empty value) is no cards
                continue
            if not isinstance(entries, list):
                self.bad(at + (zone,), f"{zone} must be a list, one '- {{card: Name}}' line each.")
                continue
            if len(entries) > _MAX_ENTRIES:
                self.bad(at + (zone,), f"{zone} has {len(entries)} cards; the most is {_MAX_ENTRIES}.")
            for i, entry in enumerate(entries):
                card = self.in_play(at + (zone, i), entry, p, active, want, allowed)
                if card is not None:
                    counted.append((card.name, at + (zone, i)))
        by_name: dict[str, list[tuple]] = {}
        for name, path in counted:
            by_name.setdefault(name, []).append(path)

        for name, paths in by_name.items():
            if len(paths) > MAX_COPIES:
                self.bad(paths[MAX_COPIES], f"{shown} has {len(paths)} copies of {name}. "
                                            f"A player may have at most {MAX_COPIES} copies of a card "
                                            "(hand, deck, discard, Training Set and play together).")
        return shown

    def in_play(self, path: tuple, entry, p: int, active: int, want: str, allowed: tuple):
        """One System or Tool in play; returns its Card, or None after reporting."""
        if isinstance(entry, str):
            entry = {"card": entry}
            name_path = path
        else:
            name_path = path + ("card",)
        if not isinstance(entry, Mapping) or "card" not in entry:
            self.bad(path, f"Each {want} in play looks like {{card: {'Neural Network, flags: 0' if want == 'System' else 'Python'}}}.")
            return None
        for key in entry:
            if str(key) not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                self.bad(path + (key,), f"'{key}' is not something a {want} in play has "
                                        f"(it has: {', '.join(allowed)}).{hint}", key=True)
        raw = entry["card"]
        card = self.pool.get_card(raw) if isinstance(raw, str) else None
        if card is None:
            self.bad(name_path, self.pool.unknown_message(raw) if isinstance(raw, str)
                     else f"'card' must be a card's name, not {_show(raw)}.")
            return None
        if card.type == "Action":
            self.bad(name_path, f"{card.name} is an Action. Actions never stay in play: put it in the "
                                "hand, deck or discard.")
            return None
        if card.type != want:
            self.bad(name_path, f"{card.name} is a {card.type}, not a {want}: list it under "
                                f"{card.type.lower()}s.")
            return None
        self.yes_no(path + ("exerted",), entry.get("exerted"), "exerted (sideways)")
        self.yes_no(path + ("new",), entry.get("new"), "new (deployed this turn)")
        if entry.get("new") is True and p != active:
            self.bad(path + ("new",), "Only the cards of the player whose turn it is can be new "
                                      "(deployed this turn). Remove 'new: true' or change 'active'.")
        if want == "System":
            flags = self.whole(path + ("flags",), entry.get("flags"), 0, 99, "flags")
            if flags is not None and flags >= card.tru:
                self.bad(path + ("flags",), f"{card.name} has {flags} Flags, but its Trust is {card.tru}. "
                                            "Flags must stay below Trust, or the System is Deprecated "
                                            f"(use at most {card.tru - 1}).")
        return card


def _show(value) -> str:
    """A short, quoted picture of a wrong value for a message."""
    if isinstance(value, str):
        return f"'{value[:40]}'"
    if isinstance(value, Mapping):
        return "a mapping {...}"
    if isinstance(value, list):
        return "a list [...]"
    if value is None:
        return "nothing"
    return str(value)[:40]


_PATH_IN_MESSAGE = re.compile(r"players\[(\d)\](?:\.(\w+)(?:\[(\d+)\])?(?:\.(\w+))?)?")


def _engine_problem(message: str, marks: _Marks) -> Problem:
    """An engine ``ScenarioError`` as a Problem, at the line of the entry its message names."""
    found = _PATH_IN_MESSAGE.search(message)
    path: tuple = ()
    if found:
        path = ("players", int(found.group(1)))
        if found.group(2):
            path += (found.group(2),)
        if found.group(3):
            path += (int(found.group(3)),)
        if found.group(4):
            path += (found.group(4),)
    else:
        first = re.match(r"(\w+)", message)
        if first and (first.group(1),) in marks.key_line:
            path = (first.group(1),)
    text = re.sub(r"\s*\(?R\d+\)?\.?$", ".", message).replace("..", ".")
    return Problem(marks.line(path) if path else marks.line(()), text, _where(path))


def check_scenario_text(text: str, name: str = "scenario") -> list[Problem]:
    """Every problem of a scenario given as YAML text (see :func:`check_scenario`).

    Args:
        text: the YAML text of the scenario.
        name: the file's name, used only in messages about the whole file.

    Returns:
        list of :class:`Problem`, in line order; empty when the scenario is good (then
        ``Game.from_scenario`` builds it).
    """
    problems: list[Problem] = []
    if not text.strip():
        return [Problem(0, f"{name} is empty. A scenario starts with title, seed, active, turn and players.")]
    shape = yaml_shape_problem(text)
    if shape is not None:
        return [Problem(*shape)]
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return [Problem(0, f"{name} holds only comments. A scenario needs title, seed, active, turn and players.")]
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        return [_yaml_problem(e, name)]
    marks = _Marks()
    _walk(node, (), marks, problems)
    problems += _Checker(data, marks).run()
    if not problems:
        problems += _confirm(data, marks)
    return sorted(problems, key=lambda p: p.line)


def _confirm(data, marks: _Marks) -> list[Problem]:
    """Build the game with the engine; anything it refuses becomes a Problem."""

    try:
        Game.from_scenario(data)
    except ScenarioError as e:
        return [_engine_problem(str(e), marks)]
    except Exception as e:  # a bug in the engine: still say something useful, never a traceback
        return [Problem(0, f"The game could not be set up from this file ({type(e).__name__}: "
                           f"{str(e)[:200]}). Please report this to the tokens_edu developers.")]
    return []


def check_scenario(path) -> list[Problem]:
    """Every problem of a scenario YAML file, each with its line number, in plain words.

    Reports them all at once (an unknown card, a wrong type of card in play, too many copies
    (R1), Flags at or over Trust (R15), a Tool listed as a System, unknown or repeated keys, YAML
    syntax...). When none is found, the game is built with :meth:`tokens_edu.Game.from_scenario`
    and anything the engine still refuses is reported.

    Args:
        path: the scenario file (str or Path), YAML in the format of :mod:`tokens_edu.game.scenario`.

    Returns:
        list of :class:`Problem`, sorted by line; empty when the scenario is good.

    Raises:
        OSError: the file cannot be read (the command line turns this into a plain message).
        InputTooLarge: the file is bigger than a scenario file can be (256 KB), or never ends.
    """
    path = Path(path)
    raw = read_limited(path, "scenario")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return [Problem(0, f"{path.name} is not a text file in UTF-8. Save it as plain text (UTF-8).")]
    return check_scenario_text(text, path.name)


def describe(path_or_data, moves: bool = False) -> list[str]:
    """A short summary of a good scenario, for the command's output: who plays, whose turn.

    Args:
        path_or_data: a scenario file path or dict that :func:`check_scenario` found good.
        moves: also list every move the player to act may make now (for "find the best move"
            puzzles: the answer should be one of them).

    Returns:
        list of str, one line each.

    Raises:
        ScenarioError: the scenario is not good (check it first).
    """

    game = Game.from_scenario(path_or_data)
    lines = []
    if game.title:
        lines.append(f"Title: {game.title}")
    who = game.names[game.to_act]
    lines.append(f"Turn {game.turn}: {who} to play. Tokens: {game.names[0]} {game.tokens[0]}, "
                 f"{game.names[1]} {game.tokens[1]}.")
    for p in (0, 1):
        t = game.tables(p)["players"].iloc[p]
        lines.append(f"  {game.names[p]}: {int(t['Hand'])} in hand, {int(t['Deck'])} in deck, "
                     f"{int(t['Data ready'])} Data ready, {int(t['Systems'])} System(s), "
                     f"{int(t['Tools'])} Tool(s).")
    legal = game.legal_actions()
    if moves:
        lines.append(f"{who} can make {len(legal)} move(s) now:")
        lines += [f"  {a}" for a in legal]
    else:
        lines.append(f"{who} can make {len(legal)} move(s) now (add --moves to list them).")
    return lines
