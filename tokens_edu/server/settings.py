"""The lesson server's settings: typed, with defaults and help, as traitlets ``Configurable``
settings (as Voila and JupyterHub keep theirs).

``tokens-edu serve`` (:mod:`.launcher`) fills them from its options and sends them to the Voila
side as one JSON object; :class:`ServeSettings` checks every value's type and range there, so the
parts that read them (:mod:`.capacity`, :mod:`.pools`, :mod:`.watch`...) read typed attributes
(``settings.max_students``), never a dict's text. ``tokens-edu serve --help-all`` prints them
all; ``tokens-edu serve --setting NAME=VALUE`` sets one that has no option of its own.

Traitlets is what the Jupyter server and Voila use already (no new dependency).
"""

from __future__ import annotations

import json

from traitlets import Bool, Dict, Float, Int, List, TraitError, Unicode
from traitlets.config import Configurable

from .memory import ESTIMATE_MIB

__all__ = ["ServeSettings", "defaults", "settings_help", "parse_setting"]


class ServeSettings(Configurable):
    """What the Voila side of ``tokens-edu serve`` needs to know. Every setting has a type, a
    default and a help text (``tokens-edu serve --help-all``).

    Reading ``settings["name"]`` works as ``settings.name`` does (for code written when this was
    a dict); an unknown name is a KeyError there, and an error when made (:meth:`of`).
    """

    # -- warm kernels -------------------------------------------------------------------------
    step = Float(3.0, min=0.0, help="Seconds between two warm kernels starting while students "
                 "work.").tag(config=True)
    first_step = Float(1.5, min=0.0, help="Seconds between two warm kernels starting while no "
                       "student has a page (the server just started).").tag(config=True)
    demand = Bool(True, help="Warm kernels follow demand (today's lesson, lessons being "
                  "opened); False: the fixed sizes of 'pools'.").tag(config=True)
    pools = Dict(value_trait=Int(min=0), default_value={}, help="Notebook -> warm kernels, when "
                 "fixed (--pool-size, --preheat-only).").tag(config=True)
    pages = Dict(value_trait=Unicode(), default_value={}, help="Notebook -> 'start', 'lesson', "
                 "'other' or 'hidden' (set by tokens-edu serve from the lessons folder)."
                 ).tag(config=True)
    class_size = Int(30, min=1, help="Students in a class: the most warm kernels one page "
                     "gets (--class-size).").tag(config=True)
    start_warm = Int(10, min=0, help="Warm kernels of the start page while nobody is arriving."
                     ).tag(config=True)
    lesson_warm = Int(1, min=0, help="Warm kernels of a lesson nobody has opened (none once "
                      "today's lesson is named).").tag(config=True)
    warm_mib = Float(1536.0, min=0.0, help="Memory all warm kernels together may use (MiB; 0: "
                     "no budget), so the server waits for its class in under 2 GiB.").tag(config=True)
    today = Unicode(None, allow_none=True, help="Today's lesson (a notebook name), given at "
                    "start (--today); it ends at midnight.").tag(config=True)
    today_folder = Unicode(None, allow_none=True, help="The folder whose today.json may name "
                           "today's lesson later (tokens-edu today).").tag(config=True)
    # -- the class cap and memory -------------------------------------------------------------
    max_students = Int(0, min=0, help="Students with a page at once (a student's tabs count "
                       "once); 0: what the memory holds (--max-students).").tag(config=True)
    max_kernels = Int(0, min=0, help="Kernels (pages and warm ones) at most; 0: what the memory "
                      "holds.").tag(config=True)
    kernel_mib = Float(ESTIMATE_MIB, min=1.0, help="Memory per kernel (MiB) until this "
                       "computer's kernels are measured.").tag(config=True)
    min_free_mib = Float(300.0, min=0.0, help="Memory always left free for the system and the "
                         "server (MiB).").tag(config=True)
    client_pages = Int(3, min=1, help="At the cap, pages one computer may hold without opening "
                       "them before it gives its oldest back.").tag(config=True)
    student_tabs = Int(3, min=1, help="Tabs of one student that count as one student at the "
                       "cap.").tag(config=True)
    cold_starts = Int(2, min=1, help="Pages starting a kernel of their own at the same time "
                      "(the others wait their turn).").tag(config=True)
    kernel_data_mib = Int(2048, min=0, help="One kernel's data segment at most (MiB; its "
                          "process's RLIMIT_DATA: past it the kernel cannot grow); 0: no limit."
                          ).tag(config=True)
    kernel_stop_mib = Float(768.0, min=0.0, help="A page's kernel whose resident memory passes "
                            "this (MiB) is stopped by the watch; its page says why, with a Reload "
                            "button; 0: never.").tag(config=True)
    busy_share = Float(0.2, min=0.0, help="A page's kernel using more than this share of one "
                       "core between two looks goes behind the other kernels (nice 15); 0: "
                       "kernels are left as they are.").tag(config=True)
    # -- pages ----------------------------------------------------------------------------------
    hidden = List(Unicode(), default_value=["scenarios"], help="Folders of the lessons folder "
                  "that are not listed or browsable.").tag(config=True)
    page_timeout = Float(90.0, min=1.0, help="Seconds a page may take to render once asked for."
                         ).tag(config=True)
    unopened_timeout = Float(20.0, min=1.0, help="Seconds after which a page whose browser "
                             "never connected gives its kernel back.").tag(config=True)
    hello_timeout = Float(60.0, min=1.0, help="Seconds after which a page whose browser said "
                          "hello but never reached its kernel gives it back (the page says it "
                          "could not reach its lesson 30-45 s after loading).").tag(config=True)
    gone_timeout = Float(120.0, min=0.0, help="Seconds a page whose browser went away (a closed "
                         "laptop) keeps its kernel; 0: forever (--cull-idle-timeout)."
                         ).tag(config=True)
    status_every = Float(60.0, min=0.0, help="Seconds between status lines on the console "
                         "(only when something changed); 0: none.").tag(config=True)
    # -- files ----------------------------------------------------------------------------------
    kernel_log = Unicode(None, allow_none=True, help="File for the kernels' own output (their "
                         "warnings and tracebacks).").tag(config=True)
    memo_folder = Unicode(None, allow_none=True, help="Where the measured kernel size is kept "
                          "for the next start.").tag(config=True)
    certfile = Unicode(None, allow_none=True, help="HTTPS: the certificate (PEM); none: plain "
                       "HTTP (--certfile).").tag(config=True)
    keyfile = Unicode(None, allow_none=True, help="HTTPS: its private key (PEM; none: in the "
                      "certificate's file) (--keyfile).").tag(config=True)

    @classmethod
    def of(cls, values: dict | ServeSettings | None = None) -> ServeSettings:
        """Settings from ``values`` (a dict, or settings already); the rest take their defaults.

        Raises:
            ValueError: an unknown name, or a value of the wrong type or out of range (plain
                words, naming the setting).
        """
        if isinstance(values, ServeSettings):
            return values
        values = dict(values or {})
        unknown = sorted(set(values) - set(cls.class_trait_names(config=True)))
        if unknown:
            raise ValueError(f"Unknown server setting(s): {', '.join(unknown)}.")
        made = cls()
        for name, value in values.items():
            try:
                setattr(made, name, value)
            except TraitError as e:
                raise ValueError(f"The server setting {name} cannot be {value!r}: "
                                 f"{str(e).splitlines()[0][:200]}") from None
        return made

    def __getitem__(self, name: str):
        if name not in self.trait_names(config=True):
            raise KeyError(name)
        return getattr(self, name)

    def get(self, name: str, default=None):
        """``settings[name]``, or ``default`` for an unknown name."""
        try:
            return self[name]
        except KeyError:
            return default

    def as_dict(self) -> dict:
        """Every setting's value, by name (JSON-able)."""
        return {name: getattr(self, name) for name in sorted(self.trait_names(config=True))}


def defaults() -> dict:
    """Every setting's default value, by name."""
    return ServeSettings().as_dict()


def settings_help() -> str:
    """Every setting with its type, default and help (``tokens-edu serve --help-all``), as
    ``--setting NAME=<Type>`` lines (what traitlets' ``class_get_help`` says, in this command's
    words)."""
    import textwrap

    lines = []
    for name in sorted(ServeSettings.class_trait_names(config=True)):
        trait = ServeSettings.class_traits()[name]
        lines.append(f"--setting {name}=<{type(trait).__name__}>")
        lines += textwrap.wrap(trait.help, 88, initial_indent="    ", subsequent_indent="    ")
        lines.append(f"    Default: {trait.default_value_repr()}")
    return "\n".join(lines)


def parse_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` (``--setting``) as ``(name, value)``: the value read as JSON when it is
    JSON (``3``, ``0.5``, ``true``, ``["a"]``), else as text; checked against the setting.

    Raises:
        ValueError: not ``NAME=VALUE``, an unknown name, or a value the setting cannot take.
    """
    name, sep, raw = text.partition("=")
    name = name.strip().removeprefix("ServeSettings.")
    if not sep or not name:
        raise ValueError(f"--setting {text!r}: write it as NAME=VALUE, for example "
                         "--setting status_every=30 (tokens-edu serve --help-all lists them).")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    ServeSettings.of({name: value})  # check it
    return name, value
