"""Lesson 4's words for library values: a block's label, a price list's name, text the model sees.

The library keeps plain fields (``ctxlib.removal.Block``: kind, path, attempt, turn;
``ctxlib.cost.Pricing``: a name); this module turns them into words in the learner's language,
each through the catalog (``ctxlib.i18n.message``). Not handled: blocks of kinds the lesson's
loop never makes get their kind as their label.
"""
from __future__ import annotations

from ctxlib.cost import ANTHROPIC, NO_CACHE, OPENAI, REAL_RUNS
from ctxlib.i18n import N_, check_lang, message

# One message per kind; fields in braces come from the block.
BLOCK_LABELS = {
    "fixed_prefix": N_("system prompt + tool definitions"),
    "task": N_("task statement"),
    "retrieved_file": N_("retrieved files"),
    "edit": N_("diff of {path}, attempt {attempt} (turn {turn})"),
    "diagnostics": N_("diagnostics of attempt {attempt} (turn {turn})"),
    "file_read": N_("read of {path} (turn {turn})"),
    "search_results": N_("search results (turn {turn})"),
    "model_message": N_("model message (turn {turn})"),
    "summary": N_("summary (turn {turn})"),
}
PRICING_NAMES = {ANTHROPIC.name: N_("Anthropic (5-minute cache)"), OPENAI.name: N_("OpenAI (automatic cache)"),
                 NO_CACHE.name: N_("no prompt cache"),
                 REAL_RUNS.name: N_("the real runs' price list (cached input 0.4x)")}


def block_label(block, lang: str = "en") -> str:
    """A block's label from its fields, in ``lang``.

    Args: ``block`` a ``ctxlib.removal.Block``; ``lang`` "en" or "hi".
    Returns: e.g. ``"diff of billing/invoice.py, attempt 1 (turn 1)"``; a kind not in ``BLOCK_LABELS`` as itself.
    Raises: ValueError for an unknown ``lang``.
    """
    check_lang(lang)
    msgid = BLOCK_LABELS.get(block.kind)
    if msgid is None:
        return block.kind
    return message(msgid, lang, path=block.path, attempt=block.attempt, turn=block.turn)


def pricing_name(pricing, lang: str = "en") -> str:
    """A price list's name (``ctxlib.cost.Pricing.name``) in ``lang``; a name the catalog lacks as itself."""
    check_lang(lang)
    msgid = PRICING_NAMES.get(pricing.name)
    return message(msgid, lang) if msgid else pricing.name


def model_text(text: str, lang: str = "en") -> str:
    """``text`` the model itself reads (a placeholder), introduced in ``lang`` and quoted as it is sent.

    The harness writes such text in English in both lessons, so it is shown verbatim, in quotes,
    under a line that says so: ``'the model sees (as the harness writes it, in English):\\n  "[...]"'``.
    """
    check_lang(lang)
    return message("the model sees (as the harness writes it, in English):", lang) + f'\n  "{text}"'
