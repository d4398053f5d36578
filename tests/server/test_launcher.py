"""The lesson server's launcher (tokens_edu.server.launcher): Voila's command line, memory plan,
kernel transport and the answers folder's watch."""

from __future__ import annotations

import io
import sys
from pathlib import Path


import tokens_edu
from tokens_edu.server import launcher


def test_voila_command_has_pool_and_culler(tmp_path):
    cmd = launcher.voila_command(tmp_path, 9000, 6, cull_idle_timeout=300, preheat_only=["a.ipynb"],
                            max_students=40)
    assert "--Voila.ip=0.0.0.0" in launcher.voila_command(tmp_path, 9000, 0, host="0.0.0.0")
    assert cmd[0] == sys.executable and "voila.py" in cmd[2] and '"max_students": 40' in cmd[2]
    assert "--KernelManager.transport=ipc" in cmd and "--KernelManager.autorestart=False" in cmd
    assert "--Voila.log_level=WARN" in cmd
    assert "--preheat_kernel=True" in cmd and "--pool_size=6" in cmd
    assert "--port=9000" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--Voila.port_retries=0" in cmd
    assert "--MappingKernelManager.cull_idle_timeout=300" in cmd
    assert "--VoilaExecutor.iopub_timeout=30" in cmd
    assert f"--VoilaKernelManager.fill_delay={launcher.DEFAULT_REFILL_DELAY}" in cmd
    assert any(a.startswith("--VoilaKernelManager.kernel_pools_config=") and '"a.ipynb"' in a
               for a in cmd)
    off = launcher.voila_command(tmp_path, 9000, 0)
    assert not any("preheat" in a or "pool_size" in a for a in off)


def test_default_lessons_folder_is_the_kits_own():
    """In a checkout (editable install) the top-level lessons/; in a wheel the bundled copy
    (tests/project/test_package.py checks that one)."""
    assert launcher.DEFAULT_LESSONS == Path(tokens_edu.__file__).resolve().parents[1] / "lessons"
    assert (launcher.DEFAULT_LESSONS / "01-read-a-card.ipynb").is_file()


def test_capacity_is_sized_from_memory():
    big = launcher.plan_capacity(9, free_mib=22 * 1024, kernel_mib=60)  # this 24 GiB machine
    assert big.pool_size == launcher.CLASS_SIZE and big.max_students == big.kernels == 349
    laptop = launcher.plan_capacity(9, free_mib=5 * 1024, kernel_mib=60)  # an 8 GiB laptop
    assert laptop.kernels == 59 and laptop.pool_size == 6 and laptop.max_students == 59
    tiny = launcher.plan_capacity(9, free_mib=500, kernel_mib=60)
    assert tiny.pool_size == 1 and tiny.max_students == 1
    given = launcher.plan_capacity(9, pool_size=0, max_students=12, free_mib=22 * 1024)
    assert (given.pool_size, given.max_students) == (0, 12)
    assert launcher.plan_capacity(1, free_mib=22 * 1024).warm_minutes() == 0.75


def test_storage_watch_says_it_once_and_when_it_is_fixed(tmp_path, monkeypatch):

    out = io.StringIO()
    watch = launcher.StorageWatch(tmp_path / "data", out=out)
    assert watch.check() is None and out.getvalue() == ""
    monkeypatch.setattr(launcher, "storage_problem", lambda folder: f"the folder {folder} is full")
    watch.check()
    watch.check()
    monkeypatch.undo()
    watch.check()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"Answers cannot be saved: the folder {tmp_path / 'data'} is full.")
    assert lines[1] == f"Answers can be saved again in {tmp_path / 'data'}."


def test_storage_problem_names_a_file_it_cannot_make(tmp_path):
    (tmp_path / "afile").write_text("x")
    assert "cannot be made" in launcher.storage_problem(tmp_path / "afile" / "data")


def test_kernels_use_unix_sockets_unless_the_path_is_too_long(tmp_path):
    assert launcher.kernel_transport(Path("/tmp/tokens-edu-1000")) == "ipc"
    assert launcher.kernel_transport(Path("/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/tokens-edu-501")) == "tcp"
    cmd = launcher.voila_command(tmp_path, 9000, 0, connection_dir=Path("/tmp/tokens-edu-1000"))
    assert "--KernelManager.transport=ipc" in cmd


def test_other_pages_keep_one_warm_kernel_and_hidden_ones_none(tmp_path):
    for name in ("00-start.ipynb", "03-lesson.ipynb", "teacher-guide.ipynb", "scenarios/x.ipynb"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}")
    cmd = launcher.voila_command(tmp_path, 9000, 30)
    pools = next(a for a in cmd if a.startswith("--VoilaKernelManager.kernel_pools_config="))
    config = launcher.json.loads(pools.split("=", 1)[1])
    assert config == {"default": {"pool_size": 30}, "teacher-guide.ipynb": {"pool_size": 1},
                      "scenarios/x.ipynb": {"pool_size": 0}}
    assert launcher.is_lesson("03-lesson.ipynb") and not launcher.is_lesson("teacher-guide.ipynb")
