"""Code-aware relevance: BM25 over identifier parts, with file-name and path matches weighted.

Lesson 3, "A better scorer". The lesson's baseline (``scoring.py``) counts substrings, so
``"vat"`` scores inside ``private`` and ``activate``, and a long document full of the query
words beats the short module that implements them. BM25 (Robertson and Zaragoza, "The
Probabilistic Relevance Framework: BM25 and Beyond", 2009) fixes both: a term counts only
as a whole identifier part, repeats saturate, long files are normalised by length, and
rare terms weigh more than common ones. Per query term ``t`` and file ``d``:

    idf(t)  = ln(1 + (N - df + 0.5) / (df + 0.5))       N files, df of them contain t
    body(t) = tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len))      BM25's term weight
    score   = sum over t of  idf(t) * (body(t) + NAME_WEIGHT * [t in the file name]
                                              + DIR_WEIGHT * [t in a folder name])

``body`` saturates below k1 + 1 = 2.2 however often a term repeats, so a file-name match
(NAME_WEIGHT = 2.0) is worth about as much as a body full of the term: ``vat.py`` outranks
a long handbook that says "VAT" a hundred times. Fields scored apart and added with boosts
is how search engines weight a title (Lucene's multi-field queries). ``len`` is the body's
length in characters, not terms: only its ratio to the average enters, and it spares
splitting every file into terms. k1 = 1.2 and b = 0.75 are the usual defaults (Lucene's too).

Long queries (a pasted issue with a log) are bounded before scoring: ``select_terms`` keeps
the distinct terms, drops those that occur in no file and, past ``MAX_QUERY_TERMS``, keeps the
most informative ones (held by fewest files, so highest idf), so the cost grows with the terms
that can matter, not with the query's length. Rarity comes from one pass that lists each file's
words (``words_by_file``), which also tells ``bm25_scores`` where each kept term can be: past
the cap, a query costs that one pass plus its rare terms, not a scan of the tree per term.
``plain_bm25_scores`` is textbook BM25 on lower-case words, no fields: ``ctxlib eval``'s baseline.

Not handled: stemming (``invoices`` is not ``invoice``; ``ranking.py`` stems file names), words glued
without a case change or underscore (``urlparse`` is one term), non-ASCII identifiers, phrase queries.
"""
from __future__ import annotations

import collections
import functools
import itertools
import math
import re
from dataclasses import dataclass, field

from . import identical
from .i18n import N_, Worded, WordedError, shown

K1 = 1.2
B = 0.75
NAME_WEIGHT = 2.0  # "vat" in vat.py: about what a body saturated with "vat" earns (< 2.2)
DIR_WEIGHT = 0.5  # "billing" in billing/invoice.py: weaker, a folder holds many files
MAX_QUERY_TERMS = 24  # a longer query keeps its 24 rarest terms (a 5,000-word pasted issue has ~190)
MAX_INSIDE_SCANS = 8 * MAX_QUERY_TERMS  # terms looked for inside words; later ones, found as no word, are dropped
# (16 cost the ranking benchmark 0.012 of MRR; up to 24 a query is scored whole, as it is written)

# One identifier part: an acronym (HTTP in HTTPServer), a word with an optional capital, or digits.
_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")


def code_terms(text: str) -> list[str]:
    """Split ``text`` into lower-case identifier parts, in order.

    ``code_terms("computeVatRate(vat_rate) HTTPServer shop/vat2.py")`` ->
    ``['compute', 'vat', 'rate', 'vat', 'rate', 'http', 'server', 'shop', 'vat', '2', 'py']``.
    """
    return [part.lower() for part in _PART.findall(text)]


def query_terms(query) -> list[str]:
    """The distinct code terms of ``query`` (a string or a list of strings), in order.

    ``query_terms("VAT invoice computeVatRate")`` -> ``['vat', 'invoice', 'compute', 'rate']``.
    Raises ``ValueError`` if no term is left (an empty or punctuation-only query).
    """
    text = query if isinstance(query, str) else " ".join(query)
    terms = list(dict.fromkeys(code_terms(text)))
    if not terms:  # code terms are ASCII identifiers; the lesson's term-count scorer matches any script
        raise _no_words(text, *[(N_(": BM25 here reads ASCII identifiers only; for other scripts use the terms "
                                    "scorer"), {})] * any(ch.isalpha() and not ch.isascii() for ch in text))
    return terms


def _no_words(text: str, *more) -> WordedError:
    return WordedError(Worded((N_("the query has no words to search for, got {query}"), {"query": shown(shorten(text))}), *more))


def _is_whole_part(text: str, i: int, n: int) -> bool:
    # True when text[i:i+n] is one whole part as _PART would split it; the same rules, by hand,
    # so a file is scanned with str.find (fast) instead of being split entirely.
    word = text[i:i + n]
    before = text[i - 1] if i > 0 else " "
    after = text[i + n] if i + n < len(text) else " "
    if not word.isascii():
        return False
    if word.isdigit():
        return before not in _DIGITS and after not in _DIGITS
    if after in _LOWER:
        return False
    if word.isupper():  # an acronym ends where a capitalised word begins: VAT|Rate
        after2 = text[i + n + 1] if i + n + 1 < len(text) else " "
        return before not in _UPPER and not (after in _UPPER and after2 not in _LOWER)
    if word.islower():
        return before not in _LOWER and before not in _UPPER
    return word[0] in _UPPER and word[1:].islower()


def term_positions(text: str, term: str, lowered: str | None = None) -> list[int]:
    """Character offsets where ``term`` (lower case) occurs in ``text`` as a whole identifier part.

    Args:
        text: the file's text.
        term: one lower-case term, e.g. ``"vat"``.
        lowered: ``text.lower()`` if the caller already has it (saves a pass when ``term`` is
            neither all letters nor all digits; code terms always are one or the other).
    Returns:
        the offsets, ascending; as many as ``code_terms(text).count(term)``.
        ``term_positions("vat_rate = computeVatRate(); private", "vat")`` -> ``[0, 18]``. None for ``""``.
    """
    patterns = _whole_part_patterns(term)
    if patterns or not term:  # C-speed scans, no Python call per occurrence; no part is empty ("": IndexError)
        return sorted(m.start() for p in patterns for m in p.finditer(text))
    lowered = text.lower() if lowered is None else lowered
    if len(lowered) != len(text):  # a few characters (e.g. "İ") lower-case to two
        return [m.start() for m in _PART.finditer(text) if m.group().lower() == term]
    found, i = [], lowered.find(term)
    while i >= 0:
        if _is_whole_part(text, i, len(term)):
            found.append(i)
        i = lowered.find(term, i + 1)
    return found


@functools.lru_cache(maxsize=1024)
def _whole_part_patterns(term: str) -> tuple[re.Pattern, ...]:
    # _is_whole_part's rules as regexes, one per way of writing the term (none unless it is all
    # ASCII digits or all lower-case ASCII letters): "vat" finds vat_rate's "vat", computeVatRate's
    # "Vat" and VATRate's "VAT", never "vat" in private or "VAT" in VATS. Each pattern starts with
    # its literal, so the regex engine jumps between candidates at C speed; the check of the
    # character before comes after it, as a lookbehind over the literal.
    if term.isascii() and term.isdigit():
        return (re.compile(rf"{term}(?<![0-9]{term})(?![0-9])"),)
    if not (term.isascii() and term.isalpha() and term.islower()):
        return ()
    upper = term.upper()
    forms = [rf"{term}(?<![A-Za-z]{term})(?![a-z])",  # vat: no letter before, no lower-case letter after
             rf"{upper}(?<![A-Z]{upper})(?![a-z])(?![A-Z](?![a-z]))"]  # VAT: the acronym ends here
    if len(term) > 1:
        forms.append(rf"{term.capitalize()}(?![a-z])")  # Vat: a capital starts a part anywhere
    return tuple(re.compile(f) for f in forms)


def count_term(text: str, term: str, lowered: str | None = None) -> int:
    """How often ``term`` occurs in ``text`` as a whole identifier part (see ``term_positions``).

    ``count_term("vat_rate = computeVatRate(); private", "vat")`` -> 2; the baseline counts 3.
    """
    patterns = _whole_part_patterns(term)
    if patterns:
        return sum(len(p.findall(text)) for p in patterns)
    return len(term_positions(text, term, lowered))


@dataclass(frozen=True)
class TermScore:
    """One query term's share of a file's score, with everything that went into it."""

    term: str
    body_tf: int
    in_name: bool
    in_folders: bool
    idf: float
    body_weight: float
    score: float


@dataclass(frozen=True)
class FileScore:
    """A file's BM25 score and its per-term breakdown (why it ranked where it did)."""

    path: str
    score: float
    terms: tuple[TermScore, ...]


@dataclass(frozen=True)
class Selected:
    """The query terms BM25 scores, and the distinct terms it left out and why."""

    terms: tuple[str, ...]
    absent: tuple[str, ...] = ()  # occur in no file: they cannot change any score
    capped: tuple[str, ...] = ()  # past MAX_QUERY_TERMS, the commonest (lowest idf) go
    # {term: paths whose text or path has a word holding it}, from the selection's pass: bm25_scores reuses it.
    found_in: dict[str, frozenset[str]] | None = field(default=None, compare=False, repr=False)

    def note(self) -> str:
        """One line for a report, ``"24 of 311 distinct query terms scored (...)"``, as an ``i18n.Worded``
        (English as a ``str``, ``note().text("hi")`` in Hindi); "" if none left out."""
        if not self.absent and not self.capped:
            return ""
        return Worded((N_("{scored:,} of {total:,} distinct query terms scored ({absent:,} occur in no file, "
                          "{capped:,} of the commonest left out past {most})"),
                       {"scored": len(self.terms), "total": len(self.terms) + len(self.absent) + len(self.capped),
                        "absent": len(self.absent), "capped": len(self.capped), "most": MAX_QUERY_TERMS}))


def select_terms(files: dict[str, str], terms, max_terms: int | None = None) -> Selected:
    """Bound a long query: the distinct ``terms`` that can matter, at most ``max_terms`` of them.

    Args:
        files: ``{POSIX path: text}``.
        terms: lower-case code terms, e.g. from ``query_terms``; repeats are dropped.
        max_terms: how many terms to keep at most (default ``MAX_QUERY_TERMS``).
    Returns:
        a ``Selected``. Up to ``max_terms`` distinct terms are kept as they are (no pass over the
        files). Past that, terms found nowhere are dropped and the ``max_terms`` rarest are kept
        (the most informative, as idf measures it), in query order, ties by query order. Rarity is
        the number of files that hold the term as a word of its own (``vat`` in ``vat_rate``, not in
        ``computeVatRate``: cutting the whole tree into identifier parts takes a regex pass, 2.6 s on
        the standard library against 0.6 s); a term found only inside words counts 1 file, and a
        one-character term that occurs counts every file (it is inside nearly every word). It comes
        from one pass over the tree (``words_by_file``: about 0.6 s for the standard library's 37 MB,
        whatever the query's length), which also gives ``found_in`` for the kept terms (the files
        with a word that holds the term), so ``bm25_scores`` does not scan the tree once per term.
        ``select_terms(files, ["vat"] * 3)`` -> ``Selected(terms=("vat",))``.
    """
    terms = list(dict.fromkeys(terms))
    max_terms = MAX_QUERY_TERMS if max_terms is None else max_terms
    if len(terms) <= max_terms:
        return Selected(tuple(terms))
    paths, words = list(files), words_by_file(files)
    holding = collections.Counter(itertools.chain.from_iterable(words))  # word -> files holding it
    every_word = b" ".join(holding)  # each distinct word once: 1.6 MB for the standard library, not 37
    rarity = {t: holding.get(t.encode(), 0) for t in terms}
    # A term held by no word may be inside one: one scan of every_word each, for at most
    # MAX_INSIDE_SCANS of them, so a 20,000-word query costs a bounded number of scans.
    for t in [t for t in terms if not rarity[t]][:MAX_INSIDE_SCANS]:
        rarity[t] = int(_inside_some_word(every_word, t.encode()))
    # One character is inside nearly every word ("t" of "doesn't", "g" of "e.g."): commonest, not rare.
    rarity.update({t: len(files) for t in terms if len(t) == 1 and rarity[t]})
    present = [t for t in terms if rarity[t]]
    order = {t: i for i, t in enumerate(terms)}
    keep = set(sorted(present, key=lambda t: (rarity[t], order[t]))[:max_terms])
    found_in = {}
    for t in keep:  # the files holding a word with t inside: a superset of those where t is a whole part
        inside = _words_containing(every_word, t.encode())
        found_in[t] = frozenset(paths[k] for k, held in enumerate(words) if not held.isdisjoint(inside))
    return Selected(tuple(t for t in present if t in keep), tuple(t for t in terms if not rarity[t]),
                    tuple(t for t in present if t not in keep), found_in)


def _inside_some_word(every_word: bytes, term: bytes) -> bool:
    """Whether ``term`` is inside one of the words of ``every_word`` (one scan of it)."""
    return term in every_word


# bytes.translate with this table lower-cases ASCII letters, keeps digits and turns every other
# byte into a space, in one C-speed pass.
_WORD_BYTES = bytes(ord(chr(b).lower()) if chr(b).isascii() and chr(b).isalnum() else 32 for b in range(256))


def words_by_file(files: dict[str, str]) -> list[set[bytes]]:
    """Each file's distinct words, path included, in the order of ``files``: ASCII lower case, UTF-8 bytes.

    A word is a run of ASCII letters and digits, so every identifier part lies inside one word:
    ``words_by_file({"shop/vat.py": "vat_rate = computeVatRate(x)"})`` ->
    ``[{b"shop", b"vat", b"py", b"rate", b"computevatrate", b"x"}]``. The cutting is done by C code
    (``bytes.translate``, ``bytes.split``), one pass over the tree; a file is encoded
    on its own, because one non-ASCII character makes a string of all the texts joined 4 bytes a
    character (PEP 393).
    """
    words = []
    for path, text in files.items():
        held = set(text.encode("utf-8", "replace").translate(_WORD_BYTES).split())
        held.update(path.encode("utf-8", "replace").translate(_WORD_BYTES).split())
        words.append(held)
    return words


def _words_containing(every_word: bytes, term: bytes) -> set[bytes]:
    # The words of ``every_word`` (distinct words joined by spaces) that hold ``term``: C-speed
    # find, one Python step per word found (the kept terms are the rare ones).
    found, i = set(), every_word.find(term)
    while i >= 0:
        start, end = every_word.rfind(b" ", 0, i) + 1, every_word.find(b" ", i)
        end = len(every_word) if end < 0 else end
        found.add(every_word[start:end])
        i = every_word.find(term, end)
    return found


def _files_containing(texts, paths, terms, first=None) -> dict[str, set[int]]:
    # Which files (by index) hold each term as a substring of their lower-cased text or path:
    # ``in`` per file, a C-speed scan that stops at the first hit. Each text is lowered once and
    # its copy dropped at once, so the tree is never held twice (at 4x the standard library the
    # lowered copies were ~100 MB). Per file, not over the texts joined: one non-ASCII character
    # makes a joined string 2 or 4 bytes a character, while most files stay 1 (PEP 393).
    # Identical texts (``first``: identical.first_copies) are lowered and scanned once: the answer is the text's.
    # Code terms, and each way count_term finds one written (vat, VAT, Vat), are ASCII: a non-ASCII text is lowered
    # as its UTF-8 bytes (bytes.lower: ASCII letters only), 4x quicker than str.lower's per-character case lookup.
    encoded = [t.encode() for t in terms] if all(_whole_part_patterns(t) for t in terms) else None
    texts = list(texts)
    first = identical.first_copies(texts) if first is None else first
    found: dict[str, set[int]] = {t: set() for t in terms}
    held_by: dict[int, tuple[str, ...]] = {}  # first index -> the terms its lowered text holds
    for k, (text, path) in enumerate(zip(texts, paths)):
        if first[k] == k:
            as_text = text.isascii() or encoded is None  # a term with no regex (not ASCII) needs str.lower
            lowered = text.lower() if as_text else text.encode("utf-8", "surrogatepass").lower()
            held = held_by[k] = tuple(t for t, w in zip(terms, terms if as_text else encoded) if w in lowered)
        else:
            held = held_by[first[k]]
        lowered_path = path.lower()
        for t in terms:
            if t in held or t in lowered_path:
                found[t].add(k)
    return found


@functools.lru_cache(maxsize=65536)
def _term_set(name: str) -> frozenset[str]:
    # A file or folder name's code terms: folders repeat across a tree, so each is split once.
    return frozenset(code_terms(name))


def inverse_document_frequency(n_files: int, df: int) -> float:
    """BM25's idf: ``log(1 + (N - df + 0.5) / (df + 0.5))``, how rare a term is among ``n_files`` files.

    ``df`` is how many of them hold it. The ``1 +`` keeps it above 0 even for a term in every file
    (Lucene's form; Robertson and Zaragoza, "The Probabilistic Relevance Framework", 2009).
    ``inverse_document_frequency(10, 1)`` -> 1.992...; ``inverse_document_frequency(10, 10)`` -> 0.0465...
    """
    return math.log(1 + (n_files - df + 0.5) / (df + 0.5))


def bm25_scores(files: dict[str, str], query, *, terms=None, found_in=None, first=None) -> dict[str, FileScore]:
    """Score every file against ``query`` with code-aware BM25.

    Args:
        files: ``{POSIX path: text}``.
        query: a string (``"vat invoice"``) or a list of strings.
        terms: the terms to score, if the caller has chosen them already (``ranking.py`` cleans
            the query first); default: ``select_terms`` of ``query_terms(query)``.
        found_in: ``Selected.found_in`` from ``select_terms`` on the same ``files``, if the caller
            has it: for each term, the files that can hold it (a superset is fine: a listed file
            that does not hold the term scores as if it were not listed), so the tree is not
            scanned again.
        first: ``identical.first_copies(list(files.values()))`` if the caller has it: a copy of a text
            is lowered, scanned and counted once.
    Returns:
        ``{path: FileScore}``, in the order of ``files``. A file with no query term anywhere
        scores 0.0.
    Raises:
        ValueError: if the query has no terms.
    """
    if terms is None:
        selected = select_terms(files, query_terms(query))
        terms, found_in = list(selected.terms), selected.found_in
    terms = list(terms)
    avg_len = max(1.0, sum(map(len, files.values())) / max(1, len(files)))
    counts = {}  # path -> {term: (body_tf, in_name, in_folders)}, only for files with a match
    paths, texts = list(files), list(files.values())
    first = identical.first_copies(texts) if first is None else first
    if found_in is None or any(t not in found_in for t in terms):
        hits = _files_containing(texts, paths, terms, first)
        found_in = {t: {paths[k] for k in hits[t]} for t in terms}
    candidates = set().union(*(found_in[t] for t in terms))
    counted: dict[tuple[int, str], int] = {}  # (first copy's index, term) -> count_term's answer
    for k, path in enumerate(paths):
        if path not in candidates:
            continue
        found = [t for t in terms if path in found_in[t]]
        text = texts[k]
        # Only a term with no regex of its own (not plain ASCII) needs the lowered text.
        lowered = text.lower() if not all(_whole_part_patterns(t) for t in found) else None
        folders, _, name = path.rpartition("/")
        name_terms, folder_terms = _term_set(name), _term_set(folders)
        for t in found:  # a copy of a text already counted is not counted again
            if (first[k], t) not in counted:
                counted[first[k], t] = count_term(text, t, lowered)
        counts[path] = {t: (counted[first[k], t], t in name_terms, t in folder_terms) for t in found}
    idf = {}
    for t in terms:
        df = sum(1 for per_term in counts.values() if any(per_term.get(t, ())))
        idf[t] = inverse_document_frequency(len(files), df)
    no_match = tuple(TermScore(t, 0, False, False, idf[t], 0.0, 0.0) for t in terms)
    result = {}
    for path, text in files.items():
        per_term = counts.get(path)
        if per_term is None:
            result[path] = FileScore(path, 0.0, no_match)
            continue
        norm = 1 - B + B * len(text) / avg_len
        parts = []
        for t in terms:
            tf, in_name, in_folders = per_term.get(t, (0, False, False))
            body = tf * (K1 + 1) / (tf + K1 * norm)
            share = idf[t] * (body + NAME_WEIGHT * in_name + DIR_WEIGHT * in_folders)
            parts.append(TermScore(t, tf, in_name, in_folders, idf[t], body, share))
        result[path] = FileScore(path, sum(p.score for p in parts), tuple(parts))
    return result


def explain(score: FileScore) -> str:
    """A small table of one file's per-term contributions, for "why did this rank here?".

    ``print(explain(bm25_scores(files, "vat invoice")["shop/vat.py"]))`` prints one line per
    term: its count in the body, whether the file or a folder is named by it, its idf,
    BM25's body weight and the term's share of the score.
    """
    lines = [f"{score.path}: BM25 {score.score:.3f}",
             f"  {'term':<12} {'body tf':>7} {'name':>5} {'folder':>6} {'idf':>6} {'body':>6} {'share':>7}"]
    lines += [f"  {t.term:<12} {t.body_tf:>7} {'yes' if t.in_name else '-':>5} "
              f"{'yes' if t.in_folders else '-':>6} {t.idf:>6.3f} {t.body_weight:>6.3f} {t.score:>7.3f}"
              for t in score.terms]
    return "\n".join(lines)


_WORD = re.compile(r"\w+")


def plain_bm25_scores(files: dict[str, str], query) -> dict[str, float]:
    """Textbook BM25 on lower-case words (``\\w+``), body only: the baseline ``ctxlib eval`` reports.

    No identifier splitting, no file-name field, no signals: ``"vat_rate"`` is one word and
    ``vat.py`` earns nothing for its name. Same k1, b and idf as ``bm25_scores``.
    Returns ``{path: score}`` in the order of ``files``; raises ``ValueError`` for a query with no words.
    """
    text = query if isinstance(query, str) else " ".join(query)
    terms = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
    if not terms:
        raise _no_words(text)
    wanted, tfs, lengths = set(terms), {}, {}
    for path, body in files.items():
        words = _WORD.findall(body.lower())
        lengths[path] = len(words)
        tfs[path] = collections.Counter(w for w in words if w in wanted)
    avg_len = max(1.0, sum(lengths.values()) / max(1, len(files)))
    idf = {t: inverse_document_frequency(len(files), df)
           for t in terms for df in [sum(1 for c in tfs.values() if t in c)]}
    return {path: sum(idf[t] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[path] / avg_len))
                      for t, tf in tfs[path].items()) for path in files}


def shorten(text: str, limit: int = 80) -> str:
    """``text`` for a one-line report: as it is up to ``limit`` characters, else its start and its length.

    ``shorten("x" * 5000)`` -> ``"xxx...x... (5,000 characters)"``, so a pasted issue is never echoed whole.
    """
    return text if len(text) <= limit else f"{text[:limit - 30]}... ({len(text):,} characters)"
