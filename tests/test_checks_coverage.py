"""Every code exercise in the quizzes has a wrong-answer suite in tests/test_checks_lesson<N>.py."""
import re
from pathlib import Path

import pytest

from ctxlib.course.quiz import load_quiz, resolve_checker

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted(p.stem for p in (ROOT / "quizzes" / "en").glob("0*.json"))
FUNCTION_EXERCISES = [(lesson, q.id, q.checker) for lesson in LESSONS for q in load_quiz(lesson, "en").questions
                      if q.type == "code" and q.starter.lstrip().startswith("def ")]


def test_the_twelve_code_exercises_are_found():
    assert len(FUNCTION_EXERCISES) == 12


@pytest.mark.parametrize("lesson, question_id, checker", FUNCTION_EXERCISES)
def test_each_function_exercise_has_a_wrong_answer_suite(lesson, question_id, checker):
    number = int(lesson[:2])
    suite = (ROOT / "tests" / f"test_checks_lesson{number}.py").read_text()
    function = resolve_checker(checker)
    assert function.__module__ == f"ctxlib.course.checks.lesson{number}"
    assert re.search(rf"\b{function.__name__}\(\)", suite), f"{question_id}: no suite runs {function.__name__}"
    assert len(function()) >= 8, f"{question_id}: fewer than 8 cases"
