"""Lesson 4's checkers, "What to remove": superseded diffs, observation masking, the cached share, a run's bill.

Expected values come from ``ctxlib.removal`` (``drop_superseded_diffs``, ``observation_masking``)
and ``ctxlib.cost`` (``cached_share``, ``request_costs``).
"""
from __future__ import annotations

import reprlib
from collections import namedtuple

from ctxlib.cost import Pricing, cached_share, request_costs
from ctxlib.i18n import N_
from ctxlib.removal import drop_superseded_diffs, make_block, observation_masking

from ..exercises import Case, describe


def _about_blocks(blocks, extra: str = "") -> dict:
    return describe(N_("for blocks {blocks}{extra}"), blocks=reprlib.repr(blocks), extra=extra)


def superseded_cases() -> list[Case]:
    """Lesson 4, "own_superseded": ``my_superseded(blocks)`` -> the indices of the blocks
    ``ctxlib.removal.drop_superseded_diffs`` keeps; ``blocks`` is a list of ``(kind, path)``.

    The lesson's loop and three small transcripts; then a file read again after its last edit (the edit stays:
    only a later edit supersedes one), edits of two files interleaved, two files of one name in different
    folders (the whole path is compared), one edit, no blocks, reads of one file repeated (they all stay), and
    paths in Hindi, and equal paths that are not the same object (compared by value, not identity).
    """
    shown = [
        [("task", None), ("edit", "billing/invoice.py"), ("diagnostics", None), ("edit", "billing/invoice.py"),
         ("diagnostics", None), ("edit", "billing/invoice.py")],
        [("task", None), ("edit", "a.py"), ("edit", "b.py"), ("diagnostics", None), ("edit", "a.py")],
        [("task", None), ("file_read", "a.py"), ("diagnostics", None)],
        [("edit", "a.py"), ("edit", "a.py"), ("edit", "a.py"), ("edit", "b.py")],
    ]
    hidden = [
        ([("task", None), ("file_read", "vat.py"), ("edit", "vat.py"), ("diagnostics", None), ("file_read", "vat.py")],
         N_("for a file read again after its last edit")),
        ([("task", None), ("edit", "vat.py"), ("file_read", "vat.py"), ("edit", "vat.py"), ("file_read", "vat.py"),
          ("diagnostics", None)], N_("for a file edited, read, edited and read again")),
        ([("edit", "x.py"), ("edit", "y.py"), ("edit", "x.py"), ("edit", "y.py"), ("edit", "z.py"), ("diagnostics", None)],
         N_("for edits of several files interleaved")),
        ([("edit", "shop/vat.py"), ("edit", "tests/vat.py"), ("diagnostics", None), ("edit", "tests/vat.py")],
         N_("for two files of the same name in different folders")),
        ([("task", None), ("edit", "only.py")], N_("for a single edit")),
        ([], N_("for no blocks at all")),
        ([("file_read", "a.py"), ("file_read", "a.py"), ("search_results", None), ("search_results", None)],
         N_("for repeated reads and searches, and no edit")),
        ([("edit", "docs/बजट.md"), ("edit", "docs/बजट.py"), ("edit", "docs/बजट.md")], N_("for paths in Hindi")),
        ([("edit", "a.py"), ("edit", "A.py"), ("diagnostics", None), ("edit", "a.py/")],
         N_("for paths that differ only in case or a trailing slash")),
        # Equal paths that are not one object (read from two tool calls): compared with ==, not is.
        ([("edit", "/".join(["shop", "vat.py"])), ("diagnostics", None), ("edit", "/".join(["shop", "vat.py"]))],
         N_("for equal paths built separately")),
    ]
    cases = []
    for blocks, about in [(b, None) for b in shown] + hidden:
        made = [make_block(kind, 100, f"block {i}", path=path) for i, (kind, path) in enumerate(blocks)]
        kept, _ = drop_superseded_diffs(made, 0)
        expected = [i for i, block in enumerate(made) if any(block is k for k in kept)]
        cases.append(Case((blocks,), expected, describe(about) if about else _about_blocks(blocks)))
    return cases


def masking_cases() -> list[Case]:
    """Lesson 4, "own_masking": ``my_masking(blocks, keep_last, placeholder)`` against ``ctxlib.removal.observation_masking``.

    ``blocks`` is a list of ``(kind, tokens)``; the answer returns the tokens each block carries after
    masking, a masked block carrying ``placeholder`` tokens. Cases: the chapter's four attempts, a
    40-block mix, keep_last larger than the outputs, a block already smaller than a placeholder;
    then keep_last equal to the outputs, outputs of three kinds interleaved with diffs and messages
    (keep_last counts them together), keep_last larger than the outputs, a transcript with no tool output, no blocks, the last
    block not a tool output, an older output only a little larger than a placeholder (masked all the same), and a
    newest output no larger than a placeholder (it is still one of the last keep_last: the older ones are masked).
    """
    transcripts = [
        [("fixed_prefix", 9_000), ("task", 1_000), ("edit", 6_000), ("diagnostics", 24_000), ("edit", 6_000),
         ("diagnostics", 60_000), ("edit", 6_000), ("diagnostics", 24_000)],
        [("task", 800), ("model_message", 150), ("file_read", 900), ("model_message", 140), ("search_results", 300),
         ("edit", 250), ("diagnostics", 700), ("model_message", 160), ("file_read", 1_200)],
        [("task", 800), ("file_read", 900)],
        [("task", 800), ("search_results", 12), ("file_read", 900), ("diagnostics", 700)],
    ]
    mixed = [("task", 700), ("file_read", 400), ("diagnostics", 3_000), ("edit", 500), ("search_results", 250),
             ("file_read", 800), ("model_message", 90), ("diagnostics", 2_500), ("edit", 450), ("model_message", 120)]
    shown = [(transcripts[0], 1, 20), (transcripts[0], 2, 20), (transcripts[1], 2, 25),
             (transcripts[1], 3, 25), (transcripts[2], 5, 20), (transcripts[3], 1, 20)]
    # No block lies between a placeholder's size and ctxlib's own placeholder text (15 to 18 tokens),
    # so both mask the same blocks.
    hidden = [((transcripts[0], 3, 20), N_("for keep_last equal to the number of tool outputs")),
              ((mixed, 8, 20), N_("for keep_last larger than the number of tool outputs")),
              ((mixed, 1, 30), N_("for tool outputs of three kinds among diffs and messages, keep_last 1")),
              ((mixed, 3, 40), N_("for tool outputs of three kinds among diffs and messages, keep_last 3")),
              (([("task", 500), ("edit", 900), ("model_message", 300), ("edit", 800)], 1, 20),
               N_("for a transcript with no tool output")),
              (([], 2, 20), N_("for no blocks at all")),
              (([("file_read", 5), ("diagnostics", 4_000), ("file_read", 7), ("diagnostics", 900), ("edit", 300)], 1, 20),
               N_("for tool outputs smaller than a placeholder")),
              (([("task", 500), ("file_read", 25), ("diagnostics", 900), ("file_read", 1_200)], 1, 20),
               N_("for an older tool output a little larger than a placeholder")),
              (([("task", 500), ("diagnostics", 4_000), ("file_read", 12)], 1, 20),
               N_("for a newest tool output no larger than a placeholder"))]
    cases = []
    for (blocks, keep_last, placeholder), about in [(s, None) for s in shown] + hidden:
        made = [make_block(kind, tokens, f"{kind} {i}") for i, (kind, tokens) in enumerate(blocks)]
        after, _ = observation_masking(made, 0, keep_last=keep_last)
        # ctxlib sizes a placeholder from its text; the exercise states one size instead.
        expected = [placeholder if a.masked else a.tokens for a in after]
        extra = f", keep_last {keep_last}, placeholder {placeholder}"
        cases.append(Case((blocks, keep_last, placeholder), expected,
                          describe(about) if about else _about_blocks(blocks, extra)))
    return cases


def _about_pairs(previous, request) -> dict:
    return describe(N_("for previous {previous} and request {request}"),
                    previous=reprlib.repr(previous), request=reprlib.repr(request))


def cached_share_cases() -> list[Case]:
    """Lesson 4, "own_cached_share": ``my_cached_share(previous, request)`` against ``ctxlib.cost.cached_share``.

    Both arguments are lists of ``(label, tokens)``. Cases: only appended (all but the new part cached),
    masking the oldest output (the cache breaks there), a changed first block (nothing cached), equal
    requests (all cached), and a first request (no previous); then a block with the same label but
    another size, one with the same size but another label, a block equal again after a difference
    (not cached), a block seen earlier at another position, an empty request (0.0), a request of
    0 tokens, a previous request longer than this one, and Hindi labels.
    """
    p, t, d1 = ("prefix", 9_000), ("task", 1_000), ("pytest 1", 18_000)
    shown = [([p, t, d1], [p, t, d1, ("diff 2", 6_000), ("pytest 2", 18_000)]),
             ([p, t, d1], [p, t, ("pytest 1 (masked)", 20), ("diff 2", 6_000)]),
             ([p, t], [("prefix v2", 9_200), t]),
             ([p, t, d1], [p, t, d1]),
             ([], [p, t])]
    hidden = [(([p, t, d1], [p, ("task", 1_200), d1]), N_("for a block with the same label but another size")),
              (([p, t, d1], [p, ("task v2", 1_000), d1]), N_("for a block with the same size but another label")),
              (([p, t, d1, ("diff 2", 6_000)], [p, ("task", 900), d1, ("diff 2", 6_000)]),
               N_("for blocks equal again after a difference")),
              (([p, t, d1], [p, d1, t]), N_("for blocks seen before at other positions")),
              (([p, t], []), N_("for an empty request")),
              (([("a", 0)], [("a", 0), ("b", 0)]), N_("for a request of 0 tokens")),
              (([p, t, d1, ("diff 2", 6_000)], [p, t]), N_("for a previous request longer than this one")),
              (([("निर्देश", 9_000), ("काम", 700)], [("निर्देश", 9_000), ("काम", 700), ("नतीजा", 300)]),
               N_("for labels in Hindi")),
              # Equal pairs that are not the same objects: the cache compares contents, not identity.
              (([tuple(["prefix", 9_000]), tuple(["task", 1_000])], [tuple(["prefix", 9_000]), ("task", 1_000)]),
               N_("for equal blocks built separately"))]
    return ([Case((prev, req), cached_share(prev, req), _about_pairs(prev, req)) for prev, req in shown]
            + [Case(args, cached_share(*args), describe(about)) for args, about in hidden])


# request_costs needs blocks with ``tokens`` that compare equal when the same: a named pair is one.
_Pair = namedtuple("_Pair", "label tokens")


def _billed(requests, read: float, write: float) -> float:
    blocks = [[_Pair(label, tokens) for label, tokens in request] for request in requests]
    return sum(c.billed for c in request_costs(blocks, Pricing("exercise", read, write, 0)))


def run_cost_cases() -> list[Case]:
    """Lesson 4, "own_run_cost": ``my_run_cost(requests, read_fraction, write_fraction)`` against
    ``ctxlib.cost.request_costs`` with no minimum cached size: the billed input-token equivalents of a run.

    ``requests`` is a list of requests, each a list of ``(label, tokens)``. The lesson's three runs
    (appending, masking, compacting) and one request, each at three prices; then a block seen in an
    earlier request but not in the one just before (not cached: the cache holds the last prefix),
    blocks equal again after a difference, a run that goes back to an earlier request, a block that
    changes size but keeps its label, no requests, an empty request, sizes that bill a fraction of
    a token, a read fraction of many decimals (a bill rounded to cents is not the bill), Hindi labels, and a cached
    prefix of a few hundred tokens (no minimum cached size).
    """
    p, t = ("prefix", 9_000), ("task", 1_000)
    shown = [[[p, t], [p, t, ("d1", 6_000)], [p, t, ("d1", 6_000), ("d2", 6_000)]],
             [[p, t, ("out 1", 5_000)], [p, t, ("out 1 masked", 20), ("out 2", 5_000)],
              [p, t, ("out 1 masked", 20), ("out 2 masked", 20), ("out 3", 5_000)]],
             [[p, t, ("a", 30_000)], [p, ("summary", 2_000)]],
             [[p]]]
    cases = []
    for requests in shown:
        for read, write in ((0.10, 1.25), (0.10, 1.00), (1.0, 1.0)):
            cases.append(Case((requests, read, write), _billed(requests, read, write),
                              describe(N_("for requests {requests}, read {read}, write {write}"),
                                       requests=reprlib.repr(requests), read=read, write=write)))
    s, a, b = ("summary", 2_000), ("out a", 4_000), ("out b", 3_000)
    hidden = [(([[p, t, a], [p, s], [p, s, a]], 0.1, 1.25), N_("for a block seen in an earlier request but not the one before")),
              (([[p, t, a, b], [p, ("task", 1_100), a, b]], 0.1, 1.25), N_("for blocks equal again after a difference")),
              (([[p, t], [p, s], [p, t]], 0.1, 1.25), N_("for a run that goes back to an earlier request")),
              (([[p, t, a], [p, t, ("out a", 4_500)]], 0.1, 1.25), N_("for a block that changes size but keeps its label")),
              (([[p, t, a], [p, t, ("out a v2", 4_000)]], 0.1, 1.25), N_("for a block that keeps its size but changes its label")),
              (([], 0.1, 1.25), N_("for a run with no requests")),
              (([[p, t], [], [p, t]], 0.1, 1.25), N_("for a run with an empty request")),
              (([[p, t, a], [p, t, a, b]], 0.5, 2.0), N_("for other read and write prices")),
              (([[p, ("task", 1_234)], [p, ("task", 1_234), ("out", 777)]], 0.1, 1.25),
               N_("for sizes that bill a fraction of a token")),
              # A provider's prices as a ratio (DeepSeek's 0.07 cached against 0.27 uncached per million): a bill
              # of many decimals, so an answer rounded to cents is not the bill.
              (([[p, t, a], [p, t, a, b]], 0.07 / 0.27, 1.0), N_("for a read fraction that is a ratio of two prices")),
              (([[("निर्देश", 9_000)], [("निर्देश", 9_000), ("काम", 700)]], 0.1, 1.25), N_("for labels in Hindi")),
              # No minimum cached size here (a provider's 1,024-token minimum is not the exercise's rule).
              (([[("system", 300), ("task", 120)], [("system", 300), ("task", 120), ("answer", 80)]], 0.1, 1.25),
               N_("for a cached prefix of a few hundred tokens"))]
    return cases + [Case(args, _billed(*args), describe(about)) for args, about in hidden]
