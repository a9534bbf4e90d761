"""The per-turn chart: what each request carries, stacked by block kind, against the window line.

Lesson 2, "The ledger for a 180k fill". One bar per turn: the fixed prefix, the task, the
retrieved files, the diffs and the diagnostics that request carried, with the reply on top;
a dashed line marks the context window; each bar's tick names its turn and stop_reason. An
optional second panel zooms on the top of the window, where the loop's growth shows.

Hindi labels need a Devanagari font and matplotlib >= 3.11 (older versions draw Devanagari
without shaping). ctxlib ships Noto Sans Devanagari (SIL Open Font License, see
``data/fonts/OFL.txt``); if neither it nor a system Devanagari font can be used, or
matplotlib is too old, ``turn_chart`` warns once and draws English labels, never boxes.

Where matplotlib cannot be imported (the browser build), ``turn_chart`` returns the same
chart as SVG (``svg_chart.py``), labels in the language asked for, shown inline in the page so
the page's web font draws the Devanagari (see ``svg_chart.py``).

Every chart carries a text alternative (``chart_alt``): one sentence of what it shows, the
numbers the cell's table prints (the tallest bar, its turn, the window). ``show`` puts it in the
image's ``alt`` and in the output's plain text (nbval, static viewers, screen readers), and
draws the image no wider than the notebook's output area (``max-width: 100%``); figures are
at most ``MAX_WIDTH_INCHES`` wide, two panels per row at most.

Not handled: interactive charts (the lesson's widgets redraw this one).
"""
from __future__ import annotations

import base64
import functools
import html
import io
import textwrap
import warnings
from pathlib import Path

try:
    import matplotlib
    from matplotlib import font_manager
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter
except ImportError:  # the browser build (Pyodide) has no matplotlib: turn_chart draws SVG (svg_chart.py)
    matplotlib = None

from ctxlib.ceiling import check_tokens
from ctxlib.i18n import LANGS, N_, WordedError, message
from ctxlib.transcript import LOOP_KINDS as KINDS, occupancy  # the kinds Lesson 2's loop makes

FONT_PATH = Path(__file__).parent / "data" / "fonts" / "NotoSansDevanagari-Regular.ttf"

# The chart's labels, as message ids; ``_labels(lang)`` looks them up in the catalog.
LABELS = {
    "fixed_prefix": N_("system prompt + tool definitions"),
    "task": N_("task"),
    "retrieved_file": N_("retrieved files"),
    "edit": N_("diffs of earlier attempts"),
    "diagnostics": N_("tool output (diagnostics)"),
    "reply": N_("reply (patch)"),
    "window": N_("context window ({window:,} tokens)"),
    "xlabel": N_("turn (attempt)"),
    "ylabel": N_("tokens"),
    "title": N_("What each request carries, turn by turn"),
    "zoom": N_("the top {zoom:,} tokens of the window"),
}
TURN_ALT = N_("Chart: {title}. One stacked bar per turn ({turns} turns), coloured by block kind; the tallest "
              "is {peak:,} tokens at turn {turn}, against the {window:,}-token context window (dashed line).")
REMOVAL_ALT = N_("Chart: {title}. One panel per rule, a stacked bar per turn coloured by block kind, the "
                 "{window:,}-token context window as a dashed line. Tallest bar per rule: {peaks}.")
MAX_WIDTH_INCHES = 10  # at 100 dpi, 1,000 px: a notebook's output area is about 850 px wide
MAX_COLUMNS = 2  # panels side by side; more would shrink their text below reading size in the output area


def _labels(lang: str) -> dict:
    """The labels in ``lang``; "window" and "zoom" are functions of a token count."""
    labels = {key: message(msgid, lang) for key, msgid in LABELS.items() if "{" not in msgid}
    labels["window"] = lambda tokens: message(LABELS["window"], lang, window=tokens)
    labels["zoom"] = lambda tokens: message(LABELS["zoom"], lang, zoom=tokens)
    return labels


COLORS = {"fixed_prefix": "#6c757d", "task": "#adb5bd", "retrieved_file": "#4c72b0",
          "edit": "#dd8452", "diagnostics": "#c44e52", "reply": "#55a868"}


def chart_alt(kind: str, lang: str, rows_by_panel, window: int, names=None) -> str:
    """The one-sentence text alternative of a chart, in ``lang``.

    Args:
        kind: "turn" (``turn_chart``) or "removal" (``removal_chart``).
        lang: "en" or "hi".
        rows_by_panel: per panel, its rows (dicts of tokens by kind, with ``turn``); a bar's height
            is the sum of its drawn kinds' token counts (``KINDS`` or ``REMOVAL_KINDS``, then "reply").
        window: the context window (tokens).
        names: for "removal", each panel's rule name.
    Returns:
        e.g. "Chart: What each request carries, turn by turn. One stacked bar per turn (3 turns),
        coloured by block kind; the tallest is 200,000 tokens at turn 2, against the
        200,000-token context window (dashed line)."
    """
    drawn = (*(KINDS if kind == "turn" else REMOVAL_KINDS), "reply")

    def height(row):
        return sum(row[k] for k in drawn)

    if kind == "turn":
        rows = rows_by_panel[0]
        tallest = max(rows, key=height)
        return message(TURN_ALT, lang, title=message(LABELS["title"], lang), turns=len(rows),
                       peak=height(tallest), turn=tallest["turn"], window=window)
    peaks = "; ".join(f"{name} {max(map(height, rows)):,}" for name, rows in zip(names, rows_by_panel))
    return message(REMOVAL_ALT, lang, title=message("What each request carries under each removal rule", lang),
                   window=window, peaks=peaks)


def chart_html(chart) -> str:
    """A chart as the HTML ``show`` displays: a ``figure`` holding the image (its ``alt`` is the chart's
    text alternative), at most as wide as the output area. A matplotlib figure is drawn as a PNG at
    100 dpi; an ``svg_chart.SvgChart`` is its inline SVG (``SvgChart._repr_html_``)."""
    if not hasattr(chart, "savefig"):
        return chart._repr_html_()
    buffer = io.BytesIO()
    chart.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    width = int(round(chart.get_size_inches()[0] * 100))
    alt = getattr(chart, "ctxlib_alt", "")
    lang = getattr(chart, "ctxlib_lang", "en")
    return (f'<figure class="ctxlib-chart" lang="{lang}" style="margin: 0.5em 0">'
            f'<img src="data:image/png;base64,{png}" alt="{html.escape(alt)}" '
            f'style="max-width: 100%; height: auto; width: {width}px"></figure>')


if matplotlib is not None:
    class ChartFigure(Figure):
        """A ``Figure`` that a notebook shows as ``chart_html`` and whose plain text is its text alternative."""

        ctxlib_alt, ctxlib_lang = "", "en"

        def _repr_html_(self) -> str:
            return chart_html(self)

        def __repr__(self) -> str:
            return self.ctxlib_alt or super().__repr__()


def _version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)


def _font_file() -> Path | None:
    if FONT_PATH.is_file():
        return FONT_PATH
    for font in font_manager.fontManager.ttflist:
        if "devanagari" in font.name.lower():
            return Path(font.fname)
    return None


@functools.cache
def devanagari_family() -> str | None:
    """The family name of a usable Devanagari font, registered with matplotlib, or None.

    None (with one warning, since the result is cached) when matplotlib is older than 3.11 or
    no Devanagari font is found: the bundled one first, then any the system has.
    """
    reason = None
    if _version(matplotlib.__version__) < (3, 11):
        reason = f"matplotlib {matplotlib.__version__} cannot shape Devanagari (3.11 or newer can)"
    elif (path := _font_file()) is None:
        reason = "no Devanagari font was found"
    if reason:
        warnings.warn(f"{reason}; Hindi chart labels fall back to English", stacklevel=3)
        return None
    font_manager.fontManager.addfont(str(path))
    return font_manager.FontProperties(fname=str(path)).get_name()


def _draw_bars(ax, rows, labels: dict, window: int, font: dict) -> list[int]:
    turns = [row["turn"] for row in rows]
    bottom = [0] * len(rows)
    for kind in (*KINDS, "reply"):
        heights = [row[kind] for row in rows]
        ax.bar(turns, heights, bottom=bottom, color=COLORS[kind], label=labels[kind],
               hatch="//" if kind == "reply" else None, edgecolor="white", linewidth=0.5)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.axhline(window, color="black", linestyle="--", linewidth=1.2,
               label=labels["window"](window))
    ax.set_xticks(turns, [f"{row['turn']}\n{row['stop_reason']}" for row in rows], fontsize=8)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
    ax.set_xlabel(labels["xlabel"], **font)
    return bottom


def turn_chart(simulation, language: str = "en", zoom_tokens: int | None = None) -> Figure:
    """A stacked bar per turn of ``simulation`` (a ``transcript.Simulation``), in tokens.

    Args:
        simulation: what ``transcript.simulate`` returned.
        language: "en" or "hi" for the labels; "hi" falls back to "en" with one warning when
            Devanagari cannot be drawn.
        zoom_tokens: if given, a second panel shows only the top ``zoom_tokens`` of the window,
            where the diffs, the trimmed diagnostics and the reply room are visible.
    Returns:
        a matplotlib ``Figure`` (an ``svg_chart.SvgChart`` without matplotlib) (not attached to pyplot; show it with ``display(fig)`` or save
        it with ``fig.savefig(path)``). Each bar's tick reads "turn / stop_reason".
    Raises:
        ValueError: ``language`` is neither "en" nor "hi", or ``zoom_tokens`` is not a
            positive whole number.
    """
    if language not in LANGS:
        raise ValueError(f"language must be 'en' or 'hi', got {language!r}")
    if zoom_tokens is not None:
        check_tokens("zoom_tokens", zoom_tokens, positive=True)
    if matplotlib is None:
        from ctxlib.course.svg_chart import svg_turn_chart
        rows = occupancy(simulation)
        return svg_turn_chart(rows, (*KINDS, "reply"), COLORS, _labels(language),
                              simulation.loop.window_tokens, zoom_tokens,
                              alt=chart_alt("turn", language, [rows], simulation.loop.window_tokens), lang=language)
    family = devanagari_family() if language == "hi" else None
    lang = language if family or language == "en" else "en"
    labels = _labels(lang)
    # Latin text inside Hindi labels falls back to DejaVu Sans glyph by glyph.
    font = {"fontfamily": [family, "DejaVu Sans"]} if family else {}
    rows = occupancy(simulation)
    window = simulation.loop.window_tokens

    fig = ChartFigure(figsize=(10 if zoom_tokens else 7, 5), layout="constrained")
    axes = fig.subplots(1, 2 if zoom_tokens else 1, squeeze=False)[0]
    for ax in axes:
        tops = _draw_bars(ax, rows, labels, window, font)
    highest = max(window, *tops)
    axes[0].set_ylim(0, highest * 1.05)
    axes[0].set_ylabel(labels["ylabel"], **font)
    if zoom_tokens:
        axes[1].set_ylim(window - zoom_tokens, highest + zoom_tokens * 0.05)
        axes[1].set_title(labels["zoom"](zoom_tokens), fontsize=9, **font)
    fig.suptitle(labels["title"], **font)
    legend_font = font_manager.FontProperties(family=font.get("fontfamily"), size=8)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4,
               frameon=False, prop=legend_font)
    fig.ctxlib_alt, fig.ctxlib_lang = chart_alt("turn", lang, [rows], window), lang
    return fig


REMOVAL_KINDS = ("fixed_prefix", "task", "retrieved_file", "model_message", "edit", "file_read",
                 "search_results", "diagnostics", "summary", "masked")
REMOVAL_COLORS = {"fixed_prefix": "#6c757d", "task": "#adb5bd", "retrieved_file": "#4c72b0",
                  "model_message": "#8172b3", "edit": "#dd8452", "file_read": "#64b5cd",
                  "search_results": "#ccb974", "diagnostics": "#c44e52", "summary": "#937860",
                  "masked": "#000000", "reply": "#55a868"}
REMOVAL_LABELS = {"fixed_prefix": N_("system prompt + tool definitions"), "task": N_("task"),
                  "retrieved_file": N_("retrieved files"), "model_message": N_("model messages"),
                  "edit": N_("diffs"), "file_read": N_("files read"), "search_results": N_("search results"),
                  "diagnostics": N_("diagnostics"), "summary": N_("summary"), "masked": N_("placeholders"),
                  "reply": N_("reply")}


def removal_chart(outcomes, language: str = "en", columns: int = 2) -> Figure:
    """One panel per rule: tokens by block kind per turn against the window line (Lesson 4).

    Args:
        outcomes: ``ctxlib.overflow.Outcome``s of the same run under different rules.
        language: "en" or "hi" (Devanagari as ``turn_chart`` draws it; English with one warning
            when it cannot be drawn).
        columns: panels per row; at most ``MAX_COLUMNS`` (2) are drawn side by side, so the chart
            fits a notebook's output area with readable text (a larger number draws 2 per row).
    Returns:
        a matplotlib ``Figure`` with one stacked-bar panel per outcome, titled with its rule's
        name (wrapped at 48 characters); the y axis is shared, in tokens. Its ``ctxlib_alt``
        is the text alternative (``chart_alt``).
    Raises:
        ValueError: no outcomes, an unknown language, or ``columns`` < 1.
    """
    from ctxlib.i18n import message
    from ctxlib.overflow import tokens_by_kind

    outcomes = list(outcomes)
    if not outcomes:
        raise WordedError.of(N_("removal_chart needs at least one outcome, got none"))
    if language not in LANGS:
        raise ValueError(f"language must be 'en' or 'hi', got {language!r}")
    check_tokens("columns", columns, positive=True)
    columns = min(columns, MAX_COLUMNS)
    if matplotlib is None:  # the browser build: the same panels as SVG
        from ctxlib.course.svg_chart import svg_panels_chart
        window = outcomes[0].run.window_tokens
        every = [tokens_by_kind(o) for o in outcomes]
        texts = {"title": message("What each request carries under each removal rule", language),
                 "xlabel": message("turn", language), "ylabel": message("tokens", language),
                 "window": message("context window ({window:,} tokens)", language, window=window)}
        return svg_panels_chart([(o.rule, rows) for o, rows in zip(outcomes, every)], (*REMOVAL_KINDS, "reply"),
                                REMOVAL_COLORS, {k: message(v, language) for k, v in REMOVAL_LABELS.items()},
                                window, texts, columns,
                                alt=chart_alt("removal", language, every, window, [o.rule for o in outcomes]),
                                lang=language)
    family = devanagari_family() if language == "hi" else None
    lang = language if family or language == "en" else "en"
    font = {"fontfamily": [family, "DejaVu Sans"]} if family else {}
    window = outcomes[0].run.window_tokens
    rows_n = -(-len(outcomes) // columns)
    fig = ChartFigure(figsize=(MAX_WIDTH_INCHES / MAX_COLUMNS * min(columns, len(outcomes)), 3.4 * rows_n + 1),
                      layout="constrained")
    axes = fig.subplots(rows_n, min(columns, len(outcomes)), squeeze=False, sharey=True)
    highest = window
    every = [tokens_by_kind(o) for o in outcomes]
    present = [k for k in REMOVAL_KINDS if any(r[k] for rows in every for r in rows)]  # legend: kinds that occur
    for ax, outcome, rows in zip(axes.flat, outcomes, every):
        turns = [r["turn"] for r in rows]
        bottom = [0] * len(rows)
        for kind in (*present, "reply"):
            heights = [r[kind] for r in rows]
            ax.bar(turns, heights, bottom=bottom, color=REMOVAL_COLORS[kind], width=0.85,
                   label=message(REMOVAL_LABELS[kind], lang), hatch="//" if kind == "reply" else None,
                   edgecolor="white", linewidth=0.3)
            bottom = [b + h for b, h in zip(bottom, heights)]
        highest = max(highest, *bottom)
        ax.axhline(window, color="black", linestyle="--", linewidth=1.0,
                   label=message("context window ({window:,} tokens)", lang, window=window))
        ax.set_title(textwrap.fill(outcome.rule, 48), fontsize=9)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}"))
        ax.set_xlabel(message("turn", lang), **font)
        if len(turns) <= 8:
            ax.set_xticks(turns, [f"{r['turn']}\n{r['stop_reason']}" for r in rows], fontsize=7)
    for ax in list(axes.flat)[len(outcomes):]:
        ax.set_visible(False)
    axes[0][0].set_ylim(0, highest * 1.05)
    for row in axes:
        row[0].set_ylabel(message("tokens", lang), **font)
    fig.suptitle(message("What each request carries under each removal rule", lang), **font)
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend_font = font_manager.FontProperties(family=font.get("fontfamily"), size=8)
    fig.legend(handles, labels, loc="outside lower center", ncols=4, frameon=False, prop=legend_font)
    fig.ctxlib_alt = chart_alt("removal", lang, every, window, [o.rule for o in outcomes])
    fig.ctxlib_lang = lang
    return fig


def show(chart, *, picture_only: bool = False) -> None:
    """Display a ``turn_chart`` or ``removal_chart`` result in a notebook, the same call on the desktop and in the browser.

    One output with two forms: ``text/html`` (``chart_html``: the image with its text alternative
    as ``alt``, no wider than the output area; desktop: a PNG at 100 dpi; browser build: the
    inline SVG, drawn with the page's fonts) and ``text/plain`` (the text alternative in the
    lesson's language, for nbval, static viewers and terminals, instead of a ``<Figure ...>``
    repr). ``picture_only=True`` leaves out the plain-text form (the text alternative stays in
    the image's ``alt``). nbval compares both forms; the PNG's bytes are left out of the
    comparison as nbval leaves out images (``tools/nbval_sanitize.cfg``).
    Returns None; raises nothing of its own.
    """
    from IPython.display import display

    alt = getattr(chart, "ctxlib_alt", None) or getattr(chart, "alt", "")
    bundle = {"text/html": chart_html(chart)} if picture_only else {"text/html": chart_html(chart), "text/plain": alt}
    display(bundle, raw=True)
