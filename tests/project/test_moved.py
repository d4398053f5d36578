"""Old import paths keep working for one release (issue 18): each old module name gives its new
module, with a DeprecationWarning that names the new place; the public names keep their place."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

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
