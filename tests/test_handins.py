"""Issue 23, items 3, 4, 6 and 8: hand-ins graded one by one, output paths, caches, tracebacks, small ones.

Each test failed before its fix. Commands run through ``main`` in-process unless a hang or a
process-wide limit is what is tested (``count < /dev/zero``, a FIFO as the tokenizer cache).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlib import safefile, tokens
from ctxlib.course import progress
from ctxlib.course.commands import main
from ctxlib.course.progress import new_progress, open_progress, read_progress, record_attempt, record_quietly
from ctxlib.packing import budget_after_margin
from ctxlib.i18n import lang_from_environment
from ctxlib.repo import read_repo

LESSON = "01_window_as_budget"


def attempt(question="whole_repo", outcome="passed", hints=0):
    return {"lesson": LESSON, "question": question, "outcome": outcome, "hints_used": hints,
            "solution_viewed": False, "time": "2026-01-01T00:00:00Z"}


def hand_in(folder: Path, name: str, learner, attempts, raw: str | None = None) -> Path:
    path = folder / name
    path.write_text(raw if raw is not None else json.dumps({**new_progress(learner), "attempts": attempts}),
                    encoding="utf-8")
    return path


def grade(capsys, folder, csv, *more):
    status = main(["grade", str(folder), "--csv", str(csv), *more])
    out, err = capsys.readouterr()
    return status, out, err


def ctxlib(*args, timeout=60, env=None, stdin=None):
    done = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", *map(str, args)], capture_output=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, stdin=stdin)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


# --- 3. One hand-in never stops the class report ------------------------------------------------

HUGE = "9" * 5000


def test_a_5000_digit_number_skips_that_hand_in_and_grades_the_rest(tmp_path, capsys):
    hand_in(tmp_path, "asha.json", "Asha", [attempt()])
    raw = json.dumps({**new_progress("Ravi"), "attempts": [attempt()]}).replace('"hints_used": 0', f'"hints_used": {HUGE}')
    hand_in(tmp_path, "ravi.json", None, None, raw=raw)
    status, out, err = grade(capsys, tmp_path, tmp_path / "g.csv")
    assert status == 0
    assert err.splitlines() == ["ctxlib: ravi.json: cannot be read, skipped (holds a number 5,000 digits long "
                                "(at most 100 are read))"]
    assert "skipped: ravi.json (holds a number 5,000 digits long (at most 100 are read))" in out.splitlines()
    assert out.splitlines()[-1].endswith("1 learner x 48 questions; 1 file skipped (see above)") or \
        "1 learner x" in out.splitlines()[-1]
    assert "Asha" in out


def test_a_utf8_bom_is_accepted(tmp_path, capsys):
    path = tmp_path / "asha.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({**new_progress("Asha"), "attempts": [attempt()]}).encode())
    assert read_progress(path)["learner"] == "Asha"
    status, out, err = grade(capsys, tmp_path, tmp_path / "g.csv")
    assert status == 0 and err == "" and "Asha" in out


def test_two_hand_ins_with_the_same_learner_name_are_told_apart(tmp_path, capsys):
    hand_in(tmp_path, "a.json", "Asha", [attempt()])
    hand_in(tmp_path, "b.json", "Asha", [])
    status, out, _ = grade(capsys, tmp_path, tmp_path / "g.csv")
    assert status == 0
    rows = (tmp_path / "g.csv").read_text().splitlines()
    assert [r.split(",")[:2] for r in rows[1:]] == [["Asha (a.json)", "a.json"], ["Asha (b.json)", "b.json"]]
    assert "Asha (a.json)" in out and "Asha (b.json)" in out


def test_the_notebook_recovers_from_a_bad_file_without_losing_earlier_attempts(tmp_path, capsys, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("CTXLIB_PROGRESS", str(path))
    good = [attempt("whole_repo"), attempt("budget_120_used", "failed")]
    bad = dict(attempt("third"), hints_used=0)
    raw = json.dumps({**new_progress("Asha"), "attempts": good + [bad]}).replace(
        '"question": "third", "outcome": "passed", "hints_used": 0', f'"question": "third", "outcome": "passed", '
                                                                     f'"hints_used": {HUGE}')
    path.write_text(raw)
    record_quietly(LESSON, "whole_repo", "passed")
    err = capsys.readouterr().err
    assert "not saved" not in err and "kept as progress.json.corrupt-" in err
    data = read_progress(path)
    assert data["learner"] == "Asha"
    assert [(a["question"], a["outcome"]) for a in data["attempts"]] == [
        ("whole_repo", "passed"), ("budget_120_used", "failed"), ("whole_repo", "passed")]
    record_quietly(LESSON, "whole_repo", "failed")  # and it goes on recording
    assert len(read_progress(path)["attempts"]) == 4
    assert capsys.readouterr().err == ""


def test_ctxlib_progress_reads_past_a_huge_number(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**new_progress("Asha"), "attempts": [attempt()]}).replace(
        '"hints_used": 0', f'"hints_used": {HUGE}'))
    status, out, err = ctxlib("progress", env={"CTXLIB_PROGRESS": str(path)})
    assert status == 0 and "Traceback" not in err and "could not be read" in err


def _room(tmp_path, learners):
    for name, data in learners.items():
        folder = tmp_path / "homes" / name / ".ctxlib"
        folder.mkdir(parents=True)
        if data is not None:
            data(folder / "progress.json")
    return tmp_path


def test_hub_grade_names_an_unreadable_or_huge_hand_in_and_grades_the_rest(tmp_path, capsys, monkeypatch):
    sys.path.insert(0, str(Path(__file__).parents[1]))
    import run

    good = json.dumps({**new_progress(None), "attempts": [attempt()]})

    def sparse(path):  # 3 GB that take no disk: refused by its size, never copied
        with open(path, "wb") as f:
            f.truncate(3 * 1024 ** 3)

    outside = tmp_path / "secret.json"
    outside.write_text(good)
    room = _room(tmp_path / "room", {"asha": lambda p: p.write_text(good), "big": sparse,
                                     "link": lambda p: p.symlink_to(outside), "ravi": lambda p: p.write_text(good)})
    real_open = os.open

    def unreadable(path, flags, *args, **kwargs):  # root reads anything: refuse as the OS would
        if str(path) == "progress.json" and kwargs.get("dir_fd") is not None and "ravi" in os.readlink(
                f"/proc/self/fd/{kwargs['dir_fd']}"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", unreadable)
    copied = []
    monkeypatch.setattr(run.subprocess, "call", lambda cmd, **kw: copied.append(sorted(os.listdir(cmd[2]))) or 0)
    assert run.grade_room(room, tmp_path / "g.csv") == 0
    assert copied == [["asha.json"]]
    said = capsys.readouterr().out + capsys.readouterr().err
    assert "big (larger than the size cap (3,221,225,472 bytes > 16,777,216))" in said
    assert "ravi (Permission denied)" in said and "link (" in said


# --- 4. Output paths: a new regular file renamed over the target, never over a link or device ---

@pytest.mark.parametrize("kind", ["link", "fifo", "dangling"])
def test_csv_never_replaces_a_link_or_a_fifo(tmp_path, capsys, kind):
    hand_ins = tmp_path / "class"
    hand_ins.mkdir()
    hand_in(hand_ins, "asha.json", "Asha", [attempt()])
    target = tmp_path / "grades.csv"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(victim if kind == "link" else tmp_path / "nowhere")
    status = main(["grade", str(hand_ins), "--csv", str(target)])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "not a regular file; not replaced" in err
    assert victim.read_text() == "keep me\n"
    assert target.is_symlink() if kind != "fifo" else target.is_fifo()


def test_write_atomically_refuses_a_character_device_and_replaces_a_regular_file(tmp_path):
    with pytest.raises(safefile.Refused, match="is a character device, not a regular file; not replaced"):
        safefile.write_atomically("/dev/null", "x")
    target = tmp_path / "out.txt"
    target.write_text("old")
    safefile.write_atomically(target, "new")
    assert target.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["out.txt"]


def test_there_is_one_atomic_write():
    assert not hasattr(progress, "write_atomically") and not hasattr(tokens, "write_atomically")


# --- 6. Caches and standard input: capped, regular files only, checked ---------------------------

def test_count_from_dev_zero_stops_at_the_cap():
    with open("/dev/zero", "rb") as zero:
        status, _, err = ctxlib("count", stdin=zero)
    assert status == 2 and "Traceback" not in err
    assert err.strip() == "ctxlib: <stdin>: larger than the size cap (67,108,865 bytes > 67,108,864)"


def _cache_path(tmp_path):
    from ctxlib import usercache

    return tmp_path / usercache.cache_file("o200k_base", tokens.ENCODINGS["o200k_base"]["sha256"]).name


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_link_to_dev_zero_as_the_tokenizer_cache(tmp_path, kind):
    cache = _cache_path(tmp_path)
    if kind == "fifo":
        os.mkfifo(cache)
    else:
        cache.symlink_to("/dev/zero")
    status, out, err = ctxlib("count", stdin=subprocess.DEVNULL, env={"CTXLIB_CACHE_DIR": str(tmp_path)}, timeout=60)
    assert status == 0 and "Traceback" not in err
    assert cache.is_fifo() if kind == "fifo" else cache.is_symlink()  # never replaced either


def test_a_cache_whose_payload_was_changed_with_its_checksum_is_rebuilt(tmp_path, monkeypatch):
    import hashlib

    from ctxlib import usercache

    monkeypatch.setenv("CTXLIB_CACHE_DIR", str(tmp_path))
    ranks = dict(tokens.mergeable_ranks("o200k_base"))
    wrong = {token: rank for rank, token in enumerate(sorted(ranks, key=len))}  # plausible but wrong
    payload = tokens.ranks_bytes(wrong)
    _cache_path(tmp_path).write_bytes(hashlib.sha256(payload).hexdigest().encode() + payload)
    assert usercache.read_payload(_cache_path(tmp_path)) == payload  # its own checksum matches
    tokens.mergeable_ranks.cache_clear()
    try:
        assert tokens.mergeable_ranks("o200k_base") == ranks
        assert hashlib.sha256(usercache.read_payload(_cache_path(tmp_path))).hexdigest() == tokens.RANKS_DIGESTS["o200k_base"]
    finally:
        tokens.mergeable_ranks.cache_clear()


def test_ranks_digests_are_those_of_the_shipped_files():
    import gzip

    for name in tokens.ENCODINGS:
        data = gzip.decompress((tokens.DATA_DIR / f"{name}.tiktoken.gz").read_bytes())
        ranks = tokens.parse_ranks(name, data, tokens.ENCODINGS[name]["sha256"])
        assert tokens.ranks_digest(ranks) == tokens.RANKS_DIGESTS[name]


# --- 6 and 8: eval, budgets, patterns, names, languages ------------------------------------------

def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
                        "GIT_COMMITTER_EMAIL": "a@b", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
                        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"})


def test_explain_miss_on_a_repository_whose_gitignore_is_star(tmp_path):
    from ctxlib import evaluate

    repo = tmp_path / "dots"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / ".gitignore").write_text("*\n")
    (repo / "vimrc.py").write_text("x = 1\n")
    _git(repo, "add", "-f", ".")
    _git(repo, "commit", "-qm", "start")
    parent = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    instance = evaluate.Instance("0" * 40, parent, "fix vimrc settings", ("vimrc.py",))
    outcome = evaluate.TaskResult(instance, "ctxlib", {"vimrc.py": 0}, [])
    assert evaluate.explain_miss(repo, outcome) == (
        "no file was read at that commit (all ignored, too big or binary)\n"
        "edited: vimrc.py was not read (ignored, too big or binary at that commit)")


def test_a_budget_of_ten_to_the_23_is_not_rounded():
    assert budget_after_margin(10 ** 23, 0.0) == 10 ** 23  # --margin's default is a float
    assert budget_after_margin(10 ** 23, 10.0) == 9 * 10 ** 22
    assert budget_after_margin(2000, 10) == 1800


def test_an_include_pattern_that_can_match_nothing_is_an_error(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match=r"include: the pattern '\[' can match no file name"):
        read_repo(tmp_path, include=["["])


@pytest.mark.parametrize("patterns, says", [
    ([""], "include: the pattern '' matches no file name: git reads a blank line, or one that starts with '#'"),
    (["#x"], "include: the pattern '#x' matches no file name: git reads a blank line, or one that starts with '#'"),
    (["", "["], "include: the pattern '' matches no file name"),  # "" was dropped, and '[' paired with it
    (["*.py", "["], r"include: the pattern '\[' can match no file name \(git reads an unclosed '\['"),
    (["/"], "include: the pattern '/' can match no file name$"),  # not "git reads an unclosed '['"
    (["!*.md"], "include: '!\\*.md' only takes back what an earlier pattern matched, so no file matches; to leave "
                "files out, use --exclude"),
])
def test_an_include_pattern_that_matches_nothing_is_named_with_its_reason(tmp_path, patterns, says):
    """A blank or commented --include left every file out, and the pack said 'no file matches the query'; '/'
    was explained as an unclosed '['. Found by the hostile review."""
    (tmp_path / "a.py").write_text("x = 1\n")
    with pytest.raises(ValueError, match=says):
        read_repo(tmp_path, include=patterns)
    assert [f.path for f in read_repo(tmp_path, include=["*.py", "!b.py"]).files] == ["a.py"]


def test_a_literal_backslash_name_and_a_byte_0xff_name_stay_two_files(tmp_path):
    os.makedirs(tmp_path / "r")
    (tmp_path / "r" / "a\\xff.py").write_text("literal = 1\n")
    with open(os.path.join(os.fsencode(tmp_path / "r"), b"a\xff.py"), "w") as f:
        f.write("byte = 1\n")
    found = read_repo(tmp_path / "r")
    assert sorted((f.path, f.text) for f in found.files) == [("a\\\\xff.py", "literal = 1\n"), ("a\\xff.py", "byte = 1\n")]


def test_an_unknown_ctxlib_lang_is_said_once(capsys):
    from ctxlib import i18n

    i18n._warn_unknown_lang.cache_clear()
    assert lang_from_environment({"CTXLIB_LANG": "xx"}) == "en"
    assert lang_from_environment({"CTXLIB_LANG": "xx"}) == "en"
    assert capsys.readouterr().err == "ctxlib: CTXLIB_LANG=xx is not a language ctxlib speaks (en, hi); using en\n"
    assert lang_from_environment({"CTXLIB_LANG": "xx", "LANG": "hi_IN.UTF-8"}) == "hi"
    assert "CTXLIB_LANG=xx" in capsys.readouterr().err  # in Hindi: the language it falls back to


def test_eval_does_not_write_a_file_above_the_size_cap(tmp_path):
    from ctxlib import history

    repo = tmp_path / "zeros"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "zeros.bin").write_bytes(b"\0" * (3 * 1024 * 1024))
    (repo / "a.py").write_text("x = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "start")
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    for reader in (history.GitCommand(repo), history.PureGit(repo)):
        out = tmp_path / reader.name
        out.mkdir()
        reader.write_tree(head, out, max_file_bytes=1024 * 1024)
        assert sorted(os.listdir(out)) == ["a.py"]


def _one_commit_repo(tmp_path, files: dict, edit: dict):
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    for name, data in files.items():
        (repo / name).write_bytes(data)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "start")
    parent = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    for name, data in edit.items():
        (repo / name).write_bytes(data)
    _git(repo, "commit", "-qam", "edit")
    return repo, parent


def test_eval_skips_a_task_whose_edited_python_file_is_binary(tmp_path):
    from ctxlib import evaluate

    repo, parent = _one_commit_repo(tmp_path, {"blob.py": b"\x00\x01 vat data", "shop.py": b"def vat(): pass\n"},
                                    {"blob.py": b"\x00\x02 vat data"})
    instance = evaluate.Instance("0" * 40, parent, "fix the vat blob", ("blob.py",))
    with pytest.raises(evaluate.EvalError, match=r"no edited file was read at the parent commit \(blob.py: binary"):
        evaluate.run_instance(repo, instance, (evaluate.CURRENT,))


def test_a_miss_that_scores_0_is_rank_none_in_its_explanation_too(tmp_path):
    from ctxlib import evaluate

    repo, parent = _one_commit_repo(tmp_path, {"vat.py": b"def vat_rate(): return 0.2  # vat\n",
                                               "notes.py": b"def helper(): return 1\n",
                                               "other.py": b"def other(): return 2\n"},
                                    {"notes.py": b"def helper(): return 3\n"})
    instance = evaluate.Instance("0" * 40, parent, "vat rate", ("notes.py",))
    outcome = evaluate.TaskResult(instance, "ctxlib", {"notes.py": 0}, [])
    lines = evaluate.explain_miss(repo, outcome).splitlines()
    assert lines[0].startswith("ranked 1st: vat.py")
    assert lines[-1] == "edited: notes.py scores 0 for the query (rank none)"  # as the report's "(rank none)"
