"""The lessons' interactive controls, built with ipywidgets.

Every callback is an ordinary function of plain values that tests call without a browser,
and every control has a plain-text form beside it for static viewers and nbval.

Sections:
    Quick checks    show_quiz, quiz_widget, check_answer, hint_text
    Lesson 1        describe_pack, repack, pack_explorer
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from .quiz import Question, grade, load_quiz, question_text

# ---------------------------------------------------------------------------
# Quick checks: a question's printed text, then a widget to answer it.
# Grading is ctxlib.quiz.grade; this section only shows its verdict.
# ---------------------------------------------------------------------------

QUIZ_UI = {
    "en": {"heading": "Quick check {n} of {total}", "answer": "Answer:", "check": "Check", "hint": "Hint",
           "correct": "Correct!", "wrong": "Not quite. Try again.", "explanation": "Explanation",
           "no_more_hints": "No more hints.",
           "static": "[quick check: choose an answer and press Check in JupyterLab]"},
    "hi": {"heading": "त्वरित जाँच {n} ({total} में से)", "answer": "उत्तर:", "check": "जाँचें", "hint": "संकेत",
           "correct": "सही!", "wrong": "अभी पूरी तरह सही नहीं। फिर कोशिश करें।", "explanation": "व्याख्या",
           "no_more_hints": "और संकेत नहीं हैं।",
           "static": "[त्वरित जाँच: JupyterLab में उत्तर चुनें और जाँचें दबाएँ]"},
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
        answer: as ``ctxlib.quiz.grade`` takes it: ``"b"``, ``["a", "b"]`` or ``104``.
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
    raise NotImplementedError(f"question {question.id!r} is a code exercise; it has no widget yet")


def quiz_widget(question: Question, lang: str | None = None) -> QuizBox:
    """A widget to answer ``question``: answer control, Check button, feedback area.

    The options are shown by letter only; their text is the plain text that ``show_quiz``
    prints just above, so a long option never gets cut off. ``children`` is
    ``(answer control, buttons row, feedback HTML)``; the buttons row holds Check and, if the
    question has hints, Hint. Clicking Check puts ``check_answer(...)`` into the feedback HTML.
    """
    ui = _ui(lang or question.lang)
    control, read_answer = _answer_control(question, ui)
    check = widgets.Button(description=ui["check"], button_style="primary")
    result = widgets.HTML(value="")
    buttons = [check]

    def on_check(_button) -> None:
        text = check_answer(question, read_answer(), lang)
        result.value = f'<div style="white-space: pre-wrap">{html.escape(text)}</div>'

    check.on_click(on_check)
    if question.hints:
        hint = widgets.Button(description=ui["hint"])
        shown = [0]

        def on_hint(_button) -> None:
            shown[0] += 1
            result.value = f'<div style="white-space: pre-wrap">{html.escape(hint_text(question, shown[0], lang))}</div>'

        hint.on_click(on_hint)
        buttons.append(hint)
    return QuizBox([control, widgets.HBox(buttons), result], note=ui["static"])


def show_quiz(lesson: str, lang: str) -> None:
    """Print each of a lesson's quick checks as plain text, then display its widget.

    Args:
        lesson: the lesson's file name stem, e.g. ``"01_window_as_budget"``.
        lang: "en" or "hi"; the questions and the labels are in this language.
    Raises:
        as ``ctxlib.quiz.load_quiz``: unknown language, no quiz file, a malformed quiz file.
    """
    from IPython.display import display

    quiz = load_quiz(lesson, lang)
    ui = _ui(lang)
    for n, question in enumerate(quiz.questions, 1):
        heading = ui["heading"].format(n=n, total=len(quiz.questions))
        # Flush so the text lands before its widget in the saved outputs.
        print(f"{heading}\n{question_text(question)}", flush=True)
        display(quiz_widget(question, lang))


# --- Lesson 1: re-pack the seed's files under a budget you choose -------------------------

PACK_TEXT = {
    "en": {
        "chosen": "chosen (in packing order):",
        "none": "  (nothing fits)",
        "skipped": "skipped:",
        "zero": "scores 0",
        "no_room": "{cost} tokens do not fit in the {left} left",
        "used": "tokens used: {used} of {budget}",
        "budget": "budget",
        "query": "query terms",
        "counter": "counted by",
        "error": "cannot pack: {error}",
        "static": "[pack explorer: in JupyterLab, move the budget or edit the query to pack again]",
    },
    "hi": {
        "chosen": "चुनी गई files (जिस क्रम में भरी गईं):",
        "none": "  (कुछ भी नहीं समाता)",
        "skipped": "छोड़ी गई files:",
        "zero": "score 0 है",
        "no_room": "{cost} tokens बचे हुए {left} में नहीं समाते",
        "used": "इस्तेमाल हुए tokens: {used} / {budget}",
        "budget": "बजट",
        "query": "query शब्द",
        "counter": "गिनती",
        "error": "pack नहीं हो सका: {error}",
        "static": "[pack explorer: JupyterLab में बजट खिसकाइए या query बदलिए, files फिर से pack होंगी]",
    },
}


class Explorer(widgets.interactive):
    """An ``interactive`` control whose plain-text form is a short note, not its model's repr."""

    def __init__(self, function, note: str, **controls):
        self._note = note
        super().__init__(function, **controls)

    def __repr__(self) -> str:
        return self._note


def _text(lang: str) -> dict:
    if lang not in PACK_TEXT:
        raise ValueError(f"lang must be one of {sorted(PACK_TEXT)}, got {lang!r}")
    return PACK_TEXT[lang]


def describe_pack(packed, lang: str = "en") -> str:
    """A packer result as the lesson prints it, in ``lang`` ("en" or "hi").

    Args:
        packed: a ``ctxlib.packing.Packed``.
        lang: the notebook's language.
    Returns:
        several lines: the chosen files with their tokens, the skipped ones with the reason,
        and ``tokens used: U of B``.
    Raises:
        ValueError: for an unknown language.
    """
    t = _text(lang)
    width = max([len(name) for name, _ in packed.chosen] + [len(s.name) for s in packed.skipped] + [1])
    lines = [t["chosen"]]
    lines += [f"  {name:<{width}}  {cost:>6,} tokens" for name, cost in packed.chosen] or [t["none"]]
    if packed.skipped:
        lines.append(t["skipped"])
        for s in packed.skipped:
            why = t["zero"] if s.cost is None else t["no_room"].format(cost=f"{s.cost:,}", left=f"{s.left:,}")
            lines.append(f"  {s.name:<{width}}  {why}")
    lines.append(t["used"].format(used=f"{packed.used:,}", budget=f"{packed.budget:,}"))
    return "\n".join(lines)


def repack(files: dict, budget: int, query: str, counter: str = "rough", lang: str = "en") -> str:
    """The pack explorer's callback: pack ``files`` for ``query`` (terms split on spaces) and describe it.

    Args:
        files: ``{file name: text}``.
        budget: the token budget (tokens).
        query: the query terms as typed, separated by spaces.
        counter: ``"rough"``, ``"o200k_base"`` or ``"cl100k_base"``.
        lang: the notebook's language.
    Returns:
        ``describe_pack``'s text, or one line saying why it cannot pack (an empty query, say):
        a learner's typing never raises here.
    """
    from .packing import pack_context
    from .tokens import token_counter

    try:
        packed = pack_context(files, query.split(), budget, count=token_counter(counter))
    except ValueError as exc:
        return _text(lang)["error"].format(error=exc)
    return describe_pack(packed, lang)


def make_pack_explorer(files: dict, query: str = "discount pricing", budget: int = 300,
                       lang: str = "en", max_budget: int = 1500) -> "Explorer":
    """Build (without showing) the budget slider, query box and counter menu that re-pack ``files``.

    Args:
        files: ``{file name: text}``.
        query: the default query terms, separated by spaces.
        budget: the slider's default budget (tokens); ``max_budget`` its upper end.
        lang: the notebook's language, "en" or "hi".
    Returns:
        an ``Explorer``; building it prints the result at the default settings once.
    """
    w = widgets
    t = _text(lang)
    return Explorer(
        lambda budget, query, counter: print(repack(files, budget, query, counter, lang)),
        note=t["static"],
        budget=w.IntSlider(value=budget, min=10, max=max_budget, step=10, description=t["budget"],
                           continuous_update=False),
        query=w.Text(value=query, description=t["query"], continuous_update=False),
        counter=w.Dropdown(options=["rough", "o200k_base", "cl100k_base"], value="rough",
                           description=t["counter"]),
    )


def pack_explorer(files: dict, **options) -> None:
    """Show ``make_pack_explorer(files, **options)``; the default result is printed as the cell runs.

    Returns None on purpose: nbval runs cells with ``store_history=False``, where a trailing
    ``;`` does not hide a returned widget, so a returned value would be displayed twice.
    """
    from IPython.display import display

    display(make_pack_explorer(files, **options))
