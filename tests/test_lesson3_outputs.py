"""Lesson 3's saved outputs hold the figures the lesson states; nbval re-runs the cells and
fails if any output changes, these tests fail if a figure the prose relies on goes missing."""
import pytest
import saved_outputs

NAME = "03_real_repository.ipynb"
LANGS = ["en", "hi"]


def code_cells(lang):
    return saved_outputs.code_cells(lang, NAME)


def saved_text(lang):
    return saved_outputs.saved_text(lang, NAME)


from ctxlib.i18n import message
from ctxlib.course.widgets.lesson3 import localized_reason
from ctxlib.reasons import Reason, Skipped


@pytest.mark.parametrize("lang", LANGS)
def test_the_repository_does_not_fit_and_the_reader_says_what_it_skipped(lang):
    text = saved_text(lang)
    assert message("{n} files, {size:,} bytes on disk", lang, n=28, size=47_261) in text
    assert message("{n} text files kept by the reader: {total:,} tokens", lang, n=23, total=10_168) in text
    for reason in (Skipped.of(".env", Reason.CREDENTIAL_FILE, pattern=".env"), Skipped(".", Reason.BINARY),
                   Skipped(".", Reason.IGNORED), Skipped.of(".", Reason.SECRET, detector="gitleaks: generic-api-key")):
        assert localized_reason(reason, lang) in text
    assert message("no secret found", lang) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_baseline_is_fooled_by_substrings(lang):
    text = saved_text(lang)
    assert message("shop/accounts.py: 'vat' as a substring {substring} times, as a whole identifier part {whole} times",
                   lang, substring=43, whole=0) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_views_of_invoice_py_and_their_costs(lang):
    text = saved_text(lang)
    assert message("{query!r}: hits on {hits} of the file's {lines} lines; with 2 lines of context each side the ranges "
                   "show {shown}", lang, query="vat invoice", hits=37, lines=87, shown=80) in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_hard_budget_is_checked_on_the_rendered_text(lang):
    text = saved_text(lang)
    total = {"en": "rendered pack: 1,624 of 2,000 tokens (o200k_base, counted on the rendered text)",
             "hi": "rendered pack: 2,000 में से 1,624 tokens (o200k_base, rendered text पर गिने गए)"}[lang]
    assert text.count(total) == 2  # section 7 and the explorer's default, both BM25 alone, footholds first
    capstone = {"en": "rendered pack: 1,921 of 2,000 tokens (o200k_base, counted on the rendered text)",
                "hi": "rendered pack: 2,000 में से 1,921 tokens (o200k_base, rendered text पर गिने गए)"}[lang]
    assert text.count(capstone) == 1  # the capstone packs as ctxlib pack does: BM25 plus the signals


@pytest.mark.parametrize("lang", LANGS)
def test_the_knapsack_table_size_is_refused_above_the_limit(lang):
    assert message("ctxlib's limit: {n:,} cells", lang, n=1_000_000) in saved_text(lang)


@pytest.mark.parametrize("lang, heading, starter", [
    # 16 questions, 5 of them code exercises: the last of the 11 quick checks (section 11's, on what the
    # harness decides), then the capstone.
    ("en", "Quick check 11 of 11", "Not attempted yet: capstone still packs the lesson's own example"),
    ("hi", "त्वरित जाँच 11 (11 में से)", "अभी कोशिश नहीं हुई: capstone अब भी पाठ का अपना उदाहरण"),
])
def test_the_quick_checks_and_the_capstone_are_saved(lang, heading, starter):
    text = saved_text(lang)
    assert heading in text and starter in text


@pytest.mark.parametrize("lang", LANGS)
def test_no_secret_value_is_saved(lang):
    raw = (saved_outputs.LESSONS / lang / NAME).read_text(encoding="utf-8")
    for piece in ("AKIA", "sk_test_", "wJalrXUtnFEMI"):
        assert piece not in raw


@pytest.mark.parametrize("lang", LANGS)
def test_is_the_ranking_any_good_is_saved(lang):
    text = saved_text(lang)
    assert "'Round VAT to whole cents, half up, as the finance team does'" in text  # the miss, in both
    # the mean reciprocal ranks the prose states (0.893, 0.810) are checked from the prose: test_prose_figures.py
    assert "+ imports      shop/money.py  35.51" in text  # the step that drops shop/vat.py to 4th
