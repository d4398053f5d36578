"""What the tests need beyond Python: one script installs it, and a missing tool fails a test.

``deploy/install-test-needs.sh`` is run by ``.ci/run`` and by ``make test`` (``--auto``); a test
whose tool is missing fails with one line naming that script, and is never skipped (issue 26:
a newcomer's run once showed 18 quiet skips and looked green).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "install-test-needs.sh"


def test_ci_and_make_test_run_the_same_install_script():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "deploy/install-test-needs.sh\n" in ci and "apt-get" not in ci  # the install lives in one place
    assert ci.index("deploy/install-test-needs.sh") < ci.index("make test\n")
    out = subprocess.run(["make", "--no-print-directory", "-n", "test"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "deploy/install-test-needs.sh --auto", lines[:3]  # before anything else
    assert any(" -m pytest tests -n " in line and "--durations=" in line for line in lines), lines
    fast = subprocess.run(["make", "--no-print-directory", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "install-test-needs" not in fast.stdout  # make test-fast needs none of those tools


def test_the_script_names_a_missing_tool():
    """``--check`` lists what is missing, one per line, and exits 1 (here: a Chromium that is not there)."""
    env = dict(os.environ, TOKENS_EDU_CHROMIUM="/nonexistent/chromium")
    out = subprocess.run([str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 1 and "chromium" in out.stdout.split(), (out.stdout, out.stderr)
    bad = subprocess.run([str(SCRIPT), "--nonsense"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "usage" in bad.stderr


def test_a_test_whose_tool_is_missing_fails_and_names_the_command(tmp_path):
    """A browser test and an accessibility check without their tools: failed, not skipped, with
    one line naming the install script."""
    (tmp_path / "test_needy.py").write_text(
        "from teacher_helpers import need_chromium\n"
        "from axe import axe_source\n\n"
        "def test_browser():\n    need_chromium()\n\n"
        "def test_axe():\n    axe_source()\n", encoding="utf-8")
    env = dict(os.environ, TOKENS_EDU_CHROMIUM="/nonexistent/chromium", TOKENS_EDU_AXE="/nonexistent/axe.min.js",
               PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "support"), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-rA",
                          str(tmp_path / "test_needy.py")], cwd=tmp_path, capture_output=True, text=True, env=env,
                         timeout=300)
    said = out.stdout + out.stderr
    assert out.returncode == 1, said
    assert re.search(r"\b2 failed\b", said) and "skipped" not in said, said
    assert said.count("Install what the tests need with `sudo deploy/install-test-needs.sh`") >= 2, said
    assert "Chromium is not at /nonexistent/chromium" in said and "axe-core is not installed" in said


def test_no_test_skips_quietly():
    """No ``pytest.skip``, ``skipif`` or ``importorskip`` for a missing tool. The two left are
    about the operating system (Linux's PR_SET_PDEATHSIG, POSIX signals), where the feature
    itself does not exist; on Debian they run."""
    allowed = {"tests/cli/test_cli.py": 1, "tests/cli/test_startup.py": 1}
    found = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "node_modules" in path.parts or rel == "tests/project/test_test_needs.py":  # this file names them
            continue
        n = len(re.findall(r"pytest\.skip\(|skipif\(|importorskip\(", path.read_text(encoding="utf-8")))
        if n:
            found[rel] = n
    assert found == allowed, found
