"""The grade report an instructor reads: per lesson and per question, who passed, failed or did not try.

Built from ``grading.grade_table``'s header and rows (the same table the CSV holds), so the
report, the summary and the CSV can never disagree. Two forms:

- ``report_text``: for the terminal, one small table per lesson (question, then the names
  under passed / failed / not attempted);
- ``report_html``: a page to open in a browser, the same tables and a bar chart of the
  most-missed questions (inline SVG, no script, nothing fetched from another machine).

Every word comes from the message catalogs (``ctxlib.i18n``), in English or Hindi. Learners'
names are untrusted text: escaped for the terminal (``grading.terminal_text``) and for HTML.
Not handled: grading itself (``grading``), reading the files (``commands.cmd_grade``).
"""
from __future__ import annotations

import html

from ctxlib.i18n import check_lang, message

from .grading import terminal_text

OUTCOMES = ("passed", "failed", "not attempted")
# Where grade_table's question columns begin: learner, file, passed, questions, hints, solutions.
FIRST_QUESTION_COLUMN = 6


def by_question(header, rows) -> dict[str, list[tuple[str, dict[str, list[str]]]]]:
    """``{lesson: [(question id, {outcome: [learner names]}), ...]}`` from ``grading.grade_table``.

    Questions keep the quiz's order; names keep the table's order (sorted by file). Every
    outcome of ``OUTCOMES`` is a key, possibly with an empty list. For example, with two learners
    ``by_question(["learner", ..., "01:a"], [["asha", ..., "passed"], ["ravi", ..., "failed"]])``
    -> ``{"01": [("a", {"passed": ["asha"], "failed": ["ravi"], "not attempted": []})]}``.
    Raises ``ValueError`` if a question column does not read ``lesson:question``.
    """
    lessons: dict[str, list] = {}
    for column in range(FIRST_QUESTION_COLUMN, len(header)):
        lesson, sep, question = header[column].partition(":")
        if not sep:
            raise ValueError(f"grade table column {header[column]!r} is not 'lesson:question'")
        who = {outcome: [] for outcome in OUTCOMES}
        for row in rows:
            who.setdefault(row[column], []).append(str(row[0]))
        lessons.setdefault(lesson, []).append((question, who))
    return lessons


def most_missed(header, rows, limit: int = 10) -> list[tuple[str, int, int]]:
    """The questions most learners have not passed: ``[("lesson:question", failed, not attempted), ...]``.

    Sorted by learners who failed it, then by learners not passing (failed + not attempted), then quiz
    order: mid-class, questions not reached yet would hide the one the class gets wrong. Questions
    everyone passed are left out; at most ``limit``. The order is ``grade_summary``'s.
    """
    missed = []
    for column in range(FIRST_QUESTION_COLUMN, len(header)):
        failed = sum(row[column] == "failed" for row in rows)
        unattempted = sum(row[column] == "not attempted" for row in rows)
        if failed + unattempted:
            missed.append((header[column], failed, unattempted))
    return sorted(missed, key=lambda m: (-m[1], -(m[1] + m[2])))[:limit]


def _labels(lang: str) -> dict[str, str]:
    return {"question": message("question", lang), "passed": message("passed", lang),
            "failed": message("failed", lang), "not attempted": message("not attempted", lang)}


def report_text(header, rows, lang: str = "en") -> str:
    """The report for the terminal: per lesson, a table of question, then who passed, failed, did not try.

    ``lang`` is ``"en"`` or ``"hi"`` (``ValueError`` otherwise). Names pass ``terminal_text``, so a
    name holding an escape sequence cannot restyle the terminal; a cell lists the names, comma-separated.
    """
    from .tables import Table

    lang = check_lang(lang)
    labels = _labels(lang)
    blocks = []
    for lesson, questions in by_question(header, rows).items():
        body = [[question] + [", ".join(terminal_text(n) for n in who[o]) or "-" for o in OUTCOMES]
                for question, who in questions]
        blocks.append(str(Table([labels["question"]] + [labels[o] for o in OUTCOMES], body,
                                title=message("Lesson {lesson}", lang, lesson=lesson))))
    return "\n\n".join(blocks)


# The chart's geometry, in CSS pixels.
_BAR_H, _GAP, _LABEL_W, _BAR_W = 22, 6, 300, 360
_COLOURS = {"failed": "#c62828", "not attempted": "#9e9e9e"}


def missed_chart_svg(missed: list[tuple[str, int, int]], learners: int, lang: str = "en") -> str:
    """A horizontal bar chart of ``most_missed``'s rows as SVG text: per question, failed (red) and not attempted (grey).

    ``learners`` (the class size) is the full bar's length. Each bar carries its counts in
    ``data-failed`` and ``data-not-attempted``, so a test reads the drawn numbers back. The
    chart has a ``<title>`` and ``role="img"`` with an ``aria-label`` for screen readers.
    """
    labels = _labels(lang)
    title = message("Most-missed questions", lang)
    height = 40 + len(missed) * (_BAR_H + _GAP) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{html.escape(title)}" '
           f'width="{_LABEL_W + _BAR_W + 80}" height="{height}" font-family="sans-serif" font-size="13">',
           f"<title>{html.escape(title)}</title>"]
    scale = _BAR_W / max(learners, 1)
    for i, (question, failed, unattempted) in enumerate(missed):
        y = 30 + i * (_BAR_H + _GAP)
        out.append(f'<g class="bar" data-question="{html.escape(question)}" data-failed="{failed}" '
                   f'data-not-attempted="{unattempted}">')
        out.append(f'<text x="{_LABEL_W - 8}" y="{y + _BAR_H - 6}" text-anchor="end">{html.escape(question)}</text>')
        out.append(f'<rect x="{_LABEL_W}" y="{y}" width="{failed * scale:.1f}" height="{_BAR_H}" '
                   f'fill="{_COLOURS["failed"]}"/>')
        out.append(f'<rect x="{_LABEL_W + failed * scale:.1f}" y="{y}" width="{unattempted * scale:.1f}" '
                   f'height="{_BAR_H}" fill="{_COLOURS["not attempted"]}"/>')
        out.append(f'<text x="{_LABEL_W + (failed + unattempted) * scale + 6:.1f}" y="{y + _BAR_H - 6}">'
                   f"{failed + unattempted} / {learners}</text></g>")
    legend_y = height - 14
    for n, outcome in enumerate(("failed", "not attempted")):
        x = _LABEL_W + n * 140
        out.append(f'<rect x="{x}" y="{legend_y - 11}" width="12" height="12" fill="{_COLOURS[outcome]}"/>'
                   f'<text x="{x + 18}" y="{legend_y}">{html.escape(labels[outcome])}</text>')
    out.append("</svg>")
    return "\n".join(out)


_PAGE_STYLE = """body{font-family:"Noto Sans","Noto Sans Devanagari",sans-serif;max-width:70em;margin:1em auto;padding:0 1em}
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:0.3em 0.6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.failed{color:#c62828}td.nottried{color:#616161}"""


def report_html(header, rows, lang: str = "en", title: str | None = None) -> str:
    """The report as one HTML page: the class size, the most-missed chart (``missed_chart_svg``), then per lesson a table.

    Every name and id is HTML-escaped. ``lang`` sets the page's words and its ``lang`` attribute
    (``ValueError`` for another). The page loads nothing: style and chart are inline.
    """
    lang = check_lang(lang)
    labels = _labels(lang)
    title = title or message("Grade report", lang)
    missed = most_missed(header, rows)
    # Messages outside f-strings: Babel reads calls inside them only on Python 3.12 and newer.
    size = message("{n} learners, {questions} questions", lang, n=len(rows),
                   questions=len(header) - FIRST_QUESTION_COLUMN)
    parts = [f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{_PAGE_STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>",
             f"<p>{html.escape(size)}</p>"]
    if missed:
        most = message("Most-missed questions", lang)
        parts += [f"<h2>{html.escape(most)}</h2>",
                  missed_chart_svg(missed, len(rows), lang)]
    css = {"passed": "passed", "failed": "failed", "not attempted": "nottried"}
    for lesson, questions in by_question(header, rows).items():
        heading = message("Lesson {lesson}", lang, lesson=lesson)
        parts.append(f"<h2>{html.escape(heading)}</h2><table>")
        parts.append("<tr>" + "".join(f"<th>{html.escape(labels[k])}</th>" for k in ("question", *OUTCOMES)) + "</tr>")
        for question, who in questions:
            cells = "".join(f'<td class="{css[o]}">{html.escape(", ".join(who[o])) or "-"}</td>' for o in OUTCOMES)
            parts.append(f"<tr><td><code>{html.escape(question)}</code></td>{cells}</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
