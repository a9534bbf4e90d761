"""``ctxlib pack`` on the sample project in a temporary folder: the good path, each output
format, and every bad input ending in one ``ctxlib:`` line and a non-zero exit status."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlib.course.commands import main
from ctxlib.course.sample_project import build_sample_project
from ctxlib.tokens import count_tokens


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return str(build_sample_project(tmp_path_factory.mktemp("shop")))


def run(capsys, *argv):
    """``main(argv)`` -> (exit status, stdout, stderr); argparse's exits count as statuses."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def test_pack_prints_the_context_and_reports_on_stderr(shop, capsys):
    status, out, err = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "2000")
    assert status == 0
    assert out.startswith("==> shop/invoice.py (whole) <==\n")
    assert count_tokens(out) <= 2000
    assert "STRIPE_SECRET_KEY=sk_" not in out and "aws_access_key_id" not in out
    lines = err.splitlines()
    assert lines[0] == "ctxlib pack: 23 files read, 8 tokenized, query 'vat invoice'"
    assert lines[2].split() == ["833", "whole", "7.80", "shop/invoice.py"]  # BM25 5.89 plus its signals
    assert "  .env: looks like a credential file (.env)" in lines
    # the line of the first secret, so that a person can judge it (gin's context_test.go: key := "float32-slice")
    assert "  deploy/invoice_archive.ini: holds a secret (gitleaks: generic-api-key), on line 5" in lines
    assert "  vendor/: ignored by .gitignore" in lines
    assert "  static/logo.png: binary (NUL bytes in the first 8 KiB)" in lines
    assert lines[-1] == f"total: {count_tokens(out):,} of 2,000 tokens (o200k_base, counted on the rendered text)"


def test_pack_json_and_markdown(shop, capsys):
    status, out, _ = run(capsys, "pack", shop, "--query", "vat", "--budget", "1500", "--format", "json",
                         "--view", "signatures", "--encoding", "cl100k_base")
    assert status == 0
    files = json.loads(out)["files"]
    assert [(f["path"], f["view"]) for f in files[:2]] == [("shop/vat.py", "signatures"),
                                                          ("shop/invoice.py", "ranges")]  # footholds first
    assert count_tokens(out, "cl100k_base") <= 1500
    status, out, _ = run(capsys, "pack", shop, "--query", "vat", "--budget", "800", "--format", "markdown")
    assert status == 0 and out.startswith("## shop/vat.py (signatures)\n\n```python\n\"\"\"Value added tax")



def test_when_include_or_exclude_leaves_no_file_the_error_says_so(shop, capsys):
    # It said only "no file matches the query 'vat' (0 files read)", as if the query were the problem.
    status, out, err = run(capsys, "pack", shop, "--query", "vat", "--budget", "500", "--include", "*.rs")
    assert status == 2 and out == "" and err.startswith("ctxlib: no file matches the query 'vat' (0 files read; ")
    assert err.rstrip().endswith(": not matched by --include)") and len(err.splitlines()) == 1
    status, out, err = run(capsys, "pack", shop, "--query", "vat", "--budget", "500", "--exclude", "*", "--lang", "hi")
    assert status == 2 and "--exclude से छोड़ी गई" in err


def test_pack_report_as_json_for_a_program(shop, capsys):
    status, out, err = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "2000", "--report", "json")
    assert status == 0 and out.startswith("==> shop/invoice.py (whole) <==\n")
    report = json.loads(err)  # the whole of stderr is one object
    assert report["used_tokens"] == count_tokens(out) and report["budget_tokens"] == 2000
    assert (report["files_read"], report["files_tokenized"], report["encoding"]) == (23, 8, "o200k_base")
    assert report["packed"][0] == {"path": "shop/invoice.py", "view": "whole", "tokens": 833, "score": 7.8048}
    skipped = {s["path"]: s for s in report["skipped"]}
    assert skipped[".env"] == {"path": ".env", "code": "credential-file", "reason": "looks like a credential file (.env)"}
    assert skipped["deploy/invoice_archive.ini"] == {"path": "deploy/invoice_archive.ini", "code": "secret",
                                                     "reason": "holds a secret (gitleaks: generic-api-key)", "line": 5}
    _, _, hindi = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "2000", "--report", "json",
                      "--lang", "hi", "--margin", "10")
    report = json.loads(hindi)
    assert report["margin"] == {"percent": 10.0, "budget_tokens_given": 2000} and report["budget_tokens"] == 1800
    assert {s["path"]: s["code"] for s in report["skipped"]}[".env"] == "credential-file"  # codes stay
    status, out, err = run(capsys, "pack", shop, "--query", "vat", "--budget", "5", "--report", "json")
    assert (status, out) == (2, "") and json.loads(err)["error"].startswith("a budget of 5 tokens is too small")
    assert {s["path"]: s["reason"] for s in report["skipped"]}[".env"] == "credential file लगती है (.env)"  # words: Hindi

def test_pack_knapsack_and_baseline_scorer(shop, capsys):
    status, _, err = run(capsys, "pack", shop, "--query", "vat invoice", "--budget", "2000",
                         "--strategy", "knapsack", "--scorer", "terms")
    assert status == 0
    assert "total:" in err.splitlines()[-1]


def one_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("args, message", [
    (["--budget", "abc"], "ctxlib: pack: argument --budget: invalid int value: 'abc' (see 'ctxlib pack --help')"),
    (["--budget", "100", "--bogus"], "ctxlib: pack: unrecognized arguments: --bogus (see 'ctxlib pack --help')"),
    (["--budget", "100", "--format", "xml"], "ctxlib: pack: argument --format: invalid choice: 'xml' "
                                             "(choose from 'text', 'markdown', 'json') (see 'ctxlib pack --help')"),
    (["--budget", "-5"], "ctxlib: budget must be a positive whole number of tokens, got -5"),
    (["--budget", "0"], "ctxlib: budget must be a positive whole number of tokens, got 0"),
    (["--budget", "5"], "ctxlib: a budget of 5 tokens is too small for anything: the best match, shop/invoice.py, "
                        "needs 50 tokens in its smallest view (text format, o200k_base)"),
    (["--budget", "100", "--max-file-bytes", "-1"], "ctxlib: max_file_bytes must be a positive whole number of "
                                                    "bytes, got -1"),
])
def test_bad_inputs_end_in_one_line(shop, capsys, args, message):
    status, out, err = run(capsys, "pack", shop, "--query", "vat invoice", *args)
    assert status == 2 and out == ""
    assert one_line(err) == message


def test_empty_query_and_missing_query(shop, capsys):
    status, _, err = run(capsys, "pack", shop, "--query", "", "--budget", "100")
    assert status == 2 and one_line(err) == "ctxlib: the query has no words to search for, got ''"
    status, _, err = run(capsys, "pack", shop, "--budget", "100")
    assert status == 2
    assert one_line(err) == ("ctxlib: pack: the following arguments are required: --query "
                             "(see 'ctxlib pack --help')")


def test_query_that_matches_nothing(shop, capsys):
    status, _, err = run(capsys, "pack", shop, "--query", "kubernetes", "--budget", "100")
    assert status == 2 and one_line(err) == "ctxlib: no file matches the query 'kubernetes' (23 files read)"


def test_a_pasted_argument_is_never_echoed_whole(shop, capsys):
    status, _, err = run(capsys, "pack", shop, "--query", "vat", "--budget", "9" * 5_000)
    assert status == 2 and one_line(err) == ("ctxlib: pack: argument --budget: invalid int value: '" + "9" * 50
                                             + "... (5,000 characters)' (see 'ctxlib pack --help')")
    status, _, err = run(capsys, "z" * 500)
    assert status == 2 and "'" + "z" * 50 + "... (500 characters)'" in err and len(err) < 300


def test_missing_path(tmp_path, capsys):
    status, _, err = run(capsys, "pack", str(tmp_path / "nowhere"), "--query", "vat", "--budget", "100")
    assert status == 2 and one_line(err) == f"ctxlib: {tmp_path / 'nowhere'}: no such directory"


def test_help_reads_well(capsys):
    status, out, _ = run(capsys, "pack", "--help")
    assert status == 0
    for phrase in ("--query TEXT", "--budget N", "hard limit in tokens for everything printed", "--include-secrets",
                   "{greedy,density,knapsack,footholds}", "{text,markdown,json}"):
        assert phrase in out
    status, out, _ = run(capsys, "--help")
    assert "pack the files most relevant to a query into a hard token budget" in out


def console_script():
    script = Path(sys.executable).with_name("ctxlib")
    return [str(script)] if script.exists() else [shutil.which("ctxlib") or "ctxlib"]


def test_console_script_in_a_subprocess(shop, tmp_path):
    bad = subprocess.run(console_script() + ["pack", str(tmp_path / "nowhere"), "--query", "vat", "--budget", "9"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stdout == ""
    assert one_line(bad.stderr) == f"ctxlib: {tmp_path / 'nowhere'}: no such directory"
    good = subprocess.run(console_script() + ["pack", shop, "--query", "vat invoice", "--budget", "300"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert good.returncode == 0 and "Traceback" not in good.stderr
    assert count_tokens(good.stdout) <= 300 and good.stderr.splitlines()[-1].startswith("total: ")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_many_notes_of_another_kind_are_not_called_not_utf8(tmp_path, capsys, lang):
    # Nine lines of a .gitignore that are no patterns were reported as "note: 9 files are not valid UTF-8 ... (e.g.
    # .gitignore, .gitignore, .gitignore)": more than 8 notes were all worded as the not-UTF-8 kind (round s42). Each
    # kind is grouped as itself now, and a 100,000-character line is cut in its note.
    (tmp_path / "vat.py").write_text("def vat():\n    pass\n")
    (tmp_path / ".gitignore").write_text("".join(f"e[z-a]{i}\n" for i in range(9)) + "e[z-a]" + "x" * 100_000 + "\n")
    for i in range(9):
        (tmp_path / f"latin{i}.py").write_bytes(b"# caf\xe9 vat\n")
    status, _, err = run(capsys, "pack", str(tmp_path), "--query", "vat", "--budget", "2000", "--lang", lang)
    assert status == 0 and len(err) < 5_000
    assert {"en": "note: 10 times: not a pattern; left out (e.g. in .gitignore)",
            "hi": "नोट: 10 बार: "}[lang] in err
    assert {"en": "note: 9 files are not valid UTF-8", "hi": "नोट: 9 files valid UTF-8 नहीं हैं"}[lang] in err
    assert err.count("\nनोट: " if lang == "hi" else "\nnote: ") == 2


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "utf-8"])
def test_pack_report_json_is_valid_json_on_a_stream_of_any_encoding(tmp_path, encoding):
    # a hostile tester's (session 42): on an ASCII or cp1252 stderr, Python wrote a path's "é" or emoji as \xe9 or
    # \U0001f600 (backslashreplace), which no JSON reader takes
    import io

    from ctxlib.cli.pack import json_line

    report = {"packed": [{"path": "café_\U0001f600.py"}], "query": "\udcff", "reason": "query पर score 0"}
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="backslashreplace")
    print(json_line(report, stream), file=stream)
    stream.flush()
    assert json.loads(stream.buffer.getvalue().decode(encoding)) == report
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "vat.py").write_text("def vat():\n    return 1\n", encoding="utf-8")  # packed: stdout is plain ASCII
    (repo / "café_\U0001f600.py").write_text("def other():\n    return 2\n", encoding="utf-8")  # skipped: stderr only
    done = subprocess.run([sys.executable, "-m", "ctxlib", "pack", str(repo), "--query", "vat", "--budget", "500",
                           "--report", "json", "--lang", "hi"], capture_output=True, cwd=Path(__file__).parent.parent,
                          env={**__import__("os").environ, "PYTHONIOENCODING": encoding}, timeout=120)
    assert done.returncode == 0
    assert json.loads(done.stderr.decode(encoding))["skipped"][0]["path"] == "café_\U0001f600.py"


@pytest.mark.parametrize("argv, error", [
    (["--query", "vat"], "the following arguments are required: --budget (see 'ctxlib pack --help')"),
    (["--query", "vat", "--budget", "abc"], "argument --budget: invalid int value: 'abc' (see 'ctxlib pack --help')"),
    (["--query", "vat", "--budget", "9", "--bogus"], "unrecognized arguments: --bogus (see 'ctxlib pack --help')"),
    (["--query", "vat", "--budget", "9", "--lang", "xx"],
     "argument --lang: invalid choice: 'xx' (choose from 'en', 'hi') (see 'ctxlib pack --help')"),
])
@pytest.mark.parametrize("asked", [["--report", "json"], ["--report=json"], ["--rep", "json"]])
def test_pack_report_json_words_argparse_errors_as_json_too(shop, capsys, argv, error, asked):
    # a hostile tester's leftover (session 42): argparse's own errors were plain text after --report json
    status, out, err = run(capsys, "pack", shop, *asked, *argv)
    assert (status, out) == (2, "") and json.loads(err) == {"error": error}
    status, out, err = run(capsys, "pack", shop, "--report", "json", "--report", "text", *argv)
    assert (status, err) == (2, f"ctxlib: pack: {error}\n")  # the last --report is the one asked for


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_the_packed_context_is_written_whole_on_a_stdout_of_any_encoding(tmp_path, encoding):
    # Windows writes a pipe or a file in its code page: a pack holding "⋮" (a view's elision) or Hindi ended in
    # "'charmap' codec can't encode character '\u22ee'", rc 2, nothing on stdout (round s42's leftover, s43)
    import io

    from ctxlib.cli.pack import write_context

    for text, wanted in (("vat ⋮ कर\n", "utf-8"), ("plain\n", encoding), ("café\n", "cp1252" if encoding == "cp1252" else "utf-8")):
        stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
        write_context(text, stream)
        assert stream.buffer.getvalue() == text.encode(wanted)  # the stream's own encoding whenever it holds all
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "vat.py").write_text("def vat():\n    return 'कर ⋮ 😀'\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ctxlib", "pack", str(repo), "--query", "vat", "--budget", "500",
                           "--report", "json"], capture_output=True, cwd=Path(__file__).parent.parent,
                          env={**__import__("os").environ, "PYTHONIOENCODING": encoding}, timeout=120)
    assert done.returncode == 0
    packed = done.stdout.decode("utf-8")
    assert "return 'कर ⋮ 😀'" in packed and count_tokens(packed) == json.loads(done.stderr)["used_tokens"]
