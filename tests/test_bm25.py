"""Code-aware BM25 (ctxlib/bm25.py): identifier splitting, whole-part counting checked
against the splitter itself, BM25 computed by hand on a tiny corpus, and the sample
project where BM25 finds the right files and the lesson's baseline does not."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctxlib.bm25 import (B, DIR_WEIGHT, K1, NAME_WEIGHT, bm25_scores, code_terms, count_term, explain,
                         query_terms, term_positions)
from ctxlib.fit import rank
from ctxlib.repo import read_repo
from ctxlib.course.sample_project import QUERY, build_sample_project


def test_code_terms_split_identifiers_paths_and_digits():
    assert code_terms("computeVatRate(vat_rate) HTTPServer shop/vat2.py") == [
        "compute", "vat", "rate", "vat", "rate", "http", "server", "shop", "vat", "2", "py"]
    assert code_terms("VATRate parseHTTPHeaders __init__") == ["vat", "rate", "parse", "http", "headers", "init"]


def test_query_terms_are_distinct_code_terms():
    assert query_terms("VAT invoice computeVatRate") == ["vat", "invoice", "compute", "rate"]
    assert query_terms(["Vat", "vat_rate"]) == ["vat", "rate"]
    with pytest.raises(ValueError, match=re.escape("the query has no words to search for, got '  !? '")):
        query_terms("  !? ")


def test_count_term_counts_whole_parts_only():
    text = "vat_rate = computeVatRate(VAT) or VATRate; private activate elevate"
    assert count_term(text, "vat") == 4  # the baseline's substring count says 7
    assert text.lower().count("vat") == 7
    assert term_positions("vat_rate = computeVatRate(); private", "vat") == [0, 18]
    assert count_term("invoices invoice2 Invoice", "invoice") == 2  # no stemming: "invoices" is its own term
    assert count_term("x1 21 1", "1") == 2


def test_term_positions_finds_each_way_of_writing_a_part():
    # VAT|Rate, VATS (one acronym), Vat, vat|2, private (no), HTTP|Vat: offsets 0, 13, 17 and 34.
    assert term_positions("VATRate VATS Vat vat2 private HTTPVat", "vat") == [0, 13, 17, 34]
    # One letter: a, A, AB (one acronym), A|Bc, Ab (one word): offsets 0, 2 and 7.
    assert term_positions("a A AB ABc Ab", "a") == [0, 2, 7]
    assert term_positions("x1 21 1", "1") == [1, 6]


# Letters that stress the rules: case changes, digits, separators, and non-ASCII characters,
# including ones whose lower case is longer ("İ") or becomes ASCII (the Kelvin sign).
IDENTIFIERS = st.text(alphabet="vVaAtTbB_1 .éİ\u212a", max_size=16)


@settings(max_examples=400, deadline=None)
@given(IDENTIFIERS)
def test_count_term_agrees_with_the_splitter(text):
    expected = {}
    for term in code_terms(text):
        expected[term] = expected.get(term, 0) + 1
    for term in set(expected) | {"vat", "v", "ta", "1", "b"}:
        assert count_term(text, term) == expected.get(term, 0), (text, term)
        assert len(term_positions(text, term)) == expected.get(term, 0), (text, term)


def test_bm25_by_hand_on_a_tiny_corpus():
    files = {"a/vat.py": "vat vat rate", "b/notes.md": "invoice vat", "c/other.txt": "nothing here"}
    scores = bm25_scores(files, "vat invoice")
    # N = 3; df(vat) = 2, df(invoice) = 1; lengths 12, 11, 12 characters, average 35/3.
    idf_vat, idf_invoice = 0.470004, 0.980829  # ln(1 + 1.5/2.5), ln(1 + 2.5/1.5)
    norm_a = 1 - B + B * 12 / (35 / 3)  # 1.021429
    body_a = 2 * (K1 + 1) / (2 + K1 * norm_a)  # 4.4 / 3.225714 = 1.364039
    assert body_a == pytest.approx(1.364039, abs=1e-6)
    assert scores["a/vat.py"].score == pytest.approx(idf_vat * (1.364039 + NAME_WEIGHT), abs=1e-5)
    assert scores["a/vat.py"].score == pytest.approx(1.581111, abs=1e-5)
    norm_b = 1 - B + B * 11 / (35 / 3)  # 0.957143
    body_b = 1 * (K1 + 1) / (1 + K1 * norm_b)  # 2.2 / 2.148571 = 1.023936
    assert body_b == pytest.approx(1.023936, abs=1e-6)
    assert scores["b/notes.md"].score == pytest.approx((idf_vat + idf_invoice) * 1.023936, abs=1e-5)
    assert scores["c/other.txt"].score == 0.0
    vat = scores["a/vat.py"].terms[0]
    assert (vat.term, vat.body_tf, vat.in_name, vat.in_folders) == ("vat", 2, True, False)
    assert vat.idf == pytest.approx(idf_vat, abs=1e-6)


def test_folder_names_count_with_their_own_weight():
    scores = bm25_scores({"vat/rules.py": "rate", "other/rules.py": "rate", "x.py": "vat"}, "vat")
    idf = scores["vat/rules.py"].terms[0].idf
    assert scores["vat/rules.py"].score == pytest.approx(idf * DIR_WEIGHT)


def test_explain_shows_each_terms_share():
    files = {"a/vat.py": "vat vat rate", "b/notes.md": "invoice vat", "c/other.txt": "nothing here"}
    scores = bm25_scores(files, "vat invoice")
    assert explain(scores["a/vat.py"]).splitlines() == [
        "a/vat.py: BM25 1.581",
        "  term         body tf  name folder    idf   body   share",
        "  vat                2   yes      -  0.470  1.364   1.581",
        "  invoice            0     -      -  0.981  0.000   0.000",
    ]


@pytest.fixture(scope="module")
def sample_files(tmp_path_factory):
    root = build_sample_project(tmp_path_factory.mktemp("shop"))
    return {f.path: f.text for f in read_repo(root).files}


def test_bm25_finds_the_vat_and_invoice_code_where_the_baseline_does_not(sample_files):
    bm25 = [path for path, _ in rank(sample_files, QUERY, "bm25")]
    baseline = rank(sample_files, QUERY, "terms")
    assert bm25[:4] == ["shop/invoice.py", "tests/test_invoice.py", "shop/vat.py", "deploy/invoice_archive.ini"]
    assert bm25.index("tests/test_vat.py") < bm25.index("shop/orders.py")
    # The baseline puts the two long documents first, and the account module ("activate",
    # "private") above shop/vat.py, because "vat" is a substring of those words.
    assert baseline[:4] == [("docs/changelog.md", 576.0), ("docs/billing-handbook.md", 224.0),
                            ("shop/invoice.py", 55.0), ("shop/accounts.py", 43.0)]
    assert dict(rank(sample_files, QUERY, "bm25"))["shop/accounts.py"] == 0.0


def test_camel_case_identifiers_are_found(sample_files):
    top_two = {path for path, _ in rank(sample_files, "computeVatRate", "bm25")[:2]}
    assert top_two == {"shop/vat.py", "tests/test_vat.py"}


def test_a_query_in_another_script_points_to_the_terms_scorer():
    with pytest.raises(ValueError, match="BM25 here reads ASCII identifiers only; for other scripts use the terms scorer"):
        query_terms("कर")


def test_one_idf_for_bm25_the_baseline_and_the_signals():
    from ctxlib.bm25 import inverse_document_frequency

    assert inverse_document_frequency(10, 1) == pytest.approx(1.992430, abs=1e-6)  # ln(1 + 9.5 / 1.5)
    assert inverse_document_frequency(10, 10) == pytest.approx(0.046520, abs=1e-6)  # in every file: still > 0
