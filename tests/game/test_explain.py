"""explain() tells the real reason (issue 7): Privacy Shield, bare verbs, numbered names,
typographic quotes and stray punctuation, and a Fast-Tracked System that lost its abilities."""

from __future__ import annotations

import re


import pytest  # noqa: E402

from tokens_edu import Deck, IllegalAction  # noqa: E402
from scenarios import illegal, is_legal, legal, player, start, sys_, tool  # noqa: E402


def quoted_actions(message: str) -> list[str]:
    """The action texts a message quotes ('task Chatbot')."""
    return re.findall(r"'((?:train|deploy|task|audit|use|choose|end|go|keep|mulligan)\b[^']*)'", message)


# -- R18 Privacy Shield ----------------------------------------------------------------------
def test_r18_an_action_with_every_target_shielded_names_privacy_shield():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1}),
                 p1=player(tools=[tool("Privacy Shield")], systems=[sys_("Explainability"), sys_("Chatbot")]))
    assert not any(a.startswith("deploy bias in data") for a in legal(game))
    err = illegal(game, "deploy Bias in Data")
    assert err.rule == "R18" and "Privacy Shield" in str(err)
    assert "there is none" not in str(err)
    assert "Privacy Shield" in game.explain("deploy Bias in Data -> Chatbot")


def test_r18_no_target_at_all_still_says_there_is_none():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1}))
    err = illegal(game, "deploy Bias in Data")
    assert err.rule == "R18" and "there is none" in str(err) and "Privacy Shield" not in str(err)


# -- bare verbs ---------------------------------------------------------------------------------
def test_a_bare_task_says_what_is_missing_and_lists_the_tasks_now():
    game = start(p0=player(systems=[sys_("Neural Network"), sys_("Sensor", exerted=True)]),
                 p1=player(systems=[sys_("Chatbot", exerted=True)]))
    msg = game.explain("task")
    assert "needs the name of one of your Systems" in msg
    listed = [a for a in quoted_actions(msg) if a != "task"]
    assert listed == ["task Neural Network"]  # Sensor is sideways (R12): not offered
    assert all(is_legal(game, a) for a in listed)


def test_a_bare_audit_with_no_audit_possible_does_not_contradict_itself():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Chatbot")]))  # upright: nothing to Audit (R14)
    msg = game.explain("audit")
    assert "can't Run an Audit right now" in msg
    listed = [a for a in quoted_actions(msg) if a != "audit"]
    assert listed and all(is_legal(game, a) for a in listed)
    assert not any(a.startswith("audit ") for a in listed)
    with pytest.raises(IllegalAction):
        game.apply("audit")


# -- numbered names -----------------------------------------------------------------------------
def test_r12_a_correctly_numbered_new_system_gets_the_real_reason():
    game = start(p0=player(hand=["Sensor"], training_set={"ready": 1}, systems=[sys_("Sensor")]))
    game.apply("deploy Sensor")
    assert is_legal(game, "task Sensor") and not is_legal(game, "task Sensor #2")
    err = illegal(game, "task Sensor #2")
    assert err.rule == "R12" and "new" in str(err) and "Did you mean" not in str(err)


def test_an_unnumbered_name_still_points_to_the_numbered_one():
    game = start(p0=player(systems=[sys_("Sensor"), sys_("Neural Network")]),
                 p1=player(systems=[sys_("Sensor", exerted=True)]))
    assert "Did you mean 'audit Sensor -> Sensor #2'" in game.explain("audit Sensor -> Sensor")


# -- typographic quotes, doubled spaces, stray punctuation -------------------------------------------
@pytest.mark.parametrize("text", [
    "deploy AI Isn\u2019t Magic -> Chatbot",      # a curly apostrophe, as tablets type it
    "deploy  AI Isn't  Magic  ->  Chatbot.",     # doubled spaces and a full stop
    "\u201cdeploy AI Isn\u2018t Magic \u2192 Chatbot\u201d",  # curly quotes around it, an arrow
])
def test_typed_card_names_are_read_plainly_in_actions(text):
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2}),
                 p1=player(systems=[sys_("Chatbot")]))
    game.apply(text)
    assert game.log[-2].text.startswith("Ada deploys AI Isn't Magic on Bo's Chatbot")


def test_typed_card_names_are_read_plainly_in_decks_and_scenarios():
    deck = Deck.from_names(["2x AI Isn\u2019t Magic", "Human\u2013in\u2013the\u2013Loop", "  Chatbot. "])
    assert deck.names() == ["AI Isn't Magic", "AI Isn't Magic", "Human-in-the-Loop", "Chatbot"]
    game = start(p0=player(hand=["AI Isn\u2019t Magic"], systems=[sys_("Neural  Network!")]))
    assert [c.name for c in game.observation(0).hand] == ["AI Isn't Magic"]
    assert "task neural network" in legal(game)
    assert "legal" in game.explain("task  neural network .")


# -- R12 Fast-Tracked lost to AI Isn't Magic -------------------------------------------------------
def test_r12_a_fast_tracked_system_without_its_abilities_is_told_why():
    game = start(p0=player(hand=["Agent", "AI Isn't Magic"], training_set={"ready": 5}))
    game.apply("deploy Agent")
    assert is_legal(game, "task Agent")  # Fast-Tracked (R12)
    game.apply("deploy AI Isn't Magic -> Agent")
    err = illegal(game, "task Agent")
    assert err.rule == "R12"
    assert "AI Isn't Magic" in str(err) and "Fast-Tracked" in str(err)
    assert "unless it is Fast-Tracked" not in str(err)
