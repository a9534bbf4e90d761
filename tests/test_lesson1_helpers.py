"""Lesson 1's printed helpers: a text's tokens, one request's parts, and the tokenizer table."""
import pytest

from ctxlib.course.examples import (CHAPTER_CODE, LESSON1_FILES, REQUEST_INSTRUCTIONS, REQUEST_TASK, REQUEST_TOOL,
                                    SENTENCE_EN, SENTENCE_HI)
from ctxlib.course.widgets.lesson1 import request_table, token_pieces, tokenizer_table


def test_token_pieces_shows_tiktokens_known_split():
    # "hello world" is [15339, 1917] in cl100k_base: "hello" and " world".
    assert token_pieces("hello world", "cl100k_base") == "2 tokens in cl100k_base:\n|hello| world|"
    assert token_pieces("hello world", "cl100k_base", "hi") == "cl100k_base में 2 tokens:\n|hello| world|"


def test_token_pieces_shows_partial_utf8_as_hex():
    # cl100k_base cuts some Devanagari characters inside their UTF-8 bytes.
    text = token_pieces(SENTENCE_HI, "cl100k_base")
    assert text.startswith("80 tokens in cl100k_base:") and "<e0a4>" in text


def test_request_table_leaves_the_rest_of_the_window_for_the_reply():
    table = request_table({"a": "hello world", "b": "hello world"}, 10)
    assert table.rows[-2] == ["the whole input", "4", "40.0"]
    assert table.rows[-1] == ["room for the reply", "6", "60.0"]
    with pytest.raises(ValueError, match="window_tokens must be a positive number of tokens, got 0"):
        request_table({"a": "x"}, 0)


def test_the_lessons_request_is_valid_json_and_fits_its_toy_window():
    import json
    assert json.loads(REQUEST_TOOL)["name"] == "read_file"
    table = request_table({"i": REQUEST_INSTRUCTIONS, "t": REQUEST_TOOL, "task": REQUEST_TASK,
                           "f": LESSON1_FILES["shop/pricing.py"]}, 1_000)
    used = sum(int(row[1]) for row in table.rows[:-2])
    assert table.rows[-1][1] == f"{1_000 - used:,}" and 0 < used < 1_000


def test_tokenizer_table_has_the_measured_gap():
    table = tokenizer_table({"en": SENTENCE_EN, "hi": SENTENCE_HI, "code": CHAPTER_CODE})
    en, hi, code = table.rows
    assert en == ["en", "85", "21", "19", "19", "1.00"]
    assert hi == ["hi", "97", "24", "27", "80", f"{80 / 27:.2f}"]
    assert code[0] == "code" and abs(float(code[-1]) - 1) < 0.05  # code costs about the same in both


def test_the_chapter_code_is_the_chapters_and_runs_to_its_output():
    namespace = {}
    exec(CHAPTER_CODE, namespace)
    chosen, used = namespace["pack_context"](LESSON1_FILES, ["discount", "pricing"], budget=300)
    assert (chosen, used) == ([("shop/pricing.py", 77), ("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 150)
