"""Views of a file at different costs: whole, one symbol, signatures only, or hit ranges.

Lesson 3, "Showing less of a file". A harness rarely needs a whole file: one function,
the list of signatures with the bodies left out, or the lines around the query's hits
often carry what the task needs for a fraction of the tokens.

- ``symbol_view``: one function or class, by name (``"Cart.total"`` for a method).
- ``signatures_view``: decorators, ``def``/``class`` lines and each docstring's first line;
  bodies become ``...``. Dataclass-style fields (``sku: str``) stay, since they are the
  class's signature.
- ``ranges_view``: the lines with a query hit plus ``context`` lines each side, numbered,
  with ``⋮`` where lines are left out.

Python goes through the standard ``ast`` module; for any other file, for Python that
does not parse, and for a text too dense to parse cheaply (more than ``MAX_PARSE_TOKENS``
by ``tokens_at_most``), ``symbol_view`` and ``signatures_view`` return ``None`` and a caller
falls back to ``ranges_view``. Not handled: other languages' syntax, comments inside signatures.
"""
from __future__ import annotations

import ast
import functools
import re
import warnings

from .bm25 import term_positions
from .ceiling import is_whole_number
from .i18n import N_, WordedError, shown
from .strategies import Option

ELISION = "⋮"  # one line that says "lines left out here"
VIEW_VALUE = {"whole": 1.0, "signatures": 0.6, "ranges": 0.4}  # share of a file's score a view keeps
VIEW_LADDERS = {"auto": ("whole", "signatures", "ranges"), "whole": ("whole",),
                "signatures": ("signatures", "ranges"), "ranges": ("ranges",)}
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


MAX_PARSE_TOKENS = 200_000  # ast.parse's peak is ~0.65-0.9 kB a token: at most ~180 MB a file
_WORD_BYTES = bytes(range(48, 58)) + bytes(range(65, 91)) + b"_" + bytes(range(97, 123)) + bytes(range(128, 256))
_AS_WORDS = bytes.maketrans(bytes(range(256)), bytes(97 if b in _WORD_BYTES else 32 for b in range(256)))
_MARKS = b"!%&()*+,-./:;<=>@[]^{|}~"


def tokens_at_most(text: str) -> int:
    """A quick upper estimate of the Python tokens in ``text``: its words (runs of letters,
    digits and ``_``), its punctuation marks and its line ends, each counted as one.

    Each Python token is at least one of these, so the real count is no larger, except that a
    string's words are counted too (``"a b c"`` is one token, counted 3). Counted in C (byte
    tables, ``bytes.translate``): ~5 ms for 1 MiB, where a tokenizer would take ~0.3 s.
    ``tokens_at_most("x = f(a, b)\\n")`` -> 9 (``x``, ``=``, ``f``, ``(``, ``a``, ``,``, ``b``, ``)``, line end).
    """
    data = text.encode("utf-8", "surrogatepass")
    words = data.translate(_AS_WORDS)
    marks = len(data) - len(data.translate(None, _MARKS))  # one pass deletes them all: what is lost is their count
    return words.count(b" a") + words.startswith(b"a") + marks + data.count(b"\n")


def _parse(text: str):
    # A text dense in tokens is not parsed: the standard library's densest module (sympy's
    # test_spin.py, 346 kB) is 152,462 by tokens_at_most, while 1 MiB of "a\n" lines is
    # 1,000,000 and made ast.parse take ~8 s and 889 MB. Such a file gets line ranges instead.
    if tokens_at_most(text) > MAX_PARSE_TOKENS:
        return None
    # Parsing someone's file may warn about its code ("invalid escape sequence"); that is
    # theirs to fix, not a problem with reading it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
        try:  # a UTF-8 byte order mark, as Windows editors save: Python reads past it, ast.parse of a str does not
            return ast.parse(text.removeprefix("\ufeff"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # ValueError: NUL bytes; RecursionError/MemoryError: generated code nested or
            # chained too deeply for the parser. All mean: no signatures view, use line ranges.
            return None


def _start(node) -> int:
    return min([d.lineno for d in getattr(node, "decorator_list", ())] + [node.lineno])


def symbol_view(text: str, name: str) -> str | None:
    """The source of one function or class, decorators included.

    Args:
        text: Python source.
        name: ``"apply_vat"``, or a dotted path into classes: ``"Cart.total"``.
    Returns:
        the symbol's lines as they are in the file, or ``None`` when the file does not
        parse or has no such symbol.
    Raises:
        ValueError: ``text`` or ``name`` is not a string.
    """
    for what, value in (("text", text), ("name", name)):
        if not isinstance(value, str):
            raise WordedError.of(N_("symbol_view: {what} must be a string, got {type} {value:.60}"), what=what,
                                 type=type(value).__name__, value=shown(value))
    tree = _parse(text)
    body = tree.body if tree else []
    node = None
    for part in name.split("."):
        node = next((n for n in body if isinstance(n, _DEFS) and n.name == part), None)
        if node is None:
            return None
        body = node.body
    lines = _lines(text)
    return "\n".join(lines[_start(node) - 1:node.end_lineno]) + "\n"


def _inline(node, lines: list[str]) -> bool:
    """The body starts on the line the signature ends on: ``def f(): return 1``, or a formatter's overload
    ``def f(\n    x: int,\n) -> int: ...`` (whose return line was dropped and ``...`` indented to column 39)."""
    first = node.body[0]
    return first.lineno == node.lineno or bool(lines[first.lineno - 1].encode()[:first.col_offset].strip())


def _header(node, lines: list[str]) -> list[str]:
    first = node.body[0]
    if _inline(node, lines):  # a one-liner: the signature through the line the body starts on
        return lines[_start(node) - 1:first.lineno]
    header = lines[_start(node) - 1:_start(first) - 1]  # a first method's decorators are its own, not the class's
    while header and (not header[-1].strip() or header[-1].strip().startswith("#")):
        header.pop()  # comments between the signature and the body are body
    return header


def _signatures(body, lines: list[str], out: list[str]) -> None:
    for node in body:
        if isinstance(node, ast.AnnAssign) and node.lineno == node.end_lineno:
            out.append(lines[node.lineno - 1])
        if not isinstance(node, _DEFS):
            continue
        out.extend(_header(node, lines))
        if _inline(node, lines):
            continue  # a one-liner is its own signature
        indent = " " * node.body[0].col_offset
        docstring = ast.get_docstring(node)
        if docstring:
            out.append(f'{indent}"""{docstring.splitlines()[0]}"""')
        if isinstance(node, ast.ClassDef):
            before = len(out)
            _signatures(node.body, lines, out)
            if len(out) == before:
                out.append(f"{indent}...")
        else:
            out.append(f"{indent}...")


# A line that starts with a non-blank, or a method's def: found by the newline before it, a literal the regex
# engine jumps to (anchored with ^ it was tried at every character, twice as slow); see the "\n" + text below.
_OUTLINE = re.compile(r"\n(\S.*|    (?:async[ \t]+)?def[ \t].*)$", re.MULTILINE)


def signatures_length_at_least(text: str) -> int:
    """A length in characters that ``signatures_view(text)`` reaches, found without parsing.

    Top-level ``def``/``class`` lines are always in the view, and so are the ``def`` lines
    of methods (four spaces in, right under a top-level ``class``). Lets a packer skip the
    parse (~0.3 microseconds per character) when even those lines cannot fit.
    ``"class A:\n    def f(self): ..."`` -> 28. Code inside a multi-line string can fool it
    into counting too much (1 of the standard library's ~1,800 modules); the packer then
    skips a signatures view that would have fitted, never overspends.
    """
    total, in_class = 0, False
    for line in _OUTLINE.findall("\n" + text):  # the first line has a newline before it too
        if line.startswith(("def ", "async ", "class ")):
            total += len(line)
            in_class = line.startswith("class ")
        elif line.startswith("    "):
            total += len(line) if in_class else 0
        else:
            in_class = False
    return total


def signatures_view(text: str) -> str | None:
    """The file's classes and functions with their bodies elided, or ``None`` if not Python.

    Args:
        text: Python source.
    Returns:
        the module docstring's first line, then each ``def``/``class`` with its
        decorators and docstring's first line, bodies replaced by ``...``; ``None`` when
        the text does not parse. ``"def f(x):\\n    return x\\n"`` -> ``"def f(x):\\n    ...\\n"``.
    """
    tree = _parse(text)
    if tree is None:
        return None
    lines = _lines(text)
    out: list[str] = []
    docstring = ast.get_docstring(tree)
    if docstring:
        out.extend([f'"""{docstring.splitlines()[0]}"""', ""])
    for node in tree.body:
        before = len(out)
        _signatures([node], lines, out)
        if len(out) > before and isinstance(node, _DEFS):
            out.append("")  # a blank line between top-level definitions, as in the source
    return "\n".join(out).rstrip("\n") + "\n" if out else None


def hit_lines(text: str, terms) -> list[int]:
    """1-based numbers of the lines where any of ``terms`` occurs as a whole identifier part.

    ``hit_lines("a = 1\\nvat_rate = 2\\n", ["vat"])`` -> ``[2]``.
    """
    offsets = sorted({o for t in terms for o in term_positions(text, t)})
    found, at, line = [], 0, 1
    for o in offsets:  # a line's number: 1 + the newlines before it, counted on from the last hit in C
        line += text.count("\n", at, o)
        at = o
        if not found or found[-1] != line:
            found.append(line)
    return found


def line_ranges(hits: list[int], n_lines: int, context: int = 2) -> list[tuple[int, int]]:
    """Merge ``hits`` (1-based line numbers) widened by ``context`` lines into ranges.

    ``line_ranges([3, 5, 20], 30, context=1)`` -> ``[(2, 6), (19, 21)]`` (inclusive).
    Raises ``ValueError`` for a ``context`` that is not a whole number >= 0 (-3 made every range
    end before it began: a view of elisions only).
    """
    if not is_whole_number(context):
        raise WordedError.of(N_("context must be a whole number of lines >= 0, got {context}"), context=shown(context))
    ranges: list[tuple[int, int]] = []
    for hit in sorted(hits):
        lo, hi = max(1, hit - context), min(n_lines, hit + context)
        if ranges and lo <= ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], hi))
        else:
            ranges.append((lo, hi))
    return ranges


def _lines(text: str) -> list[str]:
    # Lines end at "\n" only, as for ast and hit_lines; str.splitlines also splits at form feeds,
    # which old Python files contain, and would shift every number after one.
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _line_count(text: str) -> int:
    # len(_lines(text)), counted in C without making the lines
    return text.count("\n") + (not text.endswith("\n"))


def hit_ranges(text: str, terms, context: int = 2, hits: list[int] | None = None) -> list[tuple[int, int]]:
    """The ranges ``ranges_view`` shows: ``line_ranges(hit_lines(text, terms), lines, context)``."""
    hits = hit_lines(text, terms) if hits is None else hits
    return line_ranges(hits, _line_count(text), context)


def ranges_view(text: str, terms, context: int = 2, max_ranges: int | None = None,
                hits: list[int] | None = None, lines: list[str] | None = None,
                ranges: list[tuple[int, int]] | None = None) -> str | None:
    """The lines around the query's hits, numbered, with ``⋮`` where lines are left out.

    Args:
        text: any text file.
        terms: lower-case query terms, e.g. ``["vat", "invoice"]``.
        context: lines to keep each side of a hit.
        max_ranges: keep only the first this many ranges (``None``: all).
        hits: ``hit_lines(text, terms)`` if the caller already has it.
        lines: the text's lines (split at ``"\\n"`` only) if the caller already has them.
        ranges: ``hit_ranges(text, terms, context, hits)`` if the caller already has them (then ``hits``
            and ``context`` are not read again).
    Returns:
        e.g. ``"⋮\\n 12 | def vat_rate(country):\\n 13 |     ...\\n⋮\\n"``, or ``None`` when no
        line has a hit.
    Raises:
        ValueError: ``context`` is not a whole number >= 0, or ``max_ranges`` neither ``None`` nor a
            whole number >= 1 (-1 dropped the last range, as a slice does).
    """
    if max_ranges is not None and not is_whole_number(max_ranges, 1):
        raise WordedError.of(N_("max_ranges must be None or a whole number >= 1, got {value}"), value=shown(max_ranges))
    lines = _lines(text) if lines is None else lines
    if ranges is None:
        ranges = line_ranges(hit_lines(text, terms) if hits is None else hits, len(lines), context)
    ranges = ranges[:max_ranges]
    if not ranges:
        return None
    width = len(str(ranges[-1][1]))
    out, shown_to = [], 0
    for lo, hi in ranges:
        if lo > shown_to + 1:
            out.append(ELISION)
        out.extend(f"{n:>{width}} | {lines[n - 1]}".rstrip() for n in range(lo, hi + 1))
        shown_to = hi
    if shown_to < len(lines):
        out.append(ELISION)
    return "\n".join(out) + "\n"


def view_options(path: str, text: str, terms, score: float, view: str = "auto", copies=()):
    """Yield the options for one file, richest view first; each view's text is built lazily.

    ``view`` picks the ladder (``VIEW_LADDERS``). Each option's value is ``score`` times
    the view's share (``VIEW_VALUE``); hit ranges are offered whole, then halved down to
    the first range, valued by the share of ranges they keep. ``copies``: identical files' paths.
    """
    for kind in VIEW_LADDERS[view]:
        if kind == "whole":
            yield Option(path, "whole", score, lambda: text, len(text), copies=copies)
        elif kind == "signatures" and path.endswith((".py", ".pyi")):
            yield Option(path, "signatures", score * VIEW_VALUE["signatures"],
                         lambda: _shorter(signatures_view(text), text),
                         signatures_length_at_least(text), copies=copies)  # known before ast.parse
        elif kind == "ranges":
            ranges = hit_ranges(text, terms)  # made once for every option below, as the lines are
            n = len(ranges)
            lines = _lines(text) if n else []
            first = ranges_view(text, terms, max_ranges=1, lines=lines, ranges=ranges) if n else ""
            keep = n
            while keep >= 1:
                # More ranges show the first range's lines and at least one line more (4 or more characters,
                # where the first range alone may end with a 2-character elision): longer than the first alone.
                build = functools.partial(ranges_view, text, terms, max_ranges=keep, lines=lines, ranges=ranges) \
                    if keep > 1 else (lambda first=first: first)
                yield Option(path, "ranges", score * VIEW_VALUE["ranges"] * keep / n, build,
                             len(first) + 2 if keep > 1 else len(first), ranges=(keep, n), copies=copies)
                keep = keep // 2 if keep > 1 else 0


def _shorter(view_text: str | None, text: str) -> str | None:
    return view_text if view_text is not None and len(view_text) < len(text) else None
