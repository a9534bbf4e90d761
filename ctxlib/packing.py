"""Packing files into a token budget: the lesson's greedy packer.

Lesson 1, "Packing relevant files into a token budget". Sort the files by score, highest
first (ties keep their given order); walk down the list; skip a file that scores zero;
skip a file that does not fit in what is left of the budget and keep going, since a
smaller file further down may still fit. The total never exceeds the budget.

Not handled: partial files (line ranges, signatures) and better-than-greedy choices;
Lesson 3's packer adds both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .ceiling import is_whole_number, shown_count
from .i18n import N_, WordedError, shown
from .reasons import Reason, Skipped
from .scoring import clean_terms, score_file
from .tokens import estimate_tokens


@dataclass
class Packed:
    """The packer's result: files chosen with their costs, tokens used, and why others were left."""

    chosen: list[tuple[str, int]]
    used: int
    budget: int
    skipped: list[Skipped] = field(default_factory=list)

    def __iter__(self):
        # So that ``chosen, used = pack_context(...)`` reads as it does in the chapter this course is built from.
        return iter((self.chosen, self.used))


def check_budget(budget) -> int:
    """``budget`` if it is a positive whole number of tokens, else ``ValueError`` naming it."""
    if not is_whole_number(budget, 1):
        raise WordedError.of(N_("budget must be a positive whole number of tokens, got {budget}"), budget=shown_count(budget))
    return budget


def pack_context(files: dict[str, str], query_terms, budget: int, count=estimate_tokens) -> Packed:
    """Choose the most relevant files that fit in ``budget`` tokens, greedily.

    Args:
        files: ``{file name: text}``.
        query_terms: the task's terms, e.g. ``["discount", "pricing"]``.
        budget: the token budget, a positive int (tokens).
        count: ``text -> tokens``; the rough 4-characters rule by default, or
            ``ctxlib.tokens.token_counter("o200k_base")`` for exact counts.
    Returns:
        a ``Packed``: ``chosen`` as ``[(name, tokens), ...]`` in packing order, ``used``
        tokens (<= budget), and ``skipped``: ``Skipped(name, Reason.SCORES_ZERO)`` or
        ``Skipped.of(name, Reason.NO_ROOM, cost=46, left=23)`` (``reasons.py``). It unpacks as
        ``chosen, used``. On Lesson 1's four files with budget 300:
        ``[('shop/pricing.py', 77), ('tests/test_pricing.py', 46), ('shop/cart.py', 27)]``, 150.
    Raises:
        ValueError: if the budget is not a positive int, or the query is empty.
    """
    check_budget(budget)
    terms = clean_terms(query_terms)
    scores = {name: score_file(name, text, terms) for name, text in files.items()}
    chosen, skipped, used = [], [], 0
    for name in sorted(files, key=lambda n: -scores[n]):
        if scores[name] == 0:
            skipped.append(Skipped(name, Reason.SCORES_ZERO))
            continue
        cost = count(files[name])
        if used + cost > budget:
            skipped.append(Skipped.of(name, Reason.NO_ROOM, cost=cost, left=budget - used))
            continue
        chosen.append((name, cost))
        used += cost
    return Packed(chosen=chosen, used=used, budget=budget, skipped=skipped)


def percent_text(pct) -> str:
    """A percentage as typed, never rounded: ``percent_text(50.0)`` -> ``"50"``, ``percent_text(99.9999999)``
    -> ``"99.9999999"`` (``f"{pct:g}"`` said ``"100"``, a margin that would leave nothing)."""
    return repr(float(pct)).removesuffix(".0")


def budget_after_margin(budget_tokens: int, margin_pct: float) -> int:
    """The budget to pack for when ``margin_pct`` percent of ``budget_tokens`` must stay free.

    Args:
        budget_tokens: the hard budget, in tokens of the encoding packed for.
        margin_pct: the share to leave free, 0 <= pct < 100; for a model whose tokenizer is not
            shipped (cl100k_base counts a Hindi text ~80% above o200k_base, code ~5-10%).
    Returns:
        ``budget_tokens`` less the margin, rounded down: ``budget_after_margin(2000, 10)`` -> 1800.
    Raises:
        ValueError: a budget that is not a positive whole number, a margin outside [0, 100),
            or a margin that leaves no token.
    """
    check_budget(budget_tokens)
    if isinstance(margin_pct, bool) or not isinstance(margin_pct, (int, float)) or not 0 <= margin_pct < 100:
        raise WordedError.of(N_("margin must be a percentage from 0 up to (not including) 100, got {margin}"),
                              margin=shown(margin_pct))
    left = int(budget_tokens * (100 - Fraction(margin_pct)) // 100)  # exact: 10**23 is not rounded
    if left < 1:
        raise WordedError.of(N_("a margin of {margin}% leaves nothing of a budget of {budget:,} tokens"),
                              margin=percent_text(margin_pct), budget=budget_tokens)
    return left
