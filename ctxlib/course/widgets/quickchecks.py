"""Quick checks in the notebook: each question as formatted text, then a widget to answer it.

Grading is ``ctxlib.course.quiz.grade``; this module only shows its verdict and records the attempt
(``ctxlib.course.progress``). Code exercises have no widget: ``ctxlib.course.exercises`` runs them.

Every quick check is shown twice over, once per reader: JupyterLab renders the question as HTML
and a widget whose radio buttons (or check boxes) carry each option's text; nbval and static
viewers read the plain text of the same outputs (``question_text``: prompt, lettered options, what
kind of answer to give). Labels and verdicts come from the message catalogs (``ctxlib.i18n``).
"""
from __future__ import annotations

import html
import re

import ipywidgets as widgets

from ctxlib.i18n import N_, check_lang, message

from ..progress import record_quietly
from ..quiz import Question, answer_kind, grade, load_quiz, question_text

# The widget's words, as message ids; ``ui_text(key, lang)`` translates one.
QUIZ_UI = {
    "heading": N_("Quick check {n} of {total}"), "answer": N_("Answer:"), "check": N_("Check"),
    "hint": N_("Hint"), "correct": N_("Correct!"), "wrong": N_("Not quite. Try again."),
    "explanation": N_("Explanation"), "hint_n": N_("Hint {n}: {hint}"), "no_more_hints": N_("No more hints."),
    "static": N_("[quick check: choose an answer and press Check in JupyterLab]"),
}

# Prose wraps between words only (no "77 token / s"); one line per feedback line, no blank lines between.
_PROSE = "white-space: normal; word-break: normal; overflow-wrap: break-word; line-height: 1.5"
_BOX = ("margin: 0.4em 0; padding: 0.5em 0.8em; border-left: 4px solid {edge}; border-radius: 3px; "
        "background: {fill}; " + _PROSE)
_COLOURS = {"right": ("#2e7d32", "#edf7ed"), "wrong": ("#c62828", "#fdeded"), "hint": ("#1565c0", "#e8f1fb")}
# Option labels are long sentences: let the radio and check-box labels wrap instead of being cut off.
_STYLE = ("<style>"
          # ipywidgets floats each radio input left of its text; as a wrapping line the text needs a flex row.
          ".ctxlib-quiz .widget-radio-box label {display: flex; flex-direction: row-reverse; justify-content: flex-end; "
          "align-items: flex-start; gap: 0.5em; white-space: normal; height: auto; line-height: 1.5; "
          "margin-bottom: 0.35em; overflow-wrap: break-word; word-break: normal} "
          ".ctxlib-quiz .widget-radio-box input {float: none; flex: none; margin: 0.3em 0 0 1px} "
          ".ctxlib-quiz .widget-checkbox, .ctxlib-quiz .widget-checkbox .widget-label-basic {height: auto; "
          "white-space: normal; overflow: visible; line-height: 1.5} "
          ".ctxlib-quiz .widget-checkbox .widget-label-basic {display: flex; align-items: flex-start; gap: 0.5em} "
          ".ctxlib-quiz .widget-checkbox input {flex: none; margin-top: 0.3em} "
          ".ctxlib-quiz .widget-checkbox .widget-label-basic span {white-space: normal; overflow: visible}"
          "</style>")


def ui_text(key: str, lang: str, **params) -> str:
    """One of the quick check's words (a ``QUIZ_UI`` key) in ``lang``, e.g. ``ui_text("check", "hi")`` -> "जाँचें".

    Raises ``ValueError`` for an unknown language and ``KeyError`` for an unknown key.
    """
    return message(QUIZ_UI[key], check_lang(lang), **params)


def _letter(question: Question, option_id: str) -> str:
    return chr(ord("A") + [o.id for o in question.options].index(option_id))


def option_label(question: Question, option_id: str) -> str:
    """The label of one option as the widget shows it: its letter and its text, ``"C) ..."``."""
    text = next(o.text for o in question.options if o.id == option_id)
    return f"{_letter(question, option_id)}) {text}"


def check_answer(question: Question, answer, lang: str | None = None) -> str:
    """What the Check button shows for ``answer``, as plain text.

    Args:
        question: a loaded ``Question``.
        answer: as ``ctxlib.course.quiz.grade`` takes it: ``"b"``, ``["a", "b"]`` or ``104``.
        lang: the language of the verdict and labels ("en" or "hi"); default the question's.
    Returns:
        the verdict line ("Correct!" / "Not quite. Try again."), each chosen option's
        feedback as ``"B) ..."``, any notes, and the explanation once the answer is right
        (kept back while it is wrong, so the learner can try again); one line each.
    Raises:
        ValueError: an unknown language or option id.
    """
    return "\n".join(_feedback_lines(question, answer, lang or question.lang)[1])


def _feedback_lines(question: Question, answer, lang: str) -> tuple[bool, list[str]]:
    feedback = grade(question, answer)
    lines = [ui_text("correct" if feedback.correct else "wrong", lang)]
    lines += [f"{_letter(question, option_id)}) {text}" for option_id, text in feedback.option_feedback]
    lines += feedback.notes
    if feedback.correct:
        lines.append(f"{ui_text('explanation', lang)}: {feedback.explanation}")
    return feedback.correct, lines


def feedback_html(lines: list[str], kind: str) -> str:
    """``lines`` as one styled box: ``kind`` is "right" (green), "wrong" (red) or "hint" (blue); the first line is bold.

    Each line is its own ``div``, so the page's text reads exactly as ``check_answer``'s lines.
    """
    edge, fill = _COLOURS[kind]
    body = "".join(f"<div><b>{html.escape(line)}</b></div>" if i == 0 and kind != "hint"
                   else f"<div>{html.escape(line)}</div>" for i, line in enumerate(lines))
    return f'<div class="ctxlib-feedback" style="{_BOX.format(edge=edge, fill=fill)}">{body}</div>'


def hint_text(question: Question, shown: int, lang: str | None = None) -> str:
    """The hints up to number ``shown`` (1 = the first), one per line, or "No more hints." past the last."""
    lang = lang or question.lang
    lines = [ui_text("hint_n", lang, n=i, hint=hint) for i, hint in enumerate(question.hints[:shown], 1)]
    if shown > len(question.hints):
        lines.append(ui_text("no_more_hints", lang))
    return "\n".join(lines)


# `code`, **bold**, then what reads as code without backticks: file names and paths, dotted names
# (ctxlib.course.examples.SENTENCE_HI, q.check()), snake_case names (pack_context).
_CODE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|(\b[\w-]+(?:/[\w.-]+)*\.(?:py|md|json|txt|env|ipynb)\b"
                   r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\([^()]*\))?|\b[A-Za-z_]\w*_\w*(?:\([^()]*\))?)")


def prompt_html(text: str) -> str:
    """A question's prompt as HTML: `code` and identifiers (``pack_context``, ``shop/vat.py``) in code type, **bold**, line breaks kept.

    ``prompt_html("Does pack_context use **all** of it?")`` ->
    ``'Does <code>pack_context</code> use <b>all</b> of it?'``.
    """
    out, last = [], 0
    for m in _CODE.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        code, bold, ident = m.groups()
        if ident is not None and len(ident) < 5:  # "e.g" is a word, not a name
            out.append(html.escape(m.group()))
            last = m.end()
            continue
        out.append(f"<b>{html.escape(bold)}</b>" if bold is not None else f"<code>{html.escape(code or ident)}</code>")
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out).replace("\n", "<br>")


class QuestionView:
    """A question as the notebook shows it: heading, prompt and what kind of answer to give, as HTML and as plain text.

    JupyterLab shows the HTML, and the options as the labels of the widget below it. nbval, static
    viewers and terminals read the plain text: ``heading``, the prompt and the answer kind here,
    the lettered options in the widget's own plain text (``quiz_widget``), so each viewer shows
    every part once. A code exercise has no widget: its plain text is all of ``question_text``.
    """

    def __init__(self, question: Question, heading: str):
        self.question, self.heading = question, heading

    def __repr__(self) -> str:
        q = self.question
        if q.type == "code" or not q.options:
            return f"{self.heading}\n{question_text(q)}"
        return f"{self.heading}\n{q.prompt}\n{answer_kind(q)}"

    def _repr_html_(self) -> str:
        q = self.question
        code = (f"<pre>{html.escape(q.starter.rstrip())}</pre>" if q.type == "code" else "")
        return (f'<div class="ctxlib-question" style="{_PROSE}">{_STYLE}'
                f'<div class="ctxlib-question-heading" style="font-weight: bold; font-size: 1.1em; margin-bottom: 0.3em">'
                f"{html.escape(self.heading)}</div>"
                f"<div>{prompt_html(q.prompt)}</div>{code}"
                f'<div style="margin-top: 0.3em; font-style: italic">{html.escape(answer_kind(q))}</div></div>')


class QuizBox(widgets.VBox):
    """A quick check's widget box; its plain-text form is its options and a short note instead of a widget repr."""

    def __init__(self, children, note: str, lang: str = "en"):
        super().__init__(children, layout=widgets.Layout(width="100%", max_width="56em"))
        self.add_class("ctxlib-quiz")
        # The course's accessibility extension marks the box lang="hi"/"en" from this class, groups
        # its options under the question's heading and makes its feedback box a live region.
        self.add_class(f"ctxlib-lang-{lang}")
        self._note = note

    def __repr__(self) -> str:
        # Static viewers and nbval see text/plain: a stable, readable line, not model internals.
        return self._note

    def _repr_mimebundle_(self, **kwargs):
        # ipywidgets cuts a widget's text/plain after 110 characters ("B) The tokenizer keeps about half o…"):
        # a static viewer showed no option whole. Every option is given in full.
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle:
            bundle["text/plain"] = self._note
        return bundle


def _answer_control(question: Question, lang: str):
    """The input for ``question`` and a function reading the learner's answer from it.

    Choice options are labelled with their letter and text (``option_label``); a number is typed
    as text, so "180,000" is read as the learner means it.
    """
    full = widgets.Layout(width="100%")
    if question.type == "single_choice":
        radio = widgets.RadioButtons(options=[(option_label(question, o.id), o.id) for o in question.options],
                                     value=None, layout=full)
        return radio, lambda: radio.value
    if question.type == "multiple_choice":
        boxes = {o.id: widgets.Checkbox(value=False, description=option_label(question, o.id), indent=False,
                                        layout=full) for o in question.options}
        column = widgets.VBox(list(boxes.values()), layout=full)
        return column, lambda: [option_id for option_id, box in boxes.items() if box.value]
    if question.type == "numeric":
        number = widgets.Text(value="", placeholder="180,000", description=ui_text("answer", lang),
                              continuous_update=False)
        return number, lambda: number.value.strip() or None
    raise NotImplementedError(f"question {question.id!r} is a code exercise: ctxlib.course.exercises.exercise runs it")


def answer_outcome(question: Question, answer) -> str:
    """How the progress file records ``answer``: "passed", "failed", or "not attempted" when nothing is chosen."""
    if answer is None or (question.type == "multiple_choice" and not answer):
        return "not attempted"
    return "passed" if grade(question, answer).correct else "failed"


def quiz_widget(question: Question, lang: str | None = None) -> QuizBox:
    """A widget to answer ``question``: answer control, Check button, feedback area.

    ``children`` is ``(answer control, buttons row, feedback HTML)``. The answer control is a
    ``RadioButtons`` whose labels are ``option_label``s (single choice), a ``VBox`` of labelled
    ``Checkbox``es (multiple choice), or a ``Text`` box (numeric). The buttons row holds Check
    and, if the question has hints, Hint. Clicking Check puts ``check_answer(...)`` into the
    feedback HTML as a styled box (``feedback_html``) and records the attempt, with the hints
    seen so far, in the progress file (``ctxlib.course.progress``). Changing the answer after
    that clears the verdict, so a verdict never stands beside an answer it did not grade (a hint
    stays).
    """
    lang = check_lang(lang or question.lang)
    control, read_answer = _answer_control(question, lang)
    check = widgets.Button(description=ui_text("check", lang), button_style="primary")
    result = widgets.HTML(value="", layout=widgets.Layout(width="100%"))
    buttons = [check]
    shown = [0]  # hints seen: the Hint button counts up, the Check button records it
    verdict = [False]  # whether the feedback area holds a verdict on the answer now chosen

    def on_check(_button) -> None:
        answer = read_answer()
        correct, lines = _feedback_lines(question, answer, lang)
        result.value = feedback_html(lines, "right" if correct else "wrong")
        verdict[0] = True
        record_quietly(question.lesson, question.id, answer_outcome(question, answer),
                       lang=lang, hints_used=min(shown[0], len(question.hints)))

    def on_change(_change) -> None:
        # A verdict stands only beside the answer it graded. A choice that reaches the kernel after
        # Check (the browser sends a pending choice late when the kernel is busy) clears it too.
        if verdict[0]:
            result.value, verdict[0] = "", False

    check.on_click(on_check)
    if question.hints:
        hint = widgets.Button(description=ui_text("hint", lang))

        def on_hint(_button) -> None:
            shown[0] += 1
            result.value = feedback_html(hint_text(question, shown[0], lang).splitlines(), "hint")
            verdict[0] = False

        hint.on_click(on_hint)
        buttons.append(hint)
    verdict[0] = restore_last_check(question, lang, control, result)
    for answer_part in control.children if question.type == "multiple_choice" else [control]:
        answer_part.observe(on_change, names="value")
    # Where the widget cannot render, its plain text lists the options it would have offered.
    options = [f"  {option_label(question, o.id)}" for o in question.options]
    return QuizBox([control, widgets.HBox(buttons), result], note="\n".join([*options, ui_text("static", lang)]),
                   lang=lang)


def last_check(question: Question, path=None) -> tuple[str | None, object]:
    """The last checked attempt at ``question`` in the progress file: ``(outcome, answer to show)``.

    ``outcome`` is "passed", "failed" or ``None`` (never checked, or the file cannot be read: this
    never raises). The file keeps outcomes, not answers, so the answer is known only for a pass,
    the right one: an option id (single choice), a sorted list of ids (multiple choice), the key's
    value as text (numeric); after a fail it is ``None``. ``path``: default ``progress_path()``.
    """
    from ..progress import progress_path, read_progress
    from ..quiz import correct_option_ids

    try:
        attempts = read_progress(path or progress_path())["attempts"]
    except Exception:  # noqa: BLE001: a missing or broken file means nothing to restore, never an error here
        return None, None
    outcomes = [a["outcome"] for a in attempts if (a["lesson"], a["question"]) == (question.lesson, question.id)
                and a["outcome"] in ("passed", "failed")]
    if not outcomes or outcomes[-1] == "failed":
        return (outcomes[-1] if outcomes else None), None
    if question.type == "numeric":
        value = question.answer.get("value", question.answer.get("min"))
        return "passed", None if value is None else (str(int(value)) if float(value).is_integer() else str(value))
    right = sorted(correct_option_ids(question) or [])
    return "passed", (right[0] if question.type == "single_choice" and right else right or None)


def restore_last_check(question: Question, lang: str, control, result) -> bool:
    """Show a quick check as the learner last left it (``last_check``): after a pass the right answer
    chosen and its feedback; after a fail the verdict "Not quite. Try again." and nothing chosen.
    Returns whether a verdict is shown."""
    outcome, answer = last_check(question)
    if outcome == "failed":
        result.value = feedback_html([ui_text("wrong", lang)], "wrong")
    if outcome != "passed" or answer is None:
        return outcome == "failed"
    if question.type == "multiple_choice":
        for box, option in zip(control.children, question.options):
            box.value = option.id in answer
    else:
        control.value = answer
    result.value = feedback_html(_feedback_lines(question, answer, lang)[1], "right")
    return True


def question_heading(quiz, question_id: str, lang: str) -> str:
    """The heading ``show_quiz`` gives a question: "Quick check 2 of 6", numbered among the quick
    checks (a code exercise among all the questions), in ``lang``. KeyError for an unknown id."""
    question = quiz.question(question_id)
    numbering = [q.id for q in quiz.questions if question.type == "code" or q.type != "code"]
    return ui_text("heading", lang, n=numbering.index(question_id) + 1, total=len(numbering))


def show_quiz(lesson: str, lang: str, ids=None) -> None:
    """Show a lesson's quick checks: each question (``QuestionView``), then its widget.

    Code exercises are left out by default: each sits after the section it practises, answered in
    a code cell with ``ctxlib.course.exercises.exercise``. Named in ``ids``, one is shown only
    (prompt, starter code, how to check it), with no widget.

    Args:
        lesson: the lesson's file name stem, e.g. ``"01_window_as_budget"``.
        lang: "en" or "hi"; the questions and the labels are in this language.
        ids: only these question ids, in this order (a lesson that places each check after the
            section it practises); numbered as in the whole quiz ("Quick check 3 of 8").
            Default: every question that is not a code exercise, in file order, numbered among those.
    Raises:
        KeyError: an id the quiz does not have.
        as ``ctxlib.course.quiz.load_quiz``: unknown language, no quiz file, a malformed quiz file.
    """
    from IPython.display import display

    quiz = load_quiz(lesson, lang)
    # By default the quick checks only: each code exercise already sits after its own section.
    shown = ([q for q in quiz.questions if q.type != "code"] if ids is None else [quiz.question(i) for i in ids])
    for question in shown:
        heading = question_heading(quiz, question.id, lang)
        display(QuestionView(question, heading))
        if question.type != "code":
            display(quiz_widget(question, lang))
