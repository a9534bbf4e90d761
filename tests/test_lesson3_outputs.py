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


@pytest.mark.parametrize("lang", LANGS)
def test_the_repository_does_not_fit_and_the_reader_says_what_it_skipped(lang):
    text = saved_text(lang)
    assert "28 files, 47,261 bytes on disk" in text
    assert "23 text files kept by the reader: 10,168 tokens" in text
    assert "budget: 2,000 tokens, so the repository is 5.1 times the budget" in text
    assert "  docs/changelog.md           3,916 tokens" in text
    assert "skipped  .env                       looks like a credential file" in text
    assert "skipped  static/logo.png            binary (NUL bytes in the first 8 KiB)" in text
    assert "skipped  vendor/                    ignored by .gitignore" in text
    assert "kept     data/legacy_customers.csv  not valid UTF-8" in text
    assert "deploy/invoice_archive.ini   holds a secret (gitleaks: generic-api-key)" in text
    assert "shop/payments.py             no secret found" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_baseline_is_fooled_and_bm25_is_not(lang):
    text = saved_text(lang)
    assert "shop/vat.py is number 7" in text
    assert "shop/accounts.py: 'vat' as a substring 43 times, as a whole identifier part 0 times" in text
    assert "docs/changelog.md  16,471 characters, 'vat' 288 times, 'invoice' 216 times" in text
    assert " 1. docs/changelog.md           576   shop/invoice.py            5.885" in text
    assert " 3. shop/invoice.py              55   shop/vat.py                4.373" in text
    assert "  vat               13   yes      -  0.827  2.018   3.322" in text
    assert "  vat              288     -      -  0.827  2.136   1.766" in text
    assert "terms: 1,999 of 2,000 tokens\n  docs/billing-handbook.md    1,814 tokens" in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_views_of_invoice_py_and_their_costs(lang):
    text = saved_text(lang)
    for line in ("whole file                             821 tokens",
                 "one function: Invoice.vat_total         63 tokens",
                 "signatures only                        335 tokens",
                 "line ranges around 'vat invoice'       946 tokens",
                 "line ranges around 'rounding'           79 tokens",
                 "'vat invoice': hits on 37 of the file's 87 lines; with 2 lines of context each side "
                 "the ranges show 80"):
        assert line in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_hard_budget_is_checked_on_the_rendered_text(lang):
    text = saved_text(lang)
    assert "count_tokens(pack.text) = 1,993 <= budget 2,000: True" in text
    assert "the 6 files' own texts: 1,925 tokens; headers and separators: 68" in text
    assert "the blocks priced one by one: 1,999; counted together: 1,993" in text
    assert "the first block: 832 tokens; with the blank line after it: 832" in text
    total = {"en": "rendered pack: 1,993 of 2,000 tokens (o200k_base, counted on the rendered text)",
             "hi": "rendered pack: 2,000 में से 1,993 tokens (o200k_base, rendered text पर गिने गए)"}[lang]
    assert text.count(total) == 2  # section 7 and the explorer's default


@pytest.mark.parametrize("lang", LANGS)
def test_what_greedy_gives_up_against_the_knapsack(lang):
    text = saved_text(lang)
    assert "greedy by score            score  9.249   995 tokens: shop/invoice.py, tests/test_vat.py" in text
    assert ("exact knapsack             score 13.552   944 tokens: tests/test_invoice.py, shop/vat.py, "
            "tests/test_vat.py") in text
    assert "greedy    value 12.754   985 tokens  4 files; keeps shop/invoice.py" in text
    assert "knapsack  value 18.297   989 tokens  8 files; drops shop/invoice.py" in text
    assert "40 files x 70,001 token counts = 2,800,040 cells: refused" in text


@pytest.mark.parametrize("lang, heading, starter", [
    ("en", "Quick check 8 of 8", "Not attempted yet: your my_terms still returns None"),
    ("hi", "त्वरित जाँच 8 (8 में से)", "अभी कोशिश नहीं हुई: आपका my_terms अब भी"),
])
def test_the_quick_checks_and_the_exercise_are_saved(lang, heading, starter):
    text = saved_text(lang)
    assert heading in text and starter in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_own_repository_cell_is_skipped_and_never_saved(lang):
    yours = [c for c in code_cells(lang) if "pack_repository(your_root" in "".join(c["source"])]
    assert len(yours) == 1
    cell = yours[0]
    assert "".join(cell["source"]).startswith("# NBVAL_SKIP\n")
    assert "skip-execution" in cell["metadata"]["tags"]
    assert cell["execution_count"] is None and cell["outputs"] == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_secret_value_is_saved(lang):
    raw = (saved_outputs.LESSONS / lang / NAME).read_text(encoding="utf-8")
    for piece in ("AKIA", "sk_test_", "wJalrXUtnFEMI", "bPxRfiCY"):
        assert piece not in raw
