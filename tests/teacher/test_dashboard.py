"""The teacher dashboard over HTTP: login, filters, escaping, the wall, export, live events.

The app runs in a thread of this test process (one per test module); requests go through
urllib with a cookie jar, as a browser would. The browser test (``test_teacher_browser.py``)
checks the live page itself.
"""

from __future__ import annotations

import asyncio
import csv
import http.cookiejar
import io
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tokens_edu import Game, starter_decks
from tokens_edu.players import GreedyBot
from tokens_edu.teacher.auth import Throttle, TokenAuth
from tokens_edu.teacher.dashboard import make_app
from tokens_edu.teacher.pages import answers_csv, safe_cell
from tokens_edu.session.journal import Journal
from tokens_edu.store.roster import Roster
from tokens_edu.store.games import GameStore

TOKEN = "teacher-token-for-tests"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Dash:
    """The dashboard app on a free port, in its own thread and event loop."""

    def __init__(self, url: str, base_url: str = "/", throttle: Throttle | None = None, today=None):
        # a lenient throttle for the tests that guess wrong on purpose; the throttle's own
        # tests give theirs
        throttle = throttle or Throttle(delay=0.01, longest=0.01)
        self.port = free_port()
        self.root = f"http://127.0.0.1:{self.port}{base_url if base_url.endswith('/') else base_url + '/'}"
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)

            async def start():
                self.app = make_app(url, auth=TokenAuth(TOKEN, password="a long password",
                                                        throttle=throttle),
                                    base_url=base_url, poll=0.1, today=today)
                self.server = self.app.listen(self.port, "127.0.0.1")
                started.set()

            self.loop.run_until_complete(start())
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(30)

    def stop(self):
        self.loop.call_soon_threadsafe(self.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    def __init__(self, follow: bool = True):
        self.jar = http.cookiejar.CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.jar)]
        if not follow:
            handlers.append(NoRedirect())
        self.opener = urllib.request.build_opener(*handlers)

    def get(self, url: str):
        try:
            r = self.opener.open(url, timeout=30)
            return r.status, r.headers, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode("utf-8", "replace")

    def post(self, url: str, fields: dict):
        data = urllib.parse.urlencode(fields).encode()
        try:
            r = self.opener.open(urllib.request.Request(url, data=data), timeout=30)
            return r.status, r.headers, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode("utf-8", "replace")

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("dash") / "journal.sqlite"
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def dash(db):
    d = Dash(db)
    yield d
    d.stop()


def teacher(dash) -> Client:
    c = Client()
    status, _, _ = c.get(dash.root + f"login?token={TOKEN}")
    assert status == 200
    return c


def save(db, student, card, text, lesson="01-read-a-card"):
    return Journal(db, student=student, lesson=lesson).save(card, text)


# -- who may look --------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["", "progress", "wall", "games", "export.csv", "events",
                                  "games/00000000-0000-0000-0000-000000000000",
                                  "?token=wrong", "export.csv?token=" + TOKEN[:-1]])
def test_a_visitor_without_the_token_is_refused(dash, db, path):
    save(db, "Secret Student", "Chatbot", "a private answer")
    status, headers, body = Client(follow=False).get(dash.root + path)
    assert status == 302 and "/login" in headers["Location"]
    status, _, body = Client().get(dash.root + path)  # following the redirect: the login page
    assert "Secret Student" not in body and "a private answer" not in body
    assert 'name="secret"' in body


def test_login_form_takes_the_token_or_the_password_and_refuses_others(dash):
    c = Client()
    status, _, page = c.get(dash.root + "login")
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    status, _, body = c.post(dash.root + "login", {"_xsrf": xsrf, "secret": "guess", "next": "/"})
    assert status == 403 and "not right" in body
    status, _, body = c.post(dash.root + "login", {"secret": TOKEN})  # no xsrf field: refused
    assert status == 403
    status, _, body = c.post(dash.root + "login", {"_xsrf": xsrf, "secret": "a long password",
                                                   "next": "/progress"})
    assert status == 200 and "<h1>Progress</h1>" in body
    nf = Client(follow=False)
    for evil in ("//evil.example/", "http://evil.example/", "/\\evil.example"):
        status, headers, _ = nf.get(dash.root + f"login?token={TOKEN}&next={urllib.parse.quote(evil)}")
        assert status == 302 and headers["Location"] == "/"  # never to another site
    # logging out ends it
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', body).group(1)
    c.post(dash.root + "logout", {"_xsrf": xsrf})
    status, _, body = Client(follow=False).get(dash.root)
    assert status == 302


def test_the_token_link_logs_in_and_leaves_the_address(dash):
    """Only the login page takes the token; an old-style link (``/progress?token=...``) is sent
    there with it, and the page to come back to has no token in it."""
    c = Client(follow=False)
    status, headers, _ = c.get(dash.root + f"progress?token={TOKEN}&lesson=x")
    assert status == 302 and c.cookie("tokens_teacher") is None  # not logged in by this page
    login = urllib.parse.urlsplit(headers["Location"])
    assert login.path == "/login"
    args = urllib.parse.parse_qs(login.query)
    assert args["token"] == [TOKEN] and args["next"] == ["/progress?lesson=x"]
    status, headers, _ = c.get(f"http://127.0.0.1:{dash.port}" + headers["Location"])
    assert status == 302 and headers["Location"] == "/progress?lesson=x"
    cookie = c.cookie("tokens_teacher")
    assert cookie and TOKEN not in cookie


def test_security_headers(dash):
    status, headers, _ = teacher(dash).get(dash.root)
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"


# -- what a teacher sees ----------------------------------------------------------------------------
def test_answers_are_escaped_filtered_and_latest_first(dash, db):
    save(db, "Ana", "Neural Network", "first try")
    save(db, "Ana", "Neural Network", "<img src=x onerror=alert(1)> second try")
    save(db, "Bo", "Neural Network", "Bo's idea")
    c = teacher(dash)
    _, _, page = c.get(dash.root + "?card=Neural+Network")
    assert "&lt;img src=x onerror=alert(1)&gt; second try" in page and "<img src=x" not in page
    assert "first try" not in page and "(2 saves)" in page  # the latest per card by default
    assert "Bo&#39;s idea" in page
    _, _, page = c.get(dash.root + "?card=Neural+Network&every=1")
    assert "first try" in page and "second try" in page
    _, _, page = c.get(dash.root + "?student=Bo&fragment=1")
    assert "Bo&#39;s idea" in page and "second try" not in page and "<html" not in page
    _, _, page = c.get(dash.root + "?q=SECOND")
    assert "second try" in page and "Bo&#39;s idea" not in page


def test_concept_checks_sit_beside_the_answers(dash, db):
    """Issue 19 part 6: predictions, exit questions and lesson results, by student, lesson and
    question, with how many are right, on the Answers page beside the Discuss answers."""
    lesson = "11-fair-data"
    ana = Journal(db, student="Ana", lesson=lesson)
    bo = Journal(db, student="Bo", lesson=lesson)
    ana.save("Fairness Check", "Only if it is fixed first.")
    ana.save_response("Which group do you think the app will get wrong most often?", "Pen on a tablet",
                      kind="prediction", correct=False)
    ana.save_response("Which group do you think the app will get wrong most often?", "Finger on a phone",
                      kind="prediction", correct=True)
    bo.save_response("Which group do you think the app will get wrong most often?", "<b>Mouse</b>",
                     kind="prediction", correct=False)
    bo.save_response("Test result: accuracy for each group", "Test 1: pen 100%, finger 67%", kind="result")
    ana.save_response("What is the best first step to fix it?", "Add examples from the group it fails",
                      kind="exit", correct=True)
    c = teacher(dash)
    _, _, page = c.get(dash.root + f"?lesson={lesson}")
    answers_at, checks_at = page.index('class="discuss-answers"'), page.index('class="checks"')
    assert answers_at < checks_at and "Only if it is fixed first." in page[answers_at:checks_at]
    summary = page[page.index('class="check-summary"'):page.index("By student")]
    assert re.search(r"wrong most often\?</td><td>Prediction</td><td class=\"num\">2</td>"
                     r"<td class=\"score\">1 of 2 right \(1 of 3 tries\)</td>", summary), summary
    assert "Exit question</td><td class=\"num\">1</td><td class=\"score\">1 of 1 right" in summary
    assert "Result</td><td class=\"num\">1</td><td class=\"score\">no single right answer" in summary
    assert "&lt;b&gt;Mouse&lt;/b&gt;" in page and "<b>Mouse</b>" not in page  # escaped
    assert "(1 of 2 tries right)" in page  # Ana's latest guess, after a wrong one
    _, _, page = c.get(dash.root + f"?lesson={lesson}&student=Bo&fragment=1")
    checks = page[page.index('class="checks"'):]
    assert "Test 1: pen 100%" in checks and "Finger on a phone" not in checks  # Bo's only
    _, _, page = c.get(dash.root + "?lesson=05-play-the-computer")
    assert "No predictions, exit questions or results yet" in page


def test_events_tell_the_page_when_a_prediction_arrives(dash, db):
    c = teacher(dash)
    stream = c.opener.open(dash.root + "events", timeout=20)
    first = stream.readline().decode()
    stream.readline()
    Journal(db, student="Cy", lesson="10-teach-the-computer").save_response(
        "Batch guess: what will its win rate do?", "It will go up", kind="prediction", correct=True)
    second = stream.readline().decode()
    assert second.startswith("data: ") and second != first
    stream.close()


def test_export_is_formula_safe(dash, db):
    nasty = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]
    for i, text in enumerate(nasty):
        save(db, f"Pupil {i}", "GAN", text, lesson="04-keywords")
    save(db, "=cmd|' /C calc'!A0", "GAN", "a name that is a formula", lesson="04-keywords")
    status, headers, body = teacher(dash).get(dash.root + "export.csv?lesson=04-keywords")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert "attachment" in headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"), newline="")))
    assert len(rows) == len(nasty) + 1
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
    got = {r["answer"] for r in rows}
    assert {"'" + t for t in nasty} <= got
    assert any(r["student"] == "'=cmd|' /C calc'!A0" for r in rows)


def test_safe_cell_and_answers_csv():
    assert safe_cell("=1") == "'=1" and safe_cell("fine = ok") == "fine = ok" and safe_cell(3) == 3
    import pandas as pd

    text = answers_csv(pd.DataFrame({"answer": ["-x", "ok"], "n": [1, 2]}))
    assert text == "answer,n\r\n'-x,1\r\nok,2\r\n"


def test_the_wall_shows_answers_without_names(dash, db):
    save(db, "Zanzibar Quill", "Deepfake", "Fake videos can fool people.", lesson="wall-lesson")
    save(db, "Orla Vantwest", "Deepfake", "Check where a video comes from!", lesson="wall-lesson")
    _, _, page = teacher(dash).get(dash.root + "wall?lesson=wall-lesson&card=Deepfake")
    assert "Fake videos can fool people." in page and "Check where a video comes from!" in page
    assert "Zanzibar" not in page and "Orla" not in page and "Vantwest" not in page
    assert "2 answers" in page and 'class="tile"' in page
    _, _, page = teacher(dash).get(dash.root + "wall?lesson=wall-lesson&card=%3Cb%3ENo+such")
    assert "No answers to this card yet" in page and "<b>No such" not in page


@pytest.mark.parametrize("query", ["step=abc", "step=-5", "step=99999", "seat=7&step=2", "step=%00"])
def test_odd_replay_addresses_are_calm(dash, db, query):
    store = GameStore(db)
    d = starter_decks()
    game = Game.new(d[1], d[6], seed=4, names=("Cy", "Computer"))
    gid = store.start(game, "Cy", "05-play-the-computer", page="p")
    game.apply(game.legal_actions()[0])
    store.save(gid, game, "p")
    import json

    status, _, body = teacher(dash).get(dash.root + f"games/{gid}?fragment=1&{query}")
    assert status == 200
    got = json.loads(body)
    assert 0 <= got["step"] <= 1 and got["seat"] in (0, 1)


def test_progress_grid_roster_and_games(dash, db):
    Roster(db).add(["Quiet Quinn"])
    store = GameStore(db)
    d = starter_decks()
    game = Game.new(d[0], d[7], seed=3, names=("Ana", "Computer"))
    gid = store.start(game, "Ana", "05-play-the-computer", ("human", "greedy"), "turn", page="p")
    bot = GreedyBot()
    for _ in range(12):
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    _, _, page = teacher(dash).get(dash.root + "progress")
    row = re.search(r'<tr data-student="Quiet Quinn">(.*?)</tr>', page, re.S).group(1)
    assert 'class="done"' not in row and ">0/" in row  # on the class list, nothing answered yet
    ana = re.search(r'<tr data-student="Ana">(.*?)</tr>', page, re.S).group(1)
    assert 'class="done"' in ana and f"playing, turn {game.turn}</span>" in ana
    assert f"games/{gid}" in ana


def test_replay_steps_are_the_records_positions(dash, db):
    store = GameStore(db)
    d = starter_decks()
    game = Game.new(d[2], d[5], seed=8, names=("Bo", "Computer"))
    gid = store.start(game, "Bo", "05-play-the-computer", page="p")
    bot = GreedyBot()
    for _ in range(20):
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    c = teacher(dash)
    status, _, page = c.get(dash.root + f"games/{gid}")
    assert status == 200 and "both players' hands" in page
    record = game.to_record()
    import json

    from tokens_edu.present.table import table_state

    for step in (0, 7, 20, 3, 19):
        for seat in (0, 1):
            _, _, body = c.get(dash.root + f"games/{gid}?fragment=1&step={step}&seat={seat}")
            got = json.loads(body)
            at = Game.from_record(dict(record, actions=record["actions"][:step]))
            assert got["step"] == step and got["length"] == 20 and got["seat"] == seat
            want = table_state(at, seat, seat=seat, log_lines=got["state"]["log"])
            assert {k: got["state"][k] for k in want} == json.loads(json.dumps(want))
            # the other hand, beside the table
            assert got["other"]["hand"] == [c.name for c in at.observation(1 - seat).hand]
    status, _, _ = c.get(dash.root + "games/11111111-1111-1111-1111-111111111111")
    assert status == 404
    # the record file opens in ReplayView as the same game
    status, headers, body = c.get(dash.root + f"games/{gid}.json")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    from tokens_edu.widgets import ReplayView

    view = ReplayView(json.loads(body), step="end")
    assert view.replay.game.state_key() == game.state_key()
    assert Client(follow=False).get(dash.root + f"games/{gid}.json")[0] == 302  # teacher only


def test_events_tell_the_page_when_an_answer_arrives(dash, db):
    c = teacher(dash)
    stream = c.opener.open(dash.root + "events", timeout=20)
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    first = stream.readline().decode()
    assert first.startswith("data: ")
    stream.readline()
    t0 = time.monotonic()
    save(db, "Ana", "Sensor", "sensors measure the world")
    second = stream.readline().decode()
    assert second.startswith("data: ") and second != first
    assert time.monotonic() - t0 < 10
    stream.close()


def test_base_url_for_a_hub_service(db):
    d = Dash(db, base_url="/services/teacher/")
    try:
        c = Client()
        status, _, page = c.get(d.root + f"login?token={TOKEN}")
        assert status == 200 and 'href="/services/teacher/progress"' in page
        assert 'data-base="/services/teacher/"' in page
        status, headers, _ = Client(follow=False).get(f"http://127.0.0.1:{d.port}/services/teacher")
        assert status == 301 or status == 302
        status, _, _ = Client(follow=False).get(f"http://127.0.0.1:{d.port}/")
        assert status == 404
    finally:
        d.stop()


# -- the command -----------------------------------------------------------------------------------
def test_teacher_command_help(capsys):
    from tokens_edu import cli

    with pytest.raises(SystemExit) as e:
        cli.main(["teacher", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for opt in ("--port", "--host", "--data-dir", "--password-file", "--base-url"):
        assert opt in out


def test_teacher_command_starts_prints_its_link_and_stops_on_ctrl_c(tmp_path):
    import signal

    from teacher_helpers import Proc, clean_env

    port = free_port()
    env = clean_env(tmp_path, TOKENS_EDU_TEACHER_TOKEN="cli-token-123")
    proc = Proc(["teacher", "--port", str(port)], env, tmp_path / "t.log")
    try:
        proc.wait_for_url(f"http://127.0.0.1:{port}/login", timeout=60)
        deadline = time.monotonic() + 10
        while "Ctrl-C" not in proc.text() and time.monotonic() < deadline:
            time.sleep(0.1)
        out = proc.text()
        assert f"http://127.0.0.1:{port}/login?token=cli-token-123" in out
        assert str(tmp_path) in out  # which answers it shows
        status, _, page = Client().get(f"http://127.0.0.1:{port}/login?token=cli-token-123")
        assert status == 200 and "<h1>Answers</h1>" in page
    finally:
        code = proc.stop(signal.SIGINT)
    assert code == 0 and "Stopped." in proc.text()


def test_teacher_command_refuses_a_busy_port_and_a_short_password(tmp_path, capsys, monkeypatch):
    from tokens_edu import cli

    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["teacher", "--port", str(port)]) == 2
    assert "already in use" in capsys.readouterr().err
    short = tmp_path / "pw.txt"
    short.write_text("abc\n")
    assert cli.main(["teacher", "--port", str(free_port()), "--password-file", str(short)]) == 2
    assert "at least 12 characters (this one has 3)" in capsys.readouterr().err
    assert cli.main(["teacher", "--password-file", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read the password file" in capsys.readouterr().err


def test_a_fresh_folder_reads_as_empty(tmp_path):
    """On a new database the dashboard shows nothing (its tables come from the store's
    migrations, as for every part of the kit), and sees games and the class list once made."""
    from tokens_edu.teacher.data import ClassData

    url = f"sqlite:///{tmp_path}/fresh.sqlite"
    data = ClassData(url)
    assert data.games.games().empty and data.roster.entries() == [] and data.choices()["students"] == []
    data.refresh()
    GameStore(url).start(Game.new(starter_decks()[0], starter_decks()[7], seed=1), "Ana", "05", page="p")
    Roster(url).add(["Ana"])
    assert len(data.games.games()) == 1 and [e.name for e in data.roster.entries()] == ["Ana"]


def test_progress_shows_each_lessons_prompts_before_anyone_answers(tmp_path):
    """The lessons' own Discuss questions are columns from the start (read from the notebooks)."""
    from pathlib import Path

    from tokens_edu.teacher.data import ClassData as DashboardData
    from tokens_edu.teacher.lessons import lesson_prompts

    lessons = Path(__file__).resolve().parents[2] / "lessons"
    prompts = lesson_prompts(lessons)
    assert ("01-read-a-card", "GPT") in prompts and ("05-play-the-computer", "Decision Tree") in prompts
    url = f"sqlite:///{tmp_path}/p.sqlite"
    Journal(url, student="Ana", lesson="05-play-the-computer").save("Sensor", "met in a game")
    pairs = DashboardData(url, lessons=lessons).choices()["prompts"]
    assert pairs.index(("05-play-the-computer", "Decision Tree")) + 1 == \
        pairs.index(("05-play-the-computer", "Sensor"))  # the lesson's own first, then games'
    assert [p[0] for p in pairs] == sorted(p[0] for p in pairs)
    assert lesson_prompts(tmp_path / "none") == [] and lesson_prompts(None) == []


# -- reading a little at a time (issue 20 part 6) --------------------------------------------------
def _insert_answers(url: str, n: int, start: int = 0) -> None:
    """``n`` answers written straight into the table (fast; as ``Journal.save`` would)."""
    import datetime as dt
    import uuid

    import sqlalchemy as sa

    from tokens_edu.store.schema import answers as answers_table

    now = dt.datetime.now(dt.timezone.utc)
    rows = [{"id": str(uuid.uuid4()), "student": f"Student {i % 30:02}", "lesson": f"{1 + i % 9:02}-lesson",
             "card": ["GPT", "Deepfake", "Sensor", "Chatbot"][i % 4], "prompt": "Why?",
             "answer": f"answer number {i} " * 4, "saved_at": now - dt.timedelta(seconds=n - i)}
            for i in range(start, start + n)]
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.insert(answers_table), rows)
    engine.dispose()


def test_pages_read_only_the_new_answers(tmp_path):
    """After the first look, a page reads what arrived since, not the whole answers table: the
    database's own work per page (SQLite virtual-machine steps) stays a small part of one
    full read of the table."""
    import sqlalchemy as sa

    url = f"sqlite:///{tmp_path}/big.sqlite"
    Journal(url, student="Ana", lesson="01-read-a-card").save("GPT", "first")
    _insert_answers(url, 3000)
    d = Dash(url)
    try:
        c = teacher(d)
        steps = [0]

        def count():
            steps[0] += 1
            return 0

        engine = d.app.settings["data"]._engine
        sa.event.listen(engine, "connect", lambda dbapi, rec: dbapi.set_progress_handler(count, 100))
        with engine.connect() as conn:  # what one full read of the answers costs
            conn.execute(sa.text("SELECT * FROM answers")).all()
        full, steps[0] = steps[0], 0
        assert full > 50
        c.get(d.root)  # the first look after the counting started
        for path in ("", "progress", "wall", "?every=1", "export.csv", "games"):
            text = f"new answer for {path or 'answers'}"
            save(url, "Bo", "GPT", text)
            steps[0] = 0
            status, _, body = c.get(d.root + path)
            assert status == 200 and (text in body or path in ("progress", "games"))
            assert steps[0] < full / 10, (path, steps[0], full)
    finally:
        d.stop()


def test_a_game_has_one_word_for_its_state_on_every_page(dash, db):
    """Progress, Games and the replay call a game the same thing, in the kit's one word
    (present/words.py; they said "left" and "playing" for the same game), and the replay's
    times use the one 24-hour clock."""
    import datetime as dt

    import sqlalchemy as sa

    from tokens_edu.store.games import games_table

    store = GameStore(db)
    d = starter_decks()
    game = Game.new(d[1], d[6], seed=4, names=("Idle Ida", "Computer"))
    gid = store.start(game, "Idle Ida", "06-idle", ("human", "greedy"), "turn", page="p")
    bot = GreedyBot()
    for _ in range(6):
        game.apply(bot.choose(game))
    store.save(gid, game, "p")
    engine = sa.create_engine(db)
    with engine.begin() as conn:  # nobody has moved in it for an hour
        conn.execute(games_table.update().where(games_table.c.id == gid)
                     .values(updated_at=dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=1)))
    engine.dispose()
    c = teacher(dash)
    _, _, progress = c.get(dash.root + "progress?lesson=06-idle")
    _, _, games = c.get(dash.root + "games?lesson=06-idle")
    word = re.compile(r'<span class="state state-(\w+)">([^<]+)</span>')
    assert word.findall(progress) == [("playing", f"playing, turn {game.turn}")]
    assert word.findall(games) == [("playing", "playing")]
    assert "left" not in progress and "not finished" not in progress
    _, _, replay = c.get(dash.root + f"games/{gid}")
    assert re.search(r'class="replay-status">playing \(saved ', replay)
    assert re.search(r"started (\d+ \w{3} )?\d\d:\d\d:\d\d", replay)  # the one 24-hour clock


# -- today's lesson (issue 20 part 1) ------------------------------------------------------------
class FakeToday:
    """What ``make_app(today=...)`` takes: the lessons to offer, the one set, a way to set it."""

    def __init__(self):
        self.lesson = None
        self.calls = []

    def options(self):
        return [("01-read-a-card.ipynb", "Lesson 1: Read a card"), ("03-task-and-audit.ipynb", "Lesson 3")]

    def current(self):
        return self.lesson

    def set(self, lesson):
        self.calls.append(lesson)
        self.lesson = lesson


def test_the_teacher_can_say_todays_lesson(dash, db):
    today = FakeToday()
    d = Dash(db, today=today)
    try:
        c = teacher(d)
        _, _, page = c.get(d.root + "progress")
        assert 'name="lesson"' in page and "Lesson 3" in page and "Today's lesson" in page
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        status, _, page = c.post(d.root + "today", {"_xsrf": xsrf, "lesson": "03-task-and-audit.ipynb",
                                                   "back": "/progress"})
        assert status == 200 and "<h1>Progress</h1>" in page and today.calls == ["03-task-and-audit.ipynb"]
        assert re.search(r'<option value="03-task-and-audit.ipynb" selected>', page)
        status, _, _ = c.post(d.root + "today", {"_xsrf": xsrf, "lesson": "../../etc/passwd"})
        assert status == 400 and today.calls == ["03-task-and-audit.ipynb"]  # only a lesson offered
        c.post(d.root + "today", {"_xsrf": xsrf, "lesson": "", "back": "//evil.example/"})
        assert today.calls[-1] is None  # cleared
        status, _, _ = Client().post(d.root + "today", {"lesson": "01-read-a-card.ipynb"})
        assert status == 403 and today.calls[-1] is None  # no login, no change
    finally:
        d.stop()
    # without a way to tell the lesson server (e.g. under JupyterHub), no control
    _, _, page = teacher(dash).get(dash.root + "progress")
    assert "Today's lesson" not in page
    assert Client().post(dash.root + "today", {"lesson": ""})[0] == 403


def test_the_command_tells_the_lesson_server_through_its_file(tmp_path, monkeypatch):
    """``tokens-edu teacher`` gives the dashboard the lesson server's today's-lesson file
    (tokens_edu.server.today's read_today / write_today) in the shared data folder."""
    from pathlib import Path

    from tokens_edu.cli import teacher as command

    written = {}

    class FakeTodayModule:
        @staticmethod
        def read_today(folder):
            return written.get(folder), None

        @staticmethod
        def write_today(folder, lesson):
            written[folder] = lesson

    monkeypatch.setattr(command, "today_file", FakeTodayModule)
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    today = command.TodayFile(tmp_path, lessons)
    names = [value for value, _ in today.options()]
    assert "01-read-a-card.ipynb" in names and not any(n.startswith("00-") for n in names)
    assert today.current() is None
    today.set("01-read-a-card.ipynb")
    assert written == {tmp_path: "01-read-a-card.ipynb"} and today.current() == "01-read-a-card.ipynb"


# -- predictions, exit questions and results (issue 19 part 6) -----------------------------------
def _responses_table(url):
    """The store's ``responses`` table as its migration makes it (branch "store",
    tokens_edu/store/schema.py), with a few rows."""
    import datetime as dt
    import uuid

    import sqlalchemy as sa

    meta = sa.MetaData()
    t = sa.Table("responses", meta,
                 sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
                 sa.Column("id", sa.String(36), nullable=False), sa.Column("student", sa.String(200)),
                 sa.Column("lesson", sa.String(200)), sa.Column("question", sa.String(200)),
                 sa.Column("kind", sa.String(16)), sa.Column("answer", sa.Text),
                 sa.Column("correct", sa.Boolean, nullable=True),
                 sa.Column("saved_at", sa.DateTime(timezone=True)),
                 sa.Column("browser", sa.String(64), server_default=""))
    engine = sa.create_engine(url)
    meta.create_all(engine)
    now = dt.datetime.now(dt.timezone.utc)

    def add(student, question, kind, answer, correct, ago=0):
        with engine.begin() as conn:
            conn.execute(sa.insert(t), [{"id": str(uuid.uuid4()), "student": student,
                                         "lesson": "05-checks", "question": question, "kind": kind,
                                         "answer": answer, "correct": correct,
                                         "saved_at": now - dt.timedelta(seconds=ago)}])
    return add


def test_predictions_exit_questions_and_results_beside_the_answers(tmp_path):
    url = f"sqlite:///{tmp_path}/checks.sqlite"
    save(url, "Ana", "Decision Tree", "It follows rules.", lesson="05-checks")
    d = Dash(url)
    try:
        c = teacher(d)
        _, _, page = c.get(d.root + "questions")
        assert "No predictions" in page  # before the store has the table: calm
        add = _responses_table(url)
        add("Ana", "l05-bot-move", "prediction", "The Audit", False, ago=60)
        add("Ana", "l05-bot-move", "prediction", "The Task", True)  # changed her mind: latest counts
        add("Bo", "l05-bot-move", "prediction", "<b>The Audit</b>", False)
        add("Bo", "l05-exit", "exit", "Rules can be written by people.", None)
        _, _, page = c.get(d.root + "questions?lesson=05-checks")
        row = re.search(r'<tr class="question-row">(.*?l05-bot-move.*?)</tr>', page, re.S).group(1)
        assert "2</td>" in row and "1 of 2" in row  # two answered, one right
        assert "The Task" in row and "&lt;b&gt;The Audit&lt;/b&gt;" in row and "<b>The Audit" not in row
        assert "exit question" in page and "Rules can be written by people." in page
        _, _, grid = c.get(d.root + "progress?lesson=05-checks")
        ana = re.search(r'<tr data-student="Ana">(.*?)</tr>', grid, re.S).group(1)
        bo = re.search(r'<tr data-student="Bo">(.*?)</tr>', grid, re.S).group(1)
        assert 'class="done"' in ana and 'class="right"' in ana  # the Discuss answer and the check
        assert 'class="wrong"' in bo and "l05-exit" in grid
    finally:
        d.stop()
