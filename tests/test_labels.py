"""Lesson 4's words for library values: block labels, price-list names and the model's own text, per language."""
import pytest

from ctxlib.cost import ANTHROPIC, NO_CACHE, OPENAI, REAL_RUNS, Pricing
from ctxlib.course.labels import BLOCK_LABELS, block_label, model_text, pricing_name
from ctxlib.overflow import chapter_run, exploration_run, run_loop
from ctxlib.removal import KINDS, make_block, no_removal


def test_the_chapter_runs_blocks_in_both_languages():
    blocks = run_loop(chapter_run(70_000), no_removal).turns[-1].blocks
    assert [block_label(b) for b in blocks[:5]] == [
        "system prompt + tool definitions", "task statement", "retrieved files",
        "diff of billing/invoice.py, attempt 1 (turn 1)", "diagnostics of attempt 1 (turn 1)"]
    assert [block_label(b, "hi") for b in blocks[2:5]] == [
        "चुनी गई files", "billing/invoice.py का diff, कोशिश 1 (turn 1)", "कोशिश 1 के diagnostics (turn 1)"]


def test_the_english_label_is_the_librarys_own():
    # The loop's labels identify blocks (the cache compares them); the course's English words say the same.
    for outcome in (run_loop(chapter_run(70_000), no_removal), run_loop(exploration_run(12), no_removal)):
        for block in outcome.turns[-1].blocks:
            assert block_label(block) == block.label


def test_every_kind_has_words_and_no_english_is_left_in_hindi():
    assert set(BLOCK_LABELS) == set(KINDS)
    for kind in KINDS:
        text = block_label(make_block(kind, 10, "x", turn=3, path="a.py", attempt=2), "hi")
        assert "{" not in text and " of " not in text
        assert ("turn 3" in text) == ("{turn}" in BLOCK_LABELS[kind])


def test_price_list_names():
    assert [pricing_name(p, "hi") for p in (ANTHROPIC, OPENAI, NO_CACHE, REAL_RUNS)] == [
        "Anthropic (5 मिनट का cache)", "OpenAI (अपने-आप लगने वाला cache)", "prompt cache के बिना",
        "असली runs की price list (cached input 0.4x)"]
    assert pricing_name(ANTHROPIC) == "Anthropic (5-minute cache)"
    assert pricing_name(Pricing("my provider", 0.2, 1.0), "hi") == "my provider"  # not in the catalog: as named


def test_the_models_text_stays_as_sent_in_quotes():
    text = "[diagnostics of attempt 1 (turn 1): 24,000 tokens of diagnostics, removed to save space]"
    shown = model_text(text, "hi").splitlines()
    assert shown[0] == "मॉडल यह पढ़ता है (harness इसे English में ही लिखता है):"
    assert shown[1] == f'  "{text}"'
    with pytest.raises(ValueError, match="lang must be one of"):
        model_text(text, "fr")
