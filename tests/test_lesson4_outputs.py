"""Lesson 4's saved outputs hold the figures its prose states (nbval re-runs the cells; these tests
fail if a figure the prose relies on goes missing from either language)."""
import pytest
import saved_outputs

NAME = "04_what_to_remove.ipynb"


@pytest.fixture(params=["en", "hi"])
def text(request):
    return saved_outputs.saved_text(request.param, NAME)


def test_the_60000_overflow_under_each_rule(text):
    assert "206,000" in text and "context_length_exceeded" in text  # nothing removed: refused at turn 4
    for figure in ("560,000", "392,000", "592,000", "678,000", "202,022", "198,000"):
        assert figure in text, figure
    assert text.count("head_trim") >= 3


def test_the_40_turn_run_and_its_costs(text):
    for figure in ("551,689", "748,867", "553,214", "401,435", "627,650", "20,113", "19,151"):
        assert figure in text, figure
    for figure in ("376,754", "373,936", "133,128", "105,464", "95,178"):  # with a prompt cache
        assert figure in text, figure
    assert "36%, 38%, 39%" in text and "96%, 98%, 96%" in text  # cached shares, masking vs compaction
    assert "10,664" in text and "20,489" in text  # masking's input still grows, request 13 to 40


def test_masking_with_polling_beside_compaction(text):
    # keep_last=10 with polling 1, 5, 10 (SWE-agent's LastNObservations) against compaction's 133,128
    for figure in ("376,754", "158,771", "133,391", "133,128", "640,544"):
        assert figure in text, figure
    assert "polling=10" in text


def test_the_real_runs_and_the_simulator_against_them(text):
    # nearest-rank p50s, the course's one percentile rule (Lesson 2 gives the same 8,671)
    for figure in ("19,151", "10,246", "8,671", "53.4%", "54.8%", "53.8%", "1.29", "0.61", "0.64", "40.4%", "36.4%"):
        assert figure in text, figure
    for figure in ("46.5%", "31.2%", "51.5%", "6.9%"):
        assert figure in text, figure
    # the bill at the real runs' 0.4x: the simulator's summary 33.9% cheaper, the measured one 4.3% dearer
    assert "33.9%" in text and "4.3%" in text and "388,990" in text and "257,287" in text


def test_the_openhands_runs(text):
    for figure in ("43,616", "246", "23.4%", "34.6%", "37.2%"):
        assert figure in text, figure
