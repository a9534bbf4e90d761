"""Writing a commit's tree as files, for the dulwich reader (``history.PureGit.write_tree``).

A hostile tester wrote a file outside the tree with a tree that held a symbolic link ``a`` (to a folder elsewhere) and
an entry whose own name was ``a/x``: written in order, ``a/x`` went through the link. So a path that lies inside
another entry of the tree (a name holding "/") is refused, as git refuses it, and links are made last, when every
file is written. An entry that names a commit or a tree where a file's contents should be is a damaged repository.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .history import GITLINK, HistoryError, _links_unsupported, decode_path, refused_path


def write_entries(store, commit: str, entries: list, dest: Path, max_file_bytes: int | None = None) -> None:
    """Write ``entries`` (dulwich's ``iter_tree_contents`` of ``commit``'s tree, read from ``store``) into ``dest``.

    Raises ``HistoryError``: a path git refuses or one inside another entry (nothing is written), an entry that is
    not a file's contents, a link target no system holds. Files larger than ``max_file_bytes`` are not written.
    """
    paths = {decode_path(entry.path) for entry in entries}
    for entry in entries:
        path = decode_path(entry.path)
        parts = path.split("/")  # a name holding "/" reads as a file inside the entry before it: one or the other
        if refused_path(path) or any("/".join(parts[:i]) in paths for i in range(1, len(parts))):
            raise HistoryError(f"{commit}: invalid path {path!r} (git refuses to write it)")
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
            raise HistoryError(f"{decode_path(entry.path)}: {entry.sha.decode()} is not a file's contents (a damaged "
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
                raise HistoryError(f"{decode_path(entry.path)}: cannot be written as a symbolic link "
                                   f"({exc.strerror or exc})") from None
