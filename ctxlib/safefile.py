"""Reading files someone else made, and writing ours: only regular files, never blocking, never through a link.

Lesson 3, "Reading a real repository", and every hand-in the classroom reads (progress files,
quiz files, ledger lines). The rules that hold for every file ctxlib reads:

- A file is opened once, with ``O_NOFOLLOW`` (a symbolic link is refused, never followed)
  and ``O_NONBLOCK`` (a FIFO cannot make ``ctxlib`` wait), relative to an open descriptor of
  its folder when the caller walks a tree (``dir_fd``). What is checked, the type and the
  size, is the descriptor's (``fstat``), never the name's: a file swapped for a link between
  a check and the read cannot lead outside the folder, because there is no second look.
- Only a regular file is read: a FIFO, a device (``/dev/zero``), a socket is refused.
- At most ``max_bytes`` bytes are read; a larger file is refused, not truncated.
- ``write_atomically`` is the one way ctxlib writes a file (``--csv``, progress, caches): a new
  regular file beside the target, renamed over it only if the target is absent or a regular
  file. A link, a device, a FIFO or a folder at the target is refused with a reason.
- JSON is parsed only when its nesting is at most ``MAX_JSON_DEPTH`` levels, so a file
  nested 1,000 deep is refused with a message instead of a ``RecursionError``.

Every refusal is a ``Refused`` (an ``OSError``, so callers that already handle "cannot be
read" handle it too) whose ``code`` and ``params`` (``reasons.Reason``) give the reason in any catalog language.
Not handled: files that change while they are read (the bytes read are what is used); a
folder higher up swapped for a link while a caller opens a path by name (walkers pass ``dir_fd``).
"""
from __future__ import annotations

import errno
import itertools
import json
import os
import re
import stat
import tempfile

from .i18n import N_
from .reasons import Reason, Skipped  # noqa: F401  (Skipped: what Refused.skipped returns)

MAX_JSON_DEPTH = 64  # progress, quiz and ledger files need 5; 64 is far past any honest file
LINK = N_("a symbolic link")
_KINDS = ((stat.S_ISFIFO, N_("a named pipe (FIFO)")), (stat.S_ISCHR, N_("a character device")),
          (stat.S_ISBLK, N_("a block device")), (stat.S_ISSOCK, N_("a socket")),
          (stat.S_ISDIR, N_("a directory")), (stat.S_ISLNK, LINK))
READ_FLAGS = (os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_CLOEXEC", 0))
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_LINK_ERRNOS = {errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP)}


class Refused(OSError):
    """A file ctxlib will not read: not a regular file, too large, or nested too deep.

    ``code`` (a ``reasons.Reason``) and ``params`` say why; ``str(error)`` and ``reason`` are
    English, ``text(lang)`` gives the same in ``lang``, ``skipped(path)`` the reader's report entry.
    """

    def __init__(self, code: Reason, **params):
        self.code, self.params = code, params
        self.reason = self.skipped("").reason
        super().__init__(self.reason)
        self.strerror = self.reason

    def skipped(self, path: str) -> Skipped:
        """This refusal as the reader reports it for ``path``."""
        return Skipped.of(path, self.code, **self.params)

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang`` (``"en"`` or ``"hi"``)."""
        return self.skipped("").text(lang)


def file_kind(mode: int) -> str | None:
    """What a non-regular file is, from its ``st_mode``: ``"a named pipe (FIFO)"``...; ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), N_("not a regular file"))


def open_nofollow(path, flags: int = READ_FLAGS, dir_fd: int | None = None) -> int:
    """``os.open(path, flags, dir_fd=dir_fd)``, a link at ``path`` being refused, not followed.

    Raises:
        Refused: ``path`` is a symbolic link ("is a symbolic link, not a regular file").
        OSError: the file system said no (missing, permission denied).
    """
    try:
        return os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        # O_NOFOLLOW says ELOOP (EMLINK or EFTYPE on some systems), or ENOTDIR with O_DIRECTORY (Linux): the
        # entry's own type decides.
        linkish = exc.errno in _LINK_ERRNOS or exc.errno == errno.ENOTDIR and flags & getattr(os, "O_DIRECTORY", 0)
        if linkish and is_link(path, dir_fd):
            raise Refused(Reason.NOT_REGULAR, kind=LINK) from None
        raise


def open_folder_below(base, parts) -> int:
    """An open descriptor of the folder ``base``/``parts``: ``base`` opened as named (it may be a link), then
    each of ``parts`` relative to the one before it, never through a link.

    A path checked by name (no link in it) can have a folder swapped for a link before it is read; a reader
    given this descriptor reads what the check saw, or nothing. Raises ``Refused`` (a part is a link) or
    ``OSError`` (missing, not a folder); the caller closes the descriptor.
    """
    fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for part in parts:
            inner = open_nofollow(part, DIR_FLAGS, fd)
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def lexists(path, dir_fd: int) -> bool:
    """Whether ``path`` (relative to the open folder ``dir_fd``) exists, a link or not; nothing is followed."""
    try:
        os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
        return True
    except (OSError, ValueError):
        return False


def is_link(path, dir_fd: int | None = None) -> bool:
    """Whether ``path`` (relative to the open folder ``dir_fd``) is a symbolic link; ``False`` if it is missing."""
    try:
        return stat.S_ISLNK(os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except (OSError, ValueError):
        return False


def list_folder(fd: int, most: int) -> list:
    """The entries (``os.DirEntry``) of the open folder ``fd``, sorted by name; at most ``most`` of them are listed.

    Raises ``Refused`` (``Reason.TOO_MANY_ENTRIES``) when the folder holds more than ``most``: it is not listed
    further, so a folder of ten million names costs ``most`` entries, not ten million. ``OSError`` from
    ``os.scandir`` (an unreadable folder) passes through.
    """
    with os.scandir(fd) as found:
        entries = list(itertools.islice(found, max(most, 0) + 1))
    if len(entries) > most:
        raise Refused(Reason.TOO_MANY_ENTRIES, most=most)
    return sorted(entries, key=lambda entry: entry.name)


MAX_LINK_HOPS = 40  # Linux's MAXSYMLINKS: past 40 links the kernel itself gives up (ELOOP)
MAX_LINK_STEPS = 1024  # names looked at for one link: 40 targets of 800 "d/" through real folders took 0.85 s a link


def resolve_link(path: str, most_hops: int = MAX_LINK_HOPS, most_steps: int = MAX_LINK_STEPS) -> str | None:
    """Where the link at ``path`` (absolute, its folder free of links) leads, as ``os.path.realpath`` says,
    following at most ``most_hops`` links and looking at most ``most_steps`` names in all; ``None`` past that
    (a loop, or a chain the kernel would refuse with ``ELOOP`` too, or one too long to follow cheaply). Only
    links are read (``os.lstat``, ``os.readlink``), never what they point at.

    Iterative, and each component is looked at once: ``realpath`` recurses once per link (a chain of
    1,500 raised ``RecursionError``) and, on Python 3.11, lstat-ed a chain of N links N*N/2 times.
    Raises nothing: a component that cannot be read ends the lookup there, and the rest joins as written.
    """
    folder, name = os.path.split(path)
    todo = [name]  # components still to walk, the next one last
    hops = steps = 0
    while todo:
        part = todo.pop()
        if part in ("", "."):
            continue
        steps += 1
        if steps > most_steps:
            return None
        if part == "..":
            folder = os.path.dirname(folder)
            continue
        here = os.path.join(folder, part)
        try:
            is_link = stat.S_ISLNK(os.lstat(here).st_mode)
            target = os.readlink(here) if is_link else ""
        except (OSError, ValueError):
            is_link = False
        if not is_link:
            folder = here
            continue
        hops += 1
        if hops > most_hops:
            return None
        if target.startswith("/"):
            folder = "/"
        todo.extend(reversed(target.split("/")))
    return folder


def read_fd(fd: int, max_bytes: int) -> bytes:
    """The bytes of the open file ``fd`` if it is a regular file of at most ``max_bytes`` bytes.

    The check is ``fstat(fd)``'s; at most ``max_bytes + 1`` bytes are read, so a file that grows
    while it is read is refused too. Does not close ``fd``. Raises ``Refused`` as ``read_regular_file``.
    """
    info = os.fstat(fd)
    kind = file_kind(info.st_mode)
    if kind is not None:
        raise Refused(Reason.NOT_REGULAR, kind=kind)
    if info.st_size > max_bytes:
        raise Refused(Reason.TOO_BIG, size=info.st_size, cap=max_bytes)
    chunks, left = [], max_bytes + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    if len(data) > max_bytes:  # it grew after fstat
        raise Refused(Reason.TOO_BIG, size=len(data), cap=max_bytes)
    return data


def read_regular_file(path, max_bytes: int, *, dir_fd: int | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes`` bytes.

    Args:
        path: a file name (str, bytes or Path); relative to the folder ``dir_fd`` when given.
            A symbolic link is refused, never followed (``O_NOFOLLOW``).
        max_bytes: the size cap in bytes.
        dir_fd: an open descriptor of the file's folder (``os.open(folder, DIR_FLAGS)``), or ``None``.
    Returns:
        the whole file's bytes.
    Raises:
        Refused: a link, FIFO, device, socket or directory (``"is a named pipe (FIFO), not a regular
            file"``), or a file larger than ``max_bytes``; judged by ``fstat`` of the one descriptor.
        OSError: the file system said no (missing file, permission denied).
    """
    fd = open_nofollow(path, READ_FLAGS, dir_fd)
    try:
        return read_fd(fd, max_bytes)
    finally:
        os.close(fd)


def read_stream(stream, max_bytes: int) -> bytes:
    """At most ``max_bytes`` bytes of a binary stream (standard input); more is refused, not truncated.

    ``read_stream(sys.stdin.buffer, 1 << 20)``: ``ctxlib count < /dev/zero`` stops after 1 MiB
    and one byte with ``Refused("larger than the size cap ...")`` instead of filling the memory.
    """
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise Refused(Reason.TOO_BIG, size=len(data), cap=max_bytes)
    return data


def write_atomically(path, data, *, private: bool = False) -> None:
    """Write ``data`` (str as UTF-8, or bytes) to ``path`` as a new regular file, atomically.

    The bytes go to a temporary file in the same folder (``mkstemp``: a new name, ``O_EXCL``),
    are flushed to disk, and the file is renamed over ``path`` (``os.replace``) only if ``path``
    is absent or a regular file. A crash or a full disk before the rename leaves the previous
    file as it was, and the temporary file is removed. The file gets the usual permissions
    (0666 less the umask), or 0600 when ``private``.

    Raises:
        Refused: ``path`` is a symbolic link, a device, a FIFO, a socket or a folder
            ("is a character device, not a regular file; not replaced"): never replaced.
        OSError: the folder does not exist or cannot be written.
    """
    path = os.fspath(path)
    _check_target(path)
    folder, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        if not private:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        _check_target(path)  # looked at again right before the rename: the shortest window there is
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _check_target(path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    kind = file_kind(mode)
    if kind is not None:
        raise Refused(Reason.NOT_REPLACED, kind=kind)


# A string, its characters and escapes taken whole; one never closed runs to the end of the text, as JSON's
# own scanner reads it (nothing after an unclosed quote is parsed). Tried again at each later quote when it
# did not close, '"' + '\\"' * 8,000 took 1.4 s (each start scanned to the end): a 1 MiB hand-in, hours.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest, ignoring brackets inside strings.

    ``json_depth('{"a": [1, {"b": "]"}]}')`` -> 3. Linear in the text; does not check
    that the text is valid JSON. A string never closed runs to the end of the text (``json.loads``
    reads no bracket after it): ``json_depth('[["]]')`` -> 2.
    """
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


MAX_NUMBER_DIGITS = 100  # a count or a score; Python refuses past 4,300 digits with a bare ValueError


def load_json(text: str, max_depth: int = MAX_JSON_DEPTH, lenient_numbers: bool = False):
    """``json.loads(text)``, refusing text nested deeper than ``max_depth`` levels and numbers
    longer than ``MAX_NUMBER_DIGITS`` digits.

    Args:
        lenient_numbers: read a too-long number as ``None`` instead of refusing the text (to
            salvage the rest of a file).
    Raises:
        Refused: nesting deeper than ``max_depth`` (checked before parsing), or a number with
            more than ``MAX_NUMBER_DIGITS`` digits (``Reason.NUMBER_TOO_LONG``).
        json.JSONDecodeError: not JSON, as ``json.loads`` raises it.
    """
    depth = json_depth(text)
    if depth > max_depth:
        raise Refused(Reason.TOO_DEEP, depth=depth, most=max_depth)

    def number(kind):
        def parse(digits: str):
            if len(digits) > MAX_NUMBER_DIGITS:
                if lenient_numbers:
                    return None
                raise Refused(Reason.NUMBER_TOO_LONG, digits=len(digits), most=MAX_NUMBER_DIGITS)
            return kind(digits)
        return parse

    return json.loads(text, parse_int=number(int), parse_float=number(float))


def json_error_text(exc: json.JSONDecodeError) -> str:
    """``exc`` as ``"Expecting value at line 1 column 44"``. Some of ``json``'s messages already end
    in "at" ("Invalid control character at"); that one is dropped, so it never reads "at at"."""
    return f"{exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}"


MAX_OPEN_FOLDERS = 64  # folder descriptors one walk keeps open; a tree 1,500 deep held 1,500 (ulimit -n: 1,024)


class Folder:
    """An open folder descriptor ``fd`` that ``waiting`` subfolders still need: each ``release`` is one of them
    opened (or given up); the last closes it. ``repo.read_repo``'s walk holds one per folder it is inside,
    made by ``OpenFolders.add``, which may close it meanwhile: ``fd`` then opens it again."""

    __slots__ = ("_fd", "waiting", "parts", "ident", "owner")

    def __init__(self, fd: int, waiting: int, parts: tuple = (), owner: OpenFolders | None = None):
        self._fd, self.waiting, self.parts, self.owner = fd, waiting, parts, owner
        info = os.fstat(fd)
        self.ident = (info.st_dev, info.st_ino)

    @property
    def fd(self) -> int:
        """The open descriptor; a folder closed to keep few open is opened again from the root, part by part, never
        through a link. Raises ``OSError``: a part is missing or a link, or it is no longer the same folder."""
        if self._fd is None:
            self._fd = self.owner.reopen(self)
        if self.owner is not None:
            self.owner.used(self)
        return self._fd

    def release(self) -> None:
        """One subfolder done; close ``fd`` when none is left."""
        self.waiting -= 1
        if self.waiting <= 0:
            if self.owner is not None:
                self.owner.forget(self)
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def park(self) -> None:
        """Close the descriptor for now (``fd`` opens it again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class OpenFolders:
    """The folders one walk below ``root_fd`` holds, at most ``most`` open at once: past that, the one used
    longest ago is closed (``Folder.park``) and opened again when a subfolder of it is reached.

    Reopening walks from the root by name, each part without following a link (``open_nofollow``), and checks
    the device and inode: a folder moved or swapped meanwhile is an ``OSError``, never another folder read.
    """

    def __init__(self, root_fd: int, most: int | None = None):
        self.root_fd, self.open = root_fd, {}  # open: Folder -> None, oldest use first
        self.most = MAX_OPEN_FOLDERS if most is None else most

    def add(self, fd: int, waiting: int, parts: tuple = ()) -> Folder:
        """A ``Folder`` for ``fd`` (the folder ``parts`` below the root; the caller's descriptor, now the Folder's)."""
        folder = Folder(fd, waiting, tuple(parts), self)
        self.used(folder)
        return folder

    def used(self, folder: Folder) -> None:
        self.open.pop(folder, None)
        self.open[folder] = None
        while len(self.open) > self.most:
            oldest = next(iter(self.open))
            del self.open[oldest]
            oldest.park()

    def forget(self, folder: Folder) -> None:
        self.open.pop(folder, None)

    def reopen(self, folder: Folder) -> int:
        fd = os.dup(self.root_fd)
        try:
            for part in folder.parts:
                inner = open_nofollow(part, DIR_FLAGS, fd)
                os.close(fd)
                fd = inner
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) != folder.ident:
                raise OSError(errno.ESTALE, "the folder was moved or replaced while the tree was walked")
        except BaseException:
            os.close(fd)
            raise
        return fd


def lstat_mode(entry: os.DirEntry) -> int:
    """``entry``'s mode bits, of the entry itself and not what a link names; ``0`` if it vanished or cannot be stat'ed."""
    try:
        return entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return 0
