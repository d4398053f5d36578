"""The class cap: how many pages may hold a kernel, and who gives way when the class is full.

A page holds a kernel (about 60-75 MiB) from the moment it is asked for. Past ``max_students``
pages, or when the free memory would not hold one more kernel, a new page is told "The class
is full right now: wait a minute and reload" (:mod:`.pages`) instead of the computer running
out of memory. Before saying so:

* warm kernels of pages nobody is using give way to the student (:func:`is_full`);
* at the cap, a client that holds more than ``client_pages`` pages whose widgets it never
  opened (a script asking for pages runs no browser; a browser's page that has not reached its
  kernel in ``unopened_timeout`` s counts too) gives its oldest one back (:func:`take_back`):
  six plain requests can no longer lock every student out;
* a page asked for at the cap waits up to :data:`FULL_GRACE_S` for a kernel to be freed (the
  student's own previous page is usually closing at that moment).
"""

from __future__ import annotations

import asyncio
import logging

from .memory import mem_available_mib
from .pools import stop_quietly
from .state import ServeState

__all__ = ["is_full", "take_back", "FULL_GRACE_S", "UNOPENED_GRACE_S"]

log = logging.getLogger("tokens-edu")

#: Seconds a page asked for at the class cap waits for a kernel to be freed before it is told
#: the class is full (the student's own previous page is usually closing at that moment).
FULL_GRACE_S = 3.0
#: Seconds after its HTML was sent that a page still counts as "its browser is connecting";
#: an unopened page older than this may be taken back at the cap.
UNOPENED_GRACE_S = 3.0


def is_full(state: ServeState, notebook: str | None = None) -> str | None:
    """Why a new page of ``notebook`` cannot get a kernel now (``"cap"`` or ``"memory"``), or None.

    When the page will start a kernel of its own and this computer is at its kernel limit or
    short of memory, warm kernels of other pages give way first (students come before warm
    kernels). At the cap, a client holding too many unopened pages gives one back first
    (:func:`take_back`).
    """
    settings = state.settings
    cap = int(settings["max_students"])
    if cap and state.students() >= cap and not take_back(state):
        return "cap"
    km = state.km
    own = not (km is not None and notebook and km.get_pool_size(notebook) > 0)
    limit = int(settings["max_kernels"])
    free = mem_available_mib()
    need = float(settings["min_free_mib"]) + (state.kernel_size.mib if own else 0.0)
    short = free is not None and free < need
    over = bool(limit) and state.students() + state.warm() >= limit
    if own and (short or over) and km is not None and hasattr(km, "make_room"):
        if km.make_room(1, keep=notebook):
            return None
    if short and (own or free < float(settings["min_free_mib"])):
        return "memory"
    return None


def take_back(state: ServeState) -> bool:
    """At the cap: the client holding the most pages whose browser never connected (served more
    than :data:`UNOPENED_GRACE_S` ago) gives its oldest one back, when it holds more than
    ``client_pages`` of them. Returns True when a kernel was given back."""
    km = state.km
    if km is None:
        return False
    now = asyncio.get_event_loop().time()
    slow = float(state.settings["unopened_timeout"])
    unopened: dict[str, list[tuple[float, str]]] = {}
    for kernel_id, page in state.pages.items():
        if page.opened or page.served is None:
            continue
        # no browser, or a browser whose page has not reached its kernel for a long time
        waited = now - page.served
        if (waited > UNOPENED_GRACE_S and page.hello is None) or waited > slow:
            unopened.setdefault(page.client or "?", []).append((page.served, kernel_id))
    if not unopened:
        return False
    client, held = max(unopened.items(), key=lambda item: len(item[1]))
    if len(held) <= int(state.settings["client_pages"]):
        return False
    kernel_id = min(held)[1]
    state.forget(kernel_id)  # counts no more, at once; its kernel stops in the background
    asyncio.ensure_future(stop_quietly(km, kernel_id))
    state.count("unopened", 1)
    log.debug("Took back kernel %s: %s held %d unopened pages at the cap", kernel_id, client, len(held))
    return True
