"""Old import paths keep working until tokens-edu 0.4.0 (issue 18, issue 26 part 5): each old
module name gives its new module, and each old attribute name of a module that stays its new
home's object, with a DeprecationWarning that names the new place and the release of removal;
no module re-exports a name silently; the public names keep their place."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tokens_edu import _moved


@pytest.mark.parametrize("old,new", sorted(_moved.MOVED.items()))
def test_an_old_module_name_is_its_new_module_with_a_warning(old, new):
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    said = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    if old in _moved.QUIET:
        assert said == []
    else:
        assert any(new in text and old in text for text in said), said


def test_the_warning_points_at_the_users_import_line(tmp_path):
    """Shown by Python's default filters when a script imports an old name (so a user sees it)."""
    script = tmp_path / "old.py"
    script.write_text("import tokens_edu.bots\nprint(tokens_edu.bots.GreedyBot.__module__)\n")
    done = subprocess.run([sys.executable, "-W", "default", str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "tokens_edu.players.bots"
    assert f"{script}:1: DeprecationWarning: tokens_edu.bots has moved to tokens_edu.players" in done.stderr


def test_the_public_names_of_the_api_list_import_from_their_places():
    """shared/API.md's names, at the places it gives."""
    import tokens_edu
    from tokens_edu import (Action, BoardCard, Card, CardDataError, CardPool, Deck, DeckError, Game,  # noqa: F401
                            IllegalAction, LogEvent, Observation, RecordError, ScenarioError, TokensError,
                            balance_matrix, first_player_advantage, load_cards, matchups, print_sheet,
                            render_card, simulate, starter_decks, tournament, train)
    from tokens_edu.players import GreedyBot, LearningBot, RandomBot, SearchBot  # noqa: F401
    from tokens_edu.widgets import CardGallery, DiscussBox, GameView, NewGamePanel, ReplayView  # noqa: F401

    assert tokens_edu.plots.win_rate and tokens_edu.env.env  # lazy, no warning (QUIET)
    with pytest.warns(DeprecationWarning):
        sys.modules.pop("tokens_edu.bots", None)
        from tokens_edu.bots import GreedyBot as OldGreedy
    assert OldGreedy is GreedyBot
    with pytest.warns(DeprecationWarning):
        sys.modules.pop("tokens_edu.journal", None)
        from tokens_edu.journal import Journal
    from tokens_edu.session.journal import Journal as NewJournal
    assert Journal is NewJournal


# --- every old name warns and names its release of removal (issue 26 part 5) ---------------------

def _every_module():
    """Import every module of the package (so each registers its old names), not the ones
    that run something when imported (``__main__``)."""
    import pkgutil

    import tokens_edu

    for info in pkgutil.walk_packages(tokens_edu.__path__, "tokens_edu."):
        if info.name.endswith("__main__") or ".migrations" in info.name:
            continue
        importlib.import_module(info.name)


_every_module()
OLD_ATTRIBUTES = sorted((module, name) for module, names in _moved.OLD_NAMES.items() for name in names)


def test_the_old_names_are_many_and_include_the_ones_issue_26_counted():
    assert len(OLD_ATTRIBUTES) > 60
    assert {("tokens_edu.present.table", "card_face"), ("tokens_edu.store", "Journal"),
            ("tokens_edu.players.learning", "Example"), ("tokens_edu.teacher.dashboard", "TokenAuth"),
            ("tokens_edu.session.page", "browser_hash")} <= set(OLD_ATTRIBUTES)


@pytest.mark.parametrize("module,name", OLD_ATTRIBUTES, ids=[f"{m}.{n}" for m, n in OLD_ATTRIBUTES])
def test_an_old_attribute_name_warns_and_gives_the_object_of_its_new_home(module, name):
    new_module, _, attribute = _moved.OLD_NAMES[module][name].partition(":")
    with pytest.warns(DeprecationWarning) as caught:
        value = getattr(importlib.import_module(module), name)
    said = " ".join(str(w.message) for w in caught)
    assert f"{module}.{name} has moved to {new_module}.{attribute or name}" in said
    assert "removed in tokens-edu 0.4.0" in said
    assert value is getattr(importlib.import_module(new_module), attribute or name)
    with pytest.warns(DeprecationWarning, match="0.4.0"):  # `from module import name` too
        exec(f"from {module} import {name}", {})


def test_every_old_module_name_names_its_release_of_removal():
    for old in sorted(set(_moved.MOVED) - _moved.QUIET):
        sys.modules.pop(old, None)
        with pytest.warns(DeprecationWarning, match=r"removed in tokens-edu 0\.4\.0"):
            importlib.import_module(old)


def test_old_method_and_argument_names_warn():
    from tokens_edu.store.games import ensure_table
    from tokens_edu.store.db import make_engine
    from tokens_edu.store.schema import games
    from tokens_edu.teacher.auth import Throttle
    from tokens_edu.teacher.checks import checks_html
    from tokens_edu.teacher.data import ClassData

    throttle = Throttle()
    with pytest.warns(DeprecationWarning, match=r"Throttle\.locked_for has moved to Throttle\.wait_for.*0\.4\.0"):
        assert throttle.locked_for("10.0.0.1") == throttle.wait_for("10.0.0.1") == 0.0
    data = ClassData("sqlite:///:memory:")
    with pytest.warns(DeprecationWarning, match=r"ClassData\.version\(\).*0\.4\.0"):
        assert data.version() == data.refresh()
    with pytest.warns(DeprecationWarning, match=r"when=.*0\.4\.0"):
        checks_html(data.response_table(), when="now")
    with pytest.warns(DeprecationWarning, match=r"removed in tokens-edu 0\.4\.0"):
        assert ensure_table(make_engine("sqlite:///:memory:"), games) is True


def _defined_names(tree: ast.Module) -> set[str]:
    """Names a module defines itself (functions, classes, assignments)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names.add(leaf.id)
    return names


#: Names a module lists in ``__all__`` although it imports them: not old names but the module's
#: own public face, each with its reason.
PUBLIC_FACES = {
    # the Game's module gives the names of what a game shows (tokens_edu.Game's API, _LAZY)
    "tokens_edu.game.game": {"BoardCard", "LogEvent", "Observation", "PlayerView", "WINNING_TOKENS"},
    # the observer names the engine's view of a player it reads
    "tokens_edu.game.observe": {"PlayerView"},
    # a deck file's errors belong with decks (tokens_edu.DeckError is the same class)
    "tokens_edu.content.decks": {"DeckError"},
    # train() returns a table with these columns
    "tokens_edu.lab.training": {"TRAIN_COLUMNS"},
    # the dashboard's words: the kit's one clock and one word for a game's state, shared on purpose
    "tokens_edu.teacher.words": {"GAME_STATES", "clock", "game_state"},
}


def test_no_module_re_exports_a_name_silently():
    """A module that is not a package lists in ``__all__`` only what it defines (or a name of
    :data:`PUBLIC_FACES`); an old name is answered by its ``__getattr__``, with a warning."""
    root = Path(_moved.__file__).resolve().parent
    problems = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "__init__.py" or "migrations" in path.parts:
            continue
        module = ".".join(("tokens_edu", *path.relative_to(root).with_suffix("").parts))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        listed = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                listed = set(ast.literal_eval(node.value))
        silent = listed - _defined_names(tree) - PUBLIC_FACES.get(module, set())
        if silent:
            problems.append(f"{module} re-exports {sorted(silent)}")
    assert problems == []
