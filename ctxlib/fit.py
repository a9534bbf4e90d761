"""Packing a repository under a hard budget: rank, choose views, render, and check exactly.

Lesson 3, "The hard budget". ``pack_files`` runs four phases, each a function that returns a
value: ``rank_query`` reads the query and ranks the files (one scorer registry, ``SCORERS``, for
``pack``, ``rank`` and ``eval``); ``choose`` offers each file's views from richest to cheapest
(whole -> signatures -> hit ranges) to a strategy (``strategies.py``); ``render_within`` renders
the choice (``render.py``) and re-tokenizes the rendered text; ``report`` says why every other
file is not in the pack (``reasons.py`` codes). The guarantee: the exact token count of the
returned text, headers and separators included, is at most the budget. If tokens merge
differently across block boundaries and the total overshoots, the last chosen block is dropped
until it holds. The default, ``"footholds"`` (``DEFAULT_STRATEGY``), weighs the ``FOOTHOLD_FILES``
best and never loses a file when a budget of 8,000 tokens or more grows (``strategies.footholds_first``
states the rule); the lesson's ``greedy`` skips and walks on, so more budget can squeeze one out.
Identical files (``strategies.same_bytes``) are packed once. Only the files the strategy reaches are
rendered and tokenized, so tokenizing grows with the budget, not the repository. A view longer than
``CHARS_PER_TOKEN_CEILING`` characters per token left is not tokenized: it could only fit if its text
averaged more characters per token than any file of the standard library does (the most is 5.2 in
o200k_base; code averages ~4.2). It is passed over, never overspent: the budget check is always exact.
When the ceiling leaves nothing packed, every view is counted exactly once more (a file of long
whitespace runs averages past 100 characters per token: 1 MB of spaces is 7,814 tokens).
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import Callable

from . import bm25, packerrors, ranking, render, repo, scoring, strategies
from .i18n import N_, Worded, WordedError, shown
from .offers import Offers
from .packing import check_budget
from .reasons import Reason, Skipped
from .strategies import Option, same_bytes
from .tokens import DEFAULT_ENCODING, count_tokens, counter_for
from .views import VIEW_LADDERS, VIEW_VALUE, view_options  # noqa: F401 (also fit's names for them)

STRATEGIES = {"greedy": strategies.greedy_by_score, "density": strategies.greedy_by_density,
              "knapsack": strategies.knapsack, "footholds": strategies.footholds_first}
CHARS_PER_TOKEN_CEILING = 6
DEFAULT_STRATEGY = "footholds"  # monotone in the budget (strategies.footholds_first); greedy walks on
POOL_FILES, FOOTHOLD_FILES = 40, 80  # files weighed by density/knapsack; by footholds (fewest losing no tuning task)
PATIENCE = 10  # once something is packed, greedy stops after this many files in a row that fit in no view
COUNTED_PER_CHAR = 4  # a pack counts at most ~4 characters per character of the relevant files (views, re-count)


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
    copies: tuple[str, ...] = ()  # other paths with the same bytes, packed once as this one


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


def _by_signals(files, query, signals, history=()):
    return [(r.path, r.score) for r in ranking.rank_files(files, query, signals, history)]


def _by_bm25(files, query, signals, history=()):
    return {p: s.score for p, s in bm25.bm25_scores(files, query).items()}


def _by_terms(files, query, signals, history=()):
    terms = scoring.clean_terms(query.split() if isinstance(query, str) else query)
    return {p: float(scoring.score_file(p, text, terms)) for p, text in files.items()}


def _by_plain(files, query, signals, history=()):
    return bm25.plain_bm25_scores(files, query)


# The one scorer registry: ``pack``, ``rank`` and ``eval`` all go through ``rank``.
SCORERS = {"signals": _by_signals, "bm25": _by_bm25, "terms": _by_terms, "plain": _by_plain}


def rank(files: dict[str, str], query, scorer: str = "signals", signals=ranking.SIGNALS,
         history=()) -> list[tuple[str, float]]:
    """``[(path, score), ...]``, highest first, ties by path: the order ``pack_files`` walks.

    ``scorer``: ``"signals"`` is ``ranking.rank_files`` with ``signals`` (BM25 plus named signals,
    the default; ``query`` may be a ``ranking.Query`` already cleaned); ``"bm25"`` is code-aware BM25
    alone; ``"terms"`` the lesson's baseline (``scoring.score_file``) on the query's words; ``"plain"``
    textbook BM25 on words (``bm25.plain_bm25_scores``). ``history``: recent commits for the
    ``"signals"`` scorer's history signal (``ranking.rank_files``); the others ignore it. Raises
    ``ValueError`` for an unknown scorer or an empty query.
    """
    if not isinstance(scorer, str) or scorer not in SCORERS:  # a list is no name, and unhashable
        raise WordedError.of(N_("unknown scorer {scorer}: choose one of {known}"), scorer=shown(scorer), known=", ".join(SCORERS))
    scores = SCORERS[scorer](files, query, signals, history)
    return scores if isinstance(scores, list) else sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class Ranking:
    """Phase 1 of a pack, the query read and the files ranked: ``ranked`` best first, the ``terms``
    hit ranges are cut around, and ``note`` on how a long query was bounded (else "")."""

    ranked: list[tuple[str, float]]
    terms: tuple[str, ...]
    note: str = ""
    query: str = ""  # as given, for messages

    @property
    def relevant(self) -> list[tuple[str, float]]:
        """The files scoring above 0: the only ones a pack may take."""
        return [(path, score) for path, score in self.ranked if score > 0]


def rank_query(files: dict[str, str], query, scorer: str = "signals", signals=ranking.SIGNALS, history=()) -> Ranking:
    """Clean ``query`` once and rank ``files`` with ``scorer`` (see ``rank``): a ``Ranking``.

    The terms hit ranges are cut around are the ranker's (``ranking.clean_query``), so a long query
    stays bounded. A query in another script has no such terms: the ``terms`` and ``plain``
    scorers still rank it, with no line ranges. Raises ``ValueError`` as ``rank`` does.
    """
    try:
        selected = ranking.clean_query(query, files, signals if scorer == "signals" else ())
    except ValueError:
        if scorer in ("bm25", "signals"):
            raise
        return Ranking(rank(files, query, scorer, signals, history), (), "", str(query))
    # For "signals" the cleaned query is passed on: a long one costs one pass over the files.
    ranked = rank(files, selected if scorer == "signals" else query, scorer, signals, history)
    return Ranking(ranked, tuple(selected.terms), selected.note, str(query))


@dataclass(frozen=True)
class Frame:
    """What a format costs around its blocks, in exact tokens of ``encoding``: the empty pack
    (``frame``), one separator, and the least any block can cost (a one-character file); ``count``
    is the exact counter the pack uses (``tokens.counter_for``)."""

    fmt: str
    encoding: str
    frame: int
    separator: int
    smallest_block: int
    count: Callable[[str], int] = field(repr=False, compare=False)

    @classmethod
    def of(cls, fmt: str, encoding: str, count: Callable[[str], int] | None = None) -> "Frame":
        """Measure ``fmt`` (``render.RENDERERS``) with ``count`` (default: ``tokens.count_tokens`` in ``encoding``)."""
        count = count or functools.partial(count_tokens, encoding=encoding)
        draw = render.RENDERERS[fmt]
        frame = count(draw([]))
        tiny = Option.of("x", "whole", "x", 0.0)
        return cls(fmt, encoding, frame, count(render.SEPARATORS[fmt]), count(draw([tiny])) - frame, count)

    def render(self, options) -> str:
        """The pack's text for ``options``, in this format."""
        return render.RENDERERS[self.fmt](options)

    def block_tokens(self, option: Option) -> int:
        """Exact tokens ``option`` adds to a pack as a block, its separator included."""
        return self.count(self.render([option])) - self.frame + self.separator


@dataclass(frozen=True)
class Choosing:
    """Phase 2, what the strategy chose: ``chosen`` ``[(option, tokens)]``; ``reached``, how many ranked
    files it looked at; ``stopped_after``, the misses in a row that ended a greedy walk (0: it did not
    stop for that); ``refused``, files whose fitting text holds a secret; ``tokenized``, the paths counted."""

    chosen: list
    reached: int
    stopped_after: int
    refused: dict
    tokenized: frozenset
    copies: dict = field(default_factory=dict)  # path -> the better-ranked path with the same bytes
    stopped_at: tuple = ()  # footholds first: strategies.Walk's stopped_at and waiting
    waiting: tuple = ()


def choose(files: dict[str, str], ranking_: Ranking, budget_tokens: int, frame: Frame, *,
           view: str = "auto", strategy: str = DEFAULT_STRATEGY, include_secrets: bool = False,
           ceiling: int | None = CHARS_PER_TOKEN_CEILING, offers: Offers | None = None) -> Choosing:
    """Let ``strategy`` choose views of the relevant files for ``budget_tokens`` (the whole pack's budget).

    Each option is priced exactly (``Frame.block_tokens``), except one that surely cannot fit:
    longer than ``CHARS_PER_TOKEN_CEILING`` characters per token left, it is answered "too big"
    untokenized. A text that fits is then scanned for secrets (``repo.credential_in_text``), unless
    ``include_secrets``: only a text that could be packed is worth the scan. It is the file's WHOLE
    text, once: a file with a secret anywhere is refused in every view (a ranges view showing a key's
    BEGIN line too), not counted toward ``PATIENCE``. Greedy walks the whole ranking with ``PATIENCE``;
    footholds the ``FOOTHOLD_FILES`` best (a prefix at every budget: still monotone), density and
    knapsack ``POOL_FILES``. Raises ``ValueError`` as the strategies do (a knapsack too large).
    ``ceiling``: characters per token left past which a text is "too big" untokenized; ``None`` counts
    every text exactly (``pack_ranked`` does when the ceiling left nothing packed). ``offers``: the views
    and counts of an earlier pass of the same pack (``offers.Offers``), so that none is made twice.
    """
    offers = offers or Offers(files, ranking_.terms, view, frame)
    refused: dict[str, Skipped] = {}
    tokenized, cleared = set(), set()  # cleared: files whose whole text holds no secret

    def cost(option: Option, limit: int) -> int:
        over = limit + 1
        most = float("inf") if ceiling is None else ceiling * limit
        if option.path in refused or option.min_chars > most:
            return over
        text = option.text
        if text is None or len(text) > most:
            return over
        tokens = offers.block_tokens(option)
        tokenized.add(option.path)
        if tokens > limit:
            return tokens
        secret = None if include_secrets or option.path in cleared else repo.credential_in_text(
            files.get(option.path, text), option.path)  # every line a view shows is a line of the file
        if secret:
            refused[option.path] = secret.at(option.path)
            return over
        cleared.add(option.path)
        return tokens

    copies, later = same_bytes(files, [path for path, _ in ranking_.relevant])
    relevant = [(path, score) for path, score in ranking_.relevant if path not in later]
    candidates = (offers.options(path, score, copies.get(path, ())) for path, score in relevant)
    # n blocks carry n - 1 separators, and each block's cost counts one: give one back.
    room = budget_tokens - frame.frame + frame.separator
    if strategy == "footholds":  # monotone in the budget: footholds first (of the pool), then widening
        walk = strategies.footholds_first(itertools.islice(candidates, FOOTHOLD_FILES), room, cost, refused=refused)
        return Choosing(walk.chosen, walk.reached, 0, refused, frozenset(tokenized), later, walk.stopped_at, walk.waiting)
    elif strategy == "greedy":
        walk = strategies.greedy_walk(candidates, room, cost, min_tokens=frame.smallest_block, patience=PATIENCE,
                                      not_a_miss=refused)  # a file refused for a secret is not one that did not fit
        chosen, reached, stopped_after = walk.chosen, walk.reached, walk.stopped_after
    else:
        pool = [list(options) for options in itertools.islice(candidates, POOL_FILES)]
        chosen, reached, stopped_after = STRATEGIES[strategy](pool, room, cost), len(pool), 0
    return Choosing(chosen, reached, stopped_after, refused, frozenset(tokenized), later)


@dataclass(frozen=True)
class Rendered:
    """Phase 3: the pack's ``text``, its exact ``used`` tokens, the blocks ``kept`` and those
    ``dropped`` (``Skipped``) because the rendered whole came out over the budget."""

    text: str
    used: int
    kept: list
    dropped: list


def render_within(chosen: list, frame: Frame, budget_tokens: int) -> Rendered:
    """Render ``chosen`` and count the whole text exactly, dropping the last block while it is over.

    Blocks were priced one by one; tokens can merge differently where blocks meet, so the rendered
    whole is counted again. Returns a ``Rendered`` whose ``used`` <= ``budget_tokens`` (0 blocks: the frame).
    """
    kept, dropped = list(chosen), []
    text = frame.render([option for option, _ in kept])
    used = frame.count(text)
    while used > budget_tokens and kept:
        last, _ = kept.pop()
        dropped.append(Skipped.of(last.path, Reason.DROPPED, over=used - budget_tokens))
        text = frame.render([option for option, _ in kept])
        used = frame.count(text)
    return Rendered(text, used, kept, dropped)


def report(ranking_: Ranking, choosing: Choosing, rendered: Rendered, strategy: str, read_skipped=(),
           budget_tokens: int = 0) -> list[Skipped]:
    """Phase 4: every file not packed, with its reason, sorted by path. From reading (``read_skipped``),
    then: scored 0 (``Reason.NO_MATCH``), refused for a secret, dropped at the exact check, looked at
    but not taken (``NO_VIEW_FITS`` for greedy and footholds, ``NOT_CHOSEN`` for the others), and the
    relevant files never reached: ``STOPPED_AT`` when footholds first stopped at a file (``STOPPED_HERE``),
    ``WALK_STOPPED`` when greedy ran out of patience, ``NOT_WEIGHED`` beyond a pool, else ``BUDGET_FULL``.
    """
    found = list(read_skipped) + [Skipped(p, Reason.NO_MATCH) for p, s in ranking_.ranked if s <= 0]
    found += list(choosing.refused.values()) + rendered.dropped
    found += [choosing.refused[first].at(path) if first in choosing.refused  # a copy of a secret is one too
              else Skipped.of(path, Reason.SAME_BYTES, first=first) for path, first in choosing.copies.items()]
    done = {option.path for option, _ in rendered.kept} | {s.path for s in found}
    relevant = [(path, score) for path, score in ranking_.relevant if path not in choosing.copies]
    looked_at = [path for path, _ in relevant[:choosing.reached]]
    not_reached = (Skipped.of("", Reason.WALK_STOPPED, files=choosing.stopped_after, left=budget_tokens - rendered.used)
                   if choosing.stopped_after else Skipped("", Reason.BUDGET_FULL) if strategy in ("greedy", "footholds")
                   else Skipped.of("", Reason.NOT_WEIGHED, strategy=strategy, most=POOL_FILES))
    if choosing.stopped_at:  # footholds first stopped at a file: it, and every file after it, say where
        stopper, cost, left = choosing.stopped_at
        not_reached = Skipped.of("", Reason.STOPPED_AT, file=stopper, cost=cost, left=left)
        found += [Skipped.of(stopper, Reason.STOPPED_HERE, cost=cost, left=left)] + [
            not_reached.at(path) for path in choosing.waiting if path not in done]
        done |= {stopper, *choosing.waiting}
    left_out = (Skipped("", Reason.NO_VIEW_FITS) if strategy in ("greedy", "footholds")
                else Skipped.of("", Reason.NOT_CHOSEN, strategy=strategy))
    found += [left_out.at(path) for path in looked_at if path not in done]
    done |= set(looked_at)
    if strategy == "footholds":  # beyond the pool: never weighed, whether or not the walk stopped
        beyond = Skipped.of("", Reason.NOT_WEIGHED, strategy=strategy, most=FOOTHOLD_FILES)
        found += [beyond.at(path) for path, _ in relevant[FOOTHOLD_FILES:] if path not in done]
        done |= {path for path, _ in relevant[FOOTHOLD_FILES:]}
    found += [not_reached.at(path) for path, _ in relevant if path not in done]
    return sorted(found, key=lambda s: s.path)


def pack_files(files: dict[str, str], query, budget_tokens: int, *, encoding: str = DEFAULT_ENCODING,
               scorer: str = "signals", view: str = "auto", strategy: str = DEFAULT_STRATEGY, fmt: str = "text",
               include_secrets: bool = False, skipped=(), signals=ranking.SIGNALS, history=()) -> Pack:
    """Pack the files most relevant to ``query`` into ``budget_tokens`` or fewer, exactly counted.

    The phases, each a function returning a value: ``rank_query`` (read the query, rank the
    files), ``choose`` (the strategy picks views), ``render_within`` (render, count exactly),
    ``report`` (why each other file is not in the pack); ``pack_ranked`` runs the last three.

    Args:
        files: ``{POSIX path: text}``, e.g. ``{f.path: f.text for f in read_repo(root).files}``.
        query: the task, ``"vat invoice"``; split into code terms.
        budget_tokens: the hard budget in tokens of ``encoding``, for the whole rendered text.
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
        scorer: ``"signals"`` (``ranking.rank_files``), ``"bm25"``, ``"terms"`` (the lesson's
            baseline) or ``"plain"`` (textbook BM25); see ``rank``.
        view: ``"auto"`` (whole -> signatures -> ranges), ``"whole"``, ``"signatures"``, ``"ranges"``.
        strategy: ``"footholds"`` (the default: footholds first, then widening; more budget never
            loses a file), ``"greedy"`` (the lesson's, by score), ``"density"`` (per token) or ``"knapsack"``.
        fmt: ``"text"``, ``"markdown"`` or ``"json"``.
        include_secrets: pack text that looks like it holds a credential (default: never).
        skipped: ``Skipped`` entries from reading, carried into the result's report.
        signals: the ranking's signals when ``scorer`` is ``"signals"`` (``ranking.SIGNALS``).
        history: recent commits, ``(message, paths)`` newest first (``safegit.recent_commits``), for
            the ``"signals"`` scorer's history signal (``recent.py``); ``()``: none.
    Returns:
        a ``Pack``; ``pack.used_tokens == count_tokens(pack.text, encoding) <= budget_tokens``.
    Raises:
        ValueError: bad budget or option; no file matches the query; nothing fits the budget;
            a knapsack too large to solve exactly. The two about the files are ``i18n.WordedError``
            (``packerrors``): ``error.text("hi")`` words them in Hindi.
    """
    check_options(budget_tokens, view, strategy, fmt)
    ranked = rank_query(files, query, scorer, signals, history)
    return pack_ranked(files, ranked, budget_tokens, encoding=encoding, view=view, strategy=strategy,
                       fmt=fmt, include_secrets=include_secrets, skipped=skipped)


def check_options(budget_tokens: int, view: str = "auto", strategy: str = DEFAULT_STRATEGY, fmt: str = "text") -> None:
    """``ValueError`` naming the value, for a budget that is not a positive whole number of tokens or an
    unknown view (``VIEW_LADDERS``), strategy (``STRATEGIES``) or format (``render.RENDERERS``)."""
    check_budget(budget_tokens)
    for name, value, known in (("view", view, VIEW_LADDERS), ("strategy", strategy, STRATEGIES),
                               ("format", fmt, render.RENDERERS)):
        if not isinstance(value, str) or value not in known:
            raise WordedError.of(N_("unknown {name} {value}: choose one of {known}"), name=name, value=shown(value),
                                 known=", ".join(known))


def pack_ranked(files: dict[str, str], ranked: Ranking, budget_tokens: int, *, encoding: str = DEFAULT_ENCODING,
                view: str = "auto", strategy: str = DEFAULT_STRATEGY, fmt: str = "text", include_secrets: bool = False,
                skipped=()) -> Pack:
    """``pack_files`` on a ranking already made (``rank_query``): choose, render, report.

    ``ctxlib eval`` ranks each commit once and packs that ranking at every budget. Arguments, result
    and errors as ``pack_files``.
    """
    check_options(budget_tokens, view, strategy, fmt)
    relevant = ranked.relevant
    if not relevant:
        raise WordedError(packerrors.no_match(ranked.query, len(files), skipped))
    # The one choice of encoder for the whole pack, by the most it can count (tokens.counter_for).
    count = counter_for(COUNTED_PER_CHAR * sum(len(files[path]) for path, _ in relevant), encoding)
    frame = Frame.of(fmt, encoding, count)
    offers = Offers(files, ranked.terms, view, frame)  # every pass below makes a view, or counts it, once
    choosing = choose(files, ranked, budget_tokens, frame, view=view, strategy=strategy,
                      include_secrets=include_secrets, offers=offers)
    if not choosing.chosen:  # the ceiling is a guess: a text of long whitespace runs can beat it and fit
        choosing = choose(files, ranked, budget_tokens, frame, view=view, strategy=strategy,
                          include_secrets=include_secrets, ceiling=None, offers=offers)
    if not choosing.chosen:
        raise WordedError(_nothing_packed(relevant, choosing.refused, offers, frame, budget_tokens))
    rendered = render_within(choosing.chosen, frame, budget_tokens)
    scores = dict(relevant)
    return Pack(text=rendered.text, used_tokens=rendered.used, budget_tokens=budget_tokens,
                chosen=[Choice(o.path, o.view, tokens, scores[o.path], o.value, o.ranges, o.text, o.copies)
                        for o, tokens in rendered.kept],
                skipped=report(ranked, choosing, rendered, strategy, skipped, budget_tokens),
                files_read=len(files), files_tokenized=len(choosing.tokenized), encoding=encoding,
                query_note=ranked.note)


def _nothing_packed(relevant, refused: dict, offers: Offers, frame: Frame, budget_tokens: int) -> Worded:
    best = relevant[0][0]
    if best in refused:
        return packerrors.refused_best(best, refused[best], sum(path in refused for path, _ in relevant) - 1)
    path, score = relevant[0]
    # A block's tokens less what it adds as a block: the text of a pack holding it alone (Frame.block_tokens).
    needs = [offers.block_tokens(o) + frame.frame - frame.separator for o in offers.options(path, score)
             if o.text is not None]
    return packerrors.budget_too_small(budget_tokens, path, min(needs) if needs else None, offers.view,
                                       frame.fmt, frame.encoding)


def pack_repository(root, query, budget_tokens: int, *, max_file_bytes: int = repo.MAX_FILE_BYTES,
                    max_tree_bytes: int = repo.MAX_TREE_BYTES, include_secrets: bool = False, exclude=(), include=(),
                    progress=None, root_fd=None, **options) -> Pack:
    """Read ``root`` with ``repo.read_repo`` and pack it with ``pack_files``.

    Takes ``pack_files``' keyword options, plus ``read_repo``'s ``max_file_bytes``, ``max_tree_bytes``,
    ``include_secrets``, ``exclude``, ``include``, ``progress`` and ``root_fd``; ``history=True`` ranks by
    ``root``'s own last commits, as ``ctxlib pack --history`` does. Raises ``ValueError`` as both do, and
    ``history.HistoryError`` (one) when ``history=True`` finds no history to read.
    """
    check_budget(budget_tokens)
    if options.get("history") is True:
        from . import recent, safegit

        options["history"] = safegit.recent_commits(root, recent.HISTORY_COMMITS, root_fd=root_fd)
    found = repo.read_repo(root, max_file_bytes=max_file_bytes, include_secrets=include_secrets, exclude=exclude,
                           include=include, progress=progress, root_fd=root_fd, max_tree_bytes=max_tree_bytes)
    files = {f.path: f.text for f in found.files}
    pack = pack_files(files, query, budget_tokens, include_secrets=include_secrets,
                      skipped=found.skipped, **options)
    pack.notes = found.notes
    return pack
