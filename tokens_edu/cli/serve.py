"""``tokens-edu serve``: serve the lessons to a class with Voila (see :mod:`tokens_edu.server.launcher`)."""

from __future__ import annotations

from pathlib import Path

from ..server.launcher import (
    CLASS_SIZE,
    DEFAULT_LESSONS,
    DEFAULT_PORT,
    DEFAULT_REFILL_DELAY,
    FIRST_STEP,
    HOST,
    KERNEL_MIB,
    START_STEP,
    serve,
)
from .common import count, port

__all__ = ["add_command"]


def add_command(sub) -> None:
    """Add ``serve`` to ``sub`` (the ``add_subparsers()`` of ``tokens-edu``)."""
    parser = sub.add_parser(
        "serve",
        help="serve the lessons with Voila (one page per student)",
        description=(
            "Serve the lessons folder with Voila at http://127.0.0.1:PORT/. Each lesson keeps "
            "warm kernels that have already run it, so a class opening a page at once waits "
            "about a second: without options, up to 30 per lesson as the free memory allows, "
            "and warm kernels of unused lessons give way to students when memory is short "
            f"(each uses about {KERNEL_MIB} MiB; at the start they start one every "
            f"{FIRST_STEP} s, the lessons taking turns: 30 for each of 10 lessons, about 17 GiB, "
            "are all ready after about 8 minutes, a few per lesson after one). To start faster "
            "and use less "
            "memory, warm only today's lesson: --preheat-only 03-task-and-audit (30 ready "
            "after about 45 seconds). "
            "At most --max-students pages hold a kernel at once (default: what the free "
            "memory holds); past it a page asks the student to wait a minute and reload. "
            "The first lines say how many students this computer can hold. A closed or "
            "reloaded page gives its kernel back within seconds. Press Ctrl-C to stop."
        ),
    )
    parser.add_argument("--lessons", metavar="DIR", type=Path, default=DEFAULT_LESSONS,
                       help=f"folder of lesson notebooks (default: {DEFAULT_LESSONS})")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT,
                       help=f"port to listen on (default: {DEFAULT_PORT})")
    parser.add_argument("--host", default=HOST, metavar="ADDRESS",
                       help=f"address to listen on (default: {HOST}, this computer only). "
                            "0.0.0.0 lets other computers on the network open the lessons: "
                            "there is no login, so do that only on a school network you trust")
    parser.add_argument("--pool-size", type=count(0, 500), default=None, metavar="N",
                       help=f"warm kernels kept ready per lesson; 0 turns them off (default: "
                            f"up to {CLASS_SIZE}, as many as the free memory allows)")
    parser.add_argument("--max-students", type=count(1, 5000), default=None, metavar="N",
                       help="most lesson pages open at once; past it a page says the class is "
                            "full (default: what the free memory holds, at about "
                            f"{KERNEL_MIB} MiB a page)")
    parser.add_argument("--preheat-only", action="append", default=[], metavar="LESSON",
                       help="keep warm kernels only for this lesson (a notebook name, .ipynb "
                            "optional); repeat for more. Other lessons start a kernel per page.")
    parser.add_argument("--refill-delay", type=count(0, 3600), default=DEFAULT_REFILL_DELAY,
                       metavar="SECONDS",
                       help="wait this long after a warm kernel is taken before starting its "
                            f"replacement (then one more every {START_STEP} s), so a class "
                            "arriving together is not slowed down by new kernels starting; "
                            "no page ever waits for a replacement "
                            f"(default: {DEFAULT_REFILL_DELAY})")
    parser.add_argument("--cull-idle-timeout", type=count(0, 7 * 24 * 3600), default=600,
                       metavar="SECONDS",
                       help="stop the kernel of a page that lost its browser (a closed laptop, "
                            "a crashed tab) once idle this long; 0 never (default: 600). A page "
                            "that is closed or reloaded gives its kernel back at once.")
    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                       help="folder for saved Discuss answers (sets TOKENS_EDU_DATA for the "
                            "lessons; default: TOKENS_EDU_DATA or the per-user data folder)")
    parser.add_argument("--no-hints", action="store_true",
                       help="turn off the Hint button in every lesson for this class (sets "
                            "TOKENS_EDU_HINTS=off for the lessons; a page's link can also say "
                            "&hints=off)")
    parser.set_defaults(run=serve)
