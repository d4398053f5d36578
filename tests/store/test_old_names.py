"""The old module paths keep their public names until tokens-edu 0.4.0 (tokens_edu/_moved.py): the
journal's, the saved games' and the class list's, as commit d60bab8 exported them, each with a
DeprecationWarning that names the release of removal."""

from __future__ import annotations

import importlib
import sys
import warnings

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
    with pytest.warns(DeprecationWarning, match=r"has moved to tokens_edu\.(store|session).*0\.4\.0"):
        module = importlib.import_module(old)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # each old name warns too (below)
        missing = [name for name in OLD[old] if not hasattr(module, name)]
    assert missing == []


def test_an_old_name_of_the_journal_module_says_where_it_lives_now():
    sys.modules.pop("tokens_edu.journal", None)
    with pytest.warns(DeprecationWarning):
        import tokens_edu.journal as old
    with pytest.warns(DeprecationWarning, match=r"journal\.MAX_ANSWER has moved to "
                                                r"tokens_edu\.store\.schema\.MAX_ANSWER.*0\.4\.0"):
        from tokens_edu.store.schema import MAX_ANSWER
        assert old.MAX_ANSWER == MAX_ANSWER


def test_the_old_journal_is_the_new_one():
    from tokens_edu.session.journal import Journal

    with pytest.warns(DeprecationWarning, match=r"tokens_edu\.store\.Journal has moved.*0\.4\.0"):
        from tokens_edu.store import Journal as FromTheStore
    sys.modules.pop("tokens_edu.store.journal", None)
    with pytest.warns(DeprecationWarning, match=r"tokens_edu\.store\.journal has moved.*0\.4\.0"):
        from tokens_edu.store.journal import Journal as Facade
    sys.modules.pop("tokens_edu.journal", None)
    with pytest.warns(DeprecationWarning):
        from tokens_edu.journal import Journal as Old
    assert Old is Journal is Facade is FromTheStore
    with pytest.warns(DeprecationWarning, match=r"Journal is replaced by tokens_edu\.session\.PageSession.*0\.4\.0"):
        Journal("sqlite:///:memory:")
