"""Lesson 3's control: pack a repository's files under the query, budget, scorer, view and
strategy the learner picks.

Ranking, views, strategies and the exact budget check are ``ctxlib.fit``; this module only
words a ``Pack`` in the notebook's language and wires the controls.
"""
from __future__ import annotations

import re

import ipywidgets as widgets

from .explorer import Explorer

REPO_TEXT = {
    "en": {
        "chosen": "packed (in rank order):",
        "none": "  (nothing)",
        "row": "{view} {tokens} tokens  score {score}",
        "left_out": "relevant files left out:",
        "does not fit": "does not fit in what was left, in any view",
        "not chosen": "not chosen by the {strategy} strategy",
        "not reached": "not reached: the budget was full",
        "holds a secret": "holds a secret ({detector}): never packed",
        "dropped": "dropped: the rendered pack was over budget",
        "many": "  {n} files: {reason} (e.g. {examples})",
        "zero": "score 0 for the query: {n} files",
        "reader": "skipped by the reader (ignored, binary, too big, credentials): {n}",
        "ranges": "{kept} of {total} ranges",
        "read": "files read: {read}; tokenized: {tokenized} (only those the packer reached)",
        "total": "rendered pack: {used} of {budget} tokens ({encoding}, counted on the rendered text)",
        "error": "cannot pack: {error}",
        "query": "query", "budget": "budget", "scorer": "scorer", "view": "view", "strategy": "strategy",
        "static": "[repository explorer: in JupyterLab, edit the query or move a control to pack again]",
    },
    "hi": {
        "chosen": "pack हुई files (rank के क्रम में):",
        "none": "  (कुछ नहीं)",
        "row": "{view} {tokens} tokens  score {score}",
        "left_out": "छूट गई प्रासंगिक files:",
        "does not fit": "बची जगह में किसी भी view में नहीं समाती",
        "not chosen": "{strategy} strategy ने नहीं चुनी",
        "not reached": "बारी ही नहीं आई: बजट भर चुका था",
        "holds a secret": "इसमें secret है ({detector}): कभी pack नहीं होती",
        "dropped": "हटाई गई: rendered pack बजट से ऊपर था",
        "many": "  {n} files: {reason} (जैसे {examples})",
        "zero": "query पर score 0: {n} files",
        "reader": "reader ने छोड़ीं (ignored, binary, बहुत बड़ी, credentials): {n}",
        "ranges": "{total} में से {kept} ranges",
        "read": "पढ़ी गई files: {read}; tokenize हुईं: {tokenized} (सिर्फ़ वे जिन तक packer पहुँचा)",
        "total": "rendered pack: {budget} में से {used} tokens ({encoding}, rendered text पर गिने गए)",
        "error": "pack नहीं हो सका: {error}",
        "query": "query", "budget": "बजट", "scorer": "scorer", "view": "view", "strategy": "strategy",
        "static": "[repository explorer: JupyterLab में query बदलिए या कोई control खिसकाइए, files फिर से pack होंगी]",
    },
}

# What ctxlib.fit writes when the packer leaves a relevant file out; each has its own wording above.
_PACKER_REASONS = ("does not fit", "not chosen", "not reached", "holds a secret", "dropped")
LISTED = 12  # more files than this with one reason (a real repository's "not reached") become one line


def _text(lang: str) -> dict:
    if lang not in REPO_TEXT:
        raise ValueError(f"lang must be one of {sorted(REPO_TEXT)}, got {lang!r}")
    return REPO_TEXT[lang]


def _score(score: float) -> str:
    # The baseline's scores are whole counts; BM25's are reals, shown to three places.
    return f"{score:,.0f}" if float(score).is_integer() else f"{score:.3f}"


def _reason(reason: str, t: dict) -> str:
    kind = next(k for k in _PACKER_REASONS if reason.startswith(k))
    if kind == "not chosen":
        found = re.search(r"by the (\w+) strategy", reason)
        return t[kind].format(strategy=found.group(1) if found else "")
    if kind == "holds a secret":
        found = re.search(r"\((.*)\)", reason)
        return t[kind].format(detector=found.group(1) if found else "detect-secrets")
    return t[kind]


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
        by_reason.setdefault(_reason(s.reason, t), []).append(s.path)
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
