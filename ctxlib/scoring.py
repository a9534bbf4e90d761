"""Scoring a file's relevance to a task: the lesson's term-count rule.

Lesson 1, "Packing relevant files into a token budget". A file's score is how often the
query terms occur in its text, plus three times how often they occur in its file name,
ignoring case. Names count triple because a file called ``pricing.py`` is a stronger
signal than one mention of "pricing" in a long document.

A query is at most ``MAX_TERMS`` terms: each is one scan of every file, so a pasted 20,000-word
query made ``ctxlib pack --scorer terms`` scan a small repository for 84 s.

Not handled: word boundaries (``"discount"`` also counts inside ``apply_discount``, as
in Lesson 1's example), symbols, search hits or recent edits. Lesson 3 adds a code-aware scorer.
"""
from __future__ import annotations

from .i18n import N_, Worded, WordedError, WordedTypeError, shown

NAME_WEIGHT = 3
MAX_TERMS = 256  # Lesson 1's queries have 2 to 5; each term is one scan of every file


def clean_terms(query_terms) -> list[str]:
    """Lower-cased, non-blank query terms, in order.

    Args:
        query_terms: an iterable of strings, e.g. ``["Discount", "pricing"]``.
    Returns:
        ``["discount", "pricing"]``: stripped, lower-cased, blanks dropped.
    Raises:
        ValueError: if ``query_terms`` is a bare string, no non-blank term is left, or more than
            ``MAX_TERMS`` are (the message gives their number).
        TypeError: if a term is not a string.
    """
    if isinstance(query_terms, str):
        raise WordedError.of(N_("query_terms must be a list of terms, got the string {query}; try {terms}"),
                             query=shown(query_terms), terms=shown(query_terms.split()))
    terms = []
    for term in query_terms:
        if not isinstance(term, str):
            raise WordedTypeError.of(N_("each query term must be a string, got {term}"), term=shown(term))
        if term.strip():
            terms.append(term.strip().lower())
    if not terms:
        raise WordedError(Worded((N_("the query is empty: give at least one non-blank term, got {terms}"),
                                 {"terms": shown(list(query_terms))})))
    if len(terms) > MAX_TERMS:
        raise WordedError(Worded((N_("the query has {n:,} terms; the term-count scorer takes at most {most} (each is "
                                     "one scan of every file): shorten the query, or use the bm25 scorer, which keeps "
                                     "the rarest terms of a long query"), {"n": len(terms), "most": MAX_TERMS})))
    return terms


def score_file(name: str, text: str, query_terms) -> int:
    """Relevance of one file: term occurrences in the text plus 3x those in the name.

    Args:
        name: the file's path, e.g. ``"shop/pricing.py"``.
        text: the file's contents.
        query_terms: the query's terms; case is ignored.
    Returns:
        ``sum(text.count(t) + 3 * name.count(t))`` over the terms, case-insensitive, as the
        chapter this course is built from computes it.
        ``score_file("shop/cart.py", "class Cart: total discount", ["discount", "pricing"])`` -> 1.
    Raises:
        ValueError: if the query has no non-blank term, or more than ``MAX_TERMS`` (``clean_terms``).
    """
    terms = clean_terms(query_terms)
    text, name = text.lower(), name.lower()
    return sum(text.count(t) + NAME_WEIGHT * name.count(t) for t in terms)
