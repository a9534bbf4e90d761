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
import zlib
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




MAX_MESSAGE_BYTES = 1 << 16  # a commit message is read up to this (a 100 MB message took 3.56 GB and 57 s)
MAX_WRITTEN_BYTES = 1 << 30  # the files of one tree written for a task: what the reader reads of a tree at most
# (repo.MAX_TREE_BYTES); 4,096 paths naming one blob of 1 MiB wrote 4 GB from a 6 KB pack


def check_written(commit: str, total: int, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` when the files of ``commit`` to write hold ``total`` bytes, more than ``MAX_WRITTEN_BYTES``."""
    if total > MAX_WRITTEN_BYTES:
        from .i18n import N_, Worded

        raise error(Worded((N_("{commit}: its files hold {total:,} bytes, more than the {most:,} one task may write "
                               "(refused)"), {"commit": commit, "total": total, "most": MAX_WRITTEN_BYTES})))


MAX_LEFT_OUT = 10_000  # files over the size cap one task may leave out: git matches each exclusion against each
MAX_LEFT_OUT_BYTES = 1 << 20  # path (19,600 took 1.5 s), and 90,000 overflowed the argument list ("Argument list too long")


def check_left_out(commit: str, paths: list[str], error: type[Exception] = ValueError) -> list[str]:
    """``paths`` (the files of ``commit`` over the size cap, not to be written), or raise ``error`` when they are more
    than ``MAX_LEFT_OUT`` files or their paths more than ``MAX_LEFT_OUT_BYTES`` bytes (UTF-8). Both readers refuse
    alike; git is handed each such path as an argument."""
    size = sum(len(path.encode("utf-8", "surrogateescape")) + 1 for path in paths)
    if len(paths) > MAX_LEFT_OUT or size > MAX_LEFT_OUT_BYTES:
        from .i18n import N_, Worded

        raise error(Worded((N_("{commit}: {count:,} files over the size cap, whose paths hold {size:,} bytes; a task "
                               "leaves out at most {most:,} files and {most_bytes:,} bytes of paths (refused)"),
                            {"commit": commit, "count": len(paths), "size": size, "most": MAX_LEFT_OUT,
                             "most_bytes": MAX_LEFT_OUT_BYTES})))
    return paths


MAX_LINK_BYTES = 4096  # a link's target: Linux's PATH_MAX; tar refuses a longer one ("File name too long")


def _varint(data: bytes, at: int, shift: int = 0, value: int = 0) -> tuple[int, int]:
    # git's little-endian base-128 number (a delta's sizes): (value, the offset after it); IndexError if cut short
    while True:
        byte = data[at]
        value, at, shift = value | (byte & 0x7F) << shift, at + 1, shift + 7
        if not byte & 0x80:
            return value, at


MAX_HEADER_INPUT = 1 << 16  # compressed bytes read to find an object's header: empty deflate blocks inflate to nothing


def _inflated_head(f, want: int) -> bytes:
    """The first ``want`` bytes the zlib stream at ``f``'s position inflates to, inflating no more than that (a bomb
    stays small), reading at most ``MAX_HEADER_INPUT`` bytes: a stream that starts with 300 empty blocks inflated
    nothing from its first 1,024 bytes, so its size went unread and dulwich inflated 1 GB."""
    inflate, out, read = zlib.decompressobj(), b"", 0
    while len(out) < want and read < MAX_HEADER_INPUT and not inflate.eof:
        chunk = inflate.unconsumed_tail or f.read(4096)
        if not chunk:
            break
        read += 0 if inflate.unconsumed_tail else len(chunk)
        out += inflate.decompress(chunk, want - len(out))
    return out


def object_size(store, sha: bytes) -> int | None:
    """The size in bytes of the object ``sha`` (hex) of dulwich's ``store``, read from its header, never inflated.

    A loose object's first inflated bytes say ``blob 12345``; a packed object's entry header gives its size, and
    a delta's first inflated bytes give the size of the object it makes (git's pack format). A hostile 2.5 MB
    ``.git`` held a 2 GB blob that dulwich inflated whole (4.2 GB) before the size cap was applied. Returns
    ``None`` when the header cannot be read here (a damaged entry, an object in none of the stores): the caller reads
    the object as before. The store's alternates (``objects/info/alternates``) are asked too (a 1 GB blob in an
    alternate was inflated whole), each folder once. Raises nothing.
    """
    stores, seen = [store], set()
    try:  # one level: gitlimits.check_alternates refuses an alternate that has alternates of its own
        stores += list(store.alternates)
    except (OSError, ValueError, AttributeError):  # an unreadable alternates file: read as before
        pass
    for here in stores:
        if len(stores) > 1:  # each folder once, however an alternates line spells it
            where = os.path.realpath(getattr(here, "path", "")) if getattr(here, "path", None) else id(here)
            if where in seen:
                continue
            seen.add(where)
        size = _size_in(here, sha)
        if size is not None:
            return size
    return None


def _size_in(store, sha: bytes) -> int | None:
    """``object_size`` in ``store`` itself (its packs, then its loose objects), or ``None``."""
    try:
        cached = getattr(store, "_iter_cached_packs", None)  # dulwich's .packs lists the folder again each time
        packs = (cached and list(cached())) or list(getattr(store, "packs", ()))
        last = getattr(store, "_ctxlib_last_pack", None)  # objects read together sit in one pack: ask it first
        for pack in ([last] if any(p is last for p in packs) else []) + [p for p in packs if p is not last]:
            try:
                offset = pack.index.object_offset(sha)
            except KeyError:
                continue
            store._ctxlib_last_pack = pack
            with open(pack.data.path, "rb") as f:
                f.seek(offset)
                head = f.read(64)
                kind, size, at = (head[0] >> 4) & 7, head[0] & 0x0F, 1
                if head[0] & 0x80:
                    size, at = _varint(head, 1, 4, size)
                if kind in (1, 2, 3, 4):  # commit, tree, blob, tag: the size is the object's
                    return size
                if kind == 6:  # a delta on an earlier entry: its distance first
                    while head[at] & 0x80:
                        at += 1
                    at += 1
                elif kind == 7:  # a delta on an object named by its hash
                    at += len(sha) // 2
                else:
                    return None
                f.seek(offset + at)
                delta = _inflated_head(f, 20)  # the base's size, then the result's
            return _varint(delta, _varint(delta, 0)[1])[0]
        loose = Path(store.path) / sha[:2].decode("ascii") / sha[2:].decode("ascii")
        with open(loose, "rb") as f:
            header = _inflated_head(f, 64)
        kind, _, size = header.partition(b"\0")[0].partition(b" ")
        return int(size) if size.isdigit() else None
    except (OSError, IndexError, ValueError, zlib.error, AttributeError, TypeError):
        return None


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
    sizes = {entry.sha: object_size(store, entry.sha) for entry in entries if entry.mode != GITLINK}
    written = [sizes[entry.sha] for entry in entries if entry.mode != GITLINK and not stat.S_ISLNK(entry.mode)]
    check_written(commit, sum(size for size in written if size is not None and  # each path: one blob may be many files
                              (max_file_bytes is None or size <= max_file_bytes)), error)
    check_left_out(commit, [decode_path(entry.path) for entry in entries if max_file_bytes is not None and entry.mode !=
                            GITLINK and not stat.S_ISLNK(entry.mode) and (sizes[entry.sha] or 0) > max_file_bytes], error)
    from dulwich.objects import Blob

    links = []  # made last, so that no file is written through a link the tree holds
    for entry in entries:
        target = dest.joinpath(*decode_path(entry.path).split("/"))
        if entry.mode == GITLINK:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        size = sizes[entry.sha]  # told from its header: a larger file is never inflated
        if stat.S_ISLNK(entry.mode) and size is not None and size > MAX_LINK_BYTES:
            raise error(f"{decode_path(entry.path)}: cannot be written as a symbolic link (File name too long)")
        if not stat.S_ISLNK(entry.mode) and max_file_bytes is not None and size is not None and size > max_file_bytes:
            continue
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
