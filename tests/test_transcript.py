"""The transcript simulator: hand-computed runs, the chapter's trace, overflow, properties."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxlib.ledger import read_ledger, write_ledger
from ctxlib.overflow import chapter_run, run_loop
from ctxlib.removal import Block, head_trim, make_block
from ctxlib.transcript import LOOP_KINDS, Loop, as_run, format_trace, lesson2_rule, occupancy, simulate

FAST = settings(max_examples=80, deadline=None)


def summary(simulation):
    return [(r.attempt, r.input_tokens, r.max_tokens, r.output_tokens, r.stop_reason)
            for r in simulation.records]


def trim(blocks, target_tokens, keep_tail_tokens=0):
    """Lesson 2's rule on ``blocks``: (blocks kept, tokens trimmed)."""
    kept, removals = lesson2_rule(Loop(keep_tail_tokens=keep_tail_tokens))(blocks, target_tokens)
    return kept, sum(r.tokens for r in removals)


def test_trim_cuts_the_oldest_evictable_block_from_its_head_first():
    blocks = [make_block("task", 10, "task"),
              make_block("diagnostics", 8, "first"),
              make_block("diagnostics", 5, "second")]
    kept, trimmed = trim(blocks, 12)
    assert trimmed == 11
    assert [(b.label, b.tokens, b.head_lost) for b in kept] == [
        ("task", 10, 0), ("first", 0, 8), ("second", 2, 3)]


def test_trim_leaves_pinned_blocks_even_above_the_target():
    blocks = [make_block("retrieved_file", 30, "files"), make_block("diagnostics", 4, "log")]
    kept, trimmed = trim(blocks, 20)
    assert trimmed == 4 and sum(b.tokens for b in kept) == 30
    assert trim(blocks, 40) == (blocks, 0)


def test_the_exact_trace_comes_from_a_176412_fill():
    run = simulate(Loop(fill_tokens=176_412))
    assert summary(run) == [
        (1, 186_412, 13_588, 6_000, "end_turn"),
        # 210,412 before the trim; 16,412 cut from the head of attempt 1's diagnostics.
        (2, 194_000, 6_000, 6_000, "end_turn"),
        # Every diagnostics token is gone: 9,000 + 1,000 + 176,412 + 2 x 6,000 = 198,412.
        (3, 198_412, 1_588, 1_588, "max_tokens"),
    ]
    assert [r.trimmed_tokens for r in run.records] == [0, 16_412, 19_588]
    assert format_trace(run.records[-1], 4) == (
        "attempt 3/4  model=coding-agent-v2  input_tokens=198,412  max_tokens=1,588\n"
        "[stop_reason: max_tokens]")
    assert run.stop_reason == "max_tokens" and run.error is None


def test_turn_2_reads_only_the_tail_of_its_diagnostics():
    run = simulate(Loop(fill_tokens=176_412))
    diagnostics = [b for b in run.transcripts[1] if b.kind == "diagnostics"]
    assert [(b.label, b.attempt, b.tokens, b.head_lost) for b in diagnostics] == [
        ("diagnostics of attempt 1 (turn 1)", 1, 1_588, 16_412)]


def test_the_chapter_s_stated_180000_fill_stops_on_attempt_2():
    # 9,000 + 1,000 + 180,000 + 6,000 pinned = 196,000: 4,000 left for a 6,000 patch.
    run = simulate(Loop())
    assert summary(run) == [(1, 190_000, 10_000, 6_000, "end_turn"),
                            (2, 196_000, 4_000, 4_000, "max_tokens")]


def test_without_a_reply_reserve_the_trimmed_request_has_no_reply_room():
    run = simulate(Loop(reply_reserve_tokens=0))
    assert summary(run)[-1] == (2, 200_000, 0, 0, "context_length_exceeded")
    assert run.error == "the input of 200,000 tokens fills the whole window and leaves no reply room"


@pytest.mark.parametrize("fill, diagnostics, last_input", [
    (94_000, 18_000, 176_000),   # 10,000 + 94,000 + 3 x 24,000
    (70_000, 24_000, 170_000),   # 10,000 + 70,000 + 3 x 30,000
])
def test_the_ceiling_fills_survive_all_four_attempts(fill, diagnostics, last_input):
    run = simulate(Loop(fill_tokens=fill, diagnostics_tokens=diagnostics))
    assert [r.stop_reason for r in run.records] == ["end_turn"] * 4
    assert run.records[-1].input_tokens == last_input
    assert sum(r.trimmed_tokens for r in run.records) == 0


def test_a_separate_output_limit_turns_the_cut_patch_into_a_hard_error():
    run = simulate(Loop(output_limit_tokens=32_000))
    assert summary(run) == [(1, 190_000, 32_000, 6_000, "end_turn"),
                            (2, 200_000, 32_000, 6_000, "end_turn"),
                            (3, 202_000, 32_000, 0, "context_length_exceeded")]
    assert run.error == ("pinned blocks alone need 202,000 tokens against a 200,000-token "
                         "window (2,000 over); trimming cannot help")


def test_a_patch_over_a_separate_output_limit_still_stops_with_max_tokens():
    run = simulate(Loop(fill_tokens=50_000, output_limit_tokens=4_000, max_attempts=1))
    assert summary(run) == [(1, 60_000, 4_000, 4_000, "max_tokens")]


def test_pinned_blocks_alone_over_the_window_are_reported_on_turn_1():
    run = simulate(Loop(fill_tokens=250_000))
    assert summary(run) == [(1, 260_000, 0, 0, "context_length_exceeded")]
    assert "pinned blocks alone need 260,000 tokens" in run.error


def test_a_run_that_passes_stops_early():
    run = simulate(Loop(passes_on_attempt=1))
    assert summary(run) == [(1, 190_000, 10_000, 6_000, "end_turn")]
    assert [r.passed for r in run.records] == [True]
    # A task that would pass on attempt 3 never gets there under the 180,000 fill.
    assert [r.passed for r in simulate(Loop(passes_on_attempt=3)).records] == [False, False]


def test_evicting_diffs_too_keeps_the_180000_fill_running():
    # Diffs evictable as well: each request is trimmed back to 200,000 - 6,000.
    run = simulate(Loop(evictable_kinds=("edit", "diagnostics")))
    assert [r.input_tokens for r in run.records] == [190_000, 194_000, 194_000, 194_000]
    assert [r.stop_reason for r in run.records] == ["end_turn"] * 4


def test_per_attempt_sizes():
    run = simulate(Loop(fill_tokens=70_000, patch_tokens=(5_000, 6_000, 7_000, 8_000),
                        diagnostics_tokens=(18_000, 60_000, 18_000, 18_000)))
    assert [r.input_tokens for r in run.records] == [80_000, 103_000, 169_000, 194_000]
    assert [r.appended for r in run.records[1:]] == [
        {"edit": 5_000, "diagnostics": 18_000},
        {"edit": 6_000, "diagnostics": 60_000},
        {"edit": 7_000, "diagnostics": 18_000}]


def test_occupancy_rows_for_the_chart():
    rows = occupancy(simulate(Loop(fill_tokens=176_412)))
    assert rows[1] == {"turn": 2, "attempt": 2, "fixed_prefix": 9_000, "task": 1_000,
                       "retrieved_file": 176_412, "edit": 6_000, "diagnostics": 1_588,
                       "reply": 6_000, "input_tokens": 194_000, "max_tokens": 6_000,
                       "head_lost": 16_412, "stop_reason": "end_turn"}
    assert [row["diagnostics"] for row in rows] == [0, 1_588, 0]
    assert [row["head_lost"] for row in rows] == [0, 16_412, 36_000]


def test_simulated_records_round_trip_through_the_ledger(tmp_path):
    records = simulate(Loop(fill_tokens=176_412)).records
    write_ledger(tmp_path / "run.jsonl", records)
    assert read_ledger(tmp_path / "run.jsonl") == records


@pytest.mark.parametrize("loop, message", [
    (Loop(fill_tokens=-1), "fill_tokens must be a whole number of tokens >= 0, got -1"),
    (Loop(max_attempts=0), "max_attempts must be a whole number >= 1, got 0"),
    (Loop(patch_tokens=(6_000, 6_000)), "patch_tokens gives 2 sizes but max_attempts is 4"),
    (Loop(diagnostics_tokens=(1, 2, 3, 4.5)), r"diagnostics_tokens\[3\] must be a whole number"),
    (Loop(evictable_kinds=("files",)), "evictable_kinds must be among"),
    (Loop(evictable_kinds="diagnostics"), r"must be a tuple of kinds .* got 'diagnostics' \(one kind is a tuple of one"),
    (Loop(evictable_kinds=(["diagnostics"],)), r"evictable_kinds must be among .* got \[\['diagnostics'\]\]"),
    (Loop(passes_on_attempt=5), "passes_on_attempt must be None or 1..4, got 5"),
    (Loop(output_limit_tokens=0), "output_limit_tokens must be a whole number of tokens >= 1"),
])
def test_bad_loops_are_refused_by_name(loop, message):
    with pytest.raises(ValueError, match=message):
        simulate(loop)


tokens = st.integers(min_value=0, max_value=120_000)
loops = st.builds(
    Loop,
    window_tokens=st.integers(min_value=1, max_value=300_000),
    fixed_prefix_tokens=st.integers(0, 30_000),
    task_tokens=st.integers(0, 5_000),
    fill_tokens=st.integers(0, 250_000),
    patch_tokens=st.integers(0, 20_000),
    diagnostics_tokens=tokens,
    max_attempts=st.integers(1, 6),
    reply_reserve_tokens=st.integers(0, 30_000),
    evictable_kinds=st.sets(st.sampled_from(LOOP_KINDS)).map(tuple),
    output_limit_tokens=st.none() | st.integers(1, 40_000),
)


@FAST
@given(loop=loops)
def test_no_request_that_goes_out_is_above_the_window(loop):
    run = simulate(loop)
    assert 1 <= len(run.records) <= loop.max_attempts
    for record in run.records:
        if record.stop_reason == "context_length_exceeded":
            assert run.error and record is run.records[-1]
            continue
        assert record.input_tokens <= loop.window_tokens
        assert record.output_tokens <= record.max_tokens
        if loop.output_limit_tokens is None:
            assert record.input_tokens + record.output_tokens <= loop.window_tokens


@FAST
@given(loop=loops)
def test_trimming_only_touches_evictable_blocks(loop):
    run = simulate(loop)
    original = {"fixed_prefix": loop.fixed_prefix_tokens, "task": loop.task_tokens,
                "retrieved_file": loop.fill_tokens, "edit": loop.patch_tokens,
                "diagnostics": loop.diagnostics_tokens}
    for blocks in run.transcripts:
        for block in blocks:
            assert block.tokens + block.head_lost == original[block.kind]
            assert block.turn == (block.attempt or 0)  # one attempt per turn
            assert block.pinned == (block.kind not in loop.evictable_kinds)
            if block.pinned:
                assert block.head_lost == 0


@FAST
@given(loop=loops)
def test_the_ledger_balances(loop):
    previous = 0
    for record in simulate(loop).records:
        assert record.input_tokens == previous + sum(record.appended.values()) - record.trimmed_tokens
        previous = record.input_tokens


def test_varied_diffs_under_the_stated_fill_give_the_chapter_s_trace():
    # The chapter's 6,000 is the p50 of merged patches; a failed attempt's diff may be 2,412.
    run = simulate(Loop(patch_tokens=(6_000, 2_412, 6_000, 6_000)))
    assert summary(run) == [(1, 190_000, 10_000, 6_000, "end_turn"),
                            (2, 196_000, 4_000, 2_412, "end_turn"),
                            (3, 198_412, 1_588, 1_588, "max_tokens")]
    assert [row["diagnostics"] for row in occupancy(run)] == [0, 0, 0]  # no test output is left


def test_the_tail_keeping_trim_gives_the_trace_with_a_tail_at_every_turn():
    # K = 1,206; diffs 4,000 then 2,000; diagnostics 12,000 (two failures) then 6,000 (one).
    run = simulate(Loop(keep_tail_tokens=1_206, patch_tokens=(4_000, 2_000, 6_000, 6_000),
                        diagnostics_tokens=(12_000, 6_000, 18_000, 18_000)))
    assert summary(run) == [(1, 190_000, 10_000, 4_000, "end_turn"),
                            # 206,000 before the trim; attempt 1's 12,000 cut to its last 1,206.
                            (2, 195_206, 4_794, 2_000, "end_turn"),
                            # 203,206 before; attempt 2's 6,000 cut to 1,206 too.
                            (3, 198_412, 1_588, 1_588, "max_tokens")]
    tails = [[(b.tokens, b.head_lost) for b in blocks if b.kind == "diagnostics"]
             for blocks in run.transcripts]
    assert tails == [[], [(1_206, 10_794)], [(1_206, 10_794), (1_206, 4_794)]]
    assert [r.trimmed_tokens for r in run.records] == [0, 10_794, 4_794]


def test_equal_6000_diffs_reach_attempt_3_under_neither_trim():
    assert summary(simulate(Loop()))[-1][:2] == (2, 196_000)
    assert summary(simulate(Loop(keep_tail_tokens=1_206)))[-1] == (2, 197_206, 2_794, 2_794, "max_tokens")


def test_the_tail_keeping_trim_leaves_short_blocks_alone():
    blocks = [make_block("task", 10, "task"), make_block("diagnostics", 8, "first"),
              make_block("diagnostics", 2, "second")]
    kept, trimmed = trim(blocks, 10, keep_tail_tokens=3)
    assert trimmed == 5
    assert [(b.label, b.tokens, b.head_lost) for b in kept] == [
        ("task", 10, 0), ("first", 3, 5), ("second", 2, 0)]
    assert trim(blocks, 10, keep_tail_tokens=0)[0][1].tokens == 0  # the head trim, for contrast


def test_last_tokens_counts_tokens_not_characters():
    from ctxlib.transcript import last_tokens
    assert last_tokens("hello world again", 2) == " world again"
    assert last_tokens("hello world again", 0) == ""
    assert last_tokens("hello world again", 99) == "hello world again"
    with pytest.raises(ValueError, match="keep_tokens must be a whole number of tokens >= 0, got -1"):
        last_tokens("x", -1)


def test_the_refusal_is_localized_and_an_exactly_full_window_is_named():
    from ctxlib.transcript import refusal_text
    run = simulate(Loop(output_limit_tokens=32_000))
    assert refusal_text(run, "en") == run.error
    assert refusal_text(run, "hi") == ("सिर्फ़ pinned blocks ही 202,000 tokens माँगते हैं, 200,000-token की "
                                       "window के सामने (2,000 ज़्यादा); trim से कुछ नहीं होगा")
    assert refusal_text(simulate(Loop()), "hi") == ""
    # Pinned blocks of exactly the window: no reply room, not "0 over".
    full = simulate(Loop(fill_tokens=166_000, max_attempts=6, passes_on_attempt=6))
    assert summary(full)[-1] == (5, 200_000, 0, 0, "context_length_exceeded")
    assert full.error == "the input of 200,000 tokens fills the whole window and leaves no reply room"


@FAST
@given(loop=loops, keep=st.integers(0, 30_000))
def test_the_tail_keeping_trim_never_cuts_a_block_below_its_tail(loop, keep):
    loop = Loop(**{**loop.__dict__, "keep_tail_tokens": keep})
    run = simulate(loop)
    for blocks in run.transcripts:
        for block in blocks:
            if block.head_lost:
                assert block.tokens == keep or block.tokens > keep
    previous = 0
    for record in run.records:
        assert record.input_tokens == previous + sum(record.appended.values()) - record.trimmed_tokens
        previous = record.input_tokens


def test_a_loop_too_long_to_simulate_is_refused_by_name():
    # 20,000 attempts took 78 s (the work grows with the square of the attempts); the limit is named.
    with pytest.raises(ValueError, match="max_attempts must be at most 1,000 for the simulator .*got 20,000"):
        simulate(Loop(max_attempts=20_000))
    assert len(simulate(Loop(max_attempts=1_000, fill_tokens=10_000, patch_tokens=100,
                             diagnostics_tokens=100)).records) == 1_000


def test_simulate_is_lesson_4_s_loop_under_lesson_2_s_rule():
    # Lesson 4's chapter run (a 70,000 fill, the 60,000 cascade on attempt 2) under head_trim.
    loop = Loop(fill_tokens=70_000, diagnostics_tokens=(24_000, 60_000, 24_000, 24_000))
    run, outcome = simulate(loop), run_loop(chapter_run(70_000), head_trim)
    assert [(r.input_tokens, r.max_tokens, r.stop_reason) for r in run.records] == [
        (t.input_tokens, t.max_tokens, t.stop_reason) for t in outcome.turns] == [
        (80_000, 120_000, "end_turn"), (110_000, 90_000, "end_turn"),
        (176_000, 24_000, "end_turn"), (194_000, 6_000, "end_turn")]
    assert run.outcome.turns == simulate(loop).outcome.turns
    assert [b.kind for b in run.transcripts[1]] == ["fixed_prefix", "task", "retrieved_file", "edit",
                                                    "diagnostics"]
    assert set(LOOP_KINDS) == {b.kind for b in run.transcripts[-1]}
    assert as_run(Loop(passes_on_attempt=2)).steps[-1].path == "billing/invoice.py"
    assert len(as_run(Loop(passes_on_attempt=2)).steps) == 2


def test_one_block_type():
    import ctxlib.overflow
    import ctxlib.transcript
    assert ctxlib.transcript.Block is ctxlib.overflow.Block is Block
