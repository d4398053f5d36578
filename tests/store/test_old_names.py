"""The old module paths keep their public names for one release (tokens_edu/_moved.py): the
journal's, the saved games' and the class list's, as commit d60bab8 exported them."""

from __future__ import annotations

import importlib
import sys

import pytest

OLD = {
    "tokens_edu.journal": ["Journal", "JournalUnavailable", "Saved", "Draft", "COLUMNS", "MAX_ANSWER",
                           "MAX_NAME", "SAVE_FAILED", "CANNOT_SAVE", "default_url", "data_folder",
                           "student_from_query", "query_string", "query_known", "write_csv",
                           "spreadsheet_safe", "metadata", "CODE_NEEDED", "CODE_LENGTH", "normalize_code",
                           "code_from_query", "roster_table", "answers_table", "drafts_table",
                           "too_long_message"],
    "tokens_edu.saved_games": ["GameStore", "SavedGame", "GameMoved", "GameKeeper", "SUMMARY_COLUMNS",
                               "snapshot", "ensure_table", "games_table"],
    "tokens_edu.roster": ["Roster", "RosterEntry", "CODE_ALPHABET", "CODE_LENGTH", "normalize_code",
                          "slips_html", "code_from_query", "personal_link", "check_base_url"],
}


@pytest.mark.parametrize("old", sorted(OLD))
def test_the_old_paths_keep_their_names_with_a_warning(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match="has moved to tokens_edu.store"):
        module = importlib.import_module(old)
    missing = [name for name in OLD[old] if not hasattr(module, name)]
    assert missing == []


def test_the_old_journal_is_the_new_one():
    from tokens_edu.store import Journal
    from tokens_edu.store.journal import Journal as Facade

    sys.modules.pop("tokens_edu.journal", None)
    with pytest.warns(DeprecationWarning):
        from tokens_edu.journal import Journal as Old
    assert Old is Journal is Facade
