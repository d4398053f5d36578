"""The teacher's guide (``docs/teacher-guide.md``) for the lesson page that shows it.

The start page links to ``teacher-guide.ipynb``, which shows the guide with
:func:`teacher_guide`. The guide is one Markdown file, so teachers can also read it on paper
or in any Markdown viewer.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["GUIDE_PATH", "teacher_guide_text", "teacher_guide"]


def _guide_path() -> Path:
    """The wheel's copy (``tokens_edu/_bundle/docs/``, see setup.py) when there is one, else
    the checkout's ``docs/teacher-guide.md``."""
    package = Path(__file__).resolve().parents[1]  # tokens_edu/
    inside = package / "_bundle" / "docs" / "teacher-guide.md"
    return inside if inside.is_file() else package.parent / "docs" / "teacher-guide.md"


#: Where the guide is: ``docs/teacher-guide.md`` of a checkout, or the wheel's copy.
GUIDE_PATH = _guide_path()


def teacher_guide_text(path: str | Path | None = None) -> str:
    """The guide's Markdown text.

    Args:
        path: another guide file; None reads :data:`GUIDE_PATH`.

    Returns:
        str: the whole file, as UTF-8 text.

    Raises:
        FileNotFoundError: the file is not there; the message says where it was looked for.
    """
    where = Path(path) if path is not None else GUIDE_PATH
    if not where.is_file():
        raise FileNotFoundError(f"The teacher's guide is not at {where}. It ships in the project's "
                                "docs folder as teacher-guide.md.")
    return where.read_text(encoding="utf-8")


def teacher_guide(path: str | Path | None = None):
    """The guide as an ``IPython.display.Markdown`` object to show in a notebook or on Voila.

    Args:
        path: another guide file; None reads :data:`GUIDE_PATH`.

    Returns:
        IPython.display.Markdown: the guide, or one plain sentence saying where to find it
        when the file is missing (a page never fails for a missing guide).
    """
    from IPython.display import Markdown

    try:
        return Markdown(teacher_guide_text(path))
    except (FileNotFoundError, UnicodeDecodeError) as e:
        return Markdown(str(e))
