"""Reading a regular expression once: the literals every match of it contains (``required_literals``).

``regexscan`` searches for those literals with ``str.find`` and tries the pattern only where a match could start.
The reading walks the standard library's own parse of the pattern (``re._parser``); it gives up (``None``) on
anything it does not prove. The secret rules' patterns are read once, by ``tools/rule_literals.py``, and their
readings ship in ``data/rule_literals.json`` (``KNOWN_READINGS``) for the Pythons that gave them.
"""
from __future__ import annotations

import functools
import json
import re
import sys
import warnings
from pathlib import Path
from re import _parser  # the standard library's own parser (Python 3.11+); read only

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


# The readings of the shipped rules' patterns (tools/rule_literals.py writes them with _read_literals), with the
# Pythons whose parser gave each of them: reading ~300 patterns cost ~0.4 ms each in every process that scans.
KNOWN_READINGS = Path(__file__).with_name("data") / "rule_literals.json"


@functools.cache
def known_readings() -> dict[str, tuple | None]:
    """``{pattern: required_literals(pattern)}`` for the shipped rules, from ``KNOWN_READINGS``; ``{}`` when this
    Python is not one the file was made with (its parser may read a pattern otherwise) or the file is unreadable."""
    try:
        stored = json.loads(KNOWN_READINGS.read_text(encoding="utf-8"))
        if f"{sys.version_info[0]}.{sys.version_info[1]}" not in stored["python"]:
            return {}
        return {source: None if found is None else tuple(tuple(entry) for entry in found)
                for source, found in stored["readings"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


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
    known = known_readings()
    return known[source] if source in known else _read_literals(source)


def _read_literals(source: str) -> tuple | None:
    # required_literals' reading, made here (the shipped rules' are in KNOWN_READINGS)
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
