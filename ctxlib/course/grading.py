"""The instructor's grade report: many learners' progress files into one table.

Pure functions over the progress records ``ctxlib.course.progress`` reads; ``ctxlib grade DIR``
wires them to files. A question counts as passed if any attempt passed (``question_summary``).
"""
from __future__ import annotations

import csv
import io

from ctxlib.i18n import message
from ctxlib.repo import display_path

from .progress import question_summary

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula (OWASP's list)
MAX_NAME_CHARS = 80  # a learner's name in the table; a longer one is cut (it is in every row's width)


def short_name(name: str) -> str:
    """A learner's name as the table shows it: at most ``MAX_NAME_CHARS`` characters, a cut one ending in "…".

    A hand-in is untrusted: its name is printed in every line of the summary (the column is as wide as the
    widest name) and in every question of ``--by-question`` and ``--html``, so a 4 MiB name made 250 MB of
    output. Two names cut alike are then told apart by their files (``distinct_names``).
    ``short_name("x" * 100)`` -> ``"xxx…x…"`` (79 characters and "…").
    """
    return name if len(name) <= MAX_NAME_CHARS else name[:MAX_NAME_CHARS - 1] + "…"


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


def distinct_names(learners) -> list:
    """``learners`` (``[(name, file name, record), ...]``) with every name that two hand-ins share
    told apart by its file: ``("Asha", "a.json", r)`` -> ``("Asha (a.json)", "a.json", r)``."""
    from collections import Counter

    shared = {name for name, n in Counter(name for name, _, _ in learners).items() if n > 1}
    return [(f"{name} ({file_name})" if name in shared else name, file_name, data)
            for name, file_name, data in learners]


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


def grade_summary(header, rows, most_missed: int = 5, lang: str = "en") -> str:
    """A readable summary of ``grade_table``: completion per learner, then the most-missed questions.

    Args:
        header, rows: ``grade_table``'s result.
        most_missed: how many questions to list at most.
        lang: ``"en"`` or ``"hi"``.
    Returns:
        the lines; columns aligned by display width, so names in Devanagari line up too.
        Names are printed through ``terminal_text``: a name holding an escape sequence cannot
        restyle or clear the instructor's terminal.
    Raises:
        ValueError: for an unknown ``lang``.
    """
    from .tables import Table

    learners = [[terminal_text(r[0]),
                 message("{correct} of {total}", lang, correct=r[2], total=r[3]) if r[3] else "-",
                 f"{r[2] / r[3]:.0%}" if r[3] else ""] for r in rows]
    lines = [Table([message("learner", lang), message("passed", lang), message("completion", lang)], learners).text()]
    missed = [(sum(r[i] != "passed" for r in rows), sum(r[i] == "failed" for r in rows), header[i])
              for i in range(6, len(header))]
    # Most wrong answers first: mid-class, questions nobody has reached yet would otherwise hide the one the
    # class gets wrong. Then most learners not passing; then quiz order (a stable sort).
    missed = sorted([m for m in missed if m[0]], key=lambda m: (-m[1], -m[0]))[:most_missed]
    if missed:
        qwidth = max(len(m[2]) for m in missed)
        lines += ["", message("most-missed questions (learners who have not passed it):", lang)]
        lines += ["  " + f"{question:<{qwidth}}  " + message(
                      "{n} of {learners} ({failed} failed, {unattempted} not attempted)", lang,
                      n=n, learners=len(rows), failed=failed, unattempted=n - failed)
                  for n, failed, question in missed]
    return "\n".join(lines)
