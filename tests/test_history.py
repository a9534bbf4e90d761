"""Reading history with and without the git command: the same log, the same trees, the same figures.

Lesson 3's "Is the ranking any good?" builds the sample project's history and measures the
ranking on it. The browser build cannot start processes, so there the history is written and
read with dulwich (``ctxlib.history.PureGit``); on the desktop ``ctxlib eval`` uses the git
command (``GitCommand``). These tests hold the two equal, and hold the sample history to the
hashes git itself makes.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlib import evaluate, gitlimits, history, treewrite
from ctxlib.course import sample_project
from ctxlib.course.sample_project import build_sample_git_repository

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="the git command is not installed")

# git log --format='%H %T' of the sample history, as git add -A; git commit made it (newest first).
SAMPLE_LOG = [
    ("2af2ecf463d0eb3fb7463fa53942b07a2a22b516", "429361595679830d994dac5d333101e9d25afbd8"),
    ("db96fe3d88397e183d9ef2b3cefab08e4fc452ef", "43541c8f8aec36e88fbc544d60ca3d14f2a8eb86"),
    ("d982ae88208b91d3e423e5599b3a671be84697eb", "145c5db357dacdea5fa4b4c0f64d551320c9f999"),
    ("e99aef73488d22161014cb183eff16d5f21d9166", "e65ff50c574e81bafcdef639a6cea4d31a6478f6"),
    ("dac58a76bfcf00fa39e8a334fa6ab30b514f2974", "ede16bb00ba931b96020e3b13e807f0fd4c58af1"),
    ("f6d0a2700f713c97705b470b8ab26b77b3ff32b1", "dcd6d9ebd7d6b7d7b3092b2a0b6eafb34bdd34b7"),
    ("7af3e69c7e0830f1ea89752d7a1f76e13dc873ce", "c2a5f866ca0b29904ebb5243b8b899a88aaa6ed4"),
    ("1fab69033c80d734f4124ff8059937039fc22510", "85ad22abd39dca9122f416501996e2d9f9aa8666"),
]


def git(root: Path, *args: str, when: int = 1_704_103_200, author=("A", "a@example.org")) -> str:
    """The git command in ``root`` with a fixed author, date and no user configuration."""
    date = f"{when} +0000"
    name, email = author
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
           "GIT_COMMITTER_DATE": date}
    done = subprocess.run(["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
                          cwd=root, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_the_sample_history_has_gits_own_hashes(tmp_path):
    reader = history.PureGit(build_sample_git_repository(tmp_path / "shop"))
    log = reader.log()
    assert [sha for sha, *_ in log] == [sha for sha, _ in SAMPLE_LOG]
    with reader.open() as repo:
        assert [repo[sha.encode()].tree.decode() for sha, *_ in log] == [tree for _, tree in SAMPLE_LOG]
    assert [message for _, _, message, _ in log][::-1] == [sample_project.FIRST_MESSAGE] + [
        m for m, _ in sample_project.HISTORY]


@needs_git
def test_the_git_command_makes_the_same_history(tmp_path):
    # The way the sample history was first built: git add -A, git commit, one day apart.
    root = tmp_path / "by-git"
    ours = build_sample_git_repository(tmp_path / "ours")
    files = {p.relative_to(ours).as_posix(): p.read_bytes() for p in ours.rglob("*")
             if p.is_file() and ".git" not in p.relative_to(ours).parts}
    texts = dict(sample_project.sample_files())
    for _, edits in reversed(sample_project.HISTORY):
        for path, before, after in reversed(edits):
            texts[path] = texts[path].decode().replace(after, before).encode()
    for rel, data in texts.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    when = sample_project.FIRST_DATE
    git(root, "init", "-q", "--template=", "-b", "main")
    for message, edits in [(sample_project.FIRST_MESSAGE, [])] + sample_project.HISTORY:
        for path, before, after in edits:
            texts[path] = texts[path].decode().replace(before, after, 1).encode()
            (root / path).write_bytes(texts[path])
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", message, when=when, author=sample_project.AUTHOR)
        when += 86_400
    assert git(root, "log", "--format=%H %T").split("\n")[:-1] == [f"{c} {t}" for c, t in SAMPLE_LOG]
    assert files == {rel: data for rel, data in texts.items()}  # the same working tree
    assert git(ours, "status", "--porcelain") == ""  # and an index that matches it


@pytest.fixture
def odd_repository(tmp_path) -> Path:
    """A history with what a real one has: a root commit, additions, deletions, a type change,
    a merge, a file in a folder, a non-ASCII name, a symbolic link."""
    root = tmp_path / "odd"
    root.mkdir()
    git(root, "init", "-q", "--template=", "-b", "main")
    (root / "a.py").write_text("print('a')\n")
    (root / "README.md").write_text("# odd\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "First: a and the readme", when=1_704_103_200)
    (root / "pkg").mkdir()
    (root / "pkg" / "b.py").write_text("B = 1\n")
    (root / "pkg" / "ünï.py").write_text("U = 'ü'\n")
    (root / "a.py").write_text("print('a, changed')\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Add b and a non-ASCII module; change a", when=1_704_189_600)
    git(root, "checkout", "-q", "-b", "side")
    (root / "side.py").write_text("SIDE = True\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Side branch: one more module", when=1_704_276_000)
    git(root, "checkout", "-q", "main")
    (root / "README.md").unlink()
    os.symlink("a.py", root / "link.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Remove the readme, link to a", when=1_704_362_400)
    git(root, "merge", "-q", "--no-ff", "-m", "Merge side", "side", when=1_704_448_800)
    (root / "link.py").unlink()
    (root / "link.py").write_text("# no longer a link\n")
    (root / "side.py").unlink()  # a module becomes a package: git lists side.py before side/...
    (root / "side").mkdir()
    (root / "side" / "__init__.py").write_text("SIDE = True\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "The link becomes a file, side a package", when=1_704_535_200)
    return root


@needs_git
def test_both_readers_give_the_same_log(odd_repository):
    by_git = history.GitCommand(odd_repository).log()
    assert by_git == history.PureGit(odd_repository).log()  # the same order too
    assert by_git[0][3] == [("T", "link.py"), ("D", "side.py"), ("A", "side/__init__.py")]
    statuses = {message: sorted(status) for _, _, message, status in by_git}
    assert statuses == {
        "The link becomes a file, side a package": [("A", "side/__init__.py"), ("D", "side.py"), ("T", "link.py")],
        "Merge side": [],  # git log lists no files for a merge
        "Remove the readme, link to a": [("A", "link.py"), ("D", "README.md")],
        "Side branch: one more module": [("A", "side.py")],
        "Add b and a non-ASCII module; change a": [("A", "pkg/b.py"), ("A", "pkg/ünï.py"), ("M", "a.py")],
        "First: a and the readme": [("A", "README.md"), ("A", "a.py")],
    }


@needs_git
def test_both_readers_write_the_same_trees(odd_repository, tmp_path):
    readers = history.GitCommand(odd_repository), history.PureGit(odd_repository)
    newest = {}
    for sha, *_ in readers[0].log():
        written = []
        for reader in readers:
            dest = tmp_path / reader.name / sha
            dest.mkdir(parents=True)
            reader.write_tree(sha, dest)
            written.append({p.relative_to(dest).as_posix(): (p.is_symlink(), os.readlink(p) if p.is_symlink()
                                                             else p.read_bytes())
                            for p in sorted(dest.rglob("*")) if not p.is_dir()})
        assert written[0] == written[1], sha
        newest = newest or written[0]
    assert newest == {"a.py": (False, b"print('a, changed')\n"), "link.py": (False, b"# no longer a link\n"),
                      "pkg/b.py": (False, b"B = 1\n"), "pkg/\u00fcn\u00ef.py": (False, "U = '\u00fc'\n".encode()),
                      "side/__init__.py": (False, b"SIDE = True\n")}


@needs_git
def test_the_lessons_evaluation_is_the_same_without_the_git_command(tmp_path, monkeypatch):
    repo = build_sample_git_repository(tmp_path / "shop")
    with_git = evaluate.evaluate_repository(repo, budgets=(500, 1_000, 2_000))
    assert isinstance(history.open_history(repo), history.GitCommand)

    def no_processes(*args, **kwargs):  # what Pyodide says to subprocess.run
        raise OSError(138, "emscripten does not support processes.")
    monkeypatch.setattr(history, "can_run_processes", lambda: False)
    monkeypatch.setattr(subprocess, "run", no_processes)
    monkeypatch.setattr(subprocess, "Popen", no_processes)
    again = build_sample_git_repository(tmp_path / "again")
    pure = evaluate.evaluate_repository(again, budgets=(500, 1_000, 2_000))
    assert isinstance(history.open_history(again), history.PureGit)
    assert pure.instances == [evaluate.Instance(i.commit, i.parent, i.query, i.targets, "again")
                              for i in with_git.instances]
    assert len(pure.instances) == 7 and pure.skipped == []
    assert pure.summary() == with_git.summary()


def test_pure_reader_errors_name_the_problem(tmp_path):
    with pytest.raises(history.HistoryError, match="not a git repository"):
        history.PureGit(tmp_path)
    with pytest.raises(history.HistoryError, match="no such directory"):
        history.PureGit(tmp_path / "missing")
    (tmp_path / "README.md").write_text("# a file, not a folder\n")
    for reader in (history.PureGit, history.GitCommand) if shutil.which("git") else (history.PureGit,):
        with pytest.raises(history.HistoryError, match="README.md: not a directory"):  # was "no such directory"
            reader(tmp_path / "README.md")
    reader = history.PureGit(build_sample_git_repository(tmp_path / "shop"))
    with pytest.raises(history.HistoryError, match="no such commit"):
        reader.write_tree("0" * 40, tmp_path / "out")
    with pytest.raises(evaluate.EvalError, match="not a git repository"):
        evaluate.mine_instances(tmp_path)


# --- Hostile repositories (issue 13's rules: one line, or a clean partial result; never a wrong number) ---

def readers(root):
    """Both readers of ``root`` where the git command is installed, else the pure one."""
    return ([history.GitCommand(root)] if shutil.which("git") else []) + [history.PureGit(root)]


def raw_object(root: Path, kind: str, data: bytes) -> str:
    """Write ``data`` as an object of ``kind`` as it is (``git hash-object --literally``); its hash."""
    done = subprocess.run(["git", "hash-object", "-t", kind, "-w", "--literally", "--stdin"], cwd=root,
                          input=data, capture_output=True, check=True)
    return done.stdout.decode().strip()


@pytest.fixture
def small_history(tmp_path) -> Path:
    """Four commits, each changing pkg/a.py; one day apart."""
    root = tmp_path / "small"
    (root / "pkg").mkdir(parents=True)
    git(root, "init", "-q", "--template=", "-b", "main")
    for day in range(4):
        (root / "pkg" / "a.py").write_text(f"A = {day}\n")
        (root / "pkg" / "b.py").write_text("B = 1\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Change the parser for case {day}", when=1_704_103_200 + day * 86_400)
    return root


@needs_git
def test_a_shallow_clone_reads_the_same_without_the_git_command(small_history, tmp_path):
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{small_history}", str(clone))
    by_git = history.GitCommand(clone).log()
    assert history.PureGit(clone).log() == by_git  # dulwich used to look for the missing parent (KeyError)
    assert [len(parents) for _, parents, _, _ in by_git] == [1, 0]  # the boundary has no parents, as git shows
    assert by_git[1][3] == [("A", "pkg/a.py"), ("A", "pkg/b.py")]


@needs_git
@pytest.mark.skipif(sys.platform != "linux", reason="names with any bytes need a Linux file system")
def test_odd_names_and_messages_read_the_same(tmp_path):
    root = tmp_path / "odd"
    (root / "pkg").mkdir(parents=True)
    git(root, "init", "-q", "--template=", "-b", "main")
    names = ['quo"te.py', "tab\there.py", "new\nline.py", "back\\slash.py", "-dash.py", os.fsdecode(b"caf\xe9.py")]
    for name in names:
        (root / "pkg" / name).write_text("X = 1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "First")
    for day, name in enumerate(names, 1):
        (root / "pkg" / name).write_text(f"X = {day + 1}\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Fix \x1e the \x1f module {day}", when=1_704_103_200 + day * 86_400)
    (root / "pkg" / "b.py").write_text("B = 1\n")
    git(root, "add", "-A")
    (root / "msg").write_bytes("Réparer le lexer pour les entrées\n".encode("latin-1"))
    git(root, "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-F", "msg", when=1_704_900_000)
    tree = git(root, "rev-parse", "HEAD^{tree}").strip()
    head = git(root, "rev-parse", "HEAD").strip()
    bogus = raw_object(root, "commit", f"tree {tree}\nparent {head}\nauthor A <a@x> 1704990000 +0000\ncommitter "
                       f"A <a@x> 1704990000 +0000\nencoding no-such-charset\n\nAn unknown encoding\n".encode())
    git(root, "update-ref", "refs/heads/main", bogus)
    by_git = history.GitCommand(root).log()
    assert history.PureGit(root).log() == by_git  # quoted names, split records, LookupError before
    assert [m for _, _, m, _ in by_git[:2]] == ["An unknown encoding", "Réparer le lexer pour les entrées"]
    assert [s for _, _, _, s in by_git[2:-1]][::-1] == [[("M", f"pkg/{name}")] for name in names]
    assert by_git[2][2] == "Fix \x1e the \x1f module 6"
    # The target's path is the path read back from the tree, so a miss is a miss and a hit a hit.
    files = evaluate.files_at(root, by_git[2][0])
    for entry in by_git[2:7]:
        target = evaluate.qualifying(entry).targets
        assert len(target) == 1 and target[0] in files, target


@needs_git
def test_the_git_command_ignores_the_callers_git_variables_and_settings(small_history, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "--template=", "-b", "main")
    (other / "x.py").write_text("X = 1\n")
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "Another repository")
    expected = history.PureGit(small_history).log()
    settings = tmp_path / "gitconfig"
    settings.write_text("[color]\n\tui = always\n[i18n]\n\tlogOutputEncoding = ISO-8859-1\n[log]\n\tshowRoot = false\n")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))  # a git hook sets it
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(settings))
    reader = history.GitCommand(small_history)
    assert reader.git_dir == small_history / ".git"
    assert reader.log() == expected  # was: the other repository's history, under this one's name


def damage(root: Path, how: str) -> str:
    """Damage the repository at ``root`` as ``how`` says; the commit whose tree (or log) is broken."""
    commit = git(root, "rev-parse", "HEAD~1").strip()
    name = {"missing blob": "HEAD~1:pkg/a.py", "corrupt blob": "HEAD~1:pkg/a.py", "missing tree": "HEAD~1:pkg",
            "missing commit": "HEAD~2"}[how]
    sha = git(root, "rev-parse", name).strip()
    loose = root / ".git" / "objects" / sha[:2] / sha[2:]
    if how.startswith("corrupt"):
        loose.chmod(0o644)
        loose.write_bytes(b"\x00 not zlib data at all")
    else:
        loose.unlink()
    return commit


@needs_git
@pytest.mark.parametrize("how", ["missing blob", "corrupt blob", "missing tree", "missing commit"])
def test_a_damaged_repository_is_a_history_error_in_both_readers(small_history, tmp_path, how):
    commit = damage(small_history, how)
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        with pytest.raises(history.HistoryError):
            reader.log() if how in ("missing tree", "missing commit") else reader.write_tree(commit, dest)
    with pytest.raises(history.HistoryError, match="cannot be read: .*damaged"):
        history.PureGit(small_history).write_tree(commit, tmp_path / "dulwich") if "blob" in how else \
            history.PureGit(small_history).log()


@needs_git
def test_a_truncated_pack_is_a_history_error(small_history):
    git(small_history, "gc", "-q")
    pack = next((small_history / ".git" / "objects" / "pack").glob("*.pack"))
    pack.chmod(0o644)
    pack.write_bytes(pack.read_bytes()[:300])
    for reader in readers(small_history):
        with pytest.raises(history.HistoryError):
            reader.log()


@needs_git
@pytest.mark.parametrize("name", [b"..", b".git", b".GIT", b"git~1", b".git.", b"."])
def test_a_path_git_refuses_is_not_written_by_either_reader(small_history, tmp_path, name):
    outside = tmp_path / "outside"
    outside.mkdir()
    escaped = raw_object(small_history, "tree", b"100644 escaped.py\0" + bytes.fromhex(
        raw_object(small_history, "blob", b"ESCAPED = 1\n")))
    pkg = git(small_history, "rev-parse", "HEAD:pkg").strip()
    entries = sorted([(b"40000", name, escaped), (b"40000", b"pkg", pkg)], key=lambda e: e[1] + b"/")
    tree = raw_object(small_history, "tree", b"".join(m + b" " + n + b"\0" + bytes.fromhex(s) for m, n, s in entries))
    commit = raw_object(small_history, "commit", f"tree {tree}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000"
                        f"\n\nHostile\n".encode())
    for reader in readers(small_history):
        dest = outside / "in" / reader.name
        dest.mkdir(parents=True)
        with pytest.raises(history.HistoryError, match="invalid path"):
            reader.write_tree(commit, dest)
        assert list(dest.iterdir()) == []  # nothing written, and nothing beside it
    assert sorted(p.name for p in outside.rglob("*")) == ["dulwich", "git", "in"]


def test_refused_paths_follow_gits_rule():
    assert [p for p in ["a/../b", "./a", "a//b", "/abs", ".git/config", "x/.Git/y", "git~1/x", ".git /x",
                        ".git::$INDEX_ALLOCATION/x"] if not history.refused_path(p)] == []
    assert [p for p in ["a.py", ".github/x.yml", ".gitignore", "git/x", "a..b", "...", "a b/.gitmodules"]
            if history.refused_path(p)] == []


@needs_git
def test_executable_files_stay_executable(small_history, tmp_path):
    (small_history / "run.sh").write_text("echo hi\n")
    (small_history / "run.sh").chmod(0o755)
    git(small_history, "add", "-A")
    git(small_history, "commit", "-q", "-m", "A script")
    head = git(small_history, "rev-parse", "HEAD").strip()
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        reader.write_tree(head, dest)
        assert os.access(dest / "run.sh", os.X_OK) and not os.access(dest / "pkg" / "a.py", os.X_OK), reader.name


@needs_git
def test_a_commit_that_is_not_a_hash_is_refused(small_history, tmp_path):
    for reader in readers(small_history):
        with pytest.raises(history.HistoryError, match="not a commit hash"):
            reader.write_tree(f"--output={tmp_path / 'written.tar'}", tmp_path)
    assert list(tmp_path.iterdir()) == [small_history]  # git archive --output wrote here before


@needs_git
@pytest.mark.parametrize("how", ["a ref loop", "a bad config file", "a .git file of garbage", "a .git file to nowhere"])
def test_a_broken_git_directory_is_a_history_error_in_both_readers(small_history, monkeypatch, how):
    dot_git = small_history / ".git"
    if how == "a ref loop":
        (dot_git / "refs" / "heads" / "main").write_text("ref: refs/heads/other\n")
        (dot_git / "refs" / "heads" / "other").write_text("ref: refs/heads/main\n")
    elif how == "a bad config file":
        (dot_git / "config").write_text("[core\n\tbare = maybe\n")
    else:
        shutil.rmtree(dot_git)
        dot_git.write_bytes(b"\xff\xfe garbage" if "garbage" in how else b"gitdir: /nonexistent/place\n")
    with pytest.raises(history.HistoryError):  # was dulwich's SymrefLoop or ValueError, or "no commits yet"
        reader = history.PureGit(small_history)
        reader.has_head() and reader.log()
    with pytest.raises(evaluate.EvalError):  # the git command: a one-line error too
        evaluate.mine_instances(small_history)
    monkeypatch.setattr(history, "can_run_processes", lambda: False)
    with pytest.raises(evaluate.EvalError):
        evaluate.mine_instances(small_history)


def test_without_tar_the_history_is_read_in_pure_python(tmp_path, monkeypatch):
    repo = build_sample_git_repository(tmp_path / "shop")
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "tar" else f"/usr/bin/{name}")
    assert isinstance(history.open_history(repo), history.PureGit)  # was GitCommand: every tree failed on tar


@needs_git
@pytest.mark.parametrize("target", [b"", b"a\0b", b"x" * 5000], ids=["empty", "NUL", "5000 bytes"])
def test_a_symbolic_link_with_an_odd_target_is_written_alike_by_both_readers(small_history, tmp_path, target):
    link = raw_object(small_history, "blob", target)
    pkg = git(small_history, "rev-parse", "HEAD:pkg").strip()
    tree = raw_object(small_history, "tree", b"120000 link.py\0" + bytes.fromhex(link) + b"40000 pkg\0" +
                      bytes.fromhex(pkg))
    commit = raw_object(small_history, "commit", f"tree {tree}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000"
                        f"\n\nAn odd link\n".encode())
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        if target == b"a\0b":  # tar ends the target at the NUL; dulwich raised ValueError
            reader.write_tree(commit, dest)
            assert os.readlink(dest / "link.py") == "a", reader.name
        else:  # no system makes such a link: tar fails, and dulwich left the link out silently
            with pytest.raises(history.HistoryError):
                reader.write_tree(commit, dest)


@needs_git
def test_another_users_repository_says_how_to_trust_it(small_history, monkeypatch):
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")  # git 2.36+: as if another user owned it
    if "dubious" not in subprocess.run(["git", "-C", str(small_history), "status"], capture_output=True,
                                       text=True).stderr:
        pytest.skip("this git does not check who owns a repository")
    with pytest.raises(history.HistoryError, match=r"dubious ownership .* \(to trust it: git config --global "
                                                   r"--add safe.directory .*small\)$"):  # was "not a git repository"
        history.GitCommand(small_history)


def test_a_nul_in_a_commit_message_ends_it_in_both_readers(small_history):
    # git's %B stops at a NUL; dulwich kept the rest, so the two readers gave different queries
    head = git(small_history, "rev-parse", "HEAD").strip()
    tree = git(small_history, "rev-parse", "HEAD^{tree}").strip()
    body = (f"tree {tree}\nparent {head}\nauthor A <a@example.org> 1704200000 +0000\n"
            f"committer A <a@example.org> 1704200000 +0000\n\nFix the parser\0hidden words\n").encode()
    git(small_history, "update-ref", "HEAD", raw_object(small_history, "commit", body))
    for reader in readers(small_history):
        (_, _, message, status), *_ = reader.log()
        assert (message, status) == ("Fix the parser", []), reader.name
        assert reader.recent(1)[0][2] == "Fix the parser", reader.name


# --- a hostile tester's round on eval's readers -----------------------------------------------------------------------

def _commit_of_tree(root: Path, tree: str, message: str = "Hostile tree", encoding: str | None = None) -> str:
    head = git(root, "rev-parse", "HEAD").strip()
    header = f"encoding {encoding}\n" if encoding else ""
    body = (f"tree {tree}\nparent {head}\nauthor A <a@example.org> 1704200000 +0000\n"
            f"committer A <a@example.org> 1704200000 +0000\n{header}\n{message}\n").encode()
    commit = raw_object(root, "commit", body)
    git(root, "update-ref", "HEAD", commit)
    return commit


@needs_git
def test_no_file_is_written_through_a_link_the_tree_holds(small_history, tmp_path):
    # a link "a" to a folder outside, then an entry whose own name is "a/x": dulwich's reader wrote through the link
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x").write_text("original\n")
    link = raw_object(small_history, "blob", str(outside).encode())
    payload = raw_object(small_history, "blob", b"#!/bin/sh\necho pwned\n")
    tree = raw_object(small_history, "tree", b"120000 a\0" + bytes.fromhex(link) + b"100755 a/x\0" + bytes.fromhex(payload))
    commit = _commit_of_tree(small_history, tree)
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        try:
            reader.write_tree(commit, dest)
        except history.HistoryError:
            pass  # dulwich's: "invalid path 'a/x'"; git's tar: "Cannot open: Not a directory"
    assert (outside / "x").read_text() == "original\n" and not os.access(outside / "x", os.X_OK)
    with pytest.raises(history.HistoryError, match="invalid path 'a/x'"):
        history.PureGit(small_history).write_tree(commit, tmp_path / "again")


@needs_git
def test_a_file_entry_that_names_a_tree_is_a_damaged_repository(small_history, tmp_path):
    inner = raw_object(small_history, "tree", b"100644 f.py\0" + bytes.fromhex(raw_object(small_history, "blob", b"x\n")))
    commit = _commit_of_tree(small_history, raw_object(small_history, "tree", b"100644 odd.py\0" + bytes.fromhex(inner)))
    with pytest.raises(history.HistoryError, match="is not a file's contents"):  # was AttributeError
        history.PureGit(small_history).write_tree(commit, tmp_path)


@needs_git
def test_a_fifo_head_and_a_missing_head_commit_are_named(small_history):
    (small_history / ".git" / "refs" / "heads" / "main").write_text("1234567890" * 4 + "\n")
    for reader in readers(small_history):  # git said "the repository has no commits yet"
        with pytest.raises(history.HistoryError):
            reader.has_head() if reader.name == "git" else reader.log()
    with pytest.raises(history.HistoryError, match="HEAD does not name a commit"):
        history.GitCommand(small_history).has_head()
    (small_history / ".git" / "HEAD").unlink()
    os.mkfifo(small_history / ".git" / "HEAD")  # either reader's open waited for ever
    for reader in (history.GitCommand, history.PureGit):
        with pytest.raises(history.HistoryError, match="is not a regular file"):
            reader(small_history)


@needs_git
def test_a_commit_in_an_encoding_without_replace_is_read_as_utf8(small_history):
    _commit_of_tree(small_history, git(small_history, "rev-parse", "HEAD^{tree}").strip(), "Fix the parser", "idna")
    for reader in readers(small_history):  # dulwich refused the whole history (UnicodeError)
        assert reader.log()[0][2] == "Fix the parser", reader.name


@needs_git
def test_info_grafts_are_ignored_by_both_readers(small_history):
    head, older = git(small_history, "rev-list", "HEAD").split()[:2]
    (small_history / ".git" / "info").mkdir(exist_ok=True)
    (small_history / ".git" / "info" / "grafts").write_text(f"{head}\n")  # HEAD without parents, for dulwich only
    logs = [[sha for sha, *_ in reader.log()] for reader in readers(small_history)]
    assert all(log == logs[0] for log in logs) and logs[0][:2] == [head, older]


@needs_git
def test_a_tree_deeper_than_the_cap_is_refused_before_anything_is_written(small_history, tmp_path):
    # 3,000 folders deep: git's tar wrote ~2,050 levels and the temporary folder could not be removed (RecursionError)
    tree = raw_object(small_history, "tree", b"100644 x.py\0" + bytes.fromhex(raw_object(small_history, "blob", b"x\n")))
    for _ in range(history.MAX_TREE_DEPTH + 1):
        tree = raw_object(small_history, "tree", b"40000 d\0" + bytes.fromhex(tree))
    commit = _commit_of_tree(small_history, tree)
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        with pytest.raises(history.HistoryError, match="more than 256 folders deep"):
            reader.write_tree(commit, dest, max_file_bytes=1_000_000)
        assert list(dest.iterdir()) == []


def _tree_bomb(root: Path, fan: int, depth: int) -> str:
    """A commit on top of HEAD adding ``bomb/``: ``fan`` entries a level, ``depth`` levels, every subtree the same
    one, so a few objects hold ``fan ** depth`` paths (a 6 KB pack held 100 million)."""
    tree = raw_object(root, "blob", b"x = 1\n")
    mode, suffix = b"100644", b".py"
    for _ in range(depth):
        tree = raw_object(root, "tree", b"".join(mode + b" " + f"d{i:03d}".encode() + suffix + b"\0" + bytes.fromhex(tree)
                                                 for i in range(fan)))
        mode, suffix = b"40000", b""
    top = git(root, "ls-tree", "HEAD").splitlines()
    entries = sorted([(line.split("\t")[1].encode(), line.split()[0].encode().lstrip(b"0") or b"0", line.split()[2])
                      for line in top] + [(b"bomb", b"40000", tree)])
    return _commit_of_tree(root, raw_object(root, "tree", b"".join(m + b" " + n + b"\0" + bytes.fromhex(h)
                                                                   for n, m, h in entries)), "Add data")


@needs_git
def test_a_tree_bomb_is_refused_by_both_readers_after_a_bounded_listing(small_history, tmp_path, monkeypatch):
    # 20 ** 3 = 8,000 paths from 24 objects; with a cap of 5,000 both readers refuse the log, the last commits and the
    # tree, where they listed every path (dulwich: ~300 MB a million; git log: 24 GB for 100 million)
    commit = _tree_bomb(small_history, 20, 3)
    monkeypatch.setattr(treewrite, "MAX_LISTED_PATHS", 5_000)
    for reader in readers(small_history):
        for read in (reader.log, lambda: reader.recent(3), lambda: reader.write_tree(commit, tmp_path / reader.name)):
            with pytest.raises(history.HistoryError, match="(holds|list) more than 5,000 (changed )?paths"):
                read()
    monkeypatch.setattr(treewrite, "MAX_LISTED_PATHS", 9_000)
    logs = [reader.log() for reader in readers(small_history)]  # under the cap: read whole, alike
    assert all(log == logs[0] for log in logs) and len(logs[0][0][3]) == 8_000


def test_the_listing_cap_is_worded_in_hindi():
    budget = treewrite.PathBudget("/r/.git", history.HistoryError, most=2)
    budget.take(2)
    with pytest.raises(history.HistoryError) as refused:
        budget.take()
    assert str(refused.value) == ("/r/.git: the commits list more than 2 changed paths (refused: a few kilobytes of "
                                  "git objects can hold a tree of millions)")
    assert refused.value.text("hi").startswith("/r/.git: commits में 2 से ज़्यादा")


@pytest.mark.skipif(not hasattr(__import__("resource"), "prlimit"), reason="no prlimit on this system")
def test_a_git_run_is_capped_in_memory(tmp_path):
    from ctxlib import standin

    # a child that waits, then asks for 400 MB under a cap of 200 MB: its allocation fails
    grab = "import time; time.sleep(0.3); x = bytearray(400 << 20); print('took it')"
    ran = standin.run([sys.executable, "-c", grab], dict(os.environ), 1 << 20, 60, max_data=200 << 20)
    assert ran.code != 0 and b"MemoryError" in ran.err and ran.out == b""
    ran = standin.run([sys.executable, "-c", grab], dict(os.environ), 1 << 20, 60, max_data=2 << 30)
    assert ran.code == 0 and ran.out == b"took it\n"
    assert standin.out_of_memory(b"fatal: Out of memory, malloc failed (tried to allocate 123 bytes)\n")
    assert not standin.out_of_memory(b"fatal: bad object HEAD\n")


@needs_git
def test_object_sizes_are_read_from_headers_loose_packed_and_deltified(tmp_path):
    # dulwich inflated a 2 GB blob whole (4.2 GB, 17 s) before the size cap applied: sizes come from headers now
    from dulwich.repo import Repo

    root = tmp_path / "sizes"
    root.mkdir()
    git(root, "init", "-q", "--template=")
    lines = "".join(f"line {i} of a file that changes a little\n" for i in range(3000))
    for n in range(4):
        (root / "a.py").write_text(lines + f"change {n}\n" * (n + 1))
        (root / "zeros.bin").write_bytes(b"\0" * (3 << 20) + bytes(n))
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"Change {n}")
    listed = git(root, "cat-file", "--batch-all-objects", "--batch-check").split()
    expected = {sha.encode(): int(size) for sha, size in zip(listed[0::3], listed[2::3])}
    for repack in ([], ["gc", "-q", "--aggressive"], ["-c", "repack.useDeltaBaseOffset=false", "repack", "-q", "-a", "-d", "-f"]):
        if repack:  # packed, with deltas on an offset, then with deltas on a hash (REF_DELTA)
            git(root, *repack)
        with Repo(str(root)) as repo:
            assert {sha: treewrite.object_size(repo.object_store, sha) for sha in expected} == expected, repack
    assert "chain length" in git(root, "verify-pack", "-v", *map(str, (root / ".git" / "objects" / "pack").glob("*.idx")))


@pytest.fixture
def blobs_read(monkeypatch):
    """The ids of the objects dulwich's disk store is asked for, in order, while the test runs."""
    from dulwich.object_store import DiskObjectStore

    read = []
    get = DiskObjectStore.__getitem__
    monkeypatch.setattr(DiskObjectStore, "__getitem__", lambda store, sha: read.append(sha) or get(store, sha),
                        raising=False)
    return read


@needs_git
def test_a_file_over_the_cap_is_left_out_by_dulwich_without_being_read(small_history, tmp_path, blobs_read):
    (small_history / "big.bin").write_bytes(b"\0" * (3 << 20))
    git(small_history, "add", "-A")
    git(small_history, "commit", "-q", "-m", "Add a large file")
    big = git(small_history, "rev-parse", "HEAD:big.bin").strip().encode()
    for packed in (False, True):
        if packed:
            git(small_history, "gc", "-q")
        dest = tmp_path / f"tree{packed}"
        dest.mkdir()
        history.PureGit(small_history).write_tree(git(small_history, "rev-parse", "HEAD").strip(), dest, 1 << 20)
        assert sorted(p.name for p in dest.rglob("*")) == ["a.py", "b.py", "pkg"] and big not in blobs_read and blobs_read


@needs_git
def test_a_blob_in_an_alternate_store_is_sized_from_its_header_too(small_history, tmp_path, blobs_read):
    # objects/info/alternates is one line: a 1 GB blob kept there was inflated whole (1.09 GB) before the cap
    from dulwich.repo import Repo

    alt = tmp_path / "alt.git"
    git(tmp_path, "init", "-q", "--bare", str(alt))
    (tmp_path / "big.bin").write_bytes(b"\0" * (3 << 20))
    (tmp_path / "z.py").write_bytes(b"z = 3\n")
    big, small = git(tmp_path, "--git-dir", str(alt), "hash-object", "-w", "big.bin", "z.py").split()
    (small_history / ".git" / "objects" / "info" / "alternates").write_text(f"{alt / 'objects'}\n")
    entries = b"100644 big.bin\0" + bytes.fromhex(big) + b"100644 z.py\0" + bytes.fromhex(small)
    commit = _commit_of_tree(small_history, raw_object(small_history, "tree", entries))
    for packed in (False, True):
        if packed:
            git(tmp_path, "--git-dir", str(alt), "repack", "-adq")
        with Repo(str(small_history)) as repo:
            assert treewrite.object_size(repo.object_store, big.encode()) == 3 << 20
            assert treewrite.object_size(repo.object_store, small.encode()) == 6
        dest = tmp_path / f"tree{packed}"
        dest.mkdir()
        history.PureGit(small_history).write_tree(commit, dest, 1 << 20)
        assert [p.name for p in dest.iterdir()] == ["z.py"] and (dest / "z.py").read_text() == "z = 3\n"
        assert big.encode() not in blobs_read


@pytest.mark.skipif(not hasattr(__import__("resource"), "prlimit"), reason="no prlimit on this system")
def test_the_short_git_runs_are_capped_in_memory_and_time():
    from ctxlib import standin

    # rev-parse and the HEAD check ran uncapped: a sparse 3 GB ref took git 3.1 GB
    grab = "import time; time.sleep(0.3); x = bytearray(400 << 20); print('took it')"
    done = standin.run_small([sys.executable, "-c", grab], dict(os.environ), 60)
    assert done.returncode != 0 and b"MemoryError" in done.stderr and standin.SMALL_RUN_BYTES < 400 << 20
    with pytest.raises(subprocess.TimeoutExpired):
        standin.run_small([sys.executable, "-c", "import time; time.sleep(5)"], dict(os.environ), 0.5)
    assert standin.run_small([sys.executable, "-c", "print('ok')"], dict(os.environ), 60).stdout == b"ok\n"


@needs_git
def test_a_tree_whose_files_hold_more_than_a_task_may_write_is_refused(small_history, tmp_path, monkeypatch):
    # 4,096 paths naming one blob of 1 MiB wrote 4 GB from a 6 KB pack
    blob = raw_object(small_history, "blob", b"x" * 4_000)
    tree = raw_object(small_history, "tree", b"".join(f"100644 f{i:02d}.py\0".encode() + bytes.fromhex(blob)
                                                      for i in range(10)))
    commit = _commit_of_tree(small_history, tree)
    monkeypatch.setattr(treewrite, "MAX_WRITTEN_BYTES", 30_000)
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        with pytest.raises(history.HistoryError, match="its files hold 40,000 bytes, more than the 30,000"):
            reader.write_tree(commit, dest, 1 << 20)
        assert not any(dest.iterdir())  # nothing was written
        reader.write_tree(commit, dest, 3_000)  # left out as too large: nothing to write, nothing refused
    monkeypatch.setattr(treewrite, "MAX_WRITTEN_BYTES", 40_000)
    for reader in readers(small_history):
        reader.write_tree(commit, tmp_path / f"{reader.name}-all", 1 << 20) if (tmp_path / f"{reader.name}-all").mkdir() \
            is None else None
        assert len(list((tmp_path / f"{reader.name}-all").iterdir())) == 10


@needs_git
def test_a_tree_with_too_many_files_over_the_size_cap_is_refused_alike(small_history, tmp_path, monkeypatch):
    # 90,000 paths naming one 2 MiB blob: "[Errno 7] Argument list too long: 'git'" (each was an exclusion), and
    # dulwich read the tree: the readers differed. Both now refuse past MAX_LEFT_OUT files or MAX_LEFT_OUT_BYTES.
    blob = raw_object(small_history, "blob", b"x" * 4_000)
    small = raw_object(small_history, "blob", b"y = 1\n")
    tree = raw_object(small_history, "tree", b"".join(f"100644 f{i:02d}.py\0".encode() + bytes.fromhex(blob)
                                                      for i in range(12)) + b"100644 keep.py\0" + bytes.fromhex(small))
    commit = _commit_of_tree(small_history, tree)
    monkeypatch.setattr(treewrite, "MAX_LEFT_OUT", 11)
    for reader in readers(small_history):
        dest = tmp_path / reader.name
        dest.mkdir()
        with pytest.raises(history.HistoryError, match=r"12 files over the size cap, whose paths hold 84 bytes; a task "
                                                       r"leaves out at most 11 files"):
            reader.write_tree(commit, dest, 3_000)
        assert not any(dest.iterdir())
        reader.write_tree(commit, dest, 4_000)  # none over the cap: all written
        assert len(list(dest.iterdir())) == 13
    monkeypatch.setattr(treewrite, "MAX_LEFT_OUT", 12)
    monkeypatch.setattr(treewrite, "MAX_LEFT_OUT_BYTES", 83)
    for reader in readers(small_history):
        with pytest.raises(history.HistoryError, match="whose paths hold 84 bytes"):
            reader.write_tree(commit, tmp_path, 3_000)
    monkeypatch.setattr(treewrite, "MAX_LEFT_OUT_BYTES", 84)
    for reader in readers(small_history):
        dest = tmp_path / f"{reader.name}-kept"
        dest.mkdir()
        reader.write_tree(commit, dest, 3_000)
        assert [p.name for p in dest.iterdir()] == ["keep.py"]


@needs_git
def test_dulwich_stops_a_read_past_its_time_limit(small_history, tmp_path, monkeypatch):
    # two spellings of one tree of 100 M files made one diff walk ~400 s listing nothing: dulwich had no limit
    from dulwich.object_store import DiskObjectStore

    reader = history.PureGit(small_history)
    head = git(small_history, "rev-parse", "HEAD").strip()
    assert len(reader.log()) == 4 and reader.timeout == 600
    clock = [1_000.0]
    monkeypatch.setattr(gitlimits.time, "monotonic", lambda: clock[0])
    looked = []
    real = DiskObjectStore.__getitem__
    monkeypatch.setattr(DiskObjectStore, "__getitem__", lambda store, sha: looked.append(sha) or clock.__setitem__(
        0, clock[0] + 250) or real(store, sha))  # each object read takes 250 s
    with pytest.raises(history.HistoryError, match=r"^reading the history took longer than 600 seconds \(refused"):
        reader.log()
    with pytest.raises(history.HistoryError, match="took longer than 600 seconds"):
        reader.write_tree(head, tmp_path, 1 << 20)
    assert 0 < len(looked) <= 6  # stopped at the third read of each, not at the end of the walk
    reader.timeout = 10_000
    assert len(reader.log()) == 4


@needs_git
def test_a_huge_metadata_file_is_refused_before_dulwich_reads_it(small_history):
    grafts = small_history / ".git" / "info" / "grafts"
    grafts.parent.mkdir(exist_ok=True)
    with open(grafts, "wb") as f:  # sparse: no disk, but dulwich read it whole (3.1 GB for 3 GB)
        f.truncate(history.MAX_META_BYTES + 1)
    with pytest.raises(history.HistoryError, match="info/grafts is larger than 67,108,864 bytes"):
        history.PureGit(small_history).log()


@needs_git
def test_a_huge_commit_message_is_read_up_to_the_cap_alike_by_both_readers(small_history, monkeypatch):
    # a 100 MB message took 3.56 GB and 57 s; both readers keep its first MAX_MESSAGE_BYTES, cut alike
    monkeypatch.setattr(history, "MAX_MESSAGE_BYTES", 1_000)
    _commit_of_tree(small_history, git(small_history, "rev-parse", "HEAD^{tree}").strip(), "Fix the parser é " * 500)
    messages = [reader.log()[0][2] for reader in readers(small_history)]
    assert all(m == messages[0] for m in messages) and messages[0].startswith("Fix the parser é Fix")
    assert len(messages[0].encode("utf-8", "replace")) <= 1_000 + 3
