"""What the page is sent, frozen: recorded games played on a GameView send the page the same
table and panes, click for click, as before the presenter redesign (issue 18 part 4).

The fixture (tests/fixtures/page-frozen.json.gz) was made from the GameView before the redesign
(tests/fixtures/make_page_frozen.py); tests/support/page_record.py says what a snapshot holds.
Five recorded games (Greedy, Random, lesson scenarios with looks at the deck, R22), each from
both students' seats against the computer and in hot seat (the cover between turns).
"""

from __future__ import annotations

import json

import pytest
from page_record import load_fixture, play, recorded_games

FROZEN = load_fixture()
GAMES = recorded_games()


@pytest.mark.parametrize("run", FROZEN["runs"], ids=lambda r: f"game{r['game']}-{r['seating']}")
def test_the_page_is_sent_what_it_was_sent_before(run):
    from page_record import _digest

    record = GAMES[run["game"]]["record"]
    steps = run["steps"]
    n = 0
    for n, (label, snap) in enumerate(play(record, run["seating"], FROZEN["tables_every"])):
        assert n < len(steps), "more steps than recorded"
        want_label, want_table, want_panes = steps[n]
        assert label == want_label, f"step {n}: {label!r}, recorded {want_label!r}"
        assert _digest(snap["table"]) == want_table, (
            f"step {n} ({label}): the table's state changed:\n{json.dumps(snap['table'], indent=1)[:4000]}")
        assert _digest(snap["panes"]) == want_panes, (
            f"step {n} ({label}): the panes changed:\n{json.dumps(snap['panes'], indent=1)[:4000]}")
    assert n + 1 == len(steps), "fewer steps than recorded"


def test_the_runs_cover_what_matters():
    labels = [s[0] for r in FROZEN["runs"] for s in r["steps"]]
    assert sum(label == "reveal" for label in labels) > 50  # hot seat's cover, again and again
    assert any("mulligan" in label for label in labels)
    assert any(label.startswith("click: choose") for label in labels)
    assert any(label.startswith("computer: choose") for label in labels)
    assert any(label.startswith("computer: train") for label in labels)
    assert {r["seating"] for r in FROZEN["runs"]} == {"student0", "student1", "hotseat"}
