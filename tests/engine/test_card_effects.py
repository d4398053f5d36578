"""Every card with a mechanic (``mechanic`` in cards/alpha-set.yaml), tested from its words.

Each test sets up a position with ``Game.from_scenario`` (via ``scenarios.start``), applies
action texts and checks numbers. Deck order is checked by drawing (Python, AI Career Path), so
only the public surface is used. Each player's cards keep to at most 2 colors.
"""

from pathlib import Path


import pytest  # noqa: E402

from tokens_edu import load_cards  # noqa: E402
from scenarios import (  # noqa: E402
    can_act, cap, flags, hand, illegal, is_legal, legal, on_board, play, player, sideways,
    start, stat, sys_, tool,
)


def test_every_card_with_a_mechanic_is_named_in_this_file():
    source = Path(__file__).read_text(encoding="utf-8")
    with_mechanic = [c.name for c in load_cards().cards() if c.mechanic]
    assert len(with_mechanic) >= 50
    missing = [name for name in with_mechanic if f'"{name}"' not in source]
    assert missing == []


# ---------------------------------------------------------------------------------------------
# Keywords
# ---------------------------------------------------------------------------------------------
FAST_TRACKED = [  # card, cost, tokens
    ("Agent", 3, 2),
    ("Fast-Moving Lab", 3, 2),
    ("Viral App", 3, 2),
    ("Large Language Model", 5, 4),
]


@pytest.mark.parametrize("card, cost, tokens", FAST_TRACKED)
def test_fast_tracked_can_task_the_turn_it_is_deployed(card, cost, tokens):
    game = start(p0=player(hand=[card], training_set={"ready": cost}))
    game.apply(f"deploy {card}")
    assert stat(game, 0, "Data ready") == 0
    assert can_act(game, card, 0)
    game.apply(f"task {card}")
    assert game.tokens[0] == tokens


@pytest.mark.parametrize("card, cost, tokens", FAST_TRACKED)
def test_fast_tracked_can_audit_the_turn_it_is_deployed(card, cost, tokens):
    game = start(p0=player(hand=[card], training_set={"ready": cost}),
                 p1=player(systems=[sys_("Chatbot", exerted=True)]))  # CAP 1 TRU 2
    play(game, f"deploy {card}", f"audit {card} -> Chatbot")
    assert on_board(game, "Chatbot", 1).empty
    assert stat(game, 1, "Discard") == 1
    assert flags(game, card, 0) == 1


HIGHLY_TRUSTED = [  # target (Trust), an auditor with lower Trust, one with equal Trust
    ("Safety Lab", "Supervised Learning", "Accountability"),  # 4: 3, 4
    ("AI Assistant", "Neural Network", "Supervised Learning"),  # 3: 2, 3
    ("Decision Tree", "Supervised Learning", "Accountability"),  # 4: 3, 4
    ("Bias Audit", "Supervised Learning", "Accountability"),  # 4: 3, 4
    ("Ethical Framework", "Accountability", "Alignment"),  # 5: 4, 5
]


@pytest.mark.parametrize("target, lower, equal", HIGHLY_TRUSTED)
def test_highly_trusted_cannot_be_audited_by_lower_trust(target, lower, equal):
    game = start(p0=player(systems=[sys_(lower)]),
                 p1=player(systems=[sys_(target, exerted=True)]))
    text = f"audit {lower} -> {target}"
    assert not is_legal(game, text)
    assert illegal(game, text).rule == "R14"
    assert flags(game, target, 1) == 0


@pytest.mark.parametrize("target, lower, equal", HIGHLY_TRUSTED)
def test_highly_trusted_can_be_audited_by_equal_trust(target, lower, equal):
    pool = load_cards()
    game = start(p0=player(systems=[sys_(equal)]),
                 p1=player(systems=[sys_(target, exerted=True)]))
    game.apply(f"audit {equal} -> {target}")
    assert flags(game, equal, 0) == pool[target].cap
    if pool[equal].cap >= pool[target].tru:
        assert on_board(game, target, 1).empty
    else:
        assert flags(game, target, 1) == pool[equal].cap


def test_adversarial_gan_deals_one_more_flag_when_audited():
    game = start(p0=player(systems=[sys_("Ethical Framework")]),  # CAP 2 TRU 5
                 p1=player(systems=[sys_("GAN", exerted=True)]))  # CAP 3 TRU 1, Adversarial
    game.apply("audit Ethical Framework -> GAN")
    assert flags(game, "Ethical Framework", 0) == 4  # 3 + 1
    assert on_board(game, "GAN", 1).empty
    assert stat(game, 1, "Discard") == 1


def test_adversarial_red_teaming_deals_one_more_flag_when_audited():
    game = start(p0=player(systems=[sys_("Accountability")]),  # CAP 2 TRU 4
                 p1=player(systems=[sys_("Red Teaming", exerted=True)]))  # CAP 2 TRU 4
    game.apply("audit Accountability -> Red Teaming")
    assert flags(game, "Accountability", 0) == 3
    assert flags(game, "Red Teaming", 1) == 2


def test_adversarial_gets_no_extra_flag_when_it_is_the_auditor():
    game = start(p0=player(systems=[sys_("Red Teaming")]),
                 p1=player(systems=[sys_("Accountability", exerted=True)]))
    game.apply("audit Red Teaming -> Accountability")
    assert flags(game, "Accountability", 1) == 2
    assert flags(game, "Red Teaming", 0) == 2


# ---------------------------------------------------------------------------------------------
# Tool removal and Legacy (R20)
# ---------------------------------------------------------------------------------------------
REMOVALS = ["Defunct", "Discontinued", "Outdated", "Expired", "Obsolete"]
TOOLS = [("Python", False), ("Tensor", False), ("CPU", True), ("RAM", True), ("Feature Vector", True)]


@pytest.mark.parametrize("removal", REMOVALS)
@pytest.mark.parametrize("target, legacy", TOOLS)
def test_tool_removal_and_legacy_draw(removal, target, legacy):
    game = start(p0=player(hand=[removal], training_set={"ready": 2}, deck=["Neuron", "Sensor"]),
                 p1=player(tools=[tool(target)]))
    game.apply(f"deploy {removal} -> {target}")
    assert on_board(game, target).empty
    assert stat(game, 1, "Tools") == 0
    assert stat(game, 1, "Discard") == 1  # to its owner's discard
    assert stat(game, 0, "Discard") == 1  # the Action
    assert stat(game, 0, "Hand") == (1 if legacy else 0)  # Legacy: the caster draws 1
    assert stat(game, 0, "Deck") == (1 if legacy else 2)
    assert stat(game, 1, "Hand") == 0


@pytest.mark.parametrize("removal", REMOVALS)
def test_tool_removal_works_on_your_own_tool(removal):
    game = start(p0=player(hand=[removal], training_set={"ready": 2}, deck=["Neuron"],
                           tools=[tool("CPU")]))
    game.apply(f"deploy {removal} -> CPU")
    assert stat(game, 0, "Tools") == 0
    assert stat(game, 0, "Discard") == 2
    assert hand(game, 0) == ["Neuron"]


@pytest.mark.parametrize("removal", REMOVALS)
def test_tool_removal_needs_a_tool_in_play(removal):
    game = start(p0=player(hand=[removal], training_set={"ready": 2}, systems=[sys_("Alignment")]))
    assert not any(a.startswith(f"deploy {removal.lower()}") for a in legal(game))
    assert illegal(game, f"deploy {removal}").rule == "R18"


# ---------------------------------------------------------------------------------------------
# Big Data (R11): Training Data and ImageNet
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("card, moved", [("Training Data", 2), ("ImageNet", 3)])
def test_training_data_actions_move_top_cards_into_the_training_set_exerted(card, moved):
    game = start(p0=player(hand=[card], training_set={"ready": 2},
                           deck=["Neuron", "Sensor", "Embedding", "Neural Network"]))
    game.apply(f"deploy {card}")
    assert stat(game, 0, "Training Set") == 2 + moved
    assert stat(game, 0, "Data ready") == 0
    assert stat(game, 0, "Deck") == 4 - moved
    assert stat(game, 0, "Discard") == 1


@pytest.mark.parametrize("card, payer, ok", [
    ("Training Data", "Neural Network", True),  # Cost 2 >= Big Data 2
    ("Training Data", "Reinforcement Learning", True),  # Cost 4 >= 2
    ("Training Data", "Neuron", False),  # Cost 1 < 2
    ("ImageNet", "Fine-Tuning", True),  # Cost 3 >= Big Data 3
    ("ImageNet", "Reinforcement Learning", True),
    ("ImageNet", "Neural Network", False),  # Cost 2 < 3
])
def test_big_data_pays_with_a_system_of_printed_cost_n_or_more(card, payer, ok):
    moved = {"Training Data": 2, "ImageNet": 3}[card]
    game = start(p0=player(hand=[card], deck=["Neuron", "Sensor", "Embedding", "Embedding"],
                           systems=[sys_(payer)]))
    text = f"deploy {card} with Big Data {payer}"
    assert is_legal(game, text) == ok
    if ok:
        game.apply(text)
        assert sideways(game, payer, 0)
        assert stat(game, 0, "Training Set") == moved
        assert stat(game, 0, "Data ready") == 0
        assert game.tokens[0] == 0
    else:
        assert illegal(game, text).rule == "R11"


# ---------------------------------------------------------------------------------------------
# "Can't Run a Task during its controller's next turn" (R19)
# ---------------------------------------------------------------------------------------------
CANT_TASK = ["Manual Override", "Ambiguous Input", "Retraining Pause", "Compliance Review",
             "Job Disruption"]


def _cast_bar(card):
    game = start(
        p0=player(hand=[card], training_set={"ready": 2},
                  deck=["AI Isn't Magic", "AI Isn't Magic"],
                  systems=[sys_("Alignment", exerted=True)]),  # CAP 2 TRU 5
        p1=player(hand=["Training Data"], deck=["Neuron", "Sensor", "Embedding", "Chatbot"],
                  systems=[sys_("Supervised Learning", exerted=True), sys_("Sensor")]),
    )
    play(game, f"deploy {card} -> Supervised Learning", "end turn")
    assert game.active == 1
    return game


@pytest.mark.parametrize("card", CANT_TASK)
def test_cant_task_action_bars_the_targets_task_next_turn(card):
    game = _cast_bar(card)
    assert stat(game, 0, "Discard") == 1
    assert not is_legal(game, "task Supervised Learning")
    assert illegal(game, "task Supervised Learning").rule == "R19"
    game.apply("task Sensor")  # only the target is barred
    assert game.tokens[1] == 1


@pytest.mark.parametrize("card", CANT_TASK)
def test_cant_task_action_target_may_still_audit(card):
    game = _cast_bar(card)
    game.apply("audit Supervised Learning -> Alignment")
    assert flags(game, "Alignment", 0) == 3
    assert flags(game, "Supervised Learning", 1) == 2


@pytest.mark.parametrize("card", CANT_TASK)
def test_cant_task_action_target_may_still_pay_big_data(card):
    game = _cast_bar(card)
    game.apply("deploy Training Data with Big Data Supervised Learning")
    assert sideways(game, "Supervised Learning", 1)
    assert stat(game, 1, "Training Set") == 2


@pytest.mark.parametrize("card", CANT_TASK)
def test_cant_task_action_lasts_one_turn(card):
    game = _cast_bar(card)
    play(game, "end turn", "end turn")
    assert game.active == 1
    game.apply("task Supervised Learning")
    assert game.tokens[1] == 2


@pytest.mark.parametrize("card", CANT_TASK)
def test_cant_task_action_targets_only_an_opponents_system(card):
    game = start(p0=player(hand=[card], training_set={"ready": 2}, systems=[sys_("Alignment")]))
    assert not any(a.startswith(f"deploy {card.lower()}") for a in legal(game))
    illegal(game, f"deploy {card} -> Alignment")


def test_mandatory_recall_bars_every_opposing_system_even_new_ones_but_not_audits():
    game = start(
        p0=player(hand=["Mandatory Recall"], training_set={"ready": 4},
                  deck=["Bias Audit"], systems=[sys_("Alignment", exerted=True)]),
        p1=player(hand=["Agent"], training_set={"ready": 4}, deck=["Chatbot", "Not Alive"],
                  systems=[sys_("Built-in AI"), sys_("Chatbot")]),
    )
    play(game, "deploy Mandatory Recall", "end turn")
    assert stat(game, 0, "Discard") == 1
    game.apply("deploy Agent")  # 3rd System: 3 + 1 Data
    for s in ("Built-in AI", "Chatbot", "Agent"):
        assert not is_legal(game, f"task {s}")
    assert illegal(game, "task Agent").rule == "R19"
    game.apply("audit Built-in AI -> Alignment")  # Audits are still allowed
    assert flags(game, "Alignment", 0) == 2
    play(game, "end turn", "end turn")  # the next turn after that: free again
    game.apply("task Chatbot")
    assert game.tokens[1] == 1


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------
def test_ai_career_path_draws_a_card():
    game = start(p0=player(hand=["AI Career Path"], training_set={"ready": 1},
                           deck=["Chatbot", "Agent"]))
    game.apply("deploy AI Career Path")
    assert hand(game, 0) == ["Chatbot"]
    assert stat(game, 0, "Deck") == 1
    assert stat(game, 0, "Discard") == 1
    assert stat(game, 0, "Data ready") == 0


def test_bias_in_data_puts_one_flag_on_an_opponents_system():
    game = start(p0=player(hand=["Bias in Data", "Bias in Data"], training_set={"ready": 2},
                           systems=[sys_("Neuron")]),
                 p1=player(systems=[sys_("Explainability"), sys_("Chatbot", flags=1)]))
    game.apply("deploy Bias in Data -> Explainability")
    assert flags(game, "Explainability", 1) == 1
    game.apply("deploy Bias in Data -> Chatbot")  # 2 Flags, Trust 2
    assert on_board(game, "Chatbot", 1).empty
    assert stat(game, 1, "Discard") == 1
    assert stat(game, 0, "Discard") == 2


def test_bias_in_data_cannot_target_your_own_system():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1},
                           systems=[sys_("Neuron")]),
                 p1=player(systems=[sys_("Sensor")]))
    assert not is_legal(game, "deploy Bias in Data -> Neuron")
    illegal(game, "deploy Bias in Data -> Neuron")
    assert is_legal(game, "deploy Bias in Data -> Sensor")


def test_ai_isnt_magic_removes_highly_trusted():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2},
                           systems=[sys_("Neural Network")]),
                 p1=player(systems=[sys_("AI Assistant", exerted=True)]))  # TRU 3 > 2
    assert not is_legal(game, "audit Neural Network -> AI Assistant")
    game.apply("deploy AI Isn't Magic -> AI Assistant")
    assert is_legal(game, "audit Neural Network -> AI Assistant")
    game.apply("audit Neural Network -> AI Assistant")  # 4 vs 2: both Deprecated
    assert stat(game, 1, "Discard") == 1
    assert stat(game, 0, "Discard") == 2  # AI Isn't Magic and Neural Network


def test_ai_isnt_magic_removes_adversarial():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2},
                           systems=[sys_("Accountability")]),  # CAP 2 TRU 4
                 p1=player(systems=[sys_("GAN", exerted=True)]))  # CAP 3, Adversarial
    play(game, "deploy AI Isn't Magic -> GAN", "audit Accountability -> GAN")
    assert flags(game, "Accountability", 0) == 3  # not 4


def test_ai_isnt_magic_removes_task_triggers_on_your_own_system():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2},
                           systems=[sys_("Diffusion Model", flags=1)]))
    play(game, "deploy AI Isn't Magic -> Diffusion Model", "task Diffusion Model")
    assert game.tokens[0] == 2
    assert flags(game, "Diffusion Model", 0) == 1  # the trigger is gone


def test_ai_isnt_magic_removes_deprecation_triggers():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2},
                           systems=[sys_("Accountability")]),
                 p1=player(tokens=3, systems=[sys_("Reinforcement Learning", exerted=True)]))
    play(game, "deploy AI Isn't Magic -> Reinforcement Learning",
         "audit Accountability -> Reinforcement Learning")
    assert on_board(game, "Reinforcement Learning", 1).empty
    assert tuple(game.tokens) == (0, 3)


def test_ai_isnt_magic_removes_fast_tracked():
    game = start(p0=player(hand=["Agent", "AI Isn't Magic"], training_set={"ready": 5}))
    game.apply("deploy Agent")
    assert can_act(game, "Agent", 0)
    game.apply("deploy AI Isn't Magic -> Agent")
    assert not can_act(game, "Agent", 0)
    assert illegal(game, "task Agent").rule == "R12"
    assert game.tokens[0] == 0


def test_ai_isnt_magic_on_your_own_system_lasts_through_the_opponents_turn():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2}, deck=["Neuron"],
                           systems=[sys_("Safety Lab")]),  # Highly Trusted, TRU 4
                 p1=player(deck=["Sensor"], systems=[sys_("Neural Network")]))  # TRU 2
    play(game, "task Safety Lab", "deploy AI Isn't Magic -> Safety Lab", "end turn")
    assert game.active == 1
    game.apply("audit Neural Network -> Safety Lab")  # not Highly Trusted until p0's turn
    assert on_board(game, "Safety Lab", 0).empty  # 4 Flags on Trust 4
    assert game.tokens[0] == 2


def test_ai_isnt_magic_ends_when_its_controllers_next_turn_begins():
    game = start(p0=player(hand=["AI Isn't Magic"], training_set={"ready": 2}),
                 p1=player(deck=["Neuron"], systems=[sys_("Diffusion Model", flags=1)]))
    play(game, "deploy AI Isn't Magic -> Diffusion Model", "end turn", "task Diffusion Model")
    assert game.tokens[1] == 2
    assert flags(game, "Diffusion Model", 1) == 0


def test_environmental_footprint_hits_each_training_set_once():
    game = start(p0=player(hand=["Environmental Footprint"], training_set={"ready": 3}),
                 p1=player(training_set={"ready": 1, "exerted": 1}))
    game.apply("deploy Environmental Footprint")
    assert stat(game, 0, "Training Set") == 2
    assert stat(game, 0, "Data ready") == 1  # paid 1, lost a ready one
    assert stat(game, 1, "Training Set") == 1
    assert stat(game, 1, "Data ready") == 0  # a ready card goes first
    assert stat(game, 0, "Discard") == 2
    assert stat(game, 1, "Discard") == 1


def test_regulation_debate_mode_a_before_training_allows_two_trains():
    game = start(p0=player(hand=["Regulation Debate", "AI in Daily Life", "Deepfake", "Data Center"],
                           training_set={"ready": 2}, systems=[sys_("Digital Divide")]))
    play(game, "deploy Regulation Debate", "choose mode a",
         "train AI in Daily Life", "train Deepfake")
    assert stat(game, 0, "Training Set") == 4
    assert not is_legal(game, "train Data Center")


def test_regulation_debate_mode_a_allows_one_extra_train():
    game = start(p0=player(hand=["Regulation Debate", "AI in Daily Life", "Deepfake"],
                           training_set={"ready": 2}, trained_this_turn=True,
                           systems=[sys_("Digital Divide")]))  # so mode b has a target too
    assert not is_legal(game, "train AI in Daily Life")
    play(game, "deploy Regulation Debate", "choose mode a")
    assert is_legal(game, "train AI in Daily Life")
    game.apply("train AI in Daily Life")
    assert stat(game, 0, "Training Set") == 3
    assert stat(game, 0, "Data ready") == 1
    assert not is_legal(game, "train Deepfake")  # one extra, not more
    illegal(game, "train Deepfake")


def test_regulation_debate_mode_b_bars_audits_on_the_target_this_turn():
    game = start(p0=player(hand=["Regulation Debate"], training_set={"ready": 2},
                           systems=[sys_("Supervised Learning"), sys_("Embedding")]),
                 p1=player(systems=[sys_("Neural Network", exerted=True),
                                    sys_("Chatbot", exerted=True)]))
    play(game, "deploy Regulation Debate", "choose mode b")
    assert game.to_act == 0
    assert "choose neural network" in legal(game)
    game.apply("choose Neural Network")
    assert game.pending is None
    assert not is_legal(game, "audit Supervised Learning -> Neural Network")
    assert illegal(game, "audit Supervised Learning -> Neural Network").rule == "R14"
    game.apply("audit Supervised Learning -> Chatbot")  # the other one is fine
    assert on_board(game, "Chatbot", 1).empty
    assert flags(game, "Neural Network", 1) == 0


def test_regulation_debate_mode_b_lasts_only_this_turn():
    game = start(p0=player(hand=["Regulation Debate"], training_set={"ready": 2}, deck=["Deepfake"],
                           systems=[sys_("Neural Network", exerted=True)]),
                 p1=player(deck=["Chatbot"], systems=[sys_("Supervised Learning")]))
    play(game, "deploy Regulation Debate", "choose mode b")
    assert legal(game) == {"choose neural network", "choose supervised learning"}  # any System
    play(game, "choose Neural Network", "end turn")
    assert is_legal(game, "audit Supervised Learning -> Neural Network")
    game.apply("audit Supervised Learning -> Neural Network")
    assert on_board(game, "Neural Network", 0).empty


def test_cognitive_offload_draws_then_discards():
    game = start(p0=player(hand=["Cognitive Offload", "Deepfake"], training_set={"ready": 1},
                           deck=["AI in Daily Life", "Data Center"]))
    game.apply("deploy Cognitive Offload")
    assert game.to_act == 0 and game.pending is not None
    assert legal(game) == {"choose deepfake", "choose ai in daily life"}
    game.apply("choose Deepfake")
    assert hand(game, 0) == ["AI in Daily Life"]
    assert stat(game, 0, "Discard") == 2
    assert stat(game, 0, "Deck") == 1


def test_cognitive_offload_with_one_card_discards_it_without_a_question():
    game = start(p0=player(hand=["Cognitive Offload"], training_set={"ready": 1},
                           deck=["AI in Daily Life", "Data Center"]))
    game.apply("deploy Cognitive Offload")
    assert game.pending is None
    assert stat(game, 0, "Hand") == 0
    assert stat(game, 0, "Discard") == 2


# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------
def test_model_card_and_privacy_shield_have_nothing_to_use():
    game = start(p0=player(tools=[tool("Model Card"), tool("Privacy Shield")],
                           systems=[sys_("Explainability")]))
    assert legal(game) == {"task explainability", "end turn"}
    illegal(game, "use Model Card")
    illegal(game, "use Privacy Shield")


def test_python_draws_a_card_once_a_turn():
    game = start(p0=player(tools=[tool("Python")], deck=["Chatbot", "Agent"]))
    game.apply("use Python")
    assert hand(game, 0) == ["Chatbot"]
    assert sideways(game, "Python", 0)
    assert illegal(game, "use Python").rule == "R17"


def test_feature_vector_keeps_one_and_puts_the_other_on_the_bottom():
    game = start(p0=player(hand=["AI Career Path"], training_set={"ready": 1},
                           tools=[tool("Feature Vector"), tool("Python")],
                           deck=["Chatbot", "Abstraction", "Classifier"]))
    game.apply("use Feature Vector")
    assert legal(game) == {"choose chatbot", "choose abstraction"}
    game.apply("choose Chatbot")
    assert sorted(hand(game, 0)) == ["AI Career Path", "Chatbot"]
    assert stat(game, 0, "Deck") == 2
    game.apply("use Python")  # Classifier is now on top
    assert "Classifier" in hand(game, 0)
    game.apply("deploy AI Career Path")  # Abstraction went to the bottom
    assert sorted(hand(game, 0)) == ["Abstraction", "Chatbot", "Classifier"]


def test_feature_vector_with_one_card_takes_it():
    game = start(p0=player(tools=[tool("Feature Vector")], deck=["Chatbot"]))
    game.apply("use Feature Vector")
    assert game.pending is None
    assert hand(game, 0) == ["Chatbot"]
    assert stat(game, 0, "Deck") == 0


def test_tensor_may_put_the_top_card_on_the_bottom():
    game = start(p0=player(tools=[tool("Tensor"), tool("Python")],
                           deck=["Neuron", "Sensor", "Embedding"]))
    game.apply("use Tensor")
    assert legal(game) == {"choose top", "choose bottom"}
    play(game, "choose bottom", "use Python")
    assert hand(game, 0) == ["Sensor"]
    assert stat(game, 0, "Deck") == 2


def test_tensor_may_leave_the_top_card():
    game = start(p0=player(tools=[tool("Tensor"), tool("Python")],
                           deck=["Neuron", "Sensor", "Embedding"]))
    play(game, "use Tensor", "choose top", "use Python")
    assert hand(game, 0) == ["Neuron"]


def test_cpu_draws_then_discards():
    game = start(p0=player(hand=["Chatbot"], tools=[tool("CPU")], deck=["Neuron", "Sensor"]))
    game.apply("use CPU")
    assert legal(game) == {"choose chatbot", "choose neuron"}
    game.apply("choose Chatbot")
    assert hand(game, 0) == ["Neuron"]
    assert stat(game, 0, "Discard") == 1
    assert stat(game, 0, "Deck") == 1
    assert sideways(game, "CPU", 0)


def test_ram_puts_an_action_from_the_discard_on_top_of_the_deck():
    game = start(p0=player(tools=[tool("RAM"), tool("Python")], deck=["Neuron"],
                           discard=["Chatbot", "Bias in Data", "Sensor"]))
    assert is_legal(game, "use RAM -> Bias in Data")
    assert not is_legal(game, "use RAM -> Chatbot")  # a System, not an Action
    illegal(game, "use RAM -> Chatbot")
    game.apply("use RAM -> Bias in Data")
    assert stat(game, 0, "Discard") == 2
    assert stat(game, 0, "Deck") == 2
    game.apply("use Python")
    assert hand(game, 0) == ["Bias in Data"]


def test_ram_needs_an_action_in_the_discard():
    game = start(p0=player(tools=[tool("RAM")], deck=["Neuron"], discard=["Chatbot"]))
    assert not any(a.startswith("use ram") for a in legal(game))


def test_cuda_adds_one_capability_until_end_of_turn():
    game = start(p0=player(tools=[tool("CUDA")], deck=["Neuron"],
                           systems=[sys_("Supervised Learning")]),  # CAP 3 TRU 3
                 p1=player(deck=["Chatbot"], systems=[sys_("Accountability", exerted=True)]))  # TRU 4
    game.apply("use CUDA -> Supervised Learning")
    assert cap(game, "Supervised Learning", 0) == 4
    game.apply("audit Supervised Learning -> Accountability")
    assert on_board(game, "Accountability", 1).empty  # 4 Flags: Deprecated (3 without CUDA)
    assert flags(game, "Supervised Learning", 0) == 2
    game.apply("end turn")
    assert cap(game, "Supervised Learning", 0) == 3


def test_cuda_can_target_an_opponents_system_written_with_hash_2():
    game = start(p0=player(tools=[tool("CUDA")], systems=[sys_("Chatbot"), sys_("Embedding")]),
                 p1=player(systems=[sys_("Chatbot", exerted=True)]))
    game.apply("use CUDA -> Chatbot #2")  # the acting player's Chatbot is #1
    assert cap(game, "Chatbot", 1) == 2
    assert cap(game, "Chatbot", 0) == 1


def test_fairness_check_flags_a_system_whose_capability_exceeds_its_trust():
    game = start(p0=player(tools=[tool("Fairness Check")]),
                 p1=player(systems=[sys_("Neural Network"), sys_("Neuron"),
                                    sys_("Supervised Learning")]))
    assert is_legal(game, "use Fairness Check -> Neural Network")  # 4 > 2
    assert not is_legal(game, "use Fairness Check -> Neuron")  # 1 < 2
    assert not is_legal(game, "use Fairness Check -> Supervised Learning")  # 3 = 3
    illegal(game, "use Fairness Check -> Supervised Learning")
    game.apply("use Fairness Check -> Neural Network")
    assert flags(game, "Neural Network", 1) == 1
    assert sideways(game, "Fairness Check", 0)


def test_fairness_check_deprecates_a_trust_1_system_on_either_side():
    game = start(p0=player(tools=[tool("Fairness Check")], systems=[sys_("Data Privacy Trade-off")]))
    game.apply("use Fairness Check -> Data Privacy Trade-off")  # CAP 2 > TRU 1, own System
    assert stat(game, 0, "Systems") == 0
    assert stat(game, 0, "Discard") == 1


def test_fairness_check_counts_current_capability():
    game = start(p0=player(tools=[tool("Fairness Check"), tool("CUDA")]),
                 p1=player(systems=[sys_("Classifier")]))  # CAP 2 TRU 2
    game.apply("use CUDA -> Classifier")
    assert is_legal(game, "use Fairness Check -> Classifier")
    game.apply("use Fairness Check -> Classifier")
    assert flags(game, "Classifier", 1) == 1


@pytest.mark.parametrize("choice, left", [("choose 0 Flags", 3), ("choose 1 Flag", 2),
                                          ("choose 2 Flags", 1)])
def test_human_in_the_loop_removes_up_to_two_flags_from_any_system(choice, left):
    game = start(p0=player(tools=[tool("Human-in-the-Loop")]),
                 p1=player(systems=[sys_("Accountability", flags=3, exerted=True)]))
    game.apply("use Human-in-the-Loop -> Accountability")
    assert legal(game) == {"choose 0 flags", "choose 1 flag", "choose 2 flags"}
    game.apply(choice)
    assert flags(game, "Accountability", 1) == left
    assert sideways(game, "Human-in-the-Loop", 0)


def test_gpu_lets_a_system_deployed_this_turn_act():
    game = start(p0=player(hand=["Neural Network"], training_set={"ready": 3},
                           tools=[tool("GPU")], systems=[sys_("Chatbot")]))
    game.apply("deploy Neural Network")
    assert not is_legal(game, "task Neural Network")
    assert is_legal(game, "use GPU -> Neural Network")
    assert not is_legal(game, "use GPU -> Chatbot")  # not deployed this turn
    game.apply("use GPU -> Neural Network")
    assert can_act(game, "Neural Network", 0)
    game.apply("task Neural Network")
    assert game.tokens[0] == 2


def test_gpu_also_allows_an_audit():
    game = start(p0=player(tools=[tool("GPU")], systems=[sys_("Neural Network", new=True)]),
                 p1=player(systems=[sys_("Explainability", exerted=True)]))
    play(game, "use GPU -> Neural Network", "audit Neural Network -> Explainability")
    assert on_board(game, "Explainability", 1).empty
    assert flags(game, "Neural Network", 0) == 1


def test_model_card_yes_saves_and_skips_deprecation_triggers():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(tokens=2, tools=[tool("Model Card")],
                           systems=[sys_("Reinforcement Learning", exerted=True)]))
    game.apply("audit Neural Network -> Reinforcement Learning")  # both would be Deprecated
    assert game.to_act == 1
    assert legal(game) == {"choose yes", "choose no"}
    game.apply("choose yes")
    assert flags(game, "Reinforcement Learning", 1) == 0
    assert sideways(game, "Reinforcement Learning", 1)
    assert tuple(game.tokens) == (0, 2)  # no "when Deprecated" trigger
    assert on_board(game, "Neural Network", 0).empty  # 3 Flags on Trust 2
    assert game.to_act == 0


def test_model_card_no_lets_deprecation_triggers_happen():
    game = start(p0=player(systems=[sys_("Neural Network")]),
                 p1=player(tokens=2, tools=[tool("Model Card")],
                           systems=[sys_("Reinforcement Learning", exerted=True)]))
    play(game, "audit Neural Network -> Reinforcement Learning", "choose no")
    assert on_board(game, "Reinforcement Learning", 1).empty
    assert tuple(game.tokens) == (0, 3)


def test_model_card_protects_the_active_players_own_system():
    game = start(p0=player(tools=[tool("Model Card")], systems=[sys_("Neural Network", flags=1)]),
                 p1=player(systems=[sys_("Explainability", exerted=True)]))
    game.apply("audit Neural Network -> Explainability")
    assert game.to_act == 0
    game.apply("choose yes")
    assert flags(game, "Neural Network", 0) == 0
    assert sideways(game, "Neural Network", 0)
    assert on_board(game, "Explainability", 1).empty


def test_model_card_also_saves_from_an_action_and_keeps_an_upright_system_upright():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1}),
                 p1=player(tools=[tool("Model Card")], systems=[sys_("Neural Network", flags=1)]))
    game.apply("deploy Bias in Data -> Neural Network")  # 2 Flags on Trust 2
    assert game.to_act == 1 and game.active == 0
    game.apply("choose yes")
    assert flags(game, "Neural Network", 1) == 0
    assert not sideways(game, "Neural Network", 1)  # it was upright, it stays upright
    assert stat(game, 1, "Discard") == 0
    assert game.to_act == 0


def test_model_card_works_only_while_in_play():
    game = start(p0=player(hand=["Expired"], training_set={"ready": 2},
                           systems=[sys_("Bias Audit")]),  # CAP 1 TRU 4
                 p1=player(tools=[tool("Model Card")],
                           systems=[sys_("Explainability", flags=2, exerted=True)]))
    play(game, "deploy Expired -> Model Card", "audit Bias Audit -> Explainability")
    assert game.to_act == 0 and game.pending is None
    assert on_board(game, "Explainability", 1).empty
    assert stat(game, 1, "Discard") == 2


def test_privacy_shield_does_not_stop_untargeted_actions():
    game = start(p0=player(hand=["Mandatory Recall"], training_set={"ready": 4}, deck=["Bias Audit"]),
                 p1=player(deck=["Chatbot"], tools=[tool("Privacy Shield")],
                           systems=[sys_("Explainability")]))
    play(game, "deploy Mandatory Recall", "end turn")
    assert not is_legal(game, "task Explainability")
    assert game.tokens[1] == 0


def test_privacy_shield_keeps_its_systems_out_of_regulation_debates_mode_b():
    game = start(p0=player(hand=["Regulation Debate"], training_set={"ready": 2},
                           systems=[sys_("Embedding"), sys_("Supervised Learning")]),
                 p1=player(tools=[tool("Privacy Shield")],
                           systems=[sys_("Neural Network", exerted=True)]))
    play(game, "deploy Regulation Debate", "choose mode b")
    assert legal(game) == {"choose embedding", "choose supervised learning"}


def test_privacy_shield_blocks_opponents_actions_only():
    game = start(p0=player(hand=["Bias in Data", "AI Isn't Magic"], training_set={"ready": 3},
                           tools=[tool("Fairness Check")], systems=[sys_("Neural Network")]),
                 p1=player(tools=[tool("Privacy Shield")],
                           systems=[sys_("Deepfake", exerted=True)]))  # CAP 3 TRU 1
    assert not is_legal(game, "deploy Bias in Data -> Deepfake")
    assert illegal(game, "deploy Bias in Data -> Deepfake").rule == "R18"
    assert not is_legal(game, "deploy AI Isn't Magic -> Deepfake")
    assert is_legal(game, "deploy AI Isn't Magic -> Neural Network")  # own System is fine
    assert is_legal(game, "audit Neural Network -> Deepfake")  # Audits are unaffected
    game.apply("use Fairness Check -> Deepfake")  # Tools are unaffected
    assert on_board(game, "Deepfake", 1).empty


# ---------------------------------------------------------------------------------------------
# Systems with triggers
# ---------------------------------------------------------------------------------------------
def test_the_human_trainer_may_train_the_top_card_of_the_deck_exerted():
    game = start(p0=player(hand=["Chatbot"], systems=[sys_("The Human Trainer")],
                           training_set={"ready": 1}, deck=["Search Tree", "Classifier"]))
    game.apply("task The Human Trainer")
    assert game.tokens[0] == 2
    assert game.to_act == 0
    assert legal(game) == {"choose yes", "choose no"}
    game.apply("choose yes")  # Search Tree has no diamond: no Trainable check
    assert stat(game, 0, "Training Set") == 2
    assert stat(game, 0, "Data ready") == 1  # it enters exerted
    assert stat(game, 0, "Deck") == 1
    assert is_legal(game, "train Chatbot")  # not the turn's Train


def test_the_human_trainer_from_an_empty_deck_reshuffles_and_costs_a_token():
    game = start(p0=player(tokens=3, systems=[sys_("The Human Trainer")],
                           discard=["Chatbot", "Not Alive"]))
    play(game, "task The Human Trainer", "choose yes")  # R24: moving a deck card
    assert game.tokens[0] == 4  # 3 + 2 - 1
    assert stat(game, 0, "Training Set") == 1
    assert stat(game, 0, "Deck") == 1
    assert stat(game, 0, "Discard") == 0


def test_the_human_trainer_may_decline():
    game = start(p0=player(systems=[sys_("The Human Trainer")], deck=["Search Tree", "Classifier"]))
    play(game, "task The Human Trainer", "choose no")
    assert game.tokens[0] == 2
    assert stat(game, 0, "Training Set") == 0
    assert stat(game, 0, "Deck") == 2


def test_search_tree_takes_one_of_the_top_three():
    game = start(p0=player(systems=[sys_("Search Tree")], tools=[tool("Python")],
                           deck=["Chatbot", "Abstraction", "Classifier", "Predictor"]))
    game.apply("task Search Tree")
    assert game.tokens[0] == 3
    assert legal(game) == {"choose chatbot", "choose abstraction", "choose classifier"}
    game.apply("choose Classifier")
    assert hand(game, 0) == ["Classifier"]
    assert stat(game, 0, "Deck") == 3
    game.apply("use Python")
    assert sorted(hand(game, 0)) == ["Chatbot", "Classifier"]


def test_transformer_takes_one_of_the_top_two_and_the_other_stays_on_top():
    game = start(p0=player(systems=[sys_("Transformer")], tools=[tool("Python")],
                           deck=["Neuron", "Sensor", "Embedding"]))
    game.apply("task Transformer")
    assert game.tokens[0] == 3
    assert legal(game) == {"choose neuron", "choose sensor"}
    game.apply("choose Sensor")
    assert hand(game, 0) == ["Sensor"]
    game.apply("use Python")
    assert sorted(hand(game, 0)) == ["Neuron", "Sensor"]
    assert stat(game, 0, "Deck") == 1


def test_unsupervised_learning_reorders_the_top_two():
    game = start(p0=player(systems=[sys_("Unsupervised Learning")], tools=[tool("Python")],
                           deck=["Neuron", "Sensor", "Embedding"]))
    game.apply("task Unsupervised Learning")
    assert game.tokens[0] == 2
    assert legal(game) == {"choose order neuron, sensor", "choose order sensor, neuron"}
    play(game, "choose order Sensor, Neuron", "use Python")
    assert hand(game, 0) == ["Sensor"]
    assert stat(game, 0, "Deck") == 2


def test_unsupervised_learning_with_one_card_has_nothing_to_order():
    game = start(p0=player(systems=[sys_("Unsupervised Learning")], deck=["Neuron"]))
    game.apply("task Unsupervised Learning")
    assert game.pending is None
    assert game.tokens[0] == 2
    assert stat(game, 0, "Deck") == 1
    assert stat(game, 0, "Hand") == 0


def test_gpt_draws_then_discards():
    game = start(p0=player(hand=["Chatbot"], systems=[sys_("GPT")], deck=["Neuron", "Sensor"]))
    game.apply("task GPT")
    assert game.tokens[0] == 2
    assert legal(game) == {"choose chatbot", "choose neuron"}
    game.apply("choose Chatbot")
    assert hand(game, 0) == ["Neuron"]
    assert stat(game, 0, "Discard") == 1
    assert stat(game, 0, "Deck") == 1


def test_diffusion_model_removes_a_flag_from_itself_when_it_tasks():
    game = start(p0=player(systems=[sys_("Diffusion Model", flags=1)]))
    game.apply("task Diffusion Model")
    assert game.tokens[0] == 2
    assert flags(game, "Diffusion Model", 0) == 0


def test_reinforcement_learning_gives_a_token_when_deprecated():
    game = start(p0=player(systems=[sys_("Reinforcement Learning")]),
                 p1=player(tokens=4, systems=[sys_("Neural Network", exerted=True)]))
    game.apply("audit Reinforcement Learning -> Neural Network")  # 4 vs 3: both go
    assert stat(game, 0, "Systems") == 0 and stat(game, 1, "Systems") == 0
    assert tuple(game.tokens) == (1, 4)


def test_reinforcement_learning_token_goes_to_its_controller_on_the_opponents_turn():
    game = start(p0=player(hand=["Bias in Data"], training_set={"ready": 1}),
                 p1=player(systems=[sys_("Reinforcement Learning", flags=1)]))
    game.apply("deploy Bias in Data -> Reinforcement Learning")
    assert stat(game, 1, "Discard") == 1
    assert tuple(game.tokens) == (0, 1)


def test_data_center_discards_the_top_training_set_card_when_it_tasks():
    game = start(p0=player(systems=[sys_("Data Center")], training_set={"ready": 1, "exerted": 1}))
    game.apply("task Data Center")
    assert game.pending is None  # mandatory: no question
    assert game.tokens[0] == 3
    assert stat(game, 0, "Training Set") == 1
    assert stat(game, 0, "Data ready") == 0  # the ready one went
    assert stat(game, 0, "Discard") == 1


def test_data_center_with_an_empty_training_set_discards_nothing():
    game = start(p0=player(systems=[sys_("Data Center")]))
    game.apply("task Data Center")
    assert game.tokens[0] == 3
    assert stat(game, 0, "Discard") == 0


def test_digital_divide_scores_its_three_tokens():
    game = start(p0=player(tokens=4, systems=[sys_("Digital Divide")]))
    game.apply("task Digital Divide")
    assert tuple(game.tokens) == (7, 0)


def test_alignment_removes_a_flag_from_another_system_you_choose():
    game = start(p0=player(systems=[sys_("Alignment", flags=1), sys_("Neural Network", flags=1),
                                    sys_("Embedding", flags=2)]),
                 p1=player(systems=[sys_("Accountability", flags=1)]))
    game.apply("task Alignment")
    assert game.tokens[0] == 3
    assert legal(game) == {"choose neural network", "choose embedding"}
    game.apply("choose Embedding")
    assert flags(game, "Embedding", 0) == 1
    assert flags(game, "Neural Network", 0) == 1
    assert flags(game, "Alignment", 0) == 1  # "another" System
    assert flags(game, "Accountability", 1) == 1  # one you control


def test_alignment_with_one_flagged_system_needs_no_choice():
    game = start(p0=player(systems=[sys_("Alignment", flags=1), sys_("Neural Network", flags=1),
                                    sys_("Embedding")]))
    game.apply("task Alignment")
    assert game.pending is None
    assert flags(game, "Neural Network", 0) == 0
    assert flags(game, "Alignment", 0) == 1


def test_alignment_with_no_other_flags_does_nothing_more():
    game = start(p0=player(systems=[sys_("Alignment", flags=2), sys_("Embedding")]))
    game.apply("task Alignment")
    assert game.pending is None
    assert game.tokens[0] == 3
    assert flags(game, "Alignment", 0) == 2
    assert flags(game, "Embedding", 0) == 0
