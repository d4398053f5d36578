"""Games kept: a lesson's NewGamePanel saves each move; a page opened again offers to continue.

Driven from Python, as a page's clicks would (the browser test in ``test_resume_browser.py``
reloads a real lesson page).
"""

from __future__ import annotations

import pytest

from tokens_edu.session.journal import Journal
from tokens_edu.store.games import GameStore
from tokens_edu import Action
from tokens_edu.widgets import NewGamePanel
from tokens_edu.widgets.game_view import PAGE_ONLY_NOTE
from tokens_edu.widgets.keep import KEPT_NOTE

LESSON = "05-play-the-computer"


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENS_EDU_DATA", str(tmp_path))
    monkeypatch.delenv("TOKENS_EDU_DB_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    return tmp_path


def panel(student="Ana", seats=("human", "greedy"), lesson=LESSON, **kw) -> NewGamePanel:
    journal = Journal(student=student, lesson=lesson) if student else Journal(lesson=lesson)
    # the panel's lesson is a title (as in lesson 5); games are kept under the journal's lesson
    return NewGamePanel(seats=seats, journal=journal, lesson="A title above the table",
                        autoplay=False, **kw)


def play(p: NewGamePanel, n: int) -> None:
    """``n`` moves: the student's first offered move, or the computer's next one."""
    view = p.view
    for _ in range(n):
        if view.game.over:
            return
        if view.match.bot_to_act():
            view._on_step({})
        elif view.match.covered():  # hot seat: the next player shows their cards
            view._on_reveal()
        else:
            moves = view.match.legal_moves()
            tasks = [a for a in moves if a.kind in ("task", "deploy")]
            view.buttons[(tasks or moves)[0]].click()


def flush(p: NewGamePanel) -> None:
    assert p.keeping.keeper.flush()


def test_a_reload_offers_the_same_game_in_the_same_seat(data):
    first = panel(undo="free")
    assert first.keeping is not None and first.keeping.box.layout.display == "none"
    assert KEPT_NOTE in first.page_note.value and PAGE_ONLY_NOTE not in first.page_note.value
    first.start_button.click()
    play(first, 14)
    flush(first)
    before = first.view.game

    again = panel(undo="free")  # the same lesson opened again (a reload, a new tab)
    assert again.keeping.box.layout.display is None  # "Continue your game" is offered
    assert again.setup.layout.display == "none"
    summary = again.keeping.summary.value
    assert f"Turn {before.turn}" in summary and f"{len(before.history)} moves" in summary
    again.keeping.continue_button.click()
    game = again.view.game
    assert game.state_key() == before.state_key()
    assert again.view.viewer() == 0 and again.view.match.bots[1] is not None  # same seat
    assert again.view.match.undo_policy == "free"  # the lesson's undo rules
    assert again.keeping.box.layout.display == "none"
    play(again, 4)
    flush(again)
    saved = GameStore().unfinished("Ana", LESSON) or GameStore().games(student="Ana").iloc[0]
    assert saved is not None


def test_new_game_instead_stops_the_old_one(data):
    first = panel()
    first.start_button.click()
    play(first, 5)
    flush(first)
    old = first.keeping.keeper.game_id
    again = panel()
    again.keeping.new_button.click()
    assert again.setup.layout.display is None and again.keeping.box.layout.display == "none"
    again.start_button.click()
    store = GameStore()
    assert store.get(old).status == "stopped"
    assert store.unfinished("Ana", LESSON).id == again.keeping.keeper.game_id
    assert store.unfinished("Ana", LESSON).moves == 0


def test_no_name_means_the_game_lives_in_the_page(data):
    p = panel(student=None)
    assert p.keeping is None and PAGE_ONLY_NOTE in p.page_note.value
    p.start_button.click()
    play(p, 3)
    assert GameStore().games().empty


def test_other_students_and_lessons_see_no_offer(data):
    first = panel()
    first.start_button.click()
    play(first, 3)
    flush(first)
    assert panel(student="Bo").keeping.box.layout.display == "none"
    assert panel(lesson="06-hot-seat", seats=("human", "human")).keeping.box.layout.display == "none"


def test_the_old_tab_is_told_when_a_new_tab_continues(data):
    """The old tab is told as soon as its first move after the takeover cannot be saved (a
    newcomer found that move looked saved when the warning came one move later)."""
    first = panel()
    first.start_button.click()
    play(first, 3)
    flush(first)
    second = panel()
    second.keeping.continue_button.click()
    play(first, 1)
    flush(first)
    assert "another tab" in first.note.value
    play(first, 1)
    flush(first)
    assert "another tab" in first.note.value
    assert GameStore().get(second.keeping.keeper.game_id).moves == 3


def test_hot_seat_resumes_behind_the_cover(data):
    first = panel(seats=("human", "human"), lesson="06-hot-seat")
    first.name_boxes[1].value = "Bo"
    first.start_button.click()
    play(first, 4)
    flush(first)
    again = panel(seats=("human", "human"), lesson="06-hot-seat")
    again.keeping.continue_button.click()
    assert again.view.match.covered()  # nobody's hand on the page until the player shows it
    assert again.view.game.names == ("Ana", "Bo")


def test_play_again_keeps_the_next_game_too(data):
    p = panel()
    p.start_button.click()
    first_id = p.keeping.keeper.game_id
    p._play_again(p.view)
    flush(p)
    assert p.keeping.keeper.game_id != first_id
    assert GameStore().get(first_id).status == "stopped"


def test_a_store_that_cannot_be_opened_leaves_the_lesson_playable(data, monkeypatch):
    import tokens_edu.store.games as sg

    def broken(*a, **k):
        raise ValueError("The saved games cannot be opened (OperationalError).")

    monkeypatch.setattr(sg.GameStore, "__init__", broken)
    p = panel()
    assert p.keeping is None
    p.start_button.click()
    play(p, 2)
    assert len(p.view.game.history) == 2


def test_a_lesson_puzzle_is_kept_for_the_teacher_once_per_puzzle(data):
    from pathlib import Path

    from tokens_edu import Game
    from tokens_edu.widgets import GameView
    from tokens_edu.widgets.puzzles import PuzzlePicker

    root = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"
    journal = Journal(student="Ana", lesson="03-task-and-audit")
    view = GameView(Game.from_scenario(root / "03-audit.yaml"), seats=("human", "greedy"),
                    journal=journal, lesson="A puzzle", autoplay=False)
    view.buttons[Action.parse("audit Neural Network -> Explainability")].click()
    view.match._tokens_keeper.flush()
    table = GameStore().games(student="Ana")
    assert len(table) == 1 and table.iloc[0]["lesson"] == "03-task-and-audit"
    assert table.iloc[0]["moves"] == 1 and table.iloc[0]["kind"] == "puzzle"
    record = GameStore().get(table.iloc[0]["id"]).record
    assert record["actions"] == ["audit Neural Network -> Explainability"]
    # a picker keeps one game per puzzle played, however often the student switches
    picker = PuzzlePicker({"Audit": root / "03-audit.yaml", "Task": root / "03-task-exposes.yaml"},
                          journal=Journal(student="Bo", lesson="04-keywords"), autoplay=False)
    for name in ("Task", "Audit", "Task", "Audit"):
        picker.picker.value = name
        view = picker.view
        if not view.game.history:
            view.buttons[view.match.legal_moves()[0]].click()
    picker.picker.value = "Task"
    assert len(GameStore().games(student="Bo")) == 2
    # and without a name nothing is kept
    GameView(Game.from_scenario(root / "03-audit.yaml"), journal=Journal(lesson="x"))
    assert set(GameStore().games()["student"]) == {"Ana", "Bo"}


def test_the_panel_keeps_its_game_once(data):
    p = panel()
    p.start_button.click()
    play(p, 3)
    flush(p)
    assert len(GameStore().games(student="Ana")) == 1  # not also by its GameView


BO_BROWSER = "bo-laptop-secret-0123456789abcdef"
OTHER_BROWSER = "another-laptop-secret-fedcba9876543210"


def opens(p: NewGamePanel, browser: str) -> NewGamePanel:
    """What the panel's front end sends when it is drawn: which browser it is in."""
    p.keeping.browser_key.handle({"type": "browser", "browser": browser})
    return p


def test_a_link_with_a_classmates_name_never_continues_their_game(data, monkeypatch):
    """Issue 20: without a class list, '?student=Bo' on another computer offered "Continue your
    game" with Bo's game (his hand on the table). Now only Bo's own browser is offered it."""
    monkeypatch.setenv("QUERY_STRING", "student=Bo")
    bo = opens(panel(student=None), BO_BROWSER)
    assert bo.keeping.student == "Bo"
    bo.start_button.click()
    play(bo, 6)
    flush(bo)
    before = bo.view.game

    other = panel(student=None)  # Bo's link in another browser
    assert other.keeping.box.layout.display == "none"  # nothing before the browser is known
    opens(other, OTHER_BROWSER)
    assert other.keeping.box.layout.display == "none" and other.keeping.saved is None
    assert other.setup.layout.display is None  # only New game
    other.keeping._on_continue()  # even a forced click has nothing to continue
    play(bo, 1)
    flush(bo)
    assert not bo.keeping.keeper.moved and "another tab" not in bo.note.value  # not taken over
    before = bo.view.game

    again = opens(panel(student=None), BO_BROWSER)  # Bo's own browser, after a reload
    assert again.keeping.box.layout.display is None
    again.keeping.continue_button.click()
    assert again.view.game.state_key() == before.state_key()
    # the teacher sees every game, whatever browser started it
    other.start_button.click()
    flush(other)
    assert sorted(GameStore().games(student="Bo")["status"]) == ["playing", "playing"]


def test_a_proven_name_continues_from_any_browser(data):
    first = opens(panel(), BO_BROWSER)  # Journal(student="Ana"): a name given by the lesson's code
    first.start_button.click()
    play(first, 3)
    flush(first)
    again = opens(panel(), OTHER_BROWSER)
    assert again.keeping.box.layout.display is None


PUZZLE_LESSONS = {  # lesson -> its notebook's puzzles (the ones on a PuzzlePicker or a GameView)
    "02-training-set-and-data": ["02-train-and-pay.yaml"],
    "03-task-and-audit": ["03-audit.yaml", "03-task-exposes.yaml"],
    "04-keywords": ["04-adversarial.yaml", "04-big-data.yaml", "04-fast-tracked.yaml",
                    "04-highly-trusted.yaml", "04-legacy.yaml"],
    "08-how-ai-senses": ["08-ambiguous.yaml"],
    "09-tools-targets-and-decks": ["09-big-data-3.yaml", "09-out-of-cards.yaml", "09-target.yaml",
                                   "09-tax-drops.yaml", "09-tools.yaml"],
}


@pytest.mark.parametrize("lesson", sorted(PUZZLE_LESSONS))
def test_opening_a_lesson_with_puzzles_saves_no_game(data, monkeypatch, lesson):
    """Issue 28.7: a page that was asked for (``?student=Ana``) opens its puzzles: no row; the
    student's first move in one puzzle saves that puzzle, as a puzzle named for the student."""
    from pathlib import Path

    from tokens_edu.session import PageSession
    from tokens_edu.widgets.puzzles import PuzzlePicker

    monkeypatch.setenv("QUERY_STRING", "student=Ana")  # the page is known: the old code saved at once
    root = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"
    files = PUZZLE_LESSONS[lesson]
    session = PageSession(lesson)
    picker = PuzzlePicker({f.removesuffix(".yaml"): root / f for f in files}, session=session, autoplay=False)
    for name in picker.puzzles:  # the student looks at every puzzle, touching none
        picker.show(name)
    assert GameStore().games().empty
    picker.show(next(iter(picker.puzzles)))
    view = picker.view
    view.buttons[view.match.legal_moves()[0]].click()
    view.match._tokens_keeper.flush()
    table = GameStore().games()
    assert len(table) == 1
    row = table.iloc[0]
    assert (row["kind"], row["student"], row["lesson"], row["moves"]) == ("puzzle", "Ana", lesson, 1)
    assert row["name0"] == "Ana" and "Ada" not in (row["name0"], row["name1"])
    assert GameStore().games(kind="game").empty


def test_the_dashboard_lists_games_not_puzzles(data, monkeypatch):
    """Issue 28.7: the Games and Progress pages read ClassData.game_list: games only."""
    from pathlib import Path

    from tokens_edu import Game
    from tokens_edu.teacher.data import ClassData

    root = Path(__file__).resolve().parents[2] / "lessons" / "scenarios"
    store = GameStore()
    puzzle = Game.from_scenario(root / "03-audit.yaml")
    store.start(puzzle, "Ana", "03-task-and-audit", kind="puzzle", names=("Ana", "Computer"))
    p = panel(student="Bo")
    p.start_button.click()
    play(p, 2)
    flush(p)
    data_ = ClassData()
    listed = data_.game_list()
    assert list(listed["student"]) == ["Bo"] and set(listed["kind"]) == {"game"}
    assert data_.game_list(student="Ana").empty
    assert "Ana" not in data_.choices()["students"]
    with pytest.raises(ValueError, match="kind"):
        store.start(puzzle, "Ana", kind="match")
