"""Packing a repository under a hard budget: rank, choose views, render, and check exactly.

Lesson 3, "The hard budget". ``pack_files`` ranks the files (BM25 or the lesson's
baseline), offers each file's views from richest to cheapest (whole -> signatures ->
hit ranges), lets a strategy choose (``strategies.py``), renders the choice
(``render.py``) and then re-tokenizes the rendered text. The guarantee: the exact token
count of the returned text, headers and separators included, is at most the budget. If
tokens merge differently across block boundaries and the total overshoots, the last
chosen block is dropped until it holds.

Counting is lazy: files are ranked first (no tokenizer), and only the files the strategy
reaches are rendered and tokenized, so tokenizing grows with the budget, not the repository.
A view longer than ``CHARS_PER_TOKEN_CEILING`` characters per token left is not tokenized at
all: it could only fit if its text averaged more characters per token than any file of
the standard library does (the most is 5.2 in o200k_base; code averages ~4.2). Such a
text would be passed over, never overspent: the budget check is always exact.
"""
from __future__ import annotations

from fractions import Fraction

import functools
import itertools
from dataclasses import dataclass, field

from . import bm25, ranking, render, repo, scoring, strategies, views
from .i18n import message_n
from .packing import check_budget
from .reasons import Reason, Skipped
from .strategies import Option
from .tokens import DEFAULT_ENCODING, count_tokens

VIEW_VALUE = {"whole": 1.0, "signatures": 0.6, "ranges": 0.4}  # share of a file's score a view keeps
VIEW_LADDERS = {"auto": ("whole", "signatures", "ranges"), "whole": ("whole",),
                "signatures": ("signatures", "ranges"), "ranges": ("ranges",)}
STRATEGIES = {"greedy": strategies.greedy_by_score, "density": strategies.greedy_by_density,
              "knapsack": strategies.knapsack}
SCORERS = ("signals", "bm25", "terms", "plain")
CHARS_PER_TOKEN_CEILING = 6
POOL_FILES = 40  # density and knapsack weigh the 40 best-ranked files; greedy walks on
PATIENCE = 10  # once something is packed, greedy stops after this many files in a row that fit in no view


@dataclass(frozen=True)
class Choice:
    """A packed file: path, view, tokens (exact, as a rendered block), the file's score and
    the view's value (score x ``VIEW_VALUE``: what the strategies maximise)."""

    path: str
    view: str
    tokens: int
    score: float
    value: float
    ranges: tuple[int, int] | None = None  # a ranges view: (ranges kept, ranges the file has)
    text: str = field(default="", repr=False)  # the packed view's text (for secret warnings)


@dataclass
class Pack:
    """A rendered pack: ``text`` costs exactly ``used_tokens`` <= ``budget_tokens``."""

    text: str
    chosen: list[Choice]
    used_tokens: int
    budget_tokens: int
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[Skipped] = field(default_factory=list)
    files_read: int = 0
    files_tokenized: int = 0
    encoding: str = DEFAULT_ENCODING
    query_note: str = ""  # how a long query was bounded (bm25.Selected.note), else ""

    @property
    def value(self) -> float:
        """Total value packed: the sum the strategies try to make as large as they can."""
        return sum(choice.value for choice in self.chosen)


def rank(files: dict[str, str], query, scorer: str = "signals") -> list[tuple[str, float]]:
    """``[(path, score), ...]``, highest first, ties by path: the order ``pack_files`` walks.

    ``scorer``: ``"signals"`` is ``ranking.rank_files`` (BM25 plus named signals, the default);
    ``"bm25"`` is code-aware BM25 alone; ``"terms"`` the lesson's baseline (``scoring.score_file``)
    on the query's words; ``"plain"`` textbook BM25 on words (``bm25.plain_bm25_scores``).
    Raises ``ValueError`` for an unknown scorer or an empty query.
    """
    if scorer == "signals":
        return [(r.path, r.score) for r in ranking.rank_files(files, query)]
    if scorer == "plain":
        scores = bm25.plain_bm25_scores(files, query)
    elif scorer == "bm25":
        scores = {p: s.score for p, s in bm25.bm25_scores(files, query).items()}
    elif scorer == "terms":
        terms = scoring.clean_terms(query.split() if isinstance(query, str) else query)
        scores = {p: float(scoring.score_file(p, text, terms)) for p, text in files.items()}
    else:
        raise ValueError(f"unknown scorer {scorer!r}: choose one of {', '.join(SCORERS)}")
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def view_options(path: str, text: str, terms, score: float, view: str = "auto"):
    """Yield the options for one file, richest view first; each view's text is built lazily.

    ``view`` picks the ladder (``VIEW_LADDERS``). Each option's value is ``score`` times
    the view's share (``VIEW_VALUE``); hit ranges are offered whole, then halved down to
    the first range, valued by the share of ranges they keep.
    """
    for kind in VIEW_LADDERS[view]:
        if kind == "whole":
            yield Option.of(path, "whole", text, score)
        elif kind == "signatures" and path.endswith((".py", ".pyi")):
            yield Option(path, "signatures", score * VIEW_VALUE["signatures"],
                         lambda: _shorter(views.signatures_view(text), text),
                         views.signatures_length_at_least(text))  # known before paying for ast.parse
        elif kind == "ranges":
            hits = views.hit_lines(text, terms)
            n = len(views.hit_ranges(text, terms, hits=hits))
            keep = n
            while keep >= 1:
                yield Option(path, "ranges", score * VIEW_VALUE["ranges"] * keep / n,
                             functools.partial(views.ranges_view, text, terms, max_ranges=keep, hits=hits),
                             ranges=(keep, n))
                keep = keep // 2 if keep > 1 else 0


def _shorter(view_text: str | None, text: str) -> str | None:
    return view_text if view_text is not None and len(view_text) < len(text) else None


def _candidates(ranked, files, terms, view, considered):
    for path, score in ranked:
        considered.append(path)
        yield view_options(path, files[path], terms, score, view)


class _Pricer:
    """``cost(option, limit)`` for the strategies: exact tokens of the option's rendered block.

    Options that surely cannot fit are answered ``limit + 1`` without building or
    tokenizing them; before a text that fits is priced, its file's WHOLE text (``files``) and
    the view itself are checked for secrets: a file holding one is refused in every view, so
    a ranges or signatures view that shows only the BEGIN line of a key is refused too.
    """

    def __init__(self, fmt: str, encoding: str, include_secrets: bool, files: dict[str, str] | None = None):
        self.render, self.encoding, self.include_secrets = render.RENDERERS[fmt], encoding, include_secrets
        self.files = files or {}
        self.cleared: set[str] = set()  # files whose whole text was scanned and holds no secret
        self.frame = count_tokens(self.render([]), encoding)  # what an empty pack costs
        self.separator = count_tokens(render.SEPARATORS[fmt], encoding)
        # No block is cheaper than a one-character file with a one-character name.
        tiny = Option.of("x", "whole", "x", 0.0)
        self.smallest_block = count_tokens(self.render([tiny]), encoding) - self.frame
        self.flagged: dict[str, Skipped] = {}  # path -> why it is never packed (Reason.SECRET)
        self.tokenized: set[str] = set()
        self.fitted = 0  # options that fit where they were offered: greedy takes each one

    def __call__(self, option: Option, limit: int) -> int:
        over = limit + 1
        if option.path in self.flagged or option.min_chars > CHARS_PER_TOKEN_CEILING * limit:
            return over
        text = option.text
        if text is None or len(text) > CHARS_PER_TOKEN_CEILING * limit:
            return over
        tokens = count_tokens(self.render([option]), self.encoding) - self.frame + self.separator
        self.tokenized.add(option.path)
        if tokens > limit:
            return tokens
        # Only a text that fits can be packed, so that is where secrets are looked for.
        reason = None if self.include_secrets else self._secret(option.path, text)
        if reason:
            self.flagged[option.path] = reason.at(option.path)
            return over
        self.fitted += 1
        return tokens

    def _secret(self, path: str, view_text: str):
        # One scan a file: every line a view shows is a line of the file (numbered, or a docstring's
        # first line), so a whole text without a secret gives views without one.
        if path in self.cleared:
            return None
        whole = self.files.get(path)
        reason = repo.credential_in_text(view_text if whole is None else whole, path)
        if reason is None:
            self.cleared.add(path)
        return reason


def _patient(candidates, pricer: _Pricer, stopped: dict):
    """``candidates`` until ``PATIENCE`` files in a row fit in no view, counted only once
    something fits: a small budget walks on as long as it takes to find the first file that
    fits, so "too small for anything" is said only when nothing in the ranking fits."""
    misses, fitted, refused = 0, 0, 0
    for options in candidates:
        if pricer.fitted > fitted:
            misses, fitted = 0, pricer.fitted
        elif len(pricer.flagged) > refused:  # a file refused for a secret is not one that did not fit
            refused = len(pricer.flagged)
        elif fitted:
            misses += 1
        if misses >= PATIENCE:
            stopped["after"] = misses
            return
        yield options


def _choose(candidates, room: int, strategy: str, pricer: _Pricer, stopped: dict):
    if strategy == "greedy":
        return strategies.greedy_by_score(_patient(candidates, pricer, stopped), room, pricer,
                                          min_tokens=pricer.smallest_block)
    pool = [list(options) for options in itertools.islice(candidates, POOL_FILES)]
    return STRATEGIES[strategy](pool, room, pricer)


def pack_files(files: dict[str, str], query, budget_tokens: int, *, encoding: str = DEFAULT_ENCODING,
               scorer: str = "signals", view: str = "auto", strategy: str = "greedy", fmt: str = "text",
               include_secrets: bool = False, skipped=(), signals=ranking.SIGNALS) -> Pack:
    """Pack the files most relevant to ``query`` into ``budget_tokens`` or fewer, exactly counted.

    Args:
        files: ``{POSIX path: text}``, e.g. ``{f.path: f.text for f in read_repo(root).files}``.
        query: the task, ``"vat invoice"``; split into code terms.
        budget_tokens: the hard budget in tokens of ``encoding``, for the whole rendered text.
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
        scorer: ``"signals"`` (``ranking.rank_files``), ``"bm25"``, ``"terms"`` (the lesson's
            baseline) or ``"plain"`` (textbook BM25); see ``rank``.
        view: ``"auto"`` (whole -> signatures -> ranges), ``"whole"``, ``"signatures"``, ``"ranges"``.
        strategy: ``"greedy"`` (by score), ``"density"`` (score per token) or ``"knapsack"``.
        fmt: ``"text"``, ``"markdown"`` or ``"json"``.
        include_secrets: pack text that looks like it holds a credential (default: never).
        skipped: ``Skipped`` entries from reading, carried into the result's report.
        signals: the ranking's signals when ``scorer`` is ``"signals"`` (``ranking.SIGNALS``).
    Returns:
        a ``Pack``; ``pack.used_tokens == count_tokens(pack.text, encoding) <= budget_tokens``.
    Raises:
        ValueError: bad budget or option; no file matches the query; nothing fits the budget;
            a knapsack too large to solve exactly.
    """
    check_budget(budget_tokens)
    for name, value, known in (("view", view, VIEW_LADDERS), ("strategy", strategy, STRATEGIES),
                               ("format", fmt, render.RENDERERS)):
        if value not in known:
            raise ValueError(f"unknown {name} {value!r}: choose one of {', '.join(known)}")
    query_note = ""
    try:  # the terms hit ranges are cut around: the ranker's, so a long query stays bounded
        selected = ranking.clean_query(query, files, signals if scorer == "signals" else ())
        terms, query_note = list(selected.terms), selected.note
    except ValueError:
        if scorer in ("bm25", "signals"):
            raise
        terms = []  # a query in another script: the terms scorer matched it, but no line ranges
    if scorer == "signals":  # the query cleaned once: a long one costs one pass over the files
        ranked = [(r.path, r.score) for r in ranking.rank_files(files, selected, signals)]
    else:
        ranked = rank(files, query, scorer)
    relevant = [(path, score) for path, score in ranked if score > 0]
    if not relevant:
        raise ValueError(f"no file matches the query {bm25.shorten(str(query))!r} ({len(files):,} files read)")
    pricer = _Pricer(fmt, encoding, include_secrets, files)
    considered: list[str] = []
    candidates = _candidates(relevant, files, terms, view, considered)
    # n blocks carry n - 1 separators, and each block's cost counts one: give one back.
    stopped: dict = {}
    chosen = _choose(candidates, budget_tokens - pricer.frame + pricer.separator, strategy, pricer, stopped)
    report = list(skipped) + [Skipped(p, Reason.NO_MATCH) for p, s in ranked if s <= 0]
    report += list(pricer.flagged.values())

    text, used = _render_within(chosen, pricer, budget_tokens, report)
    if not chosen:
        refused = [path for path, _ in relevant if path in pricer.flagged]
        if refused and refused[0] == relevant[0][0]:
            # The budget is not the problem when the best matches were refused for their content.
            raise ValueError(f"nothing was packed: the best match, {refused[0]}, was refused "
                             f"({pricer.flagged[refused[0]].reason})" +
                             (f", and {len(refused) - 1} more like it" if len(refused) > 1 else ""))
        raise ValueError(_too_small(relevant[0], files, terms, view, pricer, budget_tokens, fmt))
    done = {option.path for option, _ in chosen} | {s.path for s in report}
    left_out = ((Reason.NO_VIEW_FITS, {}) if strategy == "greedy"
                else (Reason.NOT_CHOSEN, {"strategy": strategy}))
    report += [Skipped.of(path, left_out[0], **left_out[1]) for path in considered if path not in done]
    done |= set(considered)
    left = budget_tokens - used
    not_reached = (Skipped.of("", Reason.WALK_STOPPED, files=stopped["after"], left=left)
                   if stopped else Skipped("", Reason.BUDGET_FULL))
    report += [not_reached.at(path) for path, _ in relevant if path not in done]
    scores = dict(relevant)
    return Pack(text=text, used_tokens=used, budget_tokens=budget_tokens,
                chosen=[Choice(o.path, o.view, tokens, scores[o.path], o.value, o.ranges, o.text)
                        for o, tokens in chosen],
                skipped=sorted(report, key=lambda s: s.path), files_read=len(files),
                files_tokenized=len(pricer.tokenized), encoding=encoding, query_note=query_note)


def _render_within(chosen: list, pricer: _Pricer, budget_tokens: int, report: list) -> tuple[str, int]:
    # The exact check. Blocks were priced one by one; tokens can merge differently where
    # blocks meet, so the rendered whole is counted again and the last block dropped while
    # it is over.
    text = pricer.render([option for option, _ in chosen])
    used = count_tokens(text, pricer.encoding)
    while used > budget_tokens and chosen:
        dropped, _ = chosen.pop()
        report.append(Skipped.of(dropped.path, Reason.DROPPED, over=used - budget_tokens))
        text = pricer.render([option for option, _ in chosen])
        used = count_tokens(text, pricer.encoding)
    return text, used


def _too_small(best, files, terms, view: str, pricer: _Pricer, budget_tokens: int, fmt: str) -> str:
    path, score = best
    options = [o for o in view_options(path, files[path], terms, score, view) if o.text is not None]
    needs = [count_tokens(pricer.render([o]), pricer.encoding) for o in options]
    need = (f"the best match, {path}, needs {min(needs):,} tokens in its smallest view" if needs
            else f"the best match, {path}, has no {view} view")
    budget = message_n("a budget of {n:,} token", "a budget of {n:,} tokens", budget_tokens)
    return f"{budget} is too small for anything: {need} ({fmt} format, {pricer.encoding})"


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
        raise ValueError(f"margin must be a percentage from 0 up to (not including) 100, got {margin_pct!r}")
    # Exact arithmetic: a budget of 10**23 tokens is not rounded through a float.
    left = int(budget_tokens * (100 - Fraction(margin_pct)) // 100)
    if left < 1:
        raise ValueError(f"a margin of {margin_pct:g}% leaves nothing of a budget of {budget_tokens:,} tokens")
    return left


def pack_repository(root, query, budget_tokens: int, *, max_file_bytes: int = repo.MAX_FILE_BYTES,
                    include_secrets: bool = False, exclude=(), include=(), progress=None, **options) -> Pack:
    """Read ``root`` with ``repo.read_repo`` and pack it with ``pack_files``.

    Takes ``pack_files``' keyword options, plus ``read_repo``'s ``max_file_bytes``,
    ``include_secrets``, ``exclude``, ``include`` and ``progress``. Raises ``ValueError`` as both do.
    """
    check_budget(budget_tokens)
    found = repo.read_repo(root, max_file_bytes=max_file_bytes, include_secrets=include_secrets,
                           exclude=exclude, include=include, progress=progress)
    files = {f.path: f.text for f in found.files}
    pack = pack_files(files, query, budget_tokens, include_secrets=include_secrets,
                      skipped=found.skipped, **options)
    pack.notes = found.notes
    return pack
