"""Lesson 3's repository explorer: its callback is a plain function, checked without a browser."""
import re

import pytest

from ctxlib.i18n import message, translation
from ctxlib.reasons import Reason, Skipped
from ctxlib.fit import pack_files
from ctxlib.repo import read_repo
from ctxlib.course.sample_project import BUDGET, QUERY, build_sample_project
from ctxlib.tokens import count_tokens
from ctxlib.course.widgets import Explorer, describe_repo_pack, make_repo_explorer, repack_repository


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = build_sample_project(tmp_path_factory.mktemp("shop"))
    return {f.path: f.text for f in read_repo(root).files}


# The lesson's default: BM25, auto views, the library's strategy (footholds first), 'vat invoice'
# in 2,000 o200k_base tokens: what `ctxlib pack --scorer bm25` packs.
DEFAULT_CHOSEN = """\
packed (in rank order):
  shop/invoice.py             whole    833 tokens  score 5.885
  tests/test_invoice.py       whole    314 tokens  score 5.814
  shop/vat.py                 whole    480 tokens  score 4.373
relevant files left out:
"""
STOPPED_AT = ("not reached: the walk stopped at docs/billing-handbook.md, whose cheapest view (1,814 tokens) "
              "did not fit in the 1,767 left")


def test_the_default_result_is_the_lessons_pack(files):
    text = repack_repository(files)
    assert (QUERY, BUDGET) == ("vat invoice", 2_000)
    assert text.startswith(DEFAULT_CHOSEN)
    assert text == describe_repo_pack(pack_files(files, QUERY, BUDGET, scorer="bm25"))
    assert "  deploy/invoice_archive.ini  holds a secret (gitleaks: generic-api-key): never packed" in text
    assert ("  docs/billing-handbook.md    the walk stopped here: its cheapest view (1,814 tokens) did not "
            "fit in the 1,767 left") in text
    assert f"  README.md                   {STOPPED_AT}" in text
    assert f"  tests/test_vat.py           {STOPPED_AT}" in text
    assert "  docs/changelog.md           does not fit in what was left, in any view" in text
    assert "budget was full" not in text
    assert "score 0 for the query: 11 files" in text
    assert "files read: 23; tokenized: 6 (only those the packer reached)" in text
    assert text.endswith("rendered pack: 1,624 of 2,000 tokens (o200k_base, counted on the rendered text)")
    # The three blocks, each priced with its separator, add up to 1,627; the rendered whole is 1,624.
    assert 833 + 314 + 480 == 1_627


def test_greedy_is_a_choice_and_packs_what_the_lesson_1_rule_packs(files):
    text = repack_repository(files, strategy="greedy")
    assert text.startswith("packed (in rank order):\n"
                           "  shop/invoice.py             whole    833 tokens  score 5.885\n"
                           "  tests/test_invoice.py       whole    314 tokens  score 5.814\n"
                           "  shop/vat.py                 whole    480 tokens  score 4.373\n"
                           "  tests/test_vat.py           whole    187 tokens  score 3.364\n"
                           "  docs/architecture.md        whole    155 tokens  score 2.562\n"
                           "  shop/__init__.py            whole     30 tokens  score 1.361\n")
    # 7 tokens left, less than any block: here the budget is full.
    assert "  README.md                   not reached: the budget was full" in text
    assert text.endswith("rendered pack: 1,993 of 2,000 tokens (o200k_base, counted on the rendered text)")
    assert 833 + 314 + 480 + 187 + 155 + 30 == 1_999


def test_the_default_result_in_hindi(files):
    text = repack_repository(files, lang="hi")
    assert text.startswith("pack हुई files (rank के क्रम में):\n  shop/invoice.py             whole    833 tokens")
    assert "  deploy/invoice_archive.ini  इसमें secret है (gitleaks: generic-api-key): कभी pack नहीं होती" in text
    assert ("  README.md                   बारी ही नहीं आई: packer docs/billing-handbook.md पर रुक गया; उसका "
            "सबसे सस्ता view (1,814 tokens) बचे हुए 1,767 tokens में नहीं समाया") in text
    assert text.endswith("rendered pack: 2,000 में से 1,624 tokens (o200k_base, rendered text पर गिने गए)")


@pytest.mark.parametrize("change", [
    {"scorer": "terms"},
    {"strategy": "greedy"},
    {"budget": 1_000},
    {"budget": 1_000, "strategy": "knapsack"},
    {"budget": 1_000, "strategy": "density"},
    {"view": "ranges", "budget": 600},
    {"view": "signatures"},
    {"query": "coupon discount"},
])
def test_moving_a_control_gives_what_ctxlib_computes(files, change):
    settings = {"query": QUERY, "budget": BUDGET, "scorer": "bm25", "view": "auto", "strategy": "footholds"}
    settings.update(change)
    text = repack_repository(files, **settings)
    assert text != repack_repository(files)
    query, budget = settings.pop("query"), settings.pop("budget")
    pack = pack_files(files, query, budget, **settings)
    assert text == describe_repo_pack(pack)
    assert pack.used_tokens == count_tokens(pack.text) <= budget


def test_hand_checked_moves(files):
    # Lesson 1's scorer with greedy spends the budget on the handbook: 1,814 tokens of prose, then a test file.
    baseline = repack_repository(files, scorer="terms", view="whole", strategy="greedy")
    assert baseline.startswith("packed (in rank order):\n"
                               "  docs/billing-handbook.md    whole  1,814 tokens  score 224\n"
                               "  tests/test_vat.py           whole    187 tokens  score 13\n")
    assert "rendered pack: 1,999 of 2,000 tokens" in baseline
    # At 1,000 tokens the knapsack packs more value than greedy and drops shop/invoice.py.
    knapsack = repack_repository(files, budget=1_000, strategy="knapsack")
    assert "  shop/invoice.py             not chosen by the knapsack strategy" in knapsack
    assert "  shop/vat.py                 signatures    192 tokens  score 4.373" in knapsack
    # A partial ranges view says how many of the file's ranges it kept.
    ranges = repack_repository(files, budget=600, view="ranges")
    assert "  shop/invoice.py             ranges (2 of 5 ranges)    107 tokens  score 5.885" in ranges
    assert "shop/invoice.py             ranges (ranges: 5 में से 2)" in repack_repository(
        files, budget=600, view="ranges", lang="hi")


@pytest.mark.parametrize("change, message", [
    ({"query": "   "}, "cannot pack: the query has no words to search for, got '   '"),
    ({"query": "?!"}, "cannot pack: the query has no words to search for, got '?!'"),
    ({"budget": 0}, "cannot pack: budget must be a positive whole number of tokens, got 0"),
    ({"budget": -5}, "cannot pack: budget must be a positive whole number of tokens, got -5"),
    ({"scorer": "tfidf"}, "cannot pack: unknown scorer 'tfidf': choose one of signals, bm25, terms, plain"),
    ({"view": "diff"}, "cannot pack: unknown view 'diff': choose one of auto, whole, signatures, ranges"),
    ({"query": "zebra"}, "cannot pack: no file matches the query 'zebra' (23 files read)"),
])
def test_bad_values_give_one_line_not_a_traceback(files, change, message):
    assert repack_repository(files, **change) == message


def test_bad_values_in_hindi(files):
    assert repack_repository(files, budget=0, lang="hi") == (
        "pack नहीं हो सका: बजट tokens की 0 से बड़ी पूर्ण संख्या होना चाहिए, मिला 0")


def test_a_budget_too_small_for_any_view_says_so(files):
    text = repack_repository(files, budget=5)
    assert text.startswith("cannot pack: a budget of 5 tokens is too small for anything: the best match, "
                           "shop/invoice.py, needs ")


def test_an_unknown_language_is_the_notebooks_mistake(files):
    with pytest.raises(ValueError, match="lang must be one of"):
        repack_repository(files, lang="fr")


def test_the_explorer_prints_its_default_and_reads_as_a_note(files, capsys):
    explorer = make_repo_explorer(files, "en")
    assert isinstance(explorer, Explorer)
    assert repr(explorer) == ("[repository explorer: in JupyterLab, edit the query or move a control to "
                              "pack again]")
    labels = [w.description for w in explorer.children[:-1]]
    assert labels == ["query", "budget", "scorer", "view", "strategy"]
    budget = explorer.children[1]
    assert (budget.value, budget.min, budget.max, budget.step) == (2_000, 100, 12_000, 100)
    strategy = explorer.children[4]  # the library's default first and selected, as `ctxlib pack` packs
    assert (strategy.value, list(strategy.options)) == ("footholds", ["footholds", "greedy", "density", "knapsack"])
    # Outside a kernel the Output widget's clear_output writes "erase line, carriage return" first.
    assert capsys.readouterr().out.split("\r")[-1] == repack_repository(files) + "\n"
    budget.value = 1_000  # as a learner would move the slider
    assert capsys.readouterr().out.split("\r")[-1] == repack_repository(files, budget=1_000) + "\n"


def test_the_hindi_explorer_labels(files):
    explorer = make_repo_explorer(files, "hi")
    assert [w.description for w in explorer.children[:-1]] == ["query", "बजट", "scorer", "view", "strategy"]


def test_many_files_left_out_for_one_reason_become_one_line():
    # A real repository leaves hundreds of files "not reached"; the report counts them instead.
    files = {f"docs/note{i:02}.md": "vat rate\n" * 40 + f"n{i:02}\n" for i in range(40)}  # not identical
    pack = pack_files(files, "vat", 300, strategy="greedy")  # greedy's patience rule
    not_reached = [s.path for s in pack.skipped if s.code is Reason.WALK_STOPPED]
    assert len(not_reached) > 12
    text = describe_repo_pack(pack)
    assert (f"  {len(not_reached)} files: not reached: the walk stopped after 10 files in a row that did not fit "
            f"(30 tokens were left) (e.g. {', '.join(not_reached[:3])})") in text
    assert not any(line.startswith(f"  {not_reached[-1]} ") for line in text.splitlines())
    walk_stopped = message("not reached: the walk stopped after {files} files in a row that did not fit "
                           "({left:,} tokens were left)", "hi", files=10, left=30)
    assert walk_stopped.startswith("बारी ही नहीं आई")
    assert f"  {len(not_reached)} files: {walk_stopped} (जैसे " in describe_repo_pack(pack, "hi")


# --- the library's reasons (codes), worded in the learner's language from the catalog -------

from ctxlib.bm25 import FileScore, TermScore
from ctxlib.course.widgets.lesson3 import explain_table, localized_reason, skipped_table


@pytest.mark.parametrize("reason, english, hindi", [
    (Skipped.of("a", Reason.IGNORED), "ignored by .gitignore", ".gitignore में लिखा है"),
    (Skipped.of("a", Reason.CREDENTIAL_FILE, pattern=".env"), "looks like a credential file (.env)",
     "credential file लगती है (.env)"),
    (Skipped.of("a", Reason.SECRET, detector="gitleaks: generic-api-key"),
     "holds a secret (gitleaks: generic-api-key)", "इसमें secret है (gitleaks: generic-api-key)"),
    (Skipped.of("a", Reason.NOT_CHOSEN, strategy="knapsack"), "not chosen by the knapsack strategy",
     "knapsack strategy ने नहीं चुनी"),
    (Skipped.of("a", Reason.DROPPED, over=5), "dropped: the rendered pack was 5 tokens over budget",
     "हटाई गई: rendered pack बजट से 5 tokens ऊपर था"),
    (Skipped.of("a", Reason.TOO_BIG, size=2_000_000, cap=1_000_000),
     "larger than the size cap (2,000,000 bytes > 1,000,000)", "size cap से बड़ी (2,000,000 bytes > 1,000,000)"),
    (Skipped.of("a/", Reason.EXCLUDED_DIR, kind="cache"), "excluded by default (cache)", None),
])
def test_localized_reason_keeps_the_details(reason, english, hindi):
    assert localized_reason(reason, "en") == english == str(reason)
    if hindi:
        assert localized_reason(reason, "hi") == hindi
    else:  # a worded parameter (the kind of folder) is in Hindi too
        assert localized_reason(reason, "hi") == message("excluded by default ({kind})", "hi",
                                                         kind=message("cache", "hi"))


def test_no_reason_is_empty_and_printed_english_is_never_read_back():
    assert localized_reason(None, "hi") == localized_reason("", "hi") == ""
    with pytest.raises(TypeError, match="a reason is a ctxlib.reasons.Skipped"):
        localized_reason("ignored by .gitignore", "hi")
    with pytest.raises(ValueError, match="lang must be one of"):
        localized_reason(Skipped.of("a", Reason.IGNORED), "fr")


def test_every_reason_of_the_sample_project_is_localized(files, tmp_path):
    root = build_sample_project(tmp_path / "shop")
    repo = read_repo(root)
    pack = pack_files({f.path: f.text for f in repo.files}, QUERY, 1_000, skipped=repo.skipped)
    reasons = repo.skipped + repo.notes + pack.skipped
    assert reasons and all(s.text("hi") != s.text("en") for s in reasons), sorted(
        s.reason for s in reasons if s.text("hi") == s.text("en"))


def test_every_reason_code_has_hindi_words():
    for code in Reason:
        for msgid in filter(None, (code.msgid, code.group)):
            assert translation("hi")._catalog.get(msgid), (code, msgid)  # translated (some words stay English)


def test_the_reader_summary_is_wholly_hindi(tmp_path):
    repo = read_repo(build_sample_project(tmp_path / "shop"))
    pack = pack_files({f.path: f.text for f in repo.files}, QUERY, 1_000, skipped=repo.skipped)
    line = next(l for l in describe_repo_pack(pack, "hi").splitlines() if l.startswith("reader"))
    words = re.findall(r"[A-Za-z]+", line.split(":")[0])
    assert words == ["reader", "gitignore", "binary", "credential"], line  # the glossary's English terms


def test_skipped_and_explain_tables_in_hindi(tmp_path):
    repo = read_repo(build_sample_project(tmp_path / "shop"))
    table = skipped_table(repo.skipped, "hi", kept=repo.notes)
    assert ["छोड़ी गई", "vendor/", ".gitignore में लिखा है"] in table.rows
    score = FileScore("shop/vat.py", 3.5, (TermScore("vat", 13, True, False, 0.5, 2.0, 2.0),
                                           TermScore("invoice", 1, False, False, 1.5, 1.0, 1.5)))
    shown = explain_table(score, "hi")
    assert shown.title == "shop/vat.py: BM25 3.500"
    assert shown.rows[0] == ["vat", "13", "हाँ", "-", "0.500", "2.000", "2.000"]
