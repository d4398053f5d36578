"""The errors a student or teacher can meet, each a ``ValueError`` with a plain-words message.

Every message is written for ages 11-14: it says what went wrong and, where it helps, which rule
(``R1``-``R25`` in the project's rulings) says so. Raising one of these never changes a game.
"""

from __future__ import annotations

__all__ = ["TokensError", "CardDataError", "DeckError", "IllegalAction", "ScenarioError", "RecordError",
           "UsageProblem"]


class TokensError(ValueError):
    """Base class of every error tokens_edu raises on purpose (a ``ValueError``)."""


class CardDataError(TokensError):
    """A card file is broken: a missing field, a wrong type, a duplicated name."""


class DeckError(TokensError):
    """A deck is not legal or cannot be read (R1). The message lists every problem at once.

    Attributes:
        problems: list of str, one plain sentence per problem.
    """

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


class IllegalAction(TokensError):
    """An action that cannot be taken now. The message names the rule that forbids it.

    Attributes:
        action: the text that was tried (str), or a short description of a non-text input.
        rule: the ruling that forbids it ("R14"), or None when the text is not an action at all.
    """

    def __init__(self, message: str, action: str = "", rule: str | None = None):
        super().__init__(message)
        self.action = action
        self.rule = rule


class ScenarioError(TokensError):
    """A scenario (a game set up at a chosen position) has a bad entry; the message names it."""


class RecordError(ScenarioError):
    """A game record (from ``Game.to_record``) cannot be read or replayed. A record is a
    starting position plus moves, so this is a kind of :class:`ScenarioError`."""


class UsageProblem(Exception):
    """A problem with how a command was started that its user can fix (a busy port, a missing
    folder, a bad option): the ``tokens-edu`` command prints the message and exits with code 2.
    Not a :class:`TokensError`: nothing about a game is wrong."""
