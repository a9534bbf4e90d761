"""Reading files someone else made: only regular files, never blocking, with a size cap and a depth cap.

Lesson 3, "Reading a real repository", and every hand-in the classroom reads (progress files,
quiz files, ledger lines). The rules that hold for every file ctxlib reads:

- Only a regular file is read. A FIFO, a device (``/dev/zero``), a socket, or a symbolic link
  to one of them is refused by its ``stat`` before it is opened, so ``ctxlib`` never waits
  on a pipe nor reads an endless device. The file is opened with ``O_NONBLOCK`` and checked
  again with ``fstat``, in case it was swapped between the two looks.
- At most ``max_bytes`` bytes are read; a larger file is refused, not truncated.
- JSON is parsed only when its nesting is at most ``MAX_JSON_DEPTH`` levels, so a file
  nested 1,000 deep is refused with a message instead of a ``RecursionError``.

Every refusal is a ``Refused`` (an ``OSError``, so callers that already handle "cannot be
read" handle it too) whose ``code`` and ``params`` (``reasons.Reason``) give the reason in any catalog language.
Not handled: files that change while they are read (the bytes read are what is used).
"""
from __future__ import annotations

import json
import os
import re
import stat

from .i18n import N_
from .reasons import Reason, Skipped

MAX_JSON_DEPTH = 64  # progress, quiz and ledger files need 5; 64 is far past any honest file
_KINDS = ((stat.S_ISFIFO, N_("a named pipe (FIFO)")), (stat.S_ISCHR, N_("a character device")),
          (stat.S_ISBLK, N_("a block device")), (stat.S_ISSOCK, N_("a socket")),
          (stat.S_ISDIR, N_("a directory")))


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


def read_regular_file(path, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes`` bytes.

    Args:
        path: a file name (str, bytes or Path); a symbolic link is followed, and what it
            points at must be a regular file too.
        max_bytes: the size cap in bytes.
    Returns:
        the whole file's bytes.
    Raises:
        Refused: a FIFO, device, socket or directory (``"is a named pipe (FIFO), not a regular
            file"``), or a file larger than ``max_bytes``.
        OSError: the file system said no (missing file, permission denied).
    """
    kind = file_kind(os.stat(path).st_mode)
    if kind is None:
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
        try:
            info = os.fstat(fd)
            kind = file_kind(info.st_mode)
            if kind is None:
                if info.st_size > max_bytes:
                    raise Refused(Reason.TOO_BIG,
                                  size=info.st_size, cap=max_bytes)
                chunks, left = [], max_bytes + 1
                while left > 0:
                    chunk = os.read(fd, min(left, 1 << 20))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    left -= len(chunk)
                data = b"".join(chunks)
                if len(data) > max_bytes:  # it grew after fstat
                    raise Refused(Reason.TOO_BIG,
                                  size=len(data), cap=max_bytes)
                return data
        finally:
            os.close(fd)
    raise Refused(Reason.NOT_REGULAR, kind=kind)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest, ignoring brackets inside strings.

    ``json_depth('{"a": [1, {"b": "]"}]}')`` -> 3. Linear in the text; does not check
    that the text is valid JSON.
    """
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        if bracket.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def load_json(text: str, max_depth: int = MAX_JSON_DEPTH):
    """``json.loads(text)``, refusing text nested deeper than ``max_depth`` levels.

    Raises:
        Refused: nesting deeper than ``max_depth`` (checked before parsing).
        json.JSONDecodeError: not JSON, as ``json.loads`` raises it.
    """
    depth = json_depth(text)
    if depth > max_depth:
        raise Refused(Reason.TOO_DEEP,
                      depth=depth, most=max_depth)
    return json.loads(text)


def json_error_text(exc: json.JSONDecodeError) -> str:
    """``exc`` as ``"Expecting value at line 1 column 44"``. Some of ``json``'s messages already end
    in "at" ("Invalid control character at"); that one is dropped, so it never reads "at at"."""
    return f"{exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}"
