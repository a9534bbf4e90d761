"""Lesson 2's checkers reject plausible wrong answers and accept right ones written other ways.

Each wrong answer is a small function with one bug, named by its id (tests/checks_suite.py).
"""
import math
import re
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
    ids = O200K.encode(text, disallowed_special=())
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
    ids = O200K.encode(text, disallowed_special=())
    tail = ids[len(ids) - keep_tokens:] if keep_tokens < len(ids) else ids
    return O200K.decode_bytes(tail).decode("utf-8", errors="replace")


def keep_tail_with_a_loop(text, keep_tokens):
    ids = O200K.encode(text, disallowed_special=())
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
    return ordered[math.ceil(p * len(ordered) / 100) - 1]  # p * n first: p / 100 * n may land above a whole rank


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
    needed = p * len(values) / 100
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
                                   percentile_with_nsmallest, percentile_with_a_fraction],
                         ids=lambda f: f.__name__)
def test_the_percentile_checker_accepts(right):
    accepted(right, PERCENTILE)


def test_sorting_the_callers_list_is_a_failure_in_both_languages():
    assert "changed its input (argument 1)" in rejected(sorts_in_place, PERCENTILE).message
    assert "ने अपना input (argument 1) बदल दिया" in rejected(sorts_in_place, PERCENTILE, "hi").message


# --- own_keep_tail, a seventh review: wrong answers of other kinds, right answers in other styles -------

def tail_without_its_leading_space(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - min(keep_tokens, len(ids)):]).lstrip()


def nothing_when_the_text_is_shorter(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[-keep_tokens:]) if 0 < keep_tokens <= len(ids) else ""


def the_bytes_not_the_text(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode_bytes(ids[len(ids) - min(keep_tokens, len(ids)):])


def the_last_token_left_out(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[max(0, len(ids) - keep_tokens - 1):-1])


def the_part_cut_not_the_tail(text, keep_tokens):
    ids = O200K.encode(text)
    return O200K.decode(ids[:len(ids) - min(keep_tokens, len(ids))])


def the_tail_and_its_size(text, keep_tokens):
    ids = O200K.encode(text)
    tail = ids[len(ids) - min(keep_tokens, len(ids)):]
    return O200K.decode(tail), len(tail)


def refuses_a_text_shorter_than_the_tail(text, keep_tokens):
    ids = O200K.encode(text)
    if keep_tokens > len(ids):
        raise ValueError(f"the text has only {len(ids)} tokens")
    return O200K.decode(ids[len(ids) - keep_tokens:])


def each_word_encoded_alone(text, keep_tokens):
    ids = [i for word in re.split(r"(?=\s)", text) for i in O200K.encode(word)]
    return O200K.decode(ids[max(0, len(ids) - keep_tokens):]) if keep_tokens else ""


def the_summary_hard_coded(text, keep_tokens):
    if text.startswith("FAILED") and keep_tokens == 8:
        return "1 failed, 11 passed, 1 xfailed\n"
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def none_for_zero(text, keep_tokens):
    if keep_tokens == 0:
        return None
    ids = O200K.encode(text)
    return O200K.decode(ids[-keep_tokens:])


KEEP_TAIL_WRONG_MORE = [tail_without_its_leading_space, nothing_when_the_text_is_shorter, the_bytes_not_the_text,
                        the_last_token_left_out, the_part_cut_not_the_tail, the_tail_and_its_size,
                        refuses_a_text_shorter_than_the_tail, each_word_encoded_alone, the_summary_hard_coded,
                        none_for_zero]


def keep_tail_by_a_negative_slice(text, keep_tokens):
    ids = O200K.encode(text, disallowed_special=())
    return O200K.decode(ids[-keep_tokens:]) if keep_tokens else ""  # ids[-k:] is the whole list when k > len(ids)


def keep_tail_with_a_deque(text, keep_tokens, encoding_name="o200k_base"):
    from collections import deque
    encoding = get_encoding(encoding_name)
    return encoding.decode(list(deque(encoding.encode(text, disallowed_special=()), maxlen=keep_tokens)))


def keep_tail_from_token_bytes(text, keep_tokens):
    ids = O200K.encode(text, disallowed_special=())
    tail = ids[max(0, len(ids) - keep_tokens):]
    return b"".join(O200K.decode_tokens_bytes(tail)).decode("utf-8", errors="replace")


def keep_tail_with_islice_and_a_print(text, keep_tokens):
    from itertools import islice
    ids = O200K.encode(text, disallowed_special=())
    tail = list(islice(reversed(ids), keep_tokens))[::-1]
    print(f"kept {len(tail)} of {len(ids)} tokens")
    return O200K.decode(tail)


def keep_tail_from_ctxlib(text, keep_tokens):
    from ctxlib.transcript import last_tokens
    return last_tokens(text, keep_tokens)


KEEP_TAIL_RIGHT_MORE = [keep_tail_by_a_negative_slice, keep_tail_with_a_deque, keep_tail_from_token_bytes,
                        keep_tail_with_islice_and_a_print, keep_tail_from_ctxlib]


@pytest.mark.parametrize("wrong", KEEP_TAIL_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_keep_tail_checker_rejects_more(wrong):
    rejected(wrong, KEEP_TAIL)


def keep_tail_refusing_special_text(text, keep_tokens):
    # The exercise's official solution before this case: encode() raises on "<|endoftext|>" in tool output.
    ids = O200K.encode(text)
    return O200K.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def test_tool_output_that_prints_a_special_token_is_text():
    message = rejected(keep_tail_refusing_special_text, KEEP_TAIL).message
    assert "special token's text" in message and "ValueError" in message
    assert "special token का text" in rejected(keep_tail_refusing_special_text, KEEP_TAIL, "hi").message


@pytest.mark.parametrize("right", KEEP_TAIL_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_keep_tail_checker_accepts_more(right):
    accepted(right, KEEP_TAIL)


# --- own_ceiling, a seventh review -----------------------------------------------------------------------

CEILING_WRONG_MORE = {
    "the_first_attempt_adds_no_patch": lambda w, f, t, p, d, a: w - f - t - (a - 1) * p - a * d,
    "one_patch_for_the_whole_loop": lambda w, f, t, p, d, a: w - f - t - p - a * d,
    "a_tenth_of_the_window_kept_free": lambda w, f, t, p, d, a: int(0.9 * w) - f - t - a * (p + d),
    "floored_to_thousands": lambda w, f, t, p, d, a: right_ceiling(w, f, t, p, d, a) // 1_000 * 1_000,
    "the_window_shared_by_the_attempts": lambda w, f, t, p, d, a: (w - f - t) / a - (p + d),
    "the_ceiling_and_the_cost_of_an_attempt": lambda w, f, t, p, d, a: (right_ceiling(w, f, t, p, d, a), p + d),
    "window_and_prefix_swapped": lambda w, f, t, p, d, a: f - w - t - a * (p + d),
    "attempts_added_not_multiplied": lambda w, f, t, p, d, a: w - f - t - (a + p + d),
    "the_diagnostics_twice": lambda w, f, t, p, d, a: w - f - t - a * (p + 2 * d),
    "the_first_turn_counted_as_an_attempt": lambda w, f, t, p, d, a: w - f - t - (a - 1) * (p + d) - p,
}


def ceiling_with_sum(window, fixed_prefix, task, patch, diagnostics, attempts):
    return window - sum([fixed_prefix, task] + [patch + diagnostics] * attempts)


def ceiling_with_reply_room_argument(window, fixed_prefix, task, patch, diagnostics, attempts, reply=0):
    appended = attempts * patch + attempts * diagnostics
    print(f"the loop appends {appended:,} tokens")
    return window - fixed_prefix - task - appended - reply


def ceiling_in_floats(window, fixed_prefix, task, patch, diagnostics, attempts):
    per_attempt = float(patch + diagnostics)
    return window - (fixed_prefix + task) - per_attempt * attempts


def ceiling_with_reduce(window, fixed_prefix, task, patch, diagnostics, attempts):
    from functools import reduce
    return reduce(lambda left, _: left - patch - diagnostics, range(attempts), window - fixed_prefix - task)


@pytest.mark.parametrize("bug", CEILING_WRONG_MORE)
def test_the_ceiling_checker_rejects_more(bug):
    rejected(CEILING_WRONG_MORE[bug], CEILING)


@pytest.mark.parametrize("right", [ceiling_with_sum, ceiling_with_reply_room_argument, ceiling_in_floats, ceiling_with_reduce],
                         ids=lambda f: f.__name__)
def test_the_ceiling_checker_accepts_more(right):
    accepted(right, CEILING)


# --- own_percentile, a seventh review ---------------------------------------------------------------------

def the_rank_not_the_value(values, p):
    return math.ceil(p / 100 * len(values))


def ceil_taken_too_early(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered), math.ceil(p / 100) * len(ordered)) - 1]


def rank_of_n_plus_one(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(p / 100 * (len(ordered) + 1)))) - 1]


def a_share_of_the_largest(values, p):
    return max(values) * p / 100


def statistics_quantiles(values, p):
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def floor_index_clipped(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def a_list_of_one_value(values, p):
    ordered = sorted(values)
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[rank - 1:rank]


def averaged_at_a_whole_rank(values, p):
    ordered, x = sorted(values), p / 100 * len(values)
    if x == int(x) and int(x) < len(ordered):
        return (ordered[int(x) - 1] + ordered[int(x)]) / 2
    return ordered[math.ceil(x) - 1]


def p_read_as_a_fraction(values, p):
    ordered = sorted(values)
    return ordered[math.ceil(p * len(ordered)) - 1]


def rank_rounded_half_up_by_round(values, p):
    ordered = sorted(values)
    return ordered[max(1, round(p / 100 * len(ordered) + 0.5)) - 1]  # round() rounds x.5 to even


def sorted_as_text(values, p):
    ordered = sorted(values, key=str)
    return ordered[math.ceil(p / 100 * len(ordered)) - 1]


PERCENTILE_WRONG_MORE = [the_rank_not_the_value, ceil_taken_too_early, rank_of_n_plus_one, a_share_of_the_largest,
                         statistics_quantiles, floor_index_clipped, a_list_of_one_value, averaged_at_a_whole_rank,
                         p_read_as_a_fraction, rank_rounded_half_up_by_round, sorted_as_text]


def percentile_as_a_float(values, p):
    return float(sorted(values)[math.ceil(p * len(values) / 100) - 1])


def percentile_by_numpy_quantile(values, p):
    import numpy
    return numpy.quantile(values, p / 100, method="inverted_cdf")


def percentile_walking_the_ranks(values, p, show=False):
    for rank, value in enumerate(sorted(values), start=1):
        if rank * 100 >= p * len(values):  # the first rank at or above p% of the values
            if show:
                print(rank, value)
            return value


def percentile_in_decimals(values, p):
    from decimal import Decimal, ROUND_CEILING
    rank = (Decimal(str(p)) * len(values) / 100).to_integral_value(rounding=ROUND_CEILING)
    return sorted(values)[int(rank) - 1]


PERCENTILE_RIGHT_MORE = [percentile_as_a_float, percentile_walking_the_ranks, percentile_in_decimals]


@pytest.mark.parametrize("wrong", PERCENTILE_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_percentile_checker_rejects_more(wrong):
    rejected(wrong, PERCENTILE)


@pytest.mark.parametrize("right", PERCENTILE_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_percentile_checker_accepts_more(right):
    accepted(right, PERCENTILE)


# --- predict_tail_trim and predict_misclassified: values -------------------------------------------------

TAIL_TRIM_WRONG = {  # the right answer is 2,794: 200,000 - (190,000 + 6,000 + 1,206)
    "no_trim_at_all": 4_000,
    "the_first_requests_room": 10_000,
    "the_tail_itself": 1_206,
    "what_the_trim_cut": 16_794,
    "over_the_window_untrimmed": -14_000,
    "the_reply_reserve": 6_000,
    "the_diff_forgotten": 8_794,
    "as_text": "2,794",
    "nothing_left": 0,
}

MISCLASSIFIED_WRONG = {  # the right answer is 5: at attempt 5 the pinned blocks fill the window
    "the_attempt_it_would_pass": 6,
    "the_last_with_room_for_a_patch": 4,
    "the_first_attempt": 1,
    "one_too_many": 7,
    "as_text": "5",
    "a_bool": True,
    "counted_from_zero": 4.0,
    "the_reply_room_instead": 0,
}


@pytest.mark.parametrize("wrong", TAIL_TRIM_WRONG)
def test_the_tail_trim_prediction_checker_rejects(wrong):
    from ctxlib.course.checks.lesson2 import tail_trim_run_cases
    rejected(TAIL_TRIM_WRONG[wrong], tail_trim_run_cases())


@pytest.mark.parametrize("wrong", MISCLASSIFIED_WRONG)
def test_the_misclassified_prediction_checker_rejects(wrong):
    from ctxlib.course.checks.lesson2 import misclassified_cases
    rejected(MISCLASSIFIED_WRONG[wrong], misclassified_cases())


def test_the_predictions_accept_a_number_in_any_numeric_form():
    import numpy
    from ctxlib.course.checks.lesson2 import misclassified_cases, tail_trim_run_cases
    from ctxlib.transcript import Loop, simulate
    for right in (2_794, 2_794.0, numpy.int64(2_794), simulate(Loop(keep_tail_tokens=1_206)).records[-1].max_tokens):
        accepted(right, tail_trim_run_cases())
    for right in (5, 5.0, numpy.int32(5),
                  simulate(Loop(fill_tokens=166_000, max_attempts=6, passes_on_attempt=6)).records[-1].attempt):
        accepted(right, misclassified_cases())


# === Round 8: answers that once passed where they should not (or the reverse), and more slips and styles ===
# Found: shorter_in_characters_kept_whole and rank_in_floats (the lesson's own solution, p / 100 * n in floats) passed.
from decimal import Decimal  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy  # noqa: E402


# --- own_keep_tail, round 8: more slips and other styles ---------------------------------------------

ENC = get_encoding("o200k_base")


def each_token_decoded_alone(text, keep_tokens):
    ids = ENC.encode(text, disallowed_special=())
    return "".join(ENC.decode([i]) for i in ids[len(ids) - min(keep_tokens, len(ids)):])


def special_token_allowed(text, keep_tokens):
    ids = ENC.encode(text, allowed_special="all")
    return ENC.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def shorter_in_characters_kept_whole(text, keep_tokens):
    if len(text) <= keep_tokens: return text  # "a token is at least a character"
    ids = ENC.encode(text, disallowed_special=())
    return ENC.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def start_from_the_texts_length(text, keep_tokens):
    ids = ENC.encode(text, disallowed_special=())
    return ENC.decode(ids[max(0, len(text) - keep_tokens):])


def encodes_the_text_reversed(text, keep_tokens):
    ids = ENC.encode(text[::-1], disallowed_special=())
    return ENC.decode(ids[:keep_tokens])[::-1]


def trailing_newline_dropped_first(text, keep_tokens):
    ids = ENC.encode(text.rstrip("\n"), disallowed_special=())
    return ENC.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def the_cl100k_encoding(text, keep_tokens):
    enc = get_encoding("cl100k_base")
    ids = enc.encode(text, disallowed_special=())
    return enc.decode(ids[len(ids) - min(keep_tokens, len(ids)):])


def keep_tail_with_encode_ordinary(text, keep_tokens):
    ids = ENC.encode_ordinary(text)
    return ENC.decode(ids[len(ids) - keep_tokens:]) if 0 < keep_tokens < len(ids) else ("" if keep_tokens == 0 else text)


def keep_tail_by_recursion(text, keep_tokens, ids=None):
    ids = ENC.encode(text, disallowed_special=()) if ids is None else ids
    if len(ids) <= keep_tokens: return ENC.decode(ids)
    return keep_tail_by_recursion(text, keep_tokens, ids[1:])


def keep_tail_with_max(text, keep_tokens):
    ids = ENC.encode(text, disallowed_special=())
    start = max(0, len(ids) - keep_tokens)
    return ENC.decode(ids[start:])


KEEP_TAIL_WRONG_8 = [each_token_decoded_alone, special_token_allowed, shorter_in_characters_kept_whole,
                     start_from_the_texts_length, encodes_the_text_reversed,
                     trailing_newline_dropped_first, the_cl100k_encoding]
KEEP_TAIL_RIGHT_8 = [keep_tail_with_encode_ordinary, keep_tail_by_recursion, keep_tail_with_max]


@pytest.mark.parametrize("wrong", KEEP_TAIL_WRONG_8, ids=lambda f: f.__name__)
def test_the_keep_tail_checker_rejects_round_8(wrong):
    rejected(wrong, keep_tail_cases())


@pytest.mark.parametrize("right", KEEP_TAIL_RIGHT_8, ids=lambda f: f.__name__)
def test_the_keep_tail_checker_accepts_round_8(right):
    accepted(right, keep_tail_cases())


# --- own_ceiling, round 8: more slips and other styles ---------------------------------------------


def diagnostics_added_by_a_missing_parenthesis(w, f, t, p, d, a): return w - f - t - a * p + d


def the_task_repeated_each_attempt(w, f, t, p, d, a): return w - f - a * (t + p + d)


def the_prefix_repeated_each_attempt(w, f, t, p, d, a): return w - t - a * (f + p + d)


def raises_when_the_loop_does_not_fit(w, f, t, p, d, a):
    c = w - f - t - a * (p + d)
    if c < 0: raise ValueError("the loop does not fit in the window")
    return c


def numpy_int16(w, f, t, p, d, a):
    return int(numpy.array([w, -f, -t, -a * (p + d)], dtype=numpy.int32).astype(numpy.int16).sum())


def the_patch_only_once(w, f, t, p, d, a): return w - f - t - p - a * d


def ceiling_in_fractions(w, f, t, p, d, a): return Fraction(w) - f - t - Fraction(a) * (p + d)


def ceiling_with_early_return(window, fixed_prefix, task, patch, diagnostics, attempts):
    left = window - fixed_prefix - task
    if attempts == 0: return left
    return ceiling_with_early_return(left - patch - diagnostics, 0, 0, patch, diagnostics, attempts - 1)


def ceiling_with_numpy(*sizes):
    w, f, t, p, d, a = numpy.array(sizes, dtype=numpy.int64)
    return w - f - t - a * (p + d)


CEILING_WRONG_8 = [diagnostics_added_by_a_missing_parenthesis, the_task_repeated_each_attempt,
                   the_prefix_repeated_each_attempt, raises_when_the_loop_does_not_fit,
                   numpy_int16, the_patch_only_once]
CEILING_RIGHT_8 = [ceiling_in_fractions, ceiling_with_early_return, ceiling_with_numpy]


@pytest.mark.parametrize("wrong", CEILING_WRONG_8, ids=lambda f: f.__name__)
def test_the_ceiling_checker_rejects_round_8(wrong):
    rejected(wrong, ceiling_cases())


@pytest.mark.parametrize("right", CEILING_RIGHT_8, ids=lambda f: f.__name__)
def test_the_ceiling_checker_accepts_round_8(right):
    accepted(right, ceiling_cases())


# --- own_percentile, round 8: more slips and other styles ---------------------------------------------


def rank_in_floats(values, p):  # the lesson's own solution: p / 100 * n in floats
    ordered = sorted(values); return ordered[math.ceil(p / 100 * len(ordered)) - 1]


def floor_division_inside_ceil(values, p):
    ordered = sorted(values); return ordered[math.ceil(p * len(ordered) // 100) - 1]


def numpy_nearest(values, p): return numpy.percentile(values, p, method="nearest")


def numpy_higher(values, p): return numpy.percentile(values, p, method="higher")


def numpy_closest_observation(values, p): return numpy.percentile(values, p, method="closest_observation")


def rank_rounded_half_to_even(values, p):
    ordered = sorted(values); return ordered[max(1, round(p * len(ordered) / 100)) - 1]


def sorted_descending_indexed_from_the_front(values, p):
    ordered = sorted(values, reverse=True); return ordered[math.ceil(p * len(ordered) / 100) - 1]


def percentile_in_integers(values, p):
    n = len(values)
    rank = math.ceil(p * n / 100)
    return sorted(values)[rank - 1]


def percentile_by_descending(values, p):
    ordered = sorted(values, reverse=True)
    return ordered[len(ordered) - math.ceil(Fraction(p) * len(ordered) / 100)]


def percentile_with_decimal(values, p):
    rank = (Decimal(str(p)) * len(values) / 100).to_integral_value(rounding="ROUND_CEILING")
    return sorted(values)[int(rank) - 1]


def percentile_by_recursion(values, p):
    rank = math.ceil(Fraction(p) * len(values) / 100)
    def kth(items, k):
        pivot = items[0]
        low = [v for v in items if v < pivot]; same = [v for v in items if v == pivot]
        if k <= len(low): return kth(low, k)
        if k <= len(low) + len(same): return pivot
        return kth([v for v in items if v > pivot], k - len(low) - len(same))
    return kth(list(values), rank)


# numpy's inverted_cdf (nearest rank) also puts the rank in floats: 28 / 100 * 25 -> rank 8, not 7.
PERCENTILE_WRONG_8 = [percentile_by_numpy_inverted_cdf, percentile_by_numpy_quantile,
                      rank_in_floats, floor_division_inside_ceil, numpy_nearest, numpy_higher,
                      numpy_closest_observation, rank_rounded_half_to_even,
                      sorted_descending_indexed_from_the_front]
PERCENTILE_RIGHT_8 = [percentile_in_integers, percentile_by_descending, percentile_with_decimal,
                      percentile_by_recursion]


@pytest.mark.parametrize("wrong", PERCENTILE_WRONG_8, ids=lambda f: f.__name__)
def test_the_percentile_checker_rejects_round_8(wrong):
    rejected(wrong, percentile_cases())


@pytest.mark.parametrize("right", PERCENTILE_RIGHT_8, ids=lambda f: f.__name__)
def test_the_percentile_checker_accepts_round_8(right):
    accepted(right, percentile_cases())


TAIL_TRIM_WRONG_8 = {"without_the_comma": "2794", "european_thousands": 2.794, "the_input_not_the_room": 197_206,
                     "one_more": 2_795, "a_list": [2_794], "negative": -2_794, "not_a_number": float("nan")}
MISCLASSIFIED_WRONG_8 = {"every_attempt_that_goes_out": [1, 2, 3, 4, 5], "the_last_request_not_trimmed": 3,
                         "the_last_as_an_index": -1, "it_never_stops": float("inf"), "as_words": "attempt 5",
                         "five_and_a_half": 5.5}


@pytest.mark.parametrize("wrong", TAIL_TRIM_WRONG_8)
def test_the_tail_trim_prediction_checker_rejects_round_8(wrong):
    from ctxlib.course.checks.lesson2 import tail_trim_run_cases
    rejected(TAIL_TRIM_WRONG_8[wrong], tail_trim_run_cases())


@pytest.mark.parametrize("wrong", MISCLASSIFIED_WRONG_8)
def test_the_misclassified_prediction_checker_rejects_round_8(wrong):
    from ctxlib.course.checks.lesson2 import misclassified_cases
    rejected(MISCLASSIFIED_WRONG_8[wrong], misclassified_cases())


def test_the_predictions_accept_fractions_decimals_and_parsed_text_round_8():
    from ctxlib.course.checks.lesson2 import misclassified_cases, tail_trim_run_cases
    for right in (Fraction(2_794), Decimal("2794"), int("2,794".replace(",", ""))):
        accepted(right, tail_trim_run_cases())
    for right in (Fraction(10, 2), Decimal("5.0"), numpy.float64(5)):
        accepted(right, misclassified_cases())


def test_a_rank_computed_in_floats_is_named_and_the_hint_says_why():
    from ctxlib.course.quiz import load_quiz
    message = rejected(rank_in_floats, percentile_cases()).message
    assert message.endswith("For a whole rank that float arithmetic puts just above a whole number, "
                            "rank_in_floats returned 1459: too high.")
    hi = rejected(rank_in_floats, percentile_cases(), "hi").message
    assert "ऐसे पूर्ण rank के लिए जिसे float गणना किसी पूर्ण संख्या से ज़रा ऊपर पहुँचा देती है" in hi
    for lang in ("en", "hi"):
        assert "math.ceil(p * n / 100)" in load_quiz("02_running_total", lang).question("own_percentile").hints[1]
