"""Build hooks: the compiled engine core, and the card data and lessons inside the wheel.

Everything else about the package is in ``pyproject.toml``.

1. ``build_ext`` compiles the engine core (the modules listed in ``tokens_edu/_compiled.py``)
   with mypyc, the compiler that ships with mypy (a build requirement), from the same typed
   Python source, and writes ``tokens_edu/_compiled.json``: which mypy, which Python, and a
   SHA-256 of every source it compiled, so that a compiled module never runs against a newer
   source (``import tokens_edu`` checks). Without mypy, a C compiler or Python's headers (or
   with ``TOKENS_EDU_PURE_PYTHON=1``), the install still works, as pure Python, and says so once.
   ``pip install -e .`` builds the extensions in place, next to the source; ``pip wheel .``
   makes the compiled wheel for this platform.
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
        self._reason, self._mypy = self._generate()
        super().finalize_options()

    def _generate(self):
        """Run mypyc over the engine core's sources: (reason it can't, mypy version)."""
        config = self._config
        if config.pure_requested():
            return f"{config.PURE_ENV} was set when tokens-edu was installed", None
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
