"""Lesson 1's controls and printed tables: the pack explorer (re-pack the lesson's four files under
a budget and query the learner picks), a text's tokens, the pieces of a request, and the rough rule
beside the exact counts of two tokenizers."""
from __future__ import annotations

import ipywidgets as widgets

from ctxlib.ceiling import is_whole_number
from ctxlib.i18n import N_, WordedError, check_lang, in_lang, message

from ..tables import Table
from .explorer import Explorer


def token_pieces(text: str, encoding: str = "o200k_base", lang: str = "en") -> str:
    """How a tokenizer cuts ``text``: the count, then the pieces between ``|`` marks.

    Args:
        text: any string; encoding: ``"o200k_base"`` or ``"cl100k_base"``; lang: "en" or "hi".
    Returns:
        two lines, e.g. ``"7 tokens in o200k_base:"`` and ``"|apply|_discount|(price|..."``.
        A piece that is not whole UTF-8 on its own (part of a Devanagari character) shows as
        its bytes in hex, ``<e0a4>``.
    Raises:
        ValueError: for an unknown encoding or language.
    """
    from ctxlib.tokens import get_encoding

    check_lang(lang)
    enc = get_encoding(encoding)
    pieces = []
    for token in enc.encode(text, disallowed_special=()):
        raw = enc.decode_single_token_bytes(token)
        try:
            pieces.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            pieces.append("<" + raw.hex() + ">")
    head = message("{n:,} tokens in {encoding}:", lang, n=len(pieces), encoding=encoding)
    return head + "\n|" + "|".join(pieces) + "|"


def request_table(parts: dict, window_tokens: int, lang: str = "en", encoding: str = "o200k_base") -> Table:
    """One request's parts with their exact token counts, and the room left for the reply.

    Args:
        parts: ``{label: text}`` in the order the harness sends them (labels already in ``lang``).
        window_tokens: the context window in tokens.
        lang: "en" or "hi"; encoding: the tokenizer that counts.
    Returns:
        a ``Table`` (part, tokens, share of the window in percent), with two last rows: the
        whole input, and the reply room (window minus input; negative when the input overflows).
    Raises:
        ValueError: for an unknown language or encoding, or a window that is not positive.
    """
    from ctxlib.tokens import count_tokens

    check_lang(lang)
    if not is_whole_number(window_tokens, 1):
        raise WordedError.of(N_("window_tokens must be a positive number of tokens, got {value}"), value=repr(window_tokens))
    counts = [(label, count_tokens(text, encoding)) for label, text in parts.items()]
    used = sum(n for _, n in counts)
    rows = [[label, n, 100 * n / window_tokens] for label, n in counts]
    rows.append([message("the whole input", lang), used, 100 * used / window_tokens])
    rows.append([message("room for the reply", lang), window_tokens - used, 100 * (window_tokens - used) / window_tokens])
    title = message("one request, counted in {encoding}, window {window:,} tokens", lang,
                    encoding=encoding, window=window_tokens)
    return Table([message("part", lang), message("tokens", lang), message("share of the window", lang)], rows,
                 title=title, number_format=".1f")


def tokenizer_table(texts: dict, lang: str = "en") -> Table:
    """The rough rule beside the exact counts of ``o200k_base`` and ``cl100k_base``, one row per text.

    Args:
        texts: ``{label: text}`` (labels already in ``lang``).
        lang: "en" or "hi".
    Returns:
        a ``Table``: characters, ``len // 4``, the two exact counts, and cl100k_base / o200k_base
        (how many times the older tokenizer's count is the newer one's).
    Raises:
        ValueError: for an unknown language.
    """
    from ctxlib.tokens import count_tokens, estimate_tokens

    check_lang(lang)
    rows = []
    for label, text in texts.items():
        o200k, cl100k = count_tokens(text, "o200k_base"), count_tokens(text, "cl100k_base")
        rows.append([label, len(text), estimate_tokens(text), o200k, cl100k, cl100k / o200k])
    return Table([message("text", lang), message("characters", lang), "chars/4", "o200k_base", "cl100k_base",
                  "cl100k/o200k"], rows, number_format=".2f")

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
    width = max([len(name) for name, _ in packed.chosen] + [len(s.path) for s in packed.skipped] + [1])
    lines = [message("chosen (in packing order):", lang)]
    chosen = [f"  {name:<{width}}  {cost:>6,} tokens" for name, cost in packed.chosen]
    lines += chosen or ["  " + message("(nothing fits)", lang)]
    if packed.skipped:
        lines.append(message("skipped:", lang))
        lines += [f"  {s.path:<{width}}  {s.text(lang)}" for s in packed.skipped]
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
        return message("cannot pack: {error}", lang, error=in_lang(exc, lang))
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
