"""The history signal (ctxlib/recent.py) and the commits it reads (safegit.recent_commits, ``--history``),
from a repository that may be hostile.

The weights are hand-computed: recency is ``RECENT_DECAY ** i``; for similar commits two messages
that score alike against the task share out so that a file in both gets 1 + 1/2 and a file in one
gets 1/2, whatever BM25's idf (the largest total is 1).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from ctxlib import evaluate, history, ranking, recent, safegit
from ctxlib.course.sample_project import build_sample_git_repository
from test_cli_pack import run
from test_history import git, odd_repository, small_history  # noqa: F401 (fixtures)

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="the git command is not installed")

COMMITS = [("Fix cookie parsing", ["cookies.py"]),  # newest first: the commit the tree is at
           ("Update docs", ["README.md"]),
           ("Cookie expires header", ["cookies.py", "headers.py"])]
PATHS = {"cookies.py": 0.0, "headers.py": 0.0, "other.py": 0.0}


def test_recency_by_hand():
    assert recent.recency(COMMITS, PATHS) == {"cookies.py": 1.0, "headers.py": pytest.approx(0.49)}
    assert recent.recency([("x", ["a"])] * 3 + [("y", ["b"])], {"a", "b"}) == {"a": 1.0, "b": pytest.approx(0.343)}


def test_recency_reads_only_the_last_commits_and_passes_over_sweeps():
    old = [("x", ["z.py"])] * recent.RECENT_COMMITS + [("old", ["a.py"])]
    assert recent.recency(old, {"a.py", "z.py"}) == {"z.py": 1.0}  # a.py changed 10 commits back: too old
    sweep = [("Reformat", [f"m{i}.py" for i in range(recent.MAX_FILES + 1)]), ("Fix a", ["a.py"])]
    assert recent.recency(sweep, {"a.py", "m0.py"}) == {"a.py": pytest.approx(0.7)}


def test_similar_commits_by_hand():
    # "cookie" is in two messages of three words each: equal BM25 scores, s. cookies.py: s + s/2, headers.py: s/2.
    assert recent.similar(COMMITS, ["cookie"], PATHS) == {"cookies.py": 1.0, "headers.py": pytest.approx(1 / 3)}
    assert recent.similar(COMMITS, ["nothing"], PATHS) == {}
    assert recent.similar(COMMITS, [], PATHS) == {}


def test_similar_keeps_the_best_few_newest_first_among_equals():
    commits = [(f"cookie fix {i}", [f"f{i}.py"]) for i in range(recent.SIMILAR_TOP + 2)]
    weights = recent.similar(commits, ["cookie"], {f"f{i}.py" for i in range(10)})
    assert sorted(weights) == [f"f{i}.py" for i in range(recent.SIMILAR_TOP)]


def test_bonuses_by_hand():
    scores = {"cookies.py": 2.0, "headers.py": 1.0, "other.py": 0.0}
    bonus = recent.bonuses(COMMITS, ["cookie"], scores)
    assert set(bonus) == {"cookies.py", "headers.py"}  # README.md is not a file here
    assert bonus["cookies.py"][0] == pytest.approx(2.0 * (0.2 * 1.0 + 0.2 * 1.0))
    assert bonus["headers.py"][0] == pytest.approx(2.0 * (0.2 * 0.49 + 0.2 / 3))
    assert bonus["headers.py"][1] == ("changed recently (weight 0.49), changed by commits like the task "
                                      "(weight 0.33): +0.33")


def test_with_no_history_the_ranking_is_unchanged_and_with_it_a_recent_file_rises():
    files = {"a.py": "def parse(text):\n    return text\n", "b.py": "def parse(text):\n    return text.strip()\n"}
    plain = ranking.rank_files(files, "parse text")
    assert ranking.rank_files(files, "parse text", history=()) == plain
    assert [r.path for r in plain] == ["a.py", "b.py"]  # tied: by path
    ranked = ranking.rank_files(files, "parse text", history=[("Strip the parsed text", ["b.py"])])
    assert [r.path for r in ranked] == ["b.py", "a.py"]
    assert ranked[0].effects[-1][0] == "history"


@pytest.mark.parametrize("commits", [[("only a message",)], ["a string"], [(1, ["a.py"])], [("m", "a.py")], [None]])
def test_a_commit_that_is_not_a_message_and_paths_is_a_clear_error(commits):
    with pytest.raises(ValueError, match="commit 0: expected"):
        recent.recency(commits, {"a.py"})


# --- reading the commits -----------------------------------------------------------------------------------------

@needs_git
def test_both_readers_give_the_same_recent_commits(odd_repository):
    by_git, pure = history.GitCommand(odd_repository), history.PureGit(odd_repository)
    assert by_git.recent(10) == pure.recent(10)
    messages = [(message, status) for _, _, message, status in by_git.recent(10)]
    assert [m for m, _ in messages] == ["The link becomes a file, side a package", "Merge side",
                                        "Remove the readme, link to a", "Add b and a non-ASCII module; change a",
                                        "First: a and the readme"]  # the first-parent line: not the side branch
    assert messages[1][1] == [("A", "side.py")]  # a merge: what it brought, against its first parent
    second = by_git.recent(10)[1][0]
    assert by_git.recent(2, second) == pure.recent(2, second) == by_git.recent(10)[1:3]
    with pytest.raises(history.HistoryError, match="not a commit hash"):
        by_git.recent(2, "--output=x")


@needs_git
def test_recent_commits_of_a_working_copy(small_history):
    commits = safegit.recent_commits(small_history, 3)
    assert commits == [(f"Change the parser for case {day}", ["pkg/a.py"]) for day in (3, 2, 1)]
    empty = small_history.parent / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "--template=", "-b", "main")
    assert safegit.recent_commits(empty, 3) == []


@needs_git
@pytest.mark.parametrize("how", ["a subfolder", "no .git", ".git a link", ".git a file", "borrowed objects"])
def test_recent_commits_read_only_the_folders_own_git_directory(small_history, tmp_path, how):
    root = small_history
    if how == "a subfolder":
        root = small_history / "pkg"
    elif how == "no .git":
        root = tmp_path / "plain"
        root.mkdir()
    elif how == ".git a link":
        root = tmp_path / "linked"
        root.mkdir()
        os.symlink(small_history / ".git", root / ".git")
    elif how == ".git a file":
        root = tmp_path / "pointer"
        root.mkdir()
        (root / ".git").write_text(f"gitdir: {small_history / '.git'}\n")
    else:
        info = small_history / ".git" / "objects" / "info"
        info.mkdir(parents=True, exist_ok=True)
        (info / "alternates").write_text("/elsewhere/objects\n")
    said = ("another repository's files are read through it" if how == "borrowed objects"
            else "reads only a .git folder of the folder itself")
    with pytest.raises(history.HistoryError, match=said):
        safegit.recent_commits(root, 3)


@needs_git
def test_a_subfolder_of_a_working_copy_is_told_which_folder_to_name(small_history, tmp_path, capsys):
    # `ctxlib pack src --history` said only "reads only a .git folder of the folder itself (not a link, a linked
    # worktree or borrowed objects)": a person packing a subfolder could not tell what to do.
    with pytest.raises(history.HistoryError) as raised:
        safegit.recent_commits(small_history / "pkg", 3)
    said = raised.value.text("en")
    assert said.startswith(f"{small_history / 'pkg'} has no .git folder") and "reads only a .git folder" in said
    assert f"{small_history} looks like its working copy's top folder" in said and '--include "pkg/**"' in said
    assert "सिर्फ़" in raised.value.text("hi") and str(small_history) in raised.value.text("hi")
    (tmp_path / "plain").mkdir()
    with pytest.raises(history.HistoryError, match="plain has no .git folder: .* the top folder of a git working"):
        safegit.recent_commits(tmp_path / "plain", 3)
    status, out, err = run(capsys, "pack", str(small_history / "pkg"), "--query", "parser", "--budget", "100",
                           "--history")
    assert status == 2 and out == "" and '--include "pkg/**"' in err and len(err.splitlines()) == 1


@needs_git
@pytest.mark.parametrize("where", [".", "pkg"])
def test_recent_commits_of_a_working_copy_named_by_a_relative_path(small_history, monkeypatch, where):
    # "ctxlib pack . --history", as docs/library.md writes it: the stand-in's links must not lead from its own folder
    monkeypatch.chdir(small_history / where)
    root = "." if where == "." else ".."
    assert safegit.recent_commits(root, 3) == [(f"Change the parser for case {day}", ["pkg/a.py"]) for day in (3, 2, 1)]


@needs_git
def test_rank_and_pack_with_history(small_history, capsys):
    (small_history / "pkg" / "c.py").write_text("def parser(case):\n    return case\n")
    status, out, err = run(capsys, "rank", str(small_history), "--query", "parser case", "--explain", "--history")
    assert status == 0, err
    assert "history: changed recently (weight 1.00), changed by commits like the task (weight 1.00)" in out
    status, out, err = run(capsys, "pack", str(small_history), "--query", "parser case", "--budget", "200")
    assert status == 0 and [line for line in out.splitlines() if line.startswith("==> ")] == [
        "==> pkg/c.py (whole) <=="]  # a.py and b.py hold no query word
    status, out, err = run(capsys, "pack", str(small_history), "--query", "parser case", "--budget", "200",
                           "--history")
    assert status == 0 and [line for line in out.splitlines() if line.startswith("==> ")] == [
        "==> pkg/c.py (whole) <==", "==> pkg/a.py (whole) <==", "==> pkg/b.py (whole) <=="], err
    assert "    16  whole          0.66  pkg/a.py" in err  # 1.66 x (0.2 x 1 + 0.2 x 1)


@needs_git
def test_pack_repository_with_history_true_reads_the_folders_own_commits(small_history):
    # From Python, history=True raised "TypeError: 'bool' object is not iterable" from inside recent.py.
    from ctxlib import pack_repository

    (small_history / "pkg" / "c.py").write_text("def parser(case):\n    return case\n")
    pack = pack_repository(small_history, "parser case", 200, history=True)
    assert [c.path for c in pack.chosen] == ["pkg/c.py", "pkg/a.py", "pkg/b.py"]  # as pack --history
    assert [c.path for c in pack_repository(small_history, "parser case", 200, history=False).chosen] == ["pkg/c.py"]
    with pytest.raises(ValueError, match="history must be the recent commits") as raised:
        ranking.rank_files({"a.py": "parser"}, "parser", history=True)
    assert "history=True" in raised.value.text("en") and raised.value.text("hi") != raised.value.text("en")
    with pytest.raises(history.HistoryError):
        pack_repository(small_history / "pkg", "parser case", 200, history=True)  # not the top folder


@needs_git
@pytest.mark.parametrize("lang, said", [("en", "reads only a .git folder of the folder itself"),
                                        ("hi", "सिर्फ़")])
def test_history_without_a_working_copy_is_one_line_in_the_users_language(tmp_path, capsys, lang, said):
    (tmp_path / "a.py").write_text("x = 1\n")
    for command in ("rank", "pack"):
        status, out, err = run(capsys, command, str(tmp_path), "--query", "x", "--budget", "100", "--history",
                               "--lang", lang) if command == "pack" else \
            run(capsys, command, str(tmp_path), "--query", "x", "--history", "--lang", lang)
        assert status == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and said in err, err


# Measured: on the lesson's seven tasks the edited file ranks first six times and fourth once, with or without
# the history (its eighth commit, the root, is no task): (6 + 1/4) / 7.
MRR_NOW = MRR_HISTORY = 25 / 28


@needs_git
def test_eval_measures_pack_with_history_on_the_lessons_history(tmp_path):
    repo = build_sample_git_repository(tmp_path / "shop")
    run_ = evaluate.evaluate_repository(repo, budgets=(500, 1_000, 2_000),
                                        systems=(evaluate.CURRENT, evaluate.HISTORY))
    summary = run_.summary()
    assert len(run_.instances) == 7
    assert summary["ctxlib pack"]["mrr"] == pytest.approx(MRR_NOW, abs=5e-4)
    assert summary["ctxlib pack --history"]["mrr"] == pytest.approx(MRR_HISTORY, abs=5e-4)
    first = run_.instances[0]
    assert evaluate.parent_history(repo, first.parent)[0] == next(
        (message, [p for kind, p in status if kind != "D"])
        for sha, _, message, status in history.GitCommand(repo).log() if sha == first.parent)



@needs_git
def test_explain_words_what_each_signal_did_in_hindi(small_history, capsys):
    (small_history / "pkg" / "c.py").write_text("def parser(case):\n    return case\n")
    (small_history / "pkg" / "test_c.py").write_text("from pkg.c import parser\n\ndef test_parser_case():\n"
                                                       "    assert parser('case') == 'case'\n")
    status, out, err = run(capsys, "rank", str(small_history), "--query", "parser case", "--explain", "--history",
                           "--lang", "hi")
    assert status == 0, err
    assert "    स्थान    score  kind       file" in out  # स्थान takes 3 columns: 2 spaces more
    assert "history: हाल में बदली गई (वज़न 1.00), task से मिलते-जुलते commits ने भी बदली (वज़न 1.00): +" in out
    assert "tests: pkg/test_c.py इसे test करती है: +" in out and "kind: test: x 0.4" in out
    english = ["changed recently", "tested by", "imports or is imported", "which gets", "is named by", "defines "]
    assert not any(words in out for words in english), out
    status, out, _ = run(capsys, "rank", str(small_history), "--query", "parser case", "--explain", "--lang", "en")
    assert "tests: tested by pkg/test_c.py: +" in out and "  place    score  kind       file" in out


# --- a hostile repository (a red-team round on --history) ----------------------------------------------------------

def marker_script(tmp_path) -> tuple[Path, Path]:
    """A program a hostile config could name, and the file it writes if it ever runs."""
    marker, script = tmp_path / "ran", tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(0o755)
    return script, marker


def hostile_partial_clone(source: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A partial clone of ``source`` (no trees: git log must fetch them) whose remote's uploadpack is a hostile
    program; the clone, and the file that program writes if it ever runs."""
    git(source, "config", "uploadpack.allowFilter", "true")
    partial = tmp_path / "partial"
    git(tmp_path, "clone", "-q", "--filter=tree:0", "--no-checkout", f"file://{source}", str(partial))
    script, marker = marker_script(tmp_path)
    git(partial, "config", "remote.origin.uploadpack", str(script))
    return partial, marker


@needs_git
def test_a_promisor_remotes_uploadpack_never_runs(small_history, tmp_path):
    partial, marker = hostile_partial_clone(small_history, tmp_path)
    try:
        safegit.recent_commits(partial, 10)
    except history.HistoryError:
        pass  # the trees are missing and are not fetched: one clear line
    assert not marker.exists()


@needs_git
@pytest.mark.parametrize("config", ["[core]\n\tpager = {script}\n\tfsmonitor = {script}\n[diff]\n\texternal = {script}\n"
                                    "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {script}\n",
                                    "[diff]\n\torderFile = {fifo}\n[log]\n\tmailmap = true\n[mailmap]\n\tfile = {fifo}\n"])
def test_the_repositorys_config_runs_nothing_and_reads_nothing(small_history, tmp_path, config):
    script, marker = marker_script(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # a read of it would wait for ever
    with open(small_history / ".git" / "config", "a") as out:
        out.write(config.format(script=script, fifo=fifo))
    assert [m for m, _ in safegit.recent_commits(small_history, 2)] == ["Change the parser for case 3",
                                                                         "Change the parser for case 2"]
    assert not marker.exists()


@needs_git
@pytest.mark.parametrize("how, said", [
    ("include", "its config includes other files"), ("objects link", "a symbolic link"),
    ("fifo HEAD", "not a regular file"), ("commondir", "another repository's files"),
])
def test_a_git_folder_that_reads_elsewhere_or_blocks_is_refused(small_history, tmp_path, how, said):
    dot = small_history / ".git"
    if how == "include":
        with open(dot / "config", "a") as out:
            out.write("[include]\n\tpath = /etc/passwd\n")
    elif how == "objects link":
        os.rename(dot / "objects", tmp_path / "objects")
        os.symlink(tmp_path / "objects", dot / "objects")
    elif how == "fifo HEAD":
        os.remove(dot / "HEAD")
        os.mkfifo(dot / "HEAD")
    else:
        (dot / "commondir").write_text(str(tmp_path) + "\n")
    for no_git in (False, True):  # the git command, then dulwich (the browser build)
        with pytest.MonkeyPatch.context() as mp:
            if no_git:
                mp.setattr(safegit, "can_run_processes", lambda: False)
            with pytest.raises(history.HistoryError, match=said):
                safegit.recent_commits(small_history, 3)


@needs_git
def test_a_head_that_names_no_commit_is_a_clear_error(small_history):
    tree = git(small_history, "rev-parse", "HEAD^{tree}").strip()
    (small_history / ".git" / "HEAD").write_text(tree + "\n")
    with pytest.raises(history.HistoryError, match="HEAD does not name a commit"):
        safegit.recent_commits(small_history, 3)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(safegit, "can_run_processes", lambda: False)
        with pytest.raises(history.HistoryError, match="is not a commit"):
            safegit.recent_commits(small_history, 3)


@needs_git
def test_a_long_message_and_a_sweep_are_cut(small_history):
    for i in range(40):
        (small_history / f"m{i}.py").write_text("x = 1\n")
    git(small_history, "add", "-A")
    git(small_history, "commit", "-q", "-m", "Sweep " + "word " * 10_000)
    (message, paths), *_ = safegit.recent_commits(small_history, 1)
    assert len(message) == safegit.MAX_MESSAGE_CHARS and len(paths) == recent.MAX_FILES + 1


@needs_git
def test_eval_reads_a_partial_clone_without_fetching(small_history, tmp_path):
    # history.GitCommand, ctxlib eval's reader, allows no transport: the missing trees are an error, not a fetch
    partial, marker = hostile_partial_clone(small_history, tmp_path)
    with pytest.raises(history.HistoryError):
        history.GitCommand(partial).log()
    assert not marker.exists()


@needs_git
@pytest.mark.parametrize("where", ["repository", "user"])
def test_eval_runs_no_smudge_filter_of_the_repository_or_the_user(small_history, tmp_path, monkeypatch, where):
    # git archive runs a filter.<driver>.smudge for each file .gitattributes gives it: ctxlib eval's reader
    # (history.GitCommand) runs git on a stand-in without the repository's config, the user's or the system's
    script, marker = marker_script(tmp_path)
    (small_history / ".gitattributes").write_text("* filter=evil\n")
    git(small_history, "add", ".gitattributes")
    git(small_history, "commit", "-q", "-m", "Add attributes")
    if where == "repository":
        git(small_history, "config", "filter.evil.smudge", str(script))
    else:
        (tmp_path / "home").mkdir()
        (tmp_path / "home" / ".gitconfig").write_text(f"[filter \"evil\"]\n\tsmudge = {script}\n")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
    reader = history.GitCommand(small_history)
    (newest, _, message, _), *_ = reader.log()
    (tmp_path / "tree").mkdir()
    reader.write_tree(newest, tmp_path / "tree")
    assert message == "Add attributes" and (tmp_path / "tree" / ".gitattributes").read_text() == "* filter=evil\n"
    assert not marker.exists()


@needs_git
def test_eval_reads_a_linked_worktree_and_a_sha256_repository(small_history, tmp_path):
    git(small_history, "worktree", "add", "-q", "--detach", str(tmp_path / "linked"), "HEAD~1")
    linked = history.GitCommand(tmp_path / "linked")
    assert linked.common_dir == (small_history / ".git").resolve()
    assert [m for _, _, m, _ in linked.log()] == [m for _, _, m, _ in history.GitCommand(small_history).log()][1:]
    git(tmp_path, "init", "-q", "--object-format=sha256", "wide")
    (tmp_path / "wide" / "f.py").write_text("x = 1\n")
    git(tmp_path / "wide", "add", "f.py")
    git(tmp_path / "wide", "commit", "-q", "-m", "One")
    (sha, _, message, status), = history.GitCommand(tmp_path / "wide").log()
    assert len(sha) == 64 and message == "One" and status == [("A", "f.py")]


@needs_git
def test_eval_caps_a_git_run_that_takes_too_long_or_writes_too_much(small_history, monkeypatch):
    reader = history.GitCommand(small_history)
    monkeypatch.setattr(reader, "max_output", 100)
    with pytest.raises(history.HistoryError, match="larger than 100 bytes"):
        reader.log()
    monkeypatch.setattr(reader, "command", lambda *args: ["sleep", "5"])
    monkeypatch.setattr(reader, "timeout", 0.2)
    with pytest.raises(history.HistoryError, match="took longer than 0.2 seconds"):
        reader.git("log")
    monkeypatch.setattr(reader, "_left_out", lambda *args: [])  # the listing first, then the archive
    with pytest.raises(history.HistoryError, match="git archive: took longer than 0.2 seconds"):
        reader.write_tree("0" * 40, small_history)  # the archive never writes: tar waits, and both are stopped


@needs_git
def test_both_readers_write_the_bytes_the_commit_holds_whatever_gitattributes_say(small_history, tmp_path):
    # git archive ran export-subst ($Format:%B$ wrote 4 GB from a 172 KB .git; %G? ran gpg), ident, eol and
    # export-ignore; the stand-in's info/attributes turns them off, so both readers write the same files
    (small_history / ".gitattributes").write_text("pkg/main.py ident export-subst\npkg/crlf.py text eol=crlf\n"
                                                 "pkg/gone.py export-ignore\n")
    (small_history / "pkg" / "main.py").write_text("# $Id$ $Format:%H %an %B$\n")
    (small_history / "pkg" / "crlf.py").write_text("a = 1\nb = 2\n")
    (small_history / "pkg" / "gone.py").write_text("x = 1\n")
    git(small_history, "add", "-A")
    git(small_history, "commit", "-q", "-m", "Add attributes")
    trees = []
    for reader in (history.GitCommand(small_history), history.PureGit(small_history)):
        (head, *_), *_ = reader.log()
        (tmp_path / reader.name).mkdir()
        reader.write_tree(head, tmp_path / reader.name)
        trees.append({p.relative_to(tmp_path / reader.name).as_posix(): p.read_bytes()
                      for p in (tmp_path / reader.name).rglob("*") if p.is_file()})
    assert trees[0] == trees[1]
    assert trees[0]["pkg/main.py"] == b"# $Id$ $Format:%H %an %B$\n" and trees[0]["pkg/crlf.py"] == b"a = 1\nb = 2\n"
    assert "pkg/gone.py" in trees[0]
