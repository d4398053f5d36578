"""The lesson server's launcher (tokens_edu.server.launcher): Voila's command line, memory plan,
kernel transport and the answers folder's watch."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import tokens_edu
from tokens_edu.server import launcher, storage


def _settings(cmd: list[str]) -> dict:
    assert cmd[:3] == [sys.executable, "-m", "tokens_edu.server"]
    return json.loads(cmd[3])


def _pages(folder: Path, names) -> Path:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}")
    return folder


def test_voila_command_follows_demand_by_default(tmp_path):
    _pages(tmp_path, ["00-start-here.ipynb", "03-lesson.ipynb", "teacher-guide.ipynb",
                      "scenarios/x.ipynb"])
    cmd = launcher.voila_command(tmp_path, 9000, today="03-lesson.ipynb", class_size=25,
                                 today_folder=tmp_path / "data", kernel_log=tmp_path / "k.log")
    settings = _settings(cmd)
    assert settings["demand"] is True and settings["pools"] == {}
    assert settings["pages"] == {"00-start-here.ipynb": "start", "03-lesson.ipynb": "lesson",
                                 "scenarios/x.ipynb": "hidden", "teacher-guide.ipynb": "other"}
    assert settings["today"] == "03-lesson.ipynb" and settings["class_size"] == 25
    assert settings["start_warm"] == launcher.START_WARM and settings["gone_timeout"] == 120
    assert settings["today_folder"] == str(tmp_path / "data")
    assert settings["kernel_log"] == str(tmp_path / "k.log")
    assert "--preheat_kernel=True" in cmd and "--MappingKernelManager.cull_idle_timeout=0" in cmd
    assert "--Voila.ip=0.0.0.0" in launcher.voila_command(tmp_path, 9000, host="0.0.0.0")
    assert "--KernelManager.transport=ipc" in cmd and "--KernelManager.autorestart=False" in cmd
    assert "--KernelManager.shutdown_wait_time=4" in cmd and "--Voila.log_level=WARN" in cmd
    assert "--port=9000" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--Voila.port_retries=0" in cmd
    assert "--VoilaExecutor.iopub_timeout=30" in cmd
    assert f"--VoilaKernelManager.fill_delay={launcher.DEFAULT_REFILL_DELAY}" in cmd


def test_fixed_warm_kernels_and_none(tmp_path):
    _pages(tmp_path, ["00-start.ipynb", "03-lesson.ipynb", "teacher-guide.ipynb", "scenarios/x.ipynb"])
    only = _settings(launcher.voila_command(tmp_path, 9000, 6, preheat_only=["03-lesson.ipynb"],
                                            max_students=40))
    assert only["demand"] is False and only["pools"] == {"03-lesson.ipynb": 6}
    assert only["max_students"] == 40
    every = _settings(launcher.voila_command(tmp_path, 9000, 30))
    assert every["pools"] == {"00-start.ipynb": 30, "03-lesson.ipynb": 30, "teacher-guide.ipynb": 1}
    off = launcher.voila_command(tmp_path, 9000, 0)
    assert not any("preheat" in a or "pool_size" in a for a in off)


def test_default_lessons_folder_is_the_kits_own():
    """In a checkout (editable install) the top-level lessons/; in a wheel the bundled copy
    (tests/project/test_package.py checks that one)."""
    assert launcher.DEFAULT_LESSONS == Path(tokens_edu.__file__).resolve().parents[1] / "lessons"
    assert (launcher.DEFAULT_LESSONS / "01-read-a-card.ipynb").is_file()


def test_capacity_is_sized_from_memory():
    big = launcher.plan_capacity(9, free_mib=22 * 1024, kernel_mib=75)  # this 24 GiB machine
    assert big.kernels == big.max_students == 279 and big.pool_size is None
    laptop = launcher.plan_capacity(9, free_mib=5 * 1024, kernel_mib=58)  # an 8 GiB laptop
    assert laptop.kernels == 61 and laptop.kernel_mib == 58
    tiny = launcher.plan_capacity(9, free_mib=500, kernel_mib=60)
    assert tiny.max_students == 1
    given = launcher.plan_capacity(9, pool_size=0, max_students=12, free_mib=22 * 1024)
    assert (given.pool_size, given.max_students) == (0, 12)


def test_the_kernel_figure_is_an_estimate_until_measured():
    """Planned at 75 MiB (a played lesson 05 kernel), not the 60 MiB the console used to say,
    until this computer's own kernels are measured (tokens_edu.server.memory)."""
    assert launcher.KERNEL_MIB == 75


def test_storage_watch_says_it_once_and_when_it_is_fixed(tmp_path, monkeypatch):
    out = io.StringIO()
    watch = storage.StorageWatch(tmp_path / "data", out=out)
    assert watch.check() is None and out.getvalue() == ""
    monkeypatch.setattr(storage, "storage_problem", lambda folder: f"the folder {folder} is full")
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
    assert "cannot be made" in storage.storage_problem(tmp_path / "afile" / "data")


def test_kernels_use_unix_sockets_unless_the_path_is_too_long(tmp_path):
    assert launcher.kernel_transport(Path("/tmp/tokens-edu-1000")) == "ipc"
    assert launcher.kernel_transport(Path("/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/tokens-edu-501")) == "tcp"
    cmd = launcher.voila_command(tmp_path, 9000, 0, connection_dir=Path("/tmp/tokens-edu-1000"))
    assert "--KernelManager.transport=ipc" in cmd


def test_page_kinds(tmp_path):
    _pages(tmp_path, ["00-start-here.ipynb", "03-lesson.ipynb", "teacher-guide.ipynb",
                      "scenarios/x.ipynb", ".ipynb_checkpoints/03-lesson-checkpoint.ipynb"])
    kinds = launcher.page_kinds(tmp_path)
    assert kinds["00-start-here.ipynb"] == "start" and kinds["03-lesson.ipynb"] == "lesson"
    assert kinds["teacher-guide.ipynb"] == "other" and kinds["scenarios/x.ipynb"] == "hidden"
    assert kinds[".ipynb_checkpoints/03-lesson-checkpoint.ipynb"] == "hidden"
    assert launcher.lesson_names(tmp_path) == ["00-start-here.ipynb", "03-lesson.ipynb",
                                               "teacher-guide.ipynb"]
    assert launcher.is_lesson("03-lesson.ipynb") and not launcher.is_lesson("teacher-guide.ipynb")
