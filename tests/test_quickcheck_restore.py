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


# --- a verdict belongs to the answer it graded ----------------------------------------------

def _check(box):
    box.children[1].children[0].click()
    return box.children[2].value


def test_changing_the_choice_clears_the_verdict(progress):
    question = question_of("single_choice")
    right = sorted(correct_option_ids(question))[0]
    wrong = next(o.id for o in question.options if o.id != right)
    box = quiz_widget(question, "en")
    box.children[0].value = wrong
    assert "Not quite" in _check(box)
    box.children[0].value = right  # e.g. a choice that reached the kernel after Check
    assert box.children[2].value == ""
    assert "Correct!" in _check(box)


def test_a_restored_verdict_clears_when_the_learner_chooses_again(progress):
    question = question_of("single_choice")
    record_attempt(LESSON, question.id, "failed")
    box = quiz_widget(question, "en")
    assert box.children[2].value == feedback_html([ui_text("wrong", "en")], "wrong")
    box.children[0].value = question.options[0].id
    assert box.children[2].value == ""


def test_ticking_a_box_or_typing_a_number_clears_the_verdict_but_not_a_hint(progress):
    multiple = quiz_widget(question_of("multiple_choice"), "en")
    boxes = multiple.children[0].children
    boxes[0].value = True
    assert _check(multiple) != ""
    boxes[1].value = True
    assert multiple.children[2].value == ""
    question = next(q for q in load_quiz(LESSON, "en").questions if q.type == "numeric" and q.hints)
    numeric = quiz_widget(question, "en")
    numeric.children[0].value = "1"
    assert _check(numeric) != ""
    numeric.children[0].value = "2"
    assert numeric.children[2].value == ""
    numeric.children[1].children[1].click()  # Hint
    hint = numeric.children[2].value
    numeric.children[0].value = "3"
    assert numeric.children[2].value == hint != ""
