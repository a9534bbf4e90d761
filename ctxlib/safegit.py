"""A possibly hostile repository's recent commits, for the ``history`` signal (``pack --history``, ``recent.py``).

``ctxlib eval`` reads history it was pointed at (``history.py``); ``--history`` reads the repository being
packed, which may be anyone's. A hostile tester showed what git does with such a ``.git`` if asked plainly:
a promisor remote's ``uploadpack`` runs a program when ``git log`` fetches a missing tree; ``commondir``, an
``[include]``, or a link at ``objects``, ``config``, ``packed-refs`` or a ref reads another repository; a FIFO
at ``HEAD`` or a config's ``diff.orderFile`` waits for ever; a 300 MB message or a commit of a million paths
takes gigabytes. So, here:

1. the ``.git`` folder is walked first, without following links: a link, a FIFO, a socket or a device
   anywhere in it, a ``commondir``, ``objects/info/alternates`` or a config that includes another file is
   refused (``check_git_folder``);
2. git runs on a stand-in git directory that holds ``HEAD``, the refs and a config of our own
   (``IsolatedGit``): the repository's config is never read, its objects come through
   ``GIT_OBJECT_DIRECTORY``; stdin is closed, the run capped at ``TIMEOUT_SECONDS`` and its output at
   ``MAX_OUTPUT_BYTES``;
3. where no process can run (the browser build), dulwich reads the same folder, after the same check;
4. a message keeps its first ``MAX_MESSAGE_CHARS`` characters, a commit its first ``recent.MAX_FILES + 1``
   paths (more than ``MAX_FILES`` and the signal passes it over anyway);
5. the MCP server, which opened the folder by descriptor, has ``.git`` read through that descriptor
   (``/proc/PID/fd``), so a folder swapped for a link in between cannot lead the reading elsewhere.
   Not handled: an entry inside ``.git`` swapped for a link after the check (the repository's own process).
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import safefile, standin
from .history import GitCommand, HistoryError, PureGit, _first_line, can_run_processes
from .i18n import N_, Worded

MAX_GIT_ENTRIES = 1_000_000  # files and folders in .git the check walks before it refuses
MAX_CONFIG_BYTES = 1 << 20
MAX_MESSAGE_CHARS = 20_000
MAX_OUTPUT_BYTES = 64 << 20
MAX_DATA_BYTES = 1 << 30  # memory a git run may take (standin.cap_memory); eval's runs may take 4 GiB
TIMEOUT_SECONDS = 60


def recent_commits(root, count: int, root_fd: int | None = None) -> list[tuple[str, list[str]]]:
    """The last ``count`` commits of the working copy at ``root``, for ranking's history signal (``recent.py``).

    Args:
        root: the top folder of a git working copy: its ``.git`` must be a folder there (``check_git_folder``).
        count: how many commits (``recent.HISTORY_COMMITS``).
        root_fd: an open descriptor of ``root`` (the MCP server's, opened without following links). Where the
            system shows descriptors as folders (``/proc/PID/fd``, Linux), ``.git`` is opened through it without
            following a link and read through that descriptor: ``root`` swapped for a link after the server
            checked it cannot lead the reading elsewhere. ``root`` then only names the folder in messages.
    Returns:
        ``[(message, paths it added, modified or retyped), ...]`` along ``HEAD``'s first-parent line, newest
        first (``GitCommand.recent``); ``[]`` for a repository with no commit yet.
    Raises:
        HistoryError: ``root`` is no such top folder, its ``.git`` is refused, or git cannot read its history
            (within ``TIMEOUT_SECONDS`` and ``MAX_OUTPUT_BYTES``).
    """
    from .recent import MAX_FILES

    shown = Path(root, ".git")
    with _git_folder(root, root_fd) as git, _named_by(git, shown):
        check_git_folder(git, shown)
        if can_run_processes() and shutil.which("git"):
            with tempfile.TemporaryDirectory(prefix="ctxlib-git-") as scratch:
                reader = IsolatedGit(git, Path(scratch), shown)
                entries = reader.recent(count) if reader.has_head() else []
        else:
            reader = PureGit(git.parent if git == shown else git)
            reader.timeout = TIMEOUT_SECONDS
            if not os.path.samefile(reader.git_dir, git):  # dulwich looked in a parent folder: not this repository
                raise HistoryError.of(N_("{root}: .git is not a git directory"), root=str(root))
            entries = reader.recent(count) if reader.has_head() else []
    return [(message[:MAX_MESSAGE_CHARS], [path for kind, path in status if kind != "D"][:MAX_FILES + 1])
            for _, _, message, status in entries]


@contextlib.contextmanager
def _named_by(git: Path, shown: Path):
    """A ``HistoryError`` raised inside names ``shown`` (``root/.git``) where it said ``git`` (``/proc/PID/fd/N``)."""
    try:
        yield
    except HistoryError as exc:
        if git == shown or str(git) not in str(exc):
            raise
        said = exc.args[0] if exc.args else str(exc)
        if isinstance(said, Worded):
            said = Worded(*[(*part[:-1], {k: v.replace(str(git), str(shown)) if isinstance(v, str) else v
                                          for k, v in part[-1].items()}) for part in said.parts])
        raise HistoryError(said if isinstance(said, Worded) else str(said).replace(str(git), str(shown))) from None


@contextlib.contextmanager
def _git_folder(root, root_fd: int | None):
    """The path to read ``root``'s ``.git`` by: ``/proc/PID/fd/N`` of ``.git`` opened below ``root_fd`` without
    following a link, where the system has it; else ``root/.git`` by name. ``HistoryError`` if it is no folder."""
    no_folder = HistoryError(Worded((N_("{path}: the history signal reads only a .git folder of the folder itself "
                                        "(not a link, a linked worktree or borrowed objects)"), {"path": str(root)})))
    by_descriptor = Path(f"/proc/{os.getpid()}/fd")
    if root_fd is None or not by_descriptor.is_dir():
        git = Path(root, ".git")
        if not os.path.lexists(git):  # most often a subfolder of a working copy: name its top
            raise _no_git_here(root) from None
        if not (git.is_dir() and not git.is_symlink()):
            raise no_folder
        yield git
        return
    try:
        fd = os.open(".git", safefile.DIR_FLAGS, dir_fd=root_fd)
    except OSError:
        raise no_folder from None
    try:
        yield by_descriptor / str(fd)
    finally:
        os.close(fd)


def working_copy_above(folder) -> Path | None:
    """The nearest folder above ``folder`` (made absolute, not resolved) that holds a ``.git``, or ``None``.

    Only the name ``.git`` is looked at (``os.path.lexists``): nothing of it is read or followed. Used to tell a
    person who named a subfolder which folder to name instead (``pack --history``, ``ctxlib eval``).
    """
    return next((above for above in Path(os.path.abspath(folder)).parents if os.path.lexists(above / ".git")), None)


def _no_git_here(root) -> HistoryError:
    """"src has no .git folder ...": with the nearest folder above that has a ``.git`` (only its name is looked
    at: nothing of it is read), so that a person packing a subfolder learns which folder to name instead."""
    here, top = Path(os.path.abspath(root)), working_copy_above(root)
    if top is None:
        return HistoryError.of(N_("{path} has no .git folder: the history signal reads only a .git folder of the "
                                  "folder itself, the top folder of a git working copy"), path=str(root))
    return HistoryError.of(N_("{path} has no .git folder: the history signal reads only a .git folder of the folder "
                              "itself; {top} looks like its working copy's top folder (pack that, with --include "
                              "\"{under}/**\" to keep to this folder)"), path=str(root), top=str(top),
                           under=here.relative_to(top).as_posix())


def check_git_folder(git: Path, shown: Path | None = None) -> None:
    """Refuse a ``.git`` folder whose reading could leave it, run a program or block.

    Raises:
        HistoryError: a symbolic link anywhere in it, a FIFO, socket or device (an ``open`` that may never
            return), a ``commondir`` or ``objects/info/alternates`` (another repository's files), a config
            file over ``MAX_CONFIG_BYTES`` or one that includes another file, or more than ``MAX_GIT_ENTRIES``
            entries. The message names the entry.
    """
    def refuse(why: str, path) -> None:
        raise HistoryError.of(N_("{folder}: the history signal does not read this .git: {why} ({entry})"),
                              folder=str((shown or git).parent), why=Worded((why, {})),
                              entry=repr(os.fsdecode(os.path.relpath(path, git))))
    for borrowed in ("commondir", os.path.join("objects", "info", "alternates")):
        if os.path.lexists(git / borrowed):
            refuse(N_("another repository's files are read through it"), git / borrowed)
    seen, stack = 0, [str(git)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                seen += 1
                if seen > MAX_GIT_ENTRIES:
                    refuse(N_("too many files"), entry.path)
                if entry.is_symlink():
                    refuse(N_("a symbolic link"), entry.path)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif not entry.is_file(follow_symlinks=False):
                    refuse(N_("not a regular file"), entry.path)
    config = git / "config"
    if config.exists():
        if config.stat().st_size > MAX_CONFIG_BYTES:
            refuse(N_("a config file over 1 MiB"), config)
        if re.search(rb"^\s*\[\s*include", config.read_bytes(), re.IGNORECASE | re.MULTILINE):
            refuse(N_("its config includes other files"), config)


class IsolatedGit(GitCommand):
    """``GitCommand`` on a stand-in git directory (``standin.py``) holding the repository's ``HEAD`` and a
    link to its refs: none of its config (no ``include.path``, no promisor remote to fetch from lazily and
    so run ``uploadpack``, no ``diff.orderFile`` or ``mailmap.file`` naming a file elsewhere). Nothing of
    the repository is read before ``check_git_folder`` has passed it; runs are capped tighter than eval's."""

    timeout, max_output, max_data = TIMEOUT_SECONDS, MAX_OUTPUT_BYTES, MAX_DATA_BYTES

    def __init__(self, git: Path, scratch: Path, shown: Path | None = None):
        # check_git_folder has refused links, so the links made here lead only into ``git`` (``shown``: its name).
        # Absolute: a relative ``git`` (``ctxlib pack . --history``) would make them lead from the stand-in's folder.
        git = git.absolute()
        self.git_dir = self.common_dir = git
        self.source = shown or git
        head = git / "HEAD"
        if not head.is_file() or head.stat().st_size > 4096:
            raise HistoryError.of(N_("{path}: .git has no HEAD file (not a git working copy)"), path=str(self.source.parent))
        fmt = standin.run_small(["git", "config", "--file", str(git / "config"), "--no-includes", "--get",
                                 "extensions.objectformat"], {**standin.caller_environment(), **standin.ENV},
                                TIMEOUT_SECONDS) if (git / "config").is_file() else None
        standin.write(scratch, head.read_bytes(), fmt.stdout.decode("ascii", "replace").strip()
                      if fmt and fmt.returncode == 0 else "")
        (scratch / "refs").rmdir()
        (scratch / "refs").symlink_to(git / "refs") if (git / "refs").is_dir() else (scratch / "refs").mkdir()
        if (git / "packed-refs").is_file():
            (scratch / "packed-refs").symlink_to(git / "packed-refs")
        self.run_dir = scratch

    def has_head(self) -> bool:
        """True if ``HEAD`` names a commit; False on an unborn branch; ``HistoryError`` if it names anything else."""
        def ok(*args) -> bool:
            try:
                return standin.run_small(self.command(*args), self.environment(), TIMEOUT_SECONDS).returncode == 0
            except subprocess.TimeoutExpired:
                raise HistoryError.of(N_("git {command}: took longer than {seconds} seconds"), command=args[0],
                                      seconds=TIMEOUT_SECONDS) from None
        if ok("rev-parse", "--verify", "-q", "HEAD^{commit}"):
            return True
        if ok("symbolic-ref", "-q", "HEAD") and not ok("rev-parse", "--verify", "-q", "HEAD"):
            return False  # a new repository: HEAD names a branch with no commit yet
        raise HistoryError.of(N_("{path}: HEAD does not name a commit (a damaged repository)"), path=str(self.source.parent))
