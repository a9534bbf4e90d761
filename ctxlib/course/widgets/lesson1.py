"""Lesson 1's control: re-pack the seed's files under a budget and query the learner picks."""
from __future__ import annotations

import ipywidgets as widgets

from .explorer import Explorer

PACK_TEXT = {
    "en": {
        "chosen": "chosen (in packing order):",
        "none": "  (nothing fits)",
        "skipped": "skipped:",
        "zero": "scores 0",
        "no_room": "{cost} tokens do not fit in the {left} left",
        "used": "tokens used: {used} of {budget}",
        "budget": "budget",
        "query": "query terms",
        "counter": "counted by",
        "error": "cannot pack: {error}",
        "static": "[pack explorer: in JupyterLab, move the budget or edit the query to pack again]",
    },
    "hi": {
        "chosen": "चुनी गई files (जिस क्रम में भरी गईं):",
        "none": "  (कुछ भी नहीं समाता)",
        "skipped": "छोड़ी गई files:",
        "zero": "score 0 है",
        "no_room": "{cost} tokens बचे हुए {left} में नहीं समाते",
        "used": "इस्तेमाल हुए tokens: {used} / {budget}",
        "budget": "बजट",
        "query": "query के शब्द",
        "counter": "गिनने का तरीक़ा",
        "error": "pack नहीं हो सका: {error}",
        "static": "[pack explorer: JupyterLab में बजट खिसकाइए या query बदलिए, files फिर से pack होंगी]",
    },
}




def _text(lang: str) -> dict:
    if lang not in PACK_TEXT:
        raise ValueError(f"lang must be one of {sorted(PACK_TEXT)}, got {lang!r}")
    return PACK_TEXT[lang]


def describe_pack(packed, lang: str = "en") -> str:
    """A packer result as the lesson prints it, in ``lang`` ("en" or "hi").

    Args:
        packed: a ``ctxlib.packing.Packed``.
        lang: the notebook's language.
    Returns:
        several lines: the chosen files with their tokens, the skipped ones with the reason,
        and ``tokens used: U of B``.
    Raises:
        ValueError: for an unknown language.
    """
    t = _text(lang)
    width = max([len(name) for name, _ in packed.chosen] + [len(s.name) for s in packed.skipped] + [1])
    lines = [t["chosen"]]
    lines += [f"  {name:<{width}}  {cost:>6,} tokens" for name, cost in packed.chosen] or [t["none"]]
    if packed.skipped:
        lines.append(t["skipped"])
        for s in packed.skipped:
            why = t["zero"] if s.cost is None else t["no_room"].format(cost=f"{s.cost:,}", left=f"{s.left:,}")
            lines.append(f"  {s.name:<{width}}  {why}")
    lines.append(t["used"].format(used=f"{packed.used:,}", budget=f"{packed.budget:,}"))
    return "\n".join(lines)


def repack(files: dict, budget: int, query: str, counter: str = "rough", lang: str = "en") -> str:
    """The pack explorer's callback: pack ``files`` for ``query`` (terms split on spaces) and describe it.

    Args:
        files: ``{file name: text}``.
        budget: the token budget (tokens).
        query: the query terms as typed, separated by spaces.
        counter: ``"rough"``, ``"o200k_base"`` or ``"cl100k_base"``.
        lang: the notebook's language.
    Returns:
        ``describe_pack``'s text, or one line saying why it cannot pack (an empty query, say):
        a learner's typing never raises here.
    """
    from ctxlib.packing import pack_context
    from ctxlib.tokens import token_counter

    try:
        packed = pack_context(files, query.split(), budget, count=token_counter(counter))
    except ValueError as exc:
        return _text(lang)["error"].format(error=exc)
    return describe_pack(packed, lang)


def make_pack_explorer(files: dict, query: str = "discount pricing", budget: int = 300,
                       lang: str = "en", max_budget: int = 1500) -> "Explorer":
    """Build (without showing) the budget slider, query box and counter menu that re-pack ``files``.

    Args:
        files: ``{file name: text}``.
        query: the default query terms, separated by spaces.
        budget: the slider's default budget (tokens); ``max_budget`` its upper end.
        lang: the notebook's language, "en" or "hi".
    Returns:
        an ``Explorer``; building it prints the result at the default settings once.
    """
    w = widgets
    t = _text(lang)
    return Explorer(
        lambda budget, query, counter: print(repack(files, budget, query, counter, lang)),
        note=t["static"],
        budget=w.IntSlider(value=budget, min=10, max=max_budget, step=10, description=t["budget"],
                           continuous_update=False),
        query=w.Text(value=query, description=t["query"], continuous_update=False),
        counter=w.Dropdown(options=["rough", "o200k_base", "cl100k_base"], value="rough",
                           description=t["counter"]),
    )


def pack_explorer(files: dict, **options) -> None:
    """Show ``make_pack_explorer(files, **options)``; the default result is printed as the cell runs.

    Returns None on purpose: nbval runs cells with ``store_history=False``, where a trailing
    ``;`` does not hide a returned widget, so a returned value would be displayed twice.
    """
    from IPython.display import display

    display(make_pack_explorer(files, **options))
