"""The first-turn ceiling against the chapter's figures, task classes, and property tests."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxlib.ceiling import (
    NINE_FILE_REFACTOR,
    ONE_LINE_CHANGE,
    TaskClass,
    ceiling_gap_tokens,
    class_ceiling,
    first_turn_ceiling,
    route,
    window_share,
)

FAST = settings(max_examples=60, deadline=None)


def test_chapter_p50_ceiling_is_94000():
    ceiling = first_turn_ceiling(18_000)
    assert ceiling.per_attempt_tokens == 24_000
    assert ceiling.loop_growth_tokens == 96_000
    assert ceiling.ceiling_tokens == 94_000
    assert ceiling.fits and ceiling.shortfall_tokens == 0


def test_chapter_p90_ceiling_is_70000_or_35_percent():
    ceiling = first_turn_ceiling(24_000)
    assert ceiling.ceiling_tokens == 70_000
    assert ceiling.share_of_window == 0.35
    assert str(ceiling) == "first-turn ceiling 70,000 tokens (35% of the 200,000-token window)"


def test_a_21000_token_prefix_lowers_the_p90_ceiling_to_58000():
    assert first_turn_ceiling(24_000, fixed_prefix_tokens=21_000).ceiling_tokens == 58_000


def test_explicit_figures_match_the_defaults():
    explicit = first_turn_ceiling(18_000, window_tokens=200_000, fixed_prefix_tokens=9_000,
                                  task_tokens=1_000, patch_tokens=6_000, max_attempts=4)
    assert explicit == first_turn_ceiling()


def test_a_loop_that_cannot_fit_says_by_how_much():
    # 9,000 + 1,000 + 4 x (6,000 + 60,000) = 274,000 against 200,000.
    ceiling = first_turn_ceiling(60_000)
    assert ceiling.ceiling_tokens == -74_000
    assert not ceiling.fits
    assert ceiling.shortfall_tokens == 74_000
    assert str(ceiling) == "the loop cannot fit in this window: short by 74,000 tokens"


def test_a_loop_that_fills_the_window_exactly_leaves_no_room_for_code():
    # 4 x (6,000 + 41,500) = 190,000 = 200,000 - 9,000 - 1,000.
    ceiling = first_turn_ceiling(41_500)
    assert ceiling.ceiling_tokens == 0
    assert not ceiling.fits and ceiling.shortfall_tokens == 0
    assert "no room for any repository code" in str(ceiling)


@pytest.mark.parametrize("kwargs, message", [
    ({"diagnostics_tokens": -5}, "diagnostics_tokens must be a whole number of tokens >= 0, got -5"),
    ({"patch_tokens": 6_000.0}, "patch_tokens must be a whole number of tokens >= 0, got 6000.0 (float)"),
    ({"task_tokens": True}, "task_tokens must be a whole number of tokens >= 0, got True (bool)"),
    ({"fixed_prefix_tokens": "9k"}, "fixed_prefix_tokens must be a whole number of tokens >= 0, got '9k' (str)"),
    ({"window_tokens": 0}, "window_tokens must be a whole number of tokens >= 1, got 0"),
    ({"max_attempts": 0}, "max_attempts must be a whole number >= 1, got 0"),
    ({"max_attempts": False}, "max_attempts must be a whole number >= 1, got False (bool)"),
    ({"max_attempts": 2.5}, "max_attempts must be a whole number >= 1, got 2.5 (float)"),
])
def test_bad_figures_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError) as error:
        first_turn_ceiling(**kwargs)
    assert str(error.value) == message


def test_the_one_line_change_grows_24000_and_gets_166000():
    ceiling = class_ceiling(ONE_LINE_CHANGE)
    assert ceiling.loop_growth_tokens == 24_000
    assert ceiling.ceiling_tokens == 166_000


def test_the_refactor_grows_184000_and_gets_6000():
    ceiling = class_ceiling(NINE_FILE_REFACTOR)
    assert ceiling.loop_growth_tokens == 4 * (6_000 + 40_000) == 184_000
    assert ceiling.ceiling_tokens == 6_000


def test_the_chapter_s_70k_is_the_gap_to_the_p50_budget_not_to_the_refactor():
    one_line = class_ceiling(ONE_LINE_CHANGE)
    # "throws away 70k": against the general p50 ceiling the gap is 72,000 ...
    assert ceiling_gap_tokens(one_line, first_turn_ceiling(18_000)) == 72_000
    # ... against the p90 ceiling it is 96,000, and against the refactor's own ceiling 160,000.
    assert ceiling_gap_tokens(one_line, first_turn_ceiling(24_000)) == 96_000
    assert ceiling_gap_tokens(one_line, class_ceiling(NINE_FILE_REFACTOR)) == 160_000


def test_the_refactor_under_the_one_line_budget_overruns():
    refactor, one_line = class_ceiling(NINE_FILE_REFACTOR), class_ceiling(ONE_LINE_CHANGE)
    assert ceiling_gap_tokens(refactor, one_line) == -160_000


def test_class_ceiling_takes_window_figures():
    assert class_ceiling(ONE_LINE_CHANGE, fixed_prefix_tokens=21_000).ceiling_tokens == 154_000


def test_route_on_declared_scope():
    assert route("one-line") is ONE_LINE_CHANGE
    assert route("refactor") is NINE_FILE_REFACTOR
    docs = TaskClass("docs fix", "docs", 1, 2_000, 1_000)
    assert route("docs", classes=(docs,)) is docs


def test_route_refuses_an_unknown_scope_and_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"no task class for declared scope 'epic'; known scopes: 'one-line', 'refactor'"):
        route("epic")


def test_a_200k_window_shows_about_1_7_percent_of_a_12m_token_repository():
    share = window_share(200_000, 12_000_000)
    assert share == pytest.approx(1 / 60)
    assert f"{share:.1%}" == "1.7%"
    with pytest.raises(ValueError, match="repo_tokens"):
        window_share(200_000, 0)


sizes = st.integers(min_value=0, max_value=100_000)
attempts = st.integers(min_value=1, max_value=10)


@FAST
@given(diagnostics=sizes, patch=sizes, max_attempts=attempts, more=st.integers(1, 50_000))
def test_ceiling_falls_by_attempts_times_the_growth_of_patch_or_diagnostics(diagnostics, patch, max_attempts, more):
    base = first_turn_ceiling(diagnostics, patch_tokens=patch, max_attempts=max_attempts)
    bigger_diagnostics = first_turn_ceiling(diagnostics + more, patch_tokens=patch, max_attempts=max_attempts)
    bigger_patch = first_turn_ceiling(diagnostics, patch_tokens=patch + more, max_attempts=max_attempts)
    assert base.ceiling_tokens - bigger_diagnostics.ceiling_tokens == max_attempts * more
    assert base.ceiling_tokens - bigger_patch.ceiling_tokens == max_attempts * more


@FAST
@given(diagnostics=sizes, patch=sizes, max_attempts=attempts)
def test_ceiling_falls_with_each_attempt_and_strictly_when_an_attempt_adds_tokens(diagnostics, patch, max_attempts):
    now = first_turn_ceiling(diagnostics, patch_tokens=patch, max_attempts=max_attempts)
    later = first_turn_ceiling(diagnostics, patch_tokens=patch, max_attempts=max_attempts + 1)
    assert later.ceiling_tokens <= now.ceiling_tokens
    assert (later.ceiling_tokens < now.ceiling_tokens) == (patch + diagnostics > 0)
    assert later.shortfall_tokens >= now.shortfall_tokens


def test_one_whole_number_check_for_every_count():
    from ctxlib.ceiling import is_whole_number
    from ctxlib.packing import check_budget

    assert is_whole_number(3, 1) and is_whole_number(0) and is_whole_number(10**12, 1)
    assert not any(is_whole_number(v, 1) for v in (0, -5, True, 2.0, "3", None))
    with pytest.raises(ValueError, match="budget must be a positive whole number of tokens, got True"):
        check_budget(True)


def test_a_window_share_past_a_floats_range_is_a_clear_error():
    with pytest.raises(ValueError, match="too large for a float: a window of 401 digits over 1 tokens"):
        window_share(10 ** 400, 1)
    assert window_share(1, 10 ** 400) == 0.0  # correctly rounded: no error to give
