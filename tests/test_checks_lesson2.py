"""Lesson 2's checkers reject plausible wrong answers and accept right ones written other ways.

Each wrong answer is a small function with one bug, named by its id (tests/checks_suite.py).
"""
import math
import statistics

import pytest

from checks_suite import accepted, rejected
from ctxlib import get_encoding
from ctxlib.course.checks.lesson2 import ceiling_cases, keep_tail_cases, percentile_cases

KEEP_TAIL = keep_tail_cases()
CEILING = ceiling_cases()
PERCENTILE = percentile_cases()
O200K = get_encoding("o200k_base")


# --- own_keep_tail: my_keep_tail(text, keep_tokens) -----------------------------------------

def characters_not_tokens(text, keep_tokens):
    return text[-keep_tokens:] if keep_tokens else ""


def zero_keeps_everything(text, keep_tokens):
    return O200K.decode(O200K.encode(text)[-keep_tokens:])  # ids[-0:] is the whole list


def one_token_at_a_time(text, keep_tokens):
    ids = O200K.encode(text)
    return "".join(O200K.decode([i]) for i in ids[len(ids) - min(keep_tokens, len(ids)):])


def the_head_not_the_tail(text, keep_tokens):
    return O200K.decode(O200K.encode(text)[:keep_tokens])


def one_token_too_many(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[max(0, len(ids) - keep_tokens - 1):])


def one_token_too_few(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - min(keep_tokens, len(ids)) + 1:])


def the_older_encoding(text, keep_tokens):
    encoding = get_encoding("cl100k_base")
    ids = encoding.encode(text)
    return encoding.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def stripped(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - min(keep_tokens, len(ids)):]).strip()


def words_not_tokens(text, keep_tokens):
    return " ".join(text.split()[-keep_tokens:]) if keep_tokens else ""


def four_characters_a_token(text, keep_tokens):
    return text[-4 * keep_tokens:] if keep_tokens else ""


def the_ids_not_the_text(text, keep_tokens):
    ids = O200K.encode(text)
    return ids[len(ids) - min(keep_tokens, len(ids)):]


def longest_suffix_of_that_many_tokens(text, keep_tokens):
    from ctxlib import count_tokens
    if keep_tokens == 0:
        return ""
    return next(text[i:] for i in range(len(text) + 1) if count_tokens(text[i:]) <= keep_tokens)


def broken_characters_dropped(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode_bytes(ids[len(ids) - min(keep_tokens, len(ids)):]).decode("utf-8", errors="ignore")


def lines_not_tokens(text, keep_tokens):
    return "".join(text.splitlines(True)[-keep_tokens:]) if keep_tokens else ""


def no_min_on_the_start(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - keep_tokens:])  # negative start when keep_tokens > len(ids)


def each_line_encoded_alone(text, keep_tokens):
    ids = [i for line in text.splitlines(True) for i in O200K.encode(line)]
    return O200K.decode(ids[max(0, len(ids) - keep_tokens):])


def the_tokens_as_a_list_of_strings(text, keep_tokens):
    ids = O200K.encode(text)
    return [O200K.decode([i]) for i in ids[max(0, len(ids) - keep_tokens):]]


def the_same_share_of_characters(text, keep_tokens):
    n = len(O200K.encode(text)) or 1
    return text[len(text) - int(len(text) * min(keep_tokens, n) / n):] if keep_tokens else ""


KEEP_TAIL_WRONG = [each_line_encoded_alone, the_tokens_as_a_list_of_strings, the_same_share_of_characters,
                   characters_not_tokens, zero_keeps_everything, one_token_at_a_time, the_head_not_the_tail,
                   one_token_too_many, one_token_too_few, the_older_encoding, stripped, words_not_tokens,
                   four_characters_a_token, the_ids_not_the_text, lines_not_tokens,
                   longest_suffix_of_that_many_tokens, broken_characters_dropped, no_min_on_the_start]


def keep_tail_by_bytes(text, keep_tokens):
    ids = O200K.encode(text)
    tail = ids[len(ids) - keep_tokens:] if keep_tokens < len(ids) else ids
    return O200K.decode_bytes(tail).decode("utf-8", errors="replace")


def keep_tail_with_a_loop(text, keep_tokens):
    ids = O200K.encode(text)
    kept = []
    while ids and len(kept) < keep_tokens:
        kept.insert(0, ids.pop())
    return O200K.decode(kept)


@pytest.mark.parametrize("wrong", KEEP_TAIL_WRONG, ids=lambda f: f.__name__)
def test_the_keep_tail_checker_rejects(wrong):
    rejected(wrong, KEEP_TAIL)


def keep_tail_whole_text_when_short(text, keep_tokens):
    ids = O200K.encode_ordinary(text)
    if keep_tokens >= len(ids):
        return text
    return O200K.decode(ids[-keep_tokens:]) if keep_tokens else ""


@pytest.mark.parametrize("right", [keep_tail_by_bytes, keep_tail_with_a_loop, keep_tail_whole_text_when_short],
                         ids=lambda f: f.__name__)
def test_the_keep_tail_checker_accepts(right):
    accepted(right, KEEP_TAIL)


def test_a_character_cut_in_two_is_named():
    assert "it holds U+FFFD, a character cut in two" in rejected(one_token_at_a_time, KEEP_TAIL).message
    assert "इसमें U+FFFD है" in rejected(one_token_at_a_time, KEEP_TAIL, "hi").message


# --- own_ceiling: my_ceiling(window, fixed_prefix, task, patch, diagnostics, attempts) --------

def right_ceiling(window, fixed_prefix, task, patch, diagnostics, attempts):
    return window - fixed_prefix - task - attempts * (patch + diagnostics)


CEILING_WRONG = {
    "one_attempt_fewer": lambda w, f, t, p, d, a: w - f - t - (a - 1) * (p + d),
    "one_attempt_more": lambda w, f, t, p, d, a: w - f - t - (a + 1) * (p + d),
    "forgets_the_patch": lambda w, f, t, p, d, a: w - f - t - a * d,
    "forgets_the_diagnostics": lambda w, f, t, p, d, a: w - f - t - a * p,
    "forgets_the_task": lambda w, f, t, p, d, a: w - f - a * (p + d),
    "forgets_the_fixed_prefix": lambda w, f, t, p, d, a: w - t - a * (p + d),
    "diagnostics_replaced_not_appended": lambda w, f, t, p, d, a: w - f - t - a * p - d,
    "clamped_at_zero": lambda w, f, t, p, d, a: max(0, right_ceiling(w, f, t, p, d, a)),
    "size_of_a_negative_ceiling": lambda w, f, t, p, d, a: abs(right_ceiling(w, f, t, p, d, a)),
    "rounded_to_thousands": lambda w, f, t, p, d, a: round(right_ceiling(w, f, t, p, d, a), -3),
    "the_chapters_figure": lambda w, f, t, p, d, a: 94_000 if d == 18_000 else 70_000,
    "keeps_reply_room": lambda w, f, t, p, d, a: right_ceiling(w, f, t, p, d, a) - 4_000,
    "formatted_as_text": lambda w, f, t, p, d, a: f"{right_ceiling(w, f, t, p, d, a):,}",
    "the_last_diagnostics_never_arrive": lambda w, f, t, p, d, a: w - f - t - a * p - (a - 1) * d,
    "everything_times_the_attempts": lambda w, f, t, p, d, a: w - (f + t + p + d) * a,
    "a_share_of_the_window": lambda w, f, t, p, d, a: right_ceiling(w, f, t, p, d, a) / w,
    "none_when_negative": lambda w, f, t, p, d, a: right_ceiling(w, f, t, p, d, a) if right_ceiling(w, f, t, p, d, a) > 0 else None,
}


def ceiling_step_by_step(window, fixed_prefix, task, patch, diagnostics, attempts):
    left = window - fixed_prefix - task
    for _ in range(attempts):
        left -= patch
        left -= diagnostics
    return float(left)


@pytest.mark.parametrize("bug", CEILING_WRONG)
def test_the_ceiling_checker_rejects(bug):
    rejected(CEILING_WRONG[bug], CEILING)


def ceiling_by_recursion(window, fixed_prefix, task, patch, diagnostics, attempts):
    if attempts == 0:
        return window - fixed_prefix - task
    return ceiling_by_recursion(window, fixed_prefix, task, patch, diagnostics, attempts - 1) - patch - diagnostics


@pytest.mark.parametrize("right", [right_ceiling, ceiling_step_by_step, ceiling_by_recursion], ids=lambda f: f.__name__)
def test_the_ceiling_checker_accepts(right):
    accepted(right, CEILING)


def test_a_string_for_a_number_is_named_by_its_type():
    assert rejected(CEILING_WRONG["formatted_as_text"], CEILING).message.endswith(": it is a str, not a number.")


# --- own_percentile: my_percentile(values, p), nearest rank ----------------------------------

def right_percentile(values, p):
    ordered = sorted(values)
    return ordered[math.ceil(p / 100 * len(ordered)) - 1]


def unsorted(values, p):
    return values[math.ceil(p / 100 * len(values)) - 1]


def sorts_in_place(values, p):
    values.sort()
    return values[math.ceil(p / 100 * len(values)) - 1]


def rank_rounded_down(values, p):
    ordered = sorted(values)
    return ordered[max(0, int(p / 100 * len(ordered)) - 1)]


def rank_rounded(values, p):
    ordered = sorted(values)
    return ordered[max(0, round(p / 100 * len(ordered)) - 1)]


def index_not_rank(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)))]


def interpolated(values, p):
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = p / 100 * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median_for_p50(values, p):
    return statistics.median(values) if p == 50 else right_percentile(values, p)


def distinct_values(values, p):
    ordered = sorted(set(values))
    return ordered[math.ceil(p / 100 * len(ordered)) - 1]


def largest_first(values, p):
    ordered = sorted(values, reverse=True)
    return ordered[math.ceil(p / 100 * len(ordered)) - 1]


def integer_p_only(values, p):
    ordered = sorted(values)
    return ordered[math.ceil(int(p) * len(ordered) / 100) - 1]


def the_mean(values, p):
    return sum(values) / len(values) if p == 50 else right_percentile(values, p)


def lesson_values_hard_coded(values, p):
    return {50: 3, 90: 9, 100: 9}.get(p, values[0])


def absolute_values(values, p):
    return right_percentile([abs(v) for v in values], p)


def numpy_method(method):
    def percentile_by_numpy(values, p):
        import numpy
        return numpy.percentile(values, p, method=method)
    percentile_by_numpy.__name__ = f"numpy_{method}"
    return percentile_by_numpy


def the_value_as_an_int(values, p):
    return int(right_percentile(values, p))


def the_value_rounded(values, p):
    return round(right_percentile(values, p))


def median_high_for_p50(values, p):
    return statistics.median_high(values) if p == 50 else right_percentile(values, p)


def rank_of_n_minus_one(values, p):
    ordered = sorted(values)
    return ordered[math.ceil(p / 100 * (len(ordered) - 1))]


PERCENTILE_WRONG = [numpy_method(m) for m in ("linear", "lower", "higher", "nearest", "midpoint", "closest_observation",
                                              "averaged_inverted_cdf", "interpolated_inverted_cdf")] + [
                    the_value_as_an_int, the_value_rounded, median_high_for_p50, rank_of_n_minus_one,
                    unsorted, sorts_in_place, rank_rounded_down, rank_rounded, index_not_rank, interpolated,
                    median_for_p50, distinct_values, largest_first, integer_p_only, the_mean,
                    lesson_values_hard_coded, absolute_values]


def percentile_with_integer_rank(values, p):
    rank = -(-p * len(values) // 100)  # ceil without floats
    return sorted(values)[int(rank) - 1]


def percentile_by_counting(values, p):
    needed = p / 100 * len(values)
    for value in sorted(set(values)):
        if sum(1 for v in values if v <= value) >= needed:
            return value


@pytest.mark.parametrize("wrong", PERCENTILE_WRONG, ids=lambda f: f.__name__)
def test_the_percentile_checker_rejects(wrong):
    rejected(wrong, PERCENTILE)


def percentile_by_numpy_inverted_cdf(values, p):
    import numpy
    return numpy.percentile(values, p, method="inverted_cdf")  # numpy's name for the nearest rank


def percentile_with_nsmallest(values, p):
    import heapq
    return heapq.nsmallest(math.ceil(p * len(values) / 100), values)[-1]


def percentile_with_a_fraction(values, p):
    from fractions import Fraction
    return sorted(values)[math.ceil(Fraction(p) / 100 * len(values)) - 1]


@pytest.mark.parametrize("right", [right_percentile, percentile_with_integer_rank, percentile_by_counting,
                                   percentile_by_numpy_inverted_cdf, percentile_with_nsmallest, percentile_with_a_fraction],
                         ids=lambda f: f.__name__)
def test_the_percentile_checker_accepts(right):
    accepted(right, PERCENTILE)


def test_sorting_the_callers_list_is_a_failure_in_both_languages():
    assert "changed its input (argument 1)" in rejected(sorts_in_place, PERCENTILE).message
    assert "ने अपना input (argument 1) बदल दिया" in rejected(sorts_in_place, PERCENTILE, "hi").message
