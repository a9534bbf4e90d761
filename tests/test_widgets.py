"""Lesson 1's pack explorer: its callback is a plain function, checked here without a browser."""
import os

import pytest

from ctxlib.course.examples import LESSON1_FILES
from ctxlib.course.widgets import Explorer, make_pack_explorer, repack


def test_default_result():
    assert repack(LESSON1_FILES, 300, "discount pricing") == (
        "chosen (in packing order):\n"
        "  shop/pricing.py            77 tokens\n"
        "  tests/test_pricing.py      46 tokens\n"
        "  shop/cart.py               27 tokens\n"
        "skipped:\n"
        "  docs/history.md        scores 0\n"
        "tokens used: 150 of 300"
    )


def test_moving_the_budget_repacks():
    text = repack(LESSON1_FILES, 75, "discount pricing")
    assert "  shop/pricing.py        77 tokens do not fit in the 75 left" in text
    assert text.endswith("tokens used: 73 of 75")


def test_exact_counter_and_hindi():
    text = repack(LESSON1_FILES, 300, "discount pricing", counter="o200k_base", lang="hi")
    assert "  shop/pricing.py            56 tokens" in text
    assert "  docs/history.md        score 0 है" in text
    assert text.endswith("इस्तेमाल हुए tokens: 108 / 300")


def test_nothing_fits():
    assert repack(LESSON1_FILES, 10, "discount").startswith("chosen (in packing order):\n  (nothing fits)\n")


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query_is_a_message_not_a_traceback(query):
    assert repack(LESSON1_FILES, 300, query).startswith("cannot pack: the query is empty")


def test_unknown_language():
    with pytest.raises(ValueError, match="lang must be one of \\['en', 'hi'\\], got 'fr'"):
        repack(LESSON1_FILES, 300, "discount", lang="fr")


def test_explorer_prints_default_and_has_a_stable_plain_text(capsys):
    explorer = make_pack_explorer(LESSON1_FILES, lang="en")
    assert isinstance(explorer, Explorer)
    assert "tokens used: 150 of 300" in capsys.readouterr().out
    assert repr(explorer) == "[pack explorer: in JupyterLab, move the budget or edit the query to pack again]"
    explorer.children[0].value = 100  # the budget slider, as a learner would move it
    explorer.update()
    assert "tokens used: 77 of 100" in capsys.readouterr().out


def test_the_suite_never_records_into_the_real_home():
    # conftest.py points every test, and every nbval kernel, at a throwaway progress file.
    assert "ctxlib-test-" in os.environ["CTXLIB_PROGRESS"]
