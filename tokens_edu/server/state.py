"""What the Voila side of ``tokens-edu serve`` knows: its settings, the pages that hold a kernel,
and the demand for each lesson (which lessons students are opening, and today's lesson).

One :class:`ServeState` is made by :func:`tokens_edu.server.voila.main` and handed to every part
that needs it (the kernel manager, the handlers, the watch); there is no module-level state.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import re
import time
from collections import deque
from collections.abc import Callable
from urllib.parse import parse_qs

from .memory import ESTIMATE_MIB, KernelSize
from .today import local_day

__all__ = ["DEFAULTS", "ServeState", "Demand", "Page", "current_page", "seat_of", "code_seat",
           "seat_from_cookie", "SEAT_COOKIE", "CLIENT_HEADER"]

#: The cookie that tells the server which student's browser asks for a page: a key made from
#: the browser's secret (:func:`seat_of`), set when the page's first script says hello. It only
#: lets a student's tabs count as one student at the class cap; it opens nothing.
SEAT_COOKIE = "tokens-edu-seat"
#: The request header by which the server tells a page's kernel the page's computer (the
#: address the page was asked from); the launcher has Voila pass it to kernels.
CLIENT_HEADER = "X-Tokens-Edu-Client"
_SEAT = re.compile(r"[0-9a-f]{32}")
_SECRET = re.compile(r"[A-Za-z0-9_-]{22,128}")
_CODE = re.compile(r"[A-Z0-9]{4,16}")


def seat_of(secret: object) -> str | None:
    """The key the class cap counts a browser by: 32 hex digits made from its secret (the same
    secret its pages' kernels use, :mod:`tokens_edu.session.browser`, but not the hash the
    answers store keeps), or None when ``secret`` is not a browser's secret."""
    if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
        return None
    return hashlib.sha256(b"tokens-edu-seat:" + secret.encode("ascii")).hexdigest()[:32]


def code_seat(query: str) -> str | None:
    """The student a page's address names by a class-list code (``?code=KT4PXM``: only that
    student holds it), as a key the class cap counts, or None. Spaces and dashes are ignored,
    letters made capitals, as the class list does (:func:`tokens_edu.store.roster.normalize_code`)."""
    values = parse_qs(query or "").get("code") or [""]
    code = re.sub(r"[\s-]", "", values[0]).upper()
    return f"code:{code}" if _CODE.fullmatch(code) else None


def seat_from_cookie(value: str | None) -> str | None:
    """The browser key of a :data:`SEAT_COOKIE` value, or None when it is not one."""
    return f"browser:{value}" if value and _SEAT.fullmatch(value) else None

#: The settings ``tokens-edu serve`` passes (JSON, see :func:`tokens_edu.server.voila.main`) and
#: their defaults.
DEFAULTS = {
    "step": 3.0,  # seconds between two warm kernels starting while students work
    "first_step": 1.5,  # the same while no student has a page (the server just started)
    "max_students": 0,  # pages with a kernel at once; 0: what the memory holds
    "max_kernels": 0,  # kernels (pages and warm ones) at most; 0: what the memory holds
    "kernel_mib": ESTIMATE_MIB,  # memory per kernel until this computer's kernels are measured
    "min_free_mib": 300,  # memory always left free for the system and the server (MiB)
    "hidden": ["scenarios"],  # folders of the lessons folder that are not browsable
    "page_timeout": 90,  # seconds a page may take to render once asked for
    "unopened_timeout": 20,  # a served page whose browser never connected gives its kernel back
    "gone_timeout": 120,  # a page whose browser went away (no connection) gives it back after
    "client_pages": 3,  # at the cap, pages one client holds without opening them
    "student_tabs": 3,  # pages (tabs) of one student that count as one student at the cap
    "hello_timeout": 60,  # a page whose browser said hello but never reached its kernel gives
    # it back after this (its own page says "could not reach its lesson" 30-45 s after loading)
    "cold_starts": 2,  # pages starting their own kernel at the same time (the others wait)
    "busy_share": 0.5,  # a page's kernel using more of one core than this goes behind the
    # others (tokens_edu.server.cpu); 0: kernels are left as they are
    "status_every": 60,  # seconds between status lines (only when something changed); 0: never
    # warm kernels (see Demand)
    "demand": True,  # warm kernels follow demand; False: the fixed sizes of "pools"
    "pools": {},  # notebook -> warm kernels, when fixed (--pool-size, --preheat-only)
    "pages": {},  # notebook -> "start" | "lesson" | "other" | "hidden"
    "class_size": 30,  # students in a class: the most warm kernels one page gets
    "start_warm": 10,  # warm kernels of the start page while nobody is arriving
    "lesson_warm": 1,  # warm kernels of a lesson nobody has opened
    "warm_mib": 1536,  # memory all warm kernels together may use (MiB; 0: no budget), so the
    # server waits for its class in under 2 GiB (a kernel that a page took no longer counts);
    # with today's lesson named, at least a warm kernel for every student (see warm_budget)
    "today": None,  # today's lesson (a notebook name), given at start
    "today_folder": None,  # the folder whose today.json may name it later (see .today)
    "kernel_log": None,  # file for the kernels' own output (their stderr and stdout)
    "memo_folder": None,  # where the measured kernel size is kept for the next start
    "certfile": None,  # HTTPS: the certificate (PEM); None: plain HTTP
    "keyfile": None,  # HTTPS: its private key (PEM; None: in the certificate's file)
    # one kernel's memory (see .limits): its data segment at most, and where the watch stops it
    "kernel_data_mib": 2048,
    "kernel_stop_mib": 768,
}

_page = contextvars.ContextVar("tokens_edu_page", default=None)


def current_page():
    """The page request being served in this task (a handler), or None."""
    return _page.get()


class Page:
    """A page that holds a kernel.

    Attributes:
        notebook: the notebook's name (relative to the lessons folder).
        client: the address the page was asked from.
        served: event loop time its HTML was all sent, or None while it is being sent.
        hello: event loop time a browser ran the page's first script (see :mod:`.pages`: a
            script asking for pages never runs one), or None.
        opened: True once a browser connected to its kernel.
        gone_since: loop time its browser's last connection closed (or, for a page whose
            browser said hello, since it has had none), or None.
        student: who the page is for, as the class cap counts students: ``"code:..."`` (a
            class-list code in its address), ``"browser:..."`` (its browser's key, from the
            :data:`SEAT_COOKIE` or its hello), or None (not known: the page counts alone).
        since: when the page got its kernel (``time.monotonic()``).
    """

    __slots__ = ("notebook", "client", "served", "hello", "opened", "gone_since", "student",
                 "since")

    def __init__(self, notebook: str | None, client: str | None, student: str | None = None):
        self.notebook, self.client, self.student = notebook, client, student
        self.served: float | None = None
        self.hello: float | None = None
        self.opened = False
        self.gone_since: float | None = None
        self.since = time.monotonic()


class Demand:
    """How many warm kernels each page should have now.

    * Today's lesson: one for each student of the class (:attr:`class_size`) who has no page
      of it yet, and at least :data:`SPARE` (a reload, a late student).
    * The start page (every student begins there): ``start_warm``, and while students arrive,
      as many as arrived in the last :data:`ARRIVING_S` seconds (up to the class size).
    * A lesson students are opening (a page asked for in the last :data:`IN_USE_S` seconds):
      2 more than asked for in the last :data:`ARRIVING_S` seconds, up to the class size.
    * Any other lesson: ``lesson_warm`` (1) while no lesson is today's, none once the teacher
      has named today's lesson (or when the memory is short: see :mod:`.pools`); other pages
      (the teacher's guide) and hidden ones: none until opened.

    With fixed sizes (``--pool-size`` or ``--preheat-only``) the sizes given are kept instead.
    """

    ARRIVING_S = 120.0
    IN_USE_S = 600.0
    SPARE = 2


    def __init__(self, settings: dict):
        self.settings = settings
        self.kinds: dict[str, str] = dict(settings.get("pages") or {})
        self.fixed: dict[str, int] = {k: int(v) for k, v in (settings.get("pools") or {}).items()}
        self.today: str | None = settings.get("today")
        self.asked: dict[str, deque] = {}
        #: pages of a notebook that hold a kernel now (the server's state sets it)
        self.open_pages: Callable[[str], int] = lambda notebook: 0

    @property
    def class_size(self) -> int:
        return max(1, int(self.settings["class_size"]))

    def note(self, notebook: str, now: float | None = None) -> None:
        """A page of ``notebook`` was asked for."""
        times = self.asked.setdefault(notebook, deque(maxlen=500))
        times.append(time.monotonic() if now is None else now)

    def recent(self, notebook: str, seconds: float, now: float | None = None) -> int:
        """Pages of ``notebook`` asked for in the last ``seconds``."""
        now = time.monotonic() if now is None else now
        return sum(1 for t in self.asked.get(notebook, ()) if now - t <= seconds)

    def target(self, notebook: str, now: float | None = None) -> int:
        """Warm kernels ``notebook`` should have now."""
        if not self.settings.get("demand", True):
            return self.fixed.get(notebook, self.fixed.get("default", 0))
        kind = self.kinds.get(notebook, "other")
        if kind == "hidden":
            return 0
        size = self.class_size
        if notebook == self.today:
            return min(size, max(self.SPARE, size - self.open_pages(notebook)))
        arriving = self.recent(notebook, self.ARRIVING_S, now)
        if kind == "start":
            return min(size, max(int(self.settings["start_warm"]), arriving))
        if self.recent(notebook, self.IN_USE_S, now):
            return min(size, arriving + 2)
        return int(self.settings["lesson_warm"]) if kind == "lesson" and not self.today else 0

    def rank(self, notebook: str, now: float | None = None) -> int:
        """Which warm kernels start first (lower first) and give way last: today's lesson and the
        start page, then lessons in use, then the rest."""
        if notebook == self.today or self.kinds.get(notebook) == "start":
            return 0
        if self.recent(notebook, self.IN_USE_S, now):
            return 1
        return 2


class ServeState:
    """What the handlers, the kernel manager and the watch share.

    Attributes:
        settings: the merged settings (see :data:`DEFAULTS`).
        km: the kernel manager, once made.
        pages: page kernel id -> :class:`Page`.
        waiting: requests that passed the cap check and have no kernel yet (``id(handler)``
            -> the student it is for, as :attr:`Page.student`).
        demand: the :class:`Demand` for warm kernels.
        kernel_size: the measured memory of one kernel (:class:`~.memory.KernelSize`).
        stopping: True once the server is stopping (no new kernels, no new pages).
        memory_stopped: page kernels the watch stopped for their memory (id -> loop time).
    """

    def __init__(self, settings: dict | None = None):
        self.settings = {**DEFAULTS, **(settings or {})}
        self.km = None
        self.pages: dict[str, Page] = {}
        self.waiting: dict[int, str | None] = {}
        self.demand = Demand(self.settings)
        #: the day (:func:`~.today.local_day`) today's lesson was named: it ends at midnight
        self.today_day: str | None = local_day() if self.demand.today else None
        self.demand.open_pages = lambda notebook: sum(1 for p in self.pages.values() if p.notebook == notebook)
        self.kernel_size = KernelSize(float(self.settings["kernel_mib"]))
        self.stopping = False
        self._cold: asyncio.Semaphore | None = None
        self.full_count = 0
        self.counters: dict[str, int] = {}
        #: kernel id -> loop time, for page kernels stopped for their memory (:mod:`.limits`):
        #: their page says why (the kernel status)
        self.memory_stopped: dict[str, float] = {}

    @property
    def cold(self) -> asyncio.Semaphore:
        """Pages that start a kernel of their own at once (the others wait their turn)."""
        if self._cold is None:
            self._cold = asyncio.Semaphore(max(1, int(self.settings["cold_starts"])))
        return self._cold

    def students(self, asking: str | None = None, new: bool = False) -> int:
        """Students the class cap counts now: the pages that hold a kernel and those getting
        one, a student's tabs counting once (up to ``student_tabs`` tabs; more count as one
        more student each such group), a page whose student is not known counting alone.

        Args:
            asking: the student of a page being asked for (see :attr:`Page.student`), counted
                with the others when ``new`` is True.
            new: count one more page, for ``asking`` (or for an unknown student).
        """
        per: dict[object, int] = {}
        for kernel_id, page in self.pages.items():
            key = page.student or ("page", kernel_id)
            per[key] = per.get(key, 0) + 1
        for handler, student in self.waiting.items():
            key = student or ("waiting", handler)
            per[key] = per.get(key, 0) + 1
        if new:
            key = asking or ("new",)
            per[key] = per.get(key, 0) + 1
        tabs = max(1, int(self.settings["student_tabs"]))
        return sum(-(-n // tabs) for n in per.values())

    def kernels(self) -> int:
        """Pages that hold a kernel now, plus pages that are getting one (every tab counts)."""
        return len(self.pages) + len(self.waiting)

    def warm_budget(self) -> int | None:
        """How many warm kernels there may be before students take them, or None when there is
        no budget (``warm_mib`` 0, or fixed pool sizes).

        What ``warm_mib`` holds at the measured kernel size; but once today's lesson is named,
        at least one for every student still to come plus the start page's (issue 29.9: at
        100 MiB a kernel, 1.5 GiB held 15 for a class of 30, and the other 15 waited seconds
        each). The free memory still decides: a kernel starts only when it fits
        (:meth:`.pools.kernel_manager`'s ``room``), so a small computer keeps fewer.
        """
        mib = float(self.settings.get("warm_mib") or 0)
        if not mib or not self.settings.get("demand", True):
            return None
        budget = int(mib // max(1.0, self.kernel_size.mib))
        today = self.demand.today
        if today:
            start = sum(self.demand.target(name) for name, kind in self.demand.kinds.items()
                        if kind == "start")
            budget = max(budget, self.demand.target(today) + start)
        return budget

    def warm(self) -> int:
        """Warm kernels (ready, starting or waiting their turn) over every page."""
        pools = getattr(self.km, "_pools", None) or {}
        return sum(len(pool) for pool in pools.values())

    def add_page_kernel(self, kernel_id: str, notebook: str | None = None) -> None:
        """A page got ``kernel_id`` (a warm one or its own)."""
        page = _page.get()
        client = student = None
        if page is not None:
            student = self.waiting.pop(id(page), None)
            page._tokens_kernel_id = kernel_id
            notebook = notebook or getattr(page, "_tokens_notebook", None)
            client = getattr(page.request, "remote_ip", None)
        self.pages[kernel_id] = Page(notebook, client, student)

    def forget(self, kernel_id: str) -> None:
        """``kernel_id`` was stopped: it no longer counts."""
        self.pages.pop(kernel_id, None)

    def count(self, what: str, n: int = 1) -> None:
        """Add ``n`` to a counter the status line reports (kernels given back, and why)."""
        self.counters[what] = self.counters.get(what, 0) + n

    @staticmethod
    def serving(handler):
        """Context for ``handler``'s request: :func:`current_page` returns it meanwhile."""
        return _PageContext(handler)


class _PageContext:
    def __init__(self, handler):
        self.handler = handler
        self.token = None

    def __enter__(self):
        self.token = _page.set(self.handler)
        return self.handler

    def __exit__(self, *exc):
        _page.reset(self.token)
        return False
