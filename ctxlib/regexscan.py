"""Regular-expression search that finds the same matches as ``finditer``, sooner.

The credential scanner (``credentials.py``) runs ~280 expressions (gitleaks' and its own) over every text
it packs, each as ``pattern.finditer(text)`` (gitleaks' ``detect``: every match of every rule
whose keyword the text holds). Python's ``re`` finds a pattern's literal prefix and jumps
between its occurrences, but only when the pattern starts with it: ``\\b(ey[a-zA-Z0-9]{17,}...``
(a JSON web token) or ``(?i)[\\w.-]{0,50}?(?:key|token)...`` (gitleaks' keyword template) are
tried at every position. This module reads a pattern once (``required_literals``: literals
every match contains, each at a bounded distance from the match's start), finds those
literals with ``str.find`` (or takes their places from ``LiteralSet.find``) and calls
``pattern.match`` only where a match could start (``anchored_finditer``), in ``finditer``'s
order: leftmost first, then from the end of the previous match. The matches are the same
objects ``finditer`` would give (same span, same groups), because each one is the pattern's
own ``match`` at the position ``finditer`` would have reached; when the reading proves nothing
(an unbounded prefix, an alternative without a literal, a literal only inside a lookbehind)
the caller keeps ``finditer``. The keyword template's lazy prefix gets its own reading
(``template_finditer``), and gitleaks' base64 runs theirs (``run_finditer``).

Case: a literal of an ``(?i)`` part is looked for in ``text.lower()``, which holds every place
``re`` can match it when ``case_safe(text, lowered)`` holds (equal lengths, and neither of the
two letters, dotless ``ı`` and long ``ſ``, that ``re`` folds onto ASCII letters but ``lower()``
does not).
"""
from __future__ import annotations

import functools
import re
from bisect import bisect_left
from re import _constants, _parser
from itertools import islice

from . import compiledre
from .literalread import KNOWN_READINGS, known_readings, required_literals  # noqa: F401 (regexscan's names too)

# Letters ``re`` matches to an ASCII letter under IGNORECASE that ``str.lower()`` does not
# lower to it ("ı" -> "i", "ſ" -> "s"); tests/test_regexscan.py checks every code point.
CASE_FOLD_EXCEPTIONS = "\u0131\u017f"


def case_safe(text: str, lowered: str) -> bool:
    """Whether ``lowered`` (``text.lower()``, or ``fold(text)``) holds, at the same offsets, every place an
    ASCII literal of an ``(?i)`` pattern can match in ``text`` (``re``'s case folding).

    True for an ASCII text; else when both have the same length (one character for one: no
    "İ", which lowers to two) and ``lowered`` holds none of ``CASE_FOLD_EXCEPTIONS``. Raises nothing.
    """
    return text.isascii() or (len(lowered) == len(text) and not any(c in lowered for c in CASE_FOLD_EXCEPTIONS))


# What ``fold`` writes first for the letters ``lower()`` leaves unsafe: each as the ASCII letter ``re`` folds it onto.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def fold(text: str, lowered: str | None = None) -> str:
    """``text`` lower-cased so that ``case_safe(text, fold(text))`` holds: ``text.lower()`` when it is already
    safe; else with "İ", dotless "ı" and long "ſ" first written as the ASCII letter ``re`` folds each onto, so
    the result has ``text``'s length and every place an ``(?i)`` ASCII literal can match. A minified bundle
    holding one "ı" was otherwise searched by a whole ``finditer`` per rule (3.5 s for 956 kB). ``lowered``:
    ``text.lower()`` if the caller has it."""
    lowered = text.lower() if lowered is None else lowered
    if case_safe(text, lowered):
        return lowered
    return text.translate(_FOLD).lower()


def candidate_starts(text: str, lowered: str, literals, pos: int, endpos: int, index=None) -> list[int]:
    """Where in ``text`` a match holding ``literals`` could start.

    Args:
        text, lowered: the text and ``text.lower()`` (``(?i)`` literals are looked for there;
            the caller checks ``case_safe`` first).
        literals: ``required_literals``' form, ``((literal, ignorecase, lo, hi), ...)``.
        pos, endpos: the part of the text a match must lie in, character offsets.
        index: ``(places, indexed)``, where ``places`` maps lower-case literals to the ascending
            offsets of all their occurrences in ``lowered`` (``LiteralSet.find``) and is complete
            for every literal in ``indexed``. Such a literal is not searched again: an ``(?i)``
            one's places are its places, a case-sensitive ASCII one's those of its lower case
            where ``text`` holds it as it is (given one character of ``lowered`` for one of ``text``).
            A third item, a dict the scan of one text keeps, holds the places of the other literals once
            looked for in the whole text (``pos`` 0): rules that need the same literal find it once.
    Returns:
        the sorted offsets ``s`` in ``pos``..``endpos`` with, for some entry, its literal at
        ``s + d``, ``lo <= d <= hi``, inside ``endpos``: every place a match can start, and more.
    Raises:
        nothing.
    """
    places, indexed = index[:2] if index is not None else ({}, ())
    looked = index[2] if index is not None and len(index) > 2 else None
    aligned = len(lowered) == len(text)
    starts: set[int] = set()
    for literal, icase, lo, hi in literals:
        key = literal if icase else literal.lower()
        exact = None
        if key in indexed and (icase or (aligned and literal.isascii())):
            offsets = places.get(key, ())
            found, limit = islice(offsets, bisect_left(offsets, pos + lo), None), endpos - len(literal)
            exact = None if icase or literal == key else literal
        elif looked is not None and pos == 0 and endpos >= len(lowered if icase else text):
            offsets = looked.get((literal, icase))
            if offsets is None:
                offsets = looked[literal, icase] = list(_occurrences(lowered if icase else text, literal, 0, endpos))
            found, limit = islice(offsets, bisect_left(offsets, lo), None), endpos
        else:
            found, limit = _occurrences(lowered if icase else text, literal, pos + lo, endpos), endpos
        for at in found:
            if at > limit:
                break
            if exact is None or text.startswith(exact, at):
                starts.update(range(max(pos, at - hi), at - lo + 1))
    return sorted(starts)


def _occurrences(hay: str, literal: str, start: int, end: int):
    at = hay.find(literal, start, end)
    while at >= 0:
        yield at
        at = hay.find(literal, at + 1, end)


def possible(literals, index) -> tuple:
    """``literals`` (``required_literals``' form) less those the text cannot hold.

    ``index``: ``(places, indexed)`` as for ``candidate_starts``. An ASCII literal whose lower
    case holds a literal of ``indexed`` that ``places`` lacks is dropped (the text lacks it
    too): exact for a case-sensitive literal, and for an ``(?i)`` one where ``case_safe`` holds.
    Returns a tuple (empty: no match is possible). Raises nothing.
    """
    places, indexed = index[:2]
    return tuple(lit for lit in literals if all(k in places for k in _indexed_in(lit[0], indexed)))


@functools.cache
def _indexed_in(literal: str, indexed: frozenset) -> tuple:
    lowered = literal.lower()
    return tuple(k for k in indexed if k in lowered) if literal.isascii() else ()


def anchored_finditer(pattern: re.Pattern, text: str, lowered: str, literals, pos: int = 0,
                      endpos: int | None = None, index=None):
    """``pattern.finditer(text, pos, endpos)``, trying only the starts ``literals`` allow.

    Args:
        pattern: a compiled ``re`` pattern; ``literals``: its ``required_literals``;
        text: the text; lowered: ``text.lower()``, used only for ``(?i)`` literals and then
            only if ``case_safe(text, lowered)`` (the caller's check);
        pos, endpos: as for ``finditer`` (character offsets);
        index: places already known, as for ``candidate_starts``.
    Returns:
        an iterator of the same ``re.Match`` objects ``finditer`` yields, in the same order.
    Raises:
        nothing ``finditer`` would not.
    """
    endpos = len(text) if endpos is None else endpos
    at = pos
    for start in candidate_starts(text, lowered, literals, pos, endpos, index):
        if start >= at:
            m = pattern.match(text, start, endpos)
            if m:
                yield m
                at = m.end()  # > start: every match holds a literal


# gitleaks' keyword template starts with this lazy prefix: at most 50 name characters
# before the keyword (``_RUN_TO_END`` finds where a run of them can start). A few of its rules
# (okta-access-token, cohere-api-token...) start with the same class, case-sensitive, then
# repeat it, with their keyword, in a ``(?i:...)`` group: ``PLAIN_PREFIX``.
TEMPLATE_PREFIX = "(?i)[\\w.-]{0,50}?"
PLAIN_PREFIX = "[\\w.-]{0,50}?"
_TEMPLATE_REACH = 50
_RUN_TO_END = {TEMPLATE_PREFIX: re.compile(r"(?i)[\w.-]*\Z"), PLAIN_PREFIX: re.compile(r"[\w.-]*\Z")}
# Those rules' two prefixes, both read here: read past the first only, the rest began with the second, and
# its match was tried at every place up to 50 characters before each keyword (1 MB of "sumo_" took 14 s).
_DOUBLE_PREFIX = PLAIN_PREFIX + "(?i:" + PLAIN_PREFIX


# gitleaks' template right after its keyword group: what keyword_windows' _OPERATOR_AFTER loosens.
TEMPLATE_TAIL = r"""(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)"""


@functools.cache
def windows_hold(source: str, keywords: tuple) -> bool:
    """Whether ``keyword_windows`` around ``keywords`` hold every match of the keyword-template ``source``.

    They do when the pattern is ``TEMPLATE_PREFIX``, one group of names, then ``TEMPLATE_TAIL``, with no
    other form beside it, and every name the group matches is, in lower case, one of ``keywords``: a
    match then holds a keyword right before its operator. Not so for lob-api-key, whose keywords are its
    values' ``live_`` and ``test_``, for snyk's ``snyk_api_key`` (the keyword ``snyk`` is 8 characters from
    the operator's run), or for atlassian-api-token's second form (``ATATT3...`` alone): those rules are
    searched in the whole text, as gitleaks searches every rule. ``keywords``: lower case.
    Returns ``False`` for any pattern not read so (the whole-text search is always right). Raises nothing.
    """
    if not source.startswith(TEMPLATE_PREFIX + "(?:"):
        return False
    rest = source[len(TEMPLATE_PREFIX):]
    try:
        whole = _parser.parse(source)
        # The keyword group ends at the first ")" that closes it: the shortest head that parses.
        length = next(i for i in range(4, len(rest) + 1) if rest[i - 1] == ")" and _parses(rest[:i]))
        names = _names(_parser.parse(rest[:length]))
    except (re.error, StopIteration, RecursionError):
        return False
    return (rest.startswith(TEMPLATE_TAIL, length) and whole[0][0] is _constants.MIN_REPEAT and names is not None
            and all(name.lower() in keywords for name in names))


def _parses(text: str) -> bool:
    try:
        _parser.parse(text)
    except re.error:
        return False
    return True


def _names(items, most: int = 256) -> list[str] | None:
    """Every string the parsed ``items`` match, if they are literals, small classes, groups, alternatives
    and ``?``; ``None`` for anything else or for more than ``most`` strings."""
    found = [""]
    for op, arg in items:
        if op is _constants.LITERAL:
            choices = [chr(arg)]
        elif op is _constants.IN and all(kind is _constants.LITERAL for kind, _ in arg):
            choices = [chr(code) for _, code in arg]
        elif op is _constants.SUBPATTERN:
            choices = _names(arg[-1], most)
        elif op is _constants.BRANCH:
            branches = [_names(branch, most) for branch in arg[1]]
            choices = None if None in branches else [name for names in branches for name in names]
        elif op is _constants.MAX_REPEAT and arg[:2] == (0, 1):
            inner = _names(arg[2], most)
            choices = None if inner is None else [""] + inner
        else:
            return None
        if choices is None or len(found) * len(choices) > most:
            return None
        found = [a + b for a in found for b in choices]
    return found


@functools.cache
def template_parts(source: str):
    """The parts ``template_finditer`` needs of a gitleaks keyword-template pattern.

    Args:
        source: a pattern ``re`` compiles, starting with ``TEMPLATE_PREFIX`` (the template of
            gitleaks' ``generateSemiGenericRegex``) or ``PLAIN_PREFIX``.
    Returns:
        ``(rest, literals, runs)``: what follows the prefix, compiled on its own with the same
        flags (the prefix has no group, so group numbers are unchanged); the rest's
        ``required_literals``; the searches for a run of the prefix's class ending at a place, one
        per lazy prefix, the nearest the rest first (``PLAIN_PREFIX`` then ``(?i:`` and
        ``PLAIN_PREFIX`` again: two, and the rest starts at the keyword).
        ``None`` when the pattern starts otherwise or the rest has no such literals.
    Raises:
        nothing.
    """
    split = template_rest(source)
    if split is None:
        return None
    rest, runs = split
    literals = required_literals(rest)
    if literals is None:
        return None
    try:
        return compiledre.compile_cached(rest), literals, runs
    except re.error:
        return None


def template_rest(source: str) -> tuple[str, tuple] | None:
    """``(rest, runs)`` of ``template_parts`` before either is compiled or read: the pattern after its lazy
    prefix (flags kept), and the searches for a run of each prefix's class; ``None`` for another pattern."""
    prefix = next((p for p in (_DOUBLE_PREFIX, TEMPLATE_PREFIX, PLAIN_PREFIX) if source.startswith(p)), None)
    if prefix is None:
        return None
    if prefix == _DOUBLE_PREFIX:
        return "(?i:" + source[len(prefix):], (_RUN_TO_END[TEMPLATE_PREFIX], _RUN_TO_END[PLAIN_PREFIX])
    return ("(?i)" if prefix == TEMPLATE_PREFIX else "") + source[len(prefix):], (_RUN_TO_END[prefix],)


def template_finditer(pattern: re.Pattern, parts, text: str, lowered: str, pos: int, endpos: int, index=None,
                      starts: list[int] | None = None):
    """``pattern.finditer(text, pos, endpos)`` for a keyword-template pattern, ``parts`` its
    ``template_parts``: the same ``re.Match`` objects in the same order.

    A match can start at ``s`` exactly when the rest matches at some ``k`` with ``k - s <= 50``
    and ``text[s:k]`` all of the prefix's class ``[\\w.-]``. So the leftmost match from ``pos``
    starts at the first such ``k`` (the rest's candidate starts, tried in order), moved back up
    to 50 characters over the run before it (not before ``pos``); the pattern's own ``match``
    there gives it, whichever ``k`` its lazy prefix then takes. Two prefixes move it back twice,
    the second time only from where the first took all of its 50 (the ``(?i)`` class holds the
    other: a run it stopped short of ends there for both).

    Args:
        pattern: the whole compiled pattern; text, lowered, pos, endpos: as for
            ``anchored_finditer``; index: places already known, as for ``candidate_starts``;
        starts: the rest's ``candidate_starts`` over a span holding ``pos``..``endpos``, if the
            caller has them (the windows of one text share them).
    Returns:
        an iterator of ``re.Match``. Raises nothing ``finditer`` would not.
    """
    rest, literals, runs = parts
    if starts is None:
        starts = candidate_starts(text, lowered, literals, pos, endpos, index)
    at = pos
    for k in islice(starts, bisect_left(starts, pos), None):
        if k >= endpos:
            break
        if k < at or not rest.match(text, k, endpos):
            continue
        start = k
        for run in runs:
            start = run.search(text, max(at, start - _TEMPLATE_REACH), start).start()
        m = pattern.match(text, start, endpos)
        if m is None:  # cannot happen (see above); finditer from here is still right
            yield from pattern.finditer(text, at, endpos)
            return
        yield m
        at = m.end()


# gitleaks' "keyword, then an assignment, then a value" template: a match starts at most 50
# characters before its keyword, on the keyword's line, and ends within ~200 after it.
_REACH_BEFORE, _REACH_AFTER = 50, 260
# What every such rule needs right after its keyword: an assignment operator (a looser form
# of the template's own). A keyword without one cannot start a match, so its window is skipped.
_OPERATOR_AFTER = re.compile(r"""[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:|\|\||\?=|,)""")


def keyword_windows(keyword: str, text: str, lowered: str, places=None) -> list[tuple[int, int]]:
    """The windows of ``text`` a keyword-template rule is searched in around ``keyword``.

    ctxlib's own speed-up of gitleaks' whole-text search (the template's match starts at most
    50 characters before its keyword, on its line): for each occurrence of ``keyword`` in
    ``lowered`` that an operator follows (``_OPERATOR_AFTER``, matched on ``text``), the
    keyword's line from ``_REACH_BEFORE`` characters before it to the end of the line
    ``_REACH_AFTER`` characters after it.

    Args:
        keyword: lower case; text, lowered: the text and ``text.lower()``;
        places: every offset of ``keyword`` in ``lowered``, ascending, if known (else found).
    Returns:
        ``[(start, end), ...]``, character offsets, in text order. Raises nothing.
    """
    windows = []
    # Line ends are looked for on from the last place only: searched again from 0 and to the text's end for
    # each keyword, 1 MB of "key=" on one line (250,000 places) took 7.5 s.
    line_start, looked_back, line_end = 0, 0, None  # line_end: the newline after the last window (-1: none)
    for at in _occurrences(lowered, keyword, 0, len(lowered)) if places is None else places:
        if _OPERATOR_AFTER.match(text, at + len(keyword)):
            line_start = text.rfind("\n", looked_back, at) + 1 or line_start
            looked_back = at
            if line_end is None or 0 <= line_end < at + _REACH_AFTER:
                line_end = text.find("\n", at + _REACH_AFTER)
            windows.append((max(line_start, at - _REACH_BEFORE), len(text) if line_end < 0 else line_end + 1))
    return windows


@functools.cache
def _run_marks(chars: str) -> bytes:
    if "?" in chars or not chars.isascii():
        raise ValueError(f"run characters must be ASCII, without '?': {chars!r}")
    return bytes(ord("a") if chr(c) in chars else ord(" ") for c in range(256))


def run_marks(text: str, chars: str) -> bytes:
    """``text`` as bytes, one a character: ``b"a"`` where it holds one of ``chars``, ``b" "`` elsewhere (``run_finditer``'s)."""
    return text.encode("ascii", "replace").translate(_run_marks(chars))


def run_finditer(pattern: re.Pattern, text: str, chars: str, least: int, tail: int, marked: bytes | None = None,
                 lengths: frozenset | None = None, spans: list | None = None):
    """``pattern.finditer(text)`` for a pattern whose every match starts in a run of ``least`` or
    more of the ASCII characters ``chars`` and whose search from there reads no further than
    ``tail`` characters past the run (gitleaks' base64 runs, ``[A-Za-z0-9+/]{40,}={0,2}|...``:
    40, then 2). The caller vouches for that shape.

    Each maximal run is found first, then the pattern is searched from its start (or from the
    end of the previous match, if later) with ``endpos`` ``tail`` past it: the same matches in
    the same order. Runs are found in bytes, one a character (``encode("ascii", "replace")``
    turns every other character into a "?"), by ``find`` of ``least`` marks: ~20x faster than
    the pattern's own search.

    Args:
        pattern: compiled ``re``; text: the text; chars: the run's characters (ASCII, no "?");
        least: the shortest run a match needs; tail: characters a match reads past its run; marked: ``run_marks(text,
        chars)`` if the caller has it already (rules that share their characters mark the text once); lengths: the
        lengths of the runs a match can lie in, for a pattern whose every match starts where its run does (a token
        whose ends are no token characters: a kubeadm token's run is 23 or 24 long): the pattern is tried once, at the
        start of each run of those lengths, the other runs never; ``None``: searched in every run of ``least`` or more;
        spans: ``run_spans(marked, n)`` for an ``n`` no more than ``least``, if the caller has it already (the rules of
        one character set then find the runs once, not each its own).
    Returns:
        an iterator of the ``re.Match`` objects ``pattern.finditer(text)`` gives, in order.
    Raises:
        ValueError: ``chars`` holds "?" or a non-ASCII character.
    """
    if spans is None:
        spans = run_spans(run_marks(text, chars) if marked is None else marked, least)
    last = 0
    for start, end in spans:
        if end - start < least:
            continue
        if lengths is None:
            for m in pattern.finditer(text, max(start, last), min(end + tail, len(text))):
                last = m.end()
                yield m
        elif end - start in lengths and start >= last:
            m = pattern.match(text, start, min(end + tail, len(text)))
            if m:
                last = m.end()
                yield m


def run_spans(marked: bytes, least: int) -> list[tuple[int, int]]:
    """Where the runs of marked characters ``least`` or more long are.

    Each is found by ``find`` of ``least`` marks (~20x faster than a pattern's own search); ``credentials`` finds them
    once a text for all the rules whose runs are of the same characters.

    Args:
        marked: ``run_marks(text, chars)``, one byte a character of the text; least: the shortest run wanted, in
            characters.
    Returns:
        ``[(start, end), ...]``: each maximal run's offsets in the text (end exclusive), in order; ``[]`` if none.
    """
    found, first = [], b"a" * least
    at = marked.find(first)
    while at >= 0:
        start, end = marked.rfind(b" ", 0, at) + 1, marked.find(b" ", at)
        end = len(marked) if end < 0 else end
        found.append((start, end))
        at = marked.find(first, end)
    return found



def line_finditer(pattern: re.Pattern, text: str, probe: re.Pattern):
    """``pattern.finditer(text)`` for a ``(?m)^`` pattern whose every match lies in one line, from its start, and holds
    a match of ``probe`` (a ``.pgpass`` line holds ``:<port>:``): only the lines ``probe`` finds are tried, once each, with
    ``match``. The caller vouches for that shape. Returns the matches ``finditer`` gives, in order; raises nothing.
    ``line_finditer(re.compile("(?m)^a:1:b$"), "x\\na:1:b", re.compile(":1:"))`` -> the match ``"a:1:b"`` at 2."""
    at = 0
    while hit := probe.search(text, at):
        m = pattern.match(text, text.rfind("\n", 0, hit.start()) + 1)
        if m:
            yield m
        at = text.find("\n", hit.end()) + 1  # the next line: each is tried once
        if not at:
            return
