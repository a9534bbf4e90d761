"""The instructor's report: `ctxlib grade DIR` over a folder of handed-in progress files, run in a temp dir."""
import csv
import json
import os

import pytest
from wcwidth import wcswidth

from ctxlib.course.commands import main
from ctxlib.course.grading import grade_summary, grade_table
from ctxlib.course.progress import new_progress
from ctxlib.course.quiz import lesson_question_ids

LESSON = "01_window_as_budget"
L1 = ["fits_but_not_all", "budget_100", "budget_120_used", "skip_keep_going", "hindi_rough_rule", "name_files", "own_scorer",
      "predict_75", "own_packer", "exact_budget"]


@pytest.fixture(autouse=True)
def progress_file(tmp_path, monkeypatch):
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "own-progress.json"))


def attempt(question, outcome, hints=0, solution=False):
    return {"lesson": LESSON, "question": question, "outcome": outcome, "hints_used": hints,
            "solution_viewed": solution, "time": "2025-05-01T09:30:00Z"}


def progress_json(learner, attempts):
    return json.dumps({**new_progress(learner), "attempts": attempts}, ensure_ascii=False)


@pytest.fixture
def class_folder(tmp_path, monkeypatch):
    """Two learners' files, one empty and one corrupted file, as an instructor collects them."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "handed_in"
    folder.mkdir()
    (folder / "asha.json").write_text(progress_json("Asha", [
        attempt("fits_but_not_all", "failed"), attempt("fits_but_not_all", "passed", 1),
        attempt("budget_100", "passed"), attempt("own_scorer", "error", 2),
        attempt("own_scorer", None, 2, True), attempt("own_scorer", "passed", 2, True)]), encoding="utf-8")
    (folder / "ravi_k.json").write_text(progress_json(None, [  # no name set: the file name stands in
        attempt("fits_but_not_all", "passed"), attempt("budget_120_used", "failed"), attempt("own_scorer", "not attempted")]))
    (folder / "empty.json").write_text("")
    (folder / "broken.json").write_text('{"format": "ctxlib-progress", "attempts": [{"lesson"')
    (folder / "notes.txt").write_text("not a progress file, not read")
    return folder


def test_grade_writes_the_csv_and_names_unreadable_files(class_folder, capsys):
    (class_folder.parent / "out").mkdir()
    assert main(["grade", "handed_in", "--csv", "out/grades.csv"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "ctxlib: broken.json: cannot be read, skipped (not JSON: Expecting ':' delimiter at line 1 column 53)",
        "ctxlib: empty.json: cannot be read, skipped (the file is empty)"]
    rows = list(csv.reader(open("out/grades.csv", encoding="utf-8", newline="")))
    other = [f"{lesson}:{q}" for lesson, ids in lesson_question_ids().items() if lesson != LESSON for q in ids]
    assert rows[0] == ["learner", "file", "passed", "questions", "hints", "solutions"] + [f"{LESSON}:{q}" for q in L1] + other
    total = str(len(L1) + len(other))
    missing = ["not attempted"] * len(other)
    assert rows[1] == ["Asha", "asha.json", "3", total, "3", "1",
                       "passed", "passed", "not attempted", "not attempted", "not attempted", "not attempted", "passed"] + ["not attempted"] * 3 + missing
    assert rows[2] == ["ravi_k", "ravi_k.json", "1", total, "0", "0",
                       "passed", "not attempted", "failed", "not attempted", "not attempted", "not attempted",
                       "not attempted"] + ["not attempted"] * 3 + missing
    assert len(rows) == 3
    lines = out.splitlines()
    assert lines[0].split() == ["learner", "passed", "completion"]
    assert lines[1].split() == ["Asha", "3", "of", total, f"{3 / int(total):.0%}"]
    assert lines[2].split() == ["ravi_k", "1", "of", total, f"{1 / int(total):.0%}"]
    assert "most-missed questions (learners who have not passed it):" in lines
    first_missed = lines[lines.index("most-missed questions (learners who have not passed it):") + 1]
    assert first_missed.split() == [f"{LESSON}:budget_120_used", "2", "of", "2", "(1", "failed,", "1", "not", "attempted)"]
    assert lines[-1] == f"wrote out/grades.csv: 2 learners x {total} questions; 2 files skipped (see above)"


def test_grade_default_csv_is_in_the_current_folder(class_folder, capsys):
    assert main(["grade", str(class_folder)]) == 0
    assert (class_folder.parent / "grades.csv").is_file() and "wrote grades.csv" in capsys.readouterr().out


def test_a_failed_csv_write_keeps_the_old_table(class_folder, monkeypatch, capsys):
    (class_folder.parent / "grades.csv").write_text("last week's table\n")

    def crash(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    assert main(["grade", "handed_in"]) == 2
    assert capsys.readouterr().err.endswith("ctxlib: grades.csv: cannot be written (No space left on device)\n")
    assert (class_folder.parent / "grades.csv").read_text() == "last week's table\n"
    assert sorted(p.name for p in class_folder.parent.iterdir()) == ["grades.csv", "handed_in"]


@pytest.mark.parametrize("setup,message", [
    (lambda d: None, "ctxlib: missing: no such folder"),
    (lambda d: d.mkdir(), "ctxlib: missing: has no progress files (*.json)"),
    (lambda d: (d.mkdir(), (d / "a.json").write_text("")), "ctxlib: the 1 progress file in missing could not be read"),
], ids=["no-folder", "no-files", "all-unreadable"])
def test_grade_errors_are_one_line_with_exit_2(tmp_path, monkeypatch, capsys, setup, message):
    monkeypatch.chdir(tmp_path)
    setup(tmp_path / "missing")
    assert main(["grade", "missing"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == message and "Traceback" not in "\n".join(err)
    assert not (tmp_path / "grades.csv").exists()


def test_grade_table_and_summary_as_pure_functions():
    lessons = {LESSON: ["a", "b"]}
    good = {**new_progress(), "attempts": [attempt("a", "passed"), attempt("b", "error")]}
    header, rows = grade_table([("Asha", "asha.json", good), ("Ravi", "ravi.json", new_progress())], lessons)
    assert header[6:] == [f"{LESSON}:a", f"{LESSON}:b"]
    assert rows == [["Asha", "asha.json", 1, 2, 0, 0, "passed", "failed"],
                    ["Ravi", "ravi.json", 0, 2, 0, 0, "not attempted", "not attempted"]]
    summary = grade_summary(header, rows).splitlines()
    assert [line.split() for line in summary[1:3]] == [["Asha", "1", "of", "2", "50%"], ["Ravi", "0", "of", "2", "0%"]]
    assert summary[-2].split()[:4] == [f"{LESSON}:b", "2", "of", "2"]
    assert summary[-1].split() == [f"{LESSON}:a", "1", "of", "2", "(0", "failed,", "1", "not", "attempted)"]


def test_most_missed_puts_wrong_answers_before_questions_not_reached():
    # Mid-class, three learners have not reached c; one got b wrong. b is what the instructor needs to see.
    header = ["learner", "file", "passed", "total", "hints", "solutions", "q:a", "q:b", "q:c"]
    rows = [["Asha", "a.json", 1, 3, 0, 0, "passed", "failed", "not attempted"],
            ["Ravi", "r.json", 2, 3, 0, 0, "passed", "passed", "not attempted"],
            ["Meera", "m.json", 2, 3, 0, 0, "passed", "passed", "not attempted"]]
    summary = grade_summary(header, rows).splitlines()
    assert [line.split()[0] for line in summary[-2:]] == ["q:b", "q:c"]
    assert summary[-2].split()[1:] == ["1", "of", "3", "(1", "failed,", "0", "not", "attempted)"]


def test_grade_does_not_invent_the_csv_folder(class_folder, capsys):
    assert main(["grade", "handed_in", "--csv", "typo/grades.csv"]) == 2
    assert capsys.readouterr().err.endswith(
        "ctxlib: typo/grades.csv: cannot be written, its folder typo does not exist\n")
    assert not (class_folder.parent / "typo").exists()


def test_grade_refuses_to_write_over_a_learners_file(class_folder, capsys):
    before = (class_folder / "asha.json").read_bytes()
    assert main(["grade", "handed_in", "--csv", "handed_in/asha.json"]) == 2
    assert "is one of the progress files being graded" in capsys.readouterr().err
    assert (class_folder / "asha.json").read_bytes() == before


def test_grade_in_hindi_same_csv_hindi_summary(class_folder, capsys):
    (class_folder / "ravi_k.json").write_text(progress_json("रवि कुमार", [attempt("fits_but_not_all", "passed")]),
                                               encoding="utf-8")
    assert main(["grade", "handed_in", "--csv", "en.csv"]) == 0
    capsys.readouterr()
    assert main(["grade", "handed_in", "--csv", "hi.csv", "--lang", "hi"]) == 0
    captured = capsys.readouterr()
    assert open("hi.csv", encoding="utf-8").read() == open("en.csv", encoding="utf-8").read()
    lines = captured.out.splitlines()
    total = len(L1) + sum(len(ids) for lesson, ids in lesson_question_ids().items() if lesson != LESSON)
    assert lines[0].split() == ["शिक्षार्थी", "पास", "पूरा", "हुआ"]
    assert lines[1].split() == ["Asha", str(total), "में", "से", "3", f"{3 / total:.0%}"]
    assert lines[2].split() == ["रवि", "कुमार", str(total), "में", "से", "1", f"{1 / total:.0%}"]
    # Columns line up by display width, not characters: "रवि कुमार" is 9 characters but 6 columns wide.
    assert len({wcswidth(line[:line.index(str(total))]) for line in lines[1:3]}) == 1
    assert lines[1].index(str(total)) != lines[2].index(str(total))
    assert "सबसे कम पास हुए सवाल (वे शिक्षार्थी जिन्होंने इसे पास नहीं किया):" in lines
    assert lines[-1] == f"hi.csv लिखी गई: 2 शिक्षार्थी x {total} सवाल; 2 files छोड़ी गईं (ऊपर देखें)"
    assert "ctxlib: empty.json: पढ़ी नहीं जा सकी, छोड़ दी गई (file ख़ाली है)" in captured.err.splitlines()


def test_grade_errors_in_hindi(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["grade", "missing", "--lang", "hi"]) == 2
    assert capsys.readouterr().err == "ctxlib: missing: ऐसा कोई folder नहीं\n"


def test_a_hand_in_with_a_huge_name_does_not_widen_every_line_of_the_report(tmp_path, capsys):
    """A 4 MiB name in one hand-in made `grade --by-question --html` print 250 MB and write a 222 MB page (the
    name sets the column's width in every row, and is listed under every question): found by the hostile review."""
    folder = tmp_path / "class"
    folder.mkdir()
    huge = "A" * 1_000_000
    (folder / "a.json").write_text(progress_json(huge, [attempt("budget_100", "passed")]))
    (folder / "b.json").write_text(progress_json(huge + "B", []))  # cut alike: told apart by the file
    (folder / "c.json").write_text(progress_json("Ravi", []))
    csv_path, html_path = tmp_path / "g.csv", tmp_path / "g.html"
    assert main(["grade", str(folder), "--csv", str(csv_path), "--by-question", "--html", str(html_path)]) == 0
    out = capsys.readouterr().out
    assert len(out) < 50_000 and html_path.stat().st_size < 100_000
    cut = "A" * 79 + "…"
    assert [row[0] for row in csv.reader(csv_path.open(encoding="utf-8"))][1:] == [f"{cut} (a.json)", f"{cut} (b.json)",
                                                                                 "Ravi"]
    assert f"{cut} (a.json)" in out and "Ravi" in out


def test_hints_written_as_floats_are_summed_exactly(tmp_path, capsys):
    """JSON Schema takes 1e308 as a whole number of hints; summed as floats, two of them were 'inf' in the table
    (and in 'ctxlib progress'). Found by the hostile review."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a.json").write_text(progress_json("Asha", [attempt("budget_100", "passed", 1e308),
                                                        attempt("fits_but_not_all", "passed", 2.0)]))
    assert main(["grade", str(folder), "--csv", str(tmp_path / "g.csv")]) == 0
    [row] = list(csv.reader((tmp_path / "g.csv").open(encoding="utf-8")))[1:]
    assert row[4] == str(int(1e308) + 2) and "inf" not in capsys.readouterr().out


def test_grade_keeps_one_attempt_per_question_not_the_whole_hand_in():
    # A 16 MiB hand-in parses to ~67 MB; grade reads a room's files one after another and keeps only this.
    from ctxlib.course.progress import question_summary, summary_record
    many = [attempt("a", "failed", hints=1), attempt("a", "error", hints=3), attempt("a", "passed"),
            attempt("b", "error", solution=True), attempt("b", "failed", hints=2)] * 2_000
    data = {**new_progress("Asha"), "attempts": many}
    kept = summary_record(data)
    assert kept["learner"] == "Asha" and len(kept["attempts"]) == 2
    assert question_summary(kept) == question_summary(data) == {(LESSON, "a"): ("passed", 3, False),
                                                               (LESSON, "b"): ("failed", 2, True)}
    lessons = {LESSON: ["a", "b", "c"]}
    assert grade_table([("Asha", "a.json", kept)], lessons) == grade_table([("Asha", "a.json", data)], lessons)
