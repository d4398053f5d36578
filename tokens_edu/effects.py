"""What each card does: the one place where a card's mechanic lives.

:data:`EFFECTS` maps a card name to its :class:`Effect`. Cards that print the same mechanic
(the five "can't Run a Task" Actions, the five Tool removers) share one Effect object. Keywords
(Fast-Tracked, Highly Trusted, Adversarial, Legacy, Big Data) are rules of the game, applied in
:mod:`tokens_edu.game` from the card data; a card with no entry here has no other ability.

An effect talks to the game only through the small set of ``Game._...`` helpers named in
:class:`Effect`'s docstring (draw, gain Tokens, add Flags, ask a player to choose...).
Choices inside an effect are asked with ``game._ask(...)`` and answered by the effect's
``answers[step]`` function, so every choice is a legal ``choose ...`` action (R23).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["Effect", "EFFECTS", "effect_of", "TARGET_KINDS"]

#: What a targeted Action (on deploy) or Tool (on use) may aim at.
TARGET_KINDS = {
    "opp_system": "a System your opponent controls",
    "any_system": "a System in play (either side)",
    "any_tool": "a Tool in play (either side)",
    "hot_system": "a System whose Capability is greater than its Trust",
    "own_new_system": "a System you deployed this turn",
    "own_discard_action": "an Action card in your discard pile",
}


@dataclass(frozen=True)
class Effect:
    """A card's mechanic.

    Attributes:
        target: what the card aims at (a key of :data:`TARGET_KINDS`) or None (R18).
        resolve: ``f(game, player, card_id, target_id)`` run when an Action is deployed or a
            Tool is used (``{E}``, R17); ``target_id`` is an instance id or None.
        on_task: ``f(game, player, card_id)``: a System's trigger after it Runs a Task (R13).
        on_deprecated: ``f(game, player, card_id)``: a System's "when Deprecated" trigger (R15).
        answers: step name -> ``f(game, player, value, data)``: finishes a choice asked with
            ``game._ask(..., source=<card name>, step=<step>)`` (R23).
        usable: a Tool with an ``{E}`` ability (Model Card and Privacy Shield have none).
        shields_systems: Privacy Shield: opponents' Actions can't target its controller's
            Systems (R18).
        saves_from_deprecation: Model Card (R16).
    """

    target: str | None = None
    resolve: Callable | None = None
    on_task: Callable | None = None
    on_deprecated: Callable | None = None
    answers: dict = field(default_factory=dict)
    usable: bool = True
    shields_systems: bool = False
    saves_from_deprecation: bool = False


# --- Actions -------------------------------------------------------------------------------

def _draw_one(g: "Game", p: int, iid: int, target) -> None:
    g._draw(p, 1)


def _draw_then_discard(g: "Game", p: int, iid: int, target) -> None:
    """Draw 1, then discard 1 card from hand (GPT, CPU, Cognitive Offload)."""
    g._draw(p, 1)
    g._ask_discard(p, g.card_of(iid).name)


def _answer_discard(g: "Game", p: int, value: int, data) -> None:
    g._discard_from_hand(p, value)


def _no_task_next_turn(g: "Game", p: int, iid: int, target: int) -> None:
    g._bar_task_next_turn(target)


def _one_flag(g: "Game", p: int, iid: int, target: int) -> None:
    g._add_flags(target, 1)


def _lose_abilities(g: "Game", p: int, iid: int, target: int) -> None:
    g._lose_abilities(target)


def _remove_tool(g: "Game", p: int, iid: int, target: int) -> None:
    g._remove_tool(target, p)


def _move_top_to_training_set(n: int) -> Callable:
    def resolve(g: "Game", p: int, iid: int, target) -> None:
        for _ in range(n):
            if g._deck_to_training_set(p) is None:
                break
    return resolve


def _recall(g: "Game", p: int, iid: int, target) -> None:
    g._bar_all_tasks_next_turn(1 - p)


def _environmental_footprint(g: "Game", p: int, iid: int, target) -> None:
    for q in (p, 1 - p):
        g._discard_training_set_top(q)


def _regulation_debate(g: "Game", p: int, iid: int, target) -> None:
    options = [("mode a", "a")]
    if g._targets(p, "any_system", from_action=True):
        options.append(("mode b", "b"))
    g._ask(p, "Regulation Debate: choose mode a (each player may Train one extra card this turn) "
           "or mode b (a System can't be Audited this turn)", options, "Regulation Debate", "mode")


def _regulation_mode(g: "Game", p: int, value: str, data) -> None:
    if value == "a":
        g._allow_extra_train()
        return
    options = [(g._label(t, p), t) for t in g._targets(p, "any_system", from_action=True)]
    g._ask(p, "Regulation Debate: pick the System that can't be Audited this turn", options,
           "Regulation Debate", "target")


def _regulation_target(g: "Game", p: int, value: int, data) -> None:
    g._bar_audits_this_turn(value)


# --- Tools ---------------------------------------------------------------------------------

def _human_in_the_loop(g: "Game", p: int, iid: int, target: int) -> None:
    most = min(2, g._flags(target))
    options = [(f"{k} Flag" if k == 1 else f"{k} Flags", k) for k in range(most, -1, -1)]
    g._ask(p, f"Human-in-the-Loop: how many Flags to remove from {g._label(target, p)}?",
           options, "Human-in-the-Loop", "flags", (target,))


def _human_in_the_loop_flags(g: "Game", p: int, value: int, data) -> None:
    g._remove_flags(data[0], value)


def _feature_vector(g: "Game", p: int, iid: int, target) -> None:
    top = g._look(p, 2)
    g._ask_pick(p, top, "Feature Vector: pick a card to put in your hand (the other goes to the bottom)",
                "Feature Vector", "keep", tuple(top))


def _feature_vector_keep(g: "Game", p: int, value: int, data) -> None:
    g._deck_to_hand(p, value)
    for other in data:
        if other != value:
            g._deck_to_bottom(p, other)


def _tensor(g: "Game", p: int, iid: int, target) -> None:
    top = g._look(p, 1)
    if len(g._deck(p)) > 1:  # with one card (or none), top and bottom are the same place
        name = g.card_of(top[0]).name
        g._ask(p, f"Tensor: the top card of your deck is {name}. Leave it on top or put it on the bottom?",
               [("top", "top"), ("bottom", "bottom")], "Tensor", "where", (top[0],), secret=True)


def _tensor_where(g: "Game", p: int, value: str, data) -> None:
    if value == "bottom":
        g._deck_to_bottom(p, data[0])


def _cuda(g: "Game", p: int, iid: int, target: int) -> None:
    g._boost(target, 1)


def _gpu(g: "Game", p: int, iid: int, target: int) -> None:
    g._enable_now(target)


def _ram(g: "Game", p: int, iid: int, target: int) -> None:
    g._discard_to_deck_top(p, target)


def _fairness_check(g: "Game", p: int, iid: int, target: int) -> None:
    g._add_flags(target, 1)


# --- System triggers -----------------------------------------------------------------------

def _human_trainer(g: "Game", p: int, iid: int) -> None:
    g._ask(p, "The Human Trainer: move the top card of your deck into your Training Set?",
           [("yes", True), ("no", False)], "The Human Trainer", "train", may=True)


def _human_trainer_answer(g: "Game", p: int, value: bool, data) -> None:
    if value:
        g._deck_to_training_set(p)


def _look_and_keep(n: int, name: str) -> Callable:
    def on_task(g: "Game", p: int, iid: int) -> None:
        top = g._look(p, n)
        g._ask_pick(p, top, f"{name}: pick a card to put in your hand (the others stay on top)",
                    name, "keep", tuple(top))
    return on_task


def _keep_one(g: "Game", p: int, value: int, data) -> None:
    g._deck_to_hand(p, value)


def _diffusion(g: "Game", p: int, iid: int) -> None:
    g._remove_flags(iid, 1)


def _unsupervised(g: "Game", p: int, iid: int) -> None:
    top = g._look(p, 2)
    if len(top) < 2:
        return
    a, b = top
    na, nb = g.card_of(a).name, g.card_of(b).name
    options = [(f"order {na}, {nb}", (a, b))]
    if na != nb:
        options.append((f"order {nb}, {na}", (b, a)))
    g._ask(p, "Unsupervised Learning: put the top 2 cards back in the order you want (top card first)",
           options, "Unsupervised Learning", "order", secret=True)


def _unsupervised_order(g: "Game", p: int, value: tuple, data) -> None:
    g._set_deck_top(p, value)


def _data_center(g: "Game", p: int, iid: int) -> None:
    g._discard_training_set_top(p)


def _alignment(g: "Game", p: int, iid: int) -> None:
    options = [(g._label(s, p), s) for s in g._systems(p) if s != iid and g._flags(s) > 0]
    g._ask(p, "Alignment: pick another of your Systems to remove 1 Flag from", options, "Alignment", "flag")


def _alignment_flag(g: "Game", p: int, value: int, data) -> None:
    g._remove_flags(value, 1)


def _reinforcement_learning(g: "Game", p: int, iid: int) -> None:
    g._gain(p, 1, "Reinforcement Learning")


# --- The table ----------------------------------------------------------------------------

_NO_TASK = Effect(target="opp_system", resolve=_no_task_next_turn)
_TOOL_REMOVAL = Effect(target="any_tool", resolve=_remove_tool)
_DRAW_DISCARD_ANSWERS = {"discard": _answer_discard}

EFFECTS: dict[str, Effect] = {
    # green
    "The Human Trainer": Effect(on_task=_human_trainer, answers={"train": _human_trainer_answer}),
    "Human-in-the-Loop": Effect(target="any_system", resolve=_human_in_the_loop,
                                answers={"flags": _human_in_the_loop_flags}),
    "AI Career Path": Effect(resolve=_draw_one),
    "Manual Override": _NO_TASK,
    "AI Isn't Magic": Effect(target="any_system", resolve=_lose_abilities),
    "Python": Effect(resolve=_draw_one),
    "Defunct": _TOOL_REMOVAL,
    # blue
    "Feature Vector": Effect(resolve=_feature_vector, answers={"keep": _feature_vector_keep}),
    "Search Tree": Effect(on_task=_look_and_keep(3, "Search Tree"), answers={"keep": _keep_one}),
    "Ambiguous Input": _NO_TASK,
    "Discontinued": _TOOL_REMOVAL,
    # black
    "Training Data": Effect(resolve=_move_top_to_training_set(2)),
    "Bias in Data": Effect(target="opp_system", resolve=_one_flag),
    "Reinforcement Learning": Effect(on_deprecated=_reinforcement_learning),
    "Retraining Pause": _NO_TASK,
    "Tensor": Effect(resolve=_tensor, answers={"where": _tensor_where}),
    "CUDA": Effect(target="any_system", resolve=_cuda),
    "ImageNet": Effect(resolve=_move_top_to_training_set(3)),
    "Diffusion Model": Effect(on_task=_diffusion),
    "Unsupervised Learning": Effect(on_task=_unsupervised, answers={"order": _unsupervised_order}),
    "Transformer": Effect(on_task=_look_and_keep(2, "Transformer"), answers={"keep": _keep_one}),
    "GPT": Effect(on_task=lambda g, p, iid: _draw_then_discard(g, p, iid, None), answers=_DRAW_DISCARD_ANSWERS),
    "GPU": Effect(target="own_new_system", resolve=_gpu),
    "CPU": Effect(resolve=_draw_then_discard, answers=_DRAW_DISCARD_ANSWERS),
    "RAM": Effect(target="own_discard_action", resolve=_ram),
    "Outdated": _TOOL_REMOVAL,
    # white
    "Fairness Check": Effect(target="hot_system", resolve=_fairness_check),
    "Model Card": Effect(usable=False, saves_from_deprecation=True),
    "Privacy Shield": Effect(usable=False, shields_systems=True),
    "Compliance Review": _NO_TASK,
    "Mandatory Recall": Effect(resolve=_recall),
    "Expired": _TOOL_REMOVAL,
    # red
    "Job Disruption": _NO_TASK,
    "Environmental Footprint": Effect(resolve=_environmental_footprint),
    "Regulation Debate": Effect(resolve=_regulation_debate,
                                answers={"mode": _regulation_mode, "target": _regulation_target}),
    "Cognitive Offload": Effect(resolve=_draw_then_discard, answers=_DRAW_DISCARD_ANSWERS),
    "Data Center": Effect(on_task=_data_center),
    "Obsolete": _TOOL_REMOVAL,
    # any
    "Alignment": Effect(on_task=_alignment, answers={"flag": _alignment_flag}),
}
# Keyword-only cards (Fast-Tracked, Highly Trusted, Adversarial, Big Data) and Digital Divide
# (its Tokens can't be reduced; no Alpha card reduces Tokens) need no entry: the keyword rules
# live in tokens_edu.game, read from the card data.

_NONE = Effect()


def effect_of(name: str) -> Effect:
    """The :class:`Effect` of the card called ``name`` (an empty Effect for vanilla cards)."""
    return EFFECTS.get(name, _NONE)
