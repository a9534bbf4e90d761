"""Ignore patterns (``.gitignore``, ``--exclude``, ``--include``) matched in time linear in the name.

Lesson 3, "Reading a real repository". The patterns are git's, compiled by ``pathspec`` into
regular expressions. A backtracking engine tries every way to split a name between the stars
of ``*a*a*a*a*a*a*a*a*ac``: 20 s for a 60-character name, over a minute with ten stars (git
itself hangs on it; ctxlib reads repositories nobody checked). The same patterns are rewritten
so that no star can be tried twice:

- Between two stars of one folder name, the text is a fixed-length piece (``a``, ``?``,
  ``[ab]``). Taking each piece at its leftmost place is never worse than a later one (the rest
  of the name only gets longer), so each piece is an atomic group: ``(?>[^/]*?a)``. Only the
  last star of a name may still backtrack, over at most that name.
- Stars in a row within a name (``a***``, which pathspec writes as three loops) are one star.
- ``**`` between folder names is the same idea one level up: the folder names between two
  ``**`` are taken at their first place, atomically, and must end where a folder does.

``tests/test_ignore.py`` holds the rewritten patterns equal to pathspec's own on thousands of
random patterns and names. Not handled: a pattern's own length (a 100,000-character line is
matched in time linear in the pattern times the name).
"""
from __future__ import annotations

import re

import pathspec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

_STAR = r"\[\^/\]\*"  # pathspec's "*": any run of characters within one folder name
# One fixed-length piece of a name: an escaped character, a class ([ab], or [^/] for "?"), a plain character.
_PIECE = r"(?:\\.|\[(?!\^/\]\*)(?:\\.|[^\]\\])+\]|\[\^/\](?!\*)|[^\\\[\]()*+?{}|^$./])"
_BETWEEN_STARS = re.compile(_STAR + "(" + _PIECE + "+)(?=" + _STAR + ")")
_STARS_IN_A_ROW = re.compile(r"(?<!\\)((?:\\\\)*)(?:" + _STAR + "){2,}")  # not after an escaping backslash
_LEADING_DIRS, _MIDDLE_DIRS = "(?:.+/)?", "(?:/.+)?/"  # pathspec's "**/" at the start, "/**/" inside


def linear_regex(source: str) -> str:
    """pathspec's regular expression ``source`` rewritten so that matching takes linear time.

    ``linear_regex("^(?:.+/)?[^/]*a[^/]*b[^/]*(?:(?P<ps_d>/)|$)")`` ->
    ``"^(?:.+/)?(?>[^/]*?a)(?>[^/]*?b)[^/]*(?:(?P<ps_d>/)|$)"``. Matches the same names.
    """
    source = _STARS_IN_A_ROW.sub(r"\1[^/]*", source)  # "a***" is "a*": 30 stars in a row were 30 nested loops
    source = _BETWEEN_STARS.sub(lambda m: "(?>[^/]*?" + m.group(1) + ")", source)
    if not source.startswith("^"):
        return source
    parts = source[1:].split(_MIDDLE_DIRS)
    if len(parts) == 1:
        return source
    first = parts[0]
    if first.startswith(_LEADING_DIRS):
        first = "(?>(?:.+?/)?" + first[len(_LEADING_DIRS):] + "(?=/))"
    middle = "".join("(?>(?:/.+?)?/" + part + "(?=/))" for part in parts[1:-1])
    return "^" + first + middle + _MIDDLE_DIRS + parts[-1]


class LinearPattern(GitIgnoreSpecPattern):
    """A gitignore pattern as pathspec reads it, compiled with ``linear_regex``."""

    __slots__ = ()

    @classmethod
    def pattern_to_regex(cls, pattern):
        """pathspec's ``(regex source, include)`` for ``pattern``, the source made linear."""
        regex, include = super().pattern_to_regex(pattern)
        if isinstance(regex, str):
            regex = linear_regex(regex)
        elif isinstance(regex, bytes):
            regex = linear_regex(regex.decode("latin-1")).encode("latin-1")
        return regex, include


def compile_patterns(lines) -> pathspec.GitIgnoreSpec:
    """``pathspec.GitIgnoreSpec.from_lines(lines)`` with ``LinearPattern``; raises its ``ValueError``
    for a line that is not a pattern (a lone ``!``)."""
    return pathspec.GitIgnoreSpec.from_lines(list(lines), LinearPattern)


def glob_regex(pattern: str) -> str:
    """One pattern of ``credentials.CREDENTIAL_FILE_PATTERNS`` as a regular expression over a name or a path:
    ``*`` and ``?`` within one name, ``**`` across folders, a leading ``**/`` at any depth."""
    body, anchored = pattern, "/" in pattern
    if body.startswith("**/"):
        body, anchored = body[3:], False
    out, i = [], 0
    while i < len(body):
        if body.startswith("**", i):
            out.append(".*")
            i += 2
        elif body[i] == "*":
            out.append("[^/]*")
            i += 1
        elif body[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(body[i]))
            i += 1
    return ("^" if anchored else "^(?:.*/)?") + "".join(out) + "$"
