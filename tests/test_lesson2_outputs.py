"""Lesson 2's saved outputs hold the figures the lesson states; nbval re-runs the cells and
fails if any output changes, these tests fail if a figure the lesson relies on goes missing."""
import html
import re

import pytest
import saved_outputs

NAME = "02_running_total.ipynb"


def outputs(lang):
    return saved_outputs.outputs(lang, NAME)


def saved_text(lang):
    return saved_outputs.saved_text(lang, NAME)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_ceilings_and_the_max_tokens_stop_are_saved(lang):
    text = saved_text(lang)
    # The prose's bare figures (94,000, 70,000, 35%, 58,000, 1.7%, 0.58%, ...) are read from the prose itself
    # and checked against these outputs in test_prose_figures.py; here, the lines they sit in.
    assert "[stop_reason: max_tokens]" in text
    # The 180,000 fill with equal diffs stops at attempt 2; both reconstructions give the trace.
    assert ("attempt 2/4  model=coding-agent-v2  input_tokens=196,000  max_tokens=4,000\n"
            "[stop_reason: max_tokens]") in text
    trace = ("attempt 3/4  model=coding-agent-v2  input_tokens=198,412  max_tokens=1,588\n"
             "[stop_reason: max_tokens]")
    assert text.count(trace) == 2
    assert ("attempt 2/4  model=coding-agent-v2  input_tokens=195,206  max_tokens=4,794\n"
            "[stop_reason: end_turn]") in text
    assert "200,000 / 12,000,000 = 0.0167" in text and "70,000 / 12,000,000 = 0.0058" in text


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_real_measurements_are_saved_in_exact_tokens(lang):
    text = saved_text(lang)
    # The rendered tool schemas of the course's agent, then with four tool servers added.
    for row in ("5   1,530", "21   3,415"):
        assert row in text, f"{lang}: prefix row {row!r} missing"
    # The real pytest runs of the planted bugs: summaries and exact token counts.
    for summary, tokens in (("1 failed, 11 passed, 1 xfailed", "166"), ("2 failed, 10 passed, 1 xfailed", "334"),
                            ("3 failed, 9 passed, 1 xfailed", "482"), ("4 failed, 8 passed, 1 xfailed", "1,189")):
        assert re.search(re.escape(summary) + r" +" + re.escape(tokens) + r" ", text), summary
    # The synthetic log's tail ratios and the real SWE-agent runs.
    assert "1.39     3.42" in text and "1.13     1.24" in text
    assert "498  8,671  56,792     6.55" in text


@pytest.mark.parametrize("lang, header", [
    ("en", "turn  prefix+task    files  diffs  diagnostics  cut so far    input  reply room  reply"
           "  stop_reason"),
    ("hi", "turn  prefix+task    files  diffs  diagnostics  अब तक कटे    input  जवाब की जगह   जवाब"
           "  stop_reason"),
])
def test_the_per_turn_ledger_table_is_saved(lang, header):
    text = saved_text(lang)
    assert header in text
    assert "   3       10,000  180,000  6,000        2,412" in text


def test_the_ceilings_read_the_same_in_hindi():
    assert "पहले turn की ceiling: 70,000 tokens (200,000-token window का 35%)" in saved_text("hi")
    assert "first-turn ceiling: 70,000 tokens (35% of the 200,000-token window)" in saved_text("en")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_per_turn_charts_are_saved_as_images(lang):
    charts = [out for out in outputs(lang) if "image/png" in out.get("data", {})
              or 'class="ctxlib-chart"' in "".join(out.get("data", {}).get("text/html", ""))]
    # The stated run, the tail-keeping reconstruction, the 70,000 fill at p90, the explorer's default.
    assert len(charts) == 4
    for out in charts:  # before re-execution a PNG with a Figure repr; after, an image with its text alternative
        text = "".join(out["data"]["text/plain"])
        if "text/html" in out["data"]:
            assert text.startswith({"en": "Chart: ", "hi": "चार्ट: "}[lang]) and "200,000" in text
            assert f'alt="{html.escape(text)}"' in "".join(out["data"]["text/html"])
        else:
            assert text.startswith("<Figure size")
