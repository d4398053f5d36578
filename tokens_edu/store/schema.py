"""Every table the store keeps, written once.

This is the shape the newest migration makes (``tokens_edu/store/migrations``): tables are never
made from here with ``CREATE TABLE IF NOT EXISTS``; :func:`tokens_edu.store.migrate.upgrade`
makes and changes them, so a school's database with a year of answers is brought up to date
without losing a row. A test compares this module with what the migrations make, on SQLite and
PostgreSQL (``tests/store/test_migrations.py``). The JupyterHub deploy uses the same migrations.

Tables:

``answers``   one row per saved Discuss answer: ``seq`` (a number the database gives each row in
              the order rows arrive; the teacher's views read "everything after seq N"), ``id``
              (a UUID made by the writer, so a retried save is stored once), ``student``,
              ``lesson``, ``card``, ``prompt`` (the question asked), ``answer`` (the words as
              typed), ``saved_at`` (UTC), ``browser`` (a hash of the writing browser's secret,
              ``""`` when there was none; see :mod:`tokens_edu.store.writer`).
``drafts``    text typed but not saved yet, one per student, lesson, card and browser.
``games``     lesson games kept after every move (:mod:`tokens_edu.store.games`).
``roster``    the class list with codes (:mod:`tokens_edu.store.roster`).
``responses`` predictions, exit questions and lesson results (``kind``), by student, lesson and
              question id, with ``correct`` when the question has a right answer.
``drawings``  pictures a student drew and labelled (lesson 8), ``pixels`` one byte per pixel,
              row by row, ``width`` x ``height``, ``set_id`` the class set it was added to; the
              view ``class_drawings`` shows them without names (the class's training data).
``class_sets`` each set of lesson 8's class data the teacher started for a class (``name``,
              ``started_at``): a lesson's pages add to and learn from its newest set only
              (``""`` is the first set, before the teacher started any).
``commands``  the typed commands of lesson 8's command lab with their labels, by student, lesson
              and set (saved like the drawings).
``sentences`` sentences a student shared with the class's next-word model (lesson 12), with
              ``hidden`` (the teacher hid it); the view ``class_sentences`` shows the visible
              ones without names (the class's text).

On PostgreSQL a migration also makes ``tokens_edu_logins`` (:data:`logins`) and sets up
row-level security (each student's own login reads and
adds only their own rows; the teachers' login reads all): see
:mod:`tokens_edu.store.logins`.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["metadata", "answers", "drafts", "games", "roster", "responses", "drawings", "class_drawings",
           "class_sets", "commands", "COMMAND_COLUMNS", "MAX_COMMAND",
           "sentences", "class_sentences", "SENTENCE_COLUMNS", "MAX_SENTENCE",
           "logins",
           "COLUMNS", "RESPONSE_COLUMNS", "DRAWING_COLUMNS", "MAX_NAME", "MAX_ANSWER",
           "CODE_LENGTH", "BROWSER_LENGTH", "KINDS"]

#: Longest name a student may type (characters). Longer is almost surely a slip of the keyboard.
MAX_NAME = 60

#: Longest answer that is saved (characters), about two pages of writing. Longer is almost
#: surely a paste by mistake; it would also make every keystroke on the page send that much.
MAX_ANSWER = 5000

#: Characters in a class-roster code (:mod:`tokens_edu.store.roster` makes the codes).
CODE_LENGTH = 6

#: Characters of a stored browser hash (hex SHA-256).
BROWSER_LENGTH = 64

#: The kinds of a row of ``responses``.
KINDS = ("prediction", "exit", "result")

#: The columns of the answers table that :meth:`.answers.Answers.table` returns, in order.
COLUMNS = ["id", "student", "lesson", "card", "prompt", "answer", "saved_at"]
#: The columns of :meth:`.responses.Responses.table`, in order.
RESPONSE_COLUMNS = ["id", "student", "lesson", "question", "kind", "answer", "correct", "saved_at"]
#: The columns of the teacher's table of sentences, in order.
SENTENCE_COLUMNS = ["id", "student", "lesson", "text", "saved_at", "hidden"]
#: Longest sentence a student shares (characters): one sentence, not a paste.
MAX_SENTENCE = 200
#: The columns of :meth:`.drawings.Drawings.table`, in order (``pixels`` is bytes).
DRAWING_COLUMNS = ["id", "student", "lesson", "label", "width", "height", "pixels", "saved_at", "set_id"]
#: The columns of the teacher's table of typed commands (lesson 8), in order.
COMMAND_COLUMNS = ["id", "student", "lesson", "text", "label", "saved_at", "set_id"]
#: Longest typed command that is saved (characters).
MAX_COMMAND = 200


def _seq() -> sa.Column:
    """A row number the database gives (SQLite: the rowid; PostgreSQL: an identity column)."""
    return sa.Column("seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), sa.Identity(),
                     primary_key=True)


def _browser() -> sa.Column:
    return sa.Column("browser", sa.String(BROWSER_LENGTH), nullable=False, server_default="")


metadata = sa.MetaData()

answers = sa.Table(
    "answers",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False, default=""),
    sa.Column("card", sa.String(200), nullable=False),
    sa.Column("prompt", sa.Text, nullable=False, default=""),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.UniqueConstraint("id", name="uq_answers_id"),
)
sa.Index("ix_answers_student_lesson_card", answers.c.student, answers.c.lesson, answers.c.card,
         answers.c.saved_at)
sa.Index("ix_answers_student_saved_at", answers.c.student, answers.c.saved_at)
sa.Index("ix_answers_lesson_card", answers.c.lesson, answers.c.card, answers.c.student,
         answers.c.saved_at)
sa.Index("ix_answers_saved_at", answers.c.saved_at)
sa.Index("ix_answers_browser_saved_at", answers.c.browser, answers.c.saved_at)

drafts = sa.Table(
    "drafts",
    metadata,
    sa.Column("student", sa.String(200), primary_key=True),
    sa.Column("lesson", sa.String(200), primary_key=True),
    sa.Column("card", sa.String(200), primary_key=True),
    sa.Column("browser", sa.String(BROWSER_LENGTH), primary_key=True, server_default=""),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),  # playing, over, stopped
    sa.Column("name0", sa.String(200), nullable=False),
    sa.Column("name1", sa.String(200), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),  # the student's seat (0/1)
    sa.Column("seats", sa.String(200), nullable=False),  # e.g. "human,greedy"
    sa.Column("undo", sa.String(12), nullable=False),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("tokens0", sa.Integer, nullable=False),
    sa.Column("tokens1", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("page", sa.String(64), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.Column("kind", sa.String(12), nullable=False, server_default="game"),  # game, puzzle (0007)
)
sa.Index("ix_games_student_lesson", games.c.student, games.c.lesson, games.c.status,
         games.c.updated_at)

roster = sa.Table(
    "roster",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
)

responses = sa.Table(
    "responses",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("question", sa.String(200), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("correct", sa.Boolean, nullable=True),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.UniqueConstraint("id", name="uq_responses_id"),
)
sa.Index("ix_responses_student_lesson_question", responses.c.student, responses.c.lesson,
         responses.c.question, responses.c.saved_at)
sa.Index("ix_responses_lesson_question", responses.c.lesson, responses.c.question)
sa.Index("ix_responses_browser_saved_at", responses.c.browser, responses.c.saved_at)

drawings = sa.Table(
    "drawings",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("label", sa.String(200), nullable=False),
    sa.Column("width", sa.Integer, nullable=False),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("pixels", sa.LargeBinary, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.Column("set_id", sa.String(36), nullable=False, server_default=""),
    sa.UniqueConstraint("id", name="uq_drawings_id"),
)
sa.Index("ix_drawings_lesson_label", drawings.c.lesson, drawings.c.label)
sa.Index("ix_drawings_lesson_set", drawings.c.lesson, drawings.c.set_id, drawings.c.seq)
sa.Index("ix_drawings_student_lesson", drawings.c.student, drawings.c.lesson, drawings.c.saved_at)
sa.Index("ix_drawings_browser_saved_at", drawings.c.browser, drawings.c.saved_at)

class_sets = sa.Table(
    "class_sets",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("id", name="uq_class_sets_id"),
)
sa.Index("ix_class_sets_lesson", class_sets.c.lesson, class_sets.c.seq)

commands = sa.Table(
    "commands",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("set_id", sa.String(36), nullable=False, server_default=""),
    sa.Column("text", sa.String(MAX_COMMAND), nullable=False),
    sa.Column("label", sa.String(200), nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.UniqueConstraint("id", name="uq_commands_id"),
)
sa.Index("ix_commands_lesson_set", commands.c.lesson, commands.c.set_id, commands.c.seq)
sa.Index("ix_commands_student_lesson", commands.c.student, commands.c.lesson, commands.c.saved_at)
sa.Index("ix_commands_browser_saved_at", commands.c.browser, commands.c.saved_at)

sentences = sa.Table(
    "sentences",
    metadata,
    _seq(),
    sa.Column("id", sa.String(36), nullable=False),
    sa.Column("student", sa.String(200), nullable=False),
    sa.Column("lesson", sa.String(200), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    _browser(),
    sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
    sa.UniqueConstraint("id", name="uq_sentences_id"),
)
sa.Index("ix_sentences_lesson_hidden", sentences.c.lesson, sentences.c.hidden, sentences.c.seq)
sa.Index("ix_sentences_student_lesson", sentences.c.student, sentences.c.lesson, sentences.c.saved_at)
sa.Index("ix_sentences_browser_saved_at", sentences.c.browser, sentences.c.saved_at)

#: PostgreSQL only (made with the row-level security by migration 0002; not in :data:`metadata`,
#: which both databases share): which database login belongs to which student
#: (:mod:`tokens_edu.store.logins`). Students cannot read it.
logins = sa.Table(
    "tokens_edu_logins",
    sa.MetaData(),
    sa.Column("role_name", sa.Text, primary_key=True),
    sa.Column("student", sa.String(200), nullable=False, unique=True),
)

#: A view (made by the migrations, so not in :data:`metadata`): every drawing without names or
#: times, the class's training data for lesson 8.
class_drawings = sa.table("class_drawings", *(sa.column(c.name, c.type) for c in (
    drawings.c.seq, drawings.c.lesson, drawings.c.set_id, drawings.c.label, drawings.c.width,
    drawings.c.height, drawings.c.pixels)))

#: A view (made by the migrations, so not in :data:`metadata`): the sentences the teacher has not
#: hidden, without names or times, the class's text for lesson 12's model.
class_sentences = sa.table("class_sentences", *(sa.column(c.name, c.type) for c in (
    sentences.c.seq, sentences.c.id, sentences.c.lesson, sentences.c.text)))
