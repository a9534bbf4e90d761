"""The eighth hostile round: what a tester's round (session 38) left open, one test (or a few) per item.

Each test fails on the code before its fix. None is timed: each asserts the behaviour, or that the
work is bounded (a count of calls, a number of patterns), so the suite never depends on the machine.
"""
import errno
import itertools
import os
import random
import shutil
import subprocess

import pathspec
import pytest

from counting import CountingRegex, count_searches
from ctxlib import ignore, safefile
from ctxlib import repo as repo_module
from ctxlib.reasons import Reason
from ctxlib.repo import read_repo

# --- A chain of links is judged with at most 40 hops, never by realpath's recursion -------------


def _chain(root, n: int, k: int = 0):
    """``d -> .``; ``l{i} -> d/.../d/l{i+1}`` (``k`` times ``d/``); the last link to ``real.py``."""
    root.mkdir(exist_ok=True)
    (root / "real.py").write_text("def hello():\n    return 1\n")
    os.symlink(".", root / "d")
    for i in range(n):
        os.symlink("d/" * k + (f"l{i + 1}" if i + 1 < n else "real.py"), root / f"l{i}")


def test_a_chain_of_1500_links_reads_the_tree_and_names_the_long_links(tmp_path):
    # realpath recursed once per link: RecursionError, and the whole tree was refused as "nested too deeply".
    _chain(tmp_path, 1500)
    found = read_repo(tmp_path)
    assert [f.path for f in found.files] == ["real.py"]
    codes = [s.code for s in found.skipped]
    assert codes.count(Reason.SYMLINK_INSIDE) == 1 + 40  # d, and l1460..l1499: 40 hops or fewer to real.py
    assert codes.count(Reason.SYMLINK_LOOP) == 1460
    assert dict(next(s for s in found.skipped if s.code == Reason.SYMLINK_LOOP).params) == {"most": 40, "steps": 1024}


def test_each_link_of_a_chain_costs_a_bounded_number_of_lookups(tmp_path, monkeypatch):
    # Python 3.11's realpath lstat-ed link i (N-i) * K times: 30 s for 100 links of 2,000 "d/" each.
    _chain(tmp_path, 100, k=2000)
    calls = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **kw: calls.append(p) or real_lstat(p, *a, **kw))
    found = read_repo(tmp_path)
    assert [s.code for s in found.skipped].count(Reason.SYMLINK_LOOP) == 100
    assert len(calls) <= 101 * 41  # a link's own lookup, then at most 40 hops each (each target's first name)


@pytest.mark.parametrize("links, name, expected", [
    ({"a": "a"}, "a", None),  # a link to itself
    ({"a": "b", "b": "a"}, "a", None),  # a loop of two
    ({"a": "/"}, "a", "/"),
    ({"a": "x/../../.."}, "a", "OUT"),  # "..", past the root, by a missing folder
    ({"a": "sub/b", "sub": ".", "b": "real.py"}, "a", "ROOT/real.py"),
    ({"a": "missing/../real.py"}, "a", "ROOT/real.py"),
])
def test_resolve_link_agrees_with_realpath_and_gives_up_on_loops(tmp_path, links, name, expected):
    root = tmp_path / "root"
    root.mkdir()
    (root / "real.py").write_text("x = 1\n")
    for link, target in links.items():
        os.symlink(target, root / link)
    got = safefile.resolve_link(str(root / name))
    if expected is None:
        assert got is None
    else:
        assert got == os.path.realpath(root / name)
        assert got == expected.replace("ROOT", str(root)).replace("OUT", str(tmp_path.parent))


def test_resolve_link_matches_realpath_on_random_link_graphs(tmp_path):
    # 300 random trees of up to 6 links among folders, files, "..", absolute targets and loops.
    rng = random.Random(39)
    names = ["a", "b", "c", "f", "g", "sub"]
    for case in range(300):
        root = tmp_path / str(case)
        (root / "sub").mkdir(parents=True)
        (root / "f").write_text("")
        for link in rng.sample(["a", "b", "c", "sub/x", "sub/y"], rng.randint(1, 5)):
            parts = [rng.choice(names + ["..", ".", "sub/x", "sub/y"]) for _ in range(rng.randint(1, 3))]
            target = "/".join(parts)
            os.symlink(str(root / target) if rng.random() < 0.2 else target, root / link)
        for link in ["a", "b", "c", "sub/x", "sub/y"]:
            if not os.path.islink(root / link):
                continue
            got = safefile.resolve_link(str(root / link))
            try:  # the kernel is the judge: where it leads, or ELOOP
                os.stat(root / link)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    assert got is None, (case, link)
                else:  # it ends at a missing name: both go on by the names as written, realpath past a loop too
                    assert got in (None, os.path.realpath(root / link)), (case, link)
                continue
            assert got == os.path.realpath(root / link, strict=True), (case, link)


# --- A .gitignore of patterns that all match a name's folder tries a few a name ------------------

def _asked_per_name(spec, names) -> float:
    count_searches(spec)
    verdicts = [spec.check_file(name).include for name in names]
    return verdicts, CountingRegex.asked / len(names)


def test_a_pattern_repeated_75000_times_is_kept_once_and_decides_as_before():
    # "d/" and "!d/" alternating, 1 MB: every name in d/ tried all 150,000 (0.57 s a file).
    spec = ignore.compile_patterns(["d/", "!d/"] * 75_000)
    assert [p.regex.pattern for p in spec.patterns] == ["^(?:.+/)?d(?P<ps_d>/)"] * 2
    assert [p.include for p in spec.patterns] == [True, False]
    assert spec.check_file("d/f.py").include is False and spec.check_file("d/f.py").index == 149_999
    assert pathspec.GitIgnoreSpec.from_lines(["d/", "!d/"] * 3).check_file("d/f.py").index == 5  # the same rule


def test_many_different_patterns_matching_a_folder_leave_only_the_decisive_ones_to_try():
    lines = ["d/", "keep.py"] + [f"![d{i}]/" for i in range(20_000)]  # each re-includes the folder d/
    names = [f"d/f{i}.py" for i in range(50)] + ["d/keep.py", "x/keep.py", "e/f.py"]
    spec = ignore.compile_patterns(lines)
    for name in names:  # past SCREEN_AFTER, so the screens are built
        spec.check_file(name)
    theirs = pathspec.GitIgnoreSpec.from_lines(lines, ignore.LinearPattern)
    want = [theirs.check_file(name).include for name in names]
    verdicts, asked = _asked_per_name(spec, names)
    assert verdicts == want == [False] * 50 + [True, True, None]
    assert asked < 200  # one block or two of 64; before, all 20,002 for every name in d/


def test_the_rank_of_a_tree_under_such_a_gitignore_reads_every_file_once(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / ".gitignore").write_text("d/\n" + "".join(f"![d{i}]/\n" for i in range(20_000)))
    for i in range(20):
        (tmp_path / "d" / f"f{i}.py").write_text("vat = 1\n")
    found = read_repo(tmp_path)
    assert sorted(f.path for f in found.files) == sorted([".gitignore"] + [f"d/f{i}.py" for i in range(20)])


# --- A walk lists at most MAX_TREE_ENTRIES files and folders ---------------------------------------

def test_a_walk_past_its_entries_cap_lists_no_further_folder(tmp_path, monkeypatch):
    # 500,000 empty files took pack 13 s and 377 MB, bounded only by the file system's inodes
    for folder in "abc":
        (tmp_path / folder).mkdir()
        for i in range(3):
            (tmp_path / folder / f"f{i}.py").write_text("x = 1\n")
    monkeypatch.setattr(repo_module, "MAX_TREE_ENTRIES", 8)  # the root's 3, a/'s 3: c/ and b/ would pass it
    found = read_repo(tmp_path)
    assert [f.path for f in found.files] == ["a/f0.py", "a/f1.py", "a/f2.py"]
    assert [(s.path, s.code) for s in found.skipped] == [("b/", Reason.TOO_MANY_ENTRIES), ("c/", Reason.TOO_MANY_ENTRIES)]
    assert found.skipped[0].text("en") == "folder not read: the walk passed 8 files and folders, the most a tree may hold"
    monkeypatch.setattr(repo_module, "MAX_TREE_ENTRIES", 12)
    assert len(read_repo(tmp_path).files) == 9 and read_repo(tmp_path).skipped == []


def test_a_folder_of_many_names_is_listed_only_up_to_the_cap(tmp_path, monkeypatch):
    for i in range(50):
        (tmp_path / f"f{i}.py").write_text("")
    taken = []
    real = itertools.islice
    monkeypatch.setattr(itertools, "islice", lambda it, n: taken.append(n) or real(it, n))
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        with pytest.raises(safefile.Refused) as refused:
            safefile.list_folder(fd, 10)
        assert [entry.name for entry in safefile.list_folder(fd, 50)] == sorted(f"f{i}.py" for i in range(50))
    finally:
        os.close(fd)
    assert taken[:1] == [11] and refused.value.code == Reason.TOO_MANY_ENTRIES


# --- MCP --history reads .git through the folder's descriptor, not its name ------------------------

def _git_repo(path, commits: int):
    env = {"PATH": os.environ["PATH"], "HOME": str(path), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "A",
           "GIT_COMMITTER_EMAIL": "a@example.org", "GIT_AUTHOR_DATE": "1704103200 +0000",
           "GIT_COMMITTER_DATE": "1704103200 +0000"}
    path.mkdir(parents=True)
    run = lambda *a: subprocess.run(["git", "-c", "commit.gpgsign=false", *a], cwd=path, env=env, check=True,  # noqa: E731
                                    capture_output=True)
    run("init", "-q")
    for i in range(commits):
        (path / "vat.py").write_text(f"def vat():\n    return {i}\n")
        run("add", "-A")
        run("commit", "-qm", f"Rework vat rounding {i}")


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@needs_git
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="descriptors are not folders here")
@pytest.mark.parametrize("git_runs", [True, False])
def test_a_folder_swapped_for_a_link_after_it_was_opened_gives_its_own_history(tmp_path, monkeypatch, git_runs):
    # The server opened "sub" by descriptor, then read sub/.git by name: a process of the repository that swapped
    # "sub" for a link in between made it rank by another repository's commits (8, not 1).
    from ctxlib import history, mcp_server

    root, outside = tmp_path / "root", tmp_path / "outside"
    _git_repo(root / "sub", 1)
    _git_repo(outside, 8)
    real_open = mcp_server._open_folder

    def open_then_swap(*args):
        fd = real_open(*args)
        os.rename(root / "sub", root / "sub.moved")
        os.symlink(outside, root / "sub")
        return fd

    monkeypatch.setattr(mcp_server, "_open_folder", open_then_swap)
    if not git_runs:  # the browser build's reader (dulwich), through the same descriptor
        monkeypatch.setattr(history, "can_run_processes", lambda: False)
        monkeypatch.setattr("ctxlib.safegit.can_run_processes", lambda: False)
    out = mcp_server.rank_tool(mcp_server.check_roots([root]), "vat rounding", path="sub", history=True)
    assert out["history"] == {"commits": 1}


@needs_git
def test_a_refused_git_folder_read_through_a_descriptor_is_named_by_its_folder(tmp_path):
    from ctxlib import history, safegit

    _git_repo(tmp_path / "repo", 1)
    os.symlink("/etc/hostname", tmp_path / "repo" / ".git" / "description2")
    fd = os.open(tmp_path / "repo", os.O_RDONLY)
    try:
        with pytest.raises(history.HistoryError) as refused:
            safegit.recent_commits(tmp_path / "repo", 5, root_fd=fd)
    finally:
        os.close(fd)
    assert str(refused.value) == (f"{tmp_path / 'repo'}: the history signal does not read this .git: a symbolic link "
                                  "('description2')")


# --- A walk keeps at most MAX_OPEN_FOLDERS folder descriptors open ----------------------------------

def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd to count descriptors")
def test_a_deep_tree_is_read_whole_with_few_descriptors_open(tmp_path, monkeypatch):
    # one descriptor per level: under ulimit -n 1024 the folders past ~1,000 levels were skipped
    monkeypatch.setattr(safefile, "MAX_OPEN_FOLDERS", 8)
    here = tmp_path
    for level in range(60):
        here = here / "a"
        (here / "b").mkdir(parents=True)
        (here / "b" / "x.py").write_text(f"x = {level}\n")
    (here / "deep.py").write_text("vat = 1\n")
    most, real = [0], repo_module.read_file
    before = _open_descriptors()

    def counting(*args, **kwargs):
        most[0] = max(most[0], _open_descriptors() - before)
        return real(*args, **kwargs)

    monkeypatch.setattr(repo_module, "read_file", counting)
    found = read_repo(tmp_path)
    assert len(found.files) == 61 and found.skipped == [] and "a/" * 60 + "deep.py" in [f.path for f in found.files]
    assert 0 < most[0] <= 8 + 2  # the walk's folders, and the root's own descriptor and its copy
    assert _open_descriptors() == before


def test_a_folder_closed_meanwhile_is_reopened_only_if_it_is_the_same_folder(tmp_path):
    (tmp_path / "a" / "x").mkdir(parents=True)
    root_fd = os.open(tmp_path, os.O_RDONLY)
    try:
        held = safefile.OpenFolders(root_fd, most=1)
        first = held.add(os.open(tmp_path / "a" / "x", os.O_RDONLY), 2, ["a", "x"])
        held.add(os.open(tmp_path, os.O_RDONLY), 1)  # the second closes the first
        assert first._fd is None
        assert os.fstat(first.fd).st_ino == os.stat(tmp_path / "a" / "x").st_ino  # opened again, by its parts
        held.add(os.open(tmp_path, os.O_RDONLY), 1)
        os.rename(tmp_path / "a" / "x", tmp_path / "a" / "old")
        (tmp_path / "a" / "x").mkdir()  # another folder at its name
        with pytest.raises(OSError, match="moved or replaced"):
            first.fd
        os.rmdir(tmp_path / "a" / "x")
        os.symlink(tmp_path / "a" / "old", tmp_path / "a" / "x")  # a link to it is not followed either
        with pytest.raises(OSError):
            first.fd
    finally:
        os.close(root_fd)


# --- The second half of the round: what the hostile tester found in the fixes above --------------

def _readers(path):
    from ctxlib import history

    return [history.GitCommand(path), history.PureGit(path)]


@needs_git
@pytest.mark.parametrize("lines, says", [
    ("../objects\n", "names ../objects, the repository's own objects"),  # a loop: dulwich recursed without end
    ("".join(f"/nowhere/{i}\n" for i in range(9)), "names 9 folders, more than 8"),
    ("#" + "x" * 20_000 + "\n", "holds more than 16,384 bytes"),
])
def test_an_alternates_file_both_readers_would_follow_far_is_refused_alike(tmp_path, lines, says):
    # a million lines made one dulwich lookup take 26 s; 14 spellings of the store itself, 14^5 stores to ask
    from ctxlib import history

    _git_repo(tmp_path / "r", 4)
    (tmp_path / "r" / ".git" / "objects" / "info" / "alternates").write_text(lines)
    for make in (history.GitCommand, history.PureGit):
        with pytest.raises(history.HistoryError, match=f"objects/info/alternates {says}"):
            make(tmp_path / "r").log()


@needs_git
def test_an_alternate_with_alternates_of_its_own_is_refused_and_one_plain_alternate_is_read(tmp_path):
    from ctxlib import history

    _git_repo(tmp_path / "r", 4)
    objects = tmp_path / "r" / ".git" / "objects"
    shutil.copytree(objects, tmp_path / "alt")  # every object in the alternate too
    (objects / "info" / "alternates").write_text(f"{tmp_path / 'alt'}\n")
    assert [len(reader.log()) for reader in _readers(tmp_path / "r")] == [4, 4]
    (tmp_path / "alt" / "info" / "alternates").write_text(f"{tmp_path / 'elsewhere'}\n")
    for make in (history.GitCommand, history.PureGit):
        with pytest.raises(history.HistoryError, match="a folder with alternates of its own"):
            make(tmp_path / "r").log()


@needs_git
def test_dulwich_refuses_an_object_larger_than_the_reader_takes_before_parsing_it(tmp_path, monkeypatch):
    # one tree of 8 M entries (19 MB of .git) took dulwich 3.9 GB, then aborted the process with no message
    from ctxlib import gitlimits, history

    _git_repo(tmp_path / "r", 4)
    monkeypatch.setattr(gitlimits, "MAX_OBJECT_BYTES", 60)  # a commit of this history is ~200 bytes
    with pytest.raises(history.HistoryError, match=r"^object [0-9a-f]{40}: \d+ bytes, more than the 60 the history "
                                                   r"reader takes \(refused: a hostile history\)$"):
        history.PureGit(tmp_path / "r").log()


def _padded_loose(objects, data: bytes, blocks: int) -> str:
    import hashlib
    import zlib

    raw = b"blob %d\0" % len(data) + data
    sha = hashlib.sha1(raw).hexdigest()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = b"\x78\xda" + b"\x00\x00\x00\xff\xff" * blocks + deflate.compress(raw) + deflate.flush()
    (objects / sha[:2]).mkdir(exist_ok=True)
    (objects / sha[:2] / sha[2:]).write_bytes(body + zlib.adler32(raw).to_bytes(4, "big"))
    return sha


@needs_git
def test_a_loose_object_padded_with_empty_blocks_is_sized_or_refused_never_inflated(tmp_path):
    # 300 empty deflate blocks first: the first 1,024 bytes inflated to nothing, so dulwich inflated 1 GB
    from dulwich.repo import Repo

    from ctxlib import gitlimits, history, treewrite

    _git_repo(tmp_path / "r", 4)
    objects = tmp_path / "r" / ".git" / "objects"
    padded = _padded_loose(objects, b"x" * 5_000, 300)
    hidden = _padded_loose(objects, b"y" * 5_000, 20_000)  # 100 KB of padding: past MAX_HEADER_INPUT
    assert subprocess.run(["git", "-C", str(tmp_path / "r"), "cat-file", "-s", padded], capture_output=True,
                          text=True).stdout.strip() == "5000"  # git reads it: an honest, if odd, object
    with Repo(str(tmp_path / "r")) as repo:
        assert treewrite.object_size(repo.object_store, padded.encode()) == 5_000
        assert treewrite.object_size(repo.object_store, hidden.encode()) is None
        gitlimits.keep_deadline(repo.object_store, 60, history.HistoryError)
        with pytest.raises(history.HistoryError, match=f"object {hidden}: its size cannot be read from its header"):
            repo.object_store[hidden.encode()]
        assert len(repo.object_store[padded.encode()].data) == 5_000


def test_a_folder_moved_while_it_was_closed_is_skipped_not_the_walk(tmp_path, monkeypatch):
    # _walk asked the moved folder's descriptor again in its error handler: pack ended "ctxlib: a: No such file"
    monkeypatch.setattr(safefile, "MAX_OPEN_FOLDERS", 4)
    here = tmp_path / "a"
    for level in range(12):
        (here / "y").mkdir(parents=True)
        (here / "y" / "f.py").write_text("y = 1\n")
        here = here / "x"
    here.mkdir()
    (here / "deep.py").write_text("deep = 1\n")
    moved = []

    def progress(_):
        if not moved:  # the first file read is the deepest: a second process moves a/ now
            os.rename(tmp_path / "a", tmp_path / "moved")
            moved.append(1)

    found = read_repo(tmp_path, progress=progress)
    read = [f.path for f in found.files if f.path.endswith("y/f.py")]  # those whose folder was still held open
    assert "a/" + "x/" * 12 + "deep.py" in [f.path for f in found.files] and 1 <= len(read) <= 4
    assert {s.code for s in found.skipped} == {Reason.FOLDER_UNREADABLE} and len(read) + len(found.skipped) == 12


def test_a_link_whose_targets_walk_deep_folders_is_given_up_after_1024_names(tmp_path, monkeypatch):
    # 40 targets of 800 "d/" and 800 "../" through real folders: 0.85 s a link, and links are not counted
    deep = tmp_path / ("d/" * 100)
    deep.mkdir(parents=True)
    (tmp_path / "real.py").write_text("x = 1\n")
    for i in range(12):  # each link goes 100 down and 100 up to the next: 200 names a hop
        os.symlink("d/" * 100 + "../" * 100 + (f"c{i + 1}" if i < 11 else "real.py"), tmp_path / f"c{i}")
    calls = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **kw: calls.append(p) or real_lstat(p, *a, **kw))
    assert safefile.resolve_link(str(tmp_path / "c7")) == str(tmp_path / "real.py")  # 5 hops, ~1,000 names
    assert safefile.resolve_link(str(tmp_path / "c0")) is None  # 12 hops, ~2,400 names
    assert len(calls) < 2 * 1_100
    assert safefile.resolve_link(str(tmp_path / "c0"), most_steps=5_000) == str(tmp_path / "real.py")


def test_a_gitignore_past_its_pattern_cap_is_used_up_to_it_and_noted(tmp_path, monkeypatch):
    # 120,000 patterns under long folder names: 0.79 s a file
    monkeypatch.setattr(ignore, "MAX_PATTERNS", 3)
    (tmp_path / ".gitignore").write_text("# build output\n*.o\n\nbuild/\n*.tmp\n*.log\n*.bak\n")
    for name in ("a.o", "b.tmp", "c.log", "d.bak", "e.py"):
        (tmp_path / name).write_text("x\n")
    found = read_repo(tmp_path)
    assert sorted(f.path for f in found.files) == [".gitignore", "c.log", "d.bak", "e.py"]
    assert [(n.path, n.code, dict(n.params)) for n in found.notes] == [
        (".gitignore", Reason.PATTERNS_CUT, {"most": 3, "cut": 2})]
    assert found.notes[0].text("en") == "only its first 3 patterns are used; the 2 after them are left out"
    assert ignore.first_patterns(["a", "#b", "", "c"], 2) == (["a", "#b", "", "c"], 0)


@needs_git
def test_a_refusal_read_through_a_descriptor_by_dulwich_names_the_folder(tmp_path, monkeypatch):
    from ctxlib import history, mcp_server

    _git_repo(tmp_path / "r", 2)
    with open(tmp_path / "r" / ".git" / "packed-refs", "wb") as f:
        f.truncate(history.MAX_META_BYTES + 1)  # sparse
    monkeypatch.setattr(history, "can_run_processes", lambda: False)
    monkeypatch.setattr("ctxlib.safegit.can_run_processes", lambda: False)
    why = mcp_server.rank_tool(mcp_server.check_roots([tmp_path / "r"]), "vat", history=True)["history"]["why"]
    assert why == f"{tmp_path / 'r' / '.git'}: packed-refs is larger than 67,108,864 bytes (refused)."
