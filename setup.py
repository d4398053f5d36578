"""Build hooks: the compiled engine core, and the card data and lessons inside the wheel.

Everything else about the package is in ``pyproject.toml``.

1. ``build_ext`` compiles the engine core (the modules listed in ``tokens_edu/_compiled.py``)
   with mypyc, the compiler that ships with mypy (a build requirement), from the same typed
   Python source, and writes ``tokens_edu/_compiled.json``: which mypy, which Python, and a
   SHA-256 of every source it compiled, so that a compiled module never runs against a newer
   source (``import tokens_edu`` checks). Without mypy, a C compiler or Python's headers (or
   with ``TOKENS_EDU_PURE_PYTHON=1``), the install still works, as pure Python, and says so once.
   ``pip install -e .`` builds the extensions in place, next to the source; ``pip wheel .``
   makes the compiled wheel for this platform. When the in-place build is of these very
   sources, for this Python (its record's digests match), an install (``pip install -e .``
   again, after a change of ``pyproject.toml``) keeps it and a wheel carries its extensions,
   instead of compiling again (``make test`` compiles once; ``TOKENS_EDU_REBUILD=1``, as
   ``make build`` sets, compiles anyway). Before mypyc runs (about 70 s of CPU), a
   one-line C file is compiled: without a working C compiler and Python's headers the build
   says so at once, as pure Python.
2. ``build_py`` copies the top-level ``cards/`` and ``lessons/`` into ``tokens_edu/_bundle/``
   so ``pip install tokens-edu`` can find its cards and serve its lessons (``tokens_edu.bundle``
   reads them with importlib.resources). An editable install copies nothing: it reads the
   top-level folders directly.
"""

import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("cards", "lessons")  # the same as tokens_edu.bundle.BUNDLED_FOLDERS
IGNORED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc", ".*")


def _compiled_config():
    """tokens_edu/_compiled.py, read by path (the package itself can't be imported yet)."""
    spec = importlib.util.spec_from_file_location("_tokens_edu_compiled", ROOT / "tokens_edu" / "_compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithBundle(build_py):
    """setuptools' build_py, then a copy of cards/ and lessons/ into tokens_edu/_bundle/."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in BUNDLED:
            src = ROOT / name
            if not src.is_dir():
                raise SystemExit(f"Cannot build tokens-edu: the folder {src} is missing.")
            dst = Path(self.build_lib) / "tokens_edu" / "_bundle" / name
            if dst.exists():
                shutil.rmtree(dst)
            shutil.copytree(src, dst, ignore=IGNORED)
        # the teacher's guide, shown by lessons/teacher-guide.ipynb (tokens_edu.guide)
        guide = ROOT / "docs" / "teacher-guide.md"
        if guide.is_file():
            (Path(self.build_lib) / "tokens_edu" / "_bundle" / "docs").mkdir(parents=True, exist_ok=True)
            shutil.copy2(guide, Path(self.build_lib) / "tokens_edu" / "_bundle" / "docs" / guide.name)


class BuildCompiledEngine(build_ext):
    """build_ext that compiles the engine core with mypyc, or leaves it pure Python (saying why)."""

    def finalize_options(self):
        # mypyc writes the C sources and names the extensions; setuptools must see them before
        # it finalizes (it notes each extension's file name here).
        self._config = _compiled_config()
        self._started = time.monotonic()
        self._reuse = None if self._config.pure_requested() else self._reusable_build()
        if self._reuse is not None:
            self._reason, self._mypy = None, self._reuse[0].get("mypy")
        else:
            self._reason, self._mypy = self._generate()
        super().finalize_options()

    def _reusable_build(self):
        """The in-place build next to the source, when it is of these very sources for this
        Python: ``(record, extension files)``; None otherwise, or when ``TOKENS_EDU_REBUILD`` is
        set (``make build``)."""
        config = self._config
        if os.environ.get("TOKENS_EDU_REBUILD", "").strip() not in ("", "0"):
            return None
        record = config.read_record()
        reason, _stale = config.problem(record)
        if reason is not None:
            return None
        files = [config._extension_of(name) for name in (*config.MODULES, config.GROUP + "__mypyc")]
        if any(path is None for path in files):
            return None
        return record, files

    @staticmethod
    def _c_compiler_problem():
        """Why no C extension can be built here (no compiler, no Python.h), or None: a one-line C
        file that includes Python.h is compiled with the compiler setuptools would use (``CC``)."""
        import sysconfig
        import tempfile

        try:
            from setuptools._distutils.ccompiler import new_compiler
            from setuptools._distutils.sysconfig import customize_compiler
        except ImportError:  # pragma: no cover - an old setuptools: let the real build find out
            return None
        try:
            with tempfile.TemporaryDirectory() as tmp:
                probe = Path(tmp) / "probe.c"
                probe.write_text("#include <Python.h>\nint tokens_edu_probe(void) { return 0; }\n")
                compiler = new_compiler()
                customize_compiler(compiler)
                compiler.compile([str(probe)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as e:  # CompileError, no compiler at all...
            return ("there was no working C compiler (gcc or cc, and Python's headers, e.g. Debian's "
                    f"python3-dev) when tokens-edu was installed ({type(e).__name__}: {str(e)[:200]})")
        return None

    def _generate(self):
        """Run mypyc over the engine core's sources: (reason it can't, mypy version)."""
        config = self._config
        if config.pure_requested():
            return f"{config.PURE_ENV} was set when tokens-edu was installed", None
        problem = self._c_compiler_problem()
        if problem is not None:
            return problem, None
        try:
            import mypy.version
            from mypyc.build import mypycify
        except ImportError:
            return "mypy (which carries the mypyc compiler) was not there when tokens-edu was installed", None
        sources = [str(Path(*m.split(".")).with_suffix(".py")) for m in config.MODULES]
        here = os.getcwd()
        os.chdir(ROOT)  # mypy finds the package from here
        try:
            self.distribution.ext_modules = mypycify(
                ["--follow-imports=silent", "--ignore-missing-imports",
                 "--cache-dir", str(ROOT / "build" / "mypy-cache"), *sources],
                opt_level="3", group_name=config.GROUP, target_dir=str(ROOT / "build" / "mypyc"))
        except (SystemExit, Exception) as e:  # a type error mypy found: the source needs fixing
            return f"mypyc could not compile the engine ({type(e).__name__}: {e})", None
        finally:
            os.chdir(here)
        return None, mypy.version.__version__

    def run(self):
        config, reason = self._config, self._reason
        in_place = bool(self.inplace or getattr(self, "editable_mode", False))
        if reason is None and self._reuse is not None:
            record, files = self._reuse
            if in_place:  # already there, and of these very sources: nothing to do
                print(f"tokens-edu: the engine core is already compiled from these sources (mypyc {self._mypy}, "
                      f"{len(config.MODULES)} modules; TOKENS_EDU_REBUILD=1 compiles again)", file=sys.stderr)
                return
            if self.build_lib:
                for path in files:  # the in-place build's extensions, into the wheel
                    dest = Path(self.build_lib) / path.relative_to(ROOT)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, dest)
            for folder in ([Path(self.build_lib) / "tokens_edu"] if self.build_lib else []):
                folder.mkdir(parents=True, exist_ok=True)
                (folder / config.RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            print(f"tokens-edu: the engine core compiled in place (mypyc {self._mypy}, {len(config.MODULES)} modules) "
                  "is of these very sources: the wheel carries it (TOKENS_EDU_REBUILD=1 compiles again)",
                  file=sys.stderr)
            return
        if reason is None:
            try:
                super().run()
            except Exception as e:  # CompileError, LinkError, no compiler at all...
                reason = ("there was no working C compiler (gcc or cc, and Python's headers, e.g. Debian's "
                          f"python3-dev) when tokens-edu was installed ({type(e).__name__}: {str(e)[:200]})")
        targets = [ROOT / "tokens_edu"] if in_place else []
        if self.build_lib:
            targets.append(Path(self.build_lib) / "tokens_edu")
        if reason is None:
            record = {"format": 1, "compiled": True, "mypy": self._mypy, "python": sys.implementation.cache_tag,
                      "modules": config.source_digests(ROOT)}
            print(f"tokens-edu: compiled the engine core with mypyc {self._mypy} ({len(config.MODULES)} modules) "
                  f"in {time.monotonic() - self._started:.0f} s", file=sys.stderr)
        else:
            record = {"format": 1, "compiled": False, "reason": reason, "python": sys.implementation.cache_tag}
            self.extensions = []
            if in_place:
                self._remove_old_extensions(config)
            print(f"tokens-edu: the engine is installed as pure Python, because {reason}. It plays the same "
                  "games, about 4 times slower; docs/development.md says how to compile it.", file=sys.stderr)
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / config.RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")

    @staticmethod
    def _remove_old_extensions(config):
        """Remove compiled modules an earlier in-place build left beside the source."""
        for name in (*config.MODULES, config.GROUP + "__mypyc"):
            base = ROOT.joinpath(*name.split("."))
            for path in base.parent.glob(base.name + ".*"):
                if path.suffix in (".so", ".pyd"):
                    path.unlink()

    def get_outputs(self):
        return super().get_outputs() if self.extensions else []


class EngineDistribution(Distribution):
    """Always run build_ext (its extensions are known only once mypyc has run), so the wheel
    is marked as built for this platform; with ``TOKENS_EDU_PURE_PYTHON=1`` at build time the
    wheel is pure Python for any platform (``py3-none-any``, e.g. for the Hub's image)."""

    def has_ext_modules(self):
        return not _compiled_config().pure_requested()


setup(distclass=EngineDistribution, cmdclass={"build_py": BuildPyWithBundle, "build_ext": BuildCompiledEngine})
