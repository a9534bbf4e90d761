"""Lesson 2's saved outputs hold the figures the lesson states; nbval re-runs the cells and
fails if any output changes, these tests fail if a figure the lesson relies on goes missing."""
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
    for figure in ("94,000", "70,000", "35%", "58,000", "[stop_reason: max_tokens]"):
        assert figure in text, f"{lang}: {figure!r} missing from the saved outputs"
    # The 180,000 fill as stated stops at attempt 2; the 176,412 fill gives the chapter's trace.
    assert ("attempt 2/4  model=coding-agent-v2  input_tokens=196,000  max_tokens=4,000\n"
            "[stop_reason: max_tokens]") in text
    assert ("attempt 3/4  model=coding-agent-v2  input_tokens=198,412  max_tokens=1,588\n"
            "[stop_reason: max_tokens]") in text
    assert "200,000 / 12,000,000 = 0.0167, about 1.7% of the repository" in text


@pytest.mark.parametrize("lang, header", [
    ("en", "turn  prefix+task    files   diffs  diagnostics  cut so far    input  reply room  reply"
           "  stop_reason"),
    ("hi", "turn  prefix+task    files   diffs  diagnostics  अब तक कटे    input  जवाब की जगह   जवाब"
           "  stop_reason"),
])
def test_the_per_turn_ledger_table_is_saved(lang, header):
    text = saved_text(lang)
    assert header in text
    assert "   3       10,000  176,412  12,000            0" in text


def test_the_ceilings_read_the_same_in_hindi():
    assert "पहले turn की ceiling: 70,000 tokens (200,000-token window का 35%)" in saved_text("hi")
    assert "first-turn ceiling: 70,000 tokens (35% of the 200,000-token window)" in saved_text("en")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_per_turn_charts_are_saved_as_images(lang):
    charts = [out for out in outputs(lang) if "image/png" in out.get("data", {})]
    # The stated run, the 176,412 run, the 70,000 fill at p90, and the explorer's default.
    assert len(charts) == 4
    assert all("".join(out["data"]["text/plain"]).startswith("<Figure size") for out in charts)
