"""Removal rules, the loop under a rule, and the cost model: hand-computed cases and invariants."""
import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxlib.cost import ANTHROPIC, NO_CACHE, OPENAI, Pricing, cached_prefix_tokens, cached_share, request_costs, run_cost
from ctxlib.overflow import (CURRENT_FILE, LATEST_DIFF, TRACEBACKS, Run, Step, chapter_run, exploration_run,
                             run_loop, tokens_by_kind)
from ctxlib.removal import (Rule, compaction, compose, cut_head, drop_superseded_diffs, head_and_tail, head_trim,
                            keep_head_and_tail, keep_tail, make_block, mask, no_removal, observation_masking,
                            placeholder_text, replace_stale_copies, summarize_span)
from ctxlib.transcript import Loop, simulate

FAST = settings(max_examples=60, deadline=None)


def sizes(blocks):
    return [b.tokens for b in blocks]


def transcript():
    return [make_block("fixed_prefix", 100, "prefix"), make_block("task", 10, "task"),
            make_block("edit", 30, "diff a 1", path="a.py", attempt=1),
            make_block("diagnostics", 50, "pytest 1", attempt=1, tracebacks_tokens=20),
            make_block("file_read", 40, "read a.py", path="a.py", version=1),
            make_block("edit", 30, "diff a 2", path="a.py", attempt=2),
            make_block("diagnostics", 60, "pytest 2", attempt=2, tracebacks_tokens=20)]


def test_cut_head_and_head_and_tail_keep_exact_stretches():
    block = make_block("diagnostics", 100, "d", tracebacks_tokens=30)
    cut = cut_head(block, 40)
    assert cut.tokens == 60 and cut.kept == ((40, 100),) and not cut.holds(0, 30)
    both = keep_head_and_tail(block, 30, 10)
    assert both.kept == ((0, 30), (90, 100)) and both.tokens == 40 and both.holds(0, 30)
    assert cut_head(both, 35).kept == ((95, 100),)


def test_head_trim_cuts_only_tool_output_oldest_first():
    blocks, removals = head_trim(transcript(), 250)  # total 320: 70 over
    assert sizes(blocks) == [100, 10, 30, 0, 20, 30, 60]
    assert [(r.label, r.tokens) for r in removals] == [("pytest 1", 50), ("read a.py", 20)]


def test_keep_tail_leaves_each_output_its_tail():
    blocks, _ = keep_tail(transcript(), 230, tail_tokens=15)  # 90 over: 35 + 25, then 30 of the last
    assert sizes(blocks) == [100, 10, 30, 15, 15, 30, 30]
    blocks, _ = keep_tail(transcript(), 0, tail_tokens=15)  # every output at its tail, still over
    assert sizes(blocks) == [100, 10, 30, 15, 15, 30, 15]


def test_head_and_tail_cuts_the_middle_of_long_outputs_only():
    blocks, removals = head_and_tail(transcript(), 10_000, max_tokens=45, head_tokens=25, tail_tokens=10)
    assert sizes(blocks) == [100, 10, 30, 35, 40, 30, 35]
    assert blocks[-1].holds(0, 20) and [r.tokens for r in removals] == [15, 25]
    with pytest.raises(ValueError, match="head_tokens \\+ tail_tokens"):
        head_and_tail(transcript(), 10, max_tokens=10, head_tokens=8, tail_tokens=8)


def test_observation_masking_keeps_the_last_outputs_and_says_what_was_there():
    blocks, removals = observation_masking(transcript(), 10_000, keep_last=1)
    assert [b.masked for b in blocks] == [False] * 3 + [True, True, False, False]
    assert placeholder_text(transcript()[3]) == "[pytest 1: 50 tokens of diagnostics, removed to save space]"
    assert blocks[3].tokens == len(placeholder_text(transcript()[3])) // 4 == 14
    assert [r.tokens for r in removals] == [50 - 14, 40 - len(placeholder_text(transcript()[4])) // 4]
    again, more = observation_masking(blocks, 10_000, keep_last=1)
    assert again == blocks and more == []
    with pytest.raises(ValueError, match="keep_last"):
        observation_masking(transcript(), 10, keep_last=0)


def test_superseded_diffs_and_stale_copies_are_dropped():
    blocks, removals = drop_superseded_diffs(transcript(), 0)
    assert [b.label for b in blocks if b.kind == "edit"] == ["diff a 2"] and removals[0].tokens == 30
    reread = transcript() + [make_block("file_read", 45, "read a.py again", path="a.py", version=2)]
    blocks, removals = replace_stale_copies(reread, 0)
    assert [b.label for b in blocks if b.kind == "file_read"] == ["read a.py again"]
    assert [r.label for r in removals] == ["read a.py"]


def test_summarize_span_spares_the_recent_blocks_and_the_latest_diagnostics():
    blocks, removals = summarize_span(transcript(), 200, keep_last=1, summary_tokens=25)
    assert [b.label for b in blocks][:3] == ["prefix", "task", "summary of 4 blocks (150 tokens)"]
    assert sizes(blocks) == [100, 10, 25, 60] and len(removals) == 4
    assert summarize_span(transcript(), 1_000) == (transcript(), [])


def test_compaction_acts_only_past_its_threshold_and_goes_down_to_the_low_mark():
    kwargs = dict(window_tokens=400, threshold=0.8, low_mark=0.5, summary_tokens=10)
    assert compaction(transcript(), 0, **kwargs) == (transcript(), [])  # 320 = 0.8 x 400: not past it
    longer = transcript() + [make_block("search_results", 20, "hits")]  # 340 > 320
    blocks, removals = compaction(longer, 0, **kwargs)
    # oldest first, each time checking 340 - freed + 10 (the summary) against 200: diff 1 (320),
    # pytest 1 (270), read (230), diff 2 (200): stop; pytest 2 is the latest diagnostics anyway.
    assert [r.label for r in removals] == ["diff a 1", "pytest 1", "read a.py", "diff a 2"]
    assert sum(sizes(blocks)) == 200 and [b.label for b in blocks][-2:] == ["pytest 2", "hits"]
    with pytest.raises(ValueError, match="low_mark"):
        compaction(transcript(), 0, window_tokens=400, threshold=0.5, low_mark=0.6)


def test_rules_compose_in_order_and_are_named():
    rule = compose(drop_superseded_diffs, Rule(keep_tail, tail_tokens=15))
    assert rule.name == "drop_superseded_diffs + keep_tail(tail_tokens=15)"
    blocks, removals = rule(transcript(), 200)  # 290 after the drop: 90 over
    assert sizes(blocks) == [100, 10, 15, 15, 30, 30] and [r.rule for r in removals] == [
        "drop_superseded_diffs", "keep_tail", "keep_tail", "keep_tail"]


@pytest.mark.parametrize("fill", [70_000, 94_000, 120_000, 176_412, 180_000])
def test_head_trim_in_the_loop_is_lesson_2s_simulator(fill):
    diagnostics = (24_000, 60_000, 24_000, 24_000)
    ours = run_loop(chapter_run(fill, diagnostics), head_trim)
    theirs = simulate(Loop(fill_tokens=fill, diagnostics_tokens=diagnostics))
    assert [(t.input_tokens, t.max_tokens, t.stop_reason) for t in ours.turns] == [
        (r.input_tokens, r.max_tokens, r.stop_reason) for r in theirs.records]


def test_head_lost_is_what_went_from_the_head():
    block = make_block("diagnostics", 18_000, "pytest, attempt 1", attempt=1)
    assert block.head_lost == 0
    assert cut_head(block, 16_412).head_lost == 16_412
    assert cut_head(cut_head(block, 10_000), 2_000).head_lost == 12_000  # two cuts add up
    assert keep_head_and_tail(block, 4_000, 2_000).head_lost == 0  # a middle cut keeps the head
    assert mask(block).head_lost == 18_000  # a placeholder holds none of the original


def test_head_trim_loses_the_latest_tracebacks_on_turn_3_with_a_120000_fill():
    # Request 3: 130,000 + 2 x 6,000 + 24,000 + 60,000 = 226,000, 32,000 over 194,000:
    # attempt 1's 24,000 go, then the first 8,000 of the 60,000 cascade, its tracebacks.
    outcome = run_loop(chapter_run(120_000), head_trim)
    assert outcome.first_lost == {TRACEBACKS: 3}
    assert [r.tokens for r in outcome.turns[2].removals] == [24_000, 8_000]


def test_no_removal_is_refused_once_the_window_is_passed():
    outcome = run_loop(chapter_run(70_000), no_removal)
    assert [t.input_tokens for t in outcome.turns] == [80_000, 110_000, 176_000, 206_000]
    assert outcome.stop_reason == "context_length_exceeded" and outcome.turns[-1].max_tokens == 0


def test_compaction_loses_the_latest_diff_and_masking_the_current_file():
    assert run_loop(chapter_run(70_000), Rule(compaction, window_tokens=200_000)).first_lost == {LATEST_DIFF: 3}
    steps = (Step("edit", 100, "diagnostics", 500, "a.py", 100), Step("model_message", 50, "file_read", 300, "a.py"),
             Step("model_message", 50, "search_results", 200), Step("model_message", 50))
    outcome = run_loop(Run(steps, window_tokens=10_000, reply_reserve_tokens=0, fixed_prefix_tokens=1_000, task_tokens=100), Rule(observation_masking, keep_last=1))
    assert outcome.first_lost == {TRACEBACKS: 3, (CURRENT_FILE, "a.py"): 4}


def test_the_exploration_run_is_the_same_every_time():
    run = exploration_run()
    assert run == exploration_run() and len(run.steps) == 40
    kinds = {s.output_kind for s in run.steps}
    assert kinds == {"file_read", "search_results", "diagnostics"}
    rows = tokens_by_kind(run_loop(run, Rule(observation_masking, keep_last=10)))
    assert rows[-1]["masked"] > 0 and rows[0]["masked"] == 0


def test_cost_counts_the_shared_prefix_hand_computed():
    a, b, c = make_block("task", 2_000, "a"), make_block("edit", 500, "b"), make_block("diagnostics", 700, "c")
    assert cached_prefix_tokens([a, b], [a, b, c]) == 2_500
    assert cached_prefix_tokens([a, b], [a, mask(b), c]) == 2_000
    assert cached_prefix_tokens([b], [b, c]) == 0  # 500 < the 1,024-token minimum
    costs = request_costs([[a, b], [a, b, c]], ANTHROPIC)
    assert [(x.cached_tokens, x.written_tokens) for x in costs] == [(0, 2_500), (2_500, 700)]
    assert costs[1].billed == pytest.approx(2_500 * 0.10 + 700 * 1.25)
    assert request_costs([[a, b], [a, b, c]], NO_CACHE)[1].billed == 3_200
    assert cached_share([("p", 9_000), ("t", 1_000), ("d", 18_000)],
                        [("p", 9_000), ("t", 1_000), ("d masked", 20), ("e", 6_000)]) == pytest.approx(10_000 / 16_020)
    with pytest.raises(ValueError, match="read_fraction"):
        Pricing("bad", -1, 1)


def test_masking_breaks_the_cache_every_turn_and_compaction_rarely():
    run = exploration_run()  # 40 turns in a 32,768-token window
    masking = run_cost(run_loop(run, Rule(observation_masking, keep_last=10)))
    compacting = run_cost(run_loop(run, Rule(compaction, window_tokens=run.window_tokens)))
    trimming = run_cost(run_loop(run, head_trim))
    assert (masking.cache_misses, compacting.cache_misses) == (29, 2)
    assert masking.input_tokens < compacting.input_tokens < trimming.input_tokens  # masking sends least ...
    assert masking.billed_with_cache > 2.5 * compacting.billed_with_cache  # ... but with a cache it pays most
    roomy = exploration_run(window_tokens=128_000)
    assert run_cost(run_loop(roomy, no_removal)).cache_misses == 0  # only appending never breaks the cache


# --- invariants -------------------------------------------------------------------------------------

RULES = {
    "no_removal": no_removal, "head_trim": head_trim, "keep_tail": Rule(keep_tail, tail_tokens=500),
    "head_and_tail": Rule(head_and_tail, max_tokens=3_000, head_tokens=1_000, tail_tokens=500),
    "observation_masking": Rule(observation_masking, keep_last=2),
    "drop_superseded_diffs": drop_superseded_diffs, "replace_stale_copies": replace_stale_copies,
    "summarize_span": Rule(summarize_span, keep_last=2, summary_tokens=300),
    "compaction": Rule(compaction, window_tokens=40_000, threshold=0.6, low_mark=0.3, summary_tokens=300),
    "composed": compose(drop_superseded_diffs, replace_stale_copies, head_trim),
}
MAY_CUT_LATEST = {"head_trim", "keep_tail", "head_and_tail", "observation_masking", "composed"}
step = st.builds(
    Step, reply_kind=st.sampled_from(["edit", "model_message"]), reply_tokens=st.integers(0, 3_000),
    output_kind=st.sampled_from([None, "file_read", "search_results", "diagnostics"]),
    output_tokens=st.integers(0, 12_000), path=st.sampled_from(["a.py", "b.py"]), tracebacks_tokens=st.just(0))
runs = st.builds(Run, steps=st.lists(step, min_size=1, max_size=14).map(tuple), window_tokens=st.integers(5_000, 60_000),
                 reply_reserve_tokens=st.integers(0, 4_000), fixed_prefix_tokens=st.integers(0, 3_000),
                 task_tokens=st.integers(0, 1_000), fill_tokens=st.integers(0, 20_000))


@FAST
@given(runs, st.sampled_from(sorted(RULES)))
def test_no_rule_removes_a_pinned_block_and_no_sent_request_exceeds_the_window(run, name):
    outcome = run_loop(run, RULES[name])
    assert 1 <= len(outcome.turns) <= len(run.steps)  # it terminates, one request per step at most
    for turn in outcome.turns:
        pinned = [b for b in turn.blocks if b.pinned]
        assert [b.kind for b in pinned][:2] == ["fixed_prefix", "task"] and all(b.whole for b in pinned)
        if turn.stop_reason != "context_length_exceeded":
            assert turn.input_tokens + turn.max_tokens == run.window_tokens and turn.max_tokens >= 1
        assert all(r.tokens >= 0 for r in turn.removals)
    assert all(t.stop_reason == "end_turn" for t in outcome.turns[:-1])


@FAST
@given(runs, st.sampled_from(sorted(RULES)))
def test_the_latest_diagnostics_go_only_under_rules_that_say_so(run, name):
    rule = RULES[name]
    outcome = run_loop(run, no_removal)
    for turn in outcome.turns:
        blocks = list(turn.blocks)
        latest = [i for i, b in enumerate(blocks) if b.kind == "diagnostics"]
        if not latest:
            continue
        after, _ = rule(blocks, run.target_tokens)
        kept = [b for b in after if b.label == blocks[latest[-1]].label]
        cut = not kept or kept[0].tokens < blocks[latest[-1]].tokens
        older_left = any(not b.pinned and b.tokens and b.label != blocks[latest[-1]].label
                         and b.turn < blocks[latest[-1]].turn for b in after)
        if cut and older_left:
            assert name in MAY_CUT_LATEST, f"{name} cut the latest diagnostics"


def test_rules_that_may_cut_the_latest_diagnostics_say_so():
    def says_so(function):
        return "may remove the latest diagnostics" in " ".join(inspect.getdoc(function).lower().split())

    assert all(says_so(f) for f in (head_trim, keep_tail, head_and_tail, observation_masking))
    assert not any(says_so(f) for f in (drop_superseded_diffs, replace_stale_copies, summarize_span, compaction))


@FAST
@given(runs, st.sampled_from(sorted(RULES)), st.sampled_from([ANTHROPIC, OPENAI, NO_CACHE]))
def test_billed_and_cached_counts_are_never_negative(run, name, pricing):
    outcome = run_loop(run, RULES[name])
    cost = run_cost(outcome, pricing)
    assert 0 <= cost.cached_tokens <= cost.input_tokens and cost.written_tokens >= 0
    assert cost.billed_with_cache >= 0 and cost.billed_no_cache == cost.input_tokens
    for c in request_costs([t.blocks for t in outcome.turns], pricing):
        assert 0 <= c.cached_tokens <= c.input_tokens and c.billed >= 0


def test_bad_input_gets_one_line_naming_the_value():
    with pytest.raises(ValueError, match="steps\\[0\\].reply_kind must be 'edit' or 'model_message', got 'patch'"):
        Run((Step("patch", 10),))
    with pytest.raises(ValueError, match="tracebacks_tokens must be <= its output_tokens \\(100\\), got 200"):
        Run((Step("edit", 10, "diagnostics", 100, "a.py", 200),))
    with pytest.raises(ValueError, match="a run needs at least one step"):
        Run(())
    with pytest.raises(ValueError, match="kind must be one of"):
        make_block("log", 10, "x")
    with pytest.raises(ValueError, match="target_tokens must be a whole number of tokens >= 0, got -1"):
        head_trim(transcript(), -1)


def test_masking_with_polling_moves_the_masked_stretch_in_steps():
    from ctxlib.removal import make_block, observation_masking

    def outputs(n):
        return [make_block("file_read", 500, f"read {i}", turn=i, path=f"f{i}.py") for i in range(n)]

    def masked(n, polling):
        blocks, _ = observation_masking(outputs(n), 100_000, keep_last=10, polling=polling)
        return sum(b.masked for b in blocks)

    # SWE-agent's LastNObservations: (n // polling) * polling - keep_last of the oldest are masked.
    assert [masked(n, 1) for n in (10, 11, 24)] == [0, 1, 14]
    assert [masked(n, 5) for n in (14, 15, 19, 20, 24)] == [0, 5, 5, 10, 10]
    assert [masked(n, 10) for n in (19, 20, 29, 30)] == [0, 10, 10, 20]
    with pytest.raises(ValueError, match="polling"):
        observation_masking(outputs(3), 100_000, polling=0)


def test_polling_lets_masking_keep_the_cache():
    # Lesson 4, section 7: keep 10 on the 40-turn run, Anthropic's cache, against compaction's 133,128.
    from ctxlib.cost import ANTHROPIC, run_cost
    from ctxlib.overflow import exploration_run, run_loop
    from ctxlib.removal import Rule, observation_masking

    run = exploration_run()
    billed = [round(run_cost(run_loop(run, Rule(observation_masking, keep_last=10, polling=p)), ANTHROPIC)
                    .billed_with_cache) for p in (1, 5, 10)]
    assert billed == [376_754, 158_771, 133_391]
