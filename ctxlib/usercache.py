"""The user's cache folder: what ctxlib derives from its shipped files, kept across processes.

Parsing the tokenizer's ranks (~0.4 s) or gitleaks' rules (~0.08 s) in every process would be
most of a small command's start-up, so the result is kept once per user, in ``cache_dir()``
(``$CTXLIB_CACHE_DIR``, else ``$XDG_CACHE_HOME/ctxlib``, each if absolute, else ``~/.cache/ctxlib``, ``~`` from
the password database when ``$HOME`` is relative)::

    cached("gitleaks", sha256_of_the_toml, lambda: parse(toml))   # parsed once, then read back

A cache file is ``<the payload's sha256, 64 hex digits><payload>``: a damaged file is not used.
The payload is JSON, or bytes in a caller's own layout (``tokens.ranks_bytes``), never ``marshal``
or ``pickle``: ``marshal.loads`` builds dicts and frozensets from the file, and an integer's hash is
not randomized (every multiple of 2**61 - 1 hashes to 0), so a 0.8 MB file of 40,000 such keys took
9 s to load and the 64 MB a cache could then hold (3 million keys) some 14 hours, in every process. JSON builds
no sets, and its objects' keys are strings, whose hashes Python keys afresh in each process.

Only a regular file is read, once, without following a link, of at most ``MAX_CACHE_BYTES``; JSON
nested too deep or holding an integer of too many digits is refused like a damaged file (rebuilt).
A folder that cannot be written is skipped: every run then builds the data, only slower.
The ``*.marshal`` files ctxlib kept before this module are removed when the new ones are first built
(``remove_legacy_files``).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

# o200k_base's ranks take ~3.2 MB, the rules' codes at most ~3 MB; more is something else. JSON of 8 MiB
# decodes to at most ~220 MB ("[{},{},...": a dict for each 3 bytes).
MAX_CACHE_BYTES = 8 * 1024 * 1024
# The names of ctxlib's own cache files before this module (marshal): the ranks' and gitleaks' rules' per Python
# version ("o200k_base-446a9538cb6c348e-py311.marshal"), and the rules' compiled codes ("regex-<compiledre.TAG>.marshal").
LEGACY_NAMES = re.compile(r"(?:o200k_base|cl100k_base|gitleaks)-[0-9a-f]{16}-py[0-9]+\.marshal"
                          r"|regex-[a-z]+-[0-9][0-9A-Za-z.+]*-[0-9]+-[0-9]+\.marshal")


def cache_dir() -> Path:
    """Where derived data is cached: ``$CTXLIB_CACHE_DIR``, ``$XDG_CACHE_HOME/ctxlib`` or ``~/.cache/ctxlib``.

    A relative ``$XDG_CACHE_HOME`` is ignored, as the XDG Base Directory specification says, and so is a
    relative ``$CTXLIB_CACHE_DIR``: either named a folder inside whatever folder ctxlib ran in, such as the
    repository being packed, whose planted ``.cache/ctxlib/regex-*.json`` then gave the secret rules codes
    that never match.
    """
    if os.path.isabs(os.environ.get("CTXLIB_CACHE_DIR", "")):
        return Path(os.environ["CTXLIB_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(_home(), ".cache")
    return Path(base) / "ctxlib"


def _home() -> str:
    """The user's home folder: ``$HOME`` if absolute, else the password database's (``HOME=.`` made the cache
    ``./.cache/ctxlib``, inside the repository being packed, as a relative ``$XDG_CACHE_HOME`` did)."""
    home = os.path.expanduser("~")
    if not os.path.isabs(home):
        try:
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        except (ImportError, KeyError, AttributeError):  # no pwd (Windows, the browser), no entry for this user
            pass
    return home


def cache_file(name: str, sha256: str) -> Path:
    """The file that caches ``name`` (``"o200k_base"``) built from a source whose hex sha256 is ``sha256``."""
    return cache_dir() / f"{name}-{sha256[:16]}.cache"


def read_payload(path: Path) -> bytes | None:
    """The payload of cache file ``path``, or ``None`` if it is missing, not a regular file, over
    ``MAX_CACHE_BYTES`` or damaged (its sha256 is not the one it starts with). Never raises ``OSError``."""
    from . import safefile

    try:
        blob = safefile.read_regular_file(path, MAX_CACHE_BYTES)
    except (OSError, ValueError):
        return None
    payload = blob[64:]
    return payload if hashlib.sha256(payload).hexdigest().encode("ascii") == blob[:64] else None


def write_payload(path: Path, payload: bytes) -> None:
    """Write ``payload`` as cache file ``path`` (its sha256 first), atomically, never through a link;
    a folder that cannot be written is skipped silently."""
    from . import safefile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        safefile.write_atomically(path, hashlib.sha256(payload).hexdigest().encode("ascii") + payload)
    except OSError:
        pass  # a read-only home, or no regular file there: every run builds the data, only slower


def to_json(data) -> bytes:
    """``data`` (dicts with string keys, lists, strings, numbers, booleans, None) as canonical JSON bytes:
    keys sorted, no spaces, so the same data always gives the same bytes (and the same sha256); ASCII only,
    so a string holding a lone surrogate (``re.compile("\\ud800")`` takes one) is written as ``\\ud800``."""
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode("ascii")


def from_json(payload: bytes):
    """The data of JSON bytes ``payload``; raises ``ValueError`` for bytes that are not JSON, JSON nested
    too deep to decode (Python's ``RecursionError``) or an integer of more than 4,300 digits."""
    try:
        return json.loads(payload)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


def cached(name: str, sha256: str, build, encode=to_json, decode=from_json, expected: str | None = None):
    """``build()``'s result, cached once per user.

    Args:
        name: what is cached, the file's name prefix (``"o200k_base"``).
        sha256: the hex digest of the source it is built from; a new source gives a new file.
        build: makes the data when the cache is missing, stale or damaged.
        encode: data -> payload bytes (default: canonical JSON).
        decode: payload bytes -> data; ``ValueError`` or ``TypeError`` for a payload it refuses
            (default: JSON).
        expected: the hex sha256 the payload of the right data has, when it is known in advance
            (``tokens.RANKS_DIGESTS``): any other payload, even one whose own checksum matches, is
            rebuilt. ``None`` trusts a payload whose own checksum matches.
    Returns:
        the data: decoded from ``cache_file(name, sha256)`` when it passes those checks, else from
        ``build()`` (and then written there, unless the folder cannot be written).
    """
    path = cache_file(name, sha256)
    payload = read_payload(path)
    if payload is not None and (expected is None or hashlib.sha256(payload).hexdigest() == expected):
        try:
            return decode(payload)
        except (ValueError, TypeError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            pass
    data = build()
    write_payload(path, encode(data))
    remove_legacy_files(path.parent)  # built: the first run of this version, or a damaged file; never read from now on
    return data


def remove_legacy_files(folder: Path) -> list[str]:
    """Remove from ``folder`` ctxlib's own cache files of before this module (``LEGACY_NAMES``: ~14 MB of
    ``*.marshal`` on a machine with three Python versions, never read any more); returns the names removed, sorted.

    Only a regular file whose name is exactly an old one is removed; a link of that name is left (``lstat``, and
    ``unlink`` never follows one), and so is anything else in the folder. A file that cannot be removed is left too.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    removed = []
    for name in names:
        try:
            if LEGACY_NAMES.fullmatch(name) and stat.S_ISREG(os.lstat(os.path.join(folder, name)).st_mode):
                os.unlink(os.path.join(folder, name))
                removed.append(name)
        except OSError:
            continue
    return sorted(removed)
