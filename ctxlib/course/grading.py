"""The instructor's grade report: many learners' progress files into one table.

Pure functions over the progress records ``ctxlib.course.progress`` reads; ``ctxlib grade DIR``
wires them to files. A question counts as passed if any attempt passed (``question_summary``).
"""
from __future__ import annotations

import csv
import io

from .progress import question_summary


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
    """The table as CSV text (comma-separated, quoted where needed, ``\\n`` line ends)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def grade_summary(header, rows, most_missed: int = 5) -> str:
    """A readable summary of ``grade_table``: completion per learner, then the most-missed questions."""
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
