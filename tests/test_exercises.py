"""Code exercises: the four outcomes, messages in both languages, hints, solution, recording."""
import __main__
import linecache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ctxlib.ceiling import NINE_FILE_REFACTOR, ONE_LINE_CHANGE, class_ceiling, first_turn_ceiling
from ctxlib.course.examples import LESSON1_FILES, LESSON1_QUERY
from ctxlib.course.checks.lesson1 import scorer_cases
from ctxlib.course.checks.lesson2 import ceiling_cases
from ctxlib.course.exercises import Case, Exercise, exercise, run_cases, starter_name
from ctxlib.course.progress import read_progress
from ctxlib.course.quiz import load_quiz
from ctxlib.scoring import score_file

LESSON = "01_window_as_budget"


# Every test here records into its own throwaway progress file (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("progress_file")


def cell(source, name="my_score"):
    """Run ``source`` as a notebook cell does: its own file name, its lines in linecache (as IPython keeps them)."""
    filename = f"<notebook cell {abs(hash(source))}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"score_file": score_file}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def solution_of(q):
    namespace = {}
    exec(q.question.solution, namespace)
    return namespace[q.name]


def starter_of(q):
    namespace = {}
    exec(q.question.starter, namespace)
    return namespace[q.name]


# --- the cases: expected values are ctxlib's -------------------------------------------

def test_scorer_cases_use_lesson1_files_and_score_file():
    cases = scorer_cases()
    assert cases[0].args == ("shop/pricing.py", LESSON1_FILES["shop/pricing.py"], LESSON1_QUERY)
    seed = [(c.args[0], c.expected) for c in cases[:4]]
    assert seed == [("shop/pricing.py", 18), ("shop/cart.py", 4), ("docs/history.md", 0), ("tests/test_pricing.py", 15)]
    assert all(c.expected == score_file(*c.args) for c in cases)
    # Hand-computed: "pricing" twice in the text, once in the name (2 + 3); twice in the name (2 x 3);
    # "discount" in two longer words; nothing; "vat" named twice (2 x (2 + 3)); "ana" in banana and
    # bandana, not overlapping; "बजट" twice in the text, once in the name; "tax" in the name and twice in
    # the text; "json" once in the text and once in the name's extension; "tax" twice on later lines and once in the name;
    # "tax" twice in one word of the text ("apply_tax(price,tax)") and twice in one part of the name ("tax_taxes.py").
    assert [c.expected for c in cases[4:]] == [2 + 3, 6, 2, 0, 10, 2, 2 + 3, 3 + 2, 1 + 3, 1 + 3, 2 + 3, 2 + 2 * 3]
    # The cases after the lesson's own files are named by what they test, never by their data.
    assert cases[4].about["en"] == "for a name and a text in mixed case" and "Pricing" not in cases[4].about["hi"]
    assert all(set(c.about) == {"en", "hi"} for c in cases)


def test_ceiling_cases_are_the_chapter_figures():
    cases = ceiling_cases()
    assert [c.expected for c in cases[:2]] == [94_000, 70_000]
    assert cases[2].expected == class_ceiling(ONE_LINE_CHANGE).ceiling_tokens == 166_000
    assert cases[3].expected == class_ceiling(NINE_FILE_REFACTOR).ceiling_tokens == 200_000 - 10_000 - 4 * 46_000
    assert cases[4].expected == 128_000 - 10_000 - 4 * 46_000 < 0  # the loop alone does not fit
    assert cases[5].expected == 32_000 - 2_500 - 3 * 1_500


# --- the four outcomes, Lesson 1's exercise -------------------------------------------

def test_passed_only_when_every_case_passed():
    q = exercise(LESSON, "own_scorer", "en")
    result = q.run(solution_of(q))
    assert (result.outcome, result.passed, result.total, result.message) == ("passed", 16, 16, "All 16 checks passed.")
    assert exercise(LESSON, "own_scorer", "hi").run(solution_of(q)).message == "सभी 16 जाँचें सफल रहीं।"


def test_failed_says_which_inputs_and_what_came_back_but_not_the_expected_value():
    def my_score(name, text, terms):  # forgets the name's weight of 3
        return sum(text.lower().count(t.lower()) + name.lower().count(t.lower()) for t in terms)

    result = exercise(LESSON, "own_scorer", "en").run(my_score)
    assert result.outcome == "failed" and result.passed == 5
    assert result.message == ("Not yet: 5 of 16 checks passed. For file 'shop/pricing.py' with terms "
                              "['discount', 'pricing'], my_score returned 16: too low.")
    assert "18" not in result.message and "Traceback" not in result.message
    hi = exercise(LESSON, "own_scorer", "hi").run(my_score).message
    assert hi == ("अभी नहीं: सफल जाँचें 16 में से 5। File 'shop/pricing.py', terms ['discount', 'pricing'] "
                  "के लिए, my_score ने 16 लौटाया: बहुत कम।")


def test_a_failure_on_a_hidden_case_names_what_it_tests_not_its_data():
    def my_score(name, text, terms):  # case-sensitive: misses "PRICING" and "Pricing"
        return sum(text.count(t) + 3 * name.count(t) for t in terms)

    message = exercise(LESSON, "own_scorer", "en").run(my_score).message
    assert message == "Not yet: 11 of 16 checks passed. For a name and a text in mixed case, my_score returned 1: too low."
    hi = exercise(LESSON, "own_scorer", "hi").run(my_score).message
    assert hi == "अभी नहीं: सफल जाँचें 16 में से 11। छोटे-बड़े अक्षरों वाले नाम और text के लिए, my_score ने 1 लौटाया: बहुत कम।"


@pytest.mark.parametrize("body", ["    ...", "    pass", "    return None", "    raise NotImplementedError",
                                  "    raise NotImplementedError('write me')"])
def test_an_unchanged_starter_is_not_attempted(body):
    namespace = {}
    exec(f"def my_score(name, text, terms):\n{body}\n", namespace)
    result = exercise(LESSON, "own_scorer", "en").run(namespace["my_score"])
    assert result.outcome == "not attempted" and result.passed == 0
    assert result.message.startswith("Not attempted yet: your my_score still ")


def test_the_files_own_starter_is_not_attempted_in_both_languages():
    en, hi = exercise(LESSON, "own_scorer", "en"), exercise(LESSON, "own_scorer", "hi")
    assert en.run(starter_of(en)).message == (
        "Not attempted yet: your my_score still returns None, as the starter does. Write its body, "
        "run that cell, then check again.")
    assert hi.run(starter_of(hi)).message.startswith("अभी कोशिश नहीं हुई: आपका my_score अब भी starter की तरह None लौटाता है।")


def test_an_error_shows_the_learners_exception_and_line_not_ours():
    my_score = cell('def my_score(name, text, terms):\n'
                    '    weights = {"text": 1}\n'
                    '    return text.count(terms[0]) * weights["name"]\n')
    result = exercise(LESSON, "own_scorer", "en").run(my_score)
    assert result.outcome == "error" and result.passed == 0
    assert result.message == ("For file 'shop/pricing.py' with terms ['discount', 'pricing'], your code raised "
                              "KeyError: 'name'\n  in my_score, line 3: return text.count(terms[0]) * weights[\"name\"]")
    assert "exercises.py" not in result.message and "Traceback" not in result.message


def test_an_error_inside_ctxlib_points_at_the_learners_call():
    my_score = cell("def my_score(name, text, terms):\n"
                    "    return score_file(name, text, [])  # ctxlib raises; the learner's line is the one to show\n")
    message = exercise(LESSON, "own_scorer", "hi").run(my_score).message
    assert message.startswith("File 'shop/pricing.py', terms ['discount', 'pricing'] के लिए, आपके code में error आया: "
                              "ValueError: query ख़ाली है: ")  # ctxlib's own error, in the notebook's language
    assert message.endswith("\n  my_score में, line 2: return score_file(name, text, [])  # ctxlib raises; "
                            "the learner's line is the one to show")
    assert "scoring.py" not in message


def test_an_error_after_some_passes_counts_them():
    def my_score(name, text, terms):
        if not text:
            raise ZeroDivisionError("empty text")
        return score_file(name, text, terms)

    result = exercise(LESSON, "own_scorer", "en").run(my_score)
    assert (result.outcome, result.passed) == ("error", 5)
    assert result.message.startswith("For a term twice in the name and an empty text, your code raised "
                                     "ZeroDivisionError: empty text")


def test_a_value_instead_of_a_function_and_bools_are_not_counts():
    q = exercise(LESSON, "own_scorer", "en")
    assert q.run(18).outcome == "failed" and "wants a function, e.g. q.check(my_score); got 18" in q.run(18).message
    assert q.run(None).outcome == "not attempted"
    case = [Case(("x",), 1, {"en": "for x", "hi": "x के लिए"})]
    assert run_cases(lambda x: True, case).outcome == "failed"
    assert run_cases(lambda x: 1.0, case).outcome == "passed"


def test_value_cases_compare_the_answer_itself():
    cases = [Case(None, 94_000, {"en": "for the chapter's p50 figures", "hi": "अध्याय के p50 आँकड़ों के लिए"})]
    assert run_cases(94_000, cases, name="fill").outcome == "passed"
    assert run_cases(96_000, cases, "en", "fill").message == "Not yet: For the chapter's p50 figures, fill is 96000: too high."
    assert run_cases(96_000, cases, "hi", "fill").message == "अभी नहीं: अध्याय के p50 आँकड़ों के लिए, fill 96000 है: बहुत ज़्यादा।"
    assert run_cases(Ellipsis, cases).outcome == "not attempted"


# --- check, hint, solution in a notebook --------------------------------------------------

def test_check_prints_the_outcome_and_records_it(progress_file, capsys):
    q = exercise(LESSON, "own_scorer", "en")
    q.check(starter_of(q))
    q.hint()
    q.hint(2)
    q.check(lambda name, text, terms: 0)
    q.check(solution_of(q))
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Not attempted yet")
    assert out[1].startswith("Hint 1 of 2: str.count counts") and out[2].startswith("Hint 2 of 2: Lower-case")
    assert out[3].startswith("Not yet: 2 of 16 checks passed.") and out[4] == "All 16 checks passed."
    attempts = read_progress(progress_file)["attempts"]
    assert [(a["question"], a["outcome"], a["hints_used"], a["solution_viewed"]) for a in attempts] == [
        ("own_scorer", "failed", 2, False), ("own_scorer", "passed", 2, False)]  # the untouched starter is not recorded


def test_check_without_an_argument_finds_the_starters_name_in_the_notebook(monkeypatch, capsys):
    q = exercise(LESSON, "own_scorer", "en")
    monkeypatch.delattr(__main__, "my_score", raising=False)
    q.check()
    assert capsys.readouterr().out.startswith("Not attempted yet: there is no my_score in the notebook.")
    monkeypatch.setattr(__main__, "my_score", solution_of(q), raising=False)
    q.check()
    assert capsys.readouterr().out == "All 16 checks passed.\n"


def test_hints_in_order_then_no_more_and_out_of_range(capsys):
    q = exercise(LESSON, "own_scorer", "hi")
    q.hint(); q.hint(); q.hint(); q.hint(7)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("संकेत 1 (2 में से): str.count गिनता है") and lines[1].startswith("संकेत 2 (2 में से):")
    assert lines[2] == "और संकेत नहीं हैं: आप सभी 2 देख चुके हैं। q.solution() हल दिखाता है।"
    assert lines[3] == "कुल 2 संकेत हैं; 1 से 2 तक माँगें।"
    assert q.hints_shown == 2


def test_solution_is_shown_only_on_request_and_recorded(progress_file, capsys):
    q = exercise(LESSON, "own_scorer", "en")
    assert "return sum(" not in repr(q)  # the plain-text form shows the starter, not the solution
    assert repr(q).startswith("Write the lesson's scorer yourself") and "    ...\n" in repr(q)
    q.solution()
    out = capsys.readouterr().out
    assert out.startswith("Solution:\ndef my_score(name, text, terms):") and "Matching inside words" in out
    q.check(solution_of(q))
    attempts = read_progress(progress_file)["attempts"]
    assert [(a["outcome"], a["solution_viewed"]) for a in attempts] == [(None, True), ("passed", True)]


def test_only_code_questions_are_exercises():
    with pytest.raises(ValueError, match="'fits_but_not_all' is single_choice, not a code exercise"):
        exercise(LESSON, "fits_but_not_all", "en")
    with pytest.raises(KeyError, match="no question 'nope'"):
        exercise(LESSON, "nope", "en")
    assert starter_name("x = ...\n") == "x" and starter_name("# nothing\n") is None


def test_a_recording_failure_never_breaks_the_check(tmp_path, monkeypatch, capsys):
    (tmp_path / "a_file").write_text("")
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "a_file" / "progress.json"))  # its folder is a file
    q = exercise(LESSON, "own_scorer", "en")
    q.check(solution_of(q))
    out, err = capsys.readouterr()
    assert out == "All 16 checks passed.\n"
    assert err == "ctxlib: this attempt was not saved to your progress file (FileExistsError).\n"


# --- the files' solutions agree with ctxlib on any input ---------------------------------

words = st.text(alphabet="abcDPr_ /.", max_size=30)
MY_SCORE = solution_of(Exercise(load_quiz(LESSON, "en").question("own_scorer")))


@given(name=words, text=words, terms=st.lists(st.text(alphabet="abcDPr_", min_size=1, max_size=4), min_size=1, max_size=3))
def test_the_scorer_solution_is_score_file(name, text, terms):
    assert MY_SCORE(name, text, terms) == score_file(name, text, terms)


# --- Lesson 2's exercise: the first-turn ceiling ------------------------------------------

def test_the_ceiling_exercise_four_outcomes():
    en, hi = exercise("02_running_total", "own_ceiling", "en"), exercise("02_running_total", "own_ceiling", "hi")
    assert en.run(solution_of(en)).message == "All 12 checks passed."

    def forgets_the_patch(window, fixed_prefix, task, patch, diagnostics, attempts):
        return window - fixed_prefix - task - attempts * diagnostics

    assert en.run(forgets_the_patch).message == (
        "Not yet: 1 of 12 checks passed. For window 200,000, fixed prefix 9,000, task 1,000, patch 6,000, "
        "diagnostics 18,000, 4 attempts, forgets_the_patch returned 118000: too high.")
    assert hi.run(forgets_the_patch).message == (
        "अभी नहीं: सफल जाँचें 12 में से 1। Window 200,000, fixed prefix 9,000, task 1,000, patch 6,000, "
        "diagnostics 18,000, 4 कोशिशों के लिए, forgets_the_patch ने 118000 लौटाया: बहुत ज़्यादा।")
    assert en.run(starter_of(en)).outcome == "not attempted"

    def clamps_at_zero(window, fixed_prefix, task, patch, diagnostics, attempts):
        return max(0, window - fixed_prefix - task - attempts * (patch + diagnostics))

    assert (en.run(clamps_at_zero).outcome, en.run(clamps_at_zero).passed) == ("failed", 10)
    assert en.run(lambda *sizes: sizes[0] / 0).outcome == "error"


MY_CEILING = solution_of(exercise("02_running_total", "own_ceiling", "en"))


@given(sizes=st.tuples(*[st.integers(0, 300_000)] * 5), attempts=st.integers(1, 8))
def test_the_ceiling_solution_is_first_turn_ceiling(sizes, attempts):
    window, prefix, task, patch, diagnostics = sizes
    expected = first_turn_ceiling(diagnostics, window_tokens=window + 1, fixed_prefix_tokens=prefix, task_tokens=task,
                                  patch_tokens=patch, max_attempts=attempts).ceiling_tokens
    assert MY_CEILING(window + 1, prefix, task, patch, diagnostics, attempts) == expected


def test_lesson_2_exercise_checkers_compute_their_answers_with_ctxlib():
    from ctxlib.course.checks.lesson2 import (keep_tail_cases, misclassified_cases, percentile_cases,
                                              tail_trim_run_cases)
    from ctxlib.transcript import last_tokens
    import math

    assert [c.expected for c in tail_trim_run_cases()] == [2_794]   # 200,000 - 197,206
    assert [c.expected for c in misclassified_cases()] == [5]       # 176,000 + 4 x 6,000 = 200,000
    assert run_cases(2_794, tail_trim_run_cases()).outcome == "passed"
    assert run_cases(4_000, tail_trim_run_cases()).outcome == "failed"
    assert run_cases(Ellipsis, misclassified_cases()).outcome == "not attempted"
    assert run_cases(last_tokens, keep_tail_cases()).outcome == "passed"
    by_chars = lambda text, keep: text[-keep:]  # characters are not tokens
    assert run_cases(by_chars, keep_tail_cases()).outcome == "failed"
    nearest = lambda values, p: sorted(values)[math.ceil(p * len(values) / 100) - 1]
    assert run_cases(nearest, percentile_cases()).outcome == "passed"
    interpolated = lambda values, p: sorted(values)[len(values) // 2] if p == 50 else max(values)
    assert run_cases(interpolated, percentile_cases()).outcome == "failed"


# --- Lessons 1 and 3: the exercises added after their sections ------------------------------

from ctxlib.course import exercises as ex
from ctxlib.course.checks import lesson1 as l1, lesson3 as l3


def test_lesson1_value_exercises_have_hand_computed_answers():
    # At 75 the pricing file (77) does not fit; the test file (46) and the cart (27) do.
    assert l1.predict_75_cases()[0].expected == ["tests/test_pricing.py", "shop/cart.py"]
    # Exact o200k_base costs of the three relevant files: 56 + 31 + 21.
    assert l1.exact_budget_cases()[0].expected == 56 + 31 + 21
    assert run_cases(..., l1.predict_75_cases()).message.startswith("Not attempted yet: your function is still ...")


def test_the_packer_exercise_is_checked_against_pack_context():
    cases = l1.packer_cases()
    assert cases[0].expected == ([("shop/pricing.py", 77), ("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 150)
    assert cases[3].expected == ([("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 73)  # budget 75
    assert cases[7].expected == ([("shop/pricing.py", 77), ("tests/test_pricing.py", 46)], 123)  # budget 149
    assert cases[8].expected == ([("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 73)  # budget 76
    assert cases[11].expected == ([], 0)  # "history" matches, but 1,300 tokens never fit in 1,000

    def stops_at_first_misfit(files, terms, budget):
        from ctxlib import estimate_tokens, score_file
        chosen, used = [], 0
        for name, text in sorted(files.items(), key=lambda kv: -score_file(kv[0], kv[1], terms)):
            if score_file(name, text, terms) == 0 or used + estimate_tokens(text) > budget:
                break
            chosen.append((name, estimate_tokens(text)))
            used += estimate_tokens(text)
        return chosen, used
    result = run_cases(stops_at_first_misfit, cases)
    assert result.outcome == "failed" and "budget 120" in result.message


def test_the_ranges_and_candidates_exercises():
    assert l3.ranges_cases()[1].expected == [(8, 14), (198, 202)]
    assert l3.ranges_cases()[3].expected == [(1, 3), (18, 20)]
    sample, empty, planted = l3.candidates_cases()[:3]
    assert "deploy/invoice_archive.ini" not in sample.expected and "shop/vat.py" in sample.expected
    assert "shop/shipping.py" in planted.args[0] and "shop/shipping.py" not in planted.expected and empty.expected == []
    assert "shipping" not in planted.about["en"] and "shipping" not in planted.about["hi"]  # the planted file is not named


def test_the_capstone_is_checked_by_properties(tmp_path):
    from ctxlib.course.sample_project import BUDGET, QUERY, build_sample_project
    root = build_sample_project(tmp_path / "shop")
    answer = {"root": root, "task": QUERY, "budget": BUDGET, "essential": ["shop/invoice.py", "shop/vat.py"]}
    untouched = run_cases(answer, l3.capstone_cases(), name="capstone")  # the lesson's own example
    assert (untouched.outcome, untouched.passed) == ("not attempted", 5)
    assert "(5 of 5 checks pass on it)" in untouched.message
    answer["task"] = "vat invoice rounding"  # a task of one's own on the same project is graded
    assert run_cases(answer, l3.capstone_cases(), name="capstone").outcome == "passed"
    missing = dict(answer, essential=["docs/changelog.md"])  # 3,916 tokens: never fits in 2,000
    result = run_cases(missing, l3.capstone_cases(), name="capstone")
    assert result.outcome == "failed" and "docs/changelog.md not packed" in result.message
    assert run_cases(dict(answer, essential=[]), l3.capstone_cases(), name="capstone").outcome == "failed"


def test_not_yet_names_the_function_the_learner_passed():
    q = exercise("01_window_as_budget", "own_scorer", "en")

    def score_v2(name, text, terms):
        return 0

    assert ", score_v2 returned 0: too low." in q.run(score_v2).message
    # A lambda has no name of its own: it is called by the starter's name.
    assert ", my_score returned 0: too low." in q.run(lambda name, text, terms: 0).message
    hi = exercise("01_window_as_budget", "own_scorer", "hi").run(score_v2).message
    assert hi.startswith("अभी नहीं: ") and " score_v2 ने 0 लौटाया: बहुत कम।" in hi


# --- the engine on hostile or odd answers: never a crash, always a message in both languages -----

SEQUENCE_CASES = [Case(([3, 1, 2],), [1, 2, 3], {"en": "for three numbers", "hi": "तीन संख्याओं के लिए"}),
                  Case(([],), [], {"en": "for no numbers", "hi": "बिना संख्याओं के"})]


def test_a_tuple_passes_where_a_list_is_asked_and_5_0_for_5():
    assert run_cases(lambda xs: tuple(sorted(xs)), SEQUENCE_CASES).outcome == "passed"
    assert run_cases(lambda xs: [float(x) for x in sorted(xs)], SEQUENCE_CASES).outcome == "passed"
    from decimal import Decimal
    assert run_cases(lambda xs: [Decimal(x) for x in sorted(xs)], SEQUENCE_CASES).outcome == "passed"  # a bill's exact sum
    assert run_cases(lambda xs: [x == 1 or x for x in sorted(xs)], SEQUENCE_CASES).outcome == "failed"  # True is not 1


@pytest.mark.parametrize("answer, why_en, why_hi", [
    (lambda xs: (x for x in sorted(xs)), "it is a generator, not a list", "यह generator है, list नहीं"),
    (lambda xs: set(xs), "it is a set, not a list", "यह set है, list नहीं"),
    (lambda xs: sorted(xs, reverse=True), "the right items, in the wrong order", "सही items, पर ग़लत क्रम में"),
    (lambda xs: sorted(xs)[:2], "2 items, fewer than the right answer has", "2 items, सही जवाब से कम"),
    (lambda xs: sorted(xs) + [4], "4 items, more than the right answer has", "4 items, सही जवाब से ज़्यादा"),
    (lambda xs: [1, 2, 4], "item 2 (counting from 0): too high", "item 2 (0 से गिनकर): बहुत ज़्यादा"),
    (lambda xs: [1, 2, "3"], "item 2 (counting from 0): it is a str, not a number",
     "item 2 (0 से गिनकर): यह str है, number नहीं"),
])
def test_a_failure_says_how_the_result_differs_in_both_languages(answer, why_en, why_hi):
    en, hi = run_cases(answer, SEQUENCE_CASES, "en"), run_cases(answer, SEQUENCE_CASES, "hi")
    assert en.outcome == hi.outcome == "failed"
    passed = en.passed  # the empty list may come out right
    assert en.message.startswith(f"Not yet: {passed} of 2 checks passed. For three numbers, ") and en.message.endswith(f": {why_en}.")
    assert hi.message.startswith(f"अभी नहीं: सफल जाँचें 2 में से {passed}। तीन संख्याओं के लिए, ") and hi.message.endswith(f": {why_hi}।")
    assert "[1, 2, 3]" not in en.message


def test_an_answer_that_changes_its_input_fails_even_with_the_right_result():
    def sorts_in_place(xs):
        xs.sort()
        return xs

    result = run_cases(sorts_in_place, SEQUENCE_CASES)
    assert result.outcome == "failed" and result.passed == 1  # the empty list is not changed by sorting
    assert result.message == ("Not yet: 1 of 2 checks passed. For three numbers, sorts_in_place changed its input "
                              "(argument 1). Work on a copy: the caller still needs its data.")


class AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class Hostile:
    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    def __len__(self):
        raise RuntimeError("no measuring me")

    __hash__ = object.__hash__


@pytest.mark.parametrize("answer", [lambda xs: AlwaysEqual(), lambda xs: [AlwaysEqual()] * 3, lambda xs: Hostile(),
                                    lambda xs: [Hostile(), Hostile(), Hostile()]])
def test_an_object_that_claims_equality_or_breaks_comparison_is_a_failure_not_a_crash(answer):
    for lang in ("en", "hi"):
        result = run_cases(answer, SEQUENCE_CASES, lang)
        assert result.outcome == "failed" and result.passed == 0


def test_a_self_containing_list_is_a_failure_not_a_crash():
    loop = []
    loop.append(loop)
    assert run_cases(lambda xs: [loop, loop, loop], SEQUENCE_CASES).outcome == "failed"


def test_exit_in_the_learners_code_is_their_error_not_the_end_of_the_kernel():
    import sys

    result = run_cases(lambda xs: sys.exit(3), SEQUENCE_CASES)
    assert result.outcome == "error" and result.message.startswith("For three numbers, your code raised SystemExit: 3")


def test_every_quiz_names_its_checker_in_its_lessons_module():
    for lesson in ("01_window_as_budget", "02_running_total", "03_real_repository", "04_what_to_remove"):
        for lang in ("en", "hi"):
            checkers = [q.checker for q in load_quiz(lesson, lang).questions if q.checker]
            assert checkers and all(c.startswith(f"ctxlib.course.checks.lesson{int(lesson[:2])}:") for c in checkers)
    assert not hasattr(ex, "scorer_cases")  # the engine holds no checker


def test_a_value_exercise_that_passes_says_so_in_the_singular():
    from ctxlib.course.checks.lesson1 import predict_75_cases

    right = ["tests/test_pricing.py", "shop/cart.py"]
    assert run_cases(right, predict_75_cases()).message == "The check passed."
    assert run_cases(tuple(right), predict_75_cases(), "hi").message == "जाँच सफल रही।"
    assert run_cases(right[:1], predict_75_cases(), name="predicted_at_75").message == (
        "Not yet: For the files kept at a budget of 75 tokens, in packing order, predicted_at_75 is "
        "['tests/test_pricing.py']: 1 item, fewer than the right answer has.")


def test_none_after_the_first_case_and_nan_are_failures_with_plain_words():
    result = run_cases(lambda xs: None if not xs else sorted(xs), SEQUENCE_CASES[::-1] + SEQUENCE_CASES)
    assert result.outcome == "not attempted"  # None on the first case: the starter
    result = run_cases(lambda xs: sorted(xs) if len(xs) == 3 else None, SEQUENCE_CASES)
    assert result.message.endswith("For no numbers, your function returned None: it is None, not a list.")
    nan = run_cases(lambda x: float("nan"), [Case(("x",), 1, {"en": "for x", "hi": "x के लिए"})])
    assert nan.message == "Not yet: 0 of 1 checks passed. For x, your function returned nan."


# --- print where return was meant ---------------------------------------------------------------------

FUNCTION_EXERCISES = [("01_window_as_budget", "own_scorer"), ("01_window_as_budget", "own_packer"),
                      ("02_running_total", "own_keep_tail"), ("02_running_total", "own_ceiling"),
                      ("02_running_total", "own_percentile"), ("03_real_repository", "own_candidates"),
                      ("03_real_repository", "own_terms"), ("03_real_repository", "own_ranges"),
                      ("04_what_to_remove", "own_superseded"), ("04_what_to_remove", "own_masking"),
                      ("04_what_to_remove", "own_cached_share"), ("04_what_to_remove", "own_run_cost")]


@pytest.mark.parametrize("lesson, question_id", FUNCTION_EXERCISES)
def test_an_answer_that_prints_its_result_is_told_to_return_it(lesson, question_id, capsys):
    """The solution with its return written as print: it was attempted, so it fails (and is recorded), with a message
    that says what to change; the starter, which prints nothing, is still not attempted."""
    en, hi = exercise(lesson, question_id, "en"), exercise(lesson, question_id, "hi")
    solution = solution_of(en)

    def printed(*args):
        print(solution(*args))

    result = en.run(printed)
    assert result.outcome == "failed" and result.passed == 0
    assert result.message.endswith(", printed printed something and returned None. A function hands its result back "
                                   "with return; print only shows it.")
    assert hi.run(printed).message.endswith(", printed ने कुछ print किया और None लौटाया। Function अपना नतीजा return से "
                                            "लौटाता है; print उसे सिर्फ़ दिखाता है।")
    assert capsys.readouterr().out  # what it printed is still shown, as in the notebook
    assert en.run(starter_of(en)).outcome == "not attempted"


def test_a_print_on_one_case_only_is_named_at_that_case():
    def answer(xs):
        if not xs:
            print("no numbers")  # returns None here
            return
        return sorted(xs)

    result = run_cases(answer, SEQUENCE_CASES)
    assert result.message == ("Not yet: 1 of 2 checks passed. For no numbers, answer printed something and returned "
                              "None. A function hands its result back with return; print only shows it.")


def test_prints_beside_a_returned_result_change_nothing(capsys):
    def chatty(xs):
        print("sorting", xs)
        return sorted(xs)

    assert run_cases(chatty, SEQUENCE_CASES).outcome == "passed"
    assert "sorting [3, 1, 2]" in capsys.readouterr().out
    assert run_cases(lambda xs: print(xs) or None, SEQUENCE_CASES).outcome == "failed"


def test_an_int_too_long_for_str_is_shown_as_reprlib_shows_a_long_int_not_raised():
    """Python refuses str() of an int past 4,300 digits; reprlib calls it, so q.check raised a ValueError
    from inside ctxlib when an answer held one (2 ** 20000 from a wrong formula). Found by the hostile review."""
    import reprlib
    import sys

    from ctxlib.course.exercises import shown_value

    for lang, words in (("en", "your function returned 100000000000000000...0000000000000000000: too high."),
                        ("hi", "your function ने 100000000000000000...0000000000000000000 लौटाया: बहुत ज़्यादा।")):
        result = run_cases(lambda xs: 10 ** 5000, [Case(([1],), 3, {"en": "for one", "hi": "एक के लिए"})], lang)
        assert result.outcome == "failed" and result.message.endswith(words)
    assert run_cases(lambda xs: [-(10 ** 9000)] * 3, SEQUENCE_CASES).message.endswith(
        "returned [-10000000000000000...0000000000000000000, -10000000000000000...0000000000000000000, "
        "-10000000000000000...0000000000000000000]: item 0 (counting from 0): too low.")
    assert run_cases(10 ** 5000, [Case(None, 3, {"en": "for x", "hi": "x के लिए"})], name="fill").outcome == "failed"
    numbers = [10 ** 4300 - 1, 10 ** 4300, 2 ** 20000, -(7 ** 20000), 3 ** 30000 + 12345]
    limit = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(0)
        expected = [reprlib.repr(n) for n in numbers]
    finally:
        sys.set_int_max_str_digits(limit)
    assert [shown_value(n) for n in numbers] == expected


def test_an_exception_whose_text_cannot_be_made_is_named_by_its_type():
    class Broken(Exception):
        def __str__(self):
            return str(1 / 0)

    def breaks(xs):
        raise Broken()

    def too_long(xs):
        raise ValueError(10 ** 5000)

    for answer, name in ((breaks, "Broken"), (too_long, "ValueError")):
        for lang in ("en", "hi"):
            result = run_cases(answer, SEQUENCE_CASES, lang)
            assert result.outcome == "error" and result.message.splitlines()[0].endswith(name)


# --- Round 8: answers hostile to the checker itself -----------------------------------------------

def _forever(*args):
    while True:
        pass


@pytest.mark.parametrize("way", ["signal", "trace"])
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_an_endless_loop_is_stopped_and_named_not_a_hung_cell(way, lang, monkeypatch):
    """Both ways: a timer signal in the notebook's main thread; tracing where there is none (Pyodide, another thread)."""
    import signal
    import sys
    import time

    from ctxlib.course import timelimit

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 1)
    if way == "trace":
        monkeypatch.setattr(timelimit, "_signals_usable", lambda: False)
    started = time.monotonic()
    result = run_cases(_forever, SEQUENCE_CASES, lang)
    assert time.monotonic() - started < 10
    assert result.outcome == "error"
    assert result.message == {
        "en": "For three numbers, your code was still running after 1 seconds, so the check stopped it. "
              "Is there a loop that never ends?",
        "hi": "तीन संख्याओं के लिए, आपका code 1 सेकंड बाद भी चल रहा था, इसलिए जाँच ने उसे रोक दिया। "
              "कहीं कोई loop ऐसा तो नहीं जो कभी ख़त्म नहीं होता?"}[lang]
    assert sys.gettrace() is None and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL


def test_a_long_sleep_and_an_except_that_swallows_one_stop_are_stopped_too(monkeypatch):
    """A sleep is stopped by the timer signal; a loop that swallows one stop meets the next one 0.1 s later. (A loop
    whose bare except swallows every stop, inside the loop, cannot be stopped: timelimit.py says so.)"""
    import time

    from ctxlib.course import timelimit

    def swallows_one_stop(xs):
        try:
            _forever()
        except BaseException:  # noqa: BLE001  a learner's bare except, which a KeyboardInterrupt meets too
            pass
        _forever()

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 1)
    for answer in (swallows_one_stop, lambda xs: time.sleep(3_600)):
        started = time.monotonic()
        assert run_cases(answer, SEQUENCE_CASES).outcome == "error"
        assert time.monotonic() - started < 10


def test_the_time_limit_is_for_the_whole_check_and_a_slow_right_answer_passes(monkeypatch):
    import time

    from ctxlib.course import timelimit

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 5)

    def slow_but_right(xs):
        time.sleep(0.05)
        return sorted(xs)

    assert run_cases(slow_but_right, SEQUENCE_CASES).outcome == "passed"


def test_a_huge_print_is_cut_once_in_the_learners_language(capsys):
    from ctxlib.course.exercises import MAX_SHOWN_CHARS

    def prints_a_lot(xs):
        for _ in range(50):
            print("x" * 1_000)
        return sorted(xs)

    for lang, cut in (("en", "[the rest of what your code printed is not shown: more than 20,000 characters]"),
                      ("hi", "[आपके code ने जो बाक़ी print किया, वह नहीं दिखाया गया: 20,000 से ज़्यादा characters]")):
        result = run_cases(prints_a_lot, SEQUENCE_CASES, lang)
        out = capsys.readouterr().out
        assert result.outcome == "passed"
        shown, rest = out.split("\n" + cut + "\n")  # once, at the end
        assert len(shown) == MAX_SHOWN_CHARS and set(shown) == {"x", "\n"} and rest == ""


def test_a_numpy_array_is_the_list_it_holds_and_a_wrong_one_is_explained():
    import numpy

    assert run_cases(lambda xs: numpy.array(sorted(xs)), SEQUENCE_CASES).outcome == "passed"
    wrong = run_cases(lambda xs: numpy.array(sorted(xs, reverse=True)), SEQUENCE_CASES)
    assert wrong.outcome == "failed" and wrong.message.endswith(": the right items, in the wrong order.")
    strings = [Case(("ab",), ["a", "b"], {"en": "for ab", "hi": "ab के लिए"})]
    assert run_cases(lambda s: numpy.array(list(s)), strings).outcome == "passed"  # numpy's str_ is the text it holds


# --- a hostile tester's round: a missing return, stderr, an attribute dict ----------------------------------

@pytest.mark.parametrize("lesson, question_id", FUNCTION_EXERCISES)
def test_a_written_body_that_forgets_return_fails_and_says_so(lesson, question_id):
    """The solution's body with its result dropped: it was written, so it fails (and is recorded), and is told to
    return; until this round it was "not attempted", as if untouched."""
    en, hi = exercise(lesson, question_id, "en"), exercise(lesson, question_id, "hi")
    solution = solution_of(en)

    def forgot(*args):
        solution(*args)  # the result computed, and not handed back

    result = en.run(forgot)
    assert (result.outcome, result.passed) == ("failed", 0)
    assert result.message.endswith(", forgot returned None. Does it end with return? A function hands its result back "
                                   "with return.")
    assert hi.run(forgot).message.endswith(", forgot ने None लौटाया। क्या उसके आख़िर में return है? Function अपना "
                                           "नतीजा return से लौटाता है।")
    assert en.run(starter_of(en)).outcome == "not attempted"


def test_what_the_code_writes_to_stderr_is_capped_too(capsys):
    import logging
    import sys

    def noisy(name, text, terms):
        for i in range(3_000):
            print("debug", name, i, file=sys.stderr)
        logging.warning("scored %s", name)
        return score_file(name, text, terms)

    result = exercise(LESSON, "own_scorer", "en").run(noisy)
    err = capsys.readouterr().err
    assert result.outcome == "passed" and len(err) < ex.MAX_SHOWN_CHARS + 200
    assert err.rstrip().endswith("[the rest of what your code printed is not shown: more than 20,000 characters]")


def test_an_answer_whose_getattr_raises_is_graded_not_a_traceback():
    class Config(dict):  # the "attribute dict" idiom: a missing attribute raises KeyError
        __getattr__ = dict.__getitem__

    about = {"en": "for the settings", "hi": "settings के लिए"}
    rule = [Case(None, ex.Property(lambda answer: answer["budget"] == 2_000), about)]  # as the capstone reads its dict
    assert run_cases(Config(budget=2_000), rule).outcome == "passed"
    assert run_cases(Config(budget=9), rule, name="capstone").message.startswith("Not yet: For the settings, capstone is")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_prediction_that_is_none_is_a_wrong_value_not_an_untouched_starter(lang):
    """predicted_at_75 = names.append("shop/cart.py") is None: it was "not attempted" (not recorded), and told that it
    "still returns None, as the starter does. Write its body", though the starter is ... and a value has no body."""
    names = ["tests/test_pricing.py"]
    predicted_at_75 = names.append("shop/cart.py")  # the beginner's slip: append returns None
    result = exercise("01_window_as_budget", "predict_75", lang).run(predicted_at_75)
    assert result.outcome == "failed", result.message
    assert result.message.endswith({"en": "predicted_at_75 is None: it is None, not a list.",
                                    "hi": "predicted_at_75 None है: यह None है, list नहीं।"}[lang])
    assert exercise("01_window_as_budget", "predict_75", lang).run(...).outcome == "not attempted"
    assert exercise("01_window_as_budget", "own_packer", lang).run(None).outcome == "not attempted"


class _EndlessRepr(list):
    def __repr__(self):
        _forever()


class _EndlessCopy(list):
    def __deepcopy__(self, memo):
        _forever()


class _EndlessEq:
    def __eq__(self, other):
        _forever()


def _appends_endless_eq(xs):
    result = sorted(xs)
    if xs:
        xs[0] = _EndlessEq()  # the same length: list == asks each item
    return result


@pytest.mark.parametrize("way", ["signal", "trace"])
@pytest.mark.parametrize("answer", [lambda xs: _EndlessRepr([9]), lambda xs: _EndlessCopy([9]), _appends_endless_eq],
                         ids=["repr", "deepcopy", "eq_of_a_changed_argument"])
def test_a_result_whose_own_methods_never_return_is_stopped_too(way, answer, monkeypatch):
    # The call returned, then the check hung for ever outside the time limit: the failure message's repr of the
    # result, its deep copy (the result as it was) and the == that tells whether the argument was changed are the
    # learner's code too (round s42).
    import time

    from ctxlib.course import timelimit

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 1)
    if way == "trace":
        monkeypatch.setattr(timelimit, "_signals_usable", lambda: False)
    started = time.monotonic()
    result = run_cases(answer, SEQUENCE_CASES)
    assert time.monotonic() - started < 10
    assert result.outcome == "error" and "still running after 1 seconds" in result.message


def test_not_implemented_in_a_later_case_is_no_pass():
    # NotImplementedError in the second case left `same` as the first case's: it counted as passed (round s42).
    def first_only(xs):
        if not xs:
            raise NotImplementedError
        return sorted(xs)

    result = run_cases(first_only, SEQUENCE_CASES)
    assert result.outcome == "failed" and result.passed == 1 and "NotImplementedError" in result.message


class _EndlessLen(list):
    def __len__(self):
        while True:
            pass


class _EndlessIter(list):
    def __iter__(self):
        while True:
            pass


class _EndlessItem(dict):
    def __getitem__(self, key):
        while True:
            pass


@pytest.mark.parametrize("way", ["signal", "trace"])
@pytest.mark.parametrize("question, answer", [
    ("predict_75", _EndlessLen(["shop/vat.py"])),  # a value compared with ==: its len never returned
    ("predict_knapsack", _EndlessIter(["shop/vat.py"])),  # a Property: set(paths(got)) reads their list
    ("capstone", _EndlessItem(root=".", task="vat", budget=2000, essential=["shop/vat.py"])),  # "untouched" rule first
], ids=["value", "property", "untouched_rule"])
def test_a_value_answer_whose_own_methods_never_return_is_stopped(question, answer, way, monkeypatch):
    # A value (predicted = ...) was compared outside the time limit, and so was a capstone's "not attempted yet"
    # rule: the cell hung for ever (killed at 60 s; round s43). Properties run the traced way, so that a capstone's
    # pack of a big repository, ctxlib's own code, is never stopped.
    import time

    from ctxlib.course import timelimit

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 1)
    if way == "trace":
        monkeypatch.setattr(timelimit, "_signals_usable", lambda: False)
    lesson = "01_window_as_budget" if question == "predict_75" else "03_real_repository"
    started = time.monotonic()
    result = exercise(lesson, question).run(answer)
    assert time.monotonic() - started < 10
    assert result.outcome == "error" and "still running after 1 seconds" in result.message


def _forever_on_one_line(*args):
    while True: pass  # noqa: E701  the loop is on one line, as a learner may write it


def test_a_loop_on_one_line_is_stopped_in_the_traced_way_too(monkeypatch):
    # Before Python 3.12 a loop on one line gives no line event after its first round: in the traced way (Windows,
    # another thread, a Property's check) the cell hung for ever (round s43); its code is now traced by opcode there.
    import time

    from ctxlib.course import timelimit

    monkeypatch.setattr(timelimit, "TIME_LIMIT_SECONDS", 1)
    monkeypatch.setattr(timelimit, "_signals_usable", lambda: False)
    started = time.monotonic()
    result = run_cases(_forever_on_one_line, SEQUENCE_CASES)
    assert time.monotonic() - started < 10
    assert result.outcome == "error" and "still running after 1 seconds" in result.message
