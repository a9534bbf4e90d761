"""The lesson's scorer and greedy packer: the golden output of the chapter this course is built from and hand-made cases."""
import pytest
from hypothesis import given, settings, strategies as st

from ctxlib import pack_context, score_file
from ctxlib.course.examples import LESSON1_BUDGET, LESSON1_FILES, LESSON1_QUERY
from ctxlib.reasons import Reason, Skipped
from ctxlib.tokens import token_counter


def test_chapters_golden_output(capsys):
    chosen, used = pack_context(LESSON1_FILES, LESSON1_QUERY, budget=LESSON1_BUDGET)
    print("chosen:", chosen)
    print("tokens used:", used, "of 300")
    assert capsys.readouterr().out == (
        "chosen: [('shop/pricing.py', 77), ('tests/test_pricing.py', 46), ('shop/cart.py', 27)]\n"
        "tokens used: 150 of 300\n"
    )


def test_chapters_scores():
    # pricing.py: 3 x 5 in the text + 3 for "pricing" in the name; test_pricing.py: 2 x 6 + 3.
    assert [score_file(n, t, LESSON1_QUERY) for n, t in LESSON1_FILES.items()] == [18, 4, 0, 15]


def test_case_insensitive_terms_and_names():
    assert score_file("Shop/PRICING.py", "Discount", ["DISCOUNT", "Pricing"]) == 1 + 3


def test_zero_score_is_skipped_even_with_room():
    packed = pack_context(LESSON1_FILES, LESSON1_QUERY, budget=10_000)
    assert "docs/history.md" not in dict(packed.chosen)
    assert packed.skipped == [Skipped("docs/history.md", Reason.SCORES_ZERO)]
    assert packed.skipped[0].reason == "scores 0"


def test_skip_what_does_not_fit_and_keep_going():
    # Budget 100: pricing (77) fits; test_pricing (46) does not fit in 23; cart (27) does not either.
    packed = pack_context(LESSON1_FILES, LESSON1_QUERY, budget=100)
    assert packed.chosen == [("shop/pricing.py", 77)]
    assert [s.reason for s in packed.skipped] == [
        "46 tokens do not fit in the 23 left", "27 tokens do not fit in the 23 left", "scores 0"]
    # Budget 75: pricing (77) does not fit, but test_pricing (46) and then cart (27) do: 73.
    packed = pack_context(LESSON1_FILES, LESSON1_QUERY, budget=75)
    assert packed.chosen == [("tests/test_pricing.py", 46), ("shop/cart.py", 27)]
    assert packed.used == 73


def test_exact_counter():
    chosen, used = pack_context(LESSON1_FILES, LESSON1_QUERY, 300, count=token_counter("o200k_base"))
    assert [n for n, _ in chosen] == ["shop/pricing.py", "tests/test_pricing.py", "shop/cart.py"]
    assert used == sum(c for _, c in chosen) <= 300


@pytest.mark.parametrize("budget", [0, -5, 2.5, "300", None, True])
def test_bad_budget(budget):
    with pytest.raises(ValueError, match=f"budget must be a positive whole number of tokens, got {budget!r}"):
        pack_context(LESSON1_FILES, LESSON1_QUERY, budget)


@pytest.mark.parametrize("query", [[], [""], ["  "]])
def test_empty_query(query):
    with pytest.raises(ValueError, match="the query is empty"):
        pack_context(LESSON1_FILES, query, 300)


def test_query_as_a_bare_string_is_refused():
    with pytest.raises(ValueError, match="try \\['discount', 'pricing'\\]"):
        pack_context(LESSON1_FILES, "discount pricing", 300)


@settings(max_examples=200, deadline=None)
@given(
    files=st.dictionaries(st.text(min_size=1, max_size=12), st.text(max_size=400), max_size=8),
    terms=st.lists(st.sampled_from(["a", "discount", "x", "é", "पर"]), min_size=1, max_size=3),
    budget=st.integers(min_value=1, max_value=400),
)
def test_never_exceeds_budget(files, terms, budget):
    packed = pack_context(files, terms, budget)
    assert packed.used == sum(cost for _, cost in packed.chosen) <= budget
    assert len(packed.chosen) + len(packed.skipped) == len(files)
