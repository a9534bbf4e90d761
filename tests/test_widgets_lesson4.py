"""Lesson 4's tables, explorer callback, chart and exercise checkers, checked without a browser."""
import warnings

import pytest

from ctxlib.cost import ANTHROPIC
from ctxlib.overflow import chapter_run, exploration_run, run_loop
from ctxlib.removal import Rule, head_trim, no_removal, observation_masking
from ctxlib.course.charts import removal_chart
from ctxlib.course.checks.lesson4 import cached_share_cases, masking_cases, run_cost_cases, superseded_cases
from ctxlib.course.exercises import run_cases
from ctxlib.course.quiz import load_quiz
from ctxlib.course.widgets import (Explorer, compare_rules, cost_table, describe_turns, make_removal_explorer,
                                   rerun_removal)

DEFAULT = """\
observation_masking(keep_last=10) on the 40-turn exploration run
40 requests, last stop_reason end_turn; mean input 13,830 tokens per request
removed 18,205 tokens over the run; lost: the current version of src/module_05.py from turn 19
billed input 553,214 tokens; with a prompt cache (Anthropic (5-minute cache)) 376,754 input-token equivalents, 29 cache misses"""


def test_default_result_is_masking_the_40_turn_run():
    assert rerun_removal() == DEFAULT


def test_head_trim_on_lesson_2s_loop_loses_the_tracebacks_at_turn_3():
    text = rerun_removal("head_trim", run="chapter")
    assert "lost: the latest tracebacks from turn 3" in text and "4 requests, last stop_reason end_turn" in text


def test_hindi_result_comes_from_the_catalog():
    text = rerun_removal(lang="hi")
    assert "हर request का औसत input 13,830 tokens" in text and "19 से src/module_05.py का मौजूदा version" in text


def test_a_bad_rule_gives_one_line():
    assert rerun_removal("shuffle") .startswith("cannot run the loop: rule must be one of")


def test_explorer_prints_its_default_and_reads_as_a_note(capsys):
    explorer = make_removal_explorer("en")
    assert isinstance(explorer, Explorer) and capsys.readouterr().out.strip().endswith(DEFAULT)
    assert repr(explorer).startswith("[removal explorer")


def test_tables_show_turns_removals_and_losses():
    outcome = run_loop(chapter_run(120_000), head_trim)
    text = str(describe_turns(outcome, "en"))
    assert "   3  194,000       6,000  end_turn     cut from the head 2 (32,000)  the latest tracebacks" in text
    rules = str(compare_rules([outcome, run_loop(chapter_run(120_000), no_removal)], "en"))
    assert "head_trim" in rules and "context_length_exceeded" in rules
    cost = str(cost_table([run_loop(exploration_run(), Rule(observation_masking, keep_last=10))], ANTHROPIC, "en"))
    assert "553,214  49%                     29            376,754" in cost


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_removal_chart_draws_one_panel_per_rule(lang):
    outcomes = [run_loop(chapter_run(120_000), rule) for rule in (no_removal, head_trim)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph would warn
        fig = removal_chart(outcomes, lang, columns=2)
        fig.canvas.draw()
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 2
    assert [ax.get_title() for ax in fig.axes] == ["no_removal", "head_trim"]
    with pytest.raises(ValueError, match="at least one outcome"):
        removal_chart([], lang)


@pytest.mark.parametrize("question_id, cases", [("own_masking", masking_cases), ("own_superseded", superseded_cases),
                                                ("own_cached_share", cached_share_cases),
                                                ("own_run_cost", run_cost_cases)])
def test_each_exercise_passes_its_solution_and_fails_a_slip(question_id, cases):
    question = load_quiz("04_what_to_remove", "en").question(question_id)
    namespace = {}
    exec(question.solution, namespace)
    answer = namespace[next(k for k in namespace if k.startswith("my_"))]
    assert run_cases(answer, cases()).outcome == "passed"
    starter = {}
    exec(question.starter, starter)
    assert run_cases(starter[next(k for k in starter if k.startswith("my_"))], cases()).outcome == "not attempted"
    assert run_cases(lambda *args: 0, cases()).outcome == "failed"
