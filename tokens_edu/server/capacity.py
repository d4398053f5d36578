"""The class cap: how many pages may hold a kernel, and who gives way when the class is full.

A page holds a kernel (about 60-75 MiB) from the moment it is asked for. Past ``max_students``
pages, or when the free memory would not hold one more kernel, a new page is told "The class
is full right now: wait a minute and reload" (:mod:`.pages`) instead of the computer running
out of memory. Before saying so:

* **the cap counts students, not tabs** (:meth:`~.state.ServeState.students`): a student is a
  browser (its secret, told by the page's first script, then a cookie on its next pages) or a
  class-list code in the page's address; up to ``student_tabs`` (3) tabs of one student count
  once. A page whose student is not known yet counts alone.
* warm kernels of pages nobody is using give way to the student (:func:`is_full`);
* **each computer has its share** (:func:`take_back`): at the cap, a computer (a client
  address) holding more pages than the cap shared out among the computers that hold pages
  (and the one asking) gives its oldest page back, one never opened first. Six tabs or a script
  on one computer can no longer keep classmates out, whatever they send; a page's first
  script ("hello") keeps a kernel only while its browser is connecting (``hello_timeout``).
  Behind a proxy or a NAT every student has the same address: the server sees one computer,
  which then holds the whole class's share (the cap alone applies).
* otherwise, a client that holds more than ``client_pages`` pages whose widgets it never
  opened gives its oldest one back;
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


def is_full(state: ServeState, notebook: str | None = None, client: str | None = None,
            student: str | None = None) -> str | None:
    """Why a new page of ``notebook`` cannot get a kernel now (``"cap"`` or ``"memory"``), or None.

    When the page will start a kernel of its own and this computer is at its kernel limit or
    short of memory, warm kernels of other pages give way first (students come before warm
    kernels). At the cap, a computer holding more than its share gives its oldest page back
    first (:func:`take_back`).

    Args:
        state: the server's state.
        notebook: the page asked for.
        client: the address asking (a computer), or None when unknown.
        student: who asks, as :attr:`~.state.Page.student` (a tab of a student who already
            has pages may not count as one more student), or None.
    """
    settings = state.settings
    cap = int(settings["max_students"])
    if cap and state.students(student, new=True) > cap and not take_back(state, client):
        return "cap"
    km = state.km
    own = not (km is not None and notebook and km.get_pool_size(notebook) > 0)
    limit = int(settings["max_kernels"])
    free = mem_available_mib()
    need = float(settings["min_free_mib"]) + (state.kernel_size.mib if own else 0.0)
    short = free is not None and free < need
    over = bool(limit) and state.kernels() + state.warm() >= limit
    if own and (short or over) and km is not None and hasattr(km, "make_room"):
        if km.make_room(1, keep=notebook):
            return None
    if short and (own or free < float(settings["min_free_mib"])):
        return "memory"
    return None


def take_back(state: ServeState, client: str | None = None) -> bool:
    """At the cap, make room for a page asked for by ``client``, fairly. Returns True when a
    kernel was given back.

    1. **Each computer's share**: the cap shared out among the computers (client addresses)
       that hold pages, and ``client``: ``max(1, cap // computers)``. The computer holding the
       most students (counted as the cap counts them: a student's tabs once), when that is
       more than its share, gives a page back: never opened first, then the oldest.
    2. Else the client holding the most pages whose browser never connected (served more than
       :data:`UNOPENED_GRACE_S` ago) gives its oldest one back, when it holds more than
       ``client_pages`` of them.
    """
    km = state.km
    if km is None:
        return False
    cap = int(state.settings["max_students"])
    tabs = max(1, int(state.settings["student_tabs"]))
    held: dict[str, dict[object, list[str]]] = {}  # computer -> student -> its pages
    for kernel_id, page in state.pages.items():
        who = page.student or ("page", kernel_id)
        held.setdefault(page.client or "?", {}).setdefault(who, []).append(kernel_id)

    def students(pages_of: dict) -> int:
        return sum(-(-len(ids) // tabs) for ids in pages_of.values())

    if cap and held:
        share = max(1, cap // len(set(held) | {client or "?"}))
        most, computer = max((students(of), who) for who, of in held.items())
        if most > share:
            def order(kernel_id: str):
                page = state.pages[kernel_id]
                served = page.served if page.served is not None else float("inf")
                return (page.opened, served, page.since)

            # a page whose going counts one student less (a tab of a student with other tabs
            # may not), never opened first, then the oldest
            of = held[computer]
            helps = [k for ids in of.values() if len(ids) % tabs == 1 or tabs == 1 for k in ids]
            victim = min(helps or [k for ids in of.values() for k in ids], key=order)
            _give_back(state, km, victim, "from a computer over its share")
            log.debug("Took back a page of %s: it held %d students' pages, its share is %d",
                      computer, most, share)
            return True
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
    _give_back(state, km, kernel_id, "unopened")
    log.debug("Took back kernel %s: %s held %d unopened pages at the cap", kernel_id, client, len(held))
    return True


def _give_back(state: ServeState, km, kernel_id: str, why: str) -> None:
    state.forget(kernel_id)  # counts no more, at once; its kernel stops in the background
    asyncio.ensure_future(stop_quietly(km, kernel_id))
    state.count(why, 1)
