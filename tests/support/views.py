"""Shared helpers of the widget tests: a position with secrets on both sides, and what a page
holds (every widget state under a view, shown or not)."""

from __future__ import annotations

import json

#: Ada (player 0, to act) and Bo each hold cards the other must never see; Bo's deck too.
SECRET = {
    "title": "Secrets",
    "seed": 11,
    "active": 0,
    "turn": 4,
    "players": [
        {"name": "Ada", "hand": ["Sensor", "Neuron"], "deck": ["Chatbot", "Embedding", "Neuron"],
         "training_set": {"ready": 2, "exerted": 0},
         "systems": [{"card": "Neural Network"}]},
        {"name": "Bo", "hand": ["Mandatory Recall", "Informed Consent"],
         "deck": ["Red Teaming", "Fairness Check", "Accountability"],
         "training_set": {"ready": 1, "exerted": 0},
         "systems": [{"card": "Explainability", "exerted": True}],
         "tools": [{"card": "Tensor"}]},
    ],
}


def tree(widget) -> list:
    """The widget and every widget below it (children, Tab/Accordion pages)."""
    out, todo, seen = [], [widget], set()
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(w)
        todo.extend(getattr(w, "children", ()) or ())
    return out


def tree_state(view) -> str:
    """Every widget state in the view's tree, as one JSON text: what the page holds now."""
    return "\n".join(json.dumps(w.get_state(), default=str) for w in tree(view))
