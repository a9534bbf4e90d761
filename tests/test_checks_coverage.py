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


def _resolves(dotted: str) -> bool:
    import importlib
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attribute in parts[i:]:
                found = getattr(found, attribute)
        except AttributeError:
            return False
        return True
    return False


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_every_ctxlib_name_a_question_gives_exists(lang):
    """A statement that says "checked against ctxlib.x.y" sends the learner to read ctxlib.x.y: it must be there."""
    missing = [(lesson, q.id, name) for lesson in LESSONS for q in load_quiz(lesson, lang).questions
               for name in sorted(set(re.findall(r"\bctxlib(?:\.\w+)+", " ".join([q.prompt, *q.hints]))))
               if not _resolves(name)]
    assert not missing
