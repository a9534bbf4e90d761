"""A quick check answered before shows its last answer and feedback when its cell runs again (after a reload)."""
from __future__ import annotations

import pytest

from ctxlib.course.progress import record_attempt
from ctxlib.course.quiz import correct_option_ids, load_quiz
from ctxlib.course.widgets.quickchecks import check_answer, feedback_html, last_check, quiz_widget, ui_text

LESSON = "01_window_as_budget"


def question_of(kind: str, lang: str = "en"):
    return next(q for q in load_quiz(LESSON, lang).questions if q.type == kind)


@pytest.fixture
def progress(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("CTXLIB_PROGRESS", str(path))
    return path


def test_never_answered_shows_nothing(progress):
    question = question_of("single_choice")
    assert last_check(question) == (None, None)
    box = quiz_widget(question, "en")
    assert (box.children[0].value, box.children[2].value) == (None, "")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_pass_shows_the_right_answer_and_its_feedback(progress, lang):
    question = question_of("single_choice", lang)
    right = sorted(correct_option_ids(question))[0]
    record_attempt(LESSON, question.id, "failed")
    record_attempt(LESSON, question.id, "passed")
    assert last_check(question) == ("passed", right)
    box = quiz_widget(question, lang)
    assert box.children[0].value == right
    assert box.children[2].value == feedback_html(check_answer(question, right, lang).split("\n"), "right")


def test_a_fail_last_shows_the_verdict_and_chooses_nothing(progress):
    question = question_of("single_choice")
    record_attempt(LESSON, question.id, "passed")
    record_attempt(LESSON, question.id, "failed")  # the last one counts for what is shown
    assert last_check(question) == ("failed", None)
    box = quiz_widget(question, "en")
    assert box.children[0].value is None
    assert box.children[2].value == feedback_html([ui_text("wrong", "en")], "wrong")


def test_multiple_choice_restores_every_right_box(progress):
    question = question_of("multiple_choice")
    record_attempt(LESSON, question.id, "passed")
    box = quiz_widget(question, "en")
    ticked = {o.id for o, check in zip(question.options, box.children[0].children) if check.value}
    assert ticked == set(correct_option_ids(question))


def test_a_broken_progress_file_restores_nothing_and_does_not_raise(progress):
    progress.write_text("{not json", encoding="utf-8")
    assert last_check(question_of("single_choice")) == (None, None)
