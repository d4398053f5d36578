"""Cards and decks: the data file, R1 deck checks with every problem at once, deck files."""

from __future__ import annotations

import pytest

from tokens_edu import Card, Deck, DeckError, Game, load_cards, starter_decks
from tokens_edu.content.cards import COLORS
from tokens_edu.errors import CardDataError


def test_the_alpha_set_has_70_cards_with_their_printed_facts():
    pool = load_cards()
    assert len(pool) == 70
    nn = pool["Neural Network"]
    assert (nn.color, nn.type, nn.rarity, nn.cost, nn.tokens, nn.cap, nn.tru) == ("black", "System", "U", 2, 2, 4, 2)
    assert nn.trainable and not nn.legacy
    assert sum(c.is_system for c in pool.values()) == 40
    assert sum(c.color == "green" for c in pool.values()) == 14
    assert pool["CPU"].legacy and pool["Training Data"].big_data == 2 and pool["ImageNet"].big_data == 3
    assert pool["Agent"].has("Fast-Tracked") and pool["Safety Lab"].has("Highly Trusted")
    assert {c.color for c in pool.values()} == set(COLORS) | {"any"}


def test_card_lookup_ignores_case_and_suggests_close_names():
    pool = load_cards()
    assert pool["neural   NETWORK"] is pool["Neural Network"]
    with pytest.raises(KeyError, match="Did you mean Neural Network"):
        pool["Nueral Network"]
    assert "Chatbot" in pool and "Chatbott" not in pool


def test_cards_are_frozen_values():
    card = load_cards()["Chatbot"]
    with pytest.raises(AttributeError):
        card.cost = 9
    assert isinstance(hash(card), int) and "Chatbot" in repr(card)


def test_a_broken_card_file_is_refused_with_the_record_named(tmp_path):
    bad = tmp_path / "set.yaml"
    bad.write_text("- {name: Thing, color: purple, type: System, rarity: C, cost: 1, trainable: true}\n")
    with pytest.raises(CardDataError, match="purple"):
        load_cards(bad)
    bad.write_text("- {name: Thing, color: green, type: System, rarity: C, cost: 1, trainable: true, tokens: 1, cap: 1}\n")
    with pytest.raises(CardDataError, match="tru is needed"):
        load_cards(bad)


def test_a_vanilla_system_needs_only_data(tmp_path):
    """Adding a System with no rules text needs no code: it plays from the data file."""
    from tokens_edu import Game
    from tokens_edu.players import GreedyBot
    from tokens_edu.content.cards import DEFAULT_CARDS_PATH

    path = tmp_path / "set.yaml"
    path.write_text(DEFAULT_CARDS_PATH.read_text(encoding="utf-8") +
                    "- {name: Toy Robot, color: green, type: System, rarity: C, cost: 0, trainable: true, "
                    "tokens: 3, cap: 1, tru: 2}\n", encoding="utf-8")
    pool = load_cards(path)
    assert len(pool) == 71 and pool["Toy Robot"].tokens == 3
    names = ["Toy Robot", "Toy Robot"] + starter_decks()[0].names()[:24]
    deck = Deck.from_names(names, pool=pool).validate()
    game = Game.new(deck, deck, seed=3, turn_limit=30)
    bot = GreedyBot()
    robot_tokens = 0
    while not game.over:
        action = bot.choose(game)
        game.apply(action)
        if action.kind == "task" and action.card.startswith("Toy Robot"):
            robot_tokens += 3
    assert robot_tokens > 0, "the new System was deployed and Ran Tasks"


def test_r1_deck_error_names_every_problem_at_once():
    names = ["Chatbot"] * 3 + ["Classifier"] * 2 + ["Deepfake"] * 2 + ["Not Alive", "Agent"] + \
        ["Predictor", "Recommender", "Abstraction", "Search Tree", "Decision Tree", "Built-in AI", "Python",
         "AI Career Path", "Defunct", "Viral App", "AI Assistant", "Safety Lab", "Fast-Moving Lab", "Manual Override",
         "The Human Trainer", "Human-in-the-Loop", "Feature Vector"]
    deck = Deck.from_names(names)
    assert len(deck) == 26
    with pytest.raises(DeckError) as err:
        deck.validate()
    msg = str(err.value)
    assert "26 cards, but 3 copies of Chatbot (at most 2) and 3 colors (green, blue, red; at most 2)" in msg
    assert len(err.value.problems) == 2


def test_r1_too_small_and_any_color_cards_fit_every_deck():
    with pytest.raises(DeckError, match="24 cards"):
        Deck.from_names(starter_decks()[0].names()[:24]).validate()
    deck = Deck.from_names(starter_decks()[0].names()[:24] + ["AI Isn't Magic", "Alignment"])
    assert deck.validate() is deck and deck.colors == ["green", "blue"]


def test_unknown_names_suggest_the_closest_real_ones():
    with pytest.raises(DeckError, match="Did you mean Chatbot"):
        Deck.from_names(["Chatbto"])


def test_starter_decks_are_ten_legal_two_color_decks():
    decks = starter_decks()
    assert len(decks) == 10
    pairs = {tuple(d.colors) for d in decks}
    assert len(pairs) == 10 and all(len(p) == 2 for p in pairs)
    for d in decks:
        assert len(d) >= 25 and max(d.counts().values()) <= 2
        assert d.validate() is d


def test_deck_files_text_and_yaml(tmp_path):
    txt = tmp_path / "mine.txt"
    txt.write_text("# my deck\n2x Neural Network\n2 Sensor\nChatbot\n\n- Bias in Data\n")
    deck = Deck.from_file(txt)
    assert deck.name == "mine" and deck.counts() == {"Neural Network": 2, "Sensor": 2, "Chatbot": 1, "Bias in Data": 1}
    yml = tmp_path / "mine.yaml"
    yml.write_text("name: Robots\ncards:\n  - 2x Neural Network\n  - Sensor\n")
    deck = Deck.from_file(yml)
    assert deck.name == "Robots" and len(deck) == 3
    yml.write_text("Neural Network: 2\nSensor: 1\n")
    assert Deck.from_file(yml).counts() == {"Neural Network": 2, "Sensor": 1}
    assert Deck.from_text(starter_decks()[3].to_text()) == starter_decks()[3]
    bad = tmp_path / "bad.txt"
    bad.write_text("2x Neural Network\n1x Nonsense Card\n3x Chatbott\n")
    with pytest.raises(DeckError) as err:
        Deck.from_file(bad)
    assert "Nonsense Card" in str(err.value) and "Chatbot" in str(err.value)


def test_cards_compare_by_value():
    pool = load_cards()
    assert Card(**{f: getattr(pool["Chatbot"], f) for f in ("name", "color", "type", "rarity", "cost", "trainable",
                                                          "tokens", "cap", "tru", "keywords", "legacy", "big_data",
                                                          "number")}) == pool["Chatbot"]


def test_odd_inputs_to_the_card_and_deck_readers():
    with pytest.raises(CardDataError):
        load_cards(5)
    with pytest.raises(DeckError, match="0 copies"):
        Deck.from_names(["0x Chatbot"])
    with pytest.raises(KeyError) as err:
        load_cards()["Chatbto"]
    assert str(err.value) == "There is no card called 'Chatbto'. Did you mean Chatbot?"
    assert repr(Deck.from_names(["Chatbot"])) == "<Deck 'Deck': 1 card, green>"


# -- what students and their computers really type (newcomer review) ------------------------------
def test_deck_text_with_a_byte_order_mark_full_width_letters_and_counts_after_the_name():
    deck = starter_decks()[0]
    text = "\n".join(c.name for c in deck)
    assert list(Deck.from_text("\ufeff" + text)) == list(deck)  # Windows editors' "UTF-8"
    assert list(Deck.from_text(text.replace("Chatbot", "Ｃｈａｔｂｏｔ"))) == list(deck)
    assert [c.name for c in Deck.from_text("Chatbot x2\nSensor ×2")] == ["Chatbot"] * 2 + ["Sensor"] * 2


def test_deck_file_with_a_byte_order_mark_reads_and_a_latin1_file_says_so_plainly(tmp_path):
    deck = starter_decks()[0]
    good = tmp_path / "bom.txt"
    good.write_bytes("\ufeff".encode() + "\n".join(c.name for c in deck).encode())
    assert list(Deck.from_file(good)) == list(deck)
    bad = tmp_path / "latin.txt"
    bad.write_bytes("Chatbot\nCaf\xe9\n".encode("latin-1"))
    with pytest.raises(DeckError, match="not a text file in UTF-8"):
        Deck.from_file(bad)


def test_deck_messages_read_as_sentences():
    with pytest.raises(DeckError) as e:
        Deck.from_text("Sensr")
    assert str(e.value).endswith("Did you mean Sensor or Tensor?")  # not "?."
    with pytest.raises(DeckError) as e:
        Game.new(["Chatbot"], starter_decks()[0])
    assert "1 card (at least 25)" in str(e.value)


def test_a_seed_too_big_says_the_range():
    decks = starter_decks()
    with pytest.raises(ValueError, match="too big"):
        Game.new(decks[0], decks[1], seed=2 ** 80)
