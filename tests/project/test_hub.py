"""End to end through a real JupyterHub (deploy/jupyterhub/jupyterhub_config.py): two students
log in with Chromium, each lesson page shows only their own name and answers, the answers land
in PostgreSQL under the right names, and a student cannot open another student's server or
the teacher dashboard.

Parts: PostgreSQL (the ``postgres`` fixture), configurable-http-proxy from npm, JupyterHub,
jupyter-server-proxy and jupyterhub-idle-culler (``pip install 'tokens-edu[hub]'``), Chromium.
``deploy/install-test-needs.sh`` installs them; a missing part fails these tests.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from hub_harness import Hub, missing_parts
from pg_server import need

pytestmark = [pytest.mark.hub, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TOKENS_EDU_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-dev-shm-usage"]
LESSON = "01-read-a-card.ipynb"
ANSWERS = {"ana": "Ana thinks a chatbot guesses the next word.",
           "bo": "Bo says it copies patterns from lots of text."}


@pytest.fixture(scope="module")
def hub(postgres, tmp_path_factory):
    missing = missing_parts()
    need(not missing, "missing for the JupyterHub test: " + "; ".join(missing))
    need(Path(CHROMIUM).exists(), f"Chromium is not at {CHROMIUM}")
    h = Hub(postgres, tmp_path_factory.mktemp("hub"))
    try:
        h.start()
        yield h
    finally:
        h.stop()


@pytest.fixture(scope="module")
def browser(hub):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


def _only_loopback(route) -> None:
    from urllib.parse import urlparse

    if (urlparse(route.request.url).hostname or "") in ("127.0.0.1", "localhost", "::1"):
        route.continue_()
    else:
        route.abort()


def _login(browser, hub, name):
    """A browser window where ``name`` logged in through the Hub's login form and waited for
    their server to start (the Hub then shows the lesson list)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    context.route("**/*", _only_loopback)
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", hub.password)
    page.click("[type=submit]")
    page.wait_for_url(re.compile(rf".*/user/{name}/.*"), timeout=120_000)
    return context, page


def _open_lesson(page, hub, name, query=""):
    page.goto(f"{hub.url}/user/{name}/voila/render/{LESSON}{query}", timeout=120_000)
    page.locator(".tokens-discuss-answer textarea").first.wait_for(timeout=120_000)
    return page


@pytest.fixture(scope="module")
def students(hub, browser):
    """ana and bo logged in, each with a lesson page open and one answer saved."""
    pages = {}
    try:
        for name in ("ana", "bo"):
            context, page = _login(browser, hub, name)
            # ?student= names the other student: on the Hub it is ignored
            other = "bo" if name == "ana" else "ana"
            _open_lesson(page, hub, name, f"?student={other}")
            pages[name] = (context, page)
        for name, (_, page) in pages.items():
            page.fill(".tokens-discuss-answer textarea", ANSWERS[name])
            page.click(".tokens-discuss-save button, button.tokens-discuss-save")
            page.wait_for_function(
                "() => /Saved/.test(document.querySelector('.tokens-discuss-status').innerText)",
                timeout=60_000)
        yield pages
    finally:
        for context, _ in pages.values():
            context.close()


def test_each_page_shows_only_its_own_login_as_the_name(students):
    for name, (_, page) in students.items():
        box = page.locator(".tokens-discuss-name input")
        assert box.input_value() == name
        assert box.is_disabled()  # the login, not a box anyone can retype
        assert page.locator(".tokens-discuss-name-note").count() == 0


def test_answers_land_in_postgresql_under_the_right_names(students, hub):
    with hub.postgres.admin_engine(hub.db).connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT student, lesson, card, answer FROM answers ORDER BY student")).all()
    assert [tuple(r) for r in rows] == [
        ("ana", "01-read-a-card", "GPT", ANSWERS["ana"]),
        ("bo", "01-read-a-card", "GPT", ANSWERS["bo"]),
    ]


def test_a_reopened_page_shows_the_students_own_answer_only(students, hub):
    for name, (_, page) in students.items():
        _open_lesson(page, hub, name)
        page.wait_for_function(
            "() => document.querySelector('.tokens-discuss-answer textarea').value.length > 0",
            timeout=60_000)
        assert page.input_value(".tokens-discuss-answer textarea") == ANSWERS[name]
        other = ANSWERS["bo" if name == "ana" else "ana"]
        assert other not in page.content()


def test_a_student_cannot_open_another_students_server(students, hub):
    _, page = students["ana"]
    response = page.goto(f"{hub.url}/user/bo/voila/render/{LESSON}", timeout=120_000)
    assert response.status == 403
    assert ANSWERS["bo"] not in page.content()
    api = page.request.get(f"{hub.url}/hub/api/users/bo")
    assert api.status in (403, 404)


def test_the_teacher_dashboard_is_closed_to_students(students, hub):
    _, page = students["bo"]
    response = page.goto(f"{hub.url}/services/teacher/", timeout=120_000)
    assert response.status == 403
    assert ANSWERS["ana"] not in page.content() and ANSWERS["bo"] not in page.content()


def test_a_teacher_logs_in_once_and_sees_every_students_answer(students, hub, browser):
    """The dashboard runs as a Hub service with the Hub's login (no dashboard token), reading
    with the teachers' read-only database login."""
    context, page = _login(browser, hub, "ms_t")
    try:
        response = page.goto(f"{hub.url}/services/teacher/", timeout=120_000)
        assert response.status == 200, page.content()[:500]
        page.wait_for_function(
            "(a) => a.every(t => document.body.innerText.includes(t))",
            arg=list(ANSWERS.values()), timeout=60_000)
        assert "ana" in page.content() and "bo" in page.content()
        assert page.locator("input[name=secret]").count() == 0  # no token asked
        # logging out of the dashboard (a plain link works too) offers the Hub's own logout
        response = page.goto(f"{hub.url}/services/teacher/logout", timeout=60_000)
        assert response.status == 200 and "You are logged out" in page.content()
        assert page.locator("a[href$='/hub/logout']").count() == 1
        assert ANSWERS["ana"] not in page.content()
    finally:
        context.close()


def test_no_password_on_a_command_line_or_in_the_hub_log(students, hub):
    """The students' database passwords live only in their servers' environments."""
    import psutil

    for name, (_, page) in students.items():  # each with a lesson open (a running kernel)
        _open_lesson(page, hub, name)
    log = hub.log()
    assert hub.hub_db_password not in log
    # Each student's lesson kernel is looked at. A process list is a snapshot: a kernel that is
    # starting or stopping (the page just reloaded) may be missed once or not yet have its
    # command line, so look again for a while before saying a student's kernel is missing.
    deadline = time.monotonic() + 60
    while True:
        users, seen = set(), []
        for proc in psutil.Process(hub.proc.pid).children(recursive=True):
            try:
                cmdline = " ".join(proc.cmdline())
                environ = proc.environ()
            except psutil.Error:
                continue
            seen.append((cmdline[:100], sorted(k for k in environ if k.startswith(("TOKENS", "JUPYTERHUB_U")))))
            assert hub.hub_db_password not in cmdline
            password = environ.get("TOKENS_EDU_DB_PASSWORD")
            if password and "ipykernel" in cmdline:
                assert password not in cmdline and password not in log
                assert "@" in environ["TOKENS_EDU_DB_URL"] and password not in environ["TOKENS_EDU_DB_URL"]
                assert environ["JUPYTERHUB_USER"] in ("ana", "bo")
                users.add(environ["JUPYTERHUB_USER"])
        if users == {"ana", "bo"} or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert users == {"ana", "bo"}, f"a student's lesson kernel was not found: {users}; processes: {seen}"


def test_idle_culler_runs_as_a_hub_service(students, hub):
    import psutil

    names = [" ".join(p.cmdline()) for p in psutil.Process(hub.proc.pid).children(recursive=True)
             if p.is_running()]
    assert any("jupyterhub_idle_culler" in n and "--timeout=" in n for n in names)
