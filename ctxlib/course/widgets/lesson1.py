"""Lesson 1's control: re-pack the lesson's four files under a budget and query the learner picks."""
from __future__ import annotations

import ipywidgets as widgets

from ctxlib.i18n import check_lang, message

from .explorer import Explorer

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
    check_lang(lang)
    width = max([len(name) for name, _ in packed.chosen] + [len(s.name) for s in packed.skipped] + [1])
    lines = [message("chosen (in packing order):", lang)]
    chosen = [f"  {name:<{width}}  {cost:>6,} tokens" for name, cost in packed.chosen]
    lines += chosen or ["  " + message("(nothing fits)", lang)]
    if packed.skipped:
        lines.append(message("skipped:", lang))
        for s in packed.skipped:
            why = (message("scores 0", lang) if s.cost is None else
                   message("{cost:,} tokens do not fit in the {left:,} left", lang, cost=s.cost, left=s.left))
            lines.append(f"  {s.name:<{width}}  {why}")
    lines.append(message("tokens used: {used:,} of {budget:,}", lang, used=packed.used, budget=packed.budget))
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
        return message("cannot pack: {error}", lang, error=exc)
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
    check_lang(lang)
    return Explorer(
        lambda budget, query, counter: print(repack(files, budget, query, counter, lang)),
        note=message("[pack explorer: in JupyterLab, move the budget or edit the query to pack again]", lang),
        budget=w.IntSlider(value=budget, min=10, max=max_budget, step=10, description=message("budget", lang),
                           continuous_update=False),
        query=w.Text(value=query, description=message("query terms", lang), continuous_update=False),
        counter=w.Dropdown(options=["rough", "o200k_base", "cl100k_base"], value="rough",
                           description=message("counted by", lang)),
    )


def pack_explorer(files: dict, **options) -> None:
    """Show ``make_pack_explorer(files, **options)``; the default result is printed as the cell runs.

    Returns None on purpose: nbval runs cells with ``store_history=False``, where a trailing
    ``;`` does not hide a returned widget, so a returned value would be displayed twice.
    """
    from IPython.display import display

    display(make_pack_explorer(files, **options))
