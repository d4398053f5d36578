"""The dashboard's login (issue 20 part 5, issue 29 part 4): the token only at the login page,
the password only in its form, every wrong guess makes the computer that made it wait longer,
and nothing a class does can lock the teacher out: the printed token link always works, the
server's own computer never waits, a short password is refused with the reason. Logging out
works by a plain link too.

The :class:`Throttle` is tested with a fake clock (no real waiting); over HTTP the dashboard
runs with short delays."""

from __future__ import annotations

import asyncio
import re
import threading
import time
import urllib.parse

import pytest

from test_dashboard import TOKEN, Client, Dash, save, teacher
from tokens_edu.teacher.auth import OK, WAIT, WRONG, Throttle, TokenAuth, password_problem

PASSWORD = "a long password"


class FakeTime:
    """A clock that moves only when something sleeps."""

    def __init__(self):
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def throttle(t: FakeTime, **kw) -> Throttle:
    return Throttle(clock=t.clock, sleep=t.sleep, **kw)


def guess(th: Throttle, client: str, right: bool, calls: list | None = None) -> str:
    def check():
        if calls is not None:
            calls.append(client)
        return right
    return asyncio.run(th.attempt(client, check))


# -- the throttle --------------------------------------------------------------------------------
def test_each_wrong_guess_costs_more_time_from_the_same_computer():
    t = FakeTime()
    th = throttle(t, delay=1.0)
    starts = []
    for _ in range(5):
        starts.append(t.now)
        assert guess(th, "10.0.0.7", right=False) == WRONG
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert gaps == sorted(gaps) and gaps[-1] >= 8 * gaps[0]  # 1, 2, 4, 8 s ...
    assert guess(th, "10.0.0.7", right=True) == OK  # the right secret still works
    t.now += 1000  # and then the wrong guesses are forgotten
    before = t.now
    assert guess(th, "10.0.0.7", right=False) == WRONG and t.now - before == pytest.approx(1.0)


def test_no_number_of_wrong_guesses_locks_a_computer_out():
    """Broken before: 5 wrong guesses locked the computer out for 5 minutes, even from the right
    secret. Now each waits at most ``longest``, and then the right secret is taken."""
    t = FakeTime()
    th = throttle(t, delay=1.0, longest=60)
    for _ in range(50):
        assert guess(th, "10.0.0.7", right=False) == WRONG
    assert max(t.slept) == 60 and th.wait_for("10.0.0.7") == 0
    assert guess(th, "10.0.0.7", right=True) == OK


def test_wrong_guesses_slow_only_the_computer_that_makes_them():
    """Broken before: 20 wrong guesses from anywhere locked every login for 5 minutes (4
    computers sending 5 each)."""
    t = FakeTime()
    th = throttle(t, delay=1.0, longest=60)
    for i in range(20):
        for _ in range(5):
            guess(th, f"10.0.1.{i}", right=False)
    t.slept.clear()
    calls = []
    assert guess(th, "10.0.2.1", right=True, calls=calls) == OK and calls == ["10.0.2.1"]
    assert t.slept == []  # checked at once: nobody else's guesses made it wait


def test_guesses_sent_all_at_once_from_one_computer_are_not_faster():
    t = FakeTime()
    th = throttle(t, delay=1.0)
    calls = []

    async def flood():
        def check():
            calls.append(t.now)
            return False
        return await asyncio.gather(*(th.attempt("10.0.0.9", check) for _ in range(50)))

    outcomes = asyncio.run(flood())
    assert outcomes.count(WRONG) == 1 and outcomes.count(WAIT) == 49 and len(calls) == 1


def test_the_servers_own_computer_never_waits():
    t = FakeTime()
    th = throttle(t, delay=1.0)
    for _ in range(10):
        assert asyncio.run(th.attempt("127.0.0.1", lambda: False, free=True)) == WRONG
    assert t.slept == [] and asyncio.run(th.attempt("127.0.0.1", lambda: True, free=True)) == OK


def test_a_short_password_is_refused_with_the_reason():
    problem = password_problem("hunter2")
    assert "at least 12 characters" in problem and "this one has 7" in problem
    with pytest.raises(ValueError, match="at least 12 characters"):
        TokenAuth("t" * 30, password="hunter2")
    assert password_problem("purple kettle on the moon") is None


def test_secrets_are_compared_whole():
    auth = TokenAuth("tok-123456", password=PASSWORD)
    assert auth.is_token("tok-123456") and auth.is_token(" tok-123456\n")
    assert not auth.is_token("tok-12345") and not auth.is_token("tok-1234567") and not auth.is_token("")
    assert not auth.is_token(PASSWORD) and not auth.is_password("tok-123456")
    assert auth.is_password(PASSWORD) and not auth.is_password(None)
    assert not TokenAuth("t").is_password("")  # no password set: none is accepted


# -- over HTTP ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('login') / 'journal.sqlite'}"


def strict_dash(db):
    return Dash(db, throttle=Throttle(delay=0.5, longest=60))


#: A request passed on by a proxy on this computer: not the server's own computer (which never
#: waits), and every such request shares the proxy's address.
PROXIED = {"X-Forwarded-For": "10.0.0.7"}


def proxied(c: Client) -> Client:
    c.opener.addheaders = list(c.opener.addheaders) + list(PROXIED.items())
    return c


def test_the_password_is_not_a_token(db):
    d = strict_dash(db)
    try:
        pw = urllib.parse.quote(PASSWORD)
        for path in (f"?token={pw}", f"progress?token={pw}", f"login?token={pw}"):
            c = Client()
            status, _, body = c.get(d.root + path)
            assert c.cookie("tokens_teacher") is None, path
            assert 'name="secret"' in body  # the login page, not the dashboard
        c = Client()
        _, _, page = c.get(d.root + "login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        status, _, body = c.post(d.root + "login", {"_xsrf": xsrf, "secret": PASSWORD})
        assert status == 200 and "<h1>Answers</h1>" in body  # in the form, it works
    finally:
        d.stop()


def test_wrong_tokens_in_links_slow_that_computer_and_the_token_link_always_works(db):
    """Broken before: wrong guesses locked every login, the printed token link included."""
    d = strict_dash(db)
    try:
        statuses = [proxied(Client()).get(d.root + f"login?token=guess{i}")[0] for i in range(3)]
        assert statuses == [403] * 3  # answered 0.5, 1 and 2 s late
        late = threading.Thread(target=lambda: proxied(Client()).get(d.root + "login?token=guess3"))
        late.start()  # answered 4 s late: meanwhile this address's next guess must wait
        time.sleep(0.5)
        status, headers, body = proxied(Client()).get(d.root + "login?token=guess-again")
        assert status == 429 and "Wait" in body and int(headers["Retry-After"]) > 0
        for c in (proxied(Client()), Client()):  # the token link, even from the guessing address
            status, _, body = c.get(d.root + f"login?token={TOKEN}")
            assert status == 200 and "<h1>Answers</h1>" in body
        late.join(30)
        c = Client()  # the server's own computer: a wrong password costs no wait
        _, _, page = c.get(d.root + "login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        assert c.post(d.root + "login", {"_xsrf": xsrf, "secret": "wrong password here"})[0] == 403
        status, _, body = c.post(d.root + "login", {"_xsrf": xsrf, "secret": PASSWORD})
        assert status == 200 and "<h1>Answers</h1>" in body
    finally:
        d.stop()


def test_parallel_guesses_at_the_form_are_not_faster(db):
    """Twenty wrong passwords sent at once from one computer: one is checked, the others are
    told to wait, unchecked; the token in the form still works at once."""
    d = Dash(db, throttle=Throttle(delay=8, longest=60))  # the first wrong guess holds 8 s
    try:
        c = proxied(Client())
        _, _, page = c.get(d.root + "login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        results = []

        def one(i):
            results.append(c.post(d.root + "login", {"_xsrf": xsrf, "secret": f"password{i}"})[0])

        threads = [threading.Thread(target=one, args=(i,)) for i in range(20)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert sorted(results) == [403] + [429] * 19
        status, _, body = c.post(d.root + "login", {"_xsrf": xsrf, "secret": TOKEN})
        assert status == 200 and "<h1>Answers</h1>" in body
    finally:
        d.stop()


def test_a_control_character_in_next_gives_the_login_page_and_no_token_in_the_log(db, caplog):
    """Broken before: ``login?next=/%0C/x`` gave a logged-in teacher a 500 whose traceback
    repeated the token."""
    d = strict_dash(db)
    try:
        c = Client(follow=False)
        with caplog.at_level("DEBUG"):
            status, headers, _ = c.get(d.root + f"login?token={TOKEN}&next=/%0C/x")
            assert status == 302 and headers["Location"] == "/"
            status, headers, _ = c.get(d.root + "login?next=/%0C/x")  # logged in already
            assert status == 302 and headers["Location"] == "/"
            status, _, body = Client().get(d.root + "login?next=/%0C/x")  # not logged in
            assert status == 200 and 'name="secret"' in body
            Client().get(d.root + "login?token=wrong-token-in-a-link")
        assert TOKEN not in caplog.text and "wrong-token-in-a-link" not in caplog.text
    finally:
        d.stop()


def test_logout_by_link_or_button(db):
    d = strict_dash(db)
    try:
        save(db, "Ana", "GPT", "logout test answer")
        for how in ("get", "post"):
            c = teacher(d)
            assert "logout test answer" in c.get(d.root)[2]
            if how == "get":
                status, _, body = c.get(d.root + "logout")
            else:
                xsrf = re.search(r'name="_xsrf" value="([^"]+)"', c.get(d.root)[2]).group(1)
                status, _, body = c.post(d.root + "logout", {"_xsrf": xsrf})
            assert status == 200 and "You are logged out" in body
            status, _, body = c.get(d.root)
            assert "logout test answer" not in body and 'name="secret"' in body
        status, _, body = Client().get(d.root + "logout")  # not logged in: says so calmly
        assert status == 200
    finally:
        d.stop()
