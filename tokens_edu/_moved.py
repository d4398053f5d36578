"""Old module and attribute names that moved, kept until tokens-edu 0.4.0 (:data:`REMOVAL`).

``import tokens_edu.bots`` still works and gives the module's new home (here
:mod:`tokens_edu.players`), with a :class:`DeprecationWarning` that names it and the release that
removes the old name. The old names are not files: a finder on ``sys.meta_path`` (installed by
``tokens_edu/__init__.py``) answers them, so the package's folders show only the new layout.
``tokens_edu.plots`` and ``tokens_edu.env`` are public names of their own (see the project's API
list) and give no warning.

An old *attribute* of a module that stays (``tokens_edu.store.Journal``, which moved to the
session layer; ``tokens_edu.present.table.card_face``, which moved to ``present.faces``) is
answered by the module's ``__getattr__``, made by :func:`moved_names`: it imports the new home
by name when the old name is first used (so a lower layer never imports a higher one at import
time) and warns the same way. Every such name is listed in :data:`OLD_NAMES` (a module may add
its own when it makes its ``__getattr__``); ``tests/project/test_moved.py`` walks them all. A
module never imports a moved name under its old name: then the name would be found without a
warning.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import warnings

__all__ = ["MOVED", "OLD_NAMES", "QUIET", "REMOVAL", "install", "moved_names", "warn_moved"]

#: The release that removes every old name kept here.
REMOVAL = "0.4.0"

#: Old module name -> its new home.
MOVED = {
    "tokens_edu.actions": "tokens_edu.game.actions",
    "tokens_edu.bots": "tokens_edu.players",
    "tokens_edu.bundle": "tokens_edu.content.bundle",
    "tokens_edu.cards": "tokens_edu.content.cards",
    "tokens_edu.dashboard": "tokens_edu.teacher.dashboard",
    "tokens_edu.decks": "tokens_edu.content.decks",
    "tokens_edu.env": "tokens_edu.lab.env",
    "tokens_edu.explain": "tokens_edu.game.explain",
    "tokens_edu.features": "tokens_edu.players.features",
    "tokens_edu.glossary": "tokens_edu.content.glossary",
    "tokens_edu.guide": "tokens_edu.content.guide",
    "tokens_edu.hub_auth": "tokens_edu.teacher.hub_auth",
    "tokens_edu.journal": "tokens_edu.session.journal",
    "tokens_edu.learning": "tokens_edu.players.learning",
    "tokens_edu.match": "tokens_edu.players.match",
    "tokens_edu.names": "tokens_edu.content.names",
    "tokens_edu.narrate": "tokens_edu.game.narrate",
    "tokens_edu.notation": "tokens_edu.game.notation",
    "tokens_edu.observe": "tokens_edu.game.observe",
    "tokens_edu.plots": "tokens_edu.lab.plots",
    "tokens_edu.render": "tokens_edu.present.render",
    "tokens_edu.replay": "tokens_edu.game.replay",
    "tokens_edu.roster": "tokens_edu.store.roster",
    "tokens_edu.roundrobin": "tokens_edu.lab.tournaments",
    "tokens_edu.saved_games": "tokens_edu.store.games",
    "tokens_edu.scenario": "tokens_edu.game.scenario",
    "tokens_edu.scenario_check": "tokens_edu.game.scenario_check",
    "tokens_edu.search": "tokens_edu.players.search",
    "tokens_edu.store.identity": "tokens_edu.session.page",
    "tokens_edu.store.journal": "tokens_edu.session.journal",
    "tokens_edu.simulation": "tokens_edu.lab.simulation",
    "tokens_edu.tables": "tokens_edu.game.tables",
    "tokens_edu.teacher_cli": "tokens_edu.cli",
    "tokens_edu.thinking": "tokens_edu.players.thinking",
    "tokens_edu.voila_server": "tokens_edu.server.voila",
}


def _names(new: str, names: str) -> dict[str, str]:
    return {name: new for name in names.split()}


#: Old attribute names of modules that stay: module -> {old name: ``"new.module"`` (the same
#: name there) or ``"new.module:attribute"``}. Each warns until tokens-edu :data:`REMOVAL`.
OLD_NAMES: dict[str, dict[str, str]] = {
    "tokens_edu.cli": _names("tokens_edu.server.launcher",
                             "DEFAULT_LESSONS DEFAULT_PORT Capacity plan_capacity voila_command"),
    "tokens_edu.lab.simulation": {**_names("tokens_edu.players.registry", "BOTS make_bot register_bot"),
                                  **_names("tokens_edu.lab.stats", "summary wilson_interval"),
                                  "resolve_deck": "tokens_edu.content.decks"},
    "tokens_edu.players.learning": _names("tokens_edu.players.imitation", "Example examples_from_game"),
    "tokens_edu.present.page": _names("tokens_edu.game.observe", "PUBLIC_KINDS"),
    "tokens_edu.present.table": _names("tokens_edu.present.faces",
                                       "HINTS LOG_LINES VERBS WIN_TOKENS board_state card_face move_label "
                                       "move_text_for_screen moves_state plain sides_state table_pictures"),
    "tokens_edu.server.launcher": _names("tokens_edu.server.storage", "StorageWatch storage_problem"),
    "tokens_edu.server.voila": _names("tokens_edu.server.state", "DEFAULTS"),
    "tokens_edu.store.answers": _names("tokens_edu.store.database", "CANNOT_SAVE READ_FAILED SAVE_FAILED"),
    "tokens_edu.teacher.auth": {"LOCKED": "tokens_edu.teacher.auth:WAIT"},
    "tokens_edu.teacher.dashboard": {**_names("tokens_edu.teacher.data", "ClassData"),
                                     "DashboardData": "tokens_edu.teacher.data:ClassData",
                                     **_names("tokens_edu.teacher.pages", "MAX_ROWS answers_csv safe_cell"),
                                     **_names("tokens_edu.teacher.lessons", "lesson_prompts"),
                                     **_names("tokens_edu.teacher.live", "POLL_SECONDS"),
                                     **_names("tokens_edu.teacher.auth", "Throttle TokenAuth")},
    "tokens_edu.teacher.data": {"DashboardData": "tokens_edu.teacher.data:ClassData"},
    "tokens_edu.widgets.game_view": {**_names("tokens_edu.widgets.controls", "Control MoveButton"),
                                     **_names("tokens_edu.widgets.panes.log", "LOG_TABLE_ROWS"),
                                     **_names("tokens_edu.present.faces", "WIN_TOKENS"),
                                     **_names("tokens_edu.widgets.new_game", "NewGamePanel PAGE_ONLY_NOTE"),
                                     "_make_bot": "tokens_edu.players.match:seat_bot"},
    "tokens_edu.widgets.table": {**_names("tokens_edu.present.faces",
                                          "HINTS LOG_LINES VERBS WIN_TOKENS card_face move_label "
                                          "move_text_for_screen plain table_pictures"),
                                 "table_state": "tokens_edu.present.table"},
    "tokens_edu.widgets.trust": _names("tokens_edu.widgets.bounds", "page_bounds"),
    "tokens_edu.widgets.who": _names("tokens_edu.session", "NO_NAME"),
}

#: Old names that are public names of their own (``tokens_edu.plots``, ``tokens_edu.env``):
#: no warning.
QUIET = {"tokens_edu.plots", "tokens_edu.env"}


def _caller_stacklevel() -> int:
    """The ``stacklevel`` that makes the warning point at the user's ``import`` line.

    Counted as :func:`warnings.warn` counts: it skips the import system's own frames
    (``importlib._bootstrap``), so only the others are counted here, up to the first frame
    that is not this file, :mod:`importlib` or the package's ``__init__`` (an attribute such as
    ``tokens_edu.bots`` is imported by its ``__getattr__``)."""
    ours = (__file__, importlib.__file__, __file__.replace("_moved.py", "__init__.py"))
    frame, level = sys._getframe(1), 0
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            level += 1
            if name not in ours:
                break
        frame = frame.f_back
    return level


class _Alias:
    """Loads an old name as its new module (the same module object, not a copy). A loader as
    the import system reads one (``create_module``, ``exec_module``): it does not subclass
    ``importlib.abc.Loader``, whose import loads ``importlib.resources`` and ``tempfile``
    (a start-up cost of every command, issue 31)."""

    def __init__(self, new: str):
        self.new = new

    def create_module(self, spec):
        return None  # a throwaway module; exec_module puts the real one in sys.modules

    def exec_module(self, module) -> None:
        old = module.__name__
        if old not in QUIET:
            warnings.warn(f"{old} has moved to {self.new}: import it from there. "
                          f"The old name will be removed in tokens-edu {REMOVAL}.",
                          DeprecationWarning, stacklevel=_caller_stacklevel())
        sys.modules[old] = importlib.import_module(self.new)


class _MovedFinder:
    """Answers the old module names of :data:`MOVED` (a meta path finder: ``find_spec``)."""

    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedFinder())


def old_attribute(name: str):
    """``tokens_edu.<name>`` for an old module name used as an attribute (``tokens_edu.plots``),
    imported on first use; None when ``name`` is not an old module name."""
    full = f"tokens_edu.{name}"
    if full not in MOVED:
        return None
    return importlib.import_module(full)


def warn_moved(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` (a dotted name or an argument) is replaced by ``new``, and that the old
    name goes in tokens-edu :data:`REMOVAL` (a :class:`DeprecationWarning`)."""
    warnings.warn(f"{old} has moved to {new}: use that instead. The old name will be removed in "
                  f"tokens-edu {REMOVAL}.", DeprecationWarning, stacklevel=stacklevel)


def moved_names(module: str, names: dict[str, str] | None = None):
    """A module ``__getattr__`` for old attribute names of ``module`` that moved.

    Args:
        module: the module's ``__name__``.
        names: old attribute name -> ``"new.module:attribute"`` (or ``"new.module"``: the same
            name there), added to :data:`OLD_NAMES`; None: the module's names there.

    Returns:
        a function for the module's ``__getattr__``: it imports the new home on first use,
        warns (:func:`warn_moved`) and gives the object; other names raise AttributeError.
    """
    table = OLD_NAMES.setdefault(module, {})
    table.update(names or {})

    def __getattr__(name: str):
        where = table.get(name)
        if where is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new_module, _, attribute = where.partition(":")
        warn_moved(f"{module}.{name}", f"{new_module}.{attribute or name}")
        return getattr(importlib.import_module(new_module), attribute or name)

    return __getattr__
