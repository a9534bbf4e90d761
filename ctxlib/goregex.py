"""Go's regular expressions (RE2 syntax) as patterns Python's ``re`` reads the same way.

The credential scanner (``credentials.py``) runs gitleaks' rules, written for Go. Python's ``re``
reads most of them as Go does; 26 of gitleaks 8.30.1's rules use three things it reads otherwise
or not at all, and ``to_python`` rewrites them:

- a flag group in the middle of a pattern, ``\\b(SG\\.(?i)[a-z0-9]{66})``: in Go the flags hold
  from there to the end of the enclosing group (RE2's syntax page, "Flags"); ``re`` refuses it.
  The rest of that alternative becomes ``(?i:...)``, and so does each later alternative of the
  same group: ``a(?i)b|c`` -> ``a(?i:b)|(?i:c)``.
- ``\\z``, the end of the text (``re``'s ``\\Z``).
- POSIX classes inside brackets, ``[[:alnum:]]`` (ASCII in Go), which ``re`` reads as a nested set.

Like the ~200 rules ``re`` reads as they are, the result reads ``\\w``, ``\\d``, ``\\s`` and ``\\b``
as Unicode (Go reads them as ASCII); ``re`` and the ``regex`` package differ there only on a few
characters (``re`` counts ``²`` a word character and ``\\x1c``-``\\x1f`` white space). Secrets are
ASCII. Anything else it does not know (``\\Q...\\E``, ``\\pN``, a flag other than ``i``, ``m`` or
``s``...) gives ``None``, and the caller keeps another engine. ``re`` compiles the result some
5x faster than the ``regex`` package compiles the original, ``regexscan`` can read it for its
literals, and the browser build (where ``regex`` cannot be installed) runs these rules too.
``tests/test_goregex.py`` holds each rewritten rule to the ``regex`` package's matches.

Case folding: under ``(?i)`` Go folds a letter only along its Unicode simple case folding orbit
(``unicode.SimpleFold``): ``k`` also matches the Kelvin sign ``K`` and ``s`` the long ``ſ``, and
nothing else reaches an ASCII letter. ``re`` also folds the Turkish dotless ``ı`` (U+0131) and
dotted ``İ`` (U+0130) onto ``i`` (its documentation lists the four), for every rule, rewritten or
not. ``go_case`` takes those two out of a text before the rules run, so that ``re`` matches what
Go matches there too.
"""
from __future__ import annotations

import re

POSIX_CLASSES = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
                 "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
                 "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
                 "xdigit": "0-9A-Fa-f"}
_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)")  # a group of flags only: (?i), (?-i), (?i-s)
_KNOWN_FLAGS = set("ims")


# The two letters re folds onto "i" and Go does not, each replaced by a letter that no case
# folding reaches (in re, the regex package or Go) and that is a word character as they are.
GO_CASE = str.maketrans({"\u0131": "\u0138", "\u0130": "\u018d"})  # ı -> ĸ, İ -> ƍ


class _Unknown(Exception):
    pass


def to_python(source: str) -> str | None:
    """``source``, a Go (RE2) pattern, rewritten so that ``re`` matches what Go matches; ``None`` when
    it holds something this rewriting does not know.

    Args:
        source: the pattern as gitleaks writes it.
    Returns:
        the pattern for ``re``. ``to_python(r"\\bSG\\.(?i)[a-z]{3}")`` -> ``r"\\bSG\\.(?i:[a-z]{3})"``;
        ``to_python(r"[[:alnum:]]+\\z")`` -> ``r"[0-9A-Za-z]+\\Z"``; a pattern ``re`` reads as it is
        comes back unchanged.
    Raises:
        nothing: what it cannot read gives ``None``.
    """
    try:
        body, end = _group(source, 0, top=True)
    except (_Unknown, IndexError):
        return None
    return body if end == len(source) else None


def go_case(text: str) -> str:
    """``text`` with the letters ``re`` folds onto ``i`` under ``(?i)`` and Go does not (``ı``
    U+0131, ``İ`` U+0130) replaced by letters nothing folds onto (``ĸ``, ``ƍ``): the same length
    and offsets, the same word characters, so a rule run over it with ``re`` matches where Go's
    would run over ``text``. ``go_case("kıd")`` -> ``"kĸd"``; an ASCII text comes back as it is.
    Raises nothing. The rule: Go's ``regexp/syntax`` folds along ``unicode.SimpleFold``, whose
    orbit of ``i`` is ``i``, ``I``; ``re``'s ``IGNORECASE`` documentation names ``ı`` and ``İ``.
    """
    if text.isascii() or ("\u0131" not in text and "\u0130" not in text):  # two C scans, not translate's per-character
        return text  # lookups (17 ms for 200,000 characters of accented text)
    return text.translate(GO_CASE)


def readings(source: str):
    """Yield ``source`` as it is, then (when it differs) ``to_python(source)``: what to try compiling, in order."""
    yield source
    if (rewritten := to_python(source)) not in (None, source):
        yield rewritten


def _group(src: str, i: int, top: bool = False) -> tuple[str, int]:
    """Translate from ``i`` to the ``)`` that closes the current group (or the end, at the top):
    ``(text, index of that ")" or len(src))``."""
    alternatives: list[str] = []
    current: list[str] = []
    opened = ""  # "(?flags:" wrappers opened in this alternative, closed at its end
    carried = ""  # wrappers every later alternative of this group starts inside
    while i < len(src) and src[i] != ")":
        ch = src[i]
        flags = _FLAGS.match(src, i) if ch == "(" else None
        if flags:
            on, off = flags.group(1), flags.group(2) or ""
            if not set(on + off) <= _KNOWN_FLAGS:
                raise _Unknown(flags.group())
            if top and i == 0 and not off and not alternatives:  # leading global flags: re reads them
                current.append(flags.group())
            else:
                wrapper = f"(?{on}{'-' + off if off else ''}:"
                current.append(wrapper)
                opened += wrapper
                carried += wrapper
            i = flags.end()
        elif ch == "|":
            alternatives.append("".join(current) + ")" * opened.count("("))
            current, opened = [carried], carried
            i += 1
        elif ch == "\\":
            current.append(_escape(src, i))
            i += 2
        elif ch == "[":
            text, i = _brackets(src, i)
            current.append(text)
        elif ch == "(":
            head = re.match(r"\((?:\?(?:P?<[A-Za-z_]\w*>|:|[a-zA-Z]*-?[a-zA-Z]*:))?", src[i:]).group()
            if "?" in head and ":" in head and not set(re.sub(r"[?:()-]", "", head)) <= _KNOWN_FLAGS:
                raise _Unknown(head)
            inner, i = _group(src, i + len(head))
            current.append(head + inner + ")")
            i += 1  # the closing ")"
        else:
            current.append(ch)
            i += 1
    if not top and i >= len(src):
        raise _Unknown("an unclosed group")
    alternatives.append("".join(current) + ")" * opened.count("("))
    return "|".join(alternatives), i


def _escape(src: str, i: int) -> str:
    nxt = src[i + 1]
    if nxt == "z":
        return "\\Z"
    if nxt in "QEpPCzx" or nxt.isdigit() and nxt != "0":  # \Q..\E, classes by name, \C, \x{...}, back-references
        if nxt == "x" and i + 2 < len(src) and src[i + 2] != "{":
            return src[i:i + 2]  # \x41: the same in both
        raise _Unknown(src[i:i + 2])
    return src[i:i + 2]


def _brackets(src: str, i: int) -> tuple[str, int]:
    """A bracket expression from ``src[i] == "["``: its text for ``re`` and the index after it."""
    out, j = ["["], i + 1
    if j < len(src) and src[j] == "^":
        out.append("^")
        j += 1
    if j < len(src) and src[j] == "]":  # a "]" first is a literal in Go
        out.append("\\]")
        j += 1
    while src[j] != "]":
        if src.startswith("[:", j):
            end = src.index(":]", j + 2)
            name = src[j + 2:end]
            if name not in POSIX_CLASSES:
                raise _Unknown(name)
            out.append(POSIX_CLASSES[name])
            j = end + 2
        elif src[j] == "\\":
            if src[j + 1] in "pPQEz":
                raise _Unknown(src[j:j + 2])
            out.append(src[j:j + 2])
            j += 2
        elif src[j] == "[":
            out.append("\\[")  # a lone "[" inside a class is a literal in Go; re warns of a nested set
            j += 1
        else:
            out.append(src[j])
            j += 1
    out.append("]")
    return "".join(out), j + 1
