"""Where the kit's own files are: the card file, the cards' pictures and the lessons folder.

The repository keeps them in the top-level folders ``cards/`` and ``lessons/``. A wheel
(``pip install tokens-edu``, or ``pip install .`` from a checkout) carries copies of both inside
the package, at ``tokens_edu/_bundle/cards/`` and ``tokens_edu/_bundle/lessons/``; ``setup.py``
copies them there when the wheel is built. This module finds them with
:mod:`importlib.resources`, so the same code works in a wheel and in a source checkout (or an
editable install, ``pip install -e .``, which reads the top-level folders directly, so an edit to
a lesson shows at once).

The bundled lessons are read-only for teachers (they sit among the installed packages and are
replaced by an upgrade): ``tokens-edu lessons copy DIR`` makes an editable copy, see
:func:`copy_lessons`.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
import shutil
from pathlib import Path

__all__ = ["card_file", "icons_dir", "lessons_dir", "copy_lessons", "BUNDLED_FOLDERS"]

#: The top-level folders of the repository that the wheel carries inside the package.
BUNDLED_FOLDERS = ("cards", "lessons")
#: What never belongs in a copy of the lessons (editor leftovers, caches, hidden files).
_IGNORED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc", ".*")

_extracted = contextlib.ExitStack()  # only used when the package is inside a zip file
atexit.register(_extracted.close)


def _folder(name: str) -> Path:
    """The real folder of the bundled ``name`` (``"cards"`` or ``"lessons"``).

    The copy inside the package (a wheel) when there is one, else the checkout's top-level
    folder next to the package folder. A package imported from a zip file is extracted to a
    temporary folder once (Voila needs real files).
    """
    inside = importlib.resources.files("tokens_edu").joinpath("_bundle", name)
    if inside.is_dir():
        if isinstance(inside, Path):
            return inside
        return Path(_extracted.enter_context(importlib.resources.as_file(inside)))
    return Path(__file__).resolve().parents[2] / name  # tokens_edu/content/bundle.py -> the checkout


def card_file() -> Path:
    """The Alpha Set's card file, ``cards/alpha-set.yaml`` (a Path; it may not exist when the
    package was installed without its data, which :func:`tokens_edu.load_cards` reports)."""
    return _folder("cards") / "alpha-set.yaml"


def icons_dir() -> Path:
    """The folder of the cards' pictures, ``cards/icons/`` (a Path): one ``<icon>.svg`` per
    picture, with the icon set's LICENSE and README (see :func:`tokens_edu.content.cards.card_picture`)."""
    return _folder("cards") / "icons"


def lessons_dir() -> Path:
    """The folder of the kit's lessons (``lessons/``: the notebooks and their ``scenarios/``).

    Returns:
        Path: inside the installed package for a wheel, else the checkout's ``lessons/``.
    """
    return _folder("lessons")


def copy_lessons(dest: str | Path, overwrite: bool = False) -> tuple[list[Path], list[Path]]:
    """Copy the kit's lessons (notebooks and scenarios) into the folder ``dest``, to edit them.

    Args:
        dest: the folder to copy into (str or Path); made when missing, with its parents.
        overwrite: False (the default) keeps every file that is already in ``dest`` (a teacher's
            edited lesson is never lost) and reports it as kept; True replaces them.

    Returns:
        (copied, kept): the files written and the files left as they were, as Paths inside
        ``dest``, in name order.

    Raises:
        ValueError: ``dest`` is a file, is the bundled lessons folder itself, cannot be made, or
            a file cannot be written (the message names it, in plain words).
    """
    src = lessons_dir()
    dest = Path(dest).expanduser().resolve()
    if not src.is_dir():
        raise ValueError(f"The kit's lessons are missing (looked in {src}). Reinstall tokens-edu.")
    if dest.exists() and not dest.is_dir():
        raise ValueError(f"{dest} is a file, not a folder. Give a folder to copy the lessons into.")
    if dest == src.resolve():
        raise ValueError(f"{dest} is where the kit keeps its own lessons. Copy them to another folder.")
    copied: list[Path] = []
    kept: list[Path] = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for path in sorted(src.rglob("*")):
            rel = path.relative_to(src)
            if path.is_dir() or _IGNORED(str(path.parent), [path.name]) or any(
                    _IGNORED(str(src), [part]) for part in rel.parts[:-1]):
                continue
            target = dest / rel
            if target.exists() and not overwrite:
                kept.append(target)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            copied.append(target)
    except OSError as e:
        where = e.filename or dest
        raise ValueError(f"Cannot copy the lessons to {where}: {e.strerror or e}.") from None
    return copied, kept
