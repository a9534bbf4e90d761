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

``tests/test_hostile.py`` holds the rewritten patterns equal to pathspec's own on thousands of
random patterns and names.

Many patterns: pathspec tries each pattern of a file in turn, in Python (~1 microsecond each), for
every name of the walk; a 150 kB ``.gitignore`` of 10,000 lines made reading 1,000 files take 5 s.
``ScreenedSpec`` first asks one regular expression per ``SCREEN_BLOCK`` patterns whether any of them
matches (``re`` tries them all in C), then lets pathspec decide among the few that do.
A pattern repeated is kept only at its last place; once a pattern matched a folder above a name, the
screens look only for patterns that match the name itself. Not handled: a pattern's own length (a
100,000-character line is matched in time linear in the pattern times the name).
"""
from __future__ import annotations

import contextlib
import re
import warnings

import pathspec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

_STAR = r"\[\^/\]\*"  # pathspec's "*": any run of characters within one folder name
# One fixed-length piece of a name: an escaped character, a class ([ab], or [^/] for "?"), a plain character.
# A class may start with "]" (``[]a]``, ``[^]a]``: "]" is then one of its characters); one that does was not a
# piece, so ``*[]a]`` 30 times kept 30 backtracking stars and a 200-character name took minutes.
_PIECE = (r"(?:\\.|\[\^?\](?:\\.|[^\]\\])*\]|\[(?!\^/\]\*)(?:\\.|[^\]\\])+\]|\[\^/\](?!\*)"
          r"|[^\\\[\]()*+?{}|^$./])")
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


SCREEN_BLOCK = 64  # patterns asked at once by one regular expression
# Screens are built once a spec has tried this many patterns one by one (~4 ms): compiling them costs
# ~0.4 ms for a few lines, which 3,000 small .gitignore files, each asked a few times, would not repay.
SCREEN_AFTER = 4096


class ScreenedSpec(pathspec.GitIgnoreSpec):
    """A ``GitIgnoreSpec`` that decides a name from only the patterns that match it, found a block at a time."""

    def check_file(self, file, separators=None):
        """pathspec's own verdict for ``file`` (``.include``: ``True`` ignored, ``False`` re-included, ``None``),
        reached without trying every pattern in Python.

        Git's rule is "the last matching pattern decides" (pathspec: a match of the name itself outranks a
        match of a folder above it), so a pattern that does not match never changes the verdict, and none
        before the last one matching the name itself can. Once a pattern matched a folder above the name,
        only a match of the name itself can still decide: the blocks before are screened for that alone
        (``d/`` then ``!d/`` 75,000 times each made every name in ``d/`` try all 150,000 one by one). Blocks are screened from the last; pathspec then
        decides among the matching patterns, in their order. ``.index`` is the deciding line's index.
        Until ``SCREEN_AFTER`` pattern tries, pathspec decides alone.
        """
        tried = self.__dict__.get("_tried", 0) + len(self.patterns)
        if tried <= SCREEN_AFTER:
            self.__dict__["_tried"] = tried
            return self._as_written(super().check_file(file, separators))
        name = pathspec.util.normalize_file(file, separators)
        found = []  # (index, pattern) of the patterns matching name, from the last
        screens = self._screens()
        for number in range(len(screens) - 1, -1, -1):
            start, screen = screens[number]
            if screen is not None and not screen(name):
                continue
            block = self.patterns[start:start + SCREEN_BLOCK]
            for index in range(start + len(block) - 1, start - 1, -1):
                pattern = self.patterns[index]
                match = pattern.regex.search(name) if pattern.include is not None else None
                if match is None:
                    continue
                found.append((index, pattern))
                if not match.groupdict().get("ps_d"):  # the name itself matched: nothing before it counts
                    break
            else:
                if found and screens is not self._screens(decisive=True):
                    # Past a pattern that matched a folder above the name, another such never changes the
                    # verdict: the screens now look only for a pattern that matches the name itself.
                    screens = self._screens(decisive=True)
                continue
            break
        found.reverse()
        result = pathspec.GitIgnoreSpec([pattern for _, pattern in found]).check_file(name)
        index = None if result.index is None else found[result.index][0]
        return self._as_written(type(result)(file, result.include, index))

    def _as_written(self, result):
        """``result`` with ``.index`` the deciding line's place among the lines given (repeats taken out)."""
        lines = self.__dict__.get("_line_of")
        if lines is None or result.index is None:
            return result
        return type(result)(result.file, result.include, lines[result.index])

    def match_file(self, file, separators=None) -> bool:
        """Whether ``file`` is matched (ignored), as ``check_file`` decides."""
        return bool(self.check_file(file, separators).include)

    def _screens(self, decisive: bool = False) -> list:
        """``[(first index, screen or None), ...]``: per block, a function telling whether one of the block's
        patterns may match a name (``None``: a block that cannot be joined, tried pattern by pattern).
        ``decisive``: only a match that can still decide once a folder above the name matched: a match of
        the name itself (each pattern's folder branch ``(?P<ps_d>/)`` taken out; a folder pattern left out).

        A pattern for a name at any depth (``^(?:.+/)?REST``) is looked for as ``REST`` after each ``/``: joined
        behind a leading ``(?:.+/)?``, every pattern would scan the name again; after a ``/``, a branch that
        starts with a character (``x0``) is passed over at once."""
        key = "_decisive_list" if decisive else "_screen_list"
        if key not in self.__dict__:
            screens = []
            for start in range(0, len(self.patterns), SCREEN_BLOCK):
                others, anywhere = [], []
                for p in self.patterns[start:start + SCREEN_BLOCK]:
                    if p.include is None or not isinstance(p.regex.pattern, str):
                        continue
                    source = p.regex.pattern
                    if decisive:
                        source = source.replace("(?:(?P<ps_d>/)|$)", "$")
                        if "(?P<ps_d>" in source:  # a folder pattern ("d/"): it matches only folders
                            continue
                    source = source.replace("(?P<ps_d>", "(?:")
                    if source.startswith("^" + _LEADING_DIRS):
                        anywhere.append(source[1 + len(_LEADING_DIRS):])
                    else:
                        others.append(source)
                try:  # pathspec searches a pattern's regex in the name: so do the screens
                    with quiet_regex_warnings():
                        first = re.compile("|".join(f"(?:{s})" for s in others) or "(?!)").search
                        joined = "|".join(f"(?:{s})" for s in anywhere) or "(?!)"
                        later = re.compile("(?:^|(?<=/))(?:" + joined + ")").search
                except re.error:
                    screens.append((start, None))
                    continue
                screens.append((start, lambda name, first=first, later=later: first(name) or later(name)))
            self.__dict__[key] = screens
        return self.__dict__[key]


MAX_PATTERNS = 10_000  # patterns of one .gitignore used: 120,000 made each name under long folders take 0.79 s


def first_patterns(lines: list[str], most: int | None = None) -> tuple[list[str], int]:
    """``(lines up to the last of the first most patterns, how many patterns were cut)``: a blank line or a
    ``#`` comment is no pattern. ``most``: default ``MAX_PATTERNS``. Each name is screened against every pattern
    block, so a .gitignore's patterns past the cap are left out (the caller notes it), not tried for every file."""
    most = MAX_PATTERNS if most is None else most
    at = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    return (lines, 0) if len(at) <= most else (lines[:at[most]], len(at) - most)


def compile_patterns(lines) -> pathspec.GitIgnoreSpec:
    """``pathspec.GitIgnoreSpec.from_lines(lines)`` with ``LinearPattern``, as a ``ScreenedSpec``.

    Raises:
        ValueError: a line that is not a pattern: pathspec's own (a lone ``!``), or a line whose regular
            expression ``re`` refuses (a range written backwards, ``[z-a]``, or ``[a--b]``), named with
            ``re``'s reason: ``"'e[z-a]': bad character range z-a"``. That was an ``re.error``, which is no
            ``ValueError``: a repository's ``.gitignore`` holding such a line stopped the reader with a traceback.
    """
    lines = list(lines)
    with quiet_regex_warnings():
        try:
            return _without_repeats(ScreenedSpec.from_lines(lines, LinearPattern))
        except re.error:
            for line in lines:
                try:
                    LinearPattern(line)
                except re.error as exc:
                    raise ValueError(f"{line!r}: {exc.msg}") from None
            raise


def _without_repeats(spec: ScreenedSpec) -> ScreenedSpec:
    """``spec`` with each pattern kept only at its last place: an earlier copy of a pattern never changes a verdict
    (whatever it decides, its later copy decides again). Lines that are no pattern stay, for the callers that name
    them (``repo._spec``)."""
    kept, seen = [], set()
    for line in range(len(spec.patterns) - 1, -1, -1):
        pattern = spec.patterns[line]
        key = (pattern.regex.pattern if pattern.regex is not None else None, pattern.include)
        if pattern.include is None or key not in seen:
            seen.add(key)
            kept.append(line)
    if len(kept) == len(spec.patterns):
        return spec
    kept.reverse()
    shorter = ScreenedSpec([spec.patterns[line] for line in kept])
    shorter.__dict__["_line_of"] = kept
    return shorter


@contextlib.contextmanager
def quiet_regex_warnings():
    """A context in which ``re`` compiles without its ``FutureWarning`` ("Possible nested set" for ``[[``):
    a repository's ``.gitignore`` line such as ``[[:alpha:]]`` printed Python's warning to the user's terminal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        yield


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
