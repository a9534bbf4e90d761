"""Lesson 3's control: pack a repository's files under the query, budget, scorer, view and
strategy the learner picks.

Ranking, views, strategies and the exact budget check are ``ctxlib.fit``; this module only
words a ``Pack`` in the notebook's language and wires the controls. The library writes its
reasons (why the reader skipped a file, why the packer left one out) in English;
``localized_reason`` is the one place that maps them to the learner's language, until the
library words them itself.
"""
from __future__ import annotations

import re

import ipywidgets as widgets

from ctxlib.i18n import LANGS, N_, check_lang, message

from ..tables import Table
from .explorer import Explorer

# The reasons ctxlib.repo and ctxlib.fit write, as patterns over the library's English text, each
# with the message id that words it: the library's own text where it is fixed, a template with its
# details where it is not. A reason that matches none is shown as the library wrote it.
_REASONS = [
    (r"ignored by \.gitignore", N_("ignored by .gitignore")),
    (r"binary \(NUL bytes in the first 8 KiB\)", N_("binary (NUL bytes in the first 8 KiB)")),
    (r"looks like a credential file \((?P<rule>.*)\)", N_("looks like a credential file ({rule})")),
    (r"larger than the size cap \((?P<size>[\d,]+) bytes > (?P<cap>[\d,]+)\)",
     N_("larger than the size cap ({size} bytes > {cap})")),
    (r"folder cannot be read \((?P<error>.*)\)", N_("folder cannot be read ({error})")),
    (r"cannot be read \((?P<error>.*)\)", N_("cannot be read ({error})")),
    (r"not valid UTF-8 \(first bad byte at offset (?P<offset>\d+)\); undecodable bytes replaced with U\+FFFD",
     N_("not valid UTF-8 (first bad byte at offset {offset}); undecodable bytes replaced with U+FFFD")),
    (r"excluded by default \(version control data\)", N_("excluded by default (version control data)")),
    (r"excluded by default \(cache\)", N_("excluded by default (cache)")),
    (r"excluded by default \(test environments\)", N_("excluded by default (test environments)")),
    (r"excluded by default \(installed packages\)", N_("excluded by default (installed packages)")),
    (r"excluded by default \(virtual environment\)", N_("excluded by default (virtual environment)")),
    (r"symbolic link to inside the root: not followed", N_("symbolic link to inside the root: not followed")),
    (r"symbolic link to outside the root: not followed", N_("symbolic link to outside the root: not followed")),
    (r"not a regular file \(a device, socket or pipe\)", N_("not a regular file (a device, socket or pipe)")),
    (r"line (?P<number>\d+) \((?P<line>.*)\) is not a pattern; left out",
     N_("line {number} ({line}) is not a pattern; left out")),
    (r"holds a secret \((?P<detector>.*)\)", N_("holds a secret ({detector})")),
    (r"scores 0 for the query", N_("scores 0 for the query")),
    (r"does not fit in what was left, in any view", N_("does not fit in what was left, in any view")),
    (r"not chosen by the (?P<strategy>\w+) strategy", N_("not chosen by the {strategy} strategy")),
    (r"not reached: the budget was full", N_("not reached: the budget was full")),
    (r"dropped: the rendered pack was (?P<over>[\d,]+) tokens over budget",
     N_("dropped: the rendered pack was {over} tokens over budget")),
]
_REASON_PATTERNS = [(re.compile(pattern), msgid) for pattern, msgid in _REASONS]


def localized_reason(reason: str, lang: str = "en") -> str:
    """A reason written by ``ctxlib.repo`` or ``ctxlib.fit`` (a ``Skipped.reason``), in ``lang``.

    ``localized_reason("ignored by .gitignore", "hi")`` -> ``".gitignore में लिखा है"``;
    ``localized_reason("holds a secret (gitleaks: generic-api-key)", "en")`` returns it unchanged.
    A reason this function does not know is returned as the library wrote it.
    Raises ValueError for an unknown language.
    """
    check_lang(lang)
    for pattern, msgid in _REASON_PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            return message(msgid, lang, **found.groupdict())
    return reason


def reason_text(skipped, lang: str = "en") -> str:
    """A ``ctxlib.repo.Skipped``'s reason in ``lang``: from its catalog message when the library gave
    one (``Skipped.text``), else through ``localized_reason``."""
    return skipped.text(lang) if getattr(skipped, "msgid", "") else localized_reason(skipped.reason, lang)


def skipped_table(skipped, lang: str = "en", *, kept=()) -> Table:
    """What the reader left out (``Repo.skipped``) and kept with a remark (``Repo.notes``), one row each.

    Args:
        skipped, kept: ``ctxlib.repo.Skipped`` lists; lang: "en" or "hi".
    Returns:
        a ``Table`` of (what the reader did, path, why), the reasons in ``lang``.
    """
    rows = [[message("skipped", lang), s.path, reason_text(s, lang)] for s in skipped]
    rows += [[message("kept", lang), s.path, reason_text(s, lang)] for s in kept]
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

# What ctxlib.fit writes when the packer leaves a relevant file out (worded by localized_reason).
_PACKER_REASONS = ("does not fit", "not chosen", "not reached", "holds a secret", "dropped")
LISTED = 12  # more files than this with one reason (a real repository's "not reached") become one line


def _text(lang: str) -> dict:
    if lang not in REPO_TEXT:
        raise ValueError(f"lang must be one of {sorted(REPO_TEXT)}, got {lang!r}")
    return REPO_TEXT[lang]


def _score(score: float) -> str:
    # The baseline's scores are whole counts; BM25's are reals, shown to three places.
    return f"{score:,.0f}" if float(score).is_integer() else f"{score:.3f}"


def _reason(skipped, lang: str) -> str:
    text = reason_text(skipped, lang)
    return message("{reason}: never packed", lang, reason=text) if skipped.reason.startswith("holds a secret") else text


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
    views = []
    for c in pack.chosen:
        found = re.fullmatch(r"(\d+) of (\d+) ranges", c.note)
        views.append(f"{c.view} ({t['ranges'].format(kept=found[1], total=found[2])})" if found else c.view)
    left = [s for s in pack.skipped if s.reason.startswith(_PACKER_REASONS)]
    by_reason: dict[str, list[str]] = {}
    for s in left:
        by_reason.setdefault(_reason(s, lang), []).append(s.path)
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
    zero = sum(s.reason.startswith("scores 0") for s in pack.skipped)
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
                      view: str = "auto", strategy: str = "greedy", lang: str = "en") -> str:
    """The repository explorer's callback: ``ctxlib.fit.pack_files`` with these settings, described.

    Args:
        files: ``{POSIX path: text}``, e.g. ``{f.path: f.text for f in read_repo(root).files}``.
        query: the task's words as typed, e.g. ``"vat invoice"``.
        budget: the hard budget in ``o200k_base`` tokens of the whole rendered pack.
        scorer: ``"bm25"`` or ``"terms"`` (Lesson 1's baseline).
        view: ``"auto"``, ``"whole"``, ``"signatures"`` or ``"ranges"``.
        strategy: ``"greedy"``, ``"density"`` or ``"knapsack"``.
        lang: the notebook's language, "en" or "hi".
    Returns:
        ``describe_repo_pack``'s text, or one line, "cannot pack: ...", when the settings
        cannot give a pack (an empty query, a budget too small for any view, an unknown
        scorer): a learner's input never raises here.
    Raises:
        ValueError: for an unknown language (a notebook's mistake, not the learner's).
    """
    from ctxlib.fit import pack_files

    t = _text(lang)
    try:
        pack = pack_files(files, query, budget, scorer=scorer, view=view, strategy=strategy)
    except ValueError as exc:
        return t["error"].format(error=exc)
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
        an ``Explorer`` whose controls are, in order, query, budget, scorer, view, strategy;
        building it prints ``repack_repository``'s result at the starting values once.
    """
    t = _text(lang)
    w = widgets
    style = {"description_width": "initial"}
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
        strategy=w.Dropdown(options=["greedy", "density", "knapsack"], value="greedy",
                            description=t["strategy"], style=style),
    )


def repo_explorer(files: dict, lang: str = "en", **options) -> None:
    """Show ``make_repo_explorer(files, lang, **options)``; the starting result prints as the cell runs.

    Returns None on purpose, like ``pack_explorer``: nbval runs cells with
    ``store_history=False``, where a returned widget would be displayed a second time.
    """
    from IPython.display import display

    display(make_repo_explorer(files, lang, **options))
