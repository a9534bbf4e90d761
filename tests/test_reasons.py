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
