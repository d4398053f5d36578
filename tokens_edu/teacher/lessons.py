"""Which Discuss questions each lesson asks, read from the lesson notebooks' metadata.

A lesson's Discuss cell carries, in its cell metadata, the card it asks about::

    {"tokens_edu": {"discuss": "Deepfake"}}

and the lesson's name is its file name without ``.ipynb`` (the name its
``PageSession("...")`` uses; ``tests/lessons`` checks both). The progress grid shows these
questions as columns before anyone has answered. The convention is written down for lesson
writers in docs/teacher-guide.md ("Your own lessons on the dashboard").

No code is read: the notebooks are JSON, and only the metadata is looked at.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["METADATA_KEY", "DISCUSS_KEY", "lesson_prompts"]

#: The key of the kit's own cell metadata.
METADATA_KEY = "tokens_edu"
#: Under it: the name of the card a Discuss cell asks about.
DISCUSS_KEY = "discuss"


def lesson_prompts(folder) -> list[tuple[str, str]]:
    """The Discuss questions each lesson asks, in lesson then page order: (lesson, card) pairs.

    Args:
        folder: the lessons folder (Path or str); None or a missing folder gives ``[]``.

    Returns:
        list of (lesson name, card name) pairs, from the cells whose metadata has
        ``{"tokens_edu": {"discuss": "<card>"}}``. Unreadable notebooks are skipped.
    """
    if folder is None or not Path(folder).is_dir():
        return []
    out: list[tuple[str, str]] = []
    for path in sorted(Path(folder).glob("*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError):
            continue
        for cell in cells if isinstance(cells, list) else []:
            meta = cell.get("metadata") if isinstance(cell, dict) else None
            ours = meta.get(METADATA_KEY) if isinstance(meta, dict) else None
            card = ours.get(DISCUSS_KEY) if isinstance(ours, dict) else None
            if isinstance(card, str) and card.strip() and (path.stem, card.strip()) not in out:
                out.append((path.stem, card.strip()))
    return out
