"""The installable package: a wheel built from this checkout carries the cards and the lessons.

The module's fixtures run docs/deploy.md's "Installing on a school's server" commands as written
(only its paths are swapped for temporary ones): build the wheel, make a fresh virtual
environment, install the wheel there, as a school's server would. The tests then use only that
environment, from a folder outside the checkout: what was installed (serving only: no JupyterLab,
JupyterHub or test tools), docs/python.md's quick start, ``tokens-edu lessons copy``, and
docs/deploy.md's ``tokens-edu serve --data-dir ...`` on the bundled lessons.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tokens_edu.store import migrate

# slow; one worker for both modules that build wheels from this checkout (its build/ folder)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("checkout-build")]

ROOT = Path(__file__).resolve().parents[2]
MARKER = "vnd.voila.cell-output+json"
DEPLOY_DOC = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "python.md").read_text(encoding="utf-8"),
                           flags=re.S)


def install_commands() -> list[str]:
    """docs/deploy.md's install commands (the bash block of "Installing on a school's server"), one
    per line, comments dropped."""
    section = DEPLOY_DOC.split("## Installing on a school's server", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.S).group(1)
    return [line.split("#", 1)[0].strip() for line in block.splitlines()
            if line.split("#", 1)[0].strip()]


def _run(cmd, timeout=900, **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    assert out.returncode == 0, f"{cmd} failed ({out.returncode}):\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _clean_env(**extra) -> dict:
    """The environment of a user of the installed kit: nothing pointing back at this checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTERHUB_USER", "TOKENS_EDU_DB_URL",
                        "JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def install(tmp_path_factory) -> dict:
    """docs/deploy.md's commands, as written, in temporary places: ``dist`` (in the checkout) is a
    temporary folder, the wheel is copied to "the server" (another one), ``/opt/tokens-edu`` is
    a temporary venv, ``python3`` is the base Python, ``/srv/tokens-answers`` a temporary folder.
    The last command (serve) is kept for :func:`test_serve_serves_the_bundled_lessons`."""
    root = tmp_path_factory.mktemp("install")
    dist, server, venv, answers = root / "dist", root / "server", root / "opt-tokens-edu", root / "answers"
    server.mkdir()
    commands = install_commands()
    assert len(commands) == 4 and commands[-1].endswith("tokens-edu serve --data-dir /srv/tokens-answers")

    def swap(line: str) -> list[str]:
        line = (line.replace("/opt/tokens-edu", str(venv)).replace("/srv/tokens-answers", str(answers))
                .replace("-w dist", f"-w {dist}"))
        words = line.split()
        return [_base_python() if w == "python3" else w for w in words]

    build, make_venv, pip_install, serve = (swap(c) for c in commands)
    settings = dict(w.split("=", 1) for w in build if "=" in w and w.split("=", 1)[0].isupper())
    build = [w for w in build if w.split("=", 1)[0] not in settings]  # VAR=value words: the environment
    assert settings == {"TOKENS_EDU_PURE_PYTHON": "1"}  # a wheel for any computer (docs/deploy.md says why)
    _run(build[:-1] + [str(ROOT)], cwd=ROOT, env={**os.environ, **settings})  # "." is the checkout
    wheels = list(dist.glob("tokens_edu-*.whl"))
    assert len(wheels) == 1, wheels
    copied = server / wheels[0].name  # "copy that file to the server"
    copied.write_bytes(wheels[0].read_bytes())
    assert pip_install[-1] == wheels[0].name, "docs/deploy.md names the wheel this version makes"
    _run(make_venv, cwd=server)
    _run(pip_install + ["--disable-pip-version-check", "--quiet", "--no-compile"], cwd=server,
         timeout=1500, env=_clean_env())
    return {"wheel": wheels[0], "venv": venv, "serve": serve, "answers": answers, "root": root}


@pytest.fixture(scope="module")
def wheel(install) -> Path:
    return install["wheel"]


@pytest.fixture(scope="module")
def fresh(install) -> dict:
    """The venv docs/deploy.md's commands made: only the wheel and its dependencies installed."""
    root, venv = install["root"], install["venv"]
    py = venv / "bin" / "python"
    home = root / "home"  # a user folder of its own: no Jupyter settings from this machine
    home.mkdir()
    work = root / "work"
    work.mkdir()
    env = _clean_env(HOME=str(home), TOKENS_EDU_DATA=str(root / "answers"),
                     PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    return {"venv": venv, "python": py, "work": work, "env": env, "serve": install["serve"],
            "answers": install["answers"]}


def _base_python() -> str:
    """The Python this venv was made from (a venv made from a venv would still be fresh, but the
    base interpreter is what a school's server has)."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    return str(base) if base.exists() else sys.executable


def test_wheel_carries_every_card_and_lesson_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tokens_edu/_bundle/cards/alpha-set.yaml" in names
    for src in sorted((ROOT / "cards").rglob("*")):  # the card data and every card picture
        if src.is_file():
            assert f"tokens_edu/_bundle/cards/{src.relative_to(ROOT / 'cards').as_posix()}" in names, src
    assert {"tokens_edu/_bundle/cards/icons/LICENSE", "tokens_edu/_bundle/cards/icons/README.md",
            "tokens_edu/_bundle/cards/icons/message-chatbot.svg"} <= names
    assert "tokens_edu/_bundle/docs/teacher-guide.md" in names  # the guide page shows it
    for src in sorted((ROOT / "lessons").rglob("*")):
        rel = src.relative_to(ROOT / "lessons")
        if src.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            assert f"tokens_edu/_bundle/lessons/{rel.as_posix()}" in names, rel
    assert not any(".ipynb_checkpoints" in n or n.startswith(("cards/", "lessons/")) for n in names)
    for module in sorted((ROOT / "tokens_edu").rglob("*.py")):  # every layer's every module
        rel = module.relative_to(ROOT).as_posix()
        if "_bundle" not in rel:
            assert rel in names, rel
    # the widgets' front-end files and the dashboard's templates and files (package data)
    for folder in ("widgets/static", "teacher/static", "teacher/templates"):
        for static in sorted((ROOT / "tokens_edu" / folder).glob("*.*")):
            assert f"tokens_edu/{folder}/{static.name}" in names, static.name
    for page in sorted((ROOT / "tokens_edu" / "server" / "templates").glob("*.html")):
        assert f"tokens_edu/server/templates/{page.name}" in names, page.name
    assert "tokens_edu/lab/data/sketches.csv" in names  # the sketch table of lessons 8 and 11


def test_the_install_is_what_serving_needs_and_nothing_else(fresh):
    """``make serve`` and the README's install downloaded about 880 MiB: the test tools, a
    browser driver, JupyterHub, JupyterLab. Those are extras now (``[test]``, ``[lab]``, ...)."""
    out = _run([str(fresh["python"]), "-c",
                "import importlib.util as u\n"
                "for m in ('voila', 'ipywidgets', 'pandas', 'anywidget', 'sqlalchemy', 'jupyterlab',"
                " 'jupyterhub', 'pytest', 'playwright', 'matplotlib', 'pettingzoo', 'psycopg',"
                " 'hypothesis', 'nbval'):\n"
                "    print(m, u.find_spec(m) is not None)"], cwd=fresh["work"], env=fresh["env"])
    found = dict(line.split() for line in out.stdout.split("\n") if line)
    assert [m for m, yes in found.items() if yes == "True"] == ["voila", "ipywidgets", "pandas",
                                                               "anywidget", "sqlalchemy"], found


def test_the_readme_wheel_is_for_any_computer(wheel):
    """docs/deploy.md's wheel (TOKENS_EDU_PURE_PYTHON=1) installs on any system and Python: the
    engine's sources and no extension module."""
    import json

    names = zipfile.ZipFile(wheel).namelist()
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert "tokens_edu/engine/state.py" in names and not [n for n in names if n.endswith(".so")]
    if "tokens_edu/_compiled.json" in names:  # a build record, if any, says pure
        assert json.loads(zipfile.ZipFile(wheel).read("tokens_edu/_compiled.json"))["compiled"] is False


@pytest.fixture(scope="module")
def compiled_wheel(tmp_path_factory) -> Path:
    """``pip wheel --no-deps .`` without TOKENS_EDU_PURE_PYTHON: the wheel for this computer."""
    out = tmp_path_factory.mktemp("compiled-wheel")
    env = {k: v for k, v in os.environ.items() if k != "TOKENS_EDU_PURE_PYTHON"}
    built = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--disable-pip-version-check", "-w",
                  str(out), str(ROOT)], cwd=ROOT, env=env, timeout=1500)
    wheels = list(out.glob("tokens_edu-*.whl"))
    assert len(wheels) == 1, wheels
    from tokens_edu import _compiled

    if _compiled.problem(_compiled.read_record())[0] is None:  # the in-place build is current: reused
        assert "is of these very sources: the wheel carries it" in built.stdout + built.stderr
    return wheels[0]


def test_the_wheel_is_compiled_for_this_platform_and_runs_compiled(compiled_wheel, fresh):
    """pip wheel . makes the compiled engine core (issue 22): the wheel is for this Python and
    platform, carries an extension module per compiled module, its sources (the pure fallback)
    and the build record; installed, the compiled engine runs, and TOKENS_EDU_PURE_PYTHON=1
    gives the source. (Where no C compiler is, the wheel is pure and says why in its record.)
    When the checkout's in-place build (``make test`` compiled it) is of these very sources,
    the wheel carries it instead of compiling again, and says so."""
    import importlib.machinery
    import json
    import shutil
    import sysconfig

    from tokens_edu import _compiled

    wheel = compiled_wheel
    names = zipfile.ZipFile(wheel).namelist()
    record = json.loads(zipfile.ZipFile(wheel).read("tokens_edu/_compiled.json"))
    can = (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file() and shutil.which("gcc") is not None
    if not can:
        assert record["compiled"] is False and record["reason"]
        return
    assert record["compiled"] is True and set(record["modules"]) == set(_compiled.MODULES), record
    assert not wheel.name.endswith("-none-any.whl"), wheel.name  # a platform wheel, e.g. cp311-cp311-linux_x86_64
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in _compiled.MODULES:
        path = module.replace(".", "/")
        assert f"{path}{suffix}" in names and f"{path}.py" in names, module
    assert f"tokens_edu/_core__mypyc{suffix}" in names
    # installed beside docs/deploy.md's venv (its dependencies), first on the path
    target = fresh["work"].parent / "compiled-site"
    _run([str(fresh["python"]), "-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "--quiet",
          "--target", str(target), str(wheel)], cwd=fresh["work"], env=fresh["env"])
    code = "import tokens_edu.engine as e, tokens_edu.engine.state as s; print(e.COMPILED, s.__file__)"
    env = {k: v for k, v in fresh["env"].items() if k != "TOKENS_EDU_PURE_PYTHON"}
    env["PYTHONPATH"] = str(target)
    out = _run([str(fresh["python"]), "-c", code], cwd=fresh["work"], env=env).stdout.split()
    assert out[0] == "True" and out[1].endswith(suffix) and str(target) in out[1], out
    out = _run([str(fresh["python"]), "-c", code], cwd=fresh["work"],
               env={**env, "TOKENS_EDU_PURE_PYTHON": "1"}).stdout.split()
    assert out[0] == "False" and out[1].endswith("state.py"), out


def test_installed_package_reads_its_cards_from_site_packages(fresh):
    out = _run([str(fresh["python"]), "-c",
                "import tokens_edu, tokens_edu.content.bundle as b; from tokens_edu import load_cards\n"
                "print(tokens_edu.__file__); print(b.card_file()); print(b.lessons_dir())\n"
                "print(len(load_cards())); print(b.icons_dir())\n"
                "print(sum(tokens_edu.card_picture(c).count('<path') > 0 for c in load_cards().cards()))"],
               cwd=fresh["work"], env=fresh["env"]).stdout.split("\n")
    site = str(fresh["venv"])
    assert out[0].startswith(site) and "site-packages" in out[0], out
    assert out[1].startswith(site) and out[1].endswith("_bundle/cards/alpha-set.yaml"), out
    assert out[2].startswith(site) and out[2].endswith("_bundle/lessons"), out
    assert out[3] == "70"
    assert out[4].startswith(site) and out[4].endswith("_bundle/cards/icons"), out
    assert out[5] == "70"  # every card's picture, read from the installed package


def test_installed_package_makes_its_database_with_its_migrations(fresh):
    """The migrations are package data (Alembic's script folder, not a package): an installed
    kit makes and brings up to date its answers database from site-packages."""
    out = _run([str(fresh["python"]), "-c",
                "from tokens_edu.session import PageSession\n"
                "from tokens_edu.store import migrate\n"
                "s = PageSession('l1', student='Ana'); s.store.answers.save(s.writer(), 'l1', 'Chatbot', 'installed')\n"
                "print(migrate.MIGRATIONS); print(migrate.revision(s.store.engine))\n"
                "print(s.store.answers.latest(s.writer(), 'l1', 'Chatbot').text)"],
               cwd=fresh["work"], env=fresh["env"]).stdout.split("\n")
    assert out[0].startswith(str(fresh["venv"])) and out[1] == migrate.HEAD and out[2] == "installed", out
    again = _run([str(fresh["python"]), "-m", "tokens_edu.store.migrate"], cwd=fresh["work"], env=fresh["env"])
    assert f"was already up to date (revision {migrate.HEAD})" in again.stdout


def test_readme_quick_start_runs_with_the_installed_kit(fresh):
    """Every docs/python.md example, the second from a teacher's copy of the lessons (its scenario path
    is ``lessons/scenarios/...``), using the fresh venv's Python from a folder outside the repo."""
    assert len(PYTHON_BLOCKS) >= 2
    copy = _run([str(fresh["venv"] / "bin" / "tokens-edu"), "lessons", "copy", "lessons"],
                cwd=fresh["work"], env=fresh["env"])
    assert "Copied" in copy.stdout and "tokens-edu serve --lessons" in copy.stdout
    assert (fresh["work"] / "lessons" / "scenarios" / "03-audit.yaml").is_file()
    program = "\n".join(PYTHON_BLOCKS) + "\nprint('REPR', repr(game))\n"
    out = _run([str(fresh["python"]), "-c", program], cwd=fresh["work"], env=fresh["env"])
    assert "wins on turn" in out.stdout and "Tokens" in out.stdout
    assert "REPR" in out.stdout


def test_lessons_copy_keeps_a_teachers_edits(fresh, tmp_path):
    exe = str(fresh["venv"] / "bin" / "tokens-edu")
    dest = tmp_path / "mine"
    first = _run([exe, "lessons", "copy", str(dest)], cwd=fresh["work"], env=fresh["env"])
    lessons = sorted(p.name for p in dest.glob("*.ipynb"))
    assert "01-read-a-card.ipynb" in lessons and (dest / "scenarios").is_dir()
    assert f"Copied {sum(1 for p in dest.rglob('*') if p.is_file())} file(s)" in first.stdout
    edited = dest / "01-read-a-card.ipynb"
    edited.write_text("my edited lesson", encoding="utf-8")
    again = _run([exe, "lessons", "copy", str(dest)], cwd=fresh["work"], env=fresh["env"])
    assert edited.read_text(encoding="utf-8") == "my edited lesson"
    assert "Kept" in again.stdout and "01-read-a-card.ipynb" in again.stdout
    _run([exe, "lessons", "copy", str(dest), "--overwrite"], cwd=fresh["work"], env=fresh["env"])
    assert edited.read_text(encoding="utf-8") != "my edited lesson"
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    bad = subprocess.run([exe, "lessons", "copy", str(a_file)], capture_output=True, text=True,
                         cwd=fresh["work"], env=fresh["env"], timeout=120)
    assert bad.returncode == 2 and "is a file, not a folder" in bad.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_serves_the_bundled_lessons(fresh):
    """docs/deploy.md's serve command (its answers folder; a free port, no warm kernels here)."""
    port = _free_port()
    proc = subprocess.Popen(
        fresh["serve"] + ["--port", str(port), "--pool-size", "0"],
        cwd=fresh["work"], env=fresh["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        deadline = time.monotonic() + 180
        page, last = None, None
        while page is None and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate(timeout=10)
            try:
                with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/voila/render/01-read-a-card.ipynb?student=Ana",
                        timeout=120) as r:
                    page = r.read().decode("utf-8")
            except OSError as e:
                last = e
                time.sleep(0.5)
        assert page is not None, f"no page: {last}"
        assert MARKER in page
        assert '"output_type": "error"' not in page and "Traceback" not in page
        # a lesson that reads its scenarios folder (bundled beside the notebooks)
        with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/voila/render/03-task-and-audit.ipynb", timeout=120) as r:
            page3 = r.read().decode("utf-8")
        assert MARKER in page3
        assert '"output_type": "error"' not in page3 and "Traceback" not in page3
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=90)
    assert "site-packages/tokens_edu/_bundle/lessons" in out, out
    assert "Stopped." in out, (out, err)
    assert f"Answers are saved in {fresh['answers']}" in out and (fresh["answers"] / "journal.sqlite").is_file()
