"""Reading a repository's history: the commits ``ctxlib eval`` turns into tasks, and their trees.

Lesson 3, "Is the ranking any good?", measures the ranking on a repository's own history
(``ctxlib.evaluate``). That needs three things from git, and nothing else:

1. the git directory of a folder (a working copy's ``.git``, or a bare repository);
2. the log: every commit reachable from ``HEAD``, newest first, with its parents, its message
   and, for a commit with one parent, the files it added (``A``), modified (``M``), deleted
   (``D``) or changed the type of (``T``), without rename detection: what
   ``git log --no-renames --name-status`` prints;
3. the tree of any commit, written into a folder as its files.

Two readers give the same answers (``tests/test_history.py`` holds them equal):

- ``GitCommand`` runs the ``git`` command (and ``tar`` to unpack ``git archive``): fast on a
  large history. Used when ``git`` is on ``PATH``.
- ``PureGit`` reads the same files with dulwich, a pure-Python implementation of git: no
  process at all. Used when there is no ``git`` command (a Windows laptop without git) and in
  the browser build, where Python runs in WebAssembly and cannot start processes.

One difference is git's, not ours: ``git archive`` leaves out files that the repository's
``.gitattributes`` marks ``export-ignore``; ``PureGit`` writes every file of the tree.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

GITLINK = 0o160000  # a tree entry that is a submodule's commit, not a file

# One commit of the log: (hash, parent hashes, message, [(status letter, path), ...]).
LogEntry = tuple[str, list[str], str, list[tuple[str, str]]]


class HistoryError(ValueError):
    """Why a folder's history cannot be read: not a git repository, a missing commit, git failing."""


def can_run_processes() -> bool:
    """False where Python cannot start a process: Pyodide (``sys.platform == "emscripten"``) and WASI."""
    return sys.platform not in ("emscripten", "wasi")


def open_history(path) -> GitCommand | PureGit:
    """The reader for the repository at ``path``: ``GitCommand`` if the ``git`` command can run, else ``PureGit``.

    Args:
        path: a working copy (any folder inside it) or a bare repository (str or Path).
    Returns:
        a ``GitCommand`` or a ``PureGit`` with ``git_dir`` set.
    Raises:
        HistoryError: ``path`` is not a folder, or not inside a git repository.
    """
    if can_run_processes() and shutil.which("git"):
        return GitCommand(path)
    return PureGit(path)


def _folder(path) -> Path:
    p = Path(path)
    if not p.is_dir():
        raise HistoryError(f"{path}: no such directory")
    return p


class GitCommand:
    """The history through the ``git`` command (``git log``, ``git archive``)."""

    name = "git"

    def __init__(self, path):
        """Find the git directory of ``path`` (``git rev-parse --absolute-git-dir``); raises ``HistoryError``."""
        p = _folder(path)
        done = subprocess.run(["git", "-C", str(p), "rev-parse", "--absolute-git-dir"], capture_output=True)
        if done.returncode:
            raise HistoryError(f"{path}: not a git repository (ctxlib eval reads a repository's history)")
        self.git_dir = Path(done.stdout.decode().strip())

    def git(self, *args: str) -> bytes:
        """Run ``git --git-dir=GIT_DIR ARGS``; its stdout as bytes. Raises ``HistoryError`` with git's first line."""
        done = subprocess.run(["git", "-c", "core.quotePath=false", f"--git-dir={self.git_dir}", *args],
                              capture_output=True)
        if done.returncode:
            first = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
            raise HistoryError(f"git {args[0]}: {first}")
        return done.stdout

    def has_head(self) -> bool:
        """Whether ``HEAD`` names a commit (False in a repository with no commits yet)."""
        return subprocess.run(["git", f"--git-dir={self.git_dir}", "rev-parse", "--verify", "-q", "HEAD"],
                              capture_output=True).returncode == 0

    def log(self) -> list[LogEntry]:
        """Every commit reachable from ``HEAD``, newest first, as ``LogEntry`` tuples (see the module's rule 2)."""
        # One pass: hash, parents, message, then --name-status lines. Paths with unusual bytes
        # stay quoted by git (a tab, a newline, a quote); core.quotePath=false keeps UTF-8 as is.
        out = self.git("log", "--no-renames", "--name-status",
                       "--format=%x1e%H%x1f%P%x1f%B%x1f").decode("utf-8", "replace")
        commits = []
        for record in out.split("\x1e")[1:]:
            sha, parents, message, changes = (record.split("\x1f") + ["", "", ""])[:4]
            status = [tuple(line.split("\t", 1)) for line in changes.strip().splitlines() if "\t" in line]
            commits.append((sha, parents.split(), message.strip(), status))
        return commits

    def write_tree(self, commit: str, dest: Path) -> None:
        """Write the files of ``commit`` into the folder ``dest``: ``git archive COMMIT | tar -x -C DEST``."""
        data = self.git("archive", "--format=tar", commit)
        done = subprocess.run(["tar", "-x", "-C", str(dest)], input=data, capture_output=True)
        if done.returncode:
            raise HistoryError(f"tar: {done.stderr.decode('utf-8', 'replace').strip()[:200]}")


class PureGit:
    """The history through dulwich, in pure Python: no process is started."""

    name = "dulwich"

    def __init__(self, path):
        """Open the repository that holds ``path`` (as git does, looking in parent folders too); raises ``HistoryError``."""
        from dulwich.errors import NotGitRepository
        from dulwich.repo import Repo

        p = _folder(path)
        try:
            with Repo.discover(str(p)) as repo:
                self.root = repo.path  # the working copy, or the bare repository itself
                self.git_dir = Path(repo.controldir()).resolve()
        except NotGitRepository:
            raise HistoryError(f"{path}: not a git repository (ctxlib eval reads a repository's history)") from None

    def open(self):
        """The dulwich ``Repo``, to use in a ``with`` block: closing it closes its pack files."""
        from dulwich.repo import Repo

        return Repo(self.root)

    def has_head(self) -> bool:
        """Whether ``HEAD`` names a commit (False in a repository with no commits yet)."""
        with self.open() as repo:
            try:
                repo.head()
            except KeyError:
                return False
        return True

    def log(self) -> list[LogEntry]:
        """Every commit reachable from ``HEAD``, newest first (by commit date, as ``git log``), as ``LogEntry`` tuples.

        Like ``git log --name-status``: a merge lists no files, a root commit lists its files as added.
        """
        with self.open() as repo:
            return self._log(repo)

    @staticmethod
    def _log(repo) -> list[LogEntry]:
        from dulwich.diff_tree import tree_changes

        store = repo.object_store
        letter = {"add": "A", "delete": "D", "modify": "M"}
        commits = []
        for entry in repo.get_walker(include=[repo.head()]):
            c = entry.commit
            parents = [p.decode() for p in c.parents]
            status: list = []
            if len(c.parents) <= 1:
                before = store[c.parents[0]].tree if c.parents else None
                for change in tree_changes(store, before, c.tree, change_type_same=True):
                    old, new = change.old, change.new
                    kind = letter.get(change.type, "M")
                    if kind == "M" and stat.S_IFMT(old.mode) != stat.S_IFMT(new.mode):
                        kind = "T"
                    path = (new.path if new is not None and new.path is not None else old.path)
                    status.append((kind, path))
                # git lists them by path, byte by byte: "pkg/a.py" before "pkg/a/b.py" ('.' < '/').
                status = [(kind, path.decode("utf-8", "replace")) for kind, path in sorted(status, key=lambda s: s[1])]
            message = c.message.decode((c.encoding or b"utf-8").decode("ascii", "replace"), "replace")
            commits.append((c.id.decode(), parents, message.strip(), status))
        return commits

    def write_tree(self, commit: str, dest: Path) -> None:
        """Write the files of ``commit`` into the folder ``dest``: regular files with their bytes, symbolic
        links as links (where the file system has them), a submodule as an empty folder. Raises ``HistoryError``."""
        with self.open() as repo:
            self._write_tree(repo, commit, Path(dest))

    def _write_tree(self, repo, commit: str, dest: Path) -> None:
        store = repo.object_store
        try:
            tree = store[repo[commit.encode()].id].tree
        except (KeyError, ValueError, AttributeError):
            raise HistoryError(f"{commit}: no such commit in {self.git_dir}") from None
        for entry in store.iter_tree_contents(tree):
            rel = entry.path.decode("utf-8", "surrogateescape")
            target = dest.joinpath(*rel.split("/"))
            if {"..", ".git", ""} & set(rel.split("/")):
                continue  # git refuses such a path too (and never writes outside the folder)
            if entry.mode == GITLINK:
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            data = store[entry.sha].data
            if stat.S_ISLNK(entry.mode):
                try:
                    os.symlink(data.decode("utf-8", "surrogateescape"), target)
                except OSError:
                    pass  # no symbolic links here: git archive's reader would skip a link anyway
                continue
            target.write_bytes(data)
