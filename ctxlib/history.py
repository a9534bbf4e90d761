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

- ``GitCommand`` runs the ``git`` command (and ``tar`` to unpack ``git archive``): fast on a large
  history. Used when ``git`` is on ``PATH``. It runs on a stand-in git directory (``standin.py``), so
  the repository's config runs nothing (a ``filter.<driver>.smudge`` would run on ``git archive``).
- ``PureGit`` reads the same files with dulwich, a pure-Python implementation of git: no process at all.
  Used where there is no ``git`` command, and in the browser build (WebAssembly starts no process).

Both write every file of the tree with the bytes the commit holds: the stand-in's ``info/attributes``
turns off what a ``.gitattributes`` would make ``git archive`` do (``export-ignore``, ``export-subst``, eol).

What both hold to, whatever the repository (``tests/test_history.py``):

- paths are the tree's bytes, decoded as UTF-8 with undecodable bytes kept as surrogates
  (``os.fsdecode`` on Linux), so a path in the log is the path ``repo.read_repo`` reads back;
  a tab, a newline or a quote in a name stays as it is (``git log -z``, never git's quoting);
- a tree holding a path git refuses to check out (an empty, ``.`` or ``..`` part, ``.git`` in
  any case or NTFS spelling) is not written at all: ``HistoryError``, as ``git archive`` says;
- the git command ignores the caller's ``GIT_DIR`` and the like (``git rev-parse --local-env-vars``),
  the user's config and the repository's;
- a damaged or incomplete repository (a missing or corrupt object, a truncated pack, a shallow
  clone's missing parents) is a ``HistoryError`` naming the problem, never another exception;
- a log listing more than ``MAX_LISTED_PATHS`` changed paths, or a tree of more, is a ``HistoryError``
  (``treewrite.PathBudget``), and so is a read past ``timeout`` seconds: a bomb stops in bounded time and memory.
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import weakref
import zlib
from pathlib import Path

from . import standin
from .treewrite import (GITLINK, MAX_LISTED_PATHS, MAX_MESSAGE_BYTES, MAX_TREE_DEPTH, PathBudget, check_left_out, check_written,  # noqa: F401
                       decode_path, refused_path, too_deep, write_entries)  # (history's names too)
from .gitlimits import MAX_META_BYTES, META_FILES, check_alternates, check_meta, keep_deadline  # noqa: F401
from .i18n import N_, Worded, WordedError, shown

# One commit of the log: (hash, parent hashes, message, [(status letter, path), ...]).
LogEntry = tuple[str, list[str], str, list[tuple[str, str]]]


class HistoryError(WordedError):
    """Why a folder's history cannot be read: not a git repository, a missing commit, git failing (a ``ValueError``;
    the reasons a person meets first, no such folder or not a repository, are worded in every language)."""


def _not_a_repository(path) -> HistoryError:
    return HistoryError(Worded((N_("{path}: not a git repository (ctxlib eval reads a repository's history)"),
                                {"path": str(path)})))




def can_run_processes() -> bool:
    """False where Python cannot start a process: Pyodide (``sys.platform == "emscripten"``) and WASI."""
    return sys.platform not in ("emscripten", "wasi")


def open_history(path) -> GitCommand | PureGit:
    """The reader for the repository at ``path``: ``GitCommand`` if the ``git`` and ``tar`` commands can run,
    else ``PureGit``.

    Args:
        path: a working copy (any folder inside it) or a bare repository (str or Path).
    Returns:
        a ``GitCommand`` or a ``PureGit`` with ``git_dir`` set.
    Raises:
        HistoryError: ``path`` is not a folder, or not inside a git repository.
    """
    if can_run_processes() and shutil.which("git") and shutil.which("tar"):  # GitCommand unpacks with tar
        return GitCommand(path)
    return PureGit(path)


def _folder(path) -> Path:
    """``Path(path)`` if it is a folder; raises ``HistoryError``: no such directory, or not a directory (a file), or
    its ``.git/HEAD`` (a bare repository's ``HEAD``) is not a regular file (a FIFO's read would never end)."""
    p = Path(path)
    if not p.is_dir():
        raise HistoryError(Worded((N_("{path}: not a directory (give the repository's folder)") if p.exists()
                                   else N_("{path}: no such directory"), {"path": str(path)})))
    for head in (p / ".git" / "HEAD", p / "HEAD"):
        if os.path.lexists(head) and not head.is_file():
            raise HistoryError.of(N_("{path}: {file} is not a regular file (a damaged repository)"), path=str(path), file=str(head.relative_to(p)))
    return p


def _first_line(stderr: bytes) -> str:
    """The first line a command wrote to its standard error, as text (``"failed"`` if it wrote none)."""
    return (stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]


def commit_hash(commit: str) -> str:
    """``commit`` if it is a commit hash (4 to 64 hexadecimal digits), so it cannot be taken for an option
    (``--output=...``) or a ref; raises ``HistoryError`` otherwise."""
    if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-fA-F]{4,64}", commit):
        raise HistoryError.of(N_("{commit}: not a commit hash"), commit=shown(commit))
    return commit


def _damaged() -> tuple[type[BaseException], ...]:
    """What dulwich raises on a damaged or incomplete repository: a missing object (``KeyError``), a
    corrupt one, a truncated or altered pack, a ref that is not a hash or loops, an unknown ``encoding``,
    a ``.git`` file or a config file it cannot parse (``ValueError``)."""
    from dulwich import errors, refs

    from dulwich.object_store import MaxTreeDepthExceeded

    return (KeyError, ValueError, LookupError, AssertionError, BufferError, EOFError, struct.error, zlib.error,
            AttributeError, MaxTreeDepthExceeded, errors.ChecksumMismatch, errors.WrongObjectException, errors.MissingCommitError, errors.ObjectMissing,
            errors.FileFormatException, errors.ApplyDeltaError, errors.RefFormatError, refs.SymrefLoop)


def _problem(exc: BaseException) -> str:
    """One line on what a damaged repository's exception means: ``object 1a2b... is missing``."""
    if isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], bytes):
        return f"object {exc.args[0].decode('ascii', 'replace')} is missing"
    name = "zlib.error" if isinstance(exc, zlib.error) else type(exc).__name__
    text = " ".join(str(exc).split())[:200]
    return f"{name}: {text}" if text else name


class GitCommand:
    """The history through the ``git`` command (``git log``, ``git archive``), run on a stand-in git
    directory (``standin.py``): the repository's objects and the commit its ``HEAD`` names, never its
    config, so a hostile ``.git/config`` runs nothing. Each run is capped at ``timeout`` seconds and
    ``max_output`` bytes."""

    name, timeout, max_output = "git", 600, 1 << 30  # the whole log of a large history is a few hundred MB
    max_data = standin.MAX_DATA_BYTES

    def __init__(self, path):
        """Find the git directory of ``path`` (``git rev-parse``) and the commit its ``HEAD`` names; raises ``HistoryError``."""
        p = _folder(path)
        done = self._first_runs(["git", "-C", str(p), "rev-parse", "--absolute-git-dir", "--git-common-dir",
                                 "--show-object-format"], path)
        if done.returncode:  # git's own reason when it is another (a bad config file, dubious ownership)
            said = _first_line(done.stderr)
            if "dubious ownership" in said:  # another user's folder: git's next lines say how to trust it
                said += f" (to trust it: git config --global --add safe.directory {p.resolve()})"
            raise _not_a_repository(path) if "not a git repository" in said else HistoryError(f"{path}: {said}")
        git_dir, common, objectformat = done.stdout.decode("utf-8", "surrogateescape").splitlines()[:3]
        self.git_dir, self.common_dir = Path(git_dir), (p / common).resolve()  # HEAD's commit: rev-parse runs no program
        check_alternates(self.common_dir / "objects", HistoryError)  # git follows them five deep
        at = ["git", "-c", "protocol.allow=never", f"--git-dir={git_dir}"]
        head = self._first_runs([*at, "rev-parse", "--verify", "-q", "HEAD^{commit}"], path)
        self.head = head.stdout.decode("ascii", "replace").strip() if head.returncode == 0 else None
        self.damaged = self.head is None and (  # a HEAD that names something, or no branch: not a new repository
            self._first_runs([*at, "rev-parse", "--verify", "-q", "HEAD"], path).returncode == 0
            or self._first_runs([*at, "symbolic-ref", "-q", "HEAD"], path).returncode != 0)
        self.run_dir = Path(tempfile.mkdtemp(prefix="ctxlib-git-"))  # removed with the reader
        weakref.finalize(self, shutil.rmtree, self.run_dir, True)
        standin.write(self.run_dir, f"{self.head}\n".encode() if self.head else b"ref: refs/heads/unborn\n",
                      "" if objectformat == "sha1" else objectformat)

    def _first_runs(self, command: list[str], path) -> subprocess.CompletedProcess:
        # The runs that find the repository read its config (an [include] of a FIFO would hold them): capped in time
        try:
            return standin.run_small(command, {**standin.caller_environment(), "GIT_NO_LAZY_FETCH": "1"}, 60)
        except subprocess.TimeoutExpired:
            raise HistoryError.of(N_("{path}: git took longer than 60 seconds to find the repository"), path=str(path)) from None

    def environment(self) -> dict[str, str]:
        """A run's environment: the caller's without git's repository variables, with the objects (``standin``)."""
        return standin.environment(standin.caller_environment(), self.common_dir)

    def command(self, *args: str) -> list[str]:
        """The command line ``git --git-dir=STAND_IN ARGS``, with paths unquoted and replacement objects ignored. No
        transport is allowed: a partial clone's missing object is an error, never a fetch (a hostile promisor
        remote's ``uploadpack`` would run as a program)."""
        return ["git", "-c", "core.quotePath=false", "-c", "protocol.allow=never", "--no-replace-objects",
                f"--git-dir={self.run_dir}", *args]

    def git(self, *args: str) -> bytes:
        """Run ``git ARGS`` on the stand-in; its stdout as bytes. Raises ``HistoryError`` with git's first line, or
        when git writes more than ``max_output`` bytes or runs longer than ``timeout`` seconds."""
        ran = standin.run(self.command(*args), self.environment(), self.max_output, self.timeout, self.max_data)
        if ran.code and standin.out_of_memory(ran.err):
            raise HistoryError(Worded((N_("git {command}: needed more than {gib:g} GiB of memory (refused: a hostile or "
                                          "very large history)"), {"command": args[0], "gib": self.max_data / (1 << 30)})))
        if ran.cut == "output":
            raise HistoryError.of(N_("git {command}: the history is larger than {most:,} bytes"), command=args[0], most=self.max_output)
        if ran.cut:
            raise HistoryError.of(N_("git {command}: took longer than {seconds} seconds"), command=args[0], seconds=self.timeout)
        if ran.code:
            raise HistoryError(f"git {args[0]}: {_first_line(ran.err)}")
        return ran.out

    def _left_out(self, commit: str, max_bytes: int | None) -> list[str]:
        """The paths of ``commit``'s files larger than ``max_bytes`` (none for ``None``), from ``git ls-tree -r -l``;
        raises ``HistoryError`` for a path more than ``MAX_TREE_DEPTH`` folders deep (nothing is then written)."""
        listing = self.git("ls-tree", "-r", "-l", "-z", "--full-tree", commit)
        PathBudget(commit, HistoryError, tree=True).take(listing.count(b"\0"))  # as PureGit, before a row is made
        rows = [line.partition(b"\t") for line in listing.split(b"\0")[:-1]]  # "MODE TYPE HASH SIZE\tPATH"
        deep = next((path for _, _, path in rows if too_deep(decode_path(path))), None)
        if deep is not None:  # written, it could not be removed (shutil.rmtree recurses): nothing is written
            raise HistoryError.of(N_("{commit}: a path more than {most} folders deep ({path}...)"), commit=commit, most=MAX_TREE_DEPTH,
                                  path=decode_path(deep)[:80])
        sizes = [(int(f[3]), path) for head, _, path in rows
                 if len(f := head.split()) == 4 and f[1] == b"blob" and f[3].isdigit()]
        check_written(commit, sum(size for size, _ in sizes if max_bytes is None or size <= max_bytes), HistoryError)
        return check_left_out(commit, [decode_path(path) for size, path in sizes if max_bytes is not None and size > max_bytes], HistoryError)

    def has_head(self) -> bool:
        """Whether ``HEAD`` names a commit (False in a repository with no commits yet); ``HistoryError`` if it names
        a missing or damaged one."""
        if getattr(self, "damaged", False):
            raise HistoryError.of(N_("{path}: HEAD does not name a commit (a damaged repository)"), path=str(self.git_dir))
        return self.head is not None

    def log(self) -> list[LogEntry]:
        """Every commit reachable from ``HEAD``, newest first, as ``LogEntry`` tuples (see the module's rule 2)."""
        self.has_head()  # a damaged HEAD says so
        return self._log()

    def recent(self, count: int, start: str = "HEAD") -> list[LogEntry]:
        """The last ``count`` commits of ``start``'s first-parent line, newest first, ``start`` first; a merge
        lists what it changed against its first parent (``git log --first-parent --diff-merges=first-parent``).
        Raises ``HistoryError`` (no such commit, git failing)."""
        start = start if start == "HEAD" else commit_hash(start)
        return self._log("--first-parent", "--diff-merges=first-parent", f"--max-count={int(count)}", start, "--")

    def _log(self, *args: str) -> list[LogEntry]:
        # One pass: "START hash parents\n message END", then the --name-status pairs, each part
        # ended by a NUL (-z: paths as their bytes, never quoted). The markers are random, so no
        # commit message can contain them; the options override the user's own settings.
        token = secrets.token_hex(16)
        start, end = f"S{token}".encode(), f"E{token}".encode()
        out = self.git("log", "--no-renames", "--name-status", "-z", "--root", "--no-color", "--encoding=UTF-8",
                       "--no-show-signature", f"--format=S{token}%H %P%n%BE{token}", *args)
        # as PureGit refuses it, before a path is made: "KIND\0PATH\0" a path, and one NUL a commit
        PathBudget(str(self.git_dir), HistoryError).take(max(0, out.count(b"\0") - out.count(start)) // 2)
        commits = []
        for record in out.split(start)[1:]:
            head, _, changes = record.partition(end)
            ids, _, message = head.partition(b"\n")
            sha, *parents = ids.decode("ascii").split()
            fields = changes.removeprefix(b"\0").removeprefix(b"\n").split(b"\0")[:-1]
            status = [(kind.decode("ascii"), decode_path(path)) for kind, path in zip(fields[::2], fields[1::2])]
            commits.append((sha, parents, message[:MAX_MESSAGE_BYTES].decode("utf-8", "replace").strip(), status))
        return commits

    def write_tree(self, commit: str, dest: Path, max_file_bytes: int | None = None) -> None:
        """Write the files of ``commit`` (a hash) into the folder ``dest``: ``git archive COMMIT | tar -x -C DEST``,
        streamed (memory stays small). Raises ``HistoryError``: not a commit hash, no such commit, a path git refuses,
        tar failing, over ``timeout`` seconds (``dest`` may hold part of the tree). With ``max_file_bytes``, larger
        files (``git ls-tree -l``) are left out of the archive: nothing reads them, so nothing writes them."""
        commit = commit_hash(commit)
        left_out = self._left_out(commit, max_file_bytes)
        paths = ["--", ".", *(f":(exclude,literal){p}" for p in left_out)] if left_out else []
        with tempfile.TemporaryFile() as errors:
            archive = subprocess.Popen(self.command("archive", "--format=tar", commit, *paths), stdout=subprocess.PIPE,
                                       stderr=errors, stdin=subprocess.DEVNULL, env=self.environment())
            standin.cap_memory(archive.pid, self.max_data)
            try:  # -m: the files get today's time, so a commit dated in the future brings no warnings
                done = subprocess.run(["tar", "-x", "-m", "-C", str(dest)], stdin=archive.stdout, capture_output=True,
                                      timeout=self.timeout)
            except subprocess.TimeoutExpired:
                archive.kill()
                raise HistoryError.of(N_("git {command}: took longer than {seconds} seconds"), command="archive", seconds=self.timeout) from None
            finally:  # tar gone or failed: git stops at the closed pipe, and is waited for
                archive.stdout.close()
                failed = archive.wait()
            errors.seek(0)
            said = errors.read()
        if failed and said.strip():
            raise HistoryError(f"git archive: {_first_line(said)}")
        if done.returncode:  # "tar: link.py: Cannot create symlink to ...: File name too long"
            raise HistoryError(_first_line(done.stderr)[:200])
        if failed:
            raise HistoryError.of(N_("git archive: failed (exit status {status})"), status=failed)


class PureGit:
    """The history through dulwich, in pure Python: no process is started."""

    name, timeout = "dulwich", 600  # seconds one read may take (gitlimits.keep_deadline), as git's runs

    def __init__(self, path):
        """Open the repository that holds ``path`` (as git does, looking in parent folders too); raises ``HistoryError``."""
        from dulwich.errors import NotGitRepository
        from dulwich.repo import Repo

        p = _folder(path)
        problem = None
        for folder in (p, *p.resolve().parents):  # where discover will look, before it reads anything there
            if (folder / ".git").is_dir() or (folder / "HEAD").is_file() and (folder / "objects").is_dir():
                check_meta(folder / ".git" if (folder / ".git").is_dir() else folder, HistoryError)
                break
        try:
            with Repo.discover(str(p)) as repo:
                self.root = repo.path  # the working copy, or the bare repository itself
                self.git_dir = Path(repo.controldir()).resolve()
        except NotGitRepository:
            raise _not_a_repository(path) from None
        except _damaged() as exc:  # a .git file that is not "gitdir: ...", a config file with a syntax error
            problem = _problem(exc)
        if problem is None and not self.git_dir.is_dir():  # a .git file pointing nowhere, as git says too
            raise _not_a_repository(path)
        if problem is not None:
            raise HistoryError.of(N_("{path}: cannot be read: {problem}"), path=str(path), problem=problem)

    def open(self):
        """The dulwich ``Repo``, to use in a ``with`` block: closing it closes its pack files."""
        from dulwich.repo import Repo

        check_meta(self.git_dir, HistoryError)
        repo = Repo(self.root)
        repo._graftpoints.clear()  # info/grafts: git (on its stand-in) ignores them, so the readers agree
        try:  # before dulwich reads them: it follows alternates without end
            check_alternates(Path(repo.object_store.path), HistoryError)
        except HistoryError:
            repo.close()
            raise
        keep_deadline(repo.object_store, self.timeout, HistoryError)
        return repo

    def read(self, work):
        """``work(repo)`` on the open dulwich ``Repo``, its result; a damaged repository's exception
        becomes ``HistoryError`` naming the problem (``"... object 1a2b... is missing ..."``)."""
        # The exception is dropped before the repository closes: its frames hold views of a pack
        # file, and closing a pack with views still open fails (BufferError) and hides the problem.
        problem = None
        with self.open() as repo:
            try:
                return work(repo)
            except HistoryError:
                raise
            except _damaged() as exc:
                problem = _problem(exc)
        raise HistoryError.of(N_("{path}: cannot be read: {problem} (a damaged or incomplete repository; 'git fsck' says "
                                 "more)"), path=str(self.git_dir), problem=problem)

    def has_head(self) -> bool:
        """Whether ``HEAD`` names a commit (False in a repository with no commits yet). Raises ``HistoryError``."""
        def head(repo):
            try:
                repo.head()
            except KeyError:
                return False
            return True
        return self.read(head)

    def log(self) -> list[LogEntry]:
        """Every commit reachable from ``HEAD``, newest first (by commit date, as ``git log``), as ``LogEntry`` tuples.

        Like ``git log --name-status``: a merge lists no files, a root commit lists its files as added;
        a shallow clone's oldest commits have no parents, as git shows them. Raises ``HistoryError``.
        """
        return self.read(lambda repo: self._log(repo, PathBudget(str(self.git_dir), HistoryError)))

    def recent(self, count: int, start: str = "HEAD") -> list[LogEntry]:
        """As ``GitCommand.recent``: ``start``'s first-parent line, ``count`` commits, a merge's files against its
        first parent. Raises ``HistoryError``."""
        def walk(repo):
            from dulwich.objects import Commit, Tag, Tree

            sha = repo.head() if start == "HEAD" else commit_hash(start).encode()
            entries, budget = [], PathBudget(str(self.git_dir), HistoryError)
            while sha is not None and len(entries) < int(count):
                c = repo[sha]
                for _ in range(10):  # an annotated tag: the commit it names, as git log peels it
                    c = repo[c.object[1]] if isinstance(c, Tag) else c
                if not isinstance(c, Commit) or not isinstance(repo[c.tree], Tree):
                    raise HistoryError.of(N_("{path}: {sha} is not a commit (a damaged repository)"), path=str(self.git_dir),
                                          sha=sha.decode("ascii", "replace"))
                parents = repo.get_parents(c.id, c)
                entries.append(self._entry(repo, c, parents, parents[:1], budget))
                sha = parents[0] if parents else None
            return entries
        return self.read(walk)

    @staticmethod
    def _log(repo, budget: PathBudget) -> list[LogEntry]:
        commits = []
        for entry in repo.get_walker(include=[repo.head()]):
            c = entry.commit
            parents = repo.get_parents(c.id, c)  # a shallow clone's boundary has none, as in git
            commits.append(PureGit._entry(repo, c, parents, parents if len(parents) <= 1 else None, budget))
        return commits

    @staticmethod
    def _entry(repo, c, parents, against, budget: PathBudget) -> LogEntry:
        # One LogEntry: the files changed against ``against`` (one parent, or none for a root commit);
        # ``None``: a merge, which lists none, as git log does without --diff-merges. Each path is taken from ``budget``.
        from dulwich.diff_tree import tree_changes

        store, status = repo.object_store, []
        letter = {"add": "A", "delete": "D", "modify": "M"}
        if against is not None:
            before = store[against[0]].tree if against else None
            for change in tree_changes(store, before, c.tree, change_type_same=True):
                budget.take()
                old, new = change.old, change.new
                kind = letter.get(change.type, "M")
                if kind == "M" and stat.S_IFMT(old.mode) != stat.S_IFMT(new.mode):
                    kind = "T"
                path = (new.path if new is not None and new.path is not None else old.path)
                status.append((kind, path))
            # git lists them by path, byte by byte: "pkg/a.py" before "pkg/a/b.py" ('.' < '/').
            status = [(kind, decode_path(path)) for kind, path in sorted(status, key=lambda s: s[1])]
        raw = c.message.split(b"\0", 1)[0][:MAX_MESSAGE_BYTES]  # git's %B ends the message at a NUL
        try:  # the commit's encoding header, as git log --encoding=UTF-8 re-encodes it; one Python does not know
            message = raw.decode((c.encoding or b"utf-8").decode("ascii", "replace"), "replace")
        except (LookupError, ValueError):  # (or idna, which takes no "replace"): the bytes as they are, as git shows
            message = raw.decode("utf-8", "replace")
        return c.id.decode(), [p.decode() for p in parents], message.strip(), status

    def write_tree(self, commit: str, dest: Path, max_file_bytes: int | None = None) -> None:
        """Write the files of ``commit`` (a hash) into the folder ``dest``: files with their bytes (executable ones
        executable), then symbolic links as links (where the file system has them; last, so nothing is written
        through one), a submodule as an empty folder. Raises ``HistoryError``: not a commit hash, no such commit,
        a path git refuses (``refused_path``, or a file inside a file: nothing is written), a link target no system
        holds, a damaged repository. With ``max_file_bytes``, larger files are not written (their size is read from the
        object's header: such a file is never inflated, ``treewrite.object_size``)."""
        commit = commit_hash(commit)
        self.read(lambda repo: self._write_tree(repo, commit, Path(dest), max_file_bytes))

    def _write_tree(self, repo, commit: str, dest: Path, max_file_bytes: int | None = None) -> None:
        store = repo.object_store
        try:
            tree = store[repo[commit.encode()].id].tree
        except (KeyError, ValueError, AttributeError):
            raise HistoryError.of(N_("{commit}: no such commit in {path}"), commit=commit, path=str(self.git_dir)) from None
        budget = PathBudget(commit, HistoryError, tree=True)
        entries = [budget.take() or entry for entry in store.iter_tree_contents(tree)]
        write_entries(store, commit, entries, dest, max_file_bytes, HistoryError)
