"""Ranking that finds the code: BM25 plus a few small, named signals, each one explained.

Lesson 3, "Is the ranking any good?". Measured on real commits (``ctxlib eval``, numbers in
``benchmarks/README.md``), plain code-aware BM25 often puts a changelog, a document or a test
first: they repeat the task's words, while the module to edit says them once. Each signal
below fixes one measured failure and can be switched off by name (``signals=``), which is
how ``benchmarks/bench_eval.py`` measures what each one is worth:

- ``clean``: the query loses what names no code: hashes, numbers and URLs (``"Fix #12 in
  abc1234f"`` -> ``fix in``); a long query (past ``bm25.MAX_QUERY_TERMS`` distinct terms: pasted
  text) also loses hex addresses, digests of any length and timestamps (``_LOG_NOISE``). Dropping stop words and commit verbs ("fix", "add") as well was
  measured and made the ranking worse (mean reciprocal rank 0.708 against 0.744): idf already
  weighs them down, and some are code words (``new``, ``all``, ``test``, ``handle``).
- ``identifiers``: a query word that is an identifier (``no_proxy``, ``Flask.test_client_class``,
  ``HTTPServer``, or any name in backticks, ```Router```: the writer marked it as code) is also
  matched whole, not only split into parts that lose its identity, and a file that *defines* it (``def``/``class``; a top-level name in other files), or defines
  two or three adjacent query words joined (``first turn ceiling`` -> ``first_turn_ceiling``), earns
  ``DEFINES_WEIGHT`` x idf.
- ``names``: file names match a query word's light stem (``types`` ~ ``type``, ``_types.py``), and
  a package's ``__init__.py`` is named by its folder (``debug/__init__.py`` is the ``debug`` module).
- ``kind``: a prior by path kind (``pathkinds.path_kind``): source over config over tests over docs over
  changelogs over generated or vendored files (``KIND_PRIOR``; a vendored copy is a package
  folder under ``vendor/``, ``_vendor/``, ``third_party/`` or a package's own ``packages/``, as
  ``requests/packages/urllib3/``; protoc's ``_pb2.py``/``_pb2.pyi``/``_pb2_grpc.py``), and a file
  that holds a query term and whose head says a tool wrote it (``says_generated``: "DO NOT EDIT",
  ``@generated``) ranks as generated too. The task's words (``task_words``: its terms, their stems
  and its identifiers whole, so ``CPython`` and ``PyPI`` are words) adjust it: a packaging or CI task
  (a word of ``PACKAGING_WORDS``: "Add project URLs", "Drop testing for 2.6") ranks the
  packaging files (``is_packaging``: ``setup.py``, ``pyproject.toml``, ``tox.ini``, CI files) as
  source; an example's file (``examples/``, ``docs_src/``...) keeps ``EXAMPLE_PRIOR`` of its
  score unless the task speaks of examples (``EXAMPLE_WORDS``), where it keeps it all; a
  maintainers' script (``is_tooling``: under ``scripts/`` or ``tools/``) keeps ``TOOLING_PRIOR``
  unless the task speaks of scripts or tools (``TOOLING_WORDS``). A task that moves a dependency
  (``pathkinds.named_dependencies``: Dependabot's "Bump urllib3 from 1.26.5 to 1.26.18") ranks the
  manifests that declare it (``is_manifest``, ``declared``) first, at ``DEPENDENCY_LIFT`` x the best score.
- ``tests``: a test file is linked to the module it tests, by its language's naming convention
  (``pathkinds.tested_key``: ``test_ceiling.py`` -> ``ceiling.py``, ``cart.test.ts`` -> ``cart.ts``,
  ``handler_test.go``, ``user_spec.rb``, ``CartTest.java``), which gets ``TEST_SHARE`` of the test's
  score instead of competing with it.
- ``imports``: files that import, or are imported by, one of the ``TOP_FILES`` best files (Python's
  imports, and JavaScript's and TypeScript's relative ones: ``imports.py``) get
  ``IMPORT_SHARE`` of its score (a change often spans a module and its callers); tests take no
  share, the ``tests`` signal links them.

The signals after BM25 read only the files that hold a query term, so their cost follows the
query's matches, not the tree's size.

Given the repository's recent commits (``history=``, ``pack --history``), one more step runs last:
``history`` (``recent.py``) adds a share of the best score to files changed in the last commits
and to files changed by past commits whose messages are like the task.

``rank_files`` is what ``ctxlib pack`` walks by default (scorer ``"signals"``).
Not handled: imports other than Python's and JavaScript's or TypeScript's relative ones (Go's, Java's,
Rust's); tests named by no convention ``pathkinds.tested_key`` knows.
"""
from __future__ import annotations

import collections
import functools
import heapq
import re
from dataclasses import dataclass, field

from . import bm25, identical, imports, recent
from .i18n import N_, N_n, Worded, WordedError, WordedTypeError, in_lang, shown
# The kind signal's rules live in pathkinds.py; ranking re-exports them, as Lesson 3 imports them from here.
from .pathkinds import (EXAMPLE_PRIOR, EXAMPLE_WORDS, KIND_PRIOR, PACKAGING_FLOOR, PACKAGING_HINTS,  # noqa: F401
                        PACKAGING_WORDS, TOOLING_PRIOR, TOOLING_WORDS, declared, is_example, is_manifest,
                        is_packaging, is_tooling, module_key, named_dependencies, path_kind, says_generated,
                        tested_key)

SIGNALS = ("clean", "identifiers", "names", "kind", "tests", "imports")
DEFINES_WEIGHT = 2.0  # like a file-name match (bm25.NAME_WEIGHT): the definition is the thing named
TEST_SHARE = 0.5
IMPORT_SHARE = 0.15
TOP_FILES = 3
DEPENDENCY_LIFT = 1.1  # a manifest that declares the dependency a task moves ranks just above the best file

_URL = re.compile(r"\b\w+://\S+|\bwww\.\S+")
_HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# A name the writer marked as code (`Router`, ``jsonify``, `app.on_event()`): an identifier, capital or not.
# A run of backticks is entered at its first one only ((?<!`), then taken whole): entered at each, a query
# of 20,000 backticks took 3.6 s (each start scanned the rest of the run); a run's later starts found nothing more.
_QUOTED = re.compile(r"(?<!`)`++([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(\))?`+")
# Only searched for, never matched whole: two capitals then a small letter is HTTPServer's sign. Written as
# [A-Z]{2,}[a-z], each capital of a run of them scanned the rest of the run: a query of 80,000 "A" took 43 s.
_IDENT = re.compile(r"_|[a-z][A-Z]|[A-Z]{2}[a-z]|\.")  # snake_case, camelCase, HTTPServer, a.b
# What a pasted log adds and no code is named by: hex addresses (0x7f3a...), hex digests of any
# case or length (sha256 is 64 characters, past _HASH's 40), UUIDs, ISO timestamps' T and Z.
_LOG_NOISE = re.compile(r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b|\b0[xX][0-9a-fA-F]+\b"
                        r"|\b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b"
                        r"|\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?Z?")
# A literal first ("def", "class", "from", "import") lets the regex engine skip ahead fast: 14x
# quicker on the standard library than one anchored pattern; a match inside a word is dropped.
_PY_DEFS = (re.compile(r"def[ \t]+([A-Za-z_]\w*)"), re.compile(r"class[ \t]+([A-Za-z_]\w*)"))
# A top-level line is found by the newline before it, a literal too (anchored with ^ it was tried at every
# character): the text is searched with one newline put before it.
_TOP_NAME = re.compile(r"\n(?:(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?(?:function|class|const|let|var|def|"
                       r"fn|func|type|interface|struct|enum)[ \t]+([A-Za-z_$][\w$]*)|([A-Za-z_][\w.-]*)[ \t]*(?:=|\(|:(?!//)))")


@dataclass(frozen=True)
class Query:
    """A cleaned query: the ``terms`` BM25 scores, the ``identifiers`` as written, and what was dropped."""

    terms: tuple[str, ...]
    identifiers: tuple[str, ...]
    dropped: tuple[str, ...]
    note: str = ""  # bm25.Selected.note() when a long query was bounded
    found_in: dict | None = field(default=None, compare=False, repr=False)  # bm25.Selected.found_in
    dependencies: tuple[str, ...] = ()  # pathkinds.named_dependencies: "Bump urllib3 from 1.26 to 2.0" -> urllib3


@dataclass(frozen=True)
class Ranked:
    """One file's place: its final ``score``, BM25's part, its kind and each signal's effect, in order."""

    path: str
    score: float
    bm25: float
    kind: str
    effects: tuple[tuple[str, str], ...]  # (signal, what it did), e.g. ("kind", "test: x 0.4")


def clean_query(query, files: dict[str, str] | None = None, signals=SIGNALS) -> Query:
    """The terms and identifiers of ``query`` worth searching for.

    Args:
        query: the task text, a string or a list of strings.
        files: ``{path: text}``; when given, a long query is bounded by ``bm25.select_terms``.
        signals: with ``"clean"``, hashes, numbers and URLs go; if more than ``bm25.MAX_QUERY_TERMS``
            distinct terms are left, the query is pasted text and ``_LOG_NOISE`` goes too (``0x7f3a``,
            a sha256, a UUID, ``2026-01-18T12:45:51Z``), so that a log's fragments do not pass for
            rare terms. A shorter query is cleaned as before: its ranking does not change.
    Returns:
        a ``Query``. ``clean_query("Fix NO_PROXY in abc1234f").terms`` -> ``('fix', 'no', 'proxy', 'in')``
        and ``.identifiers`` -> ``('NO_PROXY',)``, as written.
    Raises:
        ValueError: if nothing is left to search for.
        TypeError: a query that is neither text nor a list of texts (``None``, ``5``, ``b"vat"``), named;
            ``" ".join`` said only "can only join an iterable".
    """
    texts = isinstance(query, (list, tuple, set, frozenset)) and all(isinstance(q, str) for q in query)
    if not (isinstance(query, str) or texts):
        raise WordedTypeError.of(N_("the query must be text or a list of texts, got {query}"), query=shown(query))
    text = query if isinstance(query, str) else " ".join(query)
    dependencies = named_dependencies(text)
    dropped: list[str] = []
    if "clean" in signals:
        dropped += _URL.findall(text) + _HASH.findall(text)
        text = _HASH.sub(" ", _URL.sub(" ", text))
        if len({t for t in bm25.code_terms(text) if not t.isdigit()}) > bm25.MAX_QUERY_TERMS:
            # A long query is pasted text (an issue with a log): its addresses and digests would
            # split into fragments ("0x7f3a" -> x, f, a) that look rare and fill the kept terms.
            dropped += _LOG_NOISE.findall(text)
            text = _LOG_NOISE.sub(" ", text)
    words = _WORD.findall(text)
    identifiers: dict[str, str] = {}  # lower case -> as written: Flask.test_client_class, test_client_class
    quoted = set(_QUOTED.findall(text))
    for whole in words:
        if _IDENT.search(whole) or whole in quoted:
            for w in (whole, whole.rsplit(".", 1)[-1]):
                if w == whole or _IDENT.search(w):
                    identifiers.setdefault(w.lower(), w)
    terms = []
    for t in bm25.code_terms(text):
        (dropped if "clean" in signals and t.isdigit() else terms).append(t)
    if not terms and not identifiers:
        bm25.query_terms(query)  # its one-line error for an empty or other-script query
        raise WordedError.of(N_("the query has only numbers, hashes or URLs: {query}"), query=shown(bm25.shorten(text)))
    selected = bm25.select_terms(files or {}, terms) if files is not None else bm25.Selected(tuple(dict.fromkeys(terms)))
    return Query(selected.terms, tuple(identifiers.values())[:bm25.MAX_QUERY_TERMS], tuple(dict.fromkeys(dropped)),
                 selected.note(), selected.found_in, dependencies)


def stem(term: str) -> str:
    """A light plural stem for names: ``types`` -> ``type``, ``classes`` -> ``class``, ``entries`` -> ``entry``.

    Only plurals, and only words of four letters or more, so ``class`` and ``is`` stay themselves.
    """
    if len(term) < 4 or term.endswith("ss"):
        return term
    if term.endswith("ies"):
        return term[:-3] + "y"
    if term.endswith(("ses", "xes", "ches", "shes", "zes")):
        return term[:-2]
    return term[:-1] if term.endswith("s") else term


def definitions(path: str, text: str, kind: str | None = None) -> frozenset[str]:
    """Names a file defines, lower case, underscores removed: ``def first_turn_ceiling`` -> ``firstturnceiling``.

    Python: every ``def`` and ``class``. Other files: top-level ``function``/``class``/``const``...
    names and top-level keys (``name =``, ``name:``). Names are folded so ``TestClient`` and
    ``test_client`` are one. ``kind``: ``path_kind(path)`` if the caller has it.
    """
    return _definitions(_definition_style(path, kind), text)


def _definition_style(path: str, kind: str | None = None) -> str:
    if path.endswith((".py", ".pyi")):
        return "python"
    return "prose" if (kind or path_kind(path)) in ("docs", "changelog") else "other"


def _definitions(style: str, text: str, among=None) -> frozenset[str]:
    # ``among``: only these folded names are wanted (a name is folded before its line is looked at).
    if style == "python":
        names = {name for pattern in _PY_DEFS for m in pattern.finditer(text)
                 for name, at in [(_fold(m.group(1)), m.start())] if (among is None or name in among)
                 and imports.at_line_start(text, at)}
        return frozenset(names)
    if style == "prose":
        return frozenset()  # prose: "Note: ..." at a line's start defines nothing
    names = {_fold(a or b) for a, b in _TOP_NAME.findall("\n" + text)}
    return frozenset(names if among is None else names & among)


def _fold(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def _tested_modules(sources: dict[tuple[str, str], list[str]]):
    """``tested(path)``: the module a test names (``sources``: module_key -> the source files with that key): of
    those, the one sharing most path parts with the test, then the shortest path, then the last by name
    (tests/http/test_cookies.py -> http/cookies.py). Per key, an index from a part to the modules holding it; a
    part every module holds adds 1 to each and is skipped. Comparing each test with every module of its name
    took 11 s for 5,000 tests beside 5,000 same-named modules."""
    indexes: dict = {}

    def tested(path: str) -> str | None:
        key = tested_key(path)
        candidates = sources.get(key) if key else None
        if not candidates:
            return None
        if key not in indexes:
            by_part: dict[str, list[str]] = {}
            for c in candidates:
                for part in set(c.split("/")):
                    by_part.setdefault(part, []).append(c)
            everywhere = {part for part, held in by_part.items() if len(held) == len(candidates)}
            indexes[key] = (by_part, everywhere, max(candidates, key=lambda c: (-len(c), c)), {})
        by_part, everywhere, first, known = indexes[key]
        parts = frozenset(p for p in path.split("/") if p in by_part and p not in everywhere)
        if parts not in known:
            shared = collections.Counter(c for part in parts for c in by_part[part])
            known[parts] = max(shared, key=lambda c: (shared[c], -len(c), c)) if shared else first
        return known[parts]

    return tested


def rank_files(files: dict[str, str], query, signals=SIGNALS, history=()) -> list[Ranked]:
    """Rank ``files`` for ``query``: BM25 on the cleaned query, then each signal in ``signals``, in order.

    Args:
        files: ``{POSIX path: text}``.
        query: the task text (a string or a list of strings), or a ``Query`` already cleaned
            by ``clean_query``.
        signals: names from ``SIGNALS`` to apply; ``()`` is code-aware BM25 alone.
        history: the repository's recent commits, ``(message, paths)`` newest first
            (``safegit.recent_commits``): the ``history`` signal (``recent.py``), applied last; ``()``: none.
    Returns:
        every file as a ``Ranked``, highest score first, ties by path; files scoring 0 last.
    Raises:
        ValueError: an unknown signal, a query with nothing to search for, or a commit that is not
            ``(message, paths)``.
    """
    unknown = [s for s in signals if s not in SIGNALS]
    if unknown:
        raise WordedError.of(N_("unknown signal {signal}: choose from {known}"), signal=shown(unknown[0]), known=", ".join(SIGNALS))
    q = query if isinstance(query, Query) else clean_query(query, files, signals)
    paths = list(files)
    first = identical.first_copies(list(files.values()))  # a copy's text is read once, as its first's
    copy_of = {path: paths[first[k]] for k, path in enumerate(paths)}
    scores = bm25.bm25_scores(files, query, terms=q.terms, found_in=q.found_in, first=first) if q.terms else {}
    score = {p: scores[p].score if p in scores else 0.0 for p in files}
    effects: dict[str, list] = collections.defaultdict(list)
    kinds = {p: path_kind(p) for p in files}
    # Files with no query term cannot define or say the query's names: signals read only these.
    matched = [p for p in files if score[p] > 0] if q.terms else list(files)
    if "identifiers" in signals:
        _add_identifiers(files, matched, scores, q, score, effects, kinds, copy_of)
    if "names" in signals and q.terms:
        _add_names(scores, q, score, effects)
    if "kind" in signals:
        words = task_words(q)
        packaging, examples = words & (PACKAGING_WORDS | PACKAGING_HINTS), bool(words & EXAMPLE_WORDS)
        best = max(score.values(), default=0.0)
        generated_head = functools.lru_cache(maxsize=None)(lambda first: says_generated(files[first]))  # once a text
        for path in files if packaging else [p for p in files if score[p] > 0]:
            if packaging and is_packaging(path):  # a packaging task: its files rank as source
                floor = PACKAGING_FLOOR * best if packaging & PACKAGING_WORDS else 0.0
                if max(score[path], floor) > 0:
                    score[path] = max(score[path], floor)
                    effects[path].append(("kind", Worded((N_("packaging ({words}): x 1.0, at least {floor:.2f}"),
                                                          {"words": ", ".join(sorted(packaging)), "floor": floor}))))
                continue
            if score[path] <= 0:
                continue
            kind, prior = kinds[path], KIND_PRIOR[kinds[path]]
            if kind in ("source", "config") and generated_head(copy_of[path]):  # only files that hold a term
                kind, prior = "generated (its head says so)", KIND_PRIOR["generated"]
            if not examples and kind == "source" and is_example(path):
                kind, prior = "example", EXAMPLE_PRIOR
            if kind == "source" and is_tooling(path) and not words & TOOLING_WORDS:
                kind, prior = "tooling", TOOLING_PRIOR
            if prior != 1.0:
                score[path] *= prior
                effects[path].append(("kind", Worded((N_("{kind}: x {prior}"), {"kind": kind, "prior": prior}))))
        _add_dependencies(files, q, score, effects, best)
    if "tests" in signals:
        sources: dict[tuple[str, str], list[str]] = {}
        for path in files:
            key = module_key(path) if kinds[path] == "source" else None
            if key:
                sources.setdefault(key, []).append(path)
        tested = _tested_modules(sources)
        for path in [p for p in files if kinds[p] == "test" and score[p] > 0]:
            module = tested(path)
            if module:
                share = TEST_SHARE * score[path]
                score[module] += share
                effects[module].append(("tests", Worded((N_("tested by {path}: +{share:.2f}"), {"path": path, "share": share}))))
                effects[path].append(("tests", Worded((N_("tests {module}, which gets {share} of this score"),
                                                       {"module": module, "share": TEST_SHARE}))))
    if "imports" in signals:
        _add_imports(files, matched, score, effects, kinds, copy_of)
    for path, (bonus, why) in recent.bonuses(history, q.terms, score).items() if history else ():
        score[path] += bonus
        effects[path].append(("history", why))
    ranked = [Ranked(p, score[p], scores[p].score if p in scores else 0.0, kinds[p], tuple(effects.get(p, ())))
              for p in files]
    return sorted(ranked, key=lambda r: (-r.score, r.path))


def _add_dependencies(files, q: Query, score, effects, best: float) -> None:
    # A task that moves a dependency ("Bump urllib3 from 1.26 to 2.0") edits the manifests that declare it:
    # they rank first, DEPENDENCY_LIFT x the best file's score (1.0 when no file holds a query term).
    lifted = DEPENDENCY_LIFT * best if best > 0 else 1.0
    for path in files if q.dependencies else ():
        if is_manifest(path):
            named = declared(files[path], q.dependencies)
            if named and score[path] < lifted:
                score[path] = lifted
                effects[path].append(("kind", Worded((N_("declares {names}, which the task moves: at least {lifted:.2f}"),
                                                      {"names": ", ".join(named), "lifted": lifted}))))


def _add_names(scores, q: Query, score, effects) -> None:
    # A file named by a query word's stem. A part whose stem is s holds s[:-1] (stem cuts a plural's end,
    # or "ies" to "y"): a name that holds none of the terms' stems so cut is not split at all.
    cut = {stem(t)[:-1] for t in q.terms}
    for path, s in scores.items():
        folders, _, name = path.rpartition("/")
        if name in ("__init__.py", "__init__.pyi") and folders:
            name = folders.rsplit("/", 1)[-1]
        lowered = name.lower()
        if not any(c in lowered for c in cut):
            continue
        names = {stem(t) for t in bm25.code_terms(name)}
        naming = [t for t in s.terms if not t.in_name and stem(t.term) in names]
        bonus = sum(t.idf * bm25.NAME_WEIGHT for t in naming)
        if bonus:
            score[path] += bonus
            effects[path].append(("names", Worded((N_("{name} is named by {terms}: +{bonus:.2f}"), {
                "name": name, "terms": ", ".join(t.term for t in naming), "bonus": bonus}))))


def task_words(q: Query) -> set[str]:
    """The words the ``kind`` signal matches its word lists against: the query's terms and their stems,
    and each identifier whole, folded, without a version (``CPython`` -> ``cpython``, ``PyPy3`` -> ``pypy``,
    ``PyPI`` -> ``pypi``, where the terms have only ``py`` and ``pi``)."""
    words = set(q.terms) | {stem(t) for t in q.terms}
    return words | {_fold(i.rsplit(".", 1)[-1]).rstrip("0123456789") for i in q.identifiers}


def _add_identifiers(files, matched, scores, q: Query, score, effects, kinds, copy_of) -> None:
    words = [t for t in q.terms if not t.isdigit()]
    parts = {"".join(words[i:j]): set(words[i:j])  # name -> the query terms it is made of
             for i in range(len(words)) for j in range(i + 2, min(i + 4, len(words) + 1))}
    parts.update({_fold(i): set(bm25.code_terms(i)) & set(q.terms) for i in q.identifiers if "." not in i})
    if not parts:
        return
    wanted, df = set(parts), dict.fromkeys(parts, 0)
    defined, known = {}, {}  # known: (style, first copy) -> its definitions
    for path in matched:
        found = {t.term for t in scores[path].terms if t.body_tf} if path in scores else set(q.terms)
        if not any(need <= found for need in parts.values()):
            continue  # defining first_turn_ceiling takes the words first, turn and ceiling
        key = (_definition_style(path, kinds[path]), copy_of[path])
        if key not in known:
            known[key] = _definitions(key[0], files[path], wanted)
        names = known[key]
        if names:
            defined[path] = names
            for name in names:
                df[name] += 1
    for path, names in defined.items():
        bonus = sum(DEFINES_WEIGHT * bm25.inverse_document_frequency(len(files), df[n]) for n in sorted(names))
        score[path] += bonus
        effects[path].append(("identifiers", Worded((N_("defines {names}: +{bonus:.2f}"),
                                                     {"names": ", ".join(sorted(names)), "bonus": bonus}))))
    # The identifier itself, whole, as one more BM25 term: once a name (a.b_c and b_c are one term, b_c).
    for whole in dict.fromkeys(ident.rsplit(".", 1)[-1] for ident in q.identifiers):
        if "_" in whole.strip("_"):  # snake_case loses its identity when split; a.b's parts are terms
            forms = {whole, whole.lower(), whole.upper()}
            hits = {p: sum(files[p].count(f) for f in forms) for p in matched if any(f in files[p] for f in forms)}
            idf = bm25.inverse_document_frequency(len(files), len(hits))
            for path, tf in hits.items():
                bonus = idf * tf * (bm25.K1 + 1) / (tf + bm25.K1)
                score[path] += bonus
                effects[path].append(("identifiers", Worded((*N_n("says {name} whole {n} time: +{bonus:.2f}",
                                                                  "says {name} whole {n} times: +{bonus:.2f}"),
                                                             tf, {"name": whole, "bonus": bonus}))))


def _add_imports(files, matched, score, effects, kinds, copy_of) -> None:
    top = heapq.nsmallest(TOP_FILES, (p for p in score if score[p] > 0), key=lambda p: (-score[p], p))
    # A test imports what it tests: the tests signal links it already; it takes no share here.
    neighbours = imports.neighbours(files, matched, top, copy_of, skip=lambda p: kinds[p] == "test")
    before = {p: score[p] for p in top}  # shares come from the scores before any share is added
    for path, tops in neighbours.items():
        best = max(tops, key=lambda p: (before[p], p))
        share = IMPORT_SHARE * before[best]
        score[path] += share
        effects[path].append(("imports", Worded((N_("imports or is imported by {path}: +{share:.2f}"),
                                                 {"path": best, "share": share}))))


def explain_ranked(ranked: Ranked, lang: str = "en") -> str:
    """Why one file ranked where it did: BM25's part, then each signal's effect, one per line, in ``lang``.

    ``print(explain_ranked(rank_files(files, "first turn ceiling")[0]))`` ->
    ``ctxlib/ceiling.py (source): 19.32`` then ``  bm25: 7.10`` and a line per signal. The signals' names
    and the path kinds are the library's own words (``signals=`` takes them) and stay English; what each
    signal did is worded in ``lang`` (``"hi"``: Hindi). Raises ``ValueError`` for an unknown language.
    """
    lines = [f"{ranked.path} ({ranked.kind}): {ranked.score:.2f}", f"  bm25: {ranked.bm25:.2f}"]
    lines += [f"  {signal}: {in_lang(what, lang)}" for signal, what in ranked.effects]
    return "\n".join(lines)
