"""What each card does: the one place where a card's mechanic lives.

:data:`EFFECTS` maps a card name to its :class:`Effect`. Cards that print the same mechanic
(the five "can't Run a Task" Actions, the five Tool removers) share one Effect. Keywords
(Fast-Tracked, Highly Trusted, Adversarial, Legacy, Big Data) are rules of the game, read from
the card data by :mod:`~tokens_edu.engine.rules`; a card with no entry here has no other ability.

An effect reaches the game only through the verbs of :mod:`~tokens_edu.engine.verbs` (draw,
gain, add Flags, ask a player to choose...) and the readers of :mod:`~tokens_edu.engine.rules`.
A choice inside an effect is asked with :func:`~tokens_edu.engine.verbs.ask` and answered by
the effect's ``answers[step]``, so every choice is a legal ``choose ...`` move (R23). The words
a chooser and the other players read about a choice are the effect's ``prompts``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import verbs as v
from .rules import targets
from .state import State

__all__ = ["Effect", "EFFECTS", "effect_of"]


#: ``resolve(state, player, card, target)``; ``on_task`` / ``on_deprecated(state, player, card)``;
#: ``answers[step](state, player, value, data)`` (see :class:`Effect`).
Resolve = Callable[[State, int, int, int], None]
Trigger = Callable[[State, int, int], None]
Answer = Callable[[State, int, Any, tuple], None]


class Effect:
    """A card's mechanic.

    Attributes:
        target: what the card aims at (one of :data:`~tokens_edu.engine.rules.TARGET_KINDS`),
            or None. An Action aims when deployed (R18), a Tool when used (R17).
        resolve: ``f(state, player, card, target)`` run when an Action is deployed or a Tool is
            used (``{E}``, R17); ``target`` is a card id or -1.
        on_task: ``f(state, player, card)``: a System's trigger after it Runs a Task (R13).
        on_deprecated: ``f(state, player, card)``: a System's "when Deprecated" trigger (R15).
        answers: step -> ``f(state, player, value, data)``: finishes a choice asked with
            ``verbs.ask(state, player, card, step, ...)`` (R23).
        prompts: step -> ``(to the chooser, to everyone else)``, two sentences with fields
            ``{player}`` (the chooser's name), ``{card}`` (this card's name), ``{0}``, ``{1}``...
            (the names of the cards in the choice's data, as the chooser sees them).
            The second never names a card only the chooser may see (R22).
        usable: a Tool with an ``{E}`` ability (Model Card and Privacy Shield have none).
        shields_systems: Privacy Shield: opponents' Actions can't target its controller's
            Systems (R18).
        saves_from_deprecation: Model Card (R16).
    """

    __slots__ = ("target", "resolve", "on_task", "on_deprecated", "answers", "prompts", "usable", "shields_systems",
                 "saves_from_deprecation")

    def __init__(self, target: str | None = None, resolve: Resolve | None = None, on_task: Trigger | None = None,
                 on_deprecated: Trigger | None = None, answers: dict[str, Answer] | None = None,
                 prompts: dict[str, tuple[str, str]] | None = None, usable: bool = True,
                 shields_systems: bool = False, saves_from_deprecation: bool = False) -> None:
        self.target: Final = target
        self.resolve: Final = resolve
        self.on_task: Final = on_task
        self.on_deprecated: Final = on_deprecated
        self.answers: Final[dict[str, Answer]] = answers if answers is not None else {}
        self.prompts: Final[dict[str, tuple[str, str]]] = prompts if prompts is not None else {}
        self.usable: Final = usable
        self.shields_systems: Final = shields_systems
        self.saves_from_deprecation: Final = saves_from_deprecation

    def __repr__(self) -> str:
        parts = [f"{name}={getattr(self, name)!r}" for name in self.__slots__
                 if getattr(self, name) != _DEFAULTS[name]]
        return f"Effect({', '.join(parts)})"


_DEFAULTS: Final[dict[str, Any]] = {"target": None, "resolve": None, "on_task": None, "on_deprecated": None,
                                    "answers": {}, "prompts": {}, "usable": True, "shields_systems": False,
                                    "saves_from_deprecation": False}


_DISCARD_PROMPT: Final = {"discard": ("{card}: pick a card from your hand to discard",
                               "{player} picks a card from their hand to discard.")}


# --- Actions -------------------------------------------------------------------------------
def _draw_one(s: State, p: int, x: int, target: int) -> None:
    v.draw(s, p, 1)


def _draw_then_discard(s: State, p: int, x: int, target: int = -1) -> None:
    """Draw 1, then discard 1 card from hand (GPT, CPU, Cognitive Offload)."""
    v.draw(s, p, 1)
    v.ask_discard(s, p, x)


def _answer_discard(s: State, p: int, value: int, data: tuple) -> None:
    v.discard_from_hand(s, p, value)


def _no_task_next_turn(s: State, p: int, x: int, target: int) -> None:
    v.bar_task_next_turn(s, target)


def _one_flag(s: State, p: int, x: int, target: int) -> None:
    v.add_flags(s, target, 1)


def _lose_abilities(s: State, p: int, x: int, target: int) -> None:
    v.lose_abilities(s, target)


def _remove_tool(s: State, p: int, x: int, target: int) -> None:
    v.remove_tool(s, target, p)


def _move_top_to_training_set(n: int) -> Resolve:
    def resolve(s: State, p: int, x: int, target: int) -> None:
        for _ in range(n):
            if v.deck_to_training_set(s, p) < 0:
                break
    return resolve


def _recall(s: State, p: int, x: int, target: int) -> None:
    v.bar_all_tasks_next_turn(s, 1 - p)


def _environmental_footprint(s: State, p: int, x: int, target: int) -> None:
    for q in (p, 1 - p):
        v.discard_training_set_top(s, q)


def _regulation_debate(s: State, p: int, x: int, target: int) -> None:
    options: list[str] = ["a"]
    if targets(s, p, "any_system", from_action=True):
        options.append("b")
    v.ask(s, p, x, "mode", options, "mode", (x,))


def _regulation_mode(s: State, p: int, value: str, data: tuple) -> None:
    if value == "a":
        v.allow_extra_train(s)
        return
    v.ask(s, p, data[0], "target", targets(s, p, "any_system", from_action=True), "in-play")


def _regulation_target(s: State, p: int, value: int, data: tuple) -> None:
    v.bar_audits_this_turn(s, value)


# --- Tools ---------------------------------------------------------------------------------
def _human_in_the_loop(s: State, p: int, x: int, target: int) -> None:
    most = min(2, s.flags[target])
    v.ask(s, p, x, "flags", list(range(most, -1, -1)), "flags", (target,))


def _human_in_the_loop_flags(s: State, p: int, value: int, data: tuple) -> None:
    v.remove_flags(s, data[0], value)


def _feature_vector(s: State, p: int, x: int, target: int) -> None:
    v.ask_pick(s, p, v.look(s, p, 2), x, "keep")


def _feature_vector_keep(s: State, p: int, value: int, data: tuple) -> None:
    v.deck_to_hand(s, p, value)
    for other in data:
        if other != value:
            v.deck_to_bottom(s, p, other)


def _tensor(s: State, p: int, x: int, target: int) -> None:
    if len(s.deck[p]) > 1:  # with one card (or none), top and bottom are the same place
        top = v.look(s, p, 1)[0]
        v.ask(s, p, x, "where", ("top", "bottom"), "top-bottom", (top,), secret=True)


def _tensor_where(s: State, p: int, value: str, data: tuple) -> None:
    if value == "bottom":
        v.deck_to_bottom(s, p, data[0])


def _cuda(s: State, p: int, x: int, target: int) -> None:
    v.boost(s, target, 1)


def _gpu(s: State, p: int, x: int, target: int) -> None:
    v.enable_now(s, target)


def _ram(s: State, p: int, x: int, target: int) -> None:
    v.discard_to_deck_top(s, p, target)


def _fairness_check(s: State, p: int, x: int, target: int) -> None:
    v.add_flags(s, target, 1)


# --- System triggers -----------------------------------------------------------------------
def _human_trainer(s: State, p: int, x: int) -> None:
    v.ask(s, p, x, "train", (True, False), "yes-no", may=True)


def _human_trainer_answer(s: State, p: int, value: bool, data: tuple) -> None:
    if value:
        v.deck_to_training_set(s, p)


def _look_and_keep(n: int) -> Trigger:
    def on_task(s: State, p: int, x: int) -> None:
        v.ask_pick(s, p, v.look(s, p, n), x, "keep")
    return on_task


def _keep_one(s: State, p: int, value: int, data: tuple) -> None:
    v.deck_to_hand(s, p, value)


def _diffusion(s: State, p: int, x: int) -> None:
    v.remove_flags(s, x, 1)


def _unsupervised(s: State, p: int, x: int) -> None:
    top = v.look(s, p, 2)
    if len(top) < 2:
        return
    a, b = top[0], top[1]
    options: list[tuple[int, int]] = [(a, b)]
    if s.name_id[a] != s.name_id[b]:
        options.append((b, a))
    v.ask(s, p, x, "order", options, "order", secret=True)


def _unsupervised_order(s: State, p: int, value: tuple, data: tuple) -> None:
    v.set_deck_top(s, p, value)


def _data_center(s: State, p: int, x: int) -> None:
    v.discard_training_set_top(s, p)


def _alignment(s: State, p: int, x: int) -> None:
    options = [y for y in s.systems[p] if y != x and s.flags[y] > 0]
    v.ask(s, p, x, "flag", options, "in-play")


def _alignment_flag(s: State, p: int, value: int, data: tuple) -> None:
    v.remove_flags(s, value, 1)


def _reinforcement_learning(s: State, p: int, x: int) -> None:
    v.gain(s, p, 1, source=x)


def _look_prompt(n: int) -> dict[str, tuple[str, str]]:
    return {"keep": ("{card}: pick a card to put in your hand (the others stay on top)",
                     f"{{player}} looks at the top {n} cards of their deck and picks one ({{card}}).")}


# --- The table ----------------------------------------------------------------------------
_NO_TASK: Final = Effect(target="opp_system", resolve=_no_task_next_turn)
_TOOL_REMOVAL: Final = Effect(target="any_tool", resolve=_remove_tool)
_DRAW_DISCARD: Final = Effect(resolve=_draw_then_discard, answers={"discard": _answer_discard}, prompts=_DISCARD_PROMPT)

EFFECTS: Final[dict[str, Effect]] = {
    # green
    "The Human Trainer": Effect(
        on_task=_human_trainer, answers={"train": _human_trainer_answer},
        prompts={"train": ("The Human Trainer: move the top card of your deck into your Training Set?",
                           "{player} decides whether The Human Trainer moves the top card of their deck "
                           "into their Training Set.")}),
    "Human-in-the-Loop": Effect(
        target="any_system", resolve=_human_in_the_loop, answers={"flags": _human_in_the_loop_flags},
        prompts={"flags": ("Human-in-the-Loop: how many Flags to remove from {0}?",
                           "{player} chooses how many Flags Human-in-the-Loop removes from {0}.")}),
    "AI Career Path": Effect(resolve=_draw_one),
    "Manual Override": _NO_TASK,
    "AI Isn't Magic": Effect(target="any_system", resolve=_lose_abilities),
    "Python": Effect(resolve=_draw_one),
    "Defunct": _TOOL_REMOVAL,
    # blue
    "Feature Vector": Effect(
        resolve=_feature_vector, answers={"keep": _feature_vector_keep},
        prompts={"keep": ("Feature Vector: pick a card to put in your hand (the other goes to the bottom)",
                          "{player} looks at the top 2 cards of their deck and picks one (Feature Vector).")}),
    "Search Tree": Effect(on_task=_look_and_keep(3), answers={"keep": _keep_one}, prompts=_look_prompt(3)),
    "Ambiguous Input": _NO_TASK,
    "Discontinued": _TOOL_REMOVAL,
    # black
    "Training Data": Effect(resolve=_move_top_to_training_set(2)),
    "Bias in Data": Effect(target="opp_system", resolve=_one_flag),
    "Reinforcement Learning": Effect(on_deprecated=_reinforcement_learning),
    "Retraining Pause": _NO_TASK,
    "Tensor": Effect(
        resolve=_tensor, answers={"where": _tensor_where},
        prompts={"where": ("Tensor: the top card of your deck is {0}. Leave it on top or put it on the bottom?",
                           "{player} looks at the top card of their deck (Tensor) and may put it on the bottom.")}),
    "CUDA": Effect(target="any_system", resolve=_cuda),
    "ImageNet": Effect(resolve=_move_top_to_training_set(3)),
    "Diffusion Model": Effect(on_task=_diffusion),
    "Unsupervised Learning": Effect(
        on_task=_unsupervised, answers={"order": _unsupervised_order},
        prompts={"order": ("Unsupervised Learning: put the top 2 cards back in the order you want (top card first)",
                           "{player} looks at the top 2 cards of their deck and puts them back in any order "
                           "(Unsupervised Learning).")}),
    "Transformer": Effect(on_task=_look_and_keep(2), answers={"keep": _keep_one}, prompts=_look_prompt(2)),
    "GPT": Effect(on_task=lambda s, p, x: _draw_then_discard(s, p, x), answers={"discard": _answer_discard},
                  prompts=_DISCARD_PROMPT),
    "GPU": Effect(target="own_new_system", resolve=_gpu),
    "CPU": _DRAW_DISCARD,
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
    "Regulation Debate": Effect(
        resolve=_regulation_debate, answers={"mode": _regulation_mode, "target": _regulation_target},
        prompts={"mode": ("Regulation Debate: choose mode a (each player may Train one extra card this turn) "
                          "or mode b (a System can't be Audited this turn)",
                          "{player} chooses a mode for Regulation Debate."),
                 "target": ("Regulation Debate: pick the System that can't be Audited this turn",
                            "{player} picks a System that can't be Audited this turn (Regulation Debate).")}),
    "Cognitive Offload": _DRAW_DISCARD,
    "Data Center": Effect(on_task=_data_center),
    "Obsolete": _TOOL_REMOVAL,
    # any
    "Alignment": Effect(
        on_task=_alignment, answers={"flag": _alignment_flag},
        prompts={"flag": ("Alignment: pick another of your Systems to remove 1 Flag from",
                          "{player} picks one of their Systems to remove 1 Flag from (Alignment).")}),
}
# Keyword-only cards (Fast-Tracked, Highly Trusted, Adversarial, Big Data) and Digital Divide
# (its Tokens can't be reduced; no Alpha card reduces Tokens) need no entry.

NO_EFFECT: Final = Effect()


def effect_of(name: str) -> Effect:
    """The :class:`Effect` of the card called ``name`` (an empty Effect for vanilla cards)."""
    return EFFECTS.get(name, NO_EFFECT)
