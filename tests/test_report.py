"""The grade report per question (ctxlib.course.report) on a hand-made class of three learners."""
from __future__ import annotations

import re
import subprocess
import sys

from ctxlib.course import grading, report
from ctxlib.course.progress import new_progress, save_progress

LESSONS = {"01_window_as_budget": ["fits_but_not_all", "reply_room"], "02_running_total": ["turns"]}


def attempt(lesson, question, outcome):
    return {"lesson": lesson, "question": question, "outcome": outcome, "hints_used": 0,
            "solution_viewed": False, "time": "2026-12-01T10:00:00Z"}


def record(name, *attempts):
    return (name, f"{name}.json", {**new_progress(name), "attempts": list(attempts)})


# asha: fits_but_not_all passed (after a wrong try), reply_room failed, turns passed.
# ravi: fits_but_not_all failed, nothing else.  meera: nothing at all.
CLASS = [
    record("asha", attempt("01_window_as_budget", "fits_but_not_all", "failed"),
           attempt("01_window_as_budget", "fits_but_not_all", "passed"),
           attempt("01_window_as_budget", "reply_room", "failed"), attempt("02_running_total", "turns", "passed")),
    record("ravi", attempt("01_window_as_budget", "fits_but_not_all", "failed")),
    record("meera"),
]


def table():
    return grading.grade_table(CLASS, LESSONS)


def test_by_question_lists_who_passed_failed_and_did_not_try():
    lessons = report.by_question(*table())
    assert lessons == {
        "01_window_as_budget": [
            ("fits_but_not_all", {"passed": ["asha"], "failed": ["ravi"], "not attempted": ["meera"]}),
            ("reply_room", {"passed": [], "failed": ["asha"], "not attempted": ["ravi", "meera"]}),
        ],
        "02_running_total": [("turns", {"passed": ["asha"], "failed": [], "not attempted": ["ravi", "meera"]})],
    }


def test_most_missed_orders_by_learners_not_passing_then_by_failed():
    # reply_room: 3 not passing (1 failed); turns: 2 (0 failed); fits_but_not_all: 2 (1 failed).
    assert report.most_missed(*table()) == [("01_window_as_budget:reply_room", 1, 2),
                                            ("01_window_as_budget:fits_but_not_all", 1, 1),
                                            ("02_running_total:turns", 0, 2)]


def test_report_text_in_both_languages():
    text = report.report_text(*table(), lang="en")
    assert "Lesson 01_window_as_budget" in text
    line = next(line for line in text.splitlines() if line.startswith("reply_room"))
    assert line.split() == ["reply_room", "-", "asha", "ravi,", "meera"]
    hindi = report.report_text(*table(), lang="hi")
    assert "Lesson" not in hindi and "passed" not in hindi
    assert "fits_but_not_all" in hindi and "meera" in hindi


def test_report_html_has_the_chart_with_the_counts_and_escapes_names():
    header, rows = grading.grade_table([*CLASS, record("<b>x</b>")], LESSONS)
    page = report.report_html(header, rows, lang="en")
    bars = re.findall(r'data-question="([^"]+)" data-failed="(\d+)" data-not-attempted="(\d+)"', page)
    assert bars == [("01_window_as_budget:reply_room", "1", "3"), ("01_window_as_budget:fits_but_not_all", "1", "2"),
                    ("02_running_total:turns", "0", "3")]
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched
    assert '<html lang="hi">' in report.report_html(header, rows, lang="hi")


def test_ctxlib_grade_writes_the_html_and_prints_the_report(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, _, data in CLASS:
        save_progress(data, folder / f"{name}.json")
    done = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", "grade", str(folder), "--csv",
                           str(tmp_path / "grades.csv"), "--html", str(tmp_path / "grades.html"), "--by-question",
                           "--lang", "en"], capture_output=True, text=True, check=True)
    assert "Lesson 01_window_as_budget" in done.stdout
    assert (tmp_path / "grades.csv").is_file()
    page = (tmp_path / "grades.html").read_text(encoding="utf-8")
    assert ('<code>fits_but_not_all</code></td><td class="passed">asha</td><td class="failed">ravi</td>'
            '<td class="nottried">meera</td>') in page
    assert page.count('<g class="bar"') == 10  # the ten most-missed questions of the real quizzes
