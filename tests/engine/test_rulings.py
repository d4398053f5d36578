"""The rulings R1-R25 (RULES.md), one or more tests each, written from the rules alone.

Each test builds a small position (``scenarios.start``) or a new game from the starter decks,
applies action texts, and checks numbers: Tokens, Flags, zone sizes, who acts, what is legal.
"""

import re


import pytest  # noqa: E402

from tokens_edu import Deck, DeckError, Game, starter_decks  # noqa: E402
from scenarios import (  # noqa: E402
    board, can_act, flags, hand, illegal, is_legal, legal, on_board, play, player, players,
    sideways, snapshot, start, stat, sys_, tool,
)


# ---------------------------------------------------------------------------------------------
# R1 Deck
# ---------------------------------------------------------------------------------------------
def _deck(*pairs):
    """Build a deck from (name, copies) pairs."""
    return Deck.from_names([f"{n}x {name}" for name, n in pairs])


LEGAL_25 = [  # 13 green and blue names x 2 = 26, minus one = 25
    ("Not Alive", 2), ("Chatbot", 2), ("AI Career Path", 2), ("Python", 2), ("Built-in AI", 2),
    ("Manual Override", 2), ("Agent", 2), ("Abstraction", 2), ("Classifier", 2),
    ("Predictor", 2), ("Recommender", 2), ("Ambiguous Input", 2), ("Decision Tree", 1),
]


def test_r1_a_25_card_two_color_deck_is_legal():
    deck = _deck(*LEGAL_25)
    assert len(deck) == 25
    assert deck.validate() is deck
    assert deck.colors == ["green", "blue"]


def test_r1_24_cards_is_too_few():
    deck = _deck(*LEGAL_25[:-1])
    assert len(deck) == 24
    with pytest.raises(DeckError):
        deck.validate()


def test_r1_three_copies_is_too_many():
    deck = _deck(*LEGAL_25[:-1], ("Decision Tree", 3))
    assert len(deck) == 27
    with pytest.raises(DeckError):
        deck.validate()


def test_r1_three_colors_is_too_many():
    deck = _deck(*LEGAL_25, ("Sensor", 1))  # black is a third color
    assert len(deck.colors) == 3
    with pytest.raises(DeckError):
        deck.validate()


def test_r1_any_color_cards_fit_every_deck_and_are_no_color():
    deck = _deck(*LEGAL_25, ("AI Isn't Magic", 2), ("Alignment", 2))
    assert len(deck) == 29
    assert deck.colors == ["green", "blue"]
    deck.validate()


def test_r1_game_new_refuses_an_illegal_deck():
    small = _deck(*LEGAL_25[:-1])
    with pytest.raises(DeckError):
        Game.new(small, starter_decks()[1], seed=1)


# ---------------------------------------------------------------------------------------------
# R2, R3, R4, R6 with real starter decks
# ---------------------------------------------------------------------------------------------
def _new(seed):
    decks = starter_decks()
    return Game.new(decks[0], decks[1], seed=seed), len(decks[0]), len(decks[1])


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_r2_die_roll_winner_decides_go_first_or_second(seed):
    game, _, _ = _new(seed)
    assert game.to_act in (0, 1)
    assert legal(game) == {"go first", "go second"}
    assert not game.over


def test_r2_the_seed_decides_the_roll_and_both_players_can_win_it():
    winners = [_new(s)[0].to_act for s in range(30)]
    assert set(winners) == {0, 1}
    assert [_new(s)[0].to_act for s in range(30)] == winners  # same seed, same roll


@pytest.mark.parametrize("seed", [0, 3])
def test_r2_go_first_makes_the_roll_winner_the_first_player(seed):
    game, _, _ = _new(seed)
    w = game.to_act
    play(game, "go first", "keep", "keep")
    assert game.active == w
    assert game.turn == 1


@pytest.mark.parametrize("seed", [0, 3])
def test_r2_go_second_makes_the_other_player_first(seed):
    game, _, _ = _new(seed)
    w = game.to_act
    play(game, "go second")
    assert game.to_act == 1 - w  # the first player decides keep/mulligan first
    play(game, "keep", "keep")
    assert game.active == 1 - w
    assert game.turn == 1


@pytest.mark.parametrize("seed", [0, 5])
def test_r3_first_player_draws_5_second_draws_6_first_decides_first(seed):
    game, n0, n1 = _new(seed)
    first = game.to_act
    second = 1 - first
    sizes = {0: n0, 1: n1}
    game.apply("go first")
    assert game.to_act == first
    assert legal(game) == {"keep", "mulligan"}
    assert stat(game, first, "Hand") == 5
    assert stat(game, second, "Hand") == 6
    assert stat(game, first, "Deck") == sizes[first] - 5
    assert stat(game, second, "Deck") == sizes[second] - 6
    game.apply("keep")
    assert game.to_act == second
    assert legal(game) == {"keep", "mulligan"}


def test_r3_the_same_seed_deals_the_same_hands():
    a, _, _ = _new(11)
    b, _, _ = _new(11)
    play(a, "go first", "keep", "keep")
    play(b, "go first", "keep", "keep")
    assert hand(a, 0) == hand(b, 0)
    assert hand(a, 1) == hand(b, 1)
    assert len(hand(a, 0)) + len(hand(a, 1)) == 11


@pytest.mark.parametrize("seed", [0, 5])
def test_r3_mulligan_draws_a_new_hand_of_the_same_size(seed):
    game, n0, n1 = _new(seed)
    first = game.to_act
    second = 1 - first
    sizes = {0: n0, 1: n1}
    play(game, "go first", "mulligan")
    assert stat(game, first, "Hand") == 5
    assert stat(game, first, "Deck") == sizes[first] - 5
    assert game.to_act == second
    game.apply("mulligan")
    assert stat(game, second, "Hand") == 6
    assert stat(game, second, "Deck") == sizes[second] - 6
    assert game.to_act == first  # turn 1 begins
    assert game.active == first


def test_r3_each_player_decides_only_once():
    game, _, _ = _new(4)
    first = game.to_act
    play(game, "go first", "mulligan", "mulligan")
    assert game.pending is None
    assert "mulligan" not in legal(game)
    assert "keep" not in legal(game)
    illegal(game, "mulligan")
    assert game.active == first


@pytest.mark.parametrize("seed", [0, 9])
def test_r4_both_start_at_zero_with_empty_zones(seed):
    game, _, _ = _new(seed)
    play(game, "go first", "keep", "keep")
    assert tuple(game.tokens) == (0, 0)
    for p in (0, 1):
        assert stat(game, p, "Tokens") == 0
        assert stat(game, p, "Training Set") == 0
        assert stat(game, p, "Data ready") == 0
        assert stat(game, p, "Systems") == 0
        assert stat(game, p, "Tools") == 0
        assert stat(game, p, "Discard") == 0
    assert len(board(game)) == 0


@pytest.mark.parametrize("seed", [0, 9])
def test_r6_first_player_skips_the_draw_on_turn_1_second_player_draws_on_turn_2(seed):
    game, n0, n1 = _new(seed)
    first = game.to_act
    second = 1 - first
    sizes = {0: n0, 1: n1}
    play(game, "go first", "keep", "keep")
    assert game.turn == 1 and game.active == first and game.to_act == first
    assert game.pending is None
    assert stat(game, first, "Hand") == 5  # no draw on the game's very first turn
    assert stat(game, first, "Deck") == sizes[first] - 5
    game.apply("end turn")
    assert game.turn == 2 and game.active == second
    assert stat(game, second, "Hand") == 7
    assert stat(game, second, "Deck") == sizes[second] - 7
    game.apply("end turn")
    assert game.turn == 3 and game.active == first
    assert stat(game, first, "Hand") == 6  # turn 3: the first player draws now


def test_r6_active_player_draws_one_card_at_the_start_of_their_turn():
    game = start(p1=player(hand=["Chatbot"], deck=["Neuron", "Sensor", "Neural Network"]))
    game.apply("end turn")
    assert game.active == 1 and game.turn == 4
    assert stat(game, 1, "Hand") == 2
    assert stat(game, 1, "Deck") == 2
    assert sorted(hand(game, 1)) == ["Chatbot", "Neuron"]  # the top card


# ---------------------------------------------------------------------------------------------
# R5 Reboot
# ---------------------------------------------------------------------------------------------
def test_r5_reboot_readies_the_active_players_systems_tools_and_training_set():
    game = start(
        p0=player(systems=[sys_("Chatbot", exerted=True)], training_set={"exerted": 2}),
        p1=player(deck=["Sensor", "Neuron"], training_set={"ready": 1, "exerted": 2},
                  systems=[sys_("Neural Network", exerted=True), sys_("Neuron", exerted=True)],
                  tools=[tool("Tensor", exerted=True)]),
    )
    assert stat(game, 1, "Data ready") == 1
    game.apply("end turn")
    assert game.active == 1
    assert not sideways(game, "Neural Network", 1)
    assert not sideways(game, "Neuron", 1)
    assert not sideways(game, "Tensor", 1)
    assert stat(game, 1, "Data ready") == 3
    assert stat(game, 1, "Training Set") == 3
    # the other player's cards stay sideways until their own Reboot
    assert sideways(game, "Chatbot", 0)
    assert stat(game, 0, "Data ready") == 0


# ---------------------------------------------------------------------------------------------
# R7 Main phase
# ---------------------------------------------------------------------------------------------
def test_r7_main_phase_any_order_then_the_active_player_ends_the_turn():
    game = start(
        p0=player(hand=["Chatbot", "Neuron", "Sensor"], training_set={"ready": 1},
                  systems=[sys_("Neural Network"), sys_("Supervised Learning")]),
        p1=player(deck=["Chatbot"]),
    )
    play(game, "task Neural Network", "train Neuron", "deploy Chatbot", "task Supervised Learning")
    assert tuple(game.tokens) == (4, 0)
    assert stat(game, 0, "Systems") == 3
    assert stat(game, 0, "Training Set") == 2
    assert game.active == 0 and game.turn == 3
    assert is_legal(game, "end turn")
    game.apply("end turn")
    assert game.active == 1 and game.turn == 4 and game.to_act == 1


def test_r7_train_only_once_per_turn():
    game = start(p0=player(hand=["Chatbot", "Neuron"]))
    game.apply("train Chatbot")
    assert not is_legal(game, "train Neuron")
    err = illegal(game, "train Neuron")
    assert err.rule == "R7"  # "Train (once per turn)" is R7; R8 only says what Train does
    assert stat(game, 0, "Training Set") == 1


def test_r7_trained_this_turn_from_the_scenario_counts():
    game = start(p0=player(hand=["Chatbot"], trained_this_turn=True))
    assert not is_legal(game, "train Chatbot")
    illegal(game, "train Chatbot")


def test_r7_there_is_no_hand_limit():
    many = ["Chatbot", "Chatbot", "Neuron", "Neuron", "Sensor", "Sensor", "Not Alive", "Not Alive",
            "Neural Network", "Neural Network", "Embedding", "Embedding"]
    game = start(p0=player(hand=many), p1=player(deck=["Chatbot"]))
    game.apply("end turn")
    assert stat(game, 0, "Hand") == 12
    assert stat(game, 0, "Discard") == 0


# ---------------------------------------------------------------------------------------------
# R8 Train
# ---------------------------------------------------------------------------------------------
def test_r8_train_puts_a_trainable_card_into_the_training_set_ready():
    game = start(p0=player(hand=["Neural Network", "Chatbot"]))
    game.apply("train Neural Network")
    assert stat(game, 0, "Hand") == 1
    assert stat(game, 0, "Training Set") == 1
    assert stat(game, 0, "Data ready") == 1
    assert hand(game, 0) == ["Chatbot"]


def test_r8_a_card_without_the_diamond_cannot_be_trained():
    game = start(p0=player(hand=["Search Tree", "Chatbot"]))
    assert not is_legal(game, "train Search Tree")
    assert is_legal(game, "train Chatbot")
    err = illegal(game, "train Search Tree")
    assert err.rule == "R8"


def test_r8_cards_put_there_by_effects_enter_exerted_and_are_not_the_train():
    game = start(p0=player(hand=["Training Data", "Chatbot"], training_set={"ready": 2},
                           deck=["Neuron", "Sensor", "Embedding"]))
    game.apply("deploy Training Data")
    assert stat(game, 0, "Training Set") == 4
    assert stat(game, 0, "Data ready") == 0  # 2 paid, 2 new ones exerted
    assert stat(game, 0, "Deck") == 1
    assert is_legal(game, "train Chatbot")  # the turn's Train is still there
    game.apply("train Chatbot")
    assert stat(game, 0, "Training Set") == 5
    assert stat(game, 0, "Data ready") == 1


# ---------------------------------------------------------------------------------------------
# R9 Data
# ---------------------------------------------------------------------------------------------
def test_r9_deploying_exerts_one_ready_training_set_card_per_data():
    game = start(p0=player(hand=["Neural Network"], training_set={"ready": 3}))
    game.apply("deploy Neural Network")
    assert stat(game, 0, "Data ready") == 1
    assert stat(game, 0, "Training Set") == 3
    assert stat(game, 0, "Systems") == 1
    assert stat(game, 0, "Hand") == 0


def test_r9_a_cost_is_paid_in_full_or_not_at_all():
    game = start(p0=player(hand=["Neural Network"], training_set={"ready": 1, "exerted": 2}))
    assert not is_legal(game, "deploy Neural Network")
    err = illegal(game, "deploy Neural Network")
    assert err.rule == "R9"
    assert stat(game, 0, "Data ready") == 1
    assert stat(game, 0, "Systems") == 0


# ---------------------------------------------------------------------------------------------
# R10 Deploy tax
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("in_play, price", [(0, 2), (1, 2), (2, 3), (3, 4)])
def test_r10_a_system_costs_its_cost_plus_one_per_system_beyond_the_first(in_play, price):
    mine = ["Chatbot", "Neuron", "Sensor"][:in_play]
    game = start(p0=player(hand=["Embedding"], training_set={"ready": price},
                           systems=[sys_(n) for n in mine]))
    game.apply("deploy Embedding")
    assert stat(game, 0, "Data ready") == 0
    assert stat(game, 0, "Systems") == in_play + 1


def test_r10_too_expensive_with_the_tax_is_illegal():
    game = start(p0=player(hand=["Embedding"], training_set={"ready": 3},
                           systems=[sys_("Chatbot"), sys_("Neuron"), sys_("Sensor")]))
    assert not is_legal(game, "deploy Embedding")  # 2 + (3 - 1) = 4 Data
    err = illegal(game, "deploy Embedding")
    assert err.rule == "R10"


def test_r10_tools_and_actions_pay_no_tax():
    game = start(
        p0=player(hand=["Python", "AI Career Path"], training_set={"ready": 2}, deck=["Neuron"],
                  systems=[sys_("Chatbot"), sys_("Not Alive"), sys_("Agent")]),
    )
    play(game, "deploy Python", "deploy AI Career Path")
    assert stat(game, 0, "Data ready") == 0
    assert stat(game, 0, "Tools") == 1


def test_r10_the_price_drops_back_when_a_system_is_deprecated():
    game = start(
        p0=player(hand=["Embedding"], training_set={"ready": 2},
                  systems=[sys_("Neural Network"), sys_("Sensor")]),
        p1=player(systems=[sys_("Predictor", exerted=True)]),
    )
    assert not is_legal(game, "deploy Embedding")  # 2 + 1
    game.apply("audit Neural Network -> Predictor")  # 4 vs 3: both Deprecated
    assert stat(game, 0, "Systems") == 1
    assert is_legal(game, "deploy Embedding")
    game.apply("deploy Embedding")
    assert stat(game, 0, "Data ready") == 0


# ---------------------------------------------------------------------------------------------
# R11 Big Data
# ---------------------------------------------------------------------------------------------
def test_r11_big_data_pays_by_exerting_a_big_enough_system_and_is_not_a_task():
    game = start(p0=player(hand=["Training Data"], deck=["Neuron", "Sensor", "Chatbot"],
                           systems=[sys_("Supervised Learning")]))
    game.apply("deploy Training Data with Big Data Supervised Learning")
    assert sideways(game, "Supervised Learning", 0)
    assert stat(game, 0, "Training Set") == 2
    assert stat(game, 0, "Data ready") == 0
    assert stat(game, 0, "Deck") == 1
    assert stat(game, 0, "Discard") == 1  # the Action
    assert tuple(game.tokens) == (0, 0)  # paying is not a Task


@pytest.mark.parametrize("system", [
    sys_("Neuron"),  # printed Cost 1 < 2
    sys_("Neural Network", new=True),  # deployed this turn: could not act
    sys_("Neural Network", exerted=True),  # not ready
])
def test_r11_big_data_needs_a_ready_system_of_cost_n_that_could_act(system):
    game = start(p0=player(hand=["Training Data"], deck=["Neuron", "Sensor"], systems=[system]))
    text = f"deploy Training Data with Big Data {system['card']}"
    assert not is_legal(game, text)
    err = illegal(game, text)
    assert err.rule == "R11"


def test_r11_a_fast_tracked_system_deployed_this_turn_can_pay_big_data():
    game = start(p0=player(hand=["Agent", "Training Data"], training_set={"ready": 3},
                           deck=["Neuron", "Sensor"]))
    game.apply("deploy Agent")  # Cost 3, Fast-Tracked: it could act now
    game.apply("deploy Training Data with Big Data Agent")
    assert sideways(game, "Agent", 0)
    assert stat(game, 0, "Training Set") == 5
    assert stat(game, 0, "Data ready") == 0


def test_r11_big_data_cannot_use_an_opponents_system():
    game = start(p0=player(hand=["Training Data"], deck=["Neuron", "Sensor"]),
                 p1=player(systems=[sys_("Supervised Learning")]))
    assert not is_legal(game, "deploy Training Data with Big Data Supervised Learning")
    illegal(game, "deploy Training Data with Big Data Supervised Learning")


# ---------------------------------------------------------------------------------------------
# R12 Who can act
# ---------------------------------------------------------------------------------------------
def test_r12_a_system_deployed_this_turn_cannot_act_until_its_next_turn():
    game = start(
        p0=player(hand=["Neural Network"], training_set={"ready": 2}, deck=["Chatbot"]),
        p1=player(deck=["Sensor"], systems=[sys_("Chatbot", exerted=True)]),
    )
    game.apply("deploy Neural Network")
    assert not can_act(game, "Neural Network", 0)
    assert not is_legal(game, "task Neural Network")
    assert not is_legal(game, "audit Neural Network -> Chatbot")
    err = illegal(game, "task Neural Network")
    assert err.rule == "R12"
    err = illegal(game, "audit Neural Network -> Chatbot")
    assert err.rule == "R12"
    play(game, "end turn", "end turn")
    assert game.active == 0
    assert can_act(game, "Neural Network", 0)
    game.apply("task Neural Network")
    assert game.tokens[0] == 2


def test_r12_new_flag_in_a_scenario_means_deployed_this_turn():
    game = start(p0=player(systems=[sys_("Neural Network", new=True), sys_("Chatbot")]))
    assert not can_act(game, "Neural Network", 0)
    assert can_act(game, "Chatbot", 0)
    assert legal(game) >= {"task chatbot"}
    assert "task neural network" not in legal(game)


def test_r12_an_exerted_system_cannot_act():
    game = start(p0=player(systems=[sys_("Neural Network", exerted=True)]),
                 p1=player(systems=[sys_("Chatbot", exerted=True)]))
    assert not can_act(game, "Neural Network", 0)
    illegal(game, "task Neural Network")
    illegal(game, "audit Neural Network -> Chatbot")
    assert legal(game) == {"end turn"}


def test_r12_fast_tracked_acts_the_turn_it_is_deployed():
    game = start(p0=player(hand=["Agent"], training_set={"ready": 3}))
    game.apply("deploy Agent")
    assert can_act(game, "Agent", 0)
    game.apply("task Agent")
    assert game.tokens[0] == 2


# ---------------------------------------------------------------------------------------------
# R13 Task
# ---------------------------------------------------------------------------------------------
def test_r13_a_task_exerts_the_system_and_gains_its_tokens():
    game = start(p0=player(tokens=3, systems=[sys_("Neural Network"), sys_("Chatbot")]))
    game.apply("task Neural Network")
    assert tuple(game.tokens) == (5, 0)
    assert stat(game, 0, "Tokens") == 5
    assert sideways(game, "Neural Network", 0)
    assert not sideways(game, "Chatbot", 0)
    assert not is_legal(game, "task Neural Network")  # once: it is sideways now
    game.apply("task Chatbot")
    assert tuple(game.tokens) == (6, 0)


# ---------------------------------------------------------------------------------------------
# R14 Audit
# ---------------------------------------------------------------------------------------------
def test_r14_seed_example_neural_network_audits_explainability():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Explainability", exerted=True)]))
    game.apply("audit Neural Network -> Explainability")
    assert on_board(game, "Explainability").empty  # took 4 Flags, Trust 3: Deprecated
    assert stat(game, 1, "Discard") == 1  # to its owner's discard
    assert stat(game, 1, "Systems") == 0
    assert stat(game, 0, "Discard") == 0
    assert flags(game, "Neural Network", 0) == 1
    assert sideways(game, "Neural Network", 0)
    assert tuple(game.tokens) == (0, 0)


def test_r14_both_systems_deal_flags_equal_to_their_capability():
    game = start(p0=player(systems=[sys_("Accountability")]),  # CAP 2 TRU 4
                 p1=player(systems=[sys_("Alignment", exerted=True)]))  # CAP 2 TRU 5
    game.apply("audit Accountability -> Alignment")
    assert flags(game, "Accountability", 0) == 2
    assert flags(game, "Alignment", 1) == 2


def test_r14_an_upright_system_cannot_be_audited():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("Explainability")]))
    assert not is_legal(game, "audit Neural Network -> Explainability")
    err = illegal(game, "audit Neural Network -> Explainability")
    assert err.rule == "R14"
    assert flags(game, "Explainability", 1) == 0


def test_r14_highly_trusted_blocks_lower_trust():
    game = start(p0=player(systems=[sys_("Neural Network")]),  # TRU 2
                 p1=player(systems=[sys_("Safety Lab", exerted=True)]))  # TRU 4, Highly Trusted
    assert not is_legal(game, "audit Neural Network -> Safety Lab")
    err = illegal(game, "audit Neural Network -> Safety Lab")
    assert err.rule == "R14"
    assert flags(game, "Safety Lab", 1) == 0
    assert not sideways(game, "Neural Network", 0)


def test_r14_highly_trusted_allows_equal_trust():
    game = start(p0=player(systems=[sys_("Accountability")]),  # TRU 4
                 p1=player(systems=[sys_("Safety Lab", exerted=True)]))  # TRU 4
    game.apply("audit Accountability -> Safety Lab")
    assert flags(game, "Safety Lab", 1) == 2
    assert flags(game, "Accountability", 0) == 2


def test_r14_cannot_audit_your_own_system():
    game = start(p0=player(systems=[sys_("Neural Network"), sys_("Chatbot", exerted=True)]))
    assert not is_legal(game, "audit Neural Network -> Chatbot")
    illegal(game, "audit Neural Network -> Chatbot")


def test_r14_adversarial_audited_deals_one_more():
    game = start(p0=player(systems=[sys_("Accountability")]),  # CAP 2 TRU 4
                 p1=player(systems=[sys_("Red Teaming", exerted=True)]))  # CAP 2 TRU 4, Adversarial
    game.apply("audit Accountability -> Red Teaming")
    assert flags(game, "Accountability", 0) == 3
    assert flags(game, "Red Teaming", 1) == 2


def test_r14_abilities_lost_to_ai_isnt_magic_count_as_absent():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2},
                           systems=[sys_("Supervised Learning")]),  # TRU 3
                 p1=player(systems=[sys_("Safety Lab", exerted=True)]))  # TRU 4, Highly Trusted
    assert not is_legal(game, "audit Supervised Learning -> Safety Lab")
    game.apply("deploy AI Isn't Magic -> Safety Lab")
    game.apply("audit Supervised Learning -> Safety Lab")
    assert flags(game, "Safety Lab", 1) == 3
    assert flags(game, "Supervised Learning", 0) == 2


# ---------------------------------------------------------------------------------------------
# R15 Deprecation
# ---------------------------------------------------------------------------------------------
def test_r15_flags_stay_and_add_up_to_trust():
    game = start(p0=player(systems=[sys_("Chatbot")], deck=["Neuron"]),
                 p1=player(deck=["Sensor"], systems=[sys_("Explainability", flags=1, exerted=True)]))
    game.apply("audit Chatbot -> Explainability")
    assert flags(game, "Explainability", 1) == 2  # 1 + 1, Trust 3
    assert flags(game, "Chatbot", 0) == 1
    play(game, "end turn", "end turn")
    assert flags(game, "Explainability", 1) == 2  # Flags stay from turn to turn
    assert flags(game, "Chatbot", 0) == 1


def test_r15_both_sides_of_an_audit_can_be_deprecated_together():
    game = start(p0=player(systems=[sys_("Neural Network")]),  # CAP 4 TRU 2
                 p1=player(systems=[sys_("Predictor", exerted=True)]))  # CAP 3 TRU 1
    game.apply("audit Neural Network -> Predictor")
    assert len(board(game)) == 0
    assert stat(game, 0, "Discard") == 1
    assert stat(game, 1, "Discard") == 1


def test_r15_triggers_after_a_double_deprecation_happen_active_player_first():
    game = start(p0=player(tokens=5, systems=[sys_("Reinforcement Learning")]),
                 p1=player(tokens=7, systems=[sys_("Reinforcement Learning", exerted=True)]))
    game.apply("audit Reinforcement Learning -> Reinforcement Learning #2")  # 3 vs 3, Trust 2
    assert len(board(game)) == 0
    assert tuple(game.tokens) == (6, 8)
    assert not game.over


def test_r15_scenario_refuses_flags_at_trust():
    from tokens_edu import ScenarioError
    from scenarios import scenario
    with pytest.raises(ScenarioError):
        Game.from_scenario(scenario(p0=player(systems=[sys_("Chatbot", flags=2)])))


# ---------------------------------------------------------------------------------------------
# R16 Model Card
# ---------------------------------------------------------------------------------------------
def _model_card_game(**p1_extra):
    return start(
        p0=player(systems=[sys_("Neural Network"), sys_("Supervised Learning")]),
        p1=player(tools=[tool("Model Card")], systems=[sys_("Explainability", exerted=True)],
                  **p1_extra),
    )


def test_r16_model_card_asks_its_controller_on_the_opponents_turn():
    game = _model_card_game()
    game.apply("audit Neural Network -> Explainability")
    assert game.active == 0
    assert game.to_act == 1
    assert game.pending is not None
    assert legal(game) == {"choose yes", "choose no"}


def test_r16_model_card_yes_removes_all_flags_and_it_stays_as_it_was():
    game = _model_card_game()
    play(game, "audit Neural Network -> Explainability", "choose yes")
    assert flags(game, "Explainability", 1) == 0
    assert sideways(game, "Explainability", 1)  # exerted, as it was
    assert stat(game, 1, "Discard") == 0
    assert game.to_act == 0 and game.pending is None
    assert flags(game, "Neural Network", 0) == 1


def test_r16_model_card_no_lets_it_be_deprecated():
    game = _model_card_game()
    play(game, "audit Neural Network -> Explainability", "choose no")
    assert on_board(game, "Explainability").empty
    assert stat(game, 1, "Discard") == 1
    assert game.to_act == 0


def test_r16_model_card_works_once_per_game():
    game = _model_card_game()
    play(game, "audit Neural Network -> Explainability", "choose yes")
    game.apply("audit Supervised Learning -> Explainability")  # 3 Flags, Trust 3
    assert game.to_act == 0  # no second question
    assert game.pending is None
    assert on_board(game, "Explainability").empty
    assert stat(game, 1, "Discard") == 1


def test_r16_when_both_sides_would_be_deprecated_the_active_player_decides_first():
    game = start(p0=player(tools=[tool("Model Card")], systems=[sys_("Neural Network")]),
                 p1=player(tools=[tool("Model Card")],
                           systems=[sys_("Neural Network", exerted=True)]))
    game.apply("audit Neural Network -> Neural Network #2")  # 4 Flags each, Trust 2
    assert game.to_act == 0
    assert legal(game) == {"choose yes", "choose no"}
    game.apply("choose yes")
    assert game.to_act == 1
    assert legal(game) == {"choose yes", "choose no"}
    game.apply("choose no")
    assert game.to_act == 0 and game.pending is None
    assert flags(game, "Neural Network", 0) == 0
    assert on_board(game, "Neural Network", 1).empty
    assert stat(game, 1, "Discard") == 1


# ---------------------------------------------------------------------------------------------
# R17 Tools
# ---------------------------------------------------------------------------------------------
def test_r17_a_tool_can_be_used_the_turn_it_is_deployed_once():
    game = start(p0=player(hand=["Python"], training_set={"ready": 1},
                           deck=["Chatbot", "Neuron", "Sensor"]),
                 p1=player(deck=["Sensor"]))
    play(game, "deploy Python", "use Python")
    assert hand(game, 0) == ["Chatbot"]
    assert sideways(game, "Python", 0)
    assert not is_legal(game, "use Python")
    err = illegal(game, "use Python")
    assert err.rule == "R17"
    play(game, "end turn", "end turn")  # Reboot readies it
    assert not sideways(game, "Python", 0)
    game.apply("use Python")
    assert stat(game, 0, "Hand") == 3  # Chatbot, Neuron (draw), Sensor (Python)


def test_r17_a_sideways_tool_cannot_be_used():
    game = start(p0=player(tools=[tool("Python", exerted=True)], deck=["Chatbot"]))
    assert not is_legal(game, "use Python")
    assert illegal(game, "use Python").rule == "R17"
    assert stat(game, 0, "Hand") == 0


TARGETED_TOOLS = ["GPU", "RAM", "Fairness Check", "CUDA", "Human-in-the-Loop"]


@pytest.mark.parametrize("name", TARGETED_TOOLS)
def test_r17_a_tool_is_deployed_without_a_target_even_when_nothing_could_be_targeted(name):
    # R9, R17: deploying a Tool only pays its cost; its {E} use chooses the target later.
    game = start(p0=player(hand=[name], training_set={"ready": 3}))
    assert f"deploy {name.casefold()}" in legal(game)
    game.apply(f"deploy {name}")
    assert on_board(game, name, 0).shape[0] == 1
    assert re.search(rf"deploys {name} for \d Data", game.log[-1].text)
    assert " on " not in game.log[-1].text
    assert not any(a.startswith("use ") for a in legal(game)), "nothing to aim at yet"


@pytest.mark.parametrize("name", TARGETED_TOOLS)
def test_r17_a_tool_is_never_deployed_at_a_target(name):
    game = start(p0=player(hand=[name], training_set={"ready": 3}, systems=[sys_("Sensor", new=True)],
                           discard=["Bias in Data"]),
                 p1=player(systems=[sys_("Neural Network", flags=1, exerted=True)]))
    assert [a for a in legal(game) if a.startswith(f"deploy {name.casefold()}")] == [f"deploy {name.casefold()}"]
    err = illegal(game, f"deploy {name} -> Sensor")
    assert err.rule == "R17" and f"'deploy {name}'" in str(err)
    game.apply(f"deploy {name}")
    assert any(a.startswith(f"use {name.casefold()} -> ") for a in legal(game)), "its use picks the target"


# ---------------------------------------------------------------------------------------------
# R18 Actions
# ---------------------------------------------------------------------------------------------
def test_r18_an_action_resolves_then_goes_to_the_discard():
    game = start(p0=player(hand=["AI Career Path"], training_set={"ready": 1},
                           deck=["Chatbot", "Neuron"]))
    game.apply("deploy AI Career Path")
    assert hand(game, 0) == ["Chatbot"]
    assert stat(game, 0, "Discard") == 1
    assert stat(game, 0, "Deck") == 1


def test_r18_an_action_that_needs_a_target_needs_a_legal_one():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1},
                           systems=[sys_("Chatbot")]))
    assert not any(a.startswith("deploy bias in data") for a in legal(game))
    err = illegal(game, "deploy Bias in Data -> Chatbot")  # your own System: not a target
    assert err.rule == "R18"
    illegal(game, "deploy Bias in Data")


def test_r18_privacy_shield_stops_opponents_actions_not_audits():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1},
                           systems=[sys_("Neural Network")]),
                 p1=player(tools=[tool("Privacy Shield")],
                           systems=[sys_("Explainability", exerted=True)]))
    assert not is_legal(game, "deploy Bias in Data -> Explainability")
    err = illegal(game, "deploy Bias in Data -> Explainability")
    assert err.rule == "R18"
    assert is_legal(game, "audit Neural Network -> Explainability")


# ---------------------------------------------------------------------------------------------
# R19 Can't Run a Task next turn
# ---------------------------------------------------------------------------------------------
def _barred_game():
    game = start(
        p0=player(hand=["Manual Override"], training_set={"ready": 2}, deck=["Neuron", "Sensor"],
                  systems=[sys_("Chatbot", exerted=True)]),
        p1=player(hand=["Training Data"], deck=["Neuron", "Sensor", "Embedding", "Chatbot"],
                  systems=[sys_("Neural Network", exerted=True), sys_("Sensor")]),
    )
    play(game, "deploy Manual Override -> Neural Network", "end turn")
    assert game.active == 1
    return game


def test_r19_the_target_cannot_task_in_its_controllers_next_turn():
    game = _barred_game()
    assert not is_legal(game, "task Neural Network")
    err = illegal(game, "task Neural Network")
    assert err.rule == "R19"
    assert is_legal(game, "task Sensor")  # only the target is barred
    game.apply("task Sensor")
    assert game.tokens[1] == 1


def test_r19_the_target_may_still_audit():
    game = _barred_game()
    game.apply("audit Neural Network -> Chatbot")  # Chatbot was exerted on p0's turn
    assert on_board(game, "Chatbot", 0).empty
    assert flags(game, "Neural Network", 1) == 1


def test_r19_the_target_may_still_pay_big_data():
    game = _barred_game()
    game.apply("deploy Training Data with Big Data Neural Network")
    assert sideways(game, "Neural Network", 1)
    assert stat(game, 1, "Training Set") == 2


def test_r19_the_bar_ends_after_that_turn():
    game = _barred_game()
    play(game, "end turn", "end turn")
    assert game.active == 1 and game.turn == 6
    game.apply("task Neural Network")
    assert game.tokens[1] == 2


def test_r19_mandatory_recall_covers_systems_deployed_next_turn():
    game = start(
        p0=player(hand=["Mandatory Recall"], training_set={"ready": 4}, deck=["Neuron"]),
        p1=player(hand=["Agent"], training_set={"ready": 3}, deck=["Sensor", "Neuron"],
                  systems=[sys_("Neural Network")]),
    )
    play(game, "deploy Mandatory Recall", "end turn")
    assert game.active == 1
    game.apply("deploy Agent")
    for s in ("Neural Network", "Agent"):
        assert not is_legal(game, f"task {s}")
        assert illegal(game, f"task {s}").rule == "R19"
    assert game.tokens[1] == 0


# ---------------------------------------------------------------------------------------------
# R20 Tool removal
# ---------------------------------------------------------------------------------------------
def test_r20_tool_removal_sends_the_tool_to_its_owner_and_legacy_draws_the_caster_a_card():
    game = start(p0=player(hand=["Outdated", "Outdated"], training_set={"ready": 4},
                           deck=["Neuron", "Sensor"]),
                 p1=player(tools=[tool("CUDA"), tool("CPU")]))
    game.apply("deploy Outdated -> CUDA")  # not Legacy
    assert stat(game, 1, "Tools") == 1 and stat(game, 1, "Discard") == 1
    assert stat(game, 0, "Hand") == 1 and stat(game, 0, "Discard") == 1
    game.apply("deploy Outdated -> CPU")  # Legacy: the caster draws
    assert stat(game, 1, "Tools") == 0 and stat(game, 1, "Discard") == 2
    assert hand(game, 0) == ["Neuron"]
    assert stat(game, 1, "Hand") == 0


# ---------------------------------------------------------------------------------------------
# R21 Top card of the Training Set
# ---------------------------------------------------------------------------------------------
def test_r21_environmental_footprint_discards_ready_first_then_exerted_then_nothing():
    game = start(p0=player(hand=["Environmental Footprint"], training_set={"ready": 2, "exerted": 1}),
                 p1=player(training_set={"exerted": 2}))
    game.apply("deploy Environmental Footprint")
    # p0: paid 1 (ready 1, exerted 2), then the ready one is discarded
    assert stat(game, 0, "Training Set") == 2
    assert stat(game, 0, "Data ready") == 0
    assert stat(game, 0, "Discard") == 2  # the Training Set card and the Action
    assert stat(game, 1, "Training Set") == 1
    assert stat(game, 1, "Discard") == 1


def test_r21_data_center_takes_an_exerted_card_when_none_is_ready():
    game = start(p0=player(systems=[sys_("Data Center")], training_set={"exerted": 2}))
    game.apply("task Data Center")
    assert stat(game, 0, "Training Set") == 1
    assert stat(game, 0, "Discard") == 1
    assert game.tokens[0] == 3


def test_r21_an_empty_training_set_loses_nothing():
    game = start(p0=player(hand=["Environmental Footprint"], training_set={"ready": 1}))
    game.apply("deploy Environmental Footprint")
    assert stat(game, 0, "Training Set") == 0  # the paid card, exerted, was the top card
    assert stat(game, 0, "Discard") == 2
    assert stat(game, 1, "Training Set") == 0
    assert stat(game, 1, "Discard") == 0


# ---------------------------------------------------------------------------------------------
# R22 Look-at effects
# ---------------------------------------------------------------------------------------------
def test_r22_search_tree_keeps_the_others_on_top_in_order():
    game = start(p0=player(systems=[sys_("Search Tree")], tools=[tool("Python")],
                           deck=["Chatbot", "Abstraction", "Classifier", "Predictor"]))
    game.apply("task Search Tree")
    assert legal(game) == {"choose chatbot", "choose abstraction", "choose classifier"}
    game.apply("choose Abstraction")
    assert hand(game, 0) == ["Abstraction"]
    game.apply("use Python")
    assert sorted(hand(game, 0)) == ["Abstraction", "Chatbot"]  # Chatbot is still on top
    assert stat(game, 0, "Deck") == 2


def test_r22_with_fewer_cards_look_at_what_is_there():
    game = start(p0=player(systems=[sys_("Search Tree")], deck=["Chatbot", "Abstraction"]))
    game.apply("task Search Tree")
    assert legal(game) == {"choose chatbot", "choose abstraction"}
    game.apply("choose Chatbot")
    assert hand(game, 0) == ["Chatbot"]
    assert stat(game, 0, "Deck") == 1


def test_r22_one_card_left_is_taken_without_a_choice():
    game = start(p0=player(systems=[sys_("Search Tree")], deck=["Chatbot"]))
    game.apply("task Search Tree")
    assert game.pending is None
    assert hand(game, 0) == ["Chatbot"]
    assert stat(game, 0, "Deck") == 0
    assert game.tokens[0] == 3


# ---------------------------------------------------------------------------------------------
# R23 Choices are legal actions of the player named by the card
# ---------------------------------------------------------------------------------------------
def test_r23_a_mode_choice_is_offered_as_legal_actions_and_blocks_the_rest():
    game = start(p0=player(hand=["Regulation Debate", "Chatbot"], training_set={"ready": 2},
                           systems=[sys_("Not Alive")]),
                 p1=player(systems=[sys_("Neural Network", exerted=True)]))
    game.apply("deploy Regulation Debate")
    assert game.to_act == 0
    assert game.pending is not None
    assert legal(game) == {"choose mode a", "choose mode b"}
    assert illegal(game, "end turn").rule == "R23"  # first finish the choice
    assert illegal(game, "task Not Alive").rule == "R23"
    illegal(game, "choose mode c")
    game.apply("choose mode a")
    assert game.pending is None
    assert is_legal(game, "end turn")


# ---------------------------------------------------------------------------------------------
# R24 Running out
# ---------------------------------------------------------------------------------------------
def test_r24_drawing_from_an_empty_deck_shuffles_the_discard_in_and_costs_a_token():
    game = start(p1=player(tokens=4, discard=["Chatbot", "Neuron", "Sensor"]))
    game.apply("end turn")
    assert game.active == 1
    assert stat(game, 1, "Hand") == 1
    assert stat(game, 1, "Deck") == 2
    assert stat(game, 1, "Discard") == 0
    assert tuple(game.tokens) == (0, 3)


def test_r24_tokens_do_not_go_below_zero():
    game = start(p1=player(tokens=0, discard=["Chatbot", "Neuron"]))
    game.apply("end turn")
    assert stat(game, 1, "Hand") == 1
    assert stat(game, 1, "Deck") == 1
    assert tuple(game.tokens) == (0, 0)


def test_r24_deck_and_discard_both_empty_nothing_happens():
    game = start(p1=player(tokens=4, hand=["Chatbot"]))
    game.apply("end turn")
    assert game.active == 1
    assert stat(game, 1, "Hand") == 1
    assert stat(game, 1, "Deck") == 0
    assert tuple(game.tokens) == (0, 4)


def test_r24_moving_a_deck_card_from_an_empty_deck_also_reshuffles():
    game = start(p0=player(tokens=5, hand=["Training Data"], training_set={"ready": 2},
                           deck=["Neuron"], discard=["Chatbot", "Sensor"]))
    game.apply("deploy Training Data")  # moves Neuron, then the deck is empty
    assert stat(game, 0, "Training Set") == 4
    assert stat(game, 0, "Deck") == 1
    assert stat(game, 0, "Discard") == 1  # only Training Data itself
    assert game.tokens[0] == 4


# ---------------------------------------------------------------------------------------------
# R25 Winning
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("before", [13, 14])
def test_r25_a_player_wins_the_moment_they_reach_15(before):
    game = start(p0=player(tokens=before, systems=[sys_("Neural Network"), sys_("Chatbot")]))
    game.apply("task Neural Network")
    assert tuple(game.tokens) == (before + 2, 0)
    assert game.over
    assert game.winner == 0
    assert game.legal_actions() == []
    illegal(game, "task Chatbot")
    assert game.tokens[0] == before + 2


def test_r25_fourteen_is_not_a_win():
    game = start(p0=player(tokens=13, systems=[sys_("Chatbot")]))
    game.apply("task Chatbot")
    assert game.tokens[0] == 14
    assert not game.over and game.winner is None


def test_r25_nothing_after_that_moment_happens():
    game = start(p0=player(tokens=12, systems=[sys_("Data Center")], training_set={"ready": 1}))
    game.apply("task Data Center")  # 12 + 3 = 15, then the trigger would discard
    assert game.over and game.winner == 0
    assert stat(game, 0, "Training Set") == 1
    assert stat(game, 0, "Discard") == 0


def test_r25_a_player_can_win_on_the_opponents_turn():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(tokens=14, systems=[sys_("Reinforcement Learning", exerted=True)]))
    game.apply("audit Neural Network -> Reinforcement Learning")
    assert game.over
    assert game.winner == 1
    assert tuple(game.tokens) == (0, 15)


def test_r25_when_both_would_reach_15_the_active_players_trigger_comes_first():
    game = start(p0=player(tokens=14, systems=[sys_("Reinforcement Learning")]),
                 p1=player(tokens=14, systems=[sys_("Reinforcement Learning", exerted=True)]))
    game.apply("audit Reinforcement Learning -> Reinforcement Learning #2")
    assert game.over
    assert game.winner == 0
    assert tuple(game.tokens) == (15, 14)


def test_r25_a_turn_limit_ends_the_game_as_a_draw():
    decks = starter_decks()
    game = Game.new(decks[0], decks[1], seed=2, turn_limit=3)
    play(game, "go first", "keep", "keep")
    ends = 0
    while not game.over and ends < 10:
        game.apply("end turn")
        ends += 1
    assert ends == 3
    assert game.over
    assert game.winner is None
    assert tuple(game.tokens) == (0, 0)


# ---------------------------------------------------------------------------------------------
# Illegal actions: the right rule, and the game left exactly as it was
# ---------------------------------------------------------------------------------------------
def _busy_game():
    return start(
        p0=player(tokens=3, hand=["Neuron", "Embedding", "Large Language Model"], training_set={"ready": 2},
                  deck=["Neuron", "Sensor"], discard=["Bias in Data"],
                  systems=[sys_("Neural Network"), sys_("Supervised Learning", flags=1),
                           sys_("Sensor", new=True)],
                  tools=[tool("Tensor")]),
        p1=player(tokens=5, hand=["Chatbot"], deck=["Not Alive"],
                  systems=[sys_("Explainability"), sys_("Safety Lab", exerted=True),
                           sys_("Accountability", exerted=True, flags=1)]),
    )


@pytest.mark.parametrize("text, rule", [
    ("audit Neural Network -> Explainability", "R14"),  # upright
    ("task Sensor", "R12"),  # deployed this turn
    ("deploy Embedding", "R10"),  # 2 + tax 2 = 4 > 2 Data
    ("audit Neural Network -> Safety Lab", "R14"),  # Highly Trusted, Trust 2 < 4
    ("train Large Language Model", "R8"),  # no diamond
])
def test_illegal_actions_name_the_rule_and_change_nothing(text, rule):
    game = _busy_game()
    assert not is_legal(game, text)
    err = illegal(game, text)
    assert err.rule == rule
    assert str(err)  # a message in words
    assert game.explain(text) == str(err)


def test_illegal_train_twice_names_the_rule_and_changes_nothing():
    game = _busy_game()
    game.apply("train Neuron")
    before = snapshot(game)
    err = illegal(game, "train Embedding")
    assert err.rule == "R7"
    assert snapshot(game) == before


@pytest.mark.parametrize("garbage", [None, 42, "audit", "deploy Nonsense", "", "task",
                                     "task Explainability", "use Python", "end turn please"])
def test_garbage_raises_illegal_action_and_changes_nothing(garbage):
    game = _busy_game()
    err = illegal(game, garbage)
    assert isinstance(err, ValueError)
    assert str(err)


def test_explain_a_legal_action_does_not_apply_it():
    game = _busy_game()
    before = snapshot(game)
    text = game.explain("task Neural Network")
    assert isinstance(text, str) and text
    assert snapshot(game) == before
    assert game.tokens[0] == 3


def test_names_match_case_insensitively():
    game = _busy_game()
    game.apply("task NEURAL network")
    assert game.tokens[0] == 5


# ---------------------------------------------------------------------------------------------
# Whole games: random legal play keeps every card somewhere and every count in range
# ---------------------------------------------------------------------------------------------
def _cards_of(game, p):
    """Every card player ``p`` owns, counted over hand, deck, discard, Training Set and board."""
    row = players(game).loc[p]
    on_board_p = int((board(game)["Owner"] == p).sum())
    return int(row["Hand"] + row["Deck"] + row["Discard"] + row["Training Set"]) + on_board_p


@pytest.mark.parametrize("seed, d0, d1", [(1, 0, 9), (2, 1, 8), (3, 2, 7), (4, 4, 5)])
def test_random_legal_play_never_loses_a_card_and_ends_by_r25(seed, d0, d1):
    import random
    decks = starter_decks()
    game = Game.new(decks[d0], decks[d1], seed=seed, turn_limit=30)
    sizes = (len(decks[d0]), len(decks[d1]))
    rng = random.Random(seed)
    steps = 0
    while not game.over and steps < 3000:
        actions = game.legal_actions()
        assert actions, "a game that is not over always has a legal action"
        action = str(rng.choice(actions))
        game.apply(action)  # the text form round-trips
        steps += 1
        if action == "end turn" or game.over:  # at each turn's start every card is in a zone
            for p in (0, 1):
                assert _cards_of(game, p) == sizes[p]
        assert all(0 <= t for t in game.tokens)
        assert all(t < 15 for t in game.tokens) or game.over
    assert game.over
    if game.winner is None:
        assert all(t < 15 for t in game.tokens)
    else:
        assert game.tokens[game.winner] >= 15
        assert game.tokens[1 - game.winner] < 15
