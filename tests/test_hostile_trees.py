"""Hostile trees, a sixth round: what a repository's shape (not a file's text) could make the reader do.

Each test failed before its fix, and none is timed: a limit's reason, or a count of calls, is asserted.
Folders are made relative to an open descriptor of their parent (``dir_fd``): a path thousands of
folders deep cannot be named from the root (``ENAMETOOLONG``) and is removed the same way.
"""
from __future__ import annotations

import os

import pytest

from ctxlib import ignore, repo
from ctxlib.reasons import Reason
from ctxlib.repo import read_repo


def chain(root, depth: int, name: str = "d", gitignores: int = 0, file: bytes = b"vat = 1\n") -> None:
    """``depth`` nested folders ``name`` under ``root``, each holding ``v.py`` (``file``); the first
    ``gitignores`` of them (the root first) also hold a ``.gitignore`` of one line."""
    fd = os.open(root, os.O_RDONLY)
    try:
        for level in range(depth):
            if level < gitignores:
                write_at(fd, ".gitignore", b"*.log\n")
            write_at(fd, "v.py", file)
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)


def write_at(fd: int, name: str, data: bytes) -> None:
    out = os.open(name, os.O_WRONLY | os.O_CREAT, dir_fd=fd)
    try:
        os.write(out, data)
    finally:
        os.close(out)


def remove_tree(fd: int) -> None:
    """Remove everything in the open folder ``fd`` (without recursion: a chain is thousands deep)."""
    stack = [(fd, None)]
    while stack:
        here, _ = stack[-1]
        folders = [e.name for e in os.scandir(here) if e.is_dir(follow_symlinks=False)]
        for e in os.scandir(here):
            if not e.is_dir(follow_symlinks=False):
                os.unlink(e.name, dir_fd=here)
        if folders:
            stack.append((os.open(folders[0], os.O_RDONLY, dir_fd=here), folders[0]))
            continue
        stack.pop()
        if stack:
            os.close(here)
            os.rmdir(_, dir_fd=stack[-1][0])


@pytest.fixture
def tree(tmp_path):
    yield tmp_path
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        remove_tree(fd)
    finally:
        os.close(fd)


def test_a_chain_of_gitignore_files_stops_at_the_limit_and_says_so(tree, monkeypatch):
    """A chain of 2,000 folders each with a .gitignore took 226 s to walk: every name is matched against
    every .gitignore above it, and each match scans the whole path. Found by the hostile review."""
    calls = []
    real = ignore.ScreenedSpec.check_file
    monkeypatch.setattr(ignore.ScreenedSpec, "check_file", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    chain(tree, 200, gitignores=200)
    found = read_repo(tree)
    most = repo.MAX_IGNORE_FILES
    assert len(found.files) == 2 * most  # v.py and .gitignore in each folder read
    [stop] = found.skipped
    assert (stop.code, stop.path) == (Reason.TOO_MANY_IGNORE_FILES, "d/" * most)
    assert stop.text("en") == f"folder not read: more than {most} .gitignore files apply to it"
    assert stop.text("hi") == f"folder नहीं पढ़ा गया: इस पर {most} से ज़्यादा .gitignore files लागू होती हैं"
    assert len(calls) <= 3 * most * most  # was 3 x 200 x 200 / 2: every entry against every .gitignore above it


def test_exclude_counts_as_one_ignore_file(tree):
    chain(tree, 100, gitignores=100)
    found = read_repo(tree, exclude=["*.tmp"])
    assert [(s.code, s.path) for s in found.skipped] == [(Reason.TOO_MANY_IGNORE_FILES, "d/" * (repo.MAX_IGNORE_FILES - 1))]


def test_a_folder_whose_path_is_longer_than_path_max_is_not_read(tree):
    """10,000 nested folders under one .gitignore: each name's match scans its path, so the walk was quadratic
    in the depth (64 .gitignore files over 10,000 levels ran for over 12 minutes before it was stopped)."""
    chain(tree, 2100, gitignores=1)
    found = read_repo(tree)
    most = repo.MAX_PATH_BYTES
    [stop] = found.skipped
    assert stop.code is Reason.PATH_TOO_LONG and len(stop.path) == most + 2  # "d/" * 2048 + "d/"
    assert len(found.files) == 2 + most // 2  # the .gitignore, and v.py at the root and each level whose path fits
    assert stop.text("en") == f"folder not read: its path is longer than {most:,} bytes"
    assert stop.text("hi") == f"folder नहीं पढ़ा गया: इसका path {most:,} bytes से लंबा है"


def reference_tree_totals(rows, tops=("",)):
    """``count --tree``'s totals as written before: every folder above each file, joined part by part."""
    totals = {}
    for name, _, exact, _ in rows:
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth]) + "/"
            if any(folder.startswith(top) for top in tops):
                totals[folder] = totals.get(folder, 0) + exact
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def test_tree_totals_are_the_same_as_joining_every_folder_above_each_file():
    import random

    from ctxlib.cli.count import tree_totals

    rng = random.Random(5)
    for _ in range(2000):
        rows = []
        for i in range(rng.randint(0, 12)):
            parts = [rng.choice(["a", "b", "", "c d", "é"]) for _ in range(rng.randint(0, 5))]
            rows.append((("/" if rng.random() < 0.2 else "") + "/".join(parts + [f"f{i}.py"]), 1, rng.randint(0, 50), 1))
        tops = rng.choice([("",), ("a/",), ("/a/", "b/"), ("/",)])
        assert tree_totals(rows, tops) == reference_tree_totals(rows, tops)


def test_tree_totals_of_a_deep_chain_make_each_folder_once():
    """A chain 2,048 folders deep with a file in each: `count --tree` joined every folder above every file
    (cubic in the depth), 24 s; 4,000 deep ~130 s. The subprocess's timeout is a hang guard only."""
    import subprocess
    import sys

    code = ("from ctxlib.cli.count import tree_totals\n"
            "rows = [('d/' * k + 'v.py', 1, 3, 1) for k in range(4000)]\n"
            "totals = tree_totals(rows)\n"
            "assert totals[0] == ('d/', 3 * 3999) and totals[-1] == ('d/' * 3999, 3) and len(totals) == 3999\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_gitignore_that_cannot_be_read_is_reported_once(tmp_path):
    """Its rules are read first (and it is reported), then it is read as a file (and was reported again)."""
    os.mkfifo(tmp_path / ".gitignore")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("a" * (repo.MAX_FILE_BYTES + 1))
    (tmp_path / "vat.py").write_text("vat = 1\n")
    found = read_repo(tmp_path)
    assert [(s.path, s.code) for s in found.skipped] == [(".gitignore", Reason.NOT_REGULAR), ("sub/.gitignore", Reason.TOO_BIG)]
    assert [f.path for f in found.files] == ["vat.py"]
