"""``tokens-edu``: help, bad options, and a real short ``serve`` of a tiny lesson."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import psutil
import pytest

import tokens_edu
from tokens_edu import cli
from tokens_edu.server import launcher

MARKER = "vnd.voila.cell-output+json"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lessons(tmp_path):
    """A lessons folder with one tiny notebook: a widget, and the student from the page's query."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell("import ipywidgets as w\nw.Button(description='hi')"),
        nbformat.v4.new_code_cell("import os\nfrom tokens_edu.session import student_from_query\n"
                                  "print('student:', student_from_query())\n"
                                  "print('data:', os.environ.get('TOKENS_EDU_DATA'))"),
    ]
    nbformat.write(nb, folder / "tiny.ipynb")
    return folder


def test_help_lists_serve(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    assert "serve" in capsys.readouterr().out


def test_serve_help_lists_options(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["serve", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for opt in ("--lessons", "--port", "--pool-size", "--data-dir", "--cull-idle-timeout"):
        assert opt in out


def test_version_says_which_engine_runs():
    """tokens-edu --version: the version, and the compiled engine or the pure-Python source
    (TOKENS_EDU_PURE_PYTHON=1 asks for the source; issue 22)."""
    exe = os.path.join(os.path.dirname(sys.executable), "tokens-edu")
    env = {k: v for k, v in os.environ.items() if k != "TOKENS_EDU_PURE_PYTHON"}
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60, env=env)
    line = " ".join(out.stdout.split())
    assert out.returncode == 0 and line.startswith(f"tokens-edu {tokens_edu.__version__}; engine: ")
    compiled = subprocess.run([sys.executable, "-c", "import tokens_edu.engine as e; print(e.COMPILED)"],
                              capture_output=True, text=True, timeout=60, env=env).stdout.strip() == "True"
    assert ("engine: compiled with mypyc" in line) is compiled
    pure = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60,
                          env={**env, "TOKENS_EDU_PURE_PYTHON": "1"})
    assert " ".join(pure.stdout.split()).endswith("engine: pure Python, because TOKENS_EDU_PURE_PYTHON is set")


def test_console_script_help():
    exe = os.path.join(os.path.dirname(sys.executable), "tokens-edu")
    out = subprocess.run([exe, "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--pool-size" in out.stdout


@pytest.mark.parametrize("argv, words", [
    (["serve", "--port", "abc"], "whole number"),
    (["serve", "--port", "70000"], "between 1 and 65535"),
    (["serve", "--pool-size", "-1"], "from 0 to 500"),
    (["serve", "--bogus"], "unrecognized arguments"),
    (["fly"], "invalid choice"),
])
def test_bad_options_exit_2_with_a_message(argv, words, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2
    assert words in capsys.readouterr().err


def test_no_command_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "serve" in capsys.readouterr().err


def test_missing_lessons_folder_exits_2(tmp_path, capsys):
    assert cli.main(["serve", "--lessons", str(tmp_path / "nope"), "--port", str(_free_port())]) == 2
    err = capsys.readouterr().err
    assert "There is no lessons folder" in err and "does not exist" in err and "--lessons" in err


def test_busy_port_exits_2(lessons, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--lessons", str(lessons), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"Port {port} is already in use" in err and "--port" in err


def test_host_that_is_not_this_computer_exits_2(lessons, capsys):
    code = cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()),
                     "--host", "203.0.113.7"])
    assert code == 2
    assert "not an address of this computer" in capsys.readouterr().err


def test_unknown_preheat_lesson_exits_2(lessons, capsys):
    code = cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()),
                     "--preheat-only", "nine"])
    assert code == 2
    assert "no lesson 'nine'" in capsys.readouterr().err


def test_lessons_copy_from_the_checkout(tmp_path, capsys):
    assert cli.main(["lessons", "copy", str(tmp_path / "mine")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "mine" / "scenarios" / "03-audit.yaml").is_file()
    assert "Copied" in out and f"tokens-edu serve --lessons {tmp_path / 'mine'}" in out
    assert not any(".ipynb_checkpoints" in str(p) for p in (tmp_path / "mine").rglob("*"))
    with pytest.raises(SystemExit) as e:
        cli.main(["lessons"])
    assert e.value.code == 2


def _kill(procs: list) -> None:
    """Stop what a failed test left running (never leave servers behind)."""
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass


def _fetch(url: str, deadline: float) -> str:
    last = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                return r.read().decode("utf-8")
        except OSError as e:  # not listening yet
            last = e
            time.sleep(0.3)
    raise AssertionError(f"no page from {url}: {last}")


def _wait_for_a_kernel(proc: subprocess.Popen, deadline: float) -> None:
    """Wait until the serve process ``proc`` has started a kernel (or fail if it exits)."""
    while time.monotonic() < deadline:
        kids = psutil.Process(proc.pid).children(recursive=True)
        if any("ipykernel" in " ".join(k.cmdline()) for k in kids if k.is_running()):
            return
        assert proc.poll() is None, proc.communicate(timeout=5)
        time.sleep(0.3)


def _serve_and_stop(lessons, stop_signal) -> tuple[int, str, str, list]:
    """Start serve on a free port, wait until it answers, stop it with ``stop_signal``."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokens_edu.cli", "serve", "--lessons", str(lessons),
         "--port", str(port), "--pool-size", "1",
         # its own data folder: one lesson server per data folder (a second is refused)
         "--data-dir", str(lessons.parent / "answers")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 120
        _wait_for_a_kernel(proc, deadline)
        assert MARKER in _fetch(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb", deadline)
        kids = psutil.Process(proc.pid).children(recursive=True)
    finally:
        proc.send_signal(stop_signal)
        out, err = proc.communicate(timeout=90)
    return proc.returncode, out, err, kids


@pytest.mark.slow
def test_ctrl_c_stops_voila_and_every_kernel(lessons):
    code, out, err, kids = _serve_and_stop(lessons, signal.SIGINT)
    assert code == 0, err
    assert "Stopped." in out
    assert len(kids) >= 2  # Voila and at least one kernel
    _, alive = psutil.wait_procs(kids, timeout=20)
    _kill(alive)
    assert not alive, f"left running: {alive}"


def test_ctrl_c_during_warm_up_stops_within_10_s_with_one_line(lessons):
    """Stopping while warm kernels were still starting printed 55 ZMQError tracebacks (about
    1,100 lines). Now: one line, within 10 s, every kernel gone."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokens_edu.cli", "serve", "--lessons", str(lessons),
         "--port", str(port), "--pool-size", "8", "--preheat-only", "tiny",
         "--data-dir", str(lessons.parent / "answers")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    kids: list[psutil.Process] = []
    try:
        lines = []
        while not any(line.startswith("Ready:") for line in lines):
            line = proc.stdout.readline()
            assert line, "serve stopped before it was ready"
            lines.append(line)
        deadline = time.monotonic() + 120
        while len([k for k in psutil.Process(proc.pid).children(recursive=True)
                   if "ipykernel" in " ".join(k.cmdline())]) < 2:  # warm-up under way
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.1)
        kids = psutil.Process(proc.pid).children(recursive=True)
    finally:
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
        took = time.monotonic() - t
    after = [line for line in rest.splitlines() if line.strip()]
    assert proc.returncode == 0 and took < 10, (took, after)
    assert after == ["Stopping the lesson server... Stopped."], after
    _, alive = psutil.wait_procs(kids, timeout=20)
    _kill(alive)
    assert not alive, f"left running: {alive}"


def test_a_data_dir_that_is_a_file_says_so(lessons, tmp_path, capsys):
    a_file = tmp_path / "answers.txt"
    a_file.write_text("x")
    code = cli.main(["serve", "--lessons", str(lessons), "--port", str(_free_port()),
                     "--data-dir", str(a_file)])
    err = capsys.readouterr().err
    assert code == 2 and f"--data-dir {a_file} is a file, not a folder." in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux only")
@pytest.mark.slow
def test_killed_serve_leaves_no_server_or_kernel_behind(lessons):
    code, _, _, kids = _serve_and_stop(lessons, signal.SIGKILL)
    assert code == -signal.SIGKILL
    _, alive = psutil.wait_procs(kids, timeout=60)
    _kill(alive)
    assert not alive, f"left running: {alive}"


@pytest.mark.slow
def test_real_short_serve(lessons, tmp_path):
    port = _free_port()
    data = tmp_path / "answers"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokens_edu.cli", "serve", "--lessons", str(lessons),
         "--port", str(port), "--pool-size", "1", "--preheat-only", "tiny",
         "--data-dir", str(data), "--refill-delay", "3000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 120
        _wait_for_a_kernel(proc, deadline)  # so the page below is served from the pool (preheat path)
        time.sleep(3)  # let it finish pre-rendering up to the query wait
        page = _fetch(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb?student=ana", deadline)
        assert MARKER in page
        assert "student: ana" in page
        assert f"data: {data}" in page
        # the warm kernel is taken and its replacement sleeps for 3000 s: the next page starts
        # its own kernel instead of waiting for it (Voila 0.5 alone would wait the 3000 s)
        second = _fetch(f"http://127.0.0.1:{port}/voila/render/tiny.ipynb?student=bo", deadline)
        assert MARKER in second and "student: bo" in second
        kids = psutil.Process(proc.pid).children(recursive=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out and "Stopped." in out
    assert "DeprecationWarning" not in err and "Traceback" not in err
    assert "without encryption" not in err and "not trusted" not in err  # a calm console
    assert data.is_dir()
    _, alive = psutil.wait_procs(kids, timeout=20)
    _kill(alive)
    assert not alive, f"left running: {alive}"


def test_serve_hides_the_scenarios_folder_from_the_lesson_list(tmp_path):
    cmd = launcher.voila_command(tmp_path, 9000, 0)
    assert "--ContentsManager.hide_globs=scenarios" in cmd
    assert "--ContentsManager.hide_globs=__pycache__" in cmd  # the usual ones stay hidden


# --- tokens-edu export --------------------------------------------------------------------------


@pytest.fixture
def answers_dir(tmp_path, monkeypatch):
    from tokens_edu.session.journal import Journal

    for var in ("JUPYTERHUB_USER", "TOKENS_EDU_DB_URL"):
        monkeypatch.delenv(var, raising=False)
    data = tmp_path / "answers"
    data.mkdir()
    url = f"sqlite:///{data / 'journal.sqlite'}"
    Journal(url, student="Ana", lesson="01-read-a-card").save("Chatbot", "=1+1")
    Journal(url, student="Ana", lesson="03-task-and-audit").save("Explainability", "@SUM(A1:A9)")
    Journal(url, student="Bo", lesson="03-task-and-audit").save("Explainability", "It shows why.")
    Journal(url, student="Cy", lesson="03-task-and-audit").save_draft("Explainability", "a draft")
    return data


def _csv_rows(path):
    import csv

    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def test_export_writes_a_formula_safe_csv(answers_dir, tmp_path, capsys):
    out = tmp_path / "answers.csv"
    assert cli.main(["export", str(out), "--data-dir", str(answers_dir)]) == 0
    assert f"Wrote 3 answers to {out}." in capsys.readouterr().out
    rows = _csv_rows(out)
    assert [r["answer"] for r in rows] == ["'=1+1", "'@SUM(A1:A9)", "It shows why."]
    assert "a draft" not in out.read_text(encoding="utf-8-sig")  # drafts are never exported
    assert list(rows[0]) == ["id", "student", "lesson", "card", "prompt", "answer", "saved_at"]


def test_export_filters_by_lesson_and_student(answers_dir, tmp_path, capsys):
    out = tmp_path / "a.csv"
    assert cli.main(["export", str(out), "--data-dir", str(answers_dir),
                     "--lesson", "03-task-and-audit", "--student", "Ana"]) == 0
    assert "Wrote 1 answer (lesson 03-task-and-audit; student Ana)" in capsys.readouterr().out
    assert [r["answer"] for r in _csv_rows(out)] == ["'@SUM(A1:A9)"]
    assert cli.main(["export", "-", "--data-dir", str(answers_dir), "--student", "Bo"]) == 0
    assert "It shows why." in capsys.readouterr().out


def test_export_problems_are_plain(tmp_path, capsys):
    assert cli.main(["export", str(tmp_path / "a.csv"), "--data-dir", str(tmp_path / "nope")]) == 2
    assert "There is no data folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert cli.main(["export", str(tmp_path / "a.csv"), "--data-dir", str(tmp_path / "empty")]) == 2
    assert "no saved answers" in capsys.readouterr().err


def test_export_to_a_folder_that_cannot_be_written(answers_dir, tmp_path, capsys):
    assert cli.main(["export", str(tmp_path / "no" / "a.csv"), "--data-dir", str(answers_dir)]) == 2
    assert "Cannot write" in capsys.readouterr().err


# --- capacity and the answers folder ---------------------------------------------------------------


def test_export_reads_without_creating_and_filters_like_a_teacher_types(answers_dir, tmp_path, monkeypatch, capsys):
    """Newcomer review: export on a folder with no answers made an empty journal.sqlite and
    printed an internal error; '--student ana' and '--lesson X.ipynb' matched nothing silently."""
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path / "new"))
    assert cli.main(["export", "-"]) == 2
    assert "no saved answers yet" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
    roster_only = tmp_path / "roster-only"
    roster_only.mkdir()
    assert cli.main(["roster", "add", "Ana", "--data-dir", str(roster_only)]) == 0
    assert f"roster slips --data-dir {roster_only}" in capsys.readouterr().out
    assert cli.main(["export", "-", "--data-dir", str(roster_only)]) == 2
    assert "no saved answers in" in capsys.readouterr().err
    assert cli.main(["export", "-", "--data-dir", str(answers_dir), "--student", "ana",
                     "--lesson", "01-read-a-card.ipynb"]) == 0
    assert "'=1+1" in capsys.readouterr().out
    assert cli.main(["export", "-", "--data-dir", str(answers_dir), "--student", "Zed"]) == 0
    assert "no saved answers match student Zed" in capsys.readouterr().err
