"""The page's browser: a random secret its front end keeps, stored only as a hash.

Without a class list or a login, a name typed on a lesson page (or put in its link,
``?student=Bo``) is not proof of who is at the page. So a page with such a name reads back only
what its own browser wrote: each browser makes a random secret once, keeps it in its
``localStorage`` and sends it to the kernel (:class:`tokens_edu.widgets.browser.BrowserKey`); the
store keeps only its SHA-256 (:func:`browser_hash`) with each answer, draft, response, drawing
and game (a :class:`~tokens_edu.store.Writer`'s ``browser``). What this does not cover: two
students sharing one browser profile share its secret, and a private window forgets it when
closed. A class list (or JupyterHub) closes both gaps, because the name is then proven.

**A secret is bound to its computer where the server can tell.** Under ``tokens-edu serve``
the page's kernel learns the page's computer (its address,
:func:`~tokens_edu.session.address.client_address`), and the hash kept is of the secret *and*
that address: a secret copied from Bo's browser to another computer (developer tools, a
script) shows none of Bo's work there. Where the server cannot tell computers apart (behind a
proxy or a school's NAT every page has one address; JupyterHub, where logins decide anyway),
the secret alone counts, as before. A computer whose address changes (a new network) no longer
sees its earlier work in the page; the work is kept and the teacher sees it.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["browser_hash", "SECRET"]

#: A browser's secret as its front end makes it: 22 to 128 letters, digits, ``-`` or ``_``.
SECRET = re.compile(r"[A-Za-z0-9_-]{22,128}")


def browser_hash(secret: object, computer: str = "") -> str:
    """What is stored for a browser's secret: its SHA-256, 64 hex digits; with ``computer``, of
    the secret bound to it (``"<secret>@<computer>"``).

    Args:
        secret: the secret the page's front end sent (22 to 128 of ``A-Z a-z 0-9 - _``).
        computer: the page's computer as the server saw it (its address), or ``""`` when the
            server cannot tell (see the module's words).

    Raises:
        ValueError: ``secret`` is not such a string (nothing is stored then).
    """
    if not isinstance(secret, str) or not SECRET.fullmatch(secret):
        raise ValueError("That is not a browser's secret.")
    text = f"{secret}@{computer}" if computer else secret
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
