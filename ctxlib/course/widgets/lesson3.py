"""Lesson 3's control: pack a repository's files under the query, budget, scorer, view and
strategy the learner picks.

Ranking, views, strategies and the exact budget check are ``ctxlib.fit``; this module only
words a ``Pack`` in the notebook's language and wires the controls. The library's reasons (why
the reader skipped a file, why the packer left one out) are codes (``ctxlib.reasons``), worded
here in the learner's language from the catalog.
"""
from __future__ import annotations

import ipywidgets as widgets

from ctxlib.i18n import LANGS, N_, check_lang, in_lang, message
from ctxlib.reasons import LEFT_OUT_BY_PACKER, Reason, Skipped

from ..tables import Table
from .explorer import Explorer

def localized_reason(reason, lang: str = "en") -> str:
    """A reason from ``ctxlib.repo`` or ``ctxlib.fit`` (a ``ctxlib.reasons.Skipped``) in ``lang``.

    ``localized_reason(Skipped.of("a.py", Reason.IGNORED), "hi")`` -> ``".gitignore में लिखा है"``;
    ``localized_reason(credential_in_text(text), "hi")`` words the secret's reason. The words come
    from the catalog by the reason's code; ``""`` or ``None`` (no reason) gives ``""``.
    Raises ValueError for an unknown language, TypeError for anything else (printed English is
    never read back).
    """
    check_lang(lang)
    if not reason:
        return ""
    if not isinstance(reason, Skipped):
        raise TypeError(f"a reason is a ctxlib.reasons.Skipped, got {reason!r}")
    return reason.text(lang)


def skipped_table(skipped, lang: str = "en", *, kept=()) -> Table:
    """What the reader left out (``Repo.skipped``) and kept with a remark (``Repo.notes``), one row each.

    Args:
        skipped, kept: ``ctxlib.repo.Skipped`` lists; lang: "en" or "hi".
    Returns:
        a ``Table`` of (what the reader did, path, why), the reasons in ``lang``.
    """
    rows = [[message("skipped", lang), s.path, s.text(lang)] for s in skipped]
    rows += [[message("kept", lang), s.path, s.text(lang)] for s in kept]
    return Table([message("reader", lang), message("path", lang), message("why", lang)], rows)


def explain_table(score, lang: str = "en") -> Table:
    """``ctxlib.bm25.explain`` as a table in ``lang``: one row per query term of one file's score.

    Args:
        score: a ``ctxlib.bm25.FileScore``; lang: "en" or "hi".
    Returns:
        a ``Table`` titled with the file and its BM25 score; per term: its count in the body,
        whether the file's or a folder's name has it, idf, body weight and its share of the score.
    """
    yes, no = message("yes", lang), "-"
    rows = [[t.term, t.body_tf, yes if t.in_name else no, yes if t.in_folders else no,
             t.idf, t.body_weight, t.score] for t in score.terms]
    return Table(["term", "body tf", message("name", lang), message("folder", lang), "idf", "body",
                  message("share", lang)], rows, number_format=".3f",
                 title=message("{path}: BM25 {score:.3f}", lang, path=score.path, score=score.score))

# The explorer's words, as message ids (translated in the catalogs); REPO_TEXT[lang][key] is the
# translated str.format template, e.g. REPO_TEXT["hi"]["budget"] == "बजट".
_REPO_MSGIDS = {
    "chosen": N_("packed (in rank order):"),
    "none": N_("  (nothing)"),
    "row": N_("{view} {tokens} tokens  score {score}"),
    "left_out": N_("relevant files left out:"),
    "many": N_("  {n} files: {reason} (e.g. {examples})"),
    "zero": N_("score 0 for the query: {n} files"),
    "reader": N_("skipped by the reader (ignored, binary, too big, credentials): {n}"),
    "ranges": N_("{kept} of {total} ranges"),
    "read": N_("files read: {read}; tokenized: {tokenized} (only those the packer reached)"),
    "total": N_("rendered pack: {used} of {budget} tokens ({encoding}, counted on the rendered text)"),
    "error": N_("cannot pack: {error}"),
    "budget": N_("budget"),
    "static": N_("[repository explorer: in JupyterLab, edit the query or move a control to pack again]"),
}
# The control labels the glossary keeps in English in every language (the Hindi lessons say them so).
_KEPT_IN_ENGLISH = {"query": "query", "scorer": "scorer", "view": "view", "strategy": "strategy"}
REPO_TEXT = {lang: {**{key: message(msgid, lang) for key, msgid in _REPO_MSGIDS.items()}, **_KEPT_IN_ENGLISH}
             for lang in LANGS}

LISTED = 12  # more files than this with one reason (a real repository's "not reached") become one line


def _text(lang: str) -> dict:
    if lang not in REPO_TEXT:
        raise ValueError(f"lang must be one of {sorted(REPO_TEXT)}, got {lang!r}")
    return REPO_TEXT[lang]


def _score(score: float) -> str:
    # The baseline's scores are whole counts; BM25's are reals, shown to three places.
    return f"{score:,.0f}" if float(score).is_integer() else f"{score:.3f}"


def _reason(skipped, lang: str) -> str:
    text = skipped.text(lang)
    return message("{reason}: never packed", lang, reason=text) if skipped.code is Reason.SECRET else text


def describe_repo_pack(pack, lang: str = "en") -> str:
    """A ``ctxlib.fit.Pack`` as the lesson prints it, in ``lang`` ("en" or "hi").

    Args:
        pack: what ``ctxlib.fit.pack_files`` or ``pack_repository`` returned.
        lang: the notebook's language.
    Returns:
        the packed files in rank order (view, exact tokens of the rendered block, score);
        the relevant files left out, each with the packer's reason (more than ``LISTED``
        with the same reason are counted on one line instead); how many scored 0 and
        how many the reader skipped; files read and tokenized; and the rendered total,
        e.g. ``rendered pack: 1,993 of 2,000 tokens (o200k_base, counted on the rendered text)``.
    Raises:
        ValueError: for an unknown language.
    """
    t = _text(lang)
    views = [f"{c.view} ({t['ranges'].format(kept=c.ranges[0], total=c.ranges[1])})" if c.ranges else c.view
             for c in pack.chosen]
    left = [s for s in pack.skipped if s.code in LEFT_OUT_BY_PACKER]
    by_reason: dict[tuple, list[str]] = {}  # one group per code and parameters: one wording
    for s in left:
        by_reason.setdefault((s.code, s.params), []).append(s.path)
    by_reason = {_reason(Skipped(paths[0], *key), lang): paths for key, paths in by_reason.items()}
    listed = sorted((path, reason) for reason, paths in by_reason.items() if len(paths) <= LISTED
                    for path in paths)
    grouped = [t["many"].format(n=f"{len(paths):,}", reason=reason, examples=", ".join(paths[:3]))
               for reason, paths in by_reason.items() if len(paths) > LISTED]
    width = max([len(c.path) for c in pack.chosen] + [len(path) for path, _ in listed] + [1])
    view_width = max([len(v) for v in views] + [1])
    lines = [t["chosen"]]
    lines += [f"  {c.path:<{width}}  " + t["row"].format(view=f"{v:<{view_width}}", tokens=f"{c.tokens:>6,}",
                                                           score=_score(c.score))
              for c, v in zip(pack.chosen, views)] or [t["none"]]
    if left:
        lines.append(t["left_out"])
        lines += [f"  {path:<{width}}  {reason}" for path, reason in listed] + grouped
    zero = sum(s.code is Reason.NO_MATCH for s in pack.skipped)
    reader = len(pack.skipped) - zero - len(left)
    if zero:
        lines.append(t["zero"].format(n=zero))
    if reader:
        lines.append(t["reader"].format(n=reader))
    lines.append(t["read"].format(read=f"{pack.files_read:,}", tokenized=f"{pack.files_tokenized:,}"))
    lines.append(t["total"].format(used=f"{pack.used_tokens:,}", budget=f"{pack.budget_tokens:,}",
                                   encoding=pack.encoding))
    return "\n".join(lines)


def repack_repository(files: dict, query: str = "vat invoice", budget: int = 2_000, scorer: str = "bm25",
                      view: str = "auto", strategy: str | None = None, lang: str = "en") -> str:
    """The repository explorer's callback: ``ctxlib.fit.pack_files`` with these settings, described.

    Args:
        files: ``{POSIX path: text}``, e.g. ``{f.path: f.text for f in read_repo(root).files}``.
        query: the task's words as typed, e.g. ``"vat invoice"``.
        budget: the hard budget in ``o200k_base`` tokens of the whole rendered pack.
        scorer: ``"bm25"`` or ``"terms"`` (Lesson 1's baseline).
        view: ``"auto"``, ``"whole"``, ``"signatures"`` or ``"ranges"``.
        strategy: ``"footholds"``, ``"greedy"``, ``"density"`` or ``"knapsack"``; ``None``: the
            library's default (``ctxlib.fit.DEFAULT_STRATEGY``, what ``ctxlib pack`` uses).
        lang: the notebook's language, "en" or "hi".
    Returns:
        ``describe_repo_pack``'s text, or one line, "cannot pack: ...", when the settings
        cannot give a pack (an empty query, a budget too small for any view, an unknown
        scorer): a learner's input never raises here.
    Raises:
        ValueError: for an unknown language (a notebook's mistake, not the learner's).
    """
    from ctxlib.fit import DEFAULT_STRATEGY, pack_files

    t = _text(lang)
    try:
        pack = pack_files(files, query, budget, scorer=scorer, view=view, strategy=strategy or DEFAULT_STRATEGY)
    except ValueError as exc:
        return t["error"].format(error=in_lang(exc, lang))
    return describe_repo_pack(pack, lang)


def make_repo_explorer(files: dict, lang: str = "en", *, query: str = "vat invoice", budget: int = 2_000,
                       max_budget: int = 12_000) -> "Explorer":
    """Build (without showing) the query box, budget slider and scorer, view and strategy menus.

    Args:
        files: ``{POSIX path: text}`` to pack on every change.
        lang: the notebook's language, "en" or "hi" (labels and printed text).
        query: the query box's starting text; budget: the slider's starting value (tokens),
            from 100 to ``max_budget`` in steps of 100.
    Returns:
        an ``Explorer`` whose controls are, in order, query, budget, scorer, view, strategy (the
        library's default first and selected: ``ctxlib.fit.DEFAULT_STRATEGY``, as ``ctxlib pack``);
        building it prints ``repack_repository``'s result at the starting values once.
    """
    from ctxlib.fit import DEFAULT_STRATEGY, STRATEGIES

    t = _text(lang)
    w = widgets
    style = {"description_width": "initial"}
    strategies = [DEFAULT_STRATEGY] + [name for name in STRATEGIES if name != DEFAULT_STRATEGY]
    return Explorer(
        lambda query, budget, scorer, view, strategy: print(
            repack_repository(files, query, budget, scorer, view, strategy, lang), flush=True),
        note=t["static"],
        query=w.Text(value=query, description=t["query"], continuous_update=False, style=style),
        budget=w.IntSlider(value=budget, min=100, max=max_budget, step=100, description=t["budget"],
                           continuous_update=False, style=style, layout=w.Layout(width="420px")),
        scorer=w.Dropdown(options=["bm25", "terms"], value="bm25", description=t["scorer"], style=style),
        view=w.Dropdown(options=["auto", "whole", "signatures", "ranges"], value="auto",
                        description=t["view"], style=style),
        strategy=w.Dropdown(options=strategies, value=DEFAULT_STRATEGY,
                            description=t["strategy"], style=style),
    )


def repo_explorer(files: dict, lang: str = "en", **options) -> None:
    """Show ``make_repo_explorer(files, lang, **options)``; the starting result prints as the cell runs.

    Returns None on purpose, like ``pack_explorer``: nbval runs cells with
    ``store_history=False``, where a returned widget would be displayed a second time.
    """
    from IPython.display import display

    display(make_repo_explorer(files, lang, **options))
