"""The secret rules' compiled expressions, kept across processes, as Python keeps compiled modules.

Compiling is most of a small pack's scan: the ~60 rule expressions a sample project's files
wake take ~0.05 s to compile in every process, and ~0.005 s to scan with. ``re`` compiles in two
steps, both in Python: parse the pattern, then turn it into a list of integer codes that C runs.
This module keeps the second step's result, per Python version, in the user's cache folder
(``usercache.cache_dir()``), as JSON (never marshal: ``usercache.py`` says why), and hands it back
to ``_sre.compile`` the next time::

    compile_cached(r"(?i)api[_-]?key\\s*=\\s*(\\w{20,})")   # the same re.Pattern as re.compile gives

What it relies on: ``re._compiler.compile``'s last step (the same in Python 3.11, 3.12 and 3.13),
mirrored in ``_parts``; the cache file is named by the Python's exact version, ``_sre.MAGIC`` and
``_sre.CODESIZE``, so another Python never reads it. The file carries its own sha256, so a damaged
file is not used at all; ``_sre.compile`` refuses an unknown code (that entry is compiled afresh).
Like Python's own ``__pycache__``, it trusts the user's cache folder: whoever can write there can
change what a rule matches (``_sre`` checks that codes are well formed, not what they match). ``tests/test_compiledre.py``
checks that every rule's pattern from the cache equals ``re.compile``'s (``==`` on patterns
compares their codes). Where the internals are missing (another Python), ``re.compile`` is used.
"""
from __future__ import annotations

import array
import atexit
import base64
import re
import sys
import warnings

try:
    import _sre
    from re import _compiler, _parser

    TAG = f"{sys.implementation.name}-{sys.version.split()[0]}-{_sre.MAGIC}-{_sre.CODESIZE}"
    _CODE_TYPE = {2: "H", 4: "I", 8: "Q"}[_sre.CODESIZE]
except (ImportError, AttributeError, KeyError):  # another Python: compile as re does
    TAG = None

MAX_ENTRIES = 1_000  # the scanner's rules and keywords hold ~500 expressions; more is something else
_table: dict | None = None  # {pattern: [flags, codes as base64, groups, groupindex, indexgroup as a list]}
_added: dict = {}
_path = None  # the file _table was read from: written back there, wherever the folder's setting or the cwd moved since


def _cache_path():
    from .usercache import cache_dir

    return cache_dir() / f"regex-{TAG}.json"


def _load() -> dict:
    global _table, _path
    if _table is None:
        _path = _cache_path().absolute()
        found = _read(_path) if TAG else None
        _table = found if isinstance(found, dict) and len(found) <= MAX_ENTRIES else {}
    return _table


def _read(path):
    from .usercache import from_json, read_payload

    payload = read_payload(path)
    try:
        return None if payload is None else from_json(payload)
    except ValueError:  # not JSON, nested too deep: a damaged cache, compiled afresh
        return None


def _parts(pattern: str):
    """What ``re._compiler.compile(pattern, 0)`` hands ``_sre.compile``; raises as ``re.compile`` does."""
    parsed = _parser.parse(pattern, 0)
    codes = _compiler._code(parsed, 0)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return [parsed.state.flags, base64.b64encode(array.array(_CODE_TYPE, codes).tobytes()).decode("ascii"),
            parsed.state.groups - 1, groupindex, indexgroup]


def _build(pattern: str, parts) -> re.Pattern:
    flags, codes, groups, groupindex, indexgroup = parts
    # _sre checks the codes, not the group count: 10**9 groups made the first match ask for 16 GB (MemoryError).
    if not 0 <= groups <= pattern.count("(") or len(indexgroup) != groups + 1:
        raise ValueError(f"{groups!r} groups in a pattern of {pattern.count('(')} parentheses")
    codes = array.array(_CODE_TYPE, base64.b64decode(codes, validate=True)).tolist()
    return _sre.compile(pattern, flags, codes, groups, groupindex, tuple(indexgroup))


def compile_cached(pattern: str) -> re.Pattern:
    """``re.compile(pattern)``, built from this user's cache of compiled codes when it holds them.

    Args:
        pattern: a regular expression in ``re``'s syntax, with no flags argument (inline flags only).
    Returns:
        a ``re.Pattern`` equal to ``re.compile(pattern)``. A pattern compiled here is added to the
        cache when the process exits.
    Raises:
        ``re.error`` (and the warnings ``re.compile`` raises under an "error" filter) for a pattern
        ``re`` refuses, exactly as ``re.compile`` does; a pattern that warns is never kept, so it warns every time.
    """
    if TAG is None or not isinstance(pattern, str):
        return re.compile(pattern)
    table = _load()
    parts = table.get(pattern)
    if parts is not None:
        try:
            return _build(pattern, parts)
        except (TypeError, ValueError, RuntimeError, OverflowError):  # a damaged entry: compile it afresh
            del table[pattern]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = _parts(pattern)
    for warning in caught:  # raised or shown as the caller's filter says, as re.compile's own would be
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    # A pattern that warns is not kept: from the cache it would come back without its warning.
    if len(table) < MAX_ENTRIES and not caught:
        if not _added:
            atexit.register(save)
        table[pattern] = _added[pattern] = parts
    return _build(pattern, parts)


def save() -> None:
    """Write the patterns this process compiled into the cache (with those another process wrote meanwhile), in
    the file it read at its first pattern: a relative ``$CTXLIB_CACHE_DIR`` and a later ``os.chdir`` (a notebook
    moving into a learner's repository) wrote a new cache folder inside that repository when the process ended.

    Called when the process exits; a cache folder that cannot be written is skipped silently.
    """
    if not _added or TAG is None:
        return
    from .usercache import to_json, write_payload

    path = _path or _cache_path()
    found = _read(path)
    merged = found if isinstance(found, dict) and len(found) + len(_added) <= MAX_ENTRIES else {}
    merged.update(_added)
    write_payload(path, to_json(merged))
    _added.clear()
