"""The limits both history readers hold a repository's git directory to, before and while they read it.

``ctxlib eval`` and ``--history`` read a ``.git`` someone else made (``history.py``, ``safegit.py``). dulwich, the reader
that starts no process, has none of git's own limits, and both readers follow what ``objects/info/alternates`` names.
Hostile testers showed what a few kilobytes can do there, so:

- ``check_meta``: a file dulwich reads whole (``HEAD``, ``packed-refs``, ``shallow``, grafts, alternates,
  ``commondir``) over ``MAX_META_BYTES`` is refused before it is read (a sparse 3 GB ``info/grafts`` took 3.1 GB);
- ``check_alternates``: ``objects/info/alternates`` may name at most ``MAX_ALTERNATES`` folders, none of them the
  repository's own objects and none with alternates of its own (a million lines made one dulwich lookup take 26 s;
  fourteen spellings of the folder itself made 14^5 stores to ask; a loop ended in ``RecursionError``);
- ``keep_deadline``: every object dulwich's store hands out first checks the clock (``seconds`` in all) and the
  object's size from its header: an object over ``MAX_OBJECT_BYTES`` is refused before it is parsed (one tree of
  8 million entries, 19 MB of ``.git``, took dulwich 3.9 GB and then aborted the process).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from .i18n import N_, Worded

META_FILES, MAX_META_BYTES = ("HEAD", "packed-refs", "shallow", "info/grafts", "objects/info/alternates", "commondir"), 64 << 20
MAX_ALTERNATES = 8  # folders objects/info/alternates may name: a reference clone names one
MAX_ALTERNATES_BYTES = 1 << 14
# A tree of 32 MiB holds ~1.1 M entries (28 bytes each at least): past the path budget (treewrite.MAX_LISTED_PATHS).
# Blobs are read only up to repo.MAX_FILE_BYTES and commits up to treewrite.MAX_MESSAGE_BYTES, so no honest object is larger.
MAX_OBJECT_BYTES = 32 << 20


def check_meta(git_dir: Path, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` naming the first of ``META_FILES`` in ``git_dir`` larger than ``MAX_META_BYTES``: dulwich reads
    each of them whole."""
    big = next((name for name in META_FILES if (git_dir / name).is_file() and (git_dir / name).stat().st_size > MAX_META_BYTES), None)
    if big:
        raise error(f"{git_dir}: {big} is larger than {MAX_META_BYTES:,} bytes (refused)")


def check_alternates(objects: Path, error: type[Exception] = ValueError) -> None:
    """Raise ``error`` when ``objects/info/alternates`` (``objects``: a repository's objects folder) holds more than
    ``MAX_ALTERNATES_BYTES`` bytes or names more than ``MAX_ALTERNATES`` folders, or names the repository's own
    objects folder, or one that has alternates of its own. git follows alternates five deep and dulwich without end;
    both readers then read the same, bounded set. Lines are read as git reads them: relative to ``objects``, ``#``
    starts a comment."""
    listed = Path(objects, "info", "alternates")
    if not listed.is_file():
        return
    if listed.stat().st_size > MAX_ALTERNATES_BYTES:
        raise error(Worded((N_("{path}: objects/info/alternates holds more than {most:,} bytes (refused)"),
                            {"path": str(objects), "most": MAX_ALTERNATES_BYTES})))
    lines = [line.strip() for line in listed.read_bytes().splitlines() if line.strip() and not line.startswith(b"#")]
    if len(lines) > MAX_ALTERNATES:
        raise error(Worded((N_("{path}: objects/info/alternates names {count:,} folders, more than {most} (refused)"),
                            {"path": str(objects), "count": len(lines), "most": MAX_ALTERNATES})))
    own = os.path.realpath(objects)
    for line in lines:
        folder = os.path.realpath(os.path.join(objects, os.fsdecode(line)))
        if folder == own or os.path.lexists(os.path.join(folder, "info", "alternates")):
            raise error(Worded((N_("{path}: objects/info/alternates names {folder}, the repository's own objects or "
                                   "a folder with alternates of its own (refused)"),
                                {"path": str(objects), "folder": os.fsdecode(line)[:200]})))


_TIMED_STORES: dict = {}  # a store's class -> its subclass that keeps a deadline


def keep_deadline(store, seconds: float, error: type[Exception] = ValueError) -> None:
    """Make every object ``store`` (dulwich's) hands out, its own lookups included, first check that ``seconds`` have
    not passed since now, and that the object's header tells its size (``treewrite.object_size``), at most
    ``MAX_OBJECT_BYTES``; otherwise ``error`` is raised, naming the limit. dulwich has no time limit of its
    own: two spellings of one tree of 100 M files (every subtree differs, no file does) made one diff walk for ~400 s
    listing nothing, and a chain of deltas read against the cache took 23 minutes a tree (git's runs stop at
    ``timeout``)."""
    kind = getattr(type(store), "_untimed", type(store))
    if kind not in _TIMED_STORES:
        def timed_getitem(self, sha):
            end, limit, problem = self._deadline
            if time.monotonic() > end:
                raise problem(Worded((N_("reading the history took longer than {seconds:g} seconds (refused: a hostile "
                                         "or very large history)"), {"seconds": limit})))
            _check_object(self, sha, problem)
            return kind.__getitem__(self, sha)
        _TIMED_STORES[kind] = type("Timed" + kind.__name__, (kind,), {"__getitem__": timed_getitem, "_untimed": kind})
    store.__class__ = _TIMED_STORES[kind]
    store._deadline = (time.monotonic() + seconds, seconds, error)


def _check_object(store, sha, error) -> None:
    from .treewrite import object_size

    key = sha if isinstance(sha, bytes) and len(sha) == 40 else None  # a hex name; dulwich also takes 20 raw bytes
    size = object_size(store, key) if key is not None else None
    if size is None and key is not None and type(store)._untimed.__contains__(store, key):
        raise error(Worded((N_("object {sha}: its size cannot be read from its header (refused: a damaged or hostile "
                               "repository)"), {"sha": key.decode("ascii", "replace")})))
    if size is not None and size > MAX_OBJECT_BYTES:  # the readers take blobs up to repo.MAX_FILE_BYTES only
        raise error(Worded((N_("object {sha}: {size:,} bytes, more than the {most:,} the history reader takes "
                               "(refused: a hostile history)"),
                            {"sha": key.decode("ascii", "replace"), "size": size, "most": MAX_OBJECT_BYTES})))
