"""Build hook: the wheel carries the top-level ``cards/`` and ``lessons/`` inside the package.

Everything else about the package is in ``pyproject.toml``. The repository keeps the card data
and the lessons in top-level folders (where teachers and content writers find them); a wheel
copies both to ``tokens_edu/_bundle/`` so ``pip install tokens-edu`` can find its cards and serve
its lessons (``tokens_edu.bundle`` reads them with importlib.resources). An editable install
(``pip install -e .``) copies nothing: it reads the top-level folders directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("cards", "lessons")  # the same as tokens_edu.bundle.BUNDLED_FOLDERS
IGNORED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc", ".*")


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


setup(cmdclass={"build_py": BuildPyWithBundle})
