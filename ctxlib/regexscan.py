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
import warnings
from bisect import bisect_left
from itertools import islice
from re import _parser  # the standard library's own parser (Python 3.11+); read only

# Letters ``re`` matches to an ASCII letter under IGNORECASE that ``str.lower()`` does not
# lower to it ("ı" -> "i", "ſ" -> "s"); tests/test_regexscan.py checks every code point.
CASE_FOLD_EXCEPTIONS = "\u0131\u017f"
_MAX_SPREAD = 64  # a literal further apart than this in where it can sit is not used
_UNITS = {_parser.ANY, _parser.IN, _parser.LITERAL, _parser.NOT_LITERAL, _parser.RANGE, _parser.CATEGORY}
_REPEATS = {_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT}


class _GiveUp(Exception):
    pass


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _literal_char(op, av, icase: bool) -> tuple[str, bool] | None:
    """``(character, case-blind)`` if the item matches one character that a literal can stand
    for: a literal (an ``(?i)`` one only if ASCII), or a set of an ASCII letter's two cases."""
    if op is _parser.LITERAL:
        return None if icase and av > 127 else (chr(av), icase)
    if op is _parser.IN and len(av) == 2 and all(o is _parser.LITERAL for o, _ in av):
        a, b = chr(av[0][1]), chr(av[1][1])
        if a != b and a.isascii() and a.isalpha() and a.lower() == b.lower():
            return a.lower(), True
    return None


def _width(items) -> tuple[int, int | None]:
    lo, hi = items.getwidth()
    return lo, (None if hi >= _parser.MAXREPEAT else hi)


def _walk(items, flags: int, lo: int, hi: int | None, found: list) -> tuple[int, int | None]:
    """Append to ``found`` the requirements of the sequence ``items`` that starts ``lo``..``hi``
    characters after the match's start; return where it ends (same form)."""
    run, run_at, run_icase = [], None, False  # a literal being read: characters, offsets, case-blind
    icase = bool(flags & re.IGNORECASE)

    def flush():
        if run:
            literal = "".join(run)
            found.append((((literal.lower() if run_icase else literal), run_icase, run_at[0], run_at[1]),))
            run.clear()

    for op, av in items:
        char = _literal_char(op, av, icase)
        if char is not None:
            # A case-blind character makes the whole literal case-blind (it then holds more
            # places, never fewer), but not one with a non-ASCII character (whose lower case
            # may depend on its neighbours): that literal ends first.
            if (run_icase or char[1]) and not all(c.isascii() for c in run + [char[0]]):
                flush()
            if not run:
                run_at, run_icase = (lo, hi), False
            run.append(char[0])
            run_icase = run_icase or char[1]
            lo, hi = lo + 1, _add(hi, 1)
            continue
        flush()
        if op in _UNITS:
            lo, hi = lo + 1, _add(hi, 1)
        elif op is _parser.AT or op is _parser.ASSERT or op is _parser.ASSERT_NOT:
            pass  # zero width; what a lookaround holds is not part of the match
        elif op is _parser.SUBPATTERN or op is _parser.ATOMIC_GROUP:
            if op is _parser.SUBPATTERN:
                _group, add, remove, sub = av
                inner = (flags | add) & ~remove
            else:
                sub, inner = av, flags
            if inner & re.LOCALE:
                raise _GiveUp
            end_lo, end_hi = _walk(sub, inner, lo, hi, found)
            lo, hi = end_lo, end_hi
        elif op is _parser.BRANCH:
            options = []
            for alternative in av[1]:
                own = []
                _walk(alternative, flags, lo, hi, own)
                if not own:
                    options = None
                    break
                options.append(_best(own))
            if options:
                found.append(tuple(a for option in options for a in option))
            w_lo, w_hi = _width(_parser.SubPattern(items.state, [(op, av)]))
            lo, hi = lo + w_lo, _add(hi, w_hi)
        elif op in _REPEATS:
            least, most, sub = av
            if least >= 1:  # the first repetition must be there, where the repeat starts
                _walk(sub, flags, lo, hi, found)
            w_lo, w_hi = _width(sub)
            lo = lo + least * w_lo
            hi = None if most == _parser.MAXREPEAT and w_hi != 0 else _add(hi, None if w_hi is None else most * w_hi)
        else:  # back references, conditionals, anything new: nothing known after this point
            lo, hi = lo, None
    flush()
    return lo, hi


def _cost(requirement) -> float:
    # Rough number of candidate starts per character of text: a literal of n characters is
    # taken to occur once in 20**n places, each occurrence giving spread + 1 starts.
    total = 0.0
    for literal, _icase, lo, hi in requirement:
        if hi is None or hi - lo > _MAX_SPREAD:
            return float("inf")
        total += (hi - lo + 1) / 20.0 ** len(literal)
    return total


def _best(requirements):
    """The cheapest of ``requirements`` to search by (fewest candidate starts expected)."""
    return min(requirements, key=_cost)


@functools.cache
def required_literals(source: str) -> tuple | None:
    """Literals every match of the ``re`` pattern ``source`` contains, at bounded offsets.

    Args:
        source: a pattern the standard ``re`` compiles (flags inline, as gitleaks writes them).
    Returns:
        ``((literal, ignorecase, lo, hi), ...)``: every match starting at ``s`` has, for at
        least one entry, ``literal`` at ``s + d`` for some ``lo <= d <= hi`` (lower-cased when
        ``ignorecase``); the entry set expected to give the fewest candidate starts. ``None``
        when no such set is proved: no literal outside a lookaround, repeat or alternative
        without one, an unbounded or wide (over 64 characters) spread before it, a locale
        flag, a pattern ``re`` cannot parse. ``r"\\bey[a-z]{3}"`` -> ``(("ey", False, 0, 0),)``;
        ``r"(?i)x{1,5}(?:key|pass)"`` -> ``(("key", True, 1, 5), ("pass", True, 1, 5))``.
    Raises:
        nothing: anything the reading does not understand gives ``None``.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a pattern re reads with a warning is not read here
            parsed = _parser.parse(source)
        if parsed.state.flags & re.LOCALE:
            return None
        found = []
        _walk(parsed, parsed.state.flags, 0, 0, found)
    except Exception:  # _GiveUp, a parse error, or a parser of a later Python that differs
        return None
    usable = [r for r in found if _cost(r) != float("inf")]
    return _best(usable) if usable else None


def case_safe(text: str, lowered: str) -> bool:
    """Whether ``lowered`` (``text.lower()``) holds, at the same offsets, every place an
    ASCII literal of an ``(?i)`` pattern can match in ``text`` (``re``'s case folding).

    True for an ASCII text; else when both have the same length (one character for one: no
    "İ", which lowers to two) and ``text`` holds none of ``CASE_FOLD_EXCEPTIONS``. Raises nothing.
    """
    return text.isascii() or (len(lowered) == len(text) and not any(c in text for c in CASE_FOLD_EXCEPTIONS))


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
    Returns:
        the sorted offsets ``s`` in ``pos``..``endpos`` with, for some entry, its literal at
        ``s + d``, ``lo <= d <= hi``, inside ``endpos``: every place a match can start, and more.
    Raises:
        nothing.
    """
    places, indexed = index if index is not None else ({}, ())
    aligned = len(lowered) == len(text)
    starts: set[int] = set()
    for literal, icase, lo, hi in literals:
        key = literal if icase else literal.lower()
        exact = None
        if key in indexed and (icase or (aligned and literal.isascii())):
            offsets = places.get(key, ())
            found, limit = islice(offsets, bisect_left(offsets, pos + lo), None), endpos - len(literal)
            exact = None if icase or literal == key else literal
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
    places, indexed = index
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
    prefix = next((p for p in (_DOUBLE_PREFIX, TEMPLATE_PREFIX, PLAIN_PREFIX) if source.startswith(p)), None)
    if prefix is None:
        return None
    if prefix == _DOUBLE_PREFIX:
        rest, runs = "(?i:" + source[len(prefix):], (_RUN_TO_END[TEMPLATE_PREFIX], _RUN_TO_END[PLAIN_PREFIX])
    else:
        rest, runs = ("(?i)" if prefix == TEMPLATE_PREFIX else "") + source[len(prefix):], (_RUN_TO_END[prefix],)
    literals = required_literals(rest)
    if literals is None:
        return None
    try:
        return re.compile(rest), literals, runs
    except re.error:
        return None


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


def run_finditer(pattern: re.Pattern, text: str, chars: str, least: int, tail: int, marked: bytes | None = None):
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
        chars)`` if the caller has it already (rules that share their characters mark the text once).
    Returns:
        an iterator of the ``re.Match`` objects ``pattern.finditer(text)`` gives, in order.
    Raises:
        ValueError: ``chars`` holds "?" or a non-ASCII character.
    """
    marked, first = run_marks(text, chars) if marked is None else marked, b"a" * least
    last, at = 0, marked.find(first)
    while at >= 0:
        start, end = marked.rfind(b" ", 0, at) + 1, marked.find(b" ", at)
        end = len(marked) if end < 0 else end
        for m in pattern.finditer(text, max(start, last), min(end + tail, len(text))):
            last = m.end()
            yield m
        at = marked.find(first, end)

