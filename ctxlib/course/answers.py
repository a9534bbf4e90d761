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

from ctxlib.i18n import N_, WordedError, message, shown

from .numberwords import fold_word, ordinal_number, words_number

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
    "one_number": N_("Enter one number, not several."), "unit": N_("Enter the number in {unit}."),
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


# A choice typed rather than clicked: "B", "B)", "(b)", "option b", "विकल्प b", "जवाब: B"; several as "b, d" or "B and D".
_OPTION_WORDS = {"option", "options", "विकल्प", "answer", "जवाब", "उत्तर", "answers", "choice",  # उत्तर: a learner's word
                 "both", "दोनों", "तथा", "एवं", "व", "सही", "है", "हैं"}  # "b और d दोनों", "b तथा d", "B सही है"
# A letter typed in Devanagari as it is said: "बी" for B.
_LETTER_NAMES = {"ए": "a", "बी": "b", "सी": "c", "डी": "d", "ई": "e", "एफ": "f", "जी": "g", "एच": "h"}
_OPTION_SEPARATORS = re.compile(r"\s*(?:[,;&+/]|\band\b|\bor\b|और|या)\s*|\s+")
_ALL_WORDS = {"all", "all of them", "all of the above", "सभी", "सब", "सभी विकल्प", "सभी सही हैं", "सब सही हैं", "सभी सही",
              "सब सही", "ये सभी", "ऊपर के सभी"}
_HEDGE = re.compile(r"\bor\b|(?<!\S)या(?!\S)")  # "b or c", "b या c": one of them, the learner does not say which


def _typed_ids(text: str) -> set[str]:
    """The option ids a typed answer names, as the widget letters them (a question's ids are its letters, a, b, c...).

    ``"B)"`` -> ``{"b"}``, ``"option b"`` -> ``{"b"}``, ``"b, d"`` -> ``{"b", "d"}``. A part that is no letter is kept
    as typed, so the caller names it as an option the question does not have.
    """
    parts = (part.strip("()[]{}.।:-\"'") for part in _OPTION_SEPARATORS.split(fold_word(text.strip())))
    return {_LETTER_NAMES.get(part, part) for part in parts if part and part not in _OPTION_WORDS} \
        or ({text} if text.strip() else set())


def _chosen_ids(question: Question, answer) -> set[str]:
    if answer is None:
        chosen = set()
    elif isinstance(answer, str) and " ".join(fold_word(answer).split()).strip(".।") in _ALL_WORDS:
        chosen = {o.id for o in question.options}  # "all of them": every option, graded as ticking every box
    elif isinstance(answer, str):
        chosen = _typed_ids(answer) if answer not in {o.id for o in question.options} else {answer}
    elif isinstance(answer, (list, tuple, set, frozenset)) and all(isinstance(a, str) for a in answer):
        chosen = set().union(*(_typed_ids(a) for a in answer)) if answer else set()
    else:
        raise WordedError.of(N_("question {id} takes option ids such as 'a' or ['a', 'c'], got {answer}"), id=repr(question.id),
                             answer=shown(answer))
    unknown = chosen - {o.id for o in question.options}
    unknown = {answer} if unknown and isinstance(answer, str) else unknown  # named as typed: 'all of them'
    if unknown:  # named bounded (i18n.shown): a 1 MB answer typed was quoted whole, and so was each of 100,000 ids
        named = [shown(u) for u in sorted(unknown)[:8]] + (["..."] if len(unknown) > 8 else [])
        raise WordedError.of(N_("question {id} has no option {unknown}; options: {options}"), id=repr(question.id),
                             unknown=f"[{', '.join(named)}]", options=str([o.id for o in question.options]))
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
_PERCENT_UNITS = ("%", "percent", "per cent", "प्रतिशत", "फ़ीसदी", "परसेंट", "पर्सेंट")
_TIMES_UNITS = ("x", "×", "times", "गुना")
_BUDGET_WORDS = ("the budget", "budget", "of the budget", "बजट", "बजट का")  # "2.2 times the budget", "2.2 गुना बजट"
# What else a learner writes for a question's unit, in either language: "104 टोकन", "1 token", "turn 3".
_UNIT_WORDS = {"tokens": ("tokens", "token", "टोकन", "टोकनों"),
               "lines": ("lines", "line", "पंक्तियाँ", "पंक्तियों", "पंक्ति", "लाइनें", "लाइनों", "लाइन"),
               "turn": ("turns", "turn", "टर्न"), "mean reciprocal rank": ("mrr",)}
# Before the number, a learner may say it is rough ("~104", "about 104", "लगभग 104"); after it, end the sentence.
_ROUGHLY = re.compile(r"^(?:[^\W\d_][^\d:=]{0,15}[:=]|=)?\s*(?:~|≈|about\s|around\s|approx\.?\s|approximately\s"
                      r"|roughly\s|लगभग\s|करीब\s|तकरीबन\s)?\s*")  # and a label: "answer: 104", "जवाब: 104", "= 104"
_BRACKETED = re.compile(r"\(([^()]*)\)$")  # "(104)", "104 (tokens)": the brackets' text
_FULL_STOPS = ".।!"


def _without_full_stop(text: str) -> str:
    """``text`` (spaces collapsed, none leading) without the full stops ending it (``"104 ."`` -> ``"104"``); the first
    character is kept (``"..."`` -> ``"."``). Not a regular expression: a search for ``\\s*[.।!]+$`` starts again at
    each mark, so 40,000 dots and a letter took 5 s, a megabyte of them most of an hour."""
    kept = text.rstrip(_FULL_STOPS)
    return text if kept == text else kept.rstrip() or text[:1]


def _unit_words(unit: str) -> list[str]:
    """Every way to write ``unit`` after (or, for a turn, before) the number, folded, longest first."""
    words = [unit] if unit else []
    first = unit.split()[0] if unit else ""
    if fold_word(unit) in map(fold_word, _PERCENT_UNITS):
        words += list(_PERCENT_UNITS)
    if fold_word(first) in map(fold_word, _TIMES_UNITS):  # "x the budget" and "गुना बजट": the same words in either language
        words += [f"{w} {b}" for w in _TIMES_UNITS for b in _BUDGET_WORDS] + list(_TIMES_UNITS)
    words += list(_UNIT_WORDS.get(fold_word(unit), ()))
    return sorted({fold_word(w) for w in words if w}, key=len, reverse=True)


def _without_unit(text: str, unit: str) -> str:
    """``text`` without the question's unit after it (``"160000 tokens"``) or before it (``"turn 3"``, ``"x2.2"``)."""
    for word in _unit_words(unit):
        if text.endswith(word) and len(text) > len(word):
            return text[:-len(word)].rstrip()
        if text.startswith(word + " ") or (word in _TIMES_UNITS[:2] and text.startswith(word)
                                           and text[len(word):][:1].isdigit()):  # "x2.2"
            return text[len(word):].lstrip()
    return text


def _cleaned(answer: str) -> str:
    """What a learner typed, without what is not the number: folded (``fold_word``), its spaces collapsed, without a
    full stop, a label or "about" before it (``"answer: ~104."`` -> ``"104"``), or brackets (``"104 (tokens)"``)."""
    text = _without_full_stop(" ".join(fold_word(answer).replace("\u2212", "-").split()))
    return _BRACKETED.sub(r"\1", _ROUGHLY.sub("", text, count=1), count=1).strip()


def _as_number(answer, unit: str | None = None) -> float | None:
    """The number a learner typed, or ``None`` if it is not one.

    Read as engineers write numbers: ``"160000"``, ``"160_000"``, ``"1.6e5"``, ``"160,000"``, ``"160 000"``,
    ``"1,60,000"`` (lakh and crore), ``"160k"``, ``"160 k"``, ``"1.2M"``, Devanagari digits (``"१०४"``), a minus
    sign (``"−14000"``), and with the question's ``unit`` after it, in either language (``"160000 tokens"``,
    the Hindi word of ``_UNIT_WORDS``, ``"3.2%"`` for a percentage, ``"2.2x"`` or ``"2.2 times"`` for times the
    budget) or a turn's before it (``"turn 3"``); ``"89.3%"`` where the question asks for no percentage is 0.893.
    As people write them too: in words, English or Hindi (``"one hundred and four"``, ``"बारह हज़ार"``, ``"39 thousand"``,
    ``"1.6 लाख"``; a turn as an ordinal, ``"third"``, ``"तीसरा"``: ``ctxlib.course.numberwords``), said to be rough
    (``"~104"``, ``"लगभग 104"``), after a short label (``"answer: 104"``, ``"जवाब: 104"``), in brackets (``"(104)"``,
    ``"104 (tokens)"``), and ending a sentence (``"104."``, ``"104।"``).
    ``"1,2,3"`` is no number, nor ``"0,893"`` (a decimal comma), nor a hedge (``"104 or 108"``), nor arithmetic
    (``"77+27"``: the question asks for its result); nor is a bool, ``nan`` or an infinity.
    """
    if isinstance(answer, bool):
        return None
    if not isinstance(answer, str):
        try:
            value = float(answer)
        except (TypeError, ValueError, OverflowError):
            return None
        return value if math.isfinite(value) else None
    text = _cleaned(answer)
    if (unit or "").lower() == "turn":  # the question asks in which turn: "in turn 3", "turn 3 में", "तीसरे turn में"
        text = re.sub(r"\s+(?:में|पर)$", "", re.sub(r"^(?:in|at|on)\s+", "", text))
    text = _without_unit(text, unit or "")
    if (unit or "").lower() == "turn":  # "3rd turn", "the third turn", "तीसरा"
        # "3rd", "3वाँ"; Hindi shortens its ordinals too: "1ला", "2रा", "3रे", "4था", "6ठा" (folded: वाँ is वां)
        text = re.sub(r"(?<=\d)(?:st|nd|rd|th|वां|वें|वीं|वा|वे|वी|ला|ले|ली|रा|रे|री|था|थे|थी|ठा|ठे|ठी)$", "",
                      re.sub(r"^the\s+", "", text))
        if ordinal_number(text) is not None:
            return float(ordinal_number(text))
    if not (unit and fold_word(unit) in map(fold_word, _PERCENT_UNITS)) and text.endswith("%") and len(text) > 1:
        text, fraction = text[:-1].rstrip(), True  # a percentage where a fraction is asked: the same number
    else:
        fraction = False
    spaced = len(text) > 2 and text[-2] == " " and text[-3:-2].isdigit()  # "160 k"
    scale = _SCALE.get(text[-1:], 1.0) if len(text) > 1 and (text[-2:-1].isdigit() or spaced) else 1.0
    text = text[:-1].rstrip() if scale != 1.0 else text
    scale = scale / 100 if fraction else scale
    if any(sep in text for sep in ", \u00a0\u202f") and _GROUPED.fullmatch(text):
        text = re.sub(r"[, \u00a0\u202f]", "", text)
    try:
        value = float(text) * scale
    except (ValueError, OverflowError):
        value = words_number(text) if re.search(r"[^\W\d_]", text) else None  # "one hundred and four", "बारह हजार"
        value = None if value is None else value * scale
    return value if value is not None and math.isfinite(value) else None


# Units a question may not ask for: the number in them is another number ("416 characters" for 104 tokens).
_OTHER_UNITS = ("characters", "character", "chars", "char", "अक्षर", "अक्षरों", "words", "word", "शब्द", "शब्दों",
                "bytes", "byte", "बाइट", *(w for words in _UNIT_WORDS.values() for w in words))
_SEVERAL = re.compile(r"\s*(?:[,;/]|\bor\b|\band\b|(?<!\S)(?:या|और)(?!\S))\s*|\s+(?:-|–|to|से)\s+|(?<=\d)[-–](?=\d)"
                      r"|(?<=\d)\s+(?=\d)")


def _not_a_number_note(answer, unit: str) -> str:
    """Why ``answer`` is no number, as a key of ``ANSWER_MESSAGES``: several numbers (``"104 or 108"``), a number in
    a unit the question does not ask for (``"416 characters"``), or neither (``"not_a_number"``)."""
    # Spaces collapsed first (_cleaned): _SEVERAL's "\s*" around a separator is then one space, not a run to rescan.
    text = _cleaned(answer) if isinstance(answer, str) else ""
    parts = [p for p in _SEVERAL.split(text) if p]
    if 1 < len(parts) <= 10 and all(_as_number(p, unit) is not None for p in parts):  # a hedge names a few
        return "one_number"
    ours = set(_unit_words(unit))
    for word in map(fold_word, _OTHER_UNITS):
        if unit and word not in ours and text.endswith(word) and _as_number(text[:-len(word)]) is not None:
            return "unit"
    return "not_a_number"


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
        answer: single choice: an option id (``"c"``), or its letter as typed (``"C)"``, ``"(c)"``, ``"option c"``,
            ``"विकल्प C"``); multiple choice: option ids (``["a", "b"]``, ``"a, b"``, ``"A and B"``); numeric: a
            number or numeric text (``104``, ``"104"``, ``"one hundred and four"``, ``"एक सौ चार"``).
            ``None`` means nothing chosen yet.
    Returns:
        ``Feedback``: ``correct``; the feedback of each chosen option; notes (nothing
        chosen, right options missing, a number's verdict and the misconception it
        matches); and the explanation (shown by the widget once the answer is right).
    Raises:
        ValueError: an option id the question does not have. Several for single choice (``"b or c"``) is a wrong
            answer ("Choose one."), not an error.
        NotImplementedError: for code exercises, which ``q.check()`` will run (issue 5).
    """
    lang = question.lang
    if question.type in CHOICE_TYPES:
        chosen = _chosen_ids(question, answer)
        if not chosen:
            return Feedback(False, [], [message(ANSWER_MESSAGES["choose"], lang)], question.explanation)
        hedged = isinstance(answer, str) and _HEDGE.search(fold_word(answer))  # "b or d" is no choice, for either type
        if len(chosen) > 1 and (question.type == "single_choice" or hedged):  # wrong, and no option's feedback
            return Feedback(False, [], [message(ANSWER_MESSAGES[question.type], lang)], question.explanation)
        correct = answer_hash(question.salt, question.id, chosen) == question.answer_sha256
        if not correct and len(chosen) == len(question.options) > 1:  # every box ticked: the options' own feedback
            # ("Right: ..." on each right one) would be the key, so the hedge is told only what to do
            return Feedback(False, [], [message(ANSWER_MESSAGES[question.type], lang)], question.explanation)
        notes = []
        if not correct and question.type == "multiple_choice" and chosen < (correct_option_ids(question) or set()):
            notes.append(message(ANSWER_MESSAGES["missing"], lang))
        said = [(o.id, o.feedback) for o in question.options if o.id in chosen]
        return Feedback(correct, said, notes, question.explanation)
    if question.type == "numeric":
        value = _as_number(answer, question.unit)
        if value is None:  # "Enter a number.", or what is wrong with it: several numbers, another unit
            note = message(ANSWER_MESSAGES[_not_a_number_note(answer, question.unit)], lang, unit=question.unit)
            return Feedback(False, [], [note], question.explanation)
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
