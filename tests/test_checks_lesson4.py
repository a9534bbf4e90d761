"""Lesson 4's checkers reject plausible wrong answers and accept right ones written other ways.

Each wrong answer is a small function with one bug, named by its id (tests/checks_suite.py). The
misconceptions the lesson warns about are among them: a block seen in any earlier request counts as
cached; a later block of the same path, of any kind, supersedes an edit.
"""
import pytest

from checks_suite import accepted, rejected
from ctxlib.course.checks.lesson4 import cached_share_cases, masking_cases, run_cost_cases, superseded_cases
from ctxlib.course.exercises import run_cases

SUPERSEDED = superseded_cases()
MASKING = masking_cases()
SHARE = cached_share_cases()
RUN_COST = run_cost_cases()
TOOL_OUTPUTS = ("file_read", "search_results", "diagnostics")


# --- own_superseded: my_superseded(blocks) -> indices of the blocks that stay -----------------

def right_superseded(blocks):
    last_edit = {path: i for i, (kind, path) in enumerate(blocks) if kind == "edit"}
    return [i for i, (kind, path) in enumerate(blocks) if kind != "edit" or last_edit[path] == i]


def any_later_block_of_the_path(blocks):
    last = {path: i for i, (kind, path) in enumerate(blocks) if path is not None}
    return [i for i, (kind, path) in enumerate(blocks) if kind != "edit" or last[path] == i]


def keeps_the_first_edit(blocks):
    first = {}
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            first.setdefault(path, i)
    return [i for i, (kind, path) in enumerate(blocks) if kind != "edit" or first[path] == i]


def only_the_last_edit_of_all(blocks):
    edits = [i for i, (kind, _) in enumerate(blocks) if kind == "edit"]
    return [i for i, (kind, _) in enumerate(blocks) if kind != "edit" or i == edits[-1]]


def drops_repeated_reads_too(blocks):
    last = {(kind, path): i for i, (kind, path) in enumerate(blocks) if path is not None}
    return [i for i, (kind, path) in enumerate(blocks) if path is None or last[(kind, path)] == i]


def the_blocks_not_their_indices(blocks):
    return [blocks[i] for i in right_superseded(blocks)]


def counts_from_one(blocks):
    return [i + 1 for i in right_superseded(blocks)]


def newest_first(blocks):
    return right_superseded(blocks)[::-1]


def removes_from_the_callers_list(blocks):
    kept = right_superseded(blocks)
    for i in reversed(range(len(blocks))):
        if i not in kept:
            blocks.pop(i)
    return kept


def paths_compared_loosely(blocks):
    norm = [(kind, path.lower().rstrip("/") if path else path) for kind, path in blocks]
    return right_superseded(norm)


def file_names_not_paths(blocks):
    return right_superseded([(kind, path.rsplit("/", 1)[-1] if path else path) for kind, path in blocks])


def indices_that_go(blocks):
    kept = set(right_superseded(blocks))
    return [i for i in range(len(blocks)) if i not in kept]


def edits_only(blocks):
    return [i for i in right_superseded(blocks) if blocks[i][0] == "edit"]


def lesson_loop_hard_coded(blocks):
    return [0, 2, 4, 5] if len(blocks) == 6 else right_superseded(blocks)


def only_the_next_edit_supersedes(blocks):
    kept = []
    for i, (kind, path) in enumerate(blocks):
        following = next((b for b in blocks[i + 1:] if b[0] == "edit"), None)
        if kind == "edit" and following is not None and following[1] == path:
            continue
        kept.append(i)
    return kept


def keeps_the_last_two_edits(blocks):
    edits = {}
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            edits.setdefault(path, []).append(i)
    recent = {i for indices in edits.values() for i in indices[-2:]}
    return [i for i, (kind, _) in enumerate(blocks) if kind != "edit" or i in recent]


def a_generator_of_indices(blocks):
    return (i for i in right_superseded(blocks))


SUPERSEDED_WRONG = [only_the_next_edit_supersedes, keeps_the_last_two_edits, a_generator_of_indices,
                    any_later_block_of_the_path, keeps_the_first_edit, only_the_last_edit_of_all,
                    drops_repeated_reads_too, the_blocks_not_their_indices, counts_from_one, newest_first,
                    removes_from_the_callers_list, paths_compared_loosely, indices_that_go, edits_only,
                    lesson_loop_hard_coded, file_names_not_paths]


def superseded_backwards(blocks):
    seen, kept = set(), []
    for i in range(len(blocks) - 1, -1, -1):
        kind, path = blocks[i]
        if kind == "edit":
            if path in seen:
                continue
            seen.add(path)
        kept.append(i)
    return tuple(reversed(kept))  # a tuple of indices: the question says "the indices", not which sequence


def superseded_by_looking_ahead(blocks):
    return [i for i, (kind, path) in enumerate(blocks)
            if not (kind == "edit" and ("edit", path) in blocks[i + 1:])]


@pytest.mark.parametrize("wrong", SUPERSEDED_WRONG, ids=lambda f: f.__name__)
def test_the_superseded_checker_rejects(wrong):
    rejected(wrong, SUPERSEDED)


def superseded_by_recursion(blocks, start=0):
    if start == len(blocks):
        return []
    kind, path = blocks[start]
    rest = superseded_by_recursion(blocks, start + 1)
    return rest if kind == "edit" and ("edit", path) in blocks[start + 1:] else [start] + rest


def superseded_by_counting_down(blocks):
    from collections import Counter
    left = Counter(path for kind, path in blocks if kind == "edit")
    kept = []
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            left[path] -= 1
            if left[path]:
                continue
        kept.append(i)
    return kept


@pytest.mark.parametrize("right", [right_superseded, superseded_backwards, superseded_by_looking_ahead,
                                   superseded_by_recursion, superseded_by_counting_down],
                         ids=lambda f: f.__name__)
def test_the_superseded_checker_accepts(right):
    accepted(right, SUPERSEDED)


def test_a_tuple_of_the_right_indices_passes_and_a_set_is_named():
    assert run_cases(lambda blocks: tuple(right_superseded(blocks)), SUPERSEDED).outcome == "passed"
    message = rejected(lambda blocks: set(right_superseded(blocks)), SUPERSEDED).message
    assert message.endswith(": it is a set, not a list.")


# --- own_masking: my_masking(blocks, keep_last, placeholder) ---------------------------------

def right_masking(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    older = set(outputs[:-keep_last])
    return [placeholder if i in older and tokens > placeholder else tokens for i, (kind, tokens) in enumerate(blocks)]


def masking_with(blocks, keep_last, placeholder, kinds=TOOL_OUTPUTS, older=None, grow=False):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in kinds]
    masked = set(older(outputs, keep_last) if older else outputs[:-keep_last])
    return [placeholder if i in masked and (grow or tokens > placeholder) else tokens
            for i, (kind, tokens) in enumerate(blocks)]


MASKING_WRONG = {
    "keeps_the_last_blocks_of_any_kind": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: [i for i in o if i < len(b) - k]),
    "masks_the_newest_instead": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: o[-k:]),
    "a_placeholder_can_grow_a_block": lambda b, k, p: masking_with(b, k, p, grow=True),
    "negative_slice_when_keep_last_is_larger": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: o[:len(o) - k] if len(o) - k else []),
    "masks_diffs_too": lambda b, k, p: masking_with(b, k, p, kinds=TOOL_OUTPUTS + ("edit",)),
    "messages_are_tool_outputs": lambda b, k, p: masking_with(b, k, p, kinds=TOOL_OUTPUTS + ("model_message",)),
    "keeps_one_fewer": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: o[:-(k - 1)] if k > 1 else o),
    "keeps_one_more": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: o[:-(k + 1)]),
    "keep_last_per_kind": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: [
        i for kind in TOOL_OUTPUTS for i in [j for j in o if b[j][0] == kind][:-k]]),
    "only_diagnostics": lambda b, k, p: masking_with(b, k, p, kinds=("diagnostics",)),
    "pairs_not_tokens": lambda b, k, p: [(kind, t) for (kind, _), t in zip(b, right_masking(b, k, p))],
    "the_masked_blocks_removed": lambda b, k, p: [t for (kind, tokens), t in zip(b, right_masking(b, k, p))
                                                  if t == tokens or kind not in TOOL_OUTPUTS],
    "chapter_example_hard_coded": lambda b, k, p: [9_000, 1_000, 6_000, 20, 6_000, 20, 6_000, 24_000] if k == 1 else right_masking(b, k, p),
    "masked_to_nothing": lambda b, k, p: [0 if t != r else t for (_, t), r in zip(b, right_masking(b, k, p))],
    "placeholder_subtracted": lambda b, k, p: [t - p if t != r else t for (_, t), r in zip(b, right_masking(b, k, p))],
    "placeholder_added": lambda b, k, p: [t + p if t != r else t for (_, t), r in zip(b, right_masking(b, k, p))],
    "keeps_the_largest_outputs": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: sorted(o, key=lambda i: -b[i][1])[k:]),
    "the_total_not_each_block": lambda b, k, p: sum(right_masking(b, k, p)),
    "keep_last_always_ten": lambda b, k, p: right_masking(b, 10, p),
}


def masking_counting_back(blocks, keep_last, placeholder):
    result, seen = [], 0
    for kind, tokens in reversed(blocks):
        if kind in TOOL_OUTPUTS:
            seen += 1
            if seen > keep_last:
                tokens = min(tokens, placeholder)
        result.append(tokens)
    return tuple(reversed(result))


def masking_in_a_copy(blocks, keep_last, placeholder):
    sizes = [tokens for _, tokens in blocks]
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    for i in outputs[:max(0, len(outputs) - keep_last)]:
        sizes[i] = min(sizes[i], placeholder)
    return sizes


@pytest.mark.parametrize("bug", MASKING_WRONG)
def test_the_masking_checker_rejects(bug):
    rejected(MASKING_WRONG[bug], MASKING)


def masking_with_numpy(blocks, keep_last, placeholder):
    import numpy
    sizes = numpy.array([tokens for _, tokens in blocks], dtype=int)
    older = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS][:-keep_last]
    sizes[older] = numpy.minimum(sizes[older], placeholder)
    return sizes.tolist()


def masking_at_least_as_big(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    older = set(outputs[:-keep_last])
    return [placeholder if i in older and tokens >= placeholder else tokens for i, (_, tokens) in enumerate(blocks)]


@pytest.mark.parametrize("right", [right_masking, masking_counting_back, masking_in_a_copy, masking_with_numpy,
                                   masking_at_least_as_big], ids=lambda f: f.__name__)
def test_the_masking_checker_accepts(right):
    accepted(right, MASKING)


# --- own_cached_share: my_cached_share(previous, request) ------------------------------------

def right_share(previous, request):
    shared = 0
    for old, new in zip(previous, request):
        if old != new:
            break
        shared += new[1]
    total = sum(tokens for _, tokens in request)
    return shared / total if total else 0.0


def prefix_tokens(previous, request, same):
    shared = 0
    for old, new in zip(previous, request):
        if not same(old, new):
            break
        shared += new[1]
    return shared


def share_of(shared, request):
    total = sum(tokens for _, tokens in request)
    return shared / total if total else 0.0


SHARE_WRONG = {
    "labels_only": lambda prev, req: share_of(prefix_tokens(prev, req, lambda a, b: a[0] == b[0]), req),
    "token_counts_only": lambda prev, req: share_of(prefix_tokens(prev, req, lambda a, b: a[1] == b[1]), req),
    "counts_on_after_the_first_difference": lambda prev, req: share_of(sum(n[1] for o, n in zip(prev, req) if o == n), req),
    "any_block_seen_before": lambda prev, req: share_of(sum(b[1] for b in req if b in prev), req),
    "divides_by_the_previous_request": lambda prev, req: share_of(prefix_tokens(prev, req, tuple.__eq__), prev),
    "zero_division_on_an_empty_request": lambda prev, req: prefix_tokens(prev, req, tuple.__eq__) / sum(t for _, t in req),
    "a_percentage": lambda prev, req: 100 * right_share(prev, req),
    "cached_tokens_not_the_share": lambda prev, req: prefix_tokens(prev, req, tuple.__eq__),
    "share_of_blocks_not_tokens": lambda prev, req: (sum(1 for _ in zip(prev, req)) and
                                                     len([1 for o, n in zip(prev, req) if o == n]) / len(req)) if req else 0.0,
    "integer_division": lambda prev, req: prefix_tokens(prev, req, tuple.__eq__) // (sum(t for _, t in req) or 1),
    "one_for_an_empty_request": lambda prev, req: right_share(prev, req) if req else 1.0,
    "the_last_block_counted_too": lambda prev, req: share_of(min(sum(t for _, t in req), prefix_tokens(prev, req, tuple.__eq__)
                                                                + (req[len(prev)][1] if len(req) > len(prev) else 0)), req),
    "identity_not_equality": lambda prev, req: share_of(prefix_tokens(prev, req, lambda a, b: a is b), req),
    "lesson_example_hard_coded": lambda prev, req: 10_000 / 16_020 if len(req) == 4 else right_share(prev, req),
    "rounded_to_three_places": lambda prev, req: round(right_share(prev, req), 3),
    "blocks_in_both_in_any_order": lambda prev, req: share_of(sum(b[1] for b in set(prev) & set(req)), req),
    "divides_by_both_requests": lambda prev, req: (2 * prefix_tokens(prev, req, tuple.__eq__) /
                                                   (sum(t for _, t in prev) + sum(t for _, t in req))) if req else 0.0,
    "none_for_an_empty_request": lambda prev, req: right_share(prev, req) if req else None,
}


def share_with_itertools(previous, request):
    from itertools import takewhile
    pairs = takewhile(lambda pair: pair[0] == pair[1], zip(previous, request))
    cached = sum(new[1] for _, new in pairs)
    total = sum(t for _, t in request)
    return cached / total if total > 0 else 0


def share_by_index(previous, request):
    total = sum(request[i][1] for i in range(len(request)))
    if total == 0:
        return 0.0
    n = 0
    while n < min(len(previous), len(request)) and tuple(previous[n]) == tuple(request[n]):
        n += 1
    return sum(request[i][1] for i in range(n)) / total


@pytest.mark.parametrize("bug", SHARE_WRONG)
def test_the_cached_share_checker_rejects(bug):
    rejected(SHARE_WRONG[bug], SHARE)


def share_with_commonprefix(previous, request):
    import os.path
    shared = os.path.commonprefix([previous, request])  # works on any two lists, not only on paths
    total = sum(t for _, t in request)
    return sum(t for _, t in shared) / total if total else 0


def share_as_a_fraction(previous, request):
    from fractions import Fraction
    total = sum(t for _, t in request)
    return Fraction(prefix_tokens(previous, request, tuple.__eq__), total) if total else Fraction(0)


@pytest.mark.parametrize("right", [right_share, share_with_itertools, share_by_index, share_with_commonprefix,
                                   share_as_a_fraction], ids=lambda f: f.__name__)
def test_the_cached_share_checker_accepts(right):
    accepted(right, SHARE)


def test_an_empty_request_is_0_not_a_zero_division():
    result = run_cases(SHARE_WRONG["zero_division_on_an_empty_request"], SHARE)
    assert result.outcome == "error" and result.message.startswith("For an empty request, your code raised ZeroDivisionError")


def test_the_statement_says_what_a_request_of_0_tokens_gives():
    """The checker has a request whose pairs are all 0 tokens: a learner who returns 0.0 only for an empty list,
    as a statement saying only "an empty request" would have it, divides by zero there."""
    from ctxlib.course.quiz import load_quiz

    def only_an_empty_list(previous, request):
        return right_share(previous, request) if sum(t for _, t in request) else (0.0 if not request else 0 / 0)

    result = run_cases(only_an_empty_list, SHARE)
    assert result.outcome == "error" and result.message.startswith("For a request of 0 tokens, your code raised ZeroDivisionError")
    for lang, words in (("en", "a request of no tokens: an empty one, or one whose pairs are all 0 tokens"),
                        ("hi", "जिस request में कोई token न हो, यानी ख़ाली request या ऐसी जिसके सारे जोड़े 0 tokens के हों")):
        prompt = next(q.prompt for q in load_quiz("04_what_to_remove", lang).questions if q.id == "own_cached_share")
        assert words in prompt


# --- own_run_cost: my_run_cost(requests, read_fraction, write_fraction) ------------------------

def right_run_cost(requests, read_fraction, write_fraction):
    billed, previous = 0.0, []
    for request in requests:
        cached = prefix_tokens(previous, request, lambda a, b: a == b)
        total = sum(tokens for _, tokens in request)
        billed += cached * read_fraction + (total - cached) * write_fraction
        previous = request
    return billed


def bill(requests, read, write, cached_of):
    billed = 0.0
    for n, request in enumerate(requests):
        cached = cached_of(requests[:n], request)
        billed += cached * read + (sum(t for _, t in request) - cached) * write
    return billed


def seen_in_any_earlier_request(requests, read, write):
    return bill(requests, read, write, lambda before, req: sum(b[1] for b in req if any(b in r for r in before)))


def seen_in_the_request_before(requests, read, write):
    return bill(requests, read, write, lambda before, req: sum(b[1] for b in req if before and b in before[-1]))


def counts_on_after_the_first_difference(requests, read, write):
    return bill(requests, read, write, lambda before, req: sum(n[1] for o, n in zip(before[-1], req) if o == n) if before else 0)


def always_against_the_first_request(requests, read, write):
    return bill(requests, read, write, lambda before, req: prefix_tokens(before[0], req, tuple.__eq__) if before else 0)


def the_first_request_cached_against_itself(requests, read, write):
    return bill(requests, read, write, lambda before, req: prefix_tokens(before[-1] if before else req, req, tuple.__eq__))


def labels_only(requests, read, write):
    return bill(requests, read, write, lambda before, req: prefix_tokens(before[-1], req, lambda a, b: a[0] == b[0]) if before else 0)


def tokens_only(requests, read, write):
    return bill(requests, read, write, lambda before, req: prefix_tokens(before[-1], req, lambda a, b: a[1] == b[1]) if before else 0)


def rest_not_priced(requests, read, write):
    return right_run_cost(requests, read, 1.0)


def prices_swapped(requests, read, write):
    return right_run_cost(requests, write, read)


def one_cost_per_request(requests, read, write):
    return [right_run_cost([r], read, write) for r in requests]


def rounded(requests, read, write):
    return round(right_run_cost(requests, read, write))


def last_non_empty_request_kept(requests, read, write):
    billed, previous = 0.0, []
    for request in requests:
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += cached * read + (sum(t for _, t in request) - cached) * write
        previous = request or previous
    return billed


def empties_the_callers_requests(requests, read, write):
    billed = right_run_cost(requests, read, write)
    requests.clear()
    return billed


def bill_of(requests, price):
    billed, previous = 0.0, []
    for request in requests:
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += price(cached, sum(t for _, t in request))
        previous = request
    return billed


def read_fraction_as_a_discount(requests, read, write):
    return bill_of(requests, lambda cached, total: cached * (1 - read) + (total - cached) * write)


def every_token_at_the_write_price_plus_the_cached(requests, read, write):
    return bill_of(requests, lambda cached, total: cached * read + total * write)


def only_the_new_tokens(requests, read, write):
    return bill_of(requests, lambda cached, total: (total - cached) * write)


def the_first_request_at_the_read_price(requests, read, write):
    return right_run_cost(requests, read, write) - (sum(t for _, t in requests[0]) * (write - read) if requests else 0)


def truncated_to_a_whole_number(requests, read, write):
    return int(right_run_cost(requests, read, write))


def the_mean_per_request(requests, read, write):
    return right_run_cost(requests, read, write) / (len(requests) or 1)


RUN_COST_WRONG = [read_fraction_as_a_discount, every_token_at_the_write_price_plus_the_cached, only_the_new_tokens,
                  the_first_request_at_the_read_price, truncated_to_a_whole_number, the_mean_per_request,
                  seen_in_any_earlier_request, seen_in_the_request_before, counts_on_after_the_first_difference,
                  always_against_the_first_request, the_first_request_cached_against_itself, labels_only, tokens_only,
                  rest_not_priced, prices_swapped, one_cost_per_request, rounded, last_non_empty_request_kept,
                  empties_the_callers_requests]


def run_cost_from_shares(requests, read_fraction, write_fraction):
    total, previous = 0, None
    for request in requests:
        tokens = sum(t for _, t in request)
        share = right_share(previous or [], request)
        total += tokens * (share * read_fraction + (1 - share) * write_fraction)
        previous = request
    return total


def run_cost_with_pairs(requests, read_fraction, write_fraction):
    costs = []
    for before, request in zip([[]] + requests[:-1], requests):
        n = 0
        while n < min(len(before), len(request)) and before[n] == request[n]:
            n += 1
        cached = sum(t for _, t in request[:n])
        costs.append(read_fraction * cached + write_fraction * (sum(t for _, t in request) - cached))
    return sum(costs)


@pytest.mark.parametrize("wrong", RUN_COST_WRONG, ids=lambda f: f.__name__)
def test_the_run_cost_checker_rejects(wrong):
    rejected(wrong, RUN_COST)


def run_cost_by_recursion(requests, read_fraction, write_fraction, previous=()):
    if not requests:
        return 0
    request, rest = requests[0], requests[1:]
    cached = prefix_tokens(list(previous), request, tuple.__eq__)
    total = sum(t for _, t in request)
    return (cached * read_fraction + (total - cached) * write_fraction
            + run_cost_by_recursion(rest, read_fraction, write_fraction, request))


@pytest.mark.parametrize("right", [right_run_cost, run_cost_from_shares, run_cost_with_pairs, run_cost_by_recursion],
                         ids=lambda f: f.__name__)
def test_the_run_cost_checker_accepts(right):
    accepted(right, RUN_COST)


def test_the_cache_holds_only_the_request_before():
    # The misconception Lesson 4 warns about: a block seen in any earlier request is not cached.
    case = next(c for c in RUN_COST if c.about["en"] == "for a block seen in an earlier request but not the one before")
    assert case.expected == 9_000 * 1.25 + 1_000 * 1.25 + 4_000 * 1.25 + (9_000 * 0.1 + 2_000 * 1.25) + (
        11_000 * 0.1 + 4_000 * 1.25)
    message = rejected(seen_in_any_earlier_request, RUN_COST).message
    assert message.endswith("seen_in_any_earlier_request returned 22400.0: too low.")
