"""The real runs shipped for Lesson 4: the figures the lesson and the paper state, computed from the files."""
import pytest

from ctxlib.course.runs import TASKS, full_runs, load_runs, saving, strategy_table


@pytest.fixture(scope="module")
def table():
    return {(r.model, r.strategy): r for r in strategy_table(full_runs(load_runs()))}


def test_qwen3_coder_figures(table):
    raw, masking = table[("Qwen3-Coder 480B", "Raw Agent")], table[("Qwen3-Coder 480B", "Observation Masking")]
    # Nearest rank, the course's one percentile rule: the 250th of 500 sorted values (interpolating
    # between the 250th and 251st would give 19,204 and 10,249).
    assert (raw.input_tokens_p50, masking.input_tokens_p50) == (19_151, 10_246)
    assert (raw.solve_rate, masking.solve_rate) == (0.534, 0.548)
    assert (raw.instances, raw.turns_p50, masking.turns_p50) == (500, 49, 53)
    # The paper's $1.29 -> $0.61 per task, and $0.64 for summarization with the summarizer's calls.
    assert round(raw.mean_cost_usd, 2) == 1.29 and round(masking.mean_cost_usd, 2) == 0.61
    assert round(table[("Qwen3-Coder 480B", "LLM-Summary")].mean_cost_usd, 2) == 0.64
    assert table[("Qwen3-Coder 480B", "LLM-Summary")].solve_rate == 0.538


def test_five_models_three_strategies_on_500_tasks(table):
    assert len(table) == 15 and TASKS == 500
    assert all(r.instances <= 500 and 0 < r.solve_rate < 1 for r in table.values())


def test_saving_is_one_minus_the_ratio(table):
    rows = list(table.values())
    assert saving(rows, "Qwen3-Coder 480B") == pytest.approx(1 - 10_246 / 19_151)


def test_p50_is_the_nearest_rank_value_lesson_2_uses(table):
    from ctxlib.course.runs import mean_input_tokens

    values = sorted(mean_input_tokens())  # Gemini 2.5 Flash, raw agent: 498 tasks
    assert table[("Gemini 2.5 Flash", "Raw Agent")].input_tokens_p50 == values[248] == 8_671  # rank ceil(249)


def test_openhands_rows_one_run_each():
    rows = {r.strategy: r for r in strategy_table(full_runs(load_runs("openhands")))}
    assert {s: r.instances for s, r in rows.items()} == {"Raw Agent": 500, "Observation Masking": 500,
                                                          "LLM-Summary": 500}
    # The default masking window runs into the 250-turn limit; the summary solves the most.
    assert rows["Observation Masking"].turns_p50 == 246
    assert (rows["Raw Agent"].solve_rate, rows["Observation Masking"].solve_rate,
            rows["LLM-Summary"].solve_rate) == (0.346, 0.234, 0.372)


def test_unknown_agent_is_refused():
    with pytest.raises(ValueError, match="agent must be one of"):
        load_runs("aider")


def test_mean_input_tokens_per_call_of_gemini_flash_raw_runs():
    from ctxlib.course.runs import mean_input_tokens

    values = sorted(mean_input_tokens())
    # The data's README: Gemini 2.5 Flash, raw agent, 498 tasks, p50 8,676 (linear interpolation).
    assert len(values) == 498
    assert (values[248] + values[249]) / 2 == pytest.approx(8_676, abs=10)
    with pytest.raises(ValueError, match="no SWE-agent runs for model 'nobody'"):
        mean_input_tokens("nobody")
