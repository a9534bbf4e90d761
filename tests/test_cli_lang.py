"""``ctxlib pack``, ``count`` and ``rank`` in Hindi: ``--lang hi`` or ``CTXLIB_LANG=hi`` words the report and the
errors a person reads, and the library's own errors (``i18n.WordedError``) carry every language."""
import argparse
import copy
import pickle
import re

import pytest

from ctxlib.cli import build_parser
from ctxlib.cli.words import in_language, lang_in
from ctxlib import mcp_server
from ctxlib.course import commands
from ctxlib.course.sample_project import build_sample_project
from ctxlib.fit import pack_files
from ctxlib.i18n import N_, Worded, WordedError, message
from ctxlib.repo import read_repo
from test_cli_pack import run  # main(argv) -> (exit status, stdout, stderr), as test_evaluate uses it


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return str(build_sample_project(tmp_path_factory.mktemp("shop")))


@pytest.fixture(scope="module")
def files(shop):
    return {f.path: f.text for f in read_repo(shop).files}


# Words of the English report that must not be left in the Hindi one (the glossary keeps
# file, tokens, view, score, query, budget-free technical words in English; these are prose).
ENGLISH_PROSE = ("files read", "tokenized,", "skipped:", "total:", "counted on", "looks like", "ignored by",
                 "no such", "too small", "matches the query", "more (--top", "score above", "rough")


def test_pack_report_in_hindi_with_lang(shop, capsys):
    status, out, err = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "800", "--lang", "hi")
    assert status == 0 and out.startswith("==> shop/invoice.py (ranges")  # the pack itself does not change
    lines = err.splitlines()
    assert lines[0] == "ctxlib pack: 23 files पढ़ी गईं, 11 tokenize हुईं, query 'vat invoice'"
    assert "  .env: credential file लगती है (.env)" in lines
    assert "छोड़ी गई files:" in lines
    assert lines[-1] == "कुल: 800 में से 767 tokens (o200k_base, rendered text पर गिने गए)"
    assert not [w for w in ENGLISH_PROSE if w in err]


def test_pack_report_follows_ctxlib_lang_and_is_english_by_default(shop, capsys, monkeypatch):
    monkeypatch.setenv("CTXLIB_LANG", "hi")
    _, out_hi, err_hi = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "800")
    assert err_hi.splitlines()[-1].startswith("कुल: 800 में से ")
    _, out_en, err_en = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "800", "--lang", "en")
    assert out_en == out_hi
    assert err_en.splitlines()[-1] == "total: 767 of 800 tokens (o200k_base, counted on the rendered text)"


@pytest.mark.parametrize("argv, english, hindi", [
    (["--query", "zzqq", "--budget", "800"], "ctxlib: no file matches the query 'zzqq' (23 files read)",
     "ctxlib: कोई भी file query 'zzqq' से match नहीं करती (23 files पढ़ी गईं)"),
    (["--query", "vat invoice", "--budget", "20"],
     "ctxlib: a budget of 20 tokens is too small for anything: the best match, shop/invoice.py, needs 50 tokens "
     "in its smallest view (text format, o200k_base)",
     "ctxlib: 20 tokens का बजट इतना छोटा है कि उसमें कुछ भी नहीं समाता: सबसे अच्छे match shop/invoice.py को "
     "अपने सबसे छोटे view में 50 tokens चाहिए (text format, o200k_base)"),
])
def test_pack_errors_in_both_languages(shop, capsys, argv, english, hindi):
    status, _, err = run(capsys, "pack", shop, *argv)
    assert (status, err.strip()) == (2, english)
    status, _, err = run(capsys, "pack", shop, *argv, "--lang", "hi")
    assert (status, err.strip()) == (2, hindi)


def test_missing_folder_in_hindi(capsys, tmp_path):
    for command in (["pack", "--budget", "9"], ["rank"]):
        status, _, err = run(capsys, command[0], str(tmp_path / "nope"), "--query", "x", *command[1:], "--lang", "hi")
        assert (status, err.strip()) == (2, f"ctxlib: {tmp_path / 'nope'}: ऐसा कोई folder नहीं है")


def test_count_and_rank_in_hindi(shop, capsys):
    status, out, err = run(capsys, "count", shop, "--lang", "hi")
    assert status == 0
    assert out.splitlines()[0].split()[-2:] == ["अनुमान", "(chars/4)"]
    assert out.splitlines()[-1].split()[0] == "कुल"
    assert f"ctxlib count: छोड़ी गई: {shop}/.env: credential file लगती है (.env)" in err.splitlines()
    status, out, _ = run(capsys, "count", shop, "--tree", "--lang", "hi")
    assert out.splitlines()[-1].split()[1:] == ["कुल", "(23", "files)"]
    status, out, _ = run(capsys, "rank", shop, "--query", "vat invoice", "--top", "2", "--lang", "hi")
    lines = out.splitlines()
    assert lines[0] == "ctxlib rank: 23 में से 14 files का score 'vat invoice' के लिए 0 से ऊपर है"
    assert lines[-1] == "  ... 12 और (ज़्यादा देखने के लिए --top N दें)"
    assert not [w for w in ENGLISH_PROSE if w in out]


def test_count_stdin_error_in_hindi(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ok \xff")))
    status, _, err = run(capsys, "count", "--lang", "hi")
    assert (status, err.strip()) == (2, "ctxlib: <stdin>: UTF-8 text नहीं है (ख़राब byte offset 3 पर)")


def test_library_errors_carry_both_languages(files):
    with pytest.raises(WordedError) as caught:
        pack_files(files, "zzqq", 800)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == "no file matches the query 'zzqq' (23 files read)"
    assert caught.value.text("hi") == "कोई भी file query 'zzqq' से match नहीं करती (23 files पढ़ी गईं)"
    one = {"a.py": "vat = 1\n"}
    with pytest.raises(WordedError) as caught:
        pack_files(one, "zzqq", 800)
    assert caught.value.text("hi").endswith("(1 file पढ़ी गई)") and str(caught.value).endswith("(1 file read)")
    with pytest.raises(ValueError, match="lang must be one of"):
        caught.value.text("fr")


def test_worded_is_its_english_and_survives_copies():
    worded = Worded((N_("{path}: no such directory"), {"path": "x/"}),
                    (N_(" ({fmt} format, {encoding})"), {"fmt": "text", "encoding": "o200k_base"}))
    assert worded == "x/: no such directory (text format, o200k_base)" and isinstance(worded, str)
    hindi = message("{path}: no such directory", "hi", path="x/") + " (text format, o200k_base)"
    assert worded.text("hi") == hindi
    for copied in (pickle.loads(pickle.dumps(worded)), copy.deepcopy(worded), copy.copy(worded)):
        assert copied.text("hi") == hindi
    error = pickle.loads(pickle.dumps(WordedError(worded)))
    assert error.text("hi") == hindi and str(error) == worded
    assert WordedError("plain English").text("hi") == "plain English"  # no catalog entry to word it by
    with pytest.raises(KeyError):  # a template missing a value fails when made, not when shown
        Worded((N_("{path}: no such directory"), {"folder": "x/"}))


def test_long_query_note_in_hindi(shop, capsys):
    query = " ".join(f"word{a}{b}" for a in "abcdef" for b in "abcdef") + " vat invoice"  # 36 found nowhere
    status, _, err = run(capsys, "pack", shop, "--query", query, "--budget", "800", "--lang", "hi")
    assert status == 0
    note = [line for line in err.splitlines() if line.startswith("query: ")]
    assert note == ["query: query के 38 अलग-अलग terms में से 2 का score गिना गया (36 किसी file में नहीं आते, "
                    "24 की सीमा के कारण सबसे आम 0 छोड़ दिए गए)"]


def test_explorers_word_the_librarys_errors_in_hindi(files):
    from ctxlib.course.widgets.lesson1 import repack
    from ctxlib.course.widgets.lesson3 import repack_repository

    assert repack({"a.py": "x"}, 300, "   ", lang="hi") == (
        "pack नहीं हो सका: query ख़ाली है: कम से कम एक ऐसा term दें जो ख़ाली न हो, मिला []")
    assert repack_repository(files, "वैट इनवॉइस", 2000, lang="hi") == (
        "pack नहीं हो सका: query में खोजने लायक कोई शब्द नहीं है, मिला 'वैट इनवॉइस': यहाँ BM25 सिर्फ़ ASCII "
        "identifiers पढ़ता है; दूसरी लिपियों के लिए terms scorer इस्तेमाल करें")
    assert repack_repository(files, "vat", 10, lang="hi").startswith("pack नहीं हो सका: 10 tokens का बजट ")
    assert repack_repository(files, "vat", 10, lang="en").startswith("cannot pack: a budget of 10 tokens is ")


def test_eval_report_and_errors_in_hindi(tmp_path, capsys):
    from ctxlib.course.sample_project import build_sample_git_repository

    repo = build_sample_git_repository(tmp_path / "shop")
    status, out, err = run(capsys, "eval", str(repo), "--budget", "500", "--misses", "1", "--lang", "hi")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"ctxlib eval: {repo} की history से 7 tasks"
    assert lines[1] == ("commit task तब गिना जाता है जब: उसका एक ही parent हो (merge नहीं, root commit नहीं); subject "
                        "अपने-आप बना या हिसाब-किताब वाला न हो (merge, bump, release, revert, pre-commit, कोई version "
                        "number); वह 1 से 4 code files बदले (source या packaging; tests, docs या changelogs नहीं) और "
                        "कुल ज़्यादा से ज़्यादा 12 files छुए; साफ़ किए गए message में कम से कम 3 शब्द बचें")
    assert lines[2].startswith("उसका message ऐसे साफ़ किया जाता है: subject और body रखे जाते हैं; ")
    assert any(line.split()[:2] == ["सादा", "BM25,"] for line in lines)  # the baseline's name, as the lesson's table
    assert "चूक: 7af3e69c7e 'Round VAT to whole cents, half up, as the finance team does'" in lines
    assert "  बदली गई: shop/vat.py (स्थान 4)" in lines
    assert any(line.startswith("  पहले स्थान पर: shop/money.py") for line in lines)
    english = ("qualifies", "cleaned", "history of", "ranked first", "packed tokens", "miss:", "edited")
    assert not [w for w in english if w in out]


def test_eval_errors_a_learner_meets_first_in_hindi(tmp_path, capsys):
    import subprocess

    status, _, err = run(capsys, "eval", str(tmp_path), "--lang", "hi")
    assert (status, err) == (2, f"ctxlib: {tmp_path}: git repository नहीं है (ctxlib eval repository की history "
                                "पढ़ता है)\n")
    status, _, err = run(capsys, "eval", str(tmp_path / "nope"), "--lang", "hi")
    assert (status, err) == (2, f"ctxlib: {tmp_path / 'nope'}: ऐसा कोई folder नहीं है\n")
    subprocess.run(["git", "init", "-q", "--template=", str(tmp_path)], check=True, capture_output=True)
    status, _, err = run(capsys, "eval", str(tmp_path), "--lang", "hi")
    assert (status, err) == (2, f"ctxlib: {tmp_path}: repository में अभी कोई commit नहीं है\n")
    status, _, err = run(capsys, "eval", str(tmp_path), "--misses", "-1", "--lang", "hi")
    assert (status, err) == (2, "ctxlib: --misses 0 या उससे ज़्यादा होना चाहिए, मिला -1\n")


# --- argparse's own words and every help text ------------------------------------------------------------------------

DEVANAGARI = re.compile("[\u0900-\u097f]")
EVERY_COMMAND = [commands.add_commands, mcp_server.add_mcp_parser]  # the entry points, as an installed ctxlib has them


@pytest.mark.parametrize("argv, english, hindi", [
    (["pack", ".", "--budget", "abc", "--lang", "hi"], "invalid int value", "int की ग़लत value: 'abc'"),
    (["pack", "--lang=hi"], "the following arguments are required", "ये arguments ज़रूरी हैं: PATH, --query, --budget"),
    (["pack", ".", "--query", "x", "--budget", "9", "--strategy", "zz", "--lang", "hi"], "invalid choice",
     "ग़लत विकल्प: 'zz' (इनमें से चुनें: 'greedy', 'density', 'knapsack', 'footholds')"),
    (["count", "--lang", "hi", "--bogus"], "unrecognized arguments", "ये arguments पहचाने नहीं गए: --bogus"),
])
def test_argparses_errors_in_hindi(capsys, argv, english, hindi):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert hindi in err and english not in err and err.rstrip().endswith("--help' देखें)")
    status, _, err = run(capsys, *[a for a in argv if a not in ("--lang", "hi", "--lang=hi")])
    assert english in err and not DEVANAGARI.search(err)  # English stays English, and argparse's words come back


def test_a_bad_command_is_worded_from_ctxlib_lang(capsys, monkeypatch):
    monkeypatch.setenv("CTXLIB_LANG", "hi")
    status, _, err = run(capsys, "bogus")
    assert status == 2 and "ग़लत विकल्प: 'bogus'" in err and err.rstrip().endswith("('ctxlib --help' देखें)")


def _texts(parser):
    yield parser.description
    for action in parser._actions:
        yield action.help
        if isinstance(action, argparse._SubParsersAction):
            yield from (choice.help for choice in action._choices_actions)
            for sub in action.choices.values():
                yield from _texts(sub)


def test_every_help_text_of_every_command_is_in_hindi(capsys):
    parser = build_parser(EVERY_COMMAND, "hi")
    texts = [t for t in _texts(parser) if t not in (None, argparse.SUPPRESS)]
    assert len(texts) > 60 and [t for t in texts if not DEVANAGARI.search(t)] == []
    english = [t for t in _texts(build_parser(EVERY_COMMAND)) if t]
    assert not [t for t in english if DEVANAGARI.search(t)]
    status, out, _ = run(capsys, "pack", "--help", "--lang", "hi")
    assert out.startswith("इस्तेमाल: ctxlib pack") and "\noptions:\n  -h, --help" in out and "यह मदद दिखाकर बंद करें" in out
    out = " ".join(run(capsys, "eval", "--help", "--lang", "hi")[1].split())
    assert "tokens में एक बजट; कई बजटों के लिए दोहराएँ (default: 13000, 27000, 50000)" in out


def test_lang_in_reads_the_line_before_argparse(monkeypatch):
    monkeypatch.setenv("CTXLIB_LANG", "en")
    assert lang_in(["pack", ".", "--lang", "hi"]) == "hi" and lang_in(["--lang=hi"]) == "hi"
    assert lang_in(["pack", "--lang", "xx"]) == "en" and lang_in(["pack", "--lang"]) == "en"
    monkeypatch.setenv("CTXLIB_LANG", "hi")
    assert lang_in(["count"]) == "hi" and lang_in(["count", "--lang", "en"]) == "en"


def test_in_language_puts_argparses_words_back_whatever_happens():
    before = argparse._("usage: ")
    with pytest.raises(RuntimeError):
        with in_language("hi"):
            assert argparse._("usage: ") == "इस्तेमाल: "
            raise RuntimeError("stop")
    assert argparse._("usage: ") == before == "usage: "


@pytest.mark.parametrize("lang, said", [
    ("en", "ctxlib: ascii cannot write the characters 'कर' that this output holds; set PYTHONIOENCODING=utf-8 and "
           "run it again\n"),  # a file's name
    ("hi", "ctxlib: इस output में ऐसे characters 'मोटा' हैं जो ascii में नहीं लिखे जा सकते; PYTHONIOENCODING=utf-8 set "
           "करके फिर से चलाएँ\n")])  # the table's own head
def test_an_output_stdout_cannot_write_is_said_in_the_learners_language(tmp_path, lang, said):
    # `ctxlib count --lang hi` on an ASCII stdout (LC_ALL=C without UTF-8 mode, a Windows code page) said
    # "ctxlib: 'ascii' codec can't encode characters in position 62-65: ordinal not in range(128)" (round s43)
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "कर.py").write_text("x = 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ctxlib", "count", str(tmp_path / "कर.py"), "--lang", lang],
                          capture_output=True, cwd=Path(__file__).parent.parent, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "ascii"})
    # stderr writes what ASCII cannot hold as \\u escapes (backslashreplace): read them back
    err = done.stderr.decode("ascii").encode("latin-1").decode("unicode_escape")
    assert (done.returncode, done.stdout, err) == (2, b"", said)
