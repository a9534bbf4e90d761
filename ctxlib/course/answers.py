"""Grading one quick-check answer: the hashed answer keys, chosen options, numbers, and the feedback.

A choice question's key is ``answer_sha256`` = sha256 of ``"<salt>:<question id>:<right option ids,
sorted, joined by ','>"`` (``answer_hash``), so the right options are not in plain sight in the quiz
file; ``correct_option_ids`` finds them by trying every allowed set. A numeric answer meets an
absolute or relative tolerance, or a range (``numeric_matches``). Code exercises are run by
``ctxlib.course.exercises``: ``grade`` refuses them. The quiz files themselves (loading,
validation, twins) are ``ctxlib.course.quiz``, which imports this module.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import re
from dataclasses import dataclass

from ctxlib.i18n import N_, WordedError, message

# ``Question`` in the annotations is ``ctxlib.course.quiz.Question``; not imported, since quiz imports this module.

CHOICE_TYPES = ("single_choice", "multiple_choice")
# What kind of answer each question type wants, and the grader's notes; translated by ctxlib.i18n.
ANSWER_MESSAGES = {
    "single_choice": N_("Choose one."), "multiple_choice": N_("Choose every option that is true."),
    "numeric": N_("Answer with a number."), "numeric_unit": N_("Answer with a number ({unit})."),
    "code": N_("Answer in code: q = exercise(\"{lesson}\", \"{id}\", LANG), then q.check(your_answer); "
               "q.hint() and q.solution() help."),
    "choose": N_("Choose an option first."), "missing": N_("Some right options are not chosen yet."),
    "not_a_number": N_("Enter a number."), "right_number": N_("{answer} is right."),
    "wrong_number": N_("{answer} is not right."),
}


@dataclass
class Feedback:
    """The grade of one answer: right or not, what to tell the learner, and the explanation."""

    correct: bool
    option_feedback: list[tuple[str, str]]  # (option id, feedback) for each chosen option, in option order
    notes: list[str]  # general remarks in the quiz's language
    explanation: str


def answer_hash(salt: str, question_id: str, option_ids) -> str:
    """The stored key of a choice answer: sha256 hex of ``"salt:question_id:ids"``, ids sorted.

    ``answer_hash("5eed", "whole_repo", ["c"])`` hashes ``"5eed:whole_repo:c"``.
    """
    return hashlib.sha256(f"{salt}:{question_id}:{','.join(sorted(option_ids))}".encode()).hexdigest()


def correct_option_ids(question: Question) -> frozenset | None:
    """The option ids whose hash is the question's key, found by trying every allowed set.

    Single choice tries each option; multiple choice every non-empty subset (at most 8
    options, so at most 255 sets). Returns ``None`` when no set matches: a broken key.
    """
    ids = [o.id for o in question.options]
    sizes = [1] if question.type == "single_choice" else range(1, len(ids) + 1)
    for size in sizes:
        for combo in itertools.combinations(ids, size):
            if answer_hash(question.salt, question.id, combo) == question.answer_sha256:
                return frozenset(combo)
    return None


def _chosen_ids(question: Question, answer) -> set[str]:
    if answer is None:
        chosen = set()
    elif isinstance(answer, str):
        chosen = {answer}
    elif isinstance(answer, (list, tuple, set, frozenset)) and all(isinstance(a, str) for a in answer):
        chosen = set(answer)
    else:
        raise WordedError.of(N_("question {id} takes option ids such as 'a' or ['a', 'c'], got {answer}"), id=repr(question.id),
                             answer=repr(answer))
    unknown = chosen - {o.id for o in question.options}
    if unknown:
        raise WordedError.of(N_("question {id} has no option {unknown}; options: {options}"), id=repr(question.id),
                             unknown=str(sorted(unknown)), options=str([o.id for o in question.options]))
    if question.type == "single_choice" and len(chosen) > 1:
        raise WordedError.of(N_("question {id} takes one option, got {chosen}"), id=repr(question.id), chosen=str(sorted(chosen)))
    return chosen


def numeric_matches(key: dict, value: float) -> bool:
    """Whether ``value`` meets a numeric key: ``|value - v| <= abs_tol``, or ``<= rel_tol * |v|``, or ``min <= value <= max``.

    The relative tolerance is a share of the expected value ``v`` (not of the larger number,
    as ``math.isclose`` has it): ``{"value": 200, "rel_tol": 0.05}`` accepts 190 to 210.
    """
    if "min" in key:
        return key["min"] <= value <= key["max"]
    allowed = key["abs_tol"] if "abs_tol" in key else key["rel_tol"] * abs(key["value"])
    return abs(value - key["value"]) <= allowed


# Digits grouped in thousands ("160,000", "160 000") or the Indian way, by lakh and crore ("1,60,000", "12,34,567").
# A first group of 0 is no thousands group: "0,893" (a decimal comma) is refused, not read as 893
_GROUPED = re.compile(r"[+-]?(?:(?![0\u0966])\d{1,3}(?:([, \u00a0\u202f])\d{3})+|(?![0\u0966])\d{1,2}(?:,\d{2})+,\d{3})"
                      r"(?:\.\d*)?")
_SCALE = {"k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6}  # "39k tokens", "1.2M"
_PERCENT_UNITS = ("%", "percent", "प्रतिशत")
_TIMES_UNITS = ("x", "गुना")
# What else a learner writes for a question's unit, in either language: "104 टोकन", "1 token", "turn 3".
_UNIT_WORDS = {"tokens": ("tokens", "token", "टोकन"), "lines": ("lines", "line", "पंक्तियाँ", "पंक्तियां", "पंक्ति"),
               "turn": ("turns", "turn", "टर्न")}


def _as_number(answer, unit: str | None = None) -> float | None:
    """The number a learner typed, or ``None`` if it is not one.

    Read as engineers write numbers: ``"160000"``, ``"160_000"``, ``"1.6e5"``, ``"160,000"``, ``"160 000"``,
    ``"1,60,000"`` (lakh and crore), ``"160k"``, ``"160 k"``, ``"1.2M"``, Devanagari digits (``"१०४"``), a minus
    sign (``"−14000"``), and with the question's ``unit`` after it, in either language (``"160000 tokens"``,
    the Hindi word of ``_UNIT_WORDS``, ``"3.2%"`` for a percentage, ``"2.2x"`` or ``"2.2 times"`` for times the
    budget) or a turn's before it (``"turn 3"``); ``"89.3%"`` where the question asks for no percentage is 0.893.
    ``"1,2,3"`` is no number, nor ``"0,893"`` (a decimal comma); nor is a bool, ``nan`` or an infinity.
    """
    if isinstance(answer, bool):
        return None
    if not isinstance(answer, str):
        try:
            value = float(answer)
        except (TypeError, ValueError, OverflowError):
            return None
        return value if math.isfinite(value) else None
    text = answer.strip().replace("\u2212", "-")
    words = [unit] if unit else []
    if unit and (unit.lower() in _PERCENT_UNITS):
        words += list(_PERCENT_UNITS)
    if unit and unit.lower().split()[0] in _TIMES_UNITS:
        rest = unit.split(maxsplit=1)[1:]  # "x the budget": "2.2 times the budget" says the same
        words += [unit.split()[0], "x", "×", "गुना", "times"] + [f"{w} {rest[0]}" for w in ("times", "x", "×") if rest]
    words += list(_UNIT_WORDS.get((unit or "").lower(), ()))
    for word in sorted(words, key=len, reverse=True):  # "160000 tokens", "3.2 %", "2.2x", "turn 3"
        if word and text.lower().endswith(word.lower()) and len(text) > len(word):
            text = text[:-len(word)].rstrip()
            break
        if word and text.lower().startswith(word.lower() + " "):
            text = text[len(word):].lstrip()
            break
    if (unit or "").lower() == "turn":  # "3rd turn", "तीसरा" is not read: an ordinal's digits only
        text = re.sub(r"(?<=\d)(?:st|nd|rd|th|वाँ|वां|वें)$", "", text, flags=re.IGNORECASE)
    if not (unit and unit.lower() in _PERCENT_UNITS) and text.endswith("%") and len(text) > 1:
        text, fraction = text[:-1].rstrip(), True  # a percentage where a fraction is asked: the same number
    else:
        fraction = False
    spaced = len(text) > 2 and text[-2] == " " and text[-3:-2].isdigit()  # "160 k"
    scale = _SCALE.get(text[-1:], 1.0) if len(text) > 1 and (text[-2:-1].isdigit() or spaced) else 1.0
    text = text[:-1].rstrip() if scale != 1.0 else text
    scale = scale / 100 if fraction else scale
    if any(sep in text for sep in ", \u00a0\u202f"):
        if not _GROUPED.fullmatch(text):
            return None
        text = re.sub(r"[, \u00a0\u202f]", "", text)
    try:
        value = float(text) * scale
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def number_text(value: float) -> str:
    """A number as the learner would write it: ``2799999.0`` -> ``"2799999"``, ``0.25`` -> ``"0.25"``.

    Whole numbers print in full (``%g`` would turn 2799999 into ``2.8e+06``, which reads as
    another answer); others print as Python's shortest exact form, ``repr``.
    """
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def grade(question: Question, answer) -> Feedback:
    """Grade one answer, with feedback in the question's language.

    Args:
        question: a loaded ``Question``.
        answer: single choice: an option id (``"c"``); multiple choice: option ids
            (``["a", "b"]``); numeric: a number or numeric text (``104``, ``"104"``).
            ``None`` means nothing chosen yet.
    Returns:
        ``Feedback``: ``correct``; the feedback of each chosen option; notes (nothing
        chosen, right options missing, a number's verdict and the misconception it
        matches); and the explanation (shown by the widget once the answer is right).
    Raises:
        ValueError: an option id the question does not have, or several for single choice.
        NotImplementedError: for code exercises, which ``q.check()`` will run (issue 5).
    """
    lang = question.lang
    if question.type in CHOICE_TYPES:
        chosen = _chosen_ids(question, answer)
        if not chosen:
            return Feedback(False, [], [message(ANSWER_MESSAGES["choose"], lang)], question.explanation)
        correct = answer_hash(question.salt, question.id, chosen) == question.answer_sha256
        notes = []
        if not correct and question.type == "multiple_choice" and chosen < (correct_option_ids(question) or set()):
            notes.append(message(ANSWER_MESSAGES["missing"], lang))
        said = [(o.id, o.feedback) for o in question.options if o.id in chosen]
        return Feedback(correct, said, notes, question.explanation)
    if question.type == "numeric":
        value = _as_number(answer, question.unit)
        if value is None:
            return Feedback(False, [], [message(ANSWER_MESSAGES["not_a_number"], lang)], question.explanation)
        correct = numeric_matches(question.answer, value)
        shown = number_text(value)
        notes = [message(ANSWER_MESSAGES["right_number" if correct else "wrong_number"], lang, answer=shown)]
        if not correct:
            notes += [text for v, text in question.misconceptions if math.isclose(v, value, abs_tol=1e-9)]
        return Feedback(correct, [], notes, question.explanation)
    raise NotImplementedError(f"question {question.id!r} is a code exercise; it is checked by running code, not by grade()")


def question_text(question: Question) -> str:
    """The question as plain text: prompt, options lettered A), B)..., and what kind of answer to give.

    Reads the same in a static viewer as in a terminal; option letters follow the order in the file.
    """
    lines = [question.prompt]
    lines += [f"  {chr(ord('A') + i)}) {o.text}" for i, o in enumerate(question.options)]
    if question.type == "code":
        lines += ["", question.starter.rstrip(), ""]
    lines.append(answer_kind(question))
    return "\n".join(lines)


def answer_kind(question: Question) -> str:
    """What kind of answer ``question`` wants, in its language: "Choose one.", "Answer with a number (tokens)."..."""
    if question.type == "numeric" and question.unit:
        return message(ANSWER_MESSAGES["numeric_unit"], question.lang, unit=question.unit)
    if question.type == "code":
        return message(ANSWER_MESSAGES["code"], question.lang, lesson=question.lesson, id=question.id)
    return message(ANSWER_MESSAGES[question.type], question.lang)
