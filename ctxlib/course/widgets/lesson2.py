"""Lesson 2's controls: recompute the first-turn ceiling and re-run the agent loop.

The arithmetic is ctxlib.ceiling, the loop ctxlib.transcript, the chart ctxlib.course.charts;
this module only words their results and wires the controls.
"""
from __future__ import annotations

import ipywidgets as widgets

from ctxlib.i18n import N_, check_lang, in_lang, message

from ..tables import Table
from .explorer import Explorer

# The ledger table's columns, in order; looked up in the catalog when a table is shown.
LEDGER_COLUMNS = (N_("turn"), N_("prefix+task"), N_("files"), N_("diffs"), N_("diagnostics"),
                  N_("cut so far"), N_("input"), N_("reply room"), N_("reply"), N_("stop_reason"))
PINNED, EVICTABLE = N_("pinned"), N_("evictable")


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
    check_lang(lang)
    if ceiling.fits:
        headline = message("first-turn ceiling: {ceiling:,} tokens ({share:.0%} of the "
                           "{window:,}-token window)", lang, ceiling=ceiling.ceiling_tokens,
                           share=ceiling.share_of_window, window=ceiling.window_tokens)
    elif ceiling.shortfall_tokens == 0:
        headline = message("first-turn ceiling: 0 tokens (the loop fills this window exactly: "
                           "no room for any repository code)", lang)
    else:
        headline = message("first-turn ceiling: none (the loop cannot fit in this window: "
                           "short by {short:,} tokens)", lang, short=ceiling.shortfall_tokens)
    terms = message("  {window:,} window - {prefix:,} fixed prefix - {task:,} task - {attempts} x "
                    "({patch:,} patch + {diagnostics:,} diagnostics) = {ceiling:,}", lang,
                    window=ceiling.window_tokens, prefix=ceiling.fixed_prefix_tokens,
                    task=ceiling.task_tokens, attempts=ceiling.max_attempts,
                    patch=ceiling.patch_tokens, diagnostics=ceiling.diagnostics_tokens,
                    ceiling=ceiling.ceiling_tokens)
    return f"{headline}\n{terms}"


def ledger_table(simulation, lang: str = "en") -> Table:
    """One row per turn of a ``ctxlib.transcript.Simulation``, all sizes in tokens, as a ``Table``.

    Columns: turn; fixed prefix + task; retrieved files; diffs of earlier attempts;
    diagnostics still in the request; tokens cut from diagnostics heads so far; input;
    reply room (``max_tokens``); reply (the patch, or the part of it that fitted); stop_reason.
    Displayed in a notebook it is an HTML table; ``str()`` gives aligned plain text.
    Raises:
        ValueError: for an unknown language.
    """
    from ctxlib.transcript import occupancy

    check_lang(lang)
    rows = [[row["turn"], row["fixed_prefix"] + row["task"], row["retrieved_file"],
             row["edit"], row["diagnostics"], row["head_lost"], row["input_tokens"],
             row["max_tokens"], row["reply"], row["stop_reason"]]
            for row in occupancy(simulation)]
    return Table([message(column, lang) for column in LEDGER_COLUMNS], rows)


def occupant_table(sizes: dict, pinned: dict, lang: str = "en") -> Table:
    """The window's occupants as a table: block kind, tokens, pinned or evictable.

    Args: ``sizes`` {block kind: tokens}; ``pinned`` {block kind: True if the trim may not cut it}.
    Raises: ValueError for an unknown language.
    """
    check_lang(lang)
    rows = [[kind, tokens, message(PINNED if pinned[kind] else EVICTABLE, lang)]
            for kind, tokens in sizes.items()]
    return Table([message("block kind", lang), message("tokens", lang), message("trim", lang)], rows)


def describe_loop(simulation, lang: str = "en") -> str:
    """A simulated run as the lesson prints it: the ledger table, the last turn's trace, how it ended.

    The trace is the chapter's log format (``ctxlib.transcript.format_trace``), e.g.
    ``attempt 2/4  model=coding-agent-v2  input_tokens=196,000  max_tokens=4,000`` and
    ``[stop_reason: max_tokens]``.
    Raises:
        ValueError: for an unknown language.
    """
    from ctxlib.transcript import format_trace

    from ctxlib.transcript import refusal_text

    check_lang(lang)
    loop, last = simulation.loop, simulation.records[-1]
    if last.stop_reason == "context_length_exceeded":
        outcome = message("attempt {attempt} was refused at the request (a hard error): {error}",
                          lang, attempt=last.attempt, error=refusal_text(simulation, lang))
    elif last.stop_reason == "max_tokens":
        patches = loop.patch_tokens if isinstance(loop.patch_tokens, (tuple, list)) else (
            (loop.patch_tokens,) * loop.max_attempts)
        outcome = message("attempt {attempt} was cut off: {room:,} tokens of reply room for a "
                          "{patch:,}-token patch", lang, attempt=last.attempt,
                          room=last.max_tokens, patch=patches[last.attempt - 1])
    elif last.attempt == loop.passes_on_attempt:
        outcome = message("the run ended green on attempt {attempt}", lang, attempt=last.attempt)
    else:
        outcome = message("every attempt had room for its patch; the last request left {room:,} "
                          "tokens of reply room", lang, room=last.max_tokens)
    return "\n".join([str(ledger_table(simulation, lang)), format_trace(last, loop.max_attempts),
                      outcome])


def _run_loop(window_tokens, fixed_prefix_tokens, max_attempts, patch_tokens,
              diagnostics_tokens, fill_tokens, lang, task_tokens):
    from ctxlib.ceiling import first_turn_ceiling
    from ctxlib.transcript import Loop, simulate

    check_lang(lang)
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
        return message("cannot run the loop: {error}", lang, error=in_lang(exc, lang)), None
    lines = [describe_ceiling(ceiling, lang)]
    if ceiling.fits:
        gap = fill_tokens - ceiling.ceiling_tokens
        if gap > 0:
            lines.append(message("fill {fill:,} tokens: {gap:,} over the ceiling", lang,
                                 fill=fill_tokens, gap=gap))
        else:
            lines.append(message("fill {fill:,} tokens: within the ceiling ({gap:,} to spare)",
                                 lang, fill=fill_tokens, gap=-gap))
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
        chart: also draw ``ctxlib.course.charts.turn_chart`` under the printed text on every change.
    Returns:
        an ``Explorer``; its controls are, in order, window, fixed prefix, attempts, patch,
        diagnostics, fill. Building it prints the result at the starting values once.
    """
    check_lang(lang)
    w = widgets
    style, wide = {"description_width": "initial"}, widgets.Layout(width="420px")

    def tokens(value, low, high, step, label):
        # readout_format ",d": the slider reads 180,000, as the prose writes it.
        return w.IntSlider(value=value, min=low, max=high, step=step, description=label,
                           continuous_update=False, style=style, layout=wide,
                           readout_format=",d")

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
            from ..charts import turn_chart

            display(turn_chart(simulation, lang))

    return Explorer(
        show, note=message("[running-total explorer: in JupyterLab, move a control to recompute "
                           "the ceiling and re-run the loop]", lang),
        window_tokens=tokens(window_tokens, 8_000, 1_000_000, 1_000, message("window", lang)),
        fixed_prefix_tokens=tokens(fixed_prefix_tokens, 0, 60_000, 1_000,
                                   message("fixed prefix", lang)),
        max_attempts=w.IntSlider(value=max_attempts, min=1, max=8,
                                 description=message("attempts", lang),
                                 continuous_update=False, style=style, layout=wide),
        patch_tokens=tokens(patch_tokens, 500, 30_000, 500, message("patch", lang)),
        diagnostics_tokens=w.ToggleButtons(options=presets, value=diagnostics_tokens,
                                           description=message("diagnostics", lang), style=style),
        fill_tokens=tokens(fill_tokens, 0, 1_000_000, 1_000, message("fill", lang)),
    )


def loop_explorer(lang: str = "en", **options) -> None:
    """Show ``make_loop_explorer(lang, **options)``; the starting result prints as the cell runs.

    Returns None on purpose, like ``pack_explorer``: nbval would otherwise display the
    returned widget a second time.
    """
    from IPython.display import display

    display(make_loop_explorer(lang, **options))
