"""Lesson 2's checkers, "The running total": the tail trim, the first-turn ceiling, the percentile, two predictions.

Expected values come from ``ctxlib.transcript`` (``last_tokens``, ``simulate``), ``ctxlib.ceiling``
and ``ctxlib.ledger.percentile``.
"""
from __future__ import annotations

from ctxlib.ceiling import first_turn_ceiling
from ctxlib.i18n import N_
from ctxlib.ledger import percentile
from ctxlib.transcript import Loop, last_tokens, simulate

from ..exercises import Case, describe


def tail_trim_run_cases() -> list[Case]:
    """Lesson 2, "predict_tail_trim": the reply room of the last request of
    ``simulate(Loop(keep_tail_tokens=1_206))``, the chapter's stated sizes under the tail-keeping trim.

    The learner predicts a number (``predicted_room = ...``), then runs the simulator to see it.
    """
    expected = simulate(Loop(keep_tail_tokens=1_206)).records[-1].max_tokens
    return [Case(None, expected, describe(N_("for the stated sizes with a 1,206-token tail kept")))]


SUMMARY = ("FAILED tests/test_vat.py::test_reverse_charge_only_cross_border_b2b - Asserti...\n"
           "1 failed, 11 passed, 1 xfailed\n")
TRACEBACK = (">       assert not is_reverse_charge(\"DE\", \"FR\", None)\n"
             "E       AssertionError: assert not True\n\ntests/test_vat.py:18: AssertionError\n")
HINDI = "पहले turn की ceiling: 70,000 tokens"
# Some of its tokens hold only part of a character (ऋ and ॐ at a line's start are two tokens each):
# decoded one token at a time they show U+FFFD, decoded together they do not. A cut after 17 tokens
# falls inside ऋ: the kept tokens decode to U+FFFD there, as tiktoken decodes them; the other cuts
# fall between two characters.
HINDI_SPLIT = "लॉग:\nऋण पर ब्याज बदला\nऍक्शन: retry\nॐ"
# A float's digits are several tokens: a tail cut among them is not a tail that counts again as as many tokens.
FLOAT_DIFF = "E       assert 0.19999999999999998 == 0.2\nE        +  where 0.19999999999999998 = vat_rate('DE')\n"
# Tool output is untrusted text: a test of a tokenizer may print a special token's name. tiktoken's encode()
# refuses it unless told disallowed_special=(); last_tokens counts it as the plain text it is.
SPECIAL_TEXT = "E       AssertionError: the sample must end with '<|endoftext|>'\n1 failed, 41 passed in 0.93s\n"
# Each of these letters (U+1D518...) is three tokens: 7 characters, 21 tokens. A text no longer in characters than
# keep_tokens may still be longer in tokens, so it is not kept whole for that.
FRAKTUR = "\U0001d518\U0001d52b\U0001d526\U0001d520\U0001d52c\U0001d521\U0001d522"


def keep_tail_cases() -> list[Case]:
    """Lesson 2, "own_keep_tail": ``my_keep_tail(text, keep_tokens)`` against ``ctxlib.transcript.last_tokens``.

    The lesson's pytest summary, traceback and Hindi sentence, 0 tokens, and more tokens than the text has
    (many more, and a few more: ``ids[len(ids) - keep_tokens:]`` without the ``min`` keeps the whole text only
    in the first); then a Hindi text whose tokens split characters (decode the kept ids together, not one by
    one), tails of one token, an empty text, a tail that starts with a space, and tails that start inside a
    number or a word (the kept ids, not the longest suffix that counts as that many tokens again), and tool
    output that prints ``<|endoftext|>`` (counted as text, as ``last_tokens`` does), and a text of more tokens than
    characters (one no longer in characters than keep_tokens is not therefore kept whole). All in o200k_base.
    """
    shown = [(SUMMARY, 8), (SUMMARY, 1), (TRACEBACK, 12), (HINDI, 5), (SUMMARY, 0), (HINDI, 500)]
    cases = [Case((text, keep), last_tokens(text, keep),
                  describe(N_("for keep_tokens={keep} and the text {text}..."), keep=keep, text=repr(text[:30])))
             for text, keep in shown]
    hidden = [((HINDI_SPLIT, 2), N_("for a Hindi text whose tokens split characters")),
              ((HINDI_SPLIT, 16), N_("for a longer tail of a Hindi text whose tokens split characters")),
              ((HINDI_SPLIT, 17), N_("for a tail whose first token is part of a character")),
              ((TRACEBACK, 1), N_("for a tail of one token")),
              ((TRACEBACK, 40), N_("for keep_tokens a little larger than the text's length in tokens")),
              (("", 3), N_("for an empty text")),
              (("    return total  # VAT included", 4), N_("for a tail that starts with a space")),
              ((TRACEBACK * 3, 40), N_("for a long text and a tail of many tokens")),
              ((FLOAT_DIFF, 9), N_("for a tail that starts among a number's digits")),
              ((SUMMARY, 14), N_("for a tail that starts inside a word")),
              ((SPECIAL_TEXT, 20), N_("for tool output that holds a special token's text, <|endoftext|>")),
              ((FRAKTUR, 9), N_("for a text with more tokens than characters"))]
    return cases + [Case(args, last_tokens(*args), describe(about)) for args, about in hidden]


def misclassified_cases() -> list[Case]:
    """Lesson 2, "predict_misclassified": the attempt at which a task routed as a one-line change
    (fill 166,000) but needing six attempts stops: ``simulate(Loop(fill_tokens=166_000,
    max_attempts=6, passes_on_attempt=6)).records[-1].attempt``.
    """
    expected = simulate(Loop(fill_tokens=166_000, max_attempts=6, passes_on_attempt=6)).records[-1].attempt
    return [Case(None, expected, describe(N_("for the misclassified task (fill 166,000, six attempts needed)")))]


def ceiling_cases() -> list[Case]:
    """Lesson 2, "own_ceiling": ``my_ceiling(window, fixed_prefix, task, patch, diagnostics, attempts)``.

    Expected values are ``ctxlib.ceiling.first_turn_ceiling(...).ceiling_tokens``: the chapter's p50
    (94,000) and p90 (70,000), both task classes, a loop that cannot fit (negative), no diagnostics;
    then sizes that are not round thousands, one attempt, no patch, a ceiling of exactly 0, and a
    loop far too big for its window.
    """
    shown = [(200_000, 9_000, 1_000, 6_000, 18_000, 4), (200_000, 9_000, 1_000, 6_000, 24_000, 4),
             (200_000, 9_000, 1_000, 6_000, 18_000, 1), (200_000, 9_000, 1_000, 6_000, 40_000, 4),
             (128_000, 9_000, 1_000, 6_000, 40_000, 4), (32_000, 2_000, 500, 1_500, 0, 3)]
    hidden = [((200_000, 9_137, 1_021, 5_987, 18_311, 4), N_("for sizes that are not round thousands")),
              ((100_003, 7_001, 999, 0, 12_345, 2), N_("for a loop whose attempts add no patch")),
              ((8_192, 1_000, 192, 500, 1_000, 1), N_("for a small window and one attempt")),
              ((50_000, 10_000, 4_000, 3_000, 3_000, 6), N_("for sizes that leave exactly nothing")),
              ((16_000, 9_000, 1_000, 6_000, 18_000, 5), N_("for a loop far too big for its window")),
              ((1_000_000, 12_000, 3_000, 7_000, 9_000, 8), N_("for a window of a million tokens and eight attempts"))]
    cases = []
    for (window, prefix, task, patch, diagnostics, attempts), about in [(c, None) for c in shown] + hidden:
        expected = first_turn_ceiling(diagnostics, window_tokens=window, fixed_prefix_tokens=prefix,
                                      task_tokens=task, patch_tokens=patch, max_attempts=attempts).ceiling_tokens
        if about is None:
            about = describe(N_("for window {window}, fixed prefix {prefix}, task {task}, patch {patch}, "
                                "diagnostics {diagnostics}, {attempts} attempts"),
                             window=f"{window:,}", prefix=f"{prefix:,}", task=f"{task:,}", patch=f"{patch:,}",
                             diagnostics=f"{diagnostics:,}", attempts=attempts)
        else:
            about = describe(about)
        cases.append(Case((window, prefix, task, patch, diagnostics, attempts), expected, about))
    return cases


def percentile_cases() -> list[Case]:
    """Lesson 2, "own_percentile": ``my_percentile(values, p)`` against ``ctxlib.ledger.percentile``.

    Nearest rank: odd and even counts, unsorted input, p90 of ten values, p100, one value, and a
    heavy tail where the mean would mislead; then repeated values, a rank that is not a whole
    number, a small p, p given as a float, negative values, p close to 100, and values that are
    not whole numbers (the value itself is returned, not rounded or cut to an int), and a rank that is whole
    although ``p / 100 * n`` in floats lands just above it (p28 of 25 values: ``ceil`` of 7.000000000000001 is 8).
    """
    shown = [([5, 1, 4, 2, 3], 50), ([4, 1, 3, 2], 50), (list(range(10, 0, -1)), 90),
             ([18_000, 17_000, 60_000, 19_000, 16_000], 90), ([7], 50), ([3, 9, 1], 100),
             ([6_000] * 9 + [40_000], 50)]
    hidden = [(([5, 5, 9, 1, 5, 9, 9, 2], 75), N_("for values with repeats")),
              (([9, 2, 7, 4, 1, 8], 40), N_("for a rank p/100 x n that is not a whole number")),
              (([30, 10, 20, 50, 40, 60, 70], 10), N_("for a small p")),
              (([3, 1, 2, 5, 4, 8, 7, 6, 10, 9], 90.5), N_("for p given as a float")),
              (([-3, 8, -10, 0, 4], 50), N_("for negative values")),
              (([12, 3, 45, 7, 19, 3, 22, 8, 31], 99), N_("for p close to 100")),
              (([2.5, 0.25, 3.75, 1.5], 50), N_("for values that are not whole numbers")),
              # 28 / 100 * 25 is 7.000000000000001 in floats, and its ceiling 8: the rank is p x n / 100, exactly 7.
              (([1_200 + 37 * (i * 11 % 25) for i in range(25)], 28),
               N_("for a whole rank that float arithmetic puts just above a whole number"))]
    cases = [Case((values, p), percentile(values, p),
                  describe(N_("for values {values} and p={p}"), values=repr(values), p=p)) for values, p in shown]
    return cases + [Case(args, percentile(*args), describe(about)) for args, about in hidden]
