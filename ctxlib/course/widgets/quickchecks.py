"""Quick checks in the notebook: a question's printed text, then a widget to answer it.

Grading is ``ctxlib.course.quiz.grade``; this module only shows its verdict and records the attempt.
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from ..progress import record_quietly
from ..quiz import Question, grade, load_quiz, question_text

# ---------------------------------------------------------------------------
# Quick checks: a question's printed text, then a widget to answer it.
# Grading is ctxlib.course.quiz.grade; this section shows its verdict and records the attempt
# (ctxlib.course.progress). Code exercises have no widget: ctxlib.course.exercises runs them.
# ---------------------------------------------------------------------------

QUIZ_UI = {
    "en": {"heading": "Quick check {n} of {total}", "answer": "Answer:", "check": "Check", "hint": "Hint",
           "correct": "Correct!", "wrong": "Not quite. Try again.", "explanation": "Explanation",
           "no_more_hints": "No more hints.",
           "static": "[quick check: choose an answer and press Check in JupyterLab]"},
    "hi": {"heading": "त्वरित जाँच {n} ({total} में से)", "answer": "जवाब:", "check": "जाँचें", "hint": "संकेत",
           "correct": "सही!", "wrong": "अभी पूरी तरह सही नहीं। फिर कोशिश करें।", "explanation": "व्याख्या",
           "no_more_hints": "और संकेत नहीं हैं।",
           "static": "[त्वरित जाँच: JupyterLab में जवाब चुनें और जाँचें दबाएँ]"},
}


def _ui(lang: str) -> dict:
    if lang not in QUIZ_UI:
        raise ValueError(f"lang must be one of {tuple(QUIZ_UI)}, got {lang!r}")
    return QUIZ_UI[lang]


def _letter(question: Question, option_id: str) -> str:
    return chr(ord("A") + [o.id for o in question.options].index(option_id))


def check_answer(question: Question, answer, lang: str | None = None) -> str:
    """What the Check button shows for ``answer``, as plain text.

    Args:
        question: a loaded ``Question``.
        answer: as ``ctxlib.course.quiz.grade`` takes it: ``"b"``, ``["a", "b"]`` or ``104``.
        lang: the language of the verdict and labels ("en" or "hi"); default the question's.
    Returns:
        the verdict line ("Correct!" / "Not quite. Try again."), each chosen option's
        feedback as ``"B) ..."``, any notes, and the explanation once the answer is right
        (kept back while it is wrong, so the learner can try again).
    Raises:
        ValueError: an unknown language or option id.
    """
    ui = _ui(lang or question.lang)
    feedback = grade(question, answer)
    lines = [ui["correct"] if feedback.correct else ui["wrong"]]
    lines += [f"{_letter(question, option_id)}) {text}" for option_id, text in feedback.option_feedback]
    lines += feedback.notes
    if feedback.correct:
        lines.append(f"{ui['explanation']}: {feedback.explanation}")
    return "\n".join(lines)


def hint_text(question: Question, shown: int, lang: str | None = None) -> str:
    """The hints up to number ``shown`` (1 = the first), one per line, or "No more hints." past the last."""
    ui = _ui(lang or question.lang)
    hints = question.hints[:shown]
    lines = [f"{ui['hint']} {i}: {hint}" for i, hint in enumerate(hints, 1)]
    if shown > len(question.hints):
        lines.append(ui["no_more_hints"])
    return "\n".join(lines)


class QuizBox(widgets.VBox):
    """A quick check's widget box; its plain-text form is a short note instead of a widget repr."""

    def __init__(self, children, note: str):
        super().__init__(children)
        self._note = note

    def __repr__(self) -> str:
        # Static viewers and nbval see text/plain: a stable, readable line, not model internals.
        return self._note


def _answer_control(question: Question, ui: dict):
    """The input for ``question`` and a function reading the learner's answer from it."""
    if question.type == "single_choice":
        radio = widgets.RadioButtons(options=[(_letter(question, o.id), o.id) for o in question.options],
                                     value=None, description=ui["answer"])
        return radio, lambda: radio.value
    if question.type == "multiple_choice":
        boxes = {o.id: widgets.Checkbox(value=False, description=_letter(question, o.id), indent=False,
                                        layout=widgets.Layout(width="auto")) for o in question.options}
        row = widgets.HBox([widgets.Label(ui["answer"]), *boxes.values()])
        return row, lambda: [option_id for option_id, box in boxes.items() if box.value]
    if question.type == "numeric":
        number = widgets.FloatText(description=ui["answer"])
        return number, lambda: number.value
    raise NotImplementedError(f"question {question.id!r} is a code exercise: ctxlib.course.exercises.exercise runs it")


def answer_outcome(question: Question, answer) -> str:
    """How the progress file records ``answer``: "passed", "failed", or "not attempted" when nothing is chosen."""
    if answer is None or (question.type == "multiple_choice" and not answer):
        return "not attempted"
    return "passed" if grade(question, answer).correct else "failed"


def quiz_widget(question: Question, lang: str | None = None) -> QuizBox:
    """A widget to answer ``question``: answer control, Check button, feedback area.

    The options are shown by letter only; their text is the plain text that ``show_quiz``
    prints just above, so a long option never gets cut off. ``children`` is
    ``(answer control, buttons row, feedback HTML)``; the buttons row holds Check and, if the
    question has hints, Hint. Clicking Check puts ``check_answer(...)`` into the feedback HTML
    and records the attempt, with the hints seen so far, in the progress file (``ctxlib.course.progress``).
    """
    ui = _ui(lang or question.lang)
    control, read_answer = _answer_control(question, ui)
    check = widgets.Button(description=ui["check"], button_style="primary")
    result = widgets.HTML(value="")
    buttons = [check]
    shown = [0]  # hints seen: the Hint button counts up, the Check button records it

    def on_check(_button) -> None:
        answer = read_answer()
        text = check_answer(question, answer, lang)
        result.value = f'<div style="white-space: pre-wrap">{html.escape(text)}</div>'
        record_quietly(question.lesson, question.id, answer_outcome(question, answer),
                       lang=lang or question.lang, hints_used=min(shown[0], len(question.hints)))

    check.on_click(on_check)
    if question.hints:
        hint = widgets.Button(description=ui["hint"])

        def on_hint(_button) -> None:
            shown[0] += 1
            result.value = f'<div style="white-space: pre-wrap">{html.escape(hint_text(question, shown[0], lang))}</div>'

        hint.on_click(on_hint)
        buttons.append(hint)
    return QuizBox([control, widgets.HBox(buttons), result], note=ui["static"])


def show_quiz(lesson: str, lang: str) -> None:
    """Print each of a lesson's quick checks as plain text, then display its widget.

    A code exercise is printed only (prompt, starter code, how to check it): it is answered
    in a code cell with ``ctxlib.course.exercises.exercise``, not in a widget.

    Args:
        lesson: the lesson's file name stem, e.g. ``"01_window_as_budget"``.
        lang: "en" or "hi"; the questions and the labels are in this language.
    Raises:
        as ``ctxlib.course.quiz.load_quiz``: unknown language, no quiz file, a malformed quiz file.
    """
    from IPython.display import display

    quiz = load_quiz(lesson, lang)
    ui = _ui(lang)
    for n, question in enumerate(quiz.questions, 1):
        heading = ui["heading"].format(n=n, total=len(quiz.questions))
        # Flush so the text lands before its widget in the saved outputs.
        print(f"{heading}\n{question_text(question)}", flush=True)
        if question.type != "code":
            display(quiz_widget(question, lang))
