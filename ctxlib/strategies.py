"""Choosing what to pack: greedy by score, greedy by score per token, and the exact knapsack.

Lesson 3, "What greedy gives up". Every file offers one or more options (views of it),
each with a value and a cost in tokens; a pack takes at most one option per file and
its costs must add up to at most the budget. That is a 0/1 knapsack (with choices per
file: the multiple-choice knapsack). Three ways to fill it:

- ``greedy_by_score``: the lesson's packer. Files in rank order; each takes its first
  option that still fits. Lazy: it prices an option only when it reaches it.
- ``greedy_by_density``: all options by value per token, best first.
- ``knapsack``: the best total value, exactly, by dynamic programming over token counts;
  its table has files x (budget + 1) cells, so it refuses inputs above ``KNAPSACK_MAX_CELLS``.

``cost(option, limit)`` gives an option's tokens; it may answer any number above ``limit``
without counting when the option surely does not fit. All three return
``[(option, tokens), ...]`` in the files' rank order.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from .i18n import N_, WordedError

KNAPSACK_MAX_CELLS = 1_000_000  # ~1 s of pure-Python table filling on this course's machines


@dataclass(frozen=True, eq=False)
class Option:
    """One way to include one file: a view of it, what it is worth, and how to build its text.

    ``build`` makes the view's text (or ``None`` if the view does not exist) only when
    ``text`` is first read, so an option that is never priced costs nothing; ``min_chars``
    is a length the text is known to reach before it is built.
    """

    path: str
    view: str
    value: float
    build: Callable[[], str | None]
    min_chars: int = 0
    ranges: tuple[int, int] | None = None  # a ranges view: (ranges kept, ranges the file has)
    copies: tuple[str, ...] = ()  # other paths with the same bytes, packed once here (fit.same_bytes)

    @functools.cached_property
    def text(self) -> str | None:
        return self.build()

    @classmethod
    def of(cls, path: str, view: str, text: str, value: float) -> "Option":
        """An option whose text is already known: ``Option.of("a.py", "whole", "x = 1\n", 2.0)``."""
        return cls(path, view, value, lambda: text, len(text))


def greedy_by_score(files, budget_tokens: int, cost, *, min_tokens: int = 1, patience=None):
    """The lesson's greedy, per file the first option (best view) that fits.

    Args:
        files: an iterable, in rank order, of each file's options (best view first);
            both levels may be lazy generators.
        budget_tokens: tokens available for the blocks.
        cost: ``cost(option, limit) -> tokens``.
        min_tokens: stop once less than this is left (no block can be that small).
        patience: once something is chosen, stop after this many files in a row that fit in no
            view (``None``: never). Before the first fit it walks on, so a small budget looks as
            far as it must for the first file that fits.
    Returns:
        ``[(option, tokens), ...]``; ``greedy_walk`` returns the same with where the walk stopped.
    """
    return greedy_walk(files, budget_tokens, cost, min_tokens=min_tokens, patience=patience).chosen


@dataclass(frozen=True)
class Walk:
    """A greedy walk: ``chosen`` ``[(option, tokens)]``, how many files it ``reached`` (took from the
    ranking), and ``stopped_after``: the misses in a row that ended it (0 if patience did not).

    Footholds first also gives ``stopped_at``, ``(path, tokens, left)``: the file whose cheapest view
    (``tokens``) did not fit in the ``left`` tokens and stopped the walk (``()``: it did not stop), and
    ``waiting``, the deferred files it took from the ranking but never tried because of that stop.
    """

    chosen: list
    reached: int
    stopped_after: int = 0
    stopped_at: tuple = ()
    waiting: tuple = ()


def greedy_walk(files, budget_tokens: int, cost, *, min_tokens: int = 1, patience=None, not_a_miss=()) -> Walk:
    """``greedy_by_score``, returning a ``Walk``: the same choice, plus how far down the ranking it went.

    The file taken from ``files`` when the walk stops (less than ``min_tokens`` left, or patience
    run out) counts as reached: the walk looked at it and took nothing more. A file whose path is
    in ``not_a_miss`` once priced (refused for a secret) does not count toward ``patience``.
    """
    chosen, room, misses, reached = [], budget_tokens, 0, 0
    for options in files:
        reached += 1
        if patience is not None and chosen and misses >= patience:
            return Walk(chosen, reached, misses)
        if room < min_tokens:
            break
        option = None
        for option in options:
            tokens = cost(option, room)
            if tokens <= room:
                chosen.append((option, tokens))
                room -= tokens
                misses = 0
                break
        else:
            if option is None or option.path not in not_a_miss:
                misses += 1
    return Walk(chosen, reached)


DEFER_TOKENS = 8_000  # a foothold above this waits for every other file's; set below 13,000, the benchmark's smallest budget (not tuned)


def footholds_first(files, budget_tokens: int, cost, *, refused=frozenset(), defer_tokens: int = DEFER_TOKENS) -> Walk:
    """Greedy that more budget never makes lose a file: footholds in rank order, then widening.

    Args:
        files, budget_tokens, cost: as ``greedy_by_score``.
        refused: paths refused for their content (a secret) once priced: passed over, at every budget.
        defer_tokens: a file whose foothold costs more tokens than this is deferred (see 2).
    Returns:
        a ``Walk``; ``reached`` counts the files taken from ``files``; ``stopped_at`` names the
        file that stopped step 1 or 2 (its cheapest view's tokens, the tokens then left).

    1. In rank order, each file's foothold (its shortest option, in characters, whatever the
       budget) is taken while it fits in what is left; the walk stops at the first that does not.
       Options are looked at by the length they are known to reach (``Option.min_chars``), and
       one is built only while it can still be the shortest (a file's signatures are not parsed
       when its first hit range is already shorter than their outline).
       A file with no view, ``refused``, or whose foothold alone is over the whole budget is passed over.
    2. A file whose foothold is over ``defer_tokens`` (minified JavaScript, a data table: whatever
       its shortest view, it would take most of a budget) is deferred: only once every other
       file's foothold is in are the deferred files taken, in rank order, while they fit.
    3. In rank order again, each taken file is widened to its richest option (before the foothold
       in its ladder) that fits in what is left plus its foothold's tokens.

    The rule: between any two budgets of at least ``defer_tokens`` tokens, more budget never loses
    a file. There no foothold of step 1 is over the whole budget, so the files taken are a prefix
    of one order that does not depend on the budget (the ranking with the deferred files moved to
    its end, less the files with no view or refused): a larger budget holds the same prefix, and
    maybe more. Widening changes views, never which files. Below ``defer_tokens`` a file passed
    over for a foothold over the whole budget can, at a budget that holds it, push a later file
    out (the one way to lose a file; ``greedy_by_score`` has more). ``DEFER_TOKENS`` is below the
    smallest budget of the benchmark (13,000). Deferred files come last in the result.
    """
    room, taken, deferred, reached, stopped_at, waiting = budget_tokens, [], [], 0, (), ()

    def foothold_of(options):
        # The shortest option (ties: the most valuable), whatever the budget. Options are taken by the
        # length they are known to reach (``min_chars``), and one is built only if it can still be the
        # shortest: a file's signatures are not parsed when its hit range is shorter than their outline.
        options, best = list(options), None
        for option in sorted(options, key=lambda o: o.min_chars):
            if best is not None and option.min_chars > len(best.text):
                break
            if option.text is not None and (best is None or (len(option.text), -option.value)
                                            < (len(best.text), -best.value)):
                best = option
        return options, best

    for options in files:  # lazily: a file's views are built only when the walk reaches it
        reached += 1
        ladder, foothold = foothold_of(options)  # ladder: every option, built or not
        if foothold is None:
            continue
        tokens = cost(foothold, max(room, defer_tokens))
        if foothold.path in refused:
            continue
        if tokens > defer_tokens:
            deferred.append((ladder, foothold))
            continue
        if tokens > budget_tokens:
            continue  # too big for the whole budget: passed over (only below defer_tokens)
        if tokens > room:
            stopped_at, waiting = (foothold.path, tokens, room), tuple(f.path for _, f in deferred)
            break
        taken.append((ladder, foothold, tokens))
        room -= tokens
    else:  # every other foothold is in: the deferred ones, in rank order, while they fit
        for i, (ladder, foothold) in enumerate(deferred):
            tokens = cost(foothold, room)
            if foothold.path in refused:
                continue
            if tokens > room:
                stopped_at, waiting = (foothold.path, tokens, room), tuple(f.path for _, f in deferred[i + 1:])
                break
            taken.append((ladder, foothold, tokens))
            room -= tokens
    chosen = []
    for ladder, foothold, tokens in taken:
        best = (foothold, tokens)
        for option in ladder[:ladder.index(foothold)]:
            wider = cost(option, room + tokens)
            if wider <= room + tokens:
                best = (option, wider)
                break
        room -= best[1] - tokens
        chosen.append(best)
    return Walk(chosen, reached, stopped_at=stopped_at, waiting=waiting)


def same_bytes(files: dict[str, str], paths) -> tuple[dict, dict]:
    """Files of ``paths`` (best ranked first) with the same contents: packed once, under the first path.

    Returns ``(copies, later)``: ``copies`` maps each first path to the other paths, in rank
    order; ``later`` maps each other path to its first. Only texts of equal length are compared,
    so a tree without copies costs one ``len`` per file.
    ``same_bytes({"a.py": "x", "b.py": "x", "c.py": "y"}, ["b.py", "a.py", "c.py"])`` ->
    ``({"b.py": ("a.py",)}, {"a.py": "b.py"})``.
    """
    by_length: dict[int, list[str]] = {}
    for path in paths:
        by_length.setdefault(len(files[path]), []).append(path)
    copies, later = {}, {}
    for group in by_length.values():
        for i, path in enumerate(group):
            if path in later:
                continue
            same = tuple(p for p in group[i + 1:] if p not in later and files[p] == files[path])
            if same:
                copies[path] = same
                later.update(dict.fromkeys(same, path))
    return copies, later


def _priced(files, budget_tokens, cost):
    priced = []
    for rank, options in enumerate(files):
        fitting = [(o, t) for o in options if (t := cost(o, budget_tokens)) <= budget_tokens]
        if fitting:
            priced.append((rank, fitting))
    return priced


def greedy_by_density(files, budget_tokens: int, cost):
    """Options by value per token, highest first; each file at most once.

    Same arguments as ``greedy_by_score`` (``files`` is read in full). Ties keep rank order.
    """
    ranked = [(o.value / max(t, 1), rank, o, t)
              for rank, options in _priced(files, budget_tokens, cost) for o, t in options]
    ranked.sort(key=lambda row: (-row[0], row[1]))
    taken, room = {}, budget_tokens
    for _, rank, option, tokens in ranked:
        if rank not in taken and tokens <= room:
            taken[rank] = (option, tokens)
            room -= tokens
    return [taken[rank] for rank in sorted(taken)]


def knapsack(files, budget_tokens: int, cost, *, max_cells: int = KNAPSACK_MAX_CELLS):
    """The most valuable pack that fits, exactly: dynamic programming over token counts.

    ``best[c]`` is the highest value reachable with at most ``c`` tokens using the files
    seen so far; each file either adds nothing or one of its options. Same arguments as
    ``greedy_by_score``, plus ``max_cells``.
    Raises:
        ValueError: when files x (budget + 1) exceeds ``max_cells`` (too slow to be worth it).
    """
    priced = _priced(files, budget_tokens, cost)
    cells = len(priced) * (budget_tokens + 1)
    if cells > max_cells:
        raise WordedError.of(N_("the exact knapsack needs {files} files x {counts:,} token counts = {cells:,} table cells, "
                                "above its limit of {limit:,}; use the greedy or density strategy, a smaller budget, or "
                                "a narrower query"), files=len(priced), counts=budget_tokens + 1, cells=cells, limit=max_cells)
    best = [0.0] * (budget_tokens + 1)
    picks = []  # per file: which option reached best[c], or -1 for none
    for _, options in priced:
        new, pick = best[:], [-1] * (budget_tokens + 1)
        for k, (option, tokens) in enumerate(options):
            for c in range(tokens, budget_tokens + 1):
                if best[c - tokens] + option.value > new[c]:
                    new[c], pick[c] = best[c - tokens] + option.value, k
        best = new
        picks.append(pick)
    chosen, c = [], budget_tokens
    for (_, options), pick in zip(reversed(priced), reversed(picks)):
        if pick[c] >= 0:
            option, tokens = options[pick[c]]
            chosen.append((option, tokens))
            c -= tokens
    return chosen[::-1]
