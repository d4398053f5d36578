"""Building without a C compiler (issue 22): the install still works, as pure Python, and says so once.

A copy of this checkout is built into a wheel (``pip wheel .``, as a school's server would
install it) with ``CC=false``: a C compiler that always fails, as on a machine without gcc.
The build must succeed, say once why the engine is pure Python, and leave a wheel without
extension modules whose build record says why; imported, that package runs the pure engine
and says nothing more (no warning: a pure install is not a stale build). setup.py tries the
compiler on a one-line C file before mypyc's type check, so this build takes seconds, not the
minutes of a compile.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from tokens_edu import _compiled

# slow; one worker for both modules that build wheels from this checkout (its build/ folder)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("checkout-build")]

ROOT = Path(__file__).resolve().parents[2]
SAID = "the engine is installed as pure Python, because"


def _copy_checkout(dest: Path) -> Path:
    """The files a build reads, without any earlier build's extensions or record (mypy's cache
    is kept: it only saves time)."""
    skip = shutil.ignore_patterns("__pycache__", "_bundle", "*.so", "*.pyd", _compiled.RECORD, ".ipynb_checkpoints")
    src = dest / "src"
    for name in ("tokens_edu", "cards", "lessons", "docs"):
        shutil.copytree(ROOT / name, src / name, ignore=skip)
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, src / name)
    if (ROOT / "build" / "mypy-cache").is_dir():
        shutil.copytree(ROOT / "build" / "mypy-cache", src / "build" / "mypy-cache")
    return src


def test_a_build_without_a_c_compiler_is_pure_python_and_says_so_once(tmp_path):
    src = _copy_checkout(tmp_path)
    dist = tmp_path / "dist"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", _compiled.PURE_ENV)}
    env["CC"] = "false"  # every compile fails, as with no gcc on the machine
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check",
                          "-w", str(dist), str(src)], capture_output=True, text=True, env=env, timeout=1200)
    said = out.stdout + out.stderr
    assert out.returncode == 0, said[-4000:]
    assert said.count(SAID) == 1, said[-4000:]
    assert "no working C compiler" in said

    (wheel,) = dist.glob("tokens_edu-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(tuple(EXTENSION_SUFFIXES))], names
    for module in _compiled.MODULES:  # the pure source is all there
        assert "/".join(module.split(".")) + ".py" in names
    record = json.loads(zipfile.ZipFile(wheel).read("tokens_edu/" + _compiled.RECORD))
    assert record["compiled"] is False and "no working C compiler" in record["reason"]

    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    code = ("import warnings; warnings.simplefilter('error'); import tokens_edu, tokens_edu.engine as e; "
            "from tokens_edu import _compiled as c; import tokens_edu.engine.state as s; "
            "print(e.COMPILED); print(s.__file__); print(c.describe())")
    env.pop("CC")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, "PYTHONPATH": str(unpacked)},
                         cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    compiled, state_file, line = run.stdout.splitlines()
    assert compiled == "False" and state_file == str(unpacked / "tokens_edu" / "engine" / "state.py")
    assert line.startswith("engine: pure Python, because there was no working C compiler")
    assert "Warning" not in run.stderr, run.stderr
