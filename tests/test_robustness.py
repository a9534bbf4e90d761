"""Nothing breaks, hangs or leaks: the hostile inputs of issue 13, one test (or a few) per item.

Commands run through the console script in a child process where a hang or a traceback is
the failure being tested (a FIFO, a closed pipe, a dropped capability); the others call
``main`` directly. Item 4 (long queries) is tested with the ranking; item 11 (start-up) is
measured by ``benchmarks/bench_startup.py``, not timed here.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlib import ledger, safefile
from ctxlib.course import progress
from ctxlib.course.commands import main
from ctxlib.course.exercises import exercise
from ctxlib.course.progress import new_progress, read_progress, record_attempt, record_quietly
from ctxlib.course.quiz import QuizError, grade, load_quiz, load_quiz_file, number_text
from ctxlib.fit import pack_files
from ctxlib.repo import read_repo
from ctxlib.tokens import count_tokens

LESSON = "01_window_as_budget"
DEEP = "[" * 1000 + "]" * 1000


def ctxlib(*args, timeout=60, env=None, **kwargs):
    """The console script in a child process: (exit status, stdout, stderr). A hang fails by timeout."""
    result = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", *map(str, args)],
                            capture_output=True, timeout=timeout, env={**os.environ, **(env or {})}, **kwargs)
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


def one_line(err):
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def attempt(question="whole_repo", outcome="passed"):
    return {"lesson": LESSON, "question": question, "outcome": outcome, "hints_used": 0,
            "solution_viewed": False, "time": "2025-05-01T09:30:00Z"}


# --- 1. one bad hand-in must not crash the class's grade ---------------------------------------

def test_a_progress_file_without_a_learner_is_graded_by_its_file_name(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "own.json"))
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    (hand_ins / "r.json").write_text('{"format":"ctxlib-progress","version":1,"attempts":[]}')
    assert main(["grade", str(hand_ins), "--csv", str(tmp_path / "g.csv")]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:1] == ["r"]


def test_ctxlib_progress_without_a_learner(progress_file, capsys):
    progress_file.write_text('{"format":"ctxlib-progress","version":1,"attempts":[]}')
    assert main(["progress"]) == 0
    assert capsys.readouterr().out.startswith("Progress (no name set")


def test_json_nested_1000_deep_is_refused_in_a_hand_in(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "own.json"))
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    (hand_ins / "deep.json").write_text('{"format":"ctxlib-progress","version":1,"attempts":' + DEEP + "}")
    (hand_ins / "asha.json").write_text(json.dumps({**new_progress("Asha"), "attempts": [attempt()]}))
    assert main(["grade", str(hand_ins), "--csv", str(tmp_path / "g.csv")]) == 0
    err = capsys.readouterr().err
    assert err == "ctxlib: deep.json: cannot be read, skipped (JSON nested 1,001 levels deep (at most 64 are read))\n"


def test_json_nested_1000_deep_is_refused_in_a_quiz_file(tmp_path):
    path = tmp_path / "01_x.json"
    path.write_text('{"questions": ' + DEEP + "}")
    with pytest.raises(QuizError, match="JSON nested 1,001 levels deep"):
        load_quiz_file(path)


def test_json_nested_1000_deep_is_refused_in_a_ledger_line(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(DEEP + "\n")
    with pytest.raises(ValueError, match="line 1: not a ledger record: JSON nested 1,000 levels deep"):
        ledger.read_ledger(path)


def test_record_quietly_never_raises(progress_file, monkeypatch, capsys):
    progress_file.write_text('{"format":"ctxlib-progress","version":1,"attempts":' + DEEP + "}")
    record_quietly(LESSON, "whole_repo", "passed")  # moved aside and reported
    assert "JSON nested 1,001 levels deep" in capsys.readouterr().err
    monkeypatch.setattr(progress, "record_attempt", lambda *a, **k: 1 / 0)
    record_quietly(LESSON, "whole_repo", "passed")
    assert capsys.readouterr().err == "ctxlib: this attempt was not saved to your progress file (ZeroDivisionError).\n"


def test_json_depth_ignores_brackets_in_strings():
    assert safefile.json_depth('{"a": [1, {"b": "]]]]["}]}') == 3
    assert safefile.load_json("[" * 64 + "]" * 64) is not None
    with pytest.raises(safefile.Refused):
        safefile.load_json("[" * 65 + "]" * 65)


# --- 2. non-regular files are never read -----------------------------------------------------

def test_count_dev_zero_is_refused_in_one_line():
    status, _, err = ctxlib("count", "/dev/zero", timeout=30)
    assert status == 2
    assert one_line(err) == "ctxlib: /dev/zero: is a character device, not a regular file; not read"


def test_grade_skips_a_fifo_and_a_link_to_dev_zero(tmp_path):
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    os.mkfifo(hand_ins / "a.json")
    (hand_ins / "b.json").symlink_to("/dev/zero")
    (hand_ins / "c.json").write_text(json.dumps({**new_progress("Asha"), "attempts": [attempt()]}))
    status, out, err = ctxlib("grade", hand_ins, "--csv", tmp_path / "g.csv", timeout=30,
                              env={"CTXLIB_PROGRESS": str(tmp_path / "own.json")})
    assert status == 0 and "Asha" in out
    assert err.splitlines() == [
        "ctxlib: a.json: cannot be read, skipped (is a named pipe (FIFO), not a regular file; not read)",
        "ctxlib: b.json: cannot be read, skipped (is a symbolic link, not a regular file; not read)"]


def test_ctxlib_progress_on_a_fifo_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "p.json")
    status, _, err = ctxlib("progress", timeout=30, env={"CTXLIB_PROGRESS": str(tmp_path / "p.json")})
    assert status == 2
    assert one_line(err) == f"ctxlib: {tmp_path / 'p.json'}: is a named pipe (FIFO), not a regular file; not read"
    assert (tmp_path / "p.json").exists()  # never moved aside or replaced


def test_the_reader_skips_fifos_and_links_to_devices(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    repo = read_repo(tmp_path)
    assert [f.path for f in repo.files] == ["a.py"]
    assert {s.path: s.reason for s in repo.skipped} == {
        "pipe.py": "is a named pipe (FIFO), not a regular file; not read",
        "zero.py": "symbolic link to outside the root: not followed"}
    assert repo.skipped[0].text("hi") != repo.skipped[0].reason  # the reason in Hindi, for Lesson 3


# --- 3. one unreadable folder must not abort a pack -------------------------------------------

@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv")
def test_an_unreadable_folder_is_skipped_and_the_rest_packed(tmp_path):
    (tmp_path / "app.py").write_text("def vat(x):\n    return x * 0.19\n")
    pgdata = tmp_path / "pgdata"
    pgdata.mkdir()
    (pgdata / ".gitignore").write_text("*\n")
    os.chown(pgdata, 12345, 12345)
    os.chmod(pgdata, 0o700)
    # Root reads everything; drop the two capabilities that bypass file permissions.
    result = subprocess.run(["setpriv", "--bounding-set=-dac_override,-dac_read_search", sys.executable, "-m",
                             "ctxlib.course.commands", "pack", str(tmp_path), "--query", "vat", "--budget", "200"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("==> app.py (whole) <==")
    assert "  pgdata/: folder cannot be read (Permission denied)" in result.stderr.splitlines()


def test_a_folder_that_cannot_be_listed_is_a_skip_not_an_abort(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "locked").mkdir()
    real = os.open

    def refusing_open(path, flags, *args, **kwargs):  # the walk opens each folder by name in its parent
        if str(path) == "locked":
            raise PermissionError(13, "Permission denied")
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    repo = read_repo(tmp_path)
    assert [f.path for f in repo.files] == ["a.py"]
    assert [(s.path, s.reason) for s in repo.skipped] == [("locked/", "folder cannot be read (Permission denied)")]


# --- 5. secrets: see tests/test_credentials.py; here --include-secrets warns --------------------

def test_include_secrets_warns_for_every_secret_it_lets_through(tmp_path):
    key = "hf" + "_" + "QwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUi"
    (tmp_path / "vat.py").write_text(f"# vat\nHF_TOKEN = '{key}'\n")
    (tmp_path / ".env").write_text("VAT_SECRET=x\n")
    status, out, err = ctxlib("pack", tmp_path, "--query", "vat", "--budget", "300", "--include-secrets")
    assert status == 0 and key in out
    warnings = [line for line in err.splitlines() if line.startswith("ctxlib: warning:")]
    assert sorted(warnings) == [
        "ctxlib: warning: .env looks like a credential file (.env); packed because of --include-secrets",
        "ctxlib: warning: vat.py, line 2 of its whole view: a secret (gitleaks: huggingface-access-token) "
        "packed because of --include-secrets"]
    status, out, err = ctxlib("pack", tmp_path, "--query", "vat", "--budget", "300")
    assert key not in out or status != 0


# --- 6. concurrent writers lose nothing ---------------------------------------------------------

WRITER = """
import sys
from ctxlib.course.progress import record_attempt
for i in range(int(sys.argv[2])):
    record_attempt("01_window_as_budget", "w" + sys.argv[1], "passed", time=f"2025-05-01T09:30:{i % 60:02d}Z")
"""


def test_four_processes_times_200_attempts_keep_all_800(tmp_path):
    path = tmp_path / "progress.json"
    env = {**os.environ, "CTXLIB_PROGRESS": str(path)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(w), "200"], env=env) for w in range(4)]
    assert [w.wait(timeout=600) for w in writers] == [0, 0, 0, 0]
    attempts = read_progress(path)["attempts"]
    assert len(attempts) == 800
    assert sorted({a["question"] for a in attempts}) == ["w0", "w1", "w2", "w3"]


# --- 7. odd file names never break text or JSON output -------------------------------------------

@pytest.fixture
def odd_names(tmp_path):
    root = tmp_path / "odd"
    root.mkdir()
    os.mkdir(os.fsencode(root) + b"/sub\xff")
    Path(os.fsdecode(os.fsencode(root) + b"/sub\xff/vat\xfe.py")).write_text("vat = 19\n")
    (root / "two\nlines_vat.py").write_text("vat = 7\n")
    (root / "esc\x1b[31m_vat.py").write_text("vat = 1\n")
    return root


def test_odd_names_in_a_text_pack(odd_names):
    status, out, err = ctxlib("pack", odd_names, "--query", "vat", "--budget", "400",
                              env={"PYTHONIOENCODING": "utf-8"})
    assert status == 0, err
    headers = [line for line in out.splitlines() if line.startswith("==> ")]
    assert sorted(headers) == ["==> esc\\x1b[31m_vat.py (whole) <==", "==> sub\\xff/vat\\xfe.py (whole) <==",
                               "==> two\\nlines_vat.py (whole) <=="]
    assert "\x1b" not in err


def test_odd_names_in_a_json_pack_are_valid_utf8(odd_names):
    result = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", "pack", str(odd_names), "--query", "vat",
                             "--budget", "400", "--format", "json"], capture_output=True, timeout=60,
                            env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert result.returncode == 0
    files = json.loads(result.stdout.decode("utf-8"))["files"]  # strict: a raw 0xff byte fails here
    assert sorted(f["path"] for f in files) == ["esc\\x1b[31m_vat.py", "sub\\xff/vat\\xfe.py", "two\\nlines_vat.py"]


# --- 8. count takes folders; pack takes --include/--exclude ----------------------------------------

def test_count_a_folder_skips_what_pack_skips_and_counts_the_rest(tmp_path, capsys):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("hello world")
    (tmp_path / "src" / "deep").mkdir()
    (tmp_path / "src" / "deep" / "b.py").write_text("abcdefgh")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\x00\x00")
    (tmp_path / "notes.txt").write_bytes(b"caf\xe9")
    assert main(["count", str(tmp_path), "--encoding", "cl100k_base"]) == 0
    out, err = capsys.readouterr()
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}
    assert rows[f"{tmp_path}/src/a.py"] == ["11", "2", "2"] and rows[f"{tmp_path}/src/deep/b.py"] == ["8", "1", "2"]
    assert rows["total"][1] == f"{2 + 1 + count_tokens('caf' + chr(0xFFFD), 'cl100k_base')}"
    assert f"ctxlib count: skipped: {tmp_path}/logo.png: binary (NUL bytes in the first 8 KiB)" in err.splitlines()


def test_count_tree_prints_tokens_per_folder_largest_first(tmp_path, capsys):
    for rel, text in (("a/x.py", "hello world " * 10), ("a/b/y.py", "hello world"), ("c/z.py", "hello world " * 3)):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert main(["count", str(tmp_path), "--tree", "--encoding", "cl100k_base"]) == 0
    x, y, z = (count_tokens(t, "cl100k_base") for t in ("hello world " * 10, "hello world", "hello world " * 3))
    lines = [line.split(None, 1) for line in capsys.readouterr().out.splitlines()]
    assert [(int(n.replace(",", "")), name) for n, name in lines] == [
        (x + y + z, f"{tmp_path}/"), (x + y, f"{tmp_path}/a/"), (z, f"{tmp_path}/c/"), (y, f"{tmp_path}/a/b/"),
        (x + y + z, "total (3 files)")]


def test_pack_include_and_exclude_globs(tmp_path, capsys):
    (tmp_path / "site-packages" / "lib").mkdir(parents=True)
    (tmp_path / "site-packages" / "lib" / "vat.py").write_text("vat vat vat = 1\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "vat.py").write_text("vat = 19\n")
    (tmp_path / "shop" / "vat.md").write_text("vat\n")
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "500", "--exclude", "site-packages/",
                 "--include", "*.py"]) == 0
    out, err = capsys.readouterr()
    assert [line for line in out.splitlines() if line.startswith("==>")] == ["==> shop/vat.py (whole) <=="]
    assert "  site-packages/: left out by --exclude" in err.splitlines()  # it said "ignored by .gitignore"
    assert "  shop/vat.md: not matched by --include" in err.splitlines()


# --- 9. messages that mislead or read roughly -----------------------------------------------------

def test_a_small_budget_walks_past_ten_misses_to_a_file_that_fits():
    files = {f"big{i:02d}.py": "vat " * 200 + "\n" for i in range(15)}
    files["small.py"] = "vat\n"  # ranked last (one hit), and the only file that fits
    pack = pack_files(files, "vat", 30)
    assert [c.path for c in pack.chosen] == ["small.py"]


def test_a_budget_of_one_token_is_singular():
    with pytest.raises(ValueError, match=r"^a budget of 1 token is too small for anything"):
        pack_files({"vat.py": "vat\n"}, "vat", 1)


def test_numeric_feedback_echoes_the_number_in_full():
    q = next(q for q in load_quiz(LESSON, "en").questions if q.type == "numeric")
    notes = grade(q, 2799999).notes
    assert notes[0] == "2799999 is not right."
    assert number_text(2.5) == "2.5" and number_text(120.0) == "120" and number_text(1e-7) == "1e-07"


def test_grade_never_says_at_at(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "own.json"))
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    (hand_ins / "bad.json").write_text('{"format": "a\x01b"}')
    (hand_ins / "ok.json").write_text(json.dumps({**new_progress("Asha"), "attempts": []}))
    assert main(["grade", str(hand_ins), "--csv", str(tmp_path / "g.csv")]) == 0
    err = capsys.readouterr().err
    assert err == "ctxlib: bad.json: cannot be read, skipped (not JSON: Invalid control character at line 1 column 14)\n"


def test_a_progress_path_with_an_unknown_user_is_one_line(tmp_path, capsys):
    status, _, err = ctxlib("progress", env={"CTXLIB_PROGRESS": "~nosuchuser/p.json"})
    assert status == 2
    assert one_line(err) == ("ctxlib: CTXLIB_PROGRESS='~nosuchuser/p.json': the home folder in it cannot be found; "
                             "set CTXLIB_PROGRESS to a full path")


def test_q_check_with_an_unknown_user_in_the_progress_path(monkeypatch, capsys):
    monkeypatch.setenv("CTXLIB_PROGRESS", "~nosuchuser/p.json")
    q = exercise(LESSON, "own_scorer", "en")
    q.check(lambda name, text, terms: 0)
    assert capsys.readouterr().err == "ctxlib: this attempt was not saved to your progress file (CTXLIB_PROGRESS).\n"


def test_a_tree_nested_990_deep(tmp_path):
    chain, path = [], tmp_path
    for _ in range(990):
        path = path / "d"
        os.mkdir(path)
        chain.append(path)
    (path / "vat.py").write_text("vat = 19\n")
    try:
        repo = read_repo(tmp_path)
        assert [f.path for f in repo.files] == ["d/" * 990 + "vat.py"]
    finally:  # by hand, deepest first: shutil.rmtree (pytest's clean-up) recurses once per level
        (path / "vat.py").unlink()
        for folder in reversed(chain):
            folder.rmdir()


def test_count_piped_into_head_exits_quietly(tmp_path):
    for i in range(300):
        (tmp_path / f"f{i:03d}.py").write_text("x = 1\n")
    script = f"{sys.executable} -m ctxlib.course.commands count {tmp_path} | head -1; echo \"status ${{PIPESTATUS[0]}}\""
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.stderr == ""
    assert result.stdout.splitlines()[-1] == "status 0"


def test_learner_names_are_safe_in_the_csv_and_the_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "own.json"))
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    (hand_ins / "a.json").write_text(json.dumps({**new_progress('=HYPERLINK("http://x","y")'), "attempts": []}))
    (hand_ins / "b.json").write_text(json.dumps({**new_progress("\x1b[2JBea"), "attempts": []}))
    assert main(["grade", str(hand_ins), "--csv", str(tmp_path / "g.csv")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2JBea" in out
    names = [row[0] for row in csv.reader((tmp_path / "g.csv").open())][1:]
    assert names == ["'=HYPERLINK(\"http://x\",\"y\")", "\\x1b[2JBea"]


# --- 10. tokenizer honesty ---------------------------------------------------------------------------

def test_margin_and_the_tokenizer_line(tmp_path, capsys):
    (tmp_path / "vat.py").write_text("def vat(amount):\n    return amount * 0.19\n" * 30)
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "1000", "--margin", "50"]) == 0
    out, err = capsys.readouterr()
    assert count_tokens(out) <= 500
    lines = err.splitlines()
    assert lines[-3] == "margin: 50 percent of the 1,000-token budget is left free; packed for 500"
    theirs = count_tokens(out, "cl100k_base")
    change = (theirs - count_tokens(out)) / count_tokens(out) * 100
    assert lines[-2] == (f"tokenizers differ: this text is {count_tokens(out):,} tokens in o200k_base, "
                         f"{theirs:,} in cl100k_base ({change:+.1f}%); other providers' tokenizers differ again, "
                         "and --margin left room for them")  # not "so leave room with --margin PCT": it did
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "1000"]) == 0
    assert capsys.readouterr().err.splitlines()[-2].endswith("so leave room with --margin PCT")  # without one
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "1000", "--margin", "100"]) == 2
    assert capsys.readouterr().err.startswith("ctxlib: margin must be a percentage from 0 up to")


def test_the_margin_is_shown_as_given_never_rounded(tmp_path, capsys):
    """'--margin 99.9999999' was shown as "margin: 100 percent" ({pct:g}), a margin that would leave nothing;
    99.99999999999999 'leaves nothing', said as 'a margin of 100%'. Found by the hostile review."""
    from ctxlib.packing import percent_text

    (tmp_path / "vat.py").write_text("def vat(amount):\n    return amount * 0.19\n")
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "100000000000", "--margin", "99.9999999"]) == 0
    assert "margin: 99.9999999 percent of the 100,000,000,000-token budget is left free; packed for 99\n" in (
        capsys.readouterr().err)
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "10000000000", "--margin", "99.99999999999999"]) == 2
    assert capsys.readouterr().err == ("ctxlib: a margin of 99.99999999999999% leaves nothing of a budget of "
                                       "10,000,000,000 tokens\n")
    assert [percent_text(p) for p in (50, 50.0, 12.5, 1e-300, 0.1 + 0.2)] == ["50", "50", "12.5", "1e-300",
                                                                              "0.30000000000000004"]


def test_a_long_pack_is_counted_in_the_other_encoding_only_when_asked(tmp_path, capsys, monkeypatch):
    from ctxlib.cli import pack as pack_cli

    (tmp_path / "vat.py").write_text("def vat(amount):\n    return amount * 0.19\n" * 30)
    monkeypatch.setattr(pack_cli, "NOTE_CHARS", 100)  # this pack's ~1,300 characters count as long
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "1000"]) == 0
    assert capsys.readouterr().err.splitlines()[-2] == (
        "tokenizers differ: the budget is exact in o200k_base only; cl100k_base and other providers' tokenizers "
        "count this text differently, so leave room with --margin PCT (--compare-encodings counts it in cl100k_base)")
    assert main(["pack", str(tmp_path), "--query", "vat", "--budget", "1000", "--compare-encodings"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[-2].startswith(f"tokenizers differ: this text is {count_tokens(out):,} tokens in "
                                           f"o200k_base, {count_tokens(out, 'cl100k_base'):,} in cl100k_base (")


# --- 13. the Python versions the README claims are the ones that are tested -----------------------

def test_the_python_floor_is_one_claim_everywhere():
    root = Path(__file__).resolve().parents[1]
    pyproject = (root / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11"' in pyproject
    assert "Python 3.11 or newer" in (root / "README.md").read_text()
    assert "(3, 11)" in (root / "run.py").read_text()
    ci = (root / ".ci" / "run").read_text()
    assert "3.13" in ci  # the highest supported version is run too, beside the lowest (python3 here)


# --- ctxlib eval on hostile repositories, with the git command and without it (dulwich) ------------

def git_history(root: Path, commits: int = 5) -> Path:
    """A repository at ``root`` whose every commit after the first changes pkg/parser.py (one task each)."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "A",
           "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@x"}
    (root / "pkg").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "--template=", "-b", "main", str(root)], check=True, env=env)
    for n in range(commits):
        (root / "pkg" / "parser.py").write_text(f"def parse_numbers():\n    return {n}\n")
        subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
        subprocess.run(["git", "commit", "-q", "-m", f"Parse numbers in the parser, case {n}"], cwd=root, check=True,
                       env={**env, "GIT_AUTHOR_DATE": f"{1_704_103_200 + n * 86_400} +0000",
                            "GIT_COMMITTER_DATE": f"{1_704_103_200 + n * 86_400} +0000"})
    return root


WITHOUT_GIT = {"PATH": "/nonexistent"}  # the console script then reads the history with dulwich
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="the git command is not installed")


@needs_git
@pytest.mark.parametrize("env", [None, WITHOUT_GIT], ids=["git", "dulwich"])
def test_eval_when_no_tree_can_be_read_is_one_line(tmp_path, env):
    root = git_history(tmp_path / "repo")
    blobs = subprocess.run(["git", "rev-list", "--objects", "--all"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    for sha in blobs:  # the log needs commits and trees only; every file's bytes are gone
        if subprocess.run(["git", "cat-file", "-t", sha], cwd=root, capture_output=True, text=True).stdout == "blob\n":
            (root / ".git" / "objects" / sha[:2] / sha[2:]).unlink()
    status, out, err = ctxlib("eval", root, "--budget", "1000", env=env)
    assert status == 2 and out == ""  # was: a report of 0 tasks, 0.0% recall, exit 0
    assert one_line(err).startswith("ctxlib: none of the 4 tasks could be read; the first, ")


@needs_git
@pytest.mark.parametrize("env", [None, WITHOUT_GIT], ids=["git", "dulwich"])
def test_eval_on_a_damaged_or_shallow_repository_is_one_line(tmp_path, env):
    root = git_history(tmp_path / "repo")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{root}", str(shallow)], check=True)
    status, _, err = ctxlib("eval", shallow, env=env)
    assert status == 2 and one_line(err).startswith(f"ctxlib: {shallow}: too little history: 1 qualifying")
    tree = subprocess.run(["git", "rev-parse", "HEAD~1:pkg"], cwd=root, capture_output=True, text=True).stdout.strip()
    (root / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    status, _, err = ctxlib("eval", root, env=env)
    assert status == 2 and tree in one_line(err)  # was: a KeyError traceback without the git command


@needs_git
@pytest.mark.parametrize("env", [None, WITHOUT_GIT], ids=["git", "dulwich"])
def test_eval_lists_the_trees_it_could_not_read(tmp_path, env):
    root = git_history(tmp_path / "repo")
    blob = subprocess.run(["git", "rev-parse", "HEAD~2:pkg/parser.py"], cwd=root, capture_output=True,
                          text=True).stdout.strip()
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    status, out, err = ctxlib("eval", root, "--budget", "1500", "--misses", "0", env=env)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"ctxlib eval: 3 tasks from the history of {root} (1 could not be read)"
    assert lines[1].startswith("  not read: ") and blob in lines[1]
    assert lines[5].split()[:3] == ["system", "all@1.5k", "any@1.5k"]  # was "all@1k" for 1,500 tokens
    status, _, err = ctxlib("eval", root, "--misses", "-1", env=env)
    assert status == 2 and one_line(err) == "ctxlib: --misses must be 0 or more, got -1"
