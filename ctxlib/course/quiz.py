"""Quick checks: quiz files as data and their validation (grading an answer is ``answers.py``).

Each lesson's quick checks live in ``quizzes/<lang>/<lesson>.json``, one file per language
with the same question ids, checked against ``quizzes/schema.json``. Question types:
``single_choice``, ``multiple_choice``, ``numeric`` (absolute or relative tolerance, or a
range) and ``code``.

Answer keys: a choice question stores ``salt`` and ``answer_sha256`` = sha256 of
``"<salt>:<question id>:<right option ids, sorted, joined by ','>"``, not the right options.
That keeps answers out of plain sight in the file; it is not security (four options are
four guesses). Numeric answers are stored in the clear: a tolerance cannot be checked
against a hash. Maintainers write a key with ``python -m ctxlib.course.quiz hash ID a,c``.

Grading (``grade``, ``answer_hash``, ``correct_option_ids``...) is ``ctxlib.course.answers``,
re-exported here. Code exercises are run by ``ctxlib.course.exercises`` (``grade`` refuses them); their ``checker``
names a function there that must exist when the file loads. Attempts are recorded by
``ctxlib.course.progress``; the notebook widgets are in ``ctxlib.course.widgets``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import re
import secrets
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ctxlib import safefile
from ctxlib.i18n import LANGS

# Grading lives in answers.py; its names are re-exported here, where the classroom has always imported them.
from .answers import (CHOICE_TYPES, Feedback, answer_hash, answer_kind,  # noqa: F401
                      correct_option_ids, grade, number_text, numeric_matches, question_text)



class QuizError(ValueError):
    """A quiz file that cannot be used; the message names the file, the question id and the field."""

    def __init__(self, path, question_id, field_path, problem):
        self.path, self.question_id, self.field, self.problem = str(path), question_id, field_path, problem
        where = f"question {question_id!r}" if question_id else "file level"
        super().__init__(f"{path}: {where}, field {field_path}: {problem}")


@dataclass
class AnswerOption:
    """One choice: its id, its text, and the feedback shown when it is chosen."""

    id: str
    text: str
    feedback: str


@dataclass
class Question:
    """One quick check as stored in a quiz file, plus the language it is written in."""

    id: str
    type: str
    prompt: str
    explanation: str
    lang: str
    hints: list[str] = field(default_factory=list)
    options: list[AnswerOption] = field(default_factory=list)
    salt: str = ""
    answer_sha256: str = ""
    answer: dict = field(default_factory=dict)  # numeric: value+abs_tol | value+rel_tol | min+max
    unit: str = ""
    misconceptions: list[tuple[float, str]] = field(default_factory=list)
    starter: str = ""
    solution: str = ""
    checker: str = ""  # code: "module:function" returning the cases, e.g. "ctxlib.course.checks.lesson1:scorer_cases"
    lesson: str = ""


@dataclass
class Quiz:
    """One lesson's quick checks in one language, and the file they came from."""

    lesson: str
    lang: str
    title: str
    questions: list[Question]
    path: str

    def question(self, question_id: str) -> Question:
        """The question with id ``question_id``; ``KeyError`` listing the ids if there is none."""
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(f"no question {question_id!r} in {self.path}; ids: {[q.id for q in self.questions]}")


def quizzes_dir() -> Path:
    """Where the quiz files are: ``ctxlib/course/quizzes`` in an installed wheel, else the repo's ``quizzes/``."""
    packaged = Path(__file__).parent / "quizzes"
    return packaged if packaged.is_dir() else Path(__file__).parents[2] / "quizzes"


@lru_cache(maxsize=1)
def _validator():
    """jsonschema's validator for quiz files, or None where jsonschema cannot be imported.

    The browser build (Pyodide) has no jsonschema (its rpds-py is compiled); there the shipped
    files, schema-checked on the desktop by the tests, keep only the meaning checks.
    """
    try:
        import jsonschema  # late: its import takes ~2 s (format checkers), and ctxlib progress never needs it
    except ImportError:
        return None

    schema = json.loads((quizzes_dir() / "schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _question_id_at(data, loc) -> str | None:
    # An error under questions/<i> belongs to that question; name it by id, or by position if it has none.
    if len(loc) < 2 or loc[0] != "questions" or not isinstance(loc[1], int):
        return None
    q = data["questions"][loc[1]]
    qid = q.get("id") if isinstance(q, dict) else None
    return qid if isinstance(qid, str) else f"#{loc[1] + 1}"


MAX_QUIZ_BYTES = 4 * 1024 * 1024  # a lesson's quiz is ~20 KB


def _parse(path: Path) -> dict:
    try:
        text = safefile.read_regular_file(path, MAX_QUIZ_BYTES).decode("utf-8")
    except safefile.Refused as exc:
        raise QuizError(path, None, "(whole file)", exc.reason) from None
    except UnicodeDecodeError as exc:
        raise QuizError(path, None, "(whole file)", f"is not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        return safefile.load_json(text)
    except safefile.Refused as exc:
        raise QuizError(path, None, "(JSON syntax)", exc.reason) from None
    except json.JSONDecodeError as exc:
        # Point at the last question that starts before the error: the likeliest place to look.
        starts = re.findall(r'"id"\s*:\s*"([^"]+)"\s*,\s*"type"', text[: exc.pos])
        raise QuizError(path, starts[-1] if starts else None, "(JSON syntax)",
                        f"not valid JSON: {safefile.json_error_text(exc)}") from None


def _build(path: Path, data: dict) -> Quiz:
    questions = []
    for q in data["questions"]:
        questions.append(Question(
            id=q["id"], type=q["type"], prompt=q["prompt"], explanation=q["explanation"], lang=data["lang"],
            hints=list(q.get("hints", [])), options=[AnswerOption(**o) for o in q.get("options", [])],
            salt=q.get("salt", ""), answer_sha256=q.get("answer_sha256", ""), answer=dict(q.get("answer", {})),
            unit=q.get("unit", ""), misconceptions=[(m["value"], m["feedback"]) for m in q.get("misconceptions", [])],
            starter=q.get("starter", ""), solution=q.get("solution", ""), checker=q.get("checker", ""),
            lesson=data["lesson"]))
    return Quiz(lesson=data["lesson"], lang=data["lang"], title=data["title"], questions=questions, path=str(path))


def resolve_checker(spec: str):
    """The function named by ``"module:function"``, e.g. ``"ctxlib.course.checks.lesson1:scorer_cases"``; ValueError if missing."""
    module_name, _, name = spec.partition(":")
    try:
        checker = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise ValueError(f"checker {spec!r} does not exist (module {module_name!r}, function {name!r})") from None
    if not callable(checker):
        raise ValueError(f"checker {spec!r} is not a function")
    return checker


def _check_meaning(quiz: Quiz) -> None:
    # What a schema cannot say: unique ids, option ids that are their letters (a, b, c... in order), a key that opens
    # exactly one set of options, a sane range.
    seen = set()
    for i, q in enumerate(quiz.questions):
        at = f"questions/{i}"
        if q.id in seen:
            raise QuizError(quiz.path, q.id, f"{at}/id", "an earlier question has the same id; ids must be unique")
        seen.add(q.id)
        option_ids = [o.id for o in q.options]
        if len(set(option_ids)) != len(option_ids):
            raise QuizError(quiz.path, q.id, f"{at}/options", f"option ids repeat: {option_ids}")
        letters = [chr(ord("a") + n) for n in range(len(option_ids))]
        if option_ids and option_ids != letters:  # a typed "B)" is the option the widget shows as B)
            raise QuizError(quiz.path, q.id, f"{at}/options", f"option ids {option_ids} are not the letters "
                            f"{letters} in order, as the widget shows them; a learner types the letter they see")
        if q.type in CHOICE_TYPES and correct_option_ids(q) is None:
            raise QuizError(quiz.path, q.id, f"{at}/answer_sha256",
                            "matches no set of options, so no option would be graded right; "
                            f"recompute it with: python -m ctxlib.course.quiz hash {q.id} RIGHT_IDS --salt {q.salt}")
        if "min" in q.answer and q.answer["min"] > q.answer["max"]:
            raise QuizError(quiz.path, q.id, f"{at}/answer", f"min {q.answer['min']} is above max {q.answer['max']}")
        if q.type == "code":
            try:
                resolve_checker(q.checker)
            except ValueError as exc:
                raise QuizError(quiz.path, q.id, f"{at}/checker", str(exc)) from None


def load_quiz_file(path) -> Quiz:
    """Read, validate and return one quiz file.

    Args:
        path: a ``quizzes/<lang>/<lesson>.json`` file.
    Returns:
        a ``Quiz`` whose questions carry the file's language.
    Raises:
        QuizError: bad UTF-8 or JSON, a schema violation (missing field, unknown type...),
            repeated ids, or a choice key that matches no set of options. The message names
            the file, the question id and the field, e.g. ``quizzes/en/01.json: question
            'budget_100', field questions/1/options: [...] is too short``.
        FileNotFoundError: if the file does not exist.
    """
    path = Path(path)
    data = _parse(path)
    validator = _validator()
    errors = list(validator.iter_errors(data)) if validator is not None else []
    if errors:
        # Report the cause, not its echo: an unknown type or a broken option also leaves the
        # question's other fields "unevaluated", so those come last, and deeper paths first.
        error = min(errors, key=lambda e: (e.validator == "unevaluatedProperties", -len(e.absolute_path)))
        loc = list(error.absolute_path)
        raise QuizError(path, _question_id_at(data, loc), "/".join(map(str, loc)) or "(top level)", error.message)
    quiz = _build(path, data)
    _check_meaning(quiz)
    return quiz


def load_quiz(lesson: str, lang: str) -> Quiz:
    """Lesson ``lesson``'s quick checks in ``lang`` ("en" or "hi"), e.g. ``load_quiz("01_window_as_budget", "hi")``.

    Raises ``ValueError`` for an unknown language, ``FileNotFoundError`` listing the lessons
    that have quizzes, and ``QuizError`` as ``load_quiz_file`` does, or if the file's own
    lesson or language differ from its place.
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    path = quizzes_dir() / lang / f"{lesson}.json"
    if not path.is_file():
        have = sorted(p.stem for p in (quizzes_dir() / lang).glob("*.json"))
        raise FileNotFoundError(f"no quick checks for lesson {lesson!r} in {lang!r} ({path}); lessons with quizzes: {have}")
    quiz = load_quiz_file(path)
    for name, want in (("lesson", lesson), ("lang", lang)):
        if getattr(quiz, name) != want:
            raise QuizError(path, None, name, f"says {getattr(quiz, name)!r} but the file's place says {want!r}")
    return quiz


def check_twins(quiz: Quiz, twin: Quiz) -> None:
    """Check that two languages of a lesson ask the same questions with the same answers.

    Same lesson, question ids in the same order, and per question the same type, option
    ids, salt, key, numeric answer, misconception values, number of hints, and for code the
    same starter, solution and checker (notebook code cells are the same in both languages);
    only the words may differ. Raises ``QuizError`` naming the second file and the first difference.
    """
    if quiz.lesson != twin.lesson:
        raise QuizError(twin.path, None, "lesson", f"{twin.lesson!r} differs from {quiz.lesson!r} in {quiz.path}")
    ids, twin_ids = [q.id for q in quiz.questions], [q.id for q in twin.questions]
    if ids != twin_ids:
        raise QuizError(twin.path, None, "questions", f"ids {twin_ids} differ from {ids} in {quiz.path}")
    for i, (q, t) in enumerate(zip(quiz.questions, twin.questions)):
        for name, mine, theirs in (
            ("type", q.type, t.type), ("options", [o.id for o in q.options], [o.id for o in t.options]),
            ("salt", q.salt, t.salt), ("answer_sha256", q.answer_sha256, t.answer_sha256), ("answer", q.answer, t.answer),
            ("misconceptions", [v for v, _ in q.misconceptions], [v for v, _ in t.misconceptions]),
            ("hints", len(q.hints), len(t.hints)),
            ("starter", q.starter, t.starter), ("solution", q.solution, t.solution), ("checker", q.checker, t.checker),
        ):
            if mine != theirs:
                raise QuizError(twin.path, t.id, f"questions/{i}/{name}", f"{theirs!r} differs from {mine!r} in {quiz.path}")


def lesson_question_ids() -> dict[str, list[str]]:
    """Every lesson that has quick checks, mapped to its question ids in file order (from the English files).

    The list a learner's score and an instructor's grade table are measured against, e.g.
    ``{"01_window_as_budget": ["whole_repo", ...], ...}``. Only the ids are read, without the
    schema check of ``load_quiz_file`` (the tests run it on every shipped file): its library
    takes ~2 s to import, which ``ctxlib progress`` must not pay. Raises ``QuizError`` for a
    file that is not JSON or has no list of questions with ids.
    """
    ids = {}
    for path in sorted((quizzes_dir() / "en").glob("*.json")):
        data = _parse(path)
        questions = data.get("questions") if isinstance(data, dict) else None
        if not isinstance(questions, list) or not all(isinstance(q, dict) and isinstance(q.get("id"), str)
                                                      for q in questions):
            raise QuizError(path, None, "questions", "is not a list of questions with string ids")
        ids[path.stem] = [q["id"] for q in questions]
    return ids


def main(argv=None) -> None:
    """``python -m ctxlib.course.quiz hash ID IDS [--salt S]`` prints a key; ``check`` validates every quiz file and its twin."""
    parser = argparse.ArgumentParser(prog="python -m ctxlib.course.quiz", description="Maintainer tools for quiz files.")
    sub = parser.add_subparsers(dest="command", required=True)
    hasher = sub.add_parser("hash", help="print the salt and answer_sha256 for a choice question")
    hasher.add_argument("question_id")
    hasher.add_argument("option_ids", help="the right option ids, comma-separated, e.g. a,c")
    hasher.add_argument("--salt", default=None, help="reuse a salt (default: a new random one)")
    sub.add_parser("check", help="validate every quiz file and compare each language with English")
    args = parser.parse_args(argv)
    if args.command == "hash":
        salt = args.salt or secrets.token_hex(8)
        digest = answer_hash(salt, args.question_id, [i.strip() for i in args.option_ids.split(",") if i.strip()])
        print(json.dumps({"salt": salt, "answer_sha256": digest}, indent=2))
        return
    try:
        for path in sorted((quizzes_dir() / "en").glob("*.json")):
            english = load_quiz(path.stem, "en")
            for lang in LANGS[1:]:
                check_twins(english, load_quiz(path.stem, lang))
            print(f"ok: {path.stem} ({len(english.questions)} questions, {', '.join(LANGS)})")
    except (QuizError, FileNotFoundError) as exc:
        raise SystemExit(f"ctxlib.course.quiz: {exc}") from None


if __name__ == "__main__":
    main()
