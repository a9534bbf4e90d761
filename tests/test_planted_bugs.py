"""Real diagnostics: the sample project with planted bugs, run under the real pytest."""
import pytest

from ctxlib import count_tokens
from ctxlib.course.planted_bugs import PLANTED, diagnostics, normalize, plant, summary_line
from ctxlib.course.sample_project import SAMPLE_DIR, sample_files


@pytest.fixture(scope="module")
def runs():
    return {name: diagnostics(name) for name in PLANTED}


def test_each_planted_copy_fails_as_named(runs):
    assert {name: summary_line(out) for name, out in runs.items()} == {
        "one failure": "1 failed, 11 passed, 1 xfailed",
        "two failures": "2 failed, 10 passed, 1 xfailed",
        "three failures": "3 failed, 9 passed, 1 xfailed",
        "cascade from one bad signature": "4 failed, 8 passed, 1 xfailed"}


def test_tracebacks_at_the_head_summary_at_the_tail(runs):
    lines = runs["three failures"].splitlines()
    assert lines[1].startswith("=") and "FAILURES" in lines[1]
    assert any(line.startswith("E       AssertionError") for line in lines[:20])
    assert lines[-1] == "3 failed, 9 passed, 1 xfailed"
    assert all(line.startswith("FAILED tests/") for line in lines[-4:-1])


def test_exact_token_counts_grow_with_the_failures(runs):
    tokens = {name: count_tokens(out) for name, out in runs.items()}
    assert tokens == {"one failure": 166, "two failures": 334, "three failures": 482,
                      "cascade from one bad signature": 1_189}


def test_the_output_is_the_same_on_every_run_and_holds_no_temporary_path(runs):
    again = diagnostics("two failures")
    assert again == runs["two failures"]
    for out in runs.values():
        assert "/tmp" not in out and "ctxlib-planted" not in out and " in 0." not in out


def test_the_shipped_project_is_never_changed(tmp_path):
    before = sample_files()
    plant(tmp_path / "copy", "cascade from one bad signature")
    assert sample_files() == before
    assert "places: int" in (tmp_path / "copy" / "shop" / "money.py").read_text()
    assert "places: int" not in (SAMPLE_DIR / "shop" / "money.py").read_text()


def test_normalize_strips_what_varies():
    out = "== 1 failed, 12 passed in 3.74s ==\nat /x/y/shop/vat.py obj 0x7f3a2b1c9d80\n"
    assert normalize(out, "/x/y") == "== 1 failed, 12 passed ==\nat <project>/shop/vat.py obj 0x...\n"


def test_an_unknown_plant_is_named(tmp_path):
    with pytest.raises(KeyError, match="no planted bug 'four failures'; known: one failure"):
        plant(tmp_path, "four failures")
