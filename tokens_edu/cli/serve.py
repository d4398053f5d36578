"""``tokens-edu serve``: serve the lessons to a class with Voila (see :mod:`tokens_edu.server.launcher`)."""

from __future__ import annotations

from pathlib import Path

from ..server.launcher import (
    CLASS_SIZE,
    DEFAULT_LESSONS,
    DEFAULT_PORT,
    DEFAULT_REFILL_DELAY,
    GONE_TIMEOUT,
    HOST,
    START_STEP,
    START_WARM,
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
            "Serve the lessons folder with Voila at http://127.0.0.1:PORT/. Warm kernels (kernels "
            "that have already run a lesson, so its page opens at once) follow the class: the "
            f"start page keeps {START_WARM}, each lesson 1 (none once today's lesson is named), a "
            "lesson students are opening more, and today's lesson one for each student: name it "
            "with --today 03, or while the server runs with 'tokens-edu today 03'. Warm kernels "
            "nobody needs are given back. A kernel's memory is measured on this computer (about "
            "55-60 MiB for a lesson); a kernel starts only when the free memory holds it, and "
            "past --max-students students (default: what the memory "
            "holds) a page asks the student to wait a minute and reload. A closed or reloaded "
            "page gives its kernel back within seconds, a page whose browser went away (a "
            "closed laptop) within about three minutes. One server per data folder: a second is "
            "refused. Today's lesson lasts until midnight. Press Ctrl-C to stop (within 10 s)."
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
    parser.add_argument("--today", metavar="LESSON", default=None,
                       help="today's lesson (its name or number, e.g. 03): it gets warm kernels "
                            "for the whole class. Change it while the server runs with "
                            "'tokens-edu today LESSON'")
    parser.add_argument("--class-size", type=count(1, 500), default=CLASS_SIZE, metavar="N",
                       help=f"students in the class: today's lesson keeps this many warm "
                            f"kernels, and no page more (default: {CLASS_SIZE})")
    parser.add_argument("--pool-size", type=count(0, 500), default=None, metavar="N",
                       help="fixed warm kernels per lesson instead of following the class; "
                            "0 turns them off")
    parser.add_argument("--max-students", type=count(1, 5000), default=None, metavar="N",
                       help="most students with a lesson page at once (a student's tabs count "
                            "once; at the cap a computer holding more than its share gives its "
                            "oldest page back); past it a page says the class is full (default: "
                            "what the free memory holds, at the memory measured for a kernel)")
    parser.add_argument("--preheat-only", action="append", default=[], metavar="LESSON",
                       help="keep a fixed number of warm kernels (--pool-size, default the "
                            "class size) only for this lesson (a notebook name, .ipynb "
                            "optional); repeat for more. Other lessons start a kernel per page.")
    parser.add_argument("--refill-delay", type=count(0, 3600), default=DEFAULT_REFILL_DELAY,
                       metavar="SECONDS",
                       help="wait this long after a warm kernel is taken before starting its "
                            f"replacement (then one more every {START_STEP} s), so a class "
                            "arriving together is not slowed down by new kernels starting; "
                            "no page ever waits for a replacement "
                            f"(default: {DEFAULT_REFILL_DELAY})")
    parser.add_argument("--cull-idle-timeout", type=count(0, 7 * 24 * 3600), default=GONE_TIMEOUT,
                       metavar="SECONDS",
                       help="stop the kernel of a page whose browser went away (a closed laptop, "
                            "a crashed tab) this long after its connection dropped; 0 never "
                            f"(default: {GONE_TIMEOUT}). A page that is closed or reloaded gives "
                            "its kernel back at once.")
    parser.add_argument("--data-dir", metavar="DIR", type=Path, default=None,
                       help="folder for saved Discuss answers (sets TOKENS_EDU_DATA for the "
                            "lessons; default: TOKENS_EDU_DATA or the per-user data folder)")
    parser.add_argument("--certfile", metavar="FILE", type=Path, default=None,
                       help="serve over HTTPS with this certificate (a PEM file, e.g. the "
                            "school's): on a school network, names and answers then do not cross "
                            "it in clear text. Students open https://... instead of http://...")
    parser.add_argument("--keyfile", metavar="FILE", type=Path, default=None,
                       help="the certificate's private key (a PEM file without a password; "
                            "default: in the --certfile file)")
    parser.add_argument("--upgrade-db", action="store_true",
                       help="bring an answers database older than this tokens-edu up to date "
                            "before starting (an answers file is first copied next to itself; "
                            "the start says so in one line). Without it the server refuses to "
                            "start on an older database and says to run 'tokens-edu upgrade-db'")
    parser.add_argument("--no-hints", action="store_true",
                       help="turn off the Hint button in every lesson for this class (sets "
                            "TOKENS_EDU_HINTS=off for the lessons; a page's link can also say "
                            "&hints=off)")
    parser.set_defaults(run=serve)
