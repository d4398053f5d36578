"""Which engine runs: the compiled core, or the same Python source as plain Python.

The engine core (:data:`MODULES`: the rules engine, the part of ``Game`` a simulation uses at
every move, and the computer players' fast path) is one typed Python source. At install time
``setup.py`` compiles it with mypyc (the compiler that ships with mypy) into C extension
modules next to the source, and writes :data:`RECORD` (``_compiled.json``): the mypy version,
the Python it was built for, and a SHA-256 of every source file it compiled.

At ``import tokens_edu`` :func:`activate` (called first thing) decides, once per process:

- ``TOKENS_EDU_PURE_PYTHON=1`` in the environment: pure Python (for a developer changing the
  engine: edits take effect without a rebuild);
- no record, or a record that says the build did not compile (no C compiler, a platform we do
  not build for): pure Python;
- a record older than the source (a file changed since the build, or the module list did):
  pure Python, with a warning that says how to rebuild (``make build``). A compiled module
  never runs against a newer source than it was built from;
- otherwise the compiled modules.

Both play the same games (the frozen-games tests run both ways). When pure Python is chosen
while compiled modules lie next to the source, an import hook (:class:`_SourceFinder`, first on
``sys.meta_path``) loads those modules from their ``.py`` files, which Python's own import
system would otherwise pass over for the extension modules.

This file must import nothing but the standard library: ``setup.py`` reads :data:`MODULES`
from it before anything is installed.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

__all__ = ["MODULES", "GROUP", "RECORD", "COMPILED", "REASON", "activate", "describe", "source_digests"]

#: The modules compiled with mypyc, as one compilation unit (calls between them are direct C
#: calls): the engine, and the computer players' fast path (RandomBot and GreedyBot, and the
#: features SearchBot and LearningBot measure). Everything they import from outside this list
#: stays Python.
MODULES = (
    "tokens_edu.engine.moves",
    "tokens_edu.engine.events",
    "tokens_edu.engine.state",
    "tokens_edu.engine.rules",
    "tokens_edu.engine.verbs",
    "tokens_edu.engine.effects",
    "tokens_edu.engine.flow",
    "tokens_edu.engine.view",
    "tokens_edu.engine.core",
    "tokens_edu.players.bots",
    "tokens_edu.players.features",
)
#: mypyc's group name: the shared library holding all their code is ``tokens_edu/_core__mypyc*.so``.
GROUP = "tokens_edu._core"
#: The build record, next to this file.
RECORD = "_compiled.json"
#: The environment variable that asks for the pure-Python engine.
PURE_ENV = "TOKENS_EDU_PURE_PYTHON"
#: What to run to rebuild the compiled engine from a source checkout.
REBUILD = "make build (or: pip install -e .)"

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent

#: True when the compiled modules are the ones running (set by :func:`activate`).
COMPILED = False
#: Why pure Python runs (None when compiled), in a sentence.
REASON: str | None = "not decided yet"
_activated = False


def source_path(module: str) -> Path:
    """The ``.py`` file of one of :data:`MODULES`."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def source_digests(root: Path | None = None) -> dict[str, str]:
    """SHA-256 of each compiled module's source, as the build record keeps them."""
    base = ROOT if root is None else root
    return {m: hashlib.sha256(base.joinpath(*m.split(".")).with_suffix(".py").read_bytes()).hexdigest()
            for m in MODULES}


def pure_requested() -> bool:
    """True when :data:`PURE_ENV` asks for the pure-Python engine (any value but empty or 0)."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def _extension_of(module: str) -> Path | None:
    """The compiled extension file of ``module`` next to its source, or None."""
    base = ROOT.joinpath(*module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = base.with_name(base.name + suffix)
        if path.is_file():
            return path
    return None


def problem(record: dict | None, digests: dict[str, str] | None = None) -> tuple[str | None, bool]:
    """Why the compiled engine described by ``record`` (the parsed build record, or None when
    there is none) can't run against today's sources: ``(reason, stale)``, ``(None, False)``
    when it can. ``stale`` is True when the build is older than the source (say how to rebuild).

    Args:
        record: the build record (``_compiled.json``) as a dict, or None.
        digests: today's :func:`source_digests` (worked out when None).
    """
    if record is None:
        return "the engine was not compiled when tokens-edu was installed", False
    if not record.get("compiled"):
        return record.get("reason") or "the engine was not compiled when tokens-edu was installed", False
    if record.get("python") != sys.implementation.cache_tag:
        return (f"the compiled engine was built for {record.get('python')}, not this Python "
                f"({sys.implementation.cache_tag}); rebuild it with {REBUILD}", True)
    built = record.get("modules") or {}
    if set(built) != set(MODULES):
        return f"the list of compiled modules changed since the engine was built; rebuild it with {REBUILD}", True
    try:
        now = source_digests() if digests is None else digests
    except OSError as e:
        return f"a source file of the engine could not be read ({e})", False
    changed = [m for m in MODULES if built.get(m) != now.get(m)]
    if changed:
        files = ", ".join(str(source_path(m).relative_to(ROOT)) for m in changed[:3])
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        return (f"the compiled engine is older than its source ({files}{more} changed since it was built); "
                f"rebuild it with {REBUILD}, or set {PURE_ENV}=1 while you change the engine", True)
    missing = [m for m in MODULES if _extension_of(m) is None]
    if missing:
        return f"the compiled module {missing[0]} is missing; rebuild it with {REBUILD}", True
    return None, False


def read_record() -> dict | None:
    """The build record next to this file, or None if there is none (or it can't be read)."""
    try:
        with open(PACKAGE_DIR / RECORD, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


class _SourceFinder:
    """Import hook: load :data:`MODULES` from their ``.py`` source even where a compiled
    extension module lies beside it (Python's path finder would take the extension)."""

    @staticmethod
    def find_spec(fullname: str, path=None, target=None):
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def activate() -> bool:
    """Decide, once per process, which engine runs (see the module); return :data:`COMPILED`.

    Must run before any of :data:`MODULES` is imported (``tokens_edu/__init__.py`` calls it
    first). A stale build is said with a :class:`RuntimeWarning` naming how to rebuild.
    """
    global COMPILED, REASON, _activated
    if _activated:
        return COMPILED
    _activated = True
    stale = False
    if pure_requested():
        reason: str | None = f"{PURE_ENV} is set"
    else:
        reason, stale = problem(read_record())
        if reason is None:
            try:
                importlib.import_module(GROUP + "__mypyc")
            except ImportError as e:
                reason, stale = f"the compiled engine does not load ({e}); rebuild it with {REBUILD}", True
    COMPILED = reason is None
    REASON = reason
    if not COMPILED:
        already = [m for m in MODULES if m in sys.modules]
        if already:  # imported before the decision: whatever they are, they stay
            COMPILED = any(_is_extension(sys.modules[m]) for m in already)
            REASON = None if COMPILED else REASON
        elif any(_extension_of(m) is not None for m in MODULES):
            sys.meta_path.insert(0, _SourceFinder())
        if stale:
            warnings.warn(f"tokens_edu runs its pure-Python engine: {reason}. The games are the same, only "
                          "slower.", RuntimeWarning, stacklevel=3)
    return COMPILED


def _is_extension(module) -> bool:
    return any(str(getattr(module, "__file__", "") or "").endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES)


def describe() -> str:
    """One line on which engine runs, for ``tokens-edu --version`` and the install's last line."""
    record = read_record() or {}
    if COMPILED:
        return f"engine: compiled with mypyc {record.get('mypy', '?')} ({len(MODULES)} modules)"
    return f"engine: pure Python, because {REASON}"


if __name__ == "__main__":  # `python tokens_edu/_compiled.py`: the compiled sources (for the Makefile)
    print(" ".join(str(source_path(m).relative_to(ROOT)) for m in MODULES))
