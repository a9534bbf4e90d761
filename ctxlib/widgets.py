"""The lessons' interactive controls, built with ipywidgets.

Every callback is an ordinary function of plain values that tests call without a browser,
and every control has a plain-text form beside it for static viewers and nbval.

Sections:
    Quick checks    show_quiz, quiz_widget, check_answer, hint_text, answer_outcome
    Lesson 1        describe_pack, repack, make_pack_explorer, pack_explorer
    Lesson 2        describe_ceiling, ledger_table, describe_loop, rerun_loop, make_loop_explorer, loop_explorer
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from .progress import record_quietly
from .quiz import Question, grade, load_quiz, question_text

# ---------------------------------------------------------------------------
# Quick checks: a question's printed text, then a widget to answer it.
# Grading is ctxlib.quiz.grade; this section shows its verdict and records the attempt
# (ctxlib.progress). Code exercises have no widget: ctxlib.exercises runs them.
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
    raise NotImplementedError(f"question {question.id!r} is a code exercise: ctxlib.exercises.exercise runs it")


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
    and records the attempt, with the hints seen so far, in the progress file (``ctxlib.progress``).
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
    in a code cell with ``ctxlib.exercises.exercise``, not in a widget.

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
        if question.type != "code":
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
        "query": "query के शब्द",
        "counter": "गिनने का तरीक़ा",
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


# --- Lesson 2: the window is a running total ---------------------------------------------
# Recompute the first-turn ceiling and re-run the agent loop for figures the learner picks.
# The arithmetic is ctxlib.ceiling, the loop ctxlib.transcript, the chart ctxlib.charts;
# this section only words their results and wires the controls.

LOOP_TEXT = {
    "en": {
        "ceiling": "first-turn ceiling: {ceiling} tokens ({share} of the {window}-token window)",
        "exact": "first-turn ceiling: 0 tokens (the loop fills this window exactly: "
                 "no room for any repository code)",
        "short": "first-turn ceiling: none (the loop cannot fit in this window: "
                 "short by {short} tokens)",
        "terms": "  {window} window - {prefix} fixed prefix - {task} task"
                 " - {attempts} x ({patch} patch + {diagnostics} diagnostics) = {ceiling}",
        "over": "fill {fill} tokens: {gap} over the ceiling",
        "within": "fill {fill} tokens: within the ceiling ({gap} to spare)",
        "columns": ("turn", "prefix+task", "files", "diffs", "diagnostics", "cut so far",
                    "input", "reply room", "reply", "stop_reason"),
        "survived": "every attempt had room for its patch; the last request left {room} tokens "
                    "of reply room",
        "passed": "the run ended green on attempt {attempt}",
        "cut_off": "attempt {attempt} was cut off: {room} tokens of reply room for a "
                   "{patch}-token patch",
        "refused": "attempt {attempt} was refused at the request (a hard error): {error}",
        "error": "cannot run the loop: {error}",
        "window": "window", "prefix": "fixed prefix", "attempts": "attempts",
        "patch": "patch", "diagnostics": "diagnostics", "fill": "fill",
        "static": "[running-total explorer: in JupyterLab, move a control to recompute the "
                  "ceiling and re-run the loop]",
    },
    "hi": {
        "ceiling": "पहले turn की ceiling: {ceiling} tokens ({window}-token window का {share})",
        "exact": "पहले turn की ceiling: 0 tokens (loop इस window को ठीक-ठीक भर देता है: "
                 "repository code के लिए कोई जगह नहीं)",
        "short": "पहले turn की ceiling: कोई नहीं (loop इस window में नहीं समाता: "
                 "{short} tokens कम पड़ते हैं)",
        "terms": "  {window} window - {prefix} fixed prefix - {task} task"
                 " - {attempts} x ({patch} patch + {diagnostics} diagnostics) = {ceiling}",
        "over": "fill {fill} tokens: ceiling से {gap} ज़्यादा",
        "within": "fill {fill} tokens: ceiling के भीतर ({gap} बाक़ी)",
        "columns": ("turn", "prefix+task", "files", "diffs", "diagnostics", "अब तक कटे",
                    "input", "जवाब की जगह", "जवाब", "stop_reason"),
        "survived": "हर कोशिश के patch के लिए जगह थी; आख़िरी request में जवाब के लिए "
                    "{room} tokens की जगह बची",
        "passed": "run कोशिश {attempt} पर green होकर ख़त्म हुआ",
        "cut_off": "कोशिश {attempt} बीच में कट गई: {patch}-token patch के लिए जवाब की जगह "
                   "सिर्फ़ {room} tokens",
        "refused": "कोशिश {attempt} की request ही ठुकरा दी गई (hard error): {error}",
        "error": "loop नहीं चल सका: {error}",
        "window": "window", "prefix": "fixed prefix", "attempts": "कोशिशें",
        "patch": "patch", "diagnostics": "diagnostics", "fill": "fill",
        "static": "[running-total explorer: JupyterLab में कोई control खिसकाइए; ceiling फिर से "
                  "निकलेगी और loop फिर से चलेगा]",
    },
}


def _loop_text(lang: str) -> dict:
    if lang not in LOOP_TEXT:
        raise ValueError(f"lang must be one of {sorted(LOOP_TEXT)}, got {lang!r}")
    return LOOP_TEXT[lang]


def _display_width(text: str) -> int:
    # Devanagari vowel signs and viramas that sit on a letter take no column of their own.
    import unicodedata

    return sum(unicodedata.category(ch) not in ("Mn", "Me") for ch in text)


def describe_ceiling(ceiling, lang: str = "en") -> str:
    """A ``ctxlib.ceiling.Ceiling`` as two lines: the ceiling, then its arithmetic term by term.

    Args:
        ceiling: what ``first_turn_ceiling`` returned.
        lang: "en" or "hi".
    Returns:
        e.g. ``first-turn ceiling: 70,000 tokens (35% of the 200,000-token window)`` and
        ``  200,000 window - 9,000 fixed prefix - 1,000 task - 4 x (6,000 patch + 24,000
        diagnostics) = 70,000``. A loop that cannot fit says by how many tokens instead.
    Raises:
        ValueError: for an unknown language.
    """
    t = _loop_text(lang)
    if ceiling.fits:
        headline = t["ceiling"].format(ceiling=f"{ceiling.ceiling_tokens:,}",
                                       share=f"{ceiling.share_of_window:.0%}",
                                       window=f"{ceiling.window_tokens:,}")
    elif ceiling.shortfall_tokens == 0:
        headline = t["exact"]
    else:
        headline = t["short"].format(short=f"{ceiling.shortfall_tokens:,}")
    terms = t["terms"].format(window=f"{ceiling.window_tokens:,}",
                              prefix=f"{ceiling.fixed_prefix_tokens:,}",
                              task=f"{ceiling.task_tokens:,}", attempts=ceiling.max_attempts,
                              patch=f"{ceiling.patch_tokens:,}",
                              diagnostics=f"{ceiling.diagnostics_tokens:,}",
                              ceiling=f"{ceiling.ceiling_tokens:,}")
    return f"{headline}\n{terms}"


def ledger_table(simulation, lang: str = "en") -> str:
    """One aligned row per turn of a ``ctxlib.transcript.Simulation``, all sizes in tokens.

    Columns: turn; fixed prefix + task; retrieved files; diffs of earlier attempts;
    diagnostics still in the request; tokens cut from diagnostics heads so far; input;
    reply room (``max_tokens``); reply (the patch, or the part of it that fitted); stop_reason.
    Raises:
        ValueError: for an unknown language.
    """
    from .transcript import occupancy

    rows = [_loop_text(lang)["columns"]]
    for row in occupancy(simulation):
        sizes = (row["fixed_prefix"] + row["task"], row["retrieved_files"], row["attempt_diff"],
                 row["tool_output"], row["head_lost"], row["input_tokens"], row["max_tokens"],
                 row["reply"])
        rows.append((str(row["turn"]), *(f"{size:,}" for size in sizes), row["stop_reason"]))
    widths = [max(_display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for r in rows:
        # Numbers right-aligned under their header; stop_reason, the last column, left-aligned.
        cells = [" " * (w - _display_width(c)) + c for c, w in zip(r[:-1], widths)] + [r[-1]]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def describe_loop(simulation, lang: str = "en") -> str:
    """A simulated run as the lesson prints it: the ledger table, the last turn's trace, how it ended.

    The trace is the chapter's log format (``ctxlib.transcript.format_trace``), e.g.
    ``attempt 2/4  model=coding-agent-v2  input_tokens=196,000  max_tokens=4,000`` and
    ``[stop_reason: max_tokens]``.
    Raises:
        ValueError: for an unknown language.
    """
    from .transcript import format_trace

    t = _loop_text(lang)
    loop, last = simulation.loop, simulation.records[-1]
    if last.stop_reason == "context_length_exceeded":
        outcome = t["refused"].format(attempt=last.attempt, error=simulation.error)
    elif last.stop_reason == "max_tokens":
        patches = loop.patch_tokens if isinstance(loop.patch_tokens, (tuple, list)) else (
            (loop.patch_tokens,) * loop.max_attempts)
        outcome = t["cut_off"].format(attempt=last.attempt, room=f"{last.max_tokens:,}",
                                      patch=f"{patches[last.attempt - 1]:,}")
    elif last.attempt == loop.passes_on_attempt:
        outcome = t["passed"].format(attempt=last.attempt)
    else:
        outcome = t["survived"].format(room=f"{last.max_tokens:,}")
    return "\n".join([ledger_table(simulation, lang), format_trace(last, loop.max_attempts),
                      outcome])


def _run_loop(window_tokens, fixed_prefix_tokens, max_attempts, patch_tokens,
              diagnostics_tokens, fill_tokens, lang, task_tokens):
    from .ceiling import first_turn_ceiling
    from .transcript import Loop, simulate

    t = _loop_text(lang)
    try:
        ceiling = first_turn_ceiling(diagnostics_tokens, window_tokens=window_tokens,
                                     fixed_prefix_tokens=fixed_prefix_tokens,
                                     task_tokens=task_tokens, patch_tokens=patch_tokens,
                                     max_attempts=max_attempts)
        simulation = simulate(Loop(window_tokens=window_tokens,
                                   fixed_prefix_tokens=fixed_prefix_tokens,
                                   task_tokens=task_tokens, fill_tokens=fill_tokens,
                                   patch_tokens=patch_tokens,
                                   diagnostics_tokens=diagnostics_tokens,
                                   max_attempts=max_attempts, reply_reserve_tokens=patch_tokens))
    except ValueError as exc:
        return t["error"].format(error=exc), None
    lines = [describe_ceiling(ceiling, lang)]
    if ceiling.fits:
        gap = fill_tokens - ceiling.ceiling_tokens
        key = "over" if gap > 0 else "within"
        lines.append(t[key].format(fill=f"{fill_tokens:,}", gap=f"{abs(gap):,}"))
    lines += ["", describe_loop(simulation, lang)]
    return "\n".join(lines), simulation


def rerun_loop(window_tokens: int = 200_000, fixed_prefix_tokens: int = 9_000,
               max_attempts: int = 4, patch_tokens: int = 6_000,
               diagnostics_tokens: int = 18_000, fill_tokens: int = 180_000,
               lang: str = "en", task_tokens: int = 1_000) -> str:
    """The running-total explorer's callback: recompute the ceiling and re-run the loop.

    Args (tokens, except ``max_attempts``; defaults are the chapter's 180,000-fill run):
        window_tokens: the context window; fixed_prefix_tokens: system prompt + tool
        definitions; max_attempts: attempts the loop allows; patch_tokens: one attempt's
        diff, also the reply room the trim step keeps free; diagnostics_tokens: what each
        failing test run appends; fill_tokens: the first turn's repository code;
        task_tokens: the task statement. lang: "en" or "hi".
    Returns:
        ``describe_ceiling``'s two lines, how the fill compares with the ceiling, then
        ``describe_loop``'s table, trace and outcome. A bad figure (negative, not whole,
        zero attempts) gives one line, "cannot run the loop: ...": a learner's input never raises.
    Example: the defaults end with ``[stop_reason: max_tokens]`` at attempt 2, input 196,000.
    """
    return _run_loop(window_tokens, fixed_prefix_tokens, max_attempts, patch_tokens,
                     diagnostics_tokens, fill_tokens, lang, task_tokens)[0]


# The chapter's diagnostics sizes: p50 and p90 of a failing suite, a flaky test's request
# log, and a type checker's cascade.
DIAGNOSTICS_PRESETS = (("p50 · 18,000", 18_000), ("p90 · 24,000", 24_000),
                       ("40,000", 40_000), ("60,000", 60_000))


def make_loop_explorer(lang: str = "en", *, window_tokens: int = 200_000,
                       fixed_prefix_tokens: int = 9_000, max_attempts: int = 4,
                       patch_tokens: int = 6_000, diagnostics_tokens: int = 18_000,
                       fill_tokens: int = 180_000, chart: bool = True) -> "Explorer":
    """Build (without showing) sliders for the loop's figures that recompute ``rerun_loop``.

    Args:
        lang: the notebook's language, "en" or "hi" (labels, printed text, chart).
        window_tokens ... fill_tokens: the controls' starting values (as ``rerun_loop``).
            ``diagnostics_tokens`` is chosen from p50 / p90 / 40,000 / 60,000; another
            starting value is added to those choices.
        chart: also draw ``ctxlib.charts.turn_chart`` under the printed text on every change.
    Returns:
        an ``Explorer``; its controls are, in order, window, fixed prefix, attempts, patch,
        diagnostics, fill. Building it prints the result at the starting values once.
    """
    t = _loop_text(lang)
    w = widgets
    style, wide = {"description_width": "initial"}, widgets.Layout(width="420px")

    def tokens(value, low, high, step, label):
        return w.IntSlider(value=value, min=low, max=high, step=step, description=label,
                           continuous_update=False, style=style, layout=wide)

    presets = list(DIAGNOSTICS_PRESETS)
    if diagnostics_tokens not in dict(presets).values():
        presets.append((f"{diagnostics_tokens:,}", diagnostics_tokens))

    def show(window_tokens, fixed_prefix_tokens, max_attempts, patch_tokens, diagnostics_tokens,
             fill_tokens):
        from IPython.display import display

        text, simulation = _run_loop(window_tokens, fixed_prefix_tokens, max_attempts,
                                     patch_tokens, diagnostics_tokens, fill_tokens, lang, 1_000)
        print(text, flush=True)
        if chart and simulation is not None:
            from .charts import turn_chart

            display(turn_chart(simulation, lang))

    return Explorer(
        show, note=t["static"],
        window_tokens=tokens(window_tokens, 8_000, 1_000_000, 1_000, t["window"]),
        fixed_prefix_tokens=tokens(fixed_prefix_tokens, 0, 60_000, 1_000, t["prefix"]),
        max_attempts=w.IntSlider(value=max_attempts, min=1, max=8, description=t["attempts"],
                                 continuous_update=False, style=style, layout=wide),
        patch_tokens=tokens(patch_tokens, 500, 30_000, 500, t["patch"]),
        diagnostics_tokens=w.ToggleButtons(options=presets, value=diagnostics_tokens,
                                           description=t["diagnostics"], style=style),
        fill_tokens=tokens(fill_tokens, 0, 1_000_000, 1_000, t["fill"]),
    )


def loop_explorer(lang: str = "en", **options) -> None:
    """Show ``make_loop_explorer(lang, **options)``; the starting result prints as the cell runs.

    Returns None on purpose, like ``pack_explorer``: nbval would otherwise display the
    returned widget a second time.
    """
    from IPython.display import display

    display(make_loop_explorer(lang, **options))
