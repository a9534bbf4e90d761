"""Why no pack could be made, in words for any of the course's languages.

``fit.pack_ranked`` raises ``i18n.WordedError`` with one of these: ``str(error)`` is the English, and
``ctxlib pack --lang hi`` (or a Hindi locale) prints ``error.text("hi")``. Each names what the user can
change: the query when no file matches it (and the files that could not be read, which may be why),
or the budget when the best match does not fit in any view (with what its smallest view needs).
"""
from __future__ import annotations

import collections

from .bm25 import shorten
from .i18n import N_, N_n, Worded, shown
from .reasons import Reason, Skipped

# What reading left out unread: text the query could have matched. Not binaries (no words), nor what
# ignore rules or the credential rules left out (the user's choice, or never searched).
UNREAD = frozenset({Reason.TOO_BIG, Reason.CANNOT_READ, Reason.TOO_DEEP, Reason.NUMBER_TOO_LONG,
                    Reason.FOLDER_UNREADABLE, Reason.TOO_MANY_IGNORE_FILES, Reason.PATH_TOO_LONG})


def no_match(query, files_read: int, skipped=()) -> Worded:
    """"no file matches the query 'x' (12 files read; 1 left out when read, such as big.py: ...)".

    Args:
        query: the query as given (shown by its start when long, ``bm25.shorten``).
        files_read: how many files were read and ranked.
        skipped: ``reasons.Skipped`` entries from reading; the first of those left out unread is named, or, when
            no file was read, the first of those skipped for the commonest reason (``--include "*.rs"`` in a
            Python project: "0 files read; 545 left out when read, such as a.py: not matched by --include").
    Returns:
        a ``Worded`` (English as a ``str``; ``text(lang)`` for another language).
    """
    parts = [(N_("no file matches the query {query} ("), {"query": shown(shorten(query))}),
             (*N_n("{n:,} file read", "{n:,} files read"), files_read, {})]
    left_out = [s for s in skipped if isinstance(s, Skipped) and s.code in UNREAD]
    if not left_out and not files_read:  # nothing read at all: the commonest reason says why (--include matched none)
        codes = collections.Counter(s.code for s in skipped if isinstance(s, Skipped))
        commonest = codes.most_common(1)[0][0] if codes else None
        left_out = [s for s in skipped if isinstance(s, Skipped) and s.code is commonest]
    if left_out:
        parts.append((N_("; {n:,} left out when read, such as {path}: {reason}"),
                      {"n": len(left_out), "path": shorten(left_out[0].path), "reason": left_out[0]}))
    return Worded(*parts, (N_(")"), {}))


def refused_best(best: str, reason: Skipped, more: int) -> Worded:
    """"nothing was packed: the best match, a.py, was refused (...)[, and 2 more like it]": the budget is
    not the problem when the best matches were refused for their content. ``more``: how many others were."""
    parts = [(N_("nothing was packed: the best match, {path}, was refused ({reason})"), {"path": best, "reason": reason})]
    if more:
        parts.append((N_(", and {more:,} more like it"), {"more": more}))
    return Worded(*parts)


def budget_too_small(budget_tokens: int, path: str, need: int | None, view: str, fmt: str, encoding: str) -> Worded:
    """"a budget of 50 tokens is too small for anything: the best match, a.py, needs 61 tokens in its
    smallest view (text format, o200k_base)". ``need``: the tokens of its smallest view, as a pack holding it
    alone; ``None`` when the file has no ``view`` view at all."""
    need_part = ((N_("the best match, {path}, needs {need:,} tokens in its smallest view"), {"path": path, "need": need})
                 if need is not None else (N_("the best match, {path}, has no {view} view"), {"path": path, "view": view}))
    return Worded((*N_n("a budget of {n:,} token", "a budget of {n:,} tokens"), budget_tokens, {}),
                  (N_(" is too small for anything: "), {}), need_part,
                  (N_(" ({fmt} format, {encoding})"), {"fmt": fmt, "encoding": encoding}))
