"""The page's browser: a random secret its front end keeps, stored only as a hash.

Without a class list or a login, a name typed on a lesson page (or put in its link,
``?student=Bo``) is not proof of who is at the page. So a page with such a name reads back only
what its own browser wrote: each browser makes a random secret once, keeps it in its
``localStorage`` and sends it to the kernel (:class:`tokens_edu.widgets.browser.BrowserKey`); the
store keeps only its SHA-256 (:func:`browser_hash`) with each answer, draft, response, drawing
and game (a :class:`~tokens_edu.store.Writer`'s ``browser``). What this does not cover: two
students sharing one browser profile share its secret, and a private window forgets it when
closed. A class list (or JupyterHub) closes both gaps, because the name is then proven.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["browser_hash", "SECRET"]

#: A browser's secret as its front end makes it: 22 to 128 letters, digits, ``-`` or ``_``.
SECRET = re.compile(r"[A-Za-z0-9_-]{22,128}")


def browser_hash(secret: object) -> str:
    """What is stored for a browser's secret: its SHA-256, 64 hex digits.

    Args:
        secret: the secret the page's front end sent (22 to 128 of ``A-Z a-z 0-9 - _``).

    Raises:
        ValueError: ``secret`` is not such a string (nothing is stored then).
    """
    if not isinstance(secret, str) or not SECRET.fullmatch(secret):
        raise ValueError("That is not a browser's secret.")
    return hashlib.sha256(secret.encode("ascii")).hexdigest()
