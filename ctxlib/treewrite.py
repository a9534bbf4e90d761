"""Writing a commit's tree as files, for the dulwich reader (``history.PureGit.write_tree``).

A hostile tester wrote a file outside the tree with a tree that held a symbolic link ``a`` (to a folder elsewhere) and
an entry whose own name was ``a/x``: written in order, ``a/x`` went through the link. So a path that lies inside
another entry of the tree (a name holding "/") is refused, as git refuses it, and links are made last, when every
file is written. An entry that names a commit or a tree where a file's contents should be is a damaged repository.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

GITLINK = 0o160000  # a tree entry that is a submodule's commit, not a file
MAX_TREE_DEPTH = 256  # folders a path may lie in: removing a tree recurses once a level (Python stops near 1,000)
# Paths one reading may list: a log's changed paths, or one tree's files. A hostile 6 KB pack held a tree of 100 million
# paths (one subtree shared 100 times, 4 levels deep): dulwich listed it at ~3 s and ~300 MB a million, so on for 24 GB.
MAX_LISTED_PATHS = 1_000_000


class PathBudget:
    """The paths one reading of ``where`` (a git directory's log, a commit's tree) has left to list, of ``most``
    (``MAX_LISTED_PATHS``).

    ``take(n)`` counts ``n`` more and raises ``error`` (``history.HistoryError``) once the reading has listed more
    than ``most``: a tree bomb stops after a bounded time and memory. ``tree``: the reading is of one tree, else of
    the commits of a log.
    """

    def __init__(self, where: str, error: type[Exception] = ValueError, most: int | None = None, tree: bool = False):
        self.where, self.error, self.tree = where, error, tree
        self.most = MAX_LISTED_PATHS if most is None else most
        self.left = self.most

    def take(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            from .i18n import N_, Worded

            said = (N_("{where}: the tree holds more than {most:,} paths (refused: a few kilobytes of git objects can "
                       "hold a tree of millions)") if self.tree else
                    N_("{where}: the commits list more than {most:,} changed paths (refused: a few kilobytes of git "
                       "objects can hold a tree of millions)"))
            raise self.error(Worded((said, {"where": self.where, "most": self.most})))


def too_deep(path: str) -> bool:
    """Whether ``path`` (POSIX, from a tree) lies in more than ``MAX_TREE_DEPTH`` folders: a hostile tree 3,000 deep
    was written, and its temporary folder could not be removed (``shutil.rmtree`` hit Python's recursion limit)."""
    return path.count("/") > MAX_TREE_DEPTH


def decode_path(raw: bytes) -> str:
    """A path from a tree as ``str``: UTF-8, undecodable bytes kept as surrogates (what ``os.fsdecode``
    gives on Linux), so it names the file ``repo.read_repo`` reads after ``write_tree``."""
    return raw.decode("utf-8", "surrogateescape")


def refused_path(path: str) -> bool:
    """Whether git refuses to check out ``path`` (a POSIX path from a tree), as ``git archive`` does.

    Git's rule (``verify_path``, with ``core.protectNTFS`` on, its default): no part may be empty,
    ``.`` or ``..``, or name the git directory in any case or NTFS spelling (``.git``, ``.GIT``,
    ``.git.``, ``.git ``, ``git~1``, ``.git::$INDEX_ALLOCATION``).
    """
    for part in path.split("/"):
        lowered = part.lower()
        if part in ("", ".", "..") or lowered.rstrip(". ") in (".git", "git~1") or \
                lowered.startswith((".git:", "git~1:")):
            return True
    return False


def _links_unsupported(exc: OSError) -> bool:
    """Whether ``os.symlink``'s error means this system makes no symbolic links (Windows without the
    privilege, a file system without them), not that this link's target is impossible."""
    return getattr(exc, "winerror", None) == 1314 or exc.errno in (errno.EPERM, errno.ENOSYS, errno.EOPNOTSUPP)




def write_entries(store, commit: str, entries: list, dest: Path, max_file_bytes: int | None = None,
                  error: type[Exception] = ValueError) -> None:
    """Write ``entries`` (dulwich's ``iter_tree_contents`` of ``commit``'s tree, read from ``store``) into ``dest``.

    Raises ``error`` (``history.HistoryError`` there): a path git refuses or one inside another entry (nothing is
    written), an entry that is not a file's contents, a link target no system holds. Files larger than
    ``max_file_bytes`` are not written.
    """
    paths = {decode_path(entry.path) for entry in entries}
    for entry in entries:
        path = decode_path(entry.path)
        parts = path.split("/")  # a name holding "/" reads as a file inside the entry before it: one or the other
        if refused_path(path) or any("/".join(parts[:i]) in paths for i in range(1, len(parts))):
            raise error(f"{commit}: invalid path {path!r} (git refuses to write it)")
        if too_deep(path):
            raise error(f"{commit}: a path more than {MAX_TREE_DEPTH} folders deep ({path[:80]}...)")
    from dulwich.objects import Blob

    links = []  # made last, so that no file is written through a link the tree holds
    for entry in entries:
        target = dest.joinpath(*decode_path(entry.path).split("/"))
        if entry.mode == GITLINK:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        blob = store[entry.sha]
        if not isinstance(blob, Blob):
            raise error(f"{decode_path(entry.path)}: {entry.sha.decode()} is not a file's contents (a damaged "
                               "repository)")
        data = blob.data
        if stat.S_ISLNK(entry.mode):
            links.append((entry, target, data))
            continue
        if max_file_bytes is not None and len(data) > max_file_bytes:
            continue
        target.write_bytes(data)
        if entry.mode & 0o111:  # executable in the tree: x wherever r is, as git checkout makes it
            mode = target.stat().st_mode
            target.chmod(mode | (mode & 0o444) >> 2)
    for entry, target, data in links:
        try:  # tar ends a link's target at a NUL byte, as the tar format stores it
            os.symlink(data.split(b"\0", 1)[0].decode("utf-8", "surrogateescape"), target)
        except OSError as exc:
            if not _links_unsupported(exc):  # an empty or overlong target: tar fails too
                raise error(f"{decode_path(entry.path)}: cannot be written as a symbolic link "
                                   f"({exc.strerror or exc})") from None
