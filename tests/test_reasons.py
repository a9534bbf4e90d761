"""Reasons are codes: rewording one in the catalog changes what is read, never what the code decides."""
import shutil

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from ctxlib import i18n, packing, repo, safefile
from ctxlib.cli import format_pack_report, format_skipped
from ctxlib.course.sample_project import QUERY, build_sample_project
from ctxlib.course.widgets.lesson3 import describe_repo_pack, skipped_table
from ctxlib.fit import pack_files
from ctxlib.reasons import Reason, Skipped, group_by_reason


def test_one_skipped_for_the_reader_and_both_packers():
    assert repo.Skipped is packing.Skipped is safefile.Skipped is Skipped
    s = Skipped.of("x.py", Reason.NO_ROOM, cost=1_046, left=23)
    assert (s.path, s.code, s.param("cost"), s.param("left")) == ("x.py", Reason.NO_ROOM, 1_046, 23)
    assert str(s) == s.reason == "1,046 tokens do not fit in the 23 left"
    assert s.at("y.py") == Skipped("y.py", Reason.NO_ROOM, (("cost", 1_046), ("left", 23)))
    assert Reason("no-room") is Reason.NO_ROOM  # the code as JSON would carry it


def test_a_reason_names_its_parameters_when_made_not_when_printed():
    with pytest.raises(KeyError):
        Skipped.of("big.csv", Reason.TOO_BIG, size=10)
    with pytest.raises(TypeError, match="must be a ctxlib.reasons.Reason"):
        Skipped.of("a.py", "ignored by .gitignore")


def test_groups_are_by_code_and_per_file_details_do_not_split_them():
    big = [Skipped.of(f"d{i}.csv", Reason.TOO_BIG, size=2_000 + i, cap=1_000) for i in range(3)]
    kinds = [Skipped.of("a/", Reason.EXCLUDED_DIR, kind="cache"), Skipped.of("p", Reason.NOT_REGULAR, kind="a socket"),
             Skipped.of("v/", Reason.EXCLUDED_DIR, kind="virtual environment"),
             Skipped.of("q", Reason.NOT_REGULAR, kind="a named pipe (FIFO)")]
    # EXCLUDED_DIR has words for a group ("excluded by default"); NOT_REGULAR's words depend on the kind.
    assert [[s.path for s in g] for g in group_by_reason(big + kinds)] == [
        ["d0.csv", "d1.csv", "d2.csv"], ["a/", "v/"], ["p"], ["q"]]
    assert format_skipped(big, [], listed=2) == [
        "ctxlib count: skipped: 3 files: larger than the size cap (e.g. d0.csv, d1.csv, d2.csv)"]
    assert Skipped("x/", Reason.EXCLUDED_DIR, (("kind", "cache"),)).text("hi") == \
        i18n.message("excluded by default ({kind})", "hi", kind=i18n.message("cache", "hi"))


def reword_english(folder, monkeypatch):
    """Point the catalogs at ``folder``: its English words two reasons differently; Hindi as shipped."""
    for lang in i18n.LANGS:
        (folder / lang / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(i18n.LOCALE_DIR / "hi" / "LC_MESSAGES" / "ctxlib.mo", folder / "hi" / "LC_MESSAGES")
    with open(i18n.LOCALE_DIR / "en" / "LC_MESSAGES" / "ctxlib.po", "rb") as f:
        catalog = read_po(f)
    catalog[Reason.NO_MATCH.msgid].string = "no query term in it"
    catalog[Reason.IGNORED.msgid].string = "listed in a .gitignore (not read)"
    with open(folder / "en" / "LC_MESSAGES" / "ctxlib.mo", "wb") as f:
        write_mo(f, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", folder)
    i18n.translation.cache_clear()


@pytest.fixture
def catalogs_restored():
    yield
    i18n.translation.cache_clear()  # monkeypatch has put LOCALE_DIR back by now


def _pack(root):
    found = repo.read_repo(root)
    return pack_files({f.path: f.text for f in found.files}, QUERY, 1_000, skipped=found.skipped)


def test_rewording_english_changes_neither_hindi_nor_the_grouping(tmp_path, monkeypatch, catalogs_restored):
    root = build_sample_project(tmp_path / "shop")
    before = _pack(root)
    hindi_before, report_before = describe_repo_pack(before, "hi"), format_pack_report(before, QUERY)
    table_before = skipped_table(before.skipped, "hi").rows

    reword_english(tmp_path / "locale", monkeypatch)
    assert i18n.message(Reason.NO_MATCH.msgid) == "no query term in it"
    after = _pack(root)
    assert after.skipped == before.skipped  # the same codes and parameters: the wording is not data
    assert describe_repo_pack(after, "hi") == hindi_before
    assert skipped_table(after.skipped, "hi").rows == table_before
    report = format_pack_report(after, QUERY)
    zero = sum(s.code is Reason.NO_MATCH for s in after.skipped)
    assert zero > 1
    assert f"  {zero:,} files: no query term in it (e.g. " in report
    assert f"  {zero:,} files: scores 0 for the query (e.g. " in report_before
    assert "  vendor/: listed in a .gitignore (not read)" in report.splitlines()
    assert [line.split(":")[0] for line in report.splitlines()] == \
        [line.split(":")[0] for line in report_before.splitlines()]  # same lines, same groups


# --- footholds first stops at a file: the files after it say where, the budget was not full ---------

from ctxlib import strategies  # noqa: E402


def _one_view(path, tokens):
    """A file with one view whose text is ``tokens`` characters; the cost below counts characters."""
    return [strategies.Option.of(path, "whole", "x" * tokens, 1.0)]


def _chars(option, limit):
    return len(option.text)


def test_footholds_first_names_the_file_that_stopped_its_walk():
    # 10 tokens: a (3) leaves 7, b (5) leaves 2, c (4) does not fit in 2: the walk stops at c; d waits.
    files = [_one_view("a", 3), _one_view("b", 5), _one_view("c", 4), _one_view("d", 1)]
    walk = strategies.footholds_first(iter(files), 10, _chars)
    assert [(o.path, t) for o, t in walk.chosen] == [("a", 3), ("b", 5)]
    assert (walk.reached, walk.stopped_at, walk.waiting) == (3, ("c", 4, 2), ())
    # Nothing stops it when every foothold fits.
    assert strategies.footholds_first(iter(files[:2]), 10, _chars).stopped_at == ()


def test_a_deferred_file_can_stop_the_walk_and_the_deferred_after_it_wait():
    # defer_tokens 5: big1 (6) and big2 (7) wait; a, b, c take 3 + 2 + 1 of 10, leaving 4.
    # Then big1 (6) does not fit in 4: the walk stops at it, and big2, never tried, waits.
    files = [_one_view("a", 3), _one_view("big1", 6), _one_view("b", 2), _one_view("big2", 7), _one_view("c", 1)]
    walk = strategies.footholds_first(iter(files), 10, _chars, defer_tokens=5)
    assert [o.path for o, _ in walk.chosen] == ["a", "b", "c"]
    assert (walk.reached, walk.stopped_at, walk.waiting) == (5, ("big1", 6, 4), ("big2",))
    # A stop before the deferred step leaves every deferred file waiting: a (3) leaves 7, big (6)
    # is deferred, b (4) leaves 3, c (4) does not fit in 3.
    walk = strategies.footholds_first(iter([_one_view("a", 3), _one_view("big", 6), _one_view("b", 4),
                                            _one_view("c", 4)]), 10, _chars, defer_tokens=5)
    assert (walk.stopped_at, walk.waiting) == (("c", 4, 3), ("big",))


@pytest.fixture(scope="module")
def shop_files(tmp_path_factory):
    found = repo.read_repo(build_sample_project(tmp_path_factory.mktemp("shop")))
    return {f.path: f.text for f in found.files}


NOT_REACHED = ["README.md", "data/legacy_customers.csv", "docs/architecture.md", "shop/__init__.py",
               "shop/orders.py", "tests/test_vat.py"]


def test_the_lessons_pack_says_where_the_walk_stopped(shop_files):
    # Lesson 3's pack: BM25, 2,000 tokens. The footholds of the three best files are their cheapest
    # views: shop/invoice.py ranges 51, tests/test_invoice.py signatures 68, shop/vat.py ranges 115.
    # The walk's room is 2,000 + 1 (the text format has no frame; one separator given back), so
    # 2,001 - 234 = 1,767 tokens are left when docs/billing-handbook.md, whose cheapest view is
    # 1,814 tokens, comes next: the walk stops there, and widening then spends the room.
    pack = pack_files(shop_files, QUERY, 2_000, scorer="bm25")
    assert [c.path for c in pack.chosen] == ["shop/invoice.py", "tests/test_invoice.py", "shop/vat.py"]
    by_path = {s.path: s for s in pack.skipped}
    stopper = by_path["docs/billing-handbook.md"]
    assert (stopper.code, stopper.params) == (Reason.STOPPED_HERE, (("cost", 1_814), ("left", 1_767)))
    assert sorted(p for p, s in by_path.items() if s.code is Reason.STOPPED_AT) == NOT_REACHED
    assert {by_path[p].params for p in NOT_REACHED} == {
        (("file", "docs/billing-handbook.md"), ("cost", 1_814), ("left", 1_767))}
    assert not any(s.code is Reason.BUDGET_FULL for s in pack.skipped)  # 376 tokens are unused
    assert pack.used_tokens == 1_624
    assert by_path["README.md"].text() == ("not reached: the walk stopped at docs/billing-handbook.md, whose "
                                           "cheapest view (1,814 tokens) did not fit in the 1,767 left")
    assert stopper.text() == "the walk stopped here: its cheapest view (1,814 tokens) did not fit in the 1,767 left"
    assert by_path["README.md"].text("hi") == (
        "बारी ही नहीं आई: packer docs/billing-handbook.md पर रुक गया; उसका सबसे सस्ता view (1,814 tokens) "
        "बचे हुए 1,767 tokens में नहीं समाया")
    assert stopper.text("hi") == ("packer यहीं रुक गया: इसका सबसे सस्ता view (1,814 tokens) "
                                  "बचे हुए 1,767 tokens में नहीं समाया")


def test_the_report_groups_the_files_after_the_stop_and_names_the_stopper(shop_files):
    pack = pack_files(shop_files, QUERY, 2_000, scorer="bm25")
    lines = format_pack_report(pack, QUERY).splitlines()
    assert ("  6 files: not reached: the walk stopped at docs/billing-handbook.md, whose cheapest view "
            "(1,814 tokens) did not fit in the 1,767 left (e.g. README.md, data/legacy_customers.csv, "
            "docs/architecture.md)") in lines
    assert ("  docs/billing-handbook.md: the walk stopped here: its cheapest view (1,814 tokens) did not "
            "fit in the 1,767 left") in lines
    assert not any(p in line for line in lines for p in NOT_REACHED[3:])  # only three named, on that line
    groups = [g for g in group_by_reason(pack.skipped) if g[0].code is Reason.STOPPED_AT]
    assert [[s.path for s in g] for g in groups] == [NOT_REACHED]


def test_the_budget_is_full_only_where_it_is(shop_files):
    # Greedy at 2,000 tokens packs 1,993: 7 left, less than the smallest block, so README.md waits
    # because the budget is full; it never stops at a file.
    pack = pack_files(shop_files, QUERY, 2_000, scorer="bm25", strategy="greedy")
    assert pack.used_tokens == 1_993
    assert [s.path for s in pack.skipped if s.code is Reason.BUDGET_FULL] == ["README.md"]
    assert not any(s.code in (Reason.STOPPED_AT, Reason.STOPPED_HERE) for s in pack.skipped)


def test_files_beyond_a_strategys_pool_were_not_weighed(shop_files, monkeypatch):
    # Density weighs only the POOL_FILES best-ranked files; with a pool of 2 the third, shop/vat.py,
    # and every file after it were never weighed: not a full budget (10,000 tokens hold them all).
    from ctxlib import fit
    monkeypatch.setattr(fit, "POOL_FILES", 2)
    pack = pack_files(shop_files, QUERY, 10_000, scorer="bm25", strategy="density")
    assert [c.path for c in pack.chosen] == ["shop/invoice.py", "tests/test_invoice.py"]
    by_path = {s.path: s for s in pack.skipped}
    assert (by_path["shop/vat.py"].code, by_path["shop/vat.py"].params) == (
        Reason.NOT_WEIGHED, (("strategy", "density"), ("most", 2)))
    assert by_path["shop/vat.py"].text() == "not reached: the density strategy weighs only the 2 best-ranked files"
    assert by_path["shop/vat.py"].text("hi") == (
        "बारी ही नहीं आई: density strategy सिर्फ़ rank में सबसे ऊपर की 2 files को तौलती है")
    assert not any(s.code is Reason.BUDGET_FULL for s in pack.skipped)
    lines = format_pack_report(pack, QUERY).splitlines()
    assert sum(line.startswith("  ") and "weighs only the 2 best-ranked files" in line for line in lines) == 1
