"""Lesson 2's running-total explorer: its callbacks are plain functions, checked without a browser."""
import pytest

from ctxlib.ceiling import first_turn_ceiling
from ctxlib.transcript import Loop, format_trace, simulate
from ctxlib.course.widgets import (Explorer, describe_ceiling, describe_loop, ledger_table,
                            make_loop_explorer, rerun_loop)

DEFAULT = """\
first-turn ceiling: 94,000 tokens (47% of the 200,000-token window)
  200,000 window - 9,000 fixed prefix - 1,000 task - 4 x (6,000 patch + 18,000 diagnostics) = 94,000
fill 180,000 tokens: 86,000 over the ceiling

turn  prefix+task    files  diffs  diagnostics  cut so far    input  reply room  reply  stop_reason
   1       10,000  180,000      0            0           0  190,000      10,000  6,000  end_turn
   2       10,000  180,000  6,000            0      18,000  196,000       4,000  4,000  max_tokens
attempt 2/4  model=coding-agent-v2  input_tokens=196,000  max_tokens=4,000
[stop_reason: max_tokens]
attempt 2 was cut off: 4,000 tokens of reply room for a 6,000-token patch"""


def test_default_result_is_the_chapters_180000_fill():
    assert rerun_loop() == DEFAULT


def test_the_176412_fill_gives_the_chapters_trace():
    text = rerun_loop(fill_tokens=176_412)
    assert ("   2       10,000  176,412   6,000        1,588      16,412  194,000       6,000"
            "  6,000  end_turn") in text
    assert ("attempt 3/4  model=coding-agent-v2  input_tokens=198,412  max_tokens=1,588\n"
            "[stop_reason: max_tokens]\n"
            "attempt 3 was cut off: 1,588 tokens of reply room for a 6,000-token patch") in text


def test_p90_and_a_70000_fill_survive_all_four_attempts():
    text = rerun_loop(diagnostics_tokens=24_000, fill_tokens=70_000)
    assert text.startswith("first-turn ceiling: 70,000 tokens (35% of the 200,000-token window)\n")
    assert "fill 70,000 tokens: within the ceiling (0 to spare)" in text
    assert text.endswith("attempt 4/4  model=coding-agent-v2  input_tokens=170,000  max_tokens=30,000\n"
                         "[stop_reason: end_turn]\n"
                         "every attempt had room for its patch; the last request left 30,000 tokens "
                         "of reply room")


def test_a_grown_prefix_lowers_the_ceiling_to_58000():
    assert rerun_loop(fixed_prefix_tokens=21_000, diagnostics_tokens=24_000).startswith(
        "first-turn ceiling: 58,000 tokens (29% of the 200,000-token window)")


@pytest.mark.parametrize("change", [
    {"window_tokens": 128_000},
    {"fixed_prefix_tokens": 21_000},
    {"max_attempts": 1},
    {"patch_tokens": 6_500},
    {"diagnostics_tokens": 40_000},
    {"fill_tokens": 94_000},
])
def test_moving_one_control_gives_what_ctxlib_computes(change):
    figures = {"window_tokens": 200_000, "fixed_prefix_tokens": 9_000, "max_attempts": 4,
               "patch_tokens": 6_000, "diagnostics_tokens": 18_000, "fill_tokens": 180_000}
    figures.update(change)
    text = rerun_loop(**figures)
    assert text != DEFAULT
    ceiling = first_turn_ceiling(figures["diagnostics_tokens"], window_tokens=figures["window_tokens"],
                                 fixed_prefix_tokens=figures["fixed_prefix_tokens"],
                                 patch_tokens=figures["patch_tokens"],
                                 max_attempts=figures["max_attempts"])
    run = simulate(Loop(reply_reserve_tokens=figures["patch_tokens"], **figures))
    assert text.startswith(describe_ceiling(ceiling))
    assert format_trace(run.records[-1], figures["max_attempts"]) in text


def test_hand_computed_moves():
    # One attempt (the one-line change) under its own ceiling: 200,000 - 10,000 - 24,000.
    one_line = rerun_loop(max_attempts=1, fill_tokens=166_000)
    assert one_line.startswith("first-turn ceiling: 166,000 tokens (83% of the 200,000-token window)")
    assert "attempt 1/1  model=coding-agent-v2  input_tokens=176,000  max_tokens=24,000" in one_line
    # The refactor's diagnostics under the one-line ceiling, with a 6,500-token patch:
    # pinned at attempt 4 = 10,000 + 166,000 + 3 x 6,500 = 195,500, leaving 4,500.
    wrong_class = rerun_loop(diagnostics_tokens=40_000, fill_tokens=166_000, patch_tokens=6_500)
    assert "attempt 4/4  model=coding-agent-v2  input_tokens=195,500  max_tokens=4,500" in wrong_class


def test_hindi_text():
    text = rerun_loop(lang="hi")
    assert text.startswith("पहले turn की ceiling: 94,000 tokens (200,000-token window का 47%)\n")
    assert "fill 180,000 tokens: ceiling से 86,000 ज़्यादा" in text
    assert text.endswith("कोशिश 2 बीच में कट गई: 6,000-token patch के लिए जवाब की जगह सिर्फ़ 4,000 tokens")


@pytest.mark.parametrize("change, message, hindi", [
    ({"fixed_prefix_tokens": -5}, "fixed_prefix_tokens must be a whole number of tokens >= 0, got -5",
     "fixed_prefix_tokens tokens की कोई पूर्ण संख्या होना चाहिए जो 0 या उससे ज़्यादा हो, मिला -5"),
    ({"max_attempts": 0}, "max_attempts must be a whole number >= 1, got 0",
     "max_attempts 1 या उससे बड़ी पूर्ण संख्या होना चाहिए, मिला 0"),
    ({"patch_tokens": 1.5}, "patch_tokens must be a whole number of tokens >= 0, got 1.5 (float)",
     "patch_tokens tokens की कोई पूर्ण संख्या होना चाहिए जो 0 या उससे ज़्यादा हो, मिला 1.5 (float)"),
    ({"window_tokens": 0}, "window_tokens must be a whole number of tokens >= 1, got 0",
     "window_tokens tokens की कोई पूर्ण संख्या होना चाहिए जो 1 या उससे ज़्यादा हो, मिला 0"),
    ({"fill_tokens": -1}, "fill_tokens must be a whole number of tokens >= 0, got -1",
     "fill_tokens tokens की कोई पूर्ण संख्या होना चाहिए जो 0 या उससे ज़्यादा हो, मिला -1"),
])
def test_bad_values_give_a_message_not_a_traceback(change, message, hindi):
    assert rerun_loop(**change) == f"cannot run the loop: {message}"
    assert rerun_loop(lang="hi", **change) == f"loop नहीं चल सका: {hindi}"


def test_a_loop_that_cannot_fit_says_by_how_much_and_the_request_is_refused():
    # 200,000 - 200,000 - 1,000 - 96,000 = -97,000.
    text = rerun_loop(fixed_prefix_tokens=200_000, fill_tokens=0)
    assert text.startswith("first-turn ceiling: none (the loop cannot fit in this window: "
                           "short by 97,000 tokens)")
    assert "over the ceiling" not in text
    assert text.endswith("attempt 1 was refused at the request (a hard error): pinned blocks alone "
                         "need 201,000 tokens against a 200,000-token window (1,000 over); "
                         "trimming cannot help")


def test_a_loop_that_fills_the_window_exactly():
    # 10,000 fixed + 4 x 24,000 = 106,000: nothing is left for repository code.
    assert rerun_loop(window_tokens=106_000, fill_tokens=0).startswith(
        "first-turn ceiling: 0 tokens (the loop fills this window exactly")


def test_a_run_that_passes_ends_green():
    run = simulate(Loop(fill_tokens=70_000, passes_on_attempt=2))
    assert describe_loop(run).endswith("[stop_reason: end_turn]\nthe run ended green on attempt 2")


def test_ledger_table_columns_line_up():
    lines = str(ledger_table(simulate(Loop(fill_tokens=176_412)))).splitlines()
    assert len(lines) == 4
    # Every column but the last (stop_reason) is right-aligned, so the rows end together there.
    ends = {line.rindex("  ") for line in lines}
    assert len(ends) == 1


def test_unknown_language():
    with pytest.raises(ValueError, match=r"lang must be one of \['en', 'hi'\], got 'fr'"):
        rerun_loop(lang="fr")


def test_explorer_prints_default_and_recomputes_when_a_control_moves(capsys):
    explorer = make_loop_explorer(chart=False)
    assert isinstance(explorer, Explorer)
    # Outside a kernel, the control's clear_output shows up as terminal escapes before the text.
    assert capsys.readouterr().out.endswith(DEFAULT + "\n")
    assert repr(explorer) == ("[running-total explorer: in JupyterLab, move a control to recompute "
                              "the ceiling and re-run the loop]")
    window, prefix, attempts, patch, diagnostics, fill = explorer.children[:6]
    assert [c.description for c in explorer.children[:6]] == [
        "window", "fixed prefix", "attempts", "patch", "diagnostics", "fill"]
    assert diagnostics.options == (("p50 · 18,000", 18_000), ("p90 · 24,000", 24_000),
                                   ("40,000", 40_000), ("60,000", 60_000))
    diagnostics.value = 24_000  # as a learner would click p90, then drag the fill
    fill.value = 70_000
    explorer.update()
    out = capsys.readouterr().out
    assert "first-turn ceiling: 70,000 tokens (35% of the 200,000-token window)" in out
    assert "[stop_reason: end_turn]" in out


def test_hindi_explorer_and_an_extra_diagnostics_choice(capsys):
    explorer = make_loop_explorer("hi", diagnostics_tokens=30_000, chart=False)
    assert explorer.children[4].options[-1] == ("30,000", 30_000)
    assert explorer.children[2].description == "कोशिशें"
    assert "पहले turn की ceiling: 46,000 tokens" in capsys.readouterr().out  # 190,000 - 4 x 36,000


def test_explorer_draws_the_chart_under_the_text(capsys):
    make_loop_explorer()
    out = capsys.readouterr().out
    assert out.index("[stop_reason: max_tokens]") < out.index("Figure(700x500)")


def test_ledger_and_occupant_tables_are_html_tables_with_hindi_headers():
    table = ledger_table(simulate(Loop()), "hi")
    assert table.header == ["turn", "prefix+task", "files", "diffs", "diagnostics", "अब तक कटे",
                            "input", "जवाब की जगह", "जवाब", "stop_reason"]
    assert table._repr_html_().startswith('<table class="ctxlib-table">')
    assert "<td style=\"text-align:right\">196,000</td>" in table._repr_html_()
    from ctxlib.course.widgets import occupant_table
    occupants = occupant_table({"retrieved_file": 180_000, "diagnostics": 18_000},
                               {"retrieved_file": True, "diagnostics": False}, "hi")
    lines = str(occupants).splitlines()
    assert lines[0].startswith("block का प्रकार ") and lines[0].endswith("tokens  trim")
    assert lines[1:] == ["retrieved_file  180,000  pinned", "diagnostics      18,000  evictable"]


def test_the_refusal_reads_in_hindi():
    text = describe_loop(simulate(Loop(output_limit_tokens=32_000)), "hi")
    assert text.endswith("कोशिश 3 की request ही ठुकरा दी गई (hard error): सिर्फ़ pinned blocks ही 202,000 "
                         "tokens माँगते हैं, 200,000-token की window के सामने (2,000 ज़्यादा); trim से कुछ नहीं होगा")


def test_sliders_read_with_thousands_separators():
    explorer = make_loop_explorer(chart=False)
    sliders = [c for c in explorer.children[:6] if hasattr(c, "readout_format")]
    assert [s.readout_format for s in sliders] == [",d", ",d", "d", ",d", ",d"]
