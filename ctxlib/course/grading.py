"""The instructor's grade report: many learners' progress files into one table.

Pure functions over the progress records ``ctxlib.course.progress`` reads; ``ctxlib grade DIR``
wires them to files. A question counts as passed if any attempt passed (``question_summary``).
"""
from __future__ import annotations

import csv
import io

from ctxlib.repo import display_path

from .progress import question_summary

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula (OWASP's list)


def terminal_text(text: str) -> str:
    """``text`` safe to print: control characters (ANSI escapes, newlines) shown escaped.

    ``terminal_text("\\x1b[2JAsha")`` -> ``"\\\\x1b[2JAsha"``: the screen is not cleared.
    """
    return display_path(str(text))


def csv_cell(value):
    """``value`` safe for a spreadsheet: text that starts like a formula gets a leading ``'``.

    ``csv_cell("=HYPERLINK(\"http://x\")")`` -> ``"'=HYPERLINK(\"http://x\")"``; numbers pass unchanged.
    Control characters are escaped as in ``terminal_text``.
    """
    if not isinstance(value, str):
        return value
    text = value if value.isprintable() else terminal_text(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def grade_table(learners, lessons: dict) -> tuple[list[str], list[list]]:
    """The instructor's table: a header and one row per learner.

    Args:
        learners: ``[(name, file name, progress record), ...]``.
        lessons: ``{lesson: [question ids]}`` (``ctxlib.course.quiz.lesson_question_ids()``).
    Returns:
        header ``["learner", "file", "passed", "questions", "hints", "solutions", "<lesson>:<id>", ...]``
        and rows whose question cells are "passed", "failed" or "not attempted".
    """
    keys = [(lesson, qid) for lesson, ids in lessons.items() for qid in ids]
    header = ["learner", "file", "passed", "questions", "hints", "solutions"] + [f"{l}:{q}" for l, q in keys]
    rows = []
    for name, file_name, data in learners:
        summary = question_summary(data)
        cells = [summary.get(k, ("not attempted", 0, False)) for k in keys]
        rows.append([name, file_name, sum(o == "passed" for o, _, _ in cells), len(keys),
                     sum(h for _, h, _ in cells), sum(s for _, _, s in cells), *(o for o, _, _ in cells)])
    return header, rows


def table_csv(header, rows) -> str:
    """The table as CSV text (comma-separated, quoted where needed, ``\\n`` line ends); every
    text cell passes ``csv_cell``, so a learner's name cannot be a formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in header])
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def grade_summary(header, rows, most_missed: int = 5) -> str:
    """A readable summary of ``grade_table``: completion per learner, then the most-missed questions.

    Names are printed through ``terminal_text``: a name holding an escape sequence cannot
    restyle or clear the instructor's terminal.
    """
    rows = [[terminal_text(r[0]), *r[1:]] for r in rows]
    width = max([len("learner")] + [len(r[0]) for r in rows])
    lines = [f"{'learner':<{width}}  {'passed':>10}  completion"]
    lines += [f"{r[0]:<{width}}  {f'{r[2]} of {r[3]}':>10}  {r[2] / r[3]:.0%}" if r[3] else f"{r[0]:<{width}}  -" for r in rows]
    missed = [(sum(r[i] != "passed" for r in rows), sum(r[i] == "failed" for r in rows), header[i])
              for i in range(6, len(header))]
    # Most learners not passing first; among those, more wrong answers first; then quiz order (a stable sort).
    missed = sorted([m for m in missed if m[0]], key=lambda m: (-m[0], -m[1]))[:most_missed]
    if missed:
        qwidth = max(len(m[2]) for m in missed)
        lines += ["", "most-missed questions (learners who have not passed it):"]
        lines += [f"  {question:<{qwidth}}  {n} of {len(rows)}  ({failed} failed, {n - failed} not attempted)"
                  for n, failed, question in missed]
    return "\n".join(lines)
