"""The dashboard's login (issue 20 part 5): the token only at the login page, the password only
in its form, every wrong guess costs time (per computer and overall), a few lock the login for
a while, and logging out works by a plain link too.

The :class:`Throttle` is tested with a fake clock (no real waiting); over HTTP the dashboard
runs with short delays."""

from __future__ import annotations

import asyncio
import re
import threading
import urllib.parse

import pytest

from test_dashboard import TOKEN, Client, Dash, save, teacher
from tokens_edu.teacher.auth import LOCKED, OK, WRONG, Throttle, TokenAuth

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
    th = throttle(t, delay=1.0, lock_after=10)
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


def test_a_few_wrong_guesses_lock_that_computer_for_a_while():
    t = FakeTime()
    th = throttle(t, delay=1.0, lock_after=5, lock_for=300)
    calls = []
    for _ in range(5):
        assert guess(th, "10.0.0.7", right=False, calls=calls) == WRONG
    assert guess(th, "10.0.0.7", right=True, calls=calls) == LOCKED  # even the right secret
    assert len(calls) == 5  # a locked guess is not even checked
    assert 0 < th.locked_for("10.0.0.7") <= 300
    assert guess(th, "10.0.0.8", right=True) == OK  # another computer is not locked out
    t.now += 301
    assert guess(th, "10.0.0.7", right=True) == OK


def test_many_wrong_guesses_from_many_computers_lock_every_login():
    t = FakeTime()
    th = throttle(t, delay=1.0, lock_after=5, overall_lock_after=20, lock_for=300)
    for i in range(20):
        assert guess(th, f"10.0.1.{i}", right=False) == WRONG
    assert guess(th, "10.0.2.1", right=True) == LOCKED
    # every wrong guess made the next check wait, whoever made it: 20 guesses took 20 s or more
    assert sum(t.slept) >= 20


def test_guesses_sent_all_at_once_are_checked_one_at_a_time():
    t = FakeTime()
    th = throttle(t, delay=1.0, lock_after=5)
    calls = []

    async def flood():
        def check():
            calls.append(t.now)
            return False
        return await asyncio.gather(*(th.attempt("10.0.0.9", check) for _ in range(50)))

    outcomes = asyncio.run(flood())
    assert outcomes.count(WRONG) == 5 and outcomes.count(LOCKED) == 45
    assert all(b - a >= 1.0 for a, b in zip(calls, calls[1:]))  # never two checks at once


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
    return Dash(db, throttle=Throttle(delay=0.02, lock_after=5, overall_lock_after=20, lock_for=60))


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


def test_wrong_tokens_in_links_lock_the_login(db):
    d = strict_dash(db)
    try:
        for i in range(5):
            status, _, _ = Client().get(d.root + f"login?token=guess{i}")
            assert status == 403
        status, headers, body = Client().get(d.root + f"login?token={TOKEN}")
        assert status == 429 and "Too many wrong tries" in body and int(headers["Retry-After"]) > 0
        status, _, _ = Client().get(d.root + f"?token={TOKEN}")  # an old-style link too
        assert status == 429
    finally:
        d.stop()


def test_parallel_guesses_at_the_form_are_not_faster(db):
    """Twenty wrong passwords sent at once: five are checked, the rest refused unchecked, and
    then the right password is refused too until the lock ends."""
    d = strict_dash(db)
    try:
        c = Client()
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
        assert sorted(results) == [403] * 5 + [429] * 15
        status, _, body = c.post(d.root + "login", {"_xsrf": xsrf, "secret": PASSWORD})
        assert status == 429 and "<h1>Answers</h1>" not in body
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


def test_each_new_lock_lasts_longer_up_to_the_longest():
    """A guesser who waits out every lock: each lock of that computer (and of every login)
    lasts twice the one before, up to ``longest_lock``; the right secret starts afresh."""
    t = FakeTime()
    th = throttle(t, delay=1.0, lock_after=5, overall_lock_after=1000, lock_for=300, longest_lock=1200)
    lengths = []
    for _ in range(4):
        while guess(th, "10.0.0.7", right=False) != LOCKED:
            pass
        lengths.append(th.locked_for("10.0.0.7") + t.slept[-1])  # the lock began before that wait
        t.now += lengths[-1]
    assert [round(x) for x in lengths] == [300, 600, 1200, 1200]
    assert guess(th, "10.0.0.7", right=True) == OK
    while guess(th, "10.0.0.7", right=False) != LOCKED:
        pass
    assert round(th.locked_for("10.0.0.7") + t.slept[-1]) == 300  # afresh after the teacher logged in

    t2 = FakeTime()
    every = throttle(t2, delay=1.0, lock_after=1000, overall_lock_after=20, lock_for=300, longest_lock=3600)
    lengths = []
    for round_ in range(3):
        i = 0
        while guess(every, f"10.0.{round_}.{i}", right=False) != LOCKED:
            i += 1
        lengths.append(every.locked_for("10.9.9.9") + t2.slept[-1])
        t2.now += lengths[-1]
    assert [round(x) for x in lengths] == [300, 600, 1200]
