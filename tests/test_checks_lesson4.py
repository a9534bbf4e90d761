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


# --- own_superseded, a seventh review: wrong answers of other kinds, right answers in other styles ----

def drops_reads_before_the_last_edit(blocks):
    last_edit = {path: i for i, (kind, path) in enumerate(blocks) if kind == "edit"}
    return [i for i, (kind, path) in enumerate(blocks) if path not in last_edit or i >= last_edit[path]]


def drops_the_diagnostics_of_a_dropped_edit(blocks):
    kept = set(right_superseded(blocks))
    return [i for i in sorted(kept) if not (blocks[i][0] == "diagnostics" and i > 0 and i - 1 not in kept)]


def reverses_the_callers_list(blocks):
    blocks.reverse()
    seen, kept = set(), []
    for j, (kind, path) in enumerate(blocks):
        if kind == "edit":
            if path in seen:
                continue
            seen.add(path)
        kept.append(len(blocks) - 1 - j)
    return sorted(kept)


def last_edit_found_one_too_far(blocks):
    kept = []
    for i, block in enumerate(blocks):
        kind, path = block
        if kind == "edit" and len(blocks) - blocks[::-1].index(block) != i:  # the -1 forgotten
            continue
        kept.append(i)
    return kept


def a_dict_of_the_blocks_that_stay(blocks):
    return {i: blocks[i] for i in right_superseded(blocks)}


def how_many_stay(blocks):
    return len(right_superseded(blocks))


def only_an_edit_right_after_supersedes(blocks):
    return [i for i, (kind, path) in enumerate(blocks)
            if not (kind == "edit" and i + 1 < len(blocks) and blocks[i + 1] == ("edit", path))]


def a_later_edit_of_any_file_supersedes(blocks):
    last = max((i for i, (kind, _) in enumerate(blocks) if kind == "edit"), default=None)
    return [i for i, (kind, _) in enumerate(blocks) if kind != "edit" or i == last]


def the_edits_that_stay_at_the_end(blocks):
    kept = right_superseded(blocks)
    return [i for i in kept if blocks[i][0] != "edit"] + [i for i in kept if blocks[i][0] == "edit"]


SUPERSEDED_WRONG_MORE = [drops_reads_before_the_last_edit, drops_the_diagnostics_of_a_dropped_edit,
                         reverses_the_callers_list, last_edit_found_one_too_far, a_dict_of_the_blocks_that_stay,
                         how_many_stay, only_an_edit_right_after_supersedes, a_later_edit_of_any_file_supersedes,
                         the_edits_that_stay_at_the_end]


def superseded_with_max_per_path(blocks):
    paths = {path for kind, path in blocks if kind == "edit"}
    last = {path: max(i for i, block in enumerate(blocks) if block == ("edit", path)) for path in paths}
    return [i for i, (kind, path) in enumerate(blocks) if kind != "edit" or last[path] == i]


def superseded_as_the_difference(blocks):
    dropped = set()
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            dropped |= {j for j in range(i) if blocks[j] == ("edit", path)}
    return sorted(set(range(len(blocks))) - dropped)


def superseded_with_filter_and_a_print(blocks, kind_of_diff="edit"):
    last = {}
    for i, (kind, path) in enumerate(blocks):
        if kind == kind_of_diff:
            last[path] = i
    kept = list(filter(lambda i: blocks[i][0] != kind_of_diff or last[blocks[i][1]] == i, range(len(blocks))))
    print(f"dropped {len(blocks) - len(kept)} superseded diffs")
    return kept


def superseded_with_defaultdict(blocks):
    from collections import defaultdict
    edits = defaultdict(list)
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            edits[path].append(i)
    superseded = {i for indices in edits.values() for i in indices[:-1]}
    return [i for i in range(len(blocks)) if i not in superseded]


SUPERSEDED_RIGHT_MORE = [superseded_with_max_per_path, superseded_as_the_difference, superseded_with_filter_and_a_print,
                         superseded_with_defaultdict]


@pytest.mark.parametrize("wrong", SUPERSEDED_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_superseded_checker_rejects_more(wrong):
    rejected(wrong, SUPERSEDED)


@pytest.mark.parametrize("right", SUPERSEDED_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_superseded_checker_accepts_more(right):
    accepted(right, SUPERSEDED)


# --- own_masking, a seventh review ------------------------------------------------------------------------

def _masks_the_callers_blocks(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    for i in outputs[:-keep_last]:
        blocks[i] = (blocks[i][0], min(blocks[i][1], placeholder))
    return [tokens for _, tokens in blocks]


def _max_not_min(blocks, keep_last, placeholder):
    older = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS][:-keep_last]
    return [max(tokens, placeholder) if i in older else tokens for i, (_, tokens) in enumerate(blocks)]  # min meant


def _counted_back_not_reversed(blocks, keep_last, placeholder):
    result, seen = [], 0
    for kind, tokens in reversed(blocks):
        if kind in TOOL_OUTPUTS:
            seen += 1
            if seen > keep_last:
                tokens = min(tokens, placeholder)
        result.append(tokens)
    return result  # built from the end, never turned round


MASKING_WRONG_MORE = {
    "masks_all_but_the_first": lambda b, k, p: masking_with(b, k, p, older=lambda o, k: o[k:]),
    "everything_but_diffs_is_output": lambda b, k, p: masking_with(
        b, k, p, kinds=tuple({kind for kind, _ in b} - {"edit"})),
    "masks_the_callers_blocks": _masks_the_callers_blocks,
    "max_not_min": _max_not_min,
    "search_result_misspelled": lambda b, k, p: masking_with(b, k, p, kinds=("file_read", "search_result", "diagnostics")),
    "built_from_the_end_never_turned_round": _counted_back_not_reversed,
    "keep_last_counts_tool_outputs_and_diffs": lambda b, k, p: masking_with(
        b, k, p, older=lambda o, k: [i for i in o if sum(1 for j, (kind, _) in enumerate(b)
                                                         if j > i and kind in TOOL_OUTPUTS + ("edit",)) >= k]),
    "the_placeholder_read_as_a_percentage": lambda b, k, p: [t * p // 100 if t != r else t for (_, t), r in zip(b, right_masking(b, k, p))],
    "keep_last_of_the_larger_kind_only": lambda b, k, p: masking_with(b, k, p, kinds=("file_read", "diagnostics")),
}


def masking_by_rank_from_the_end(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    older = {i for rank, i in enumerate(reversed(outputs)) if rank >= keep_last}  # rank 0 is the newest
    return [min(tokens, placeholder) if i in older else tokens for i, (_, tokens) in enumerate(blocks)]


def masking_by_suffix_counts(blocks, keep_last, placeholder):
    after = 0
    newer = [0] * len(blocks)
    for i in range(len(blocks) - 1, -1, -1):
        newer[i] = after
        after += blocks[i][0] in TOOL_OUTPUTS
    return [min(t, placeholder) if kind in TOOL_OUTPUTS and newer[i] >= keep_last else t
            for i, (kind, t) in enumerate(blocks)]


def masking_as_a_generator_with_a_print(blocks, keep_last, placeholder, kinds=TOOL_OUTPUTS):
    total = sum(1 for kind, _ in blocks if kind in kinds)

    def sizes():
        seen = 0
        for kind, tokens in blocks:
            if kind in kinds:
                seen += 1
                yield placeholder if seen <= total - keep_last and tokens > placeholder else tokens
            else:
                yield tokens
    result = list(sizes())
    print(f"masked {sum(a != b for a, (_, b) in zip(result, blocks))} outputs")
    return result


def masking_with_map(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    cut = set(outputs) - set(outputs[-keep_last:])
    return list(map(lambda item: min(item[1][1], placeholder) if item[0] in cut else item[1][1], enumerate(blocks)))


MASKING_RIGHT_MORE = [masking_by_rank_from_the_end, masking_by_suffix_counts, masking_as_a_generator_with_a_print,
                      masking_with_map]


@pytest.mark.parametrize("bug", MASKING_WRONG_MORE)
def test_the_masking_checker_rejects_more(bug):
    rejected(MASKING_WRONG_MORE[bug], MASKING)


@pytest.mark.parametrize("right", MASKING_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_masking_checker_accepts_more(right):
    accepted(right, MASKING)


# --- own_cached_share, a seventh review -------------------------------------------------------------------

def _pads_the_shorter_list(previous, request):
    previous += [None] * (len(request) - len(previous))  # the caller's list grows
    return right_share(previous, request)


def _zip_strict(previous, request):
    shared = 0
    for old, new in zip(previous, request, strict=True):  # ValueError when one request is longer
        if old != new:
            break
        shared += new[1]
    return share_of(shared, request)


def _partly_cached_block(previous, request):
    shared = 0
    for old, new in zip(previous, request):
        if old[0] != new[0]:
            break
        shared += min(old[1], new[1])  # a block that grew: its old part "is still cached"
        if old[1] != new[1]:
            break
    return share_of(shared, request)


SHARE_WRONG_MORE = {
    "the_uncached_share": lambda prev, req: 1 - right_share(prev, req) if req else 0.0,
    "cached_over_new_tokens": lambda prev, req: (prefix_tokens(prev, req, tuple.__eq__) /
                                                 ((sum(t for _, t in req) - prefix_tokens(prev, req, tuple.__eq__)) or 1)),
    "all_or_nothing": lambda prev, req: share_of(sum(t for _, t in prev) if req[:len(prev)] == prev else 0, req),
    "a_prefix_of_blocks_found_anywhere_before": lambda prev, req: share_of(
        sum(b[1] for b in __import__("itertools").takewhile(lambda b: b in prev, req)), req),
    "zip_strict": _zip_strict,
    "formatted_as_a_percentage": lambda prev, req: f"{right_share(prev, req):.1%}",
    "pads_the_shorter_list": _pads_the_shorter_list,
    "a_block_that_grew_is_partly_cached": _partly_cached_block,
    "rounded_to_two_places": lambda prev, req: round(right_share(prev, req), 2),
    "one_for_a_first_request": lambda prev, req: right_share(prev, req) if prev else 1.0,
}


def share_with_next_and_enumerate(previous, request):
    total = sum(t for _, t in request)
    if not total:
        return 0.0
    n = next((i for i, (old, new) in enumerate(zip(previous, request)) if old != new), min(len(previous), len(request)))
    return sum(t for _, t in request[:n]) / total


def share_by_recursion(previous, request, verbose=False):
    def shared(old, new):
        if not old or not new or old[0] != new[0]:
            return 0
        return new[0][1] + shared(old[1:], new[1:])
    total = sum(t for _, t in request)
    if verbose:
        print(total)
    return shared(list(previous), list(request)) / total if total else 0


def share_with_labels_and_sizes_apart(previous, request):
    labels = [label for label, _ in request]
    sizes = [tokens for _, tokens in request]
    k = 0
    while k < len(previous) and k < len(request) and previous[k][0] == labels[k] and previous[k][1] == sizes[k]:
        k += 1
    return sum(sizes[:k]) / sum(sizes) if sum(sizes) else 0.0


def share_in_decimals(previous, request):
    from decimal import Decimal
    total = sum(t for _, t in request)
    return Decimal(prefix_tokens(previous, request, tuple.__eq__)) / Decimal(total) if total else Decimal(0)


SHARE_RIGHT_MORE = [share_with_next_and_enumerate, share_by_recursion, share_with_labels_and_sizes_apart, share_in_decimals]


@pytest.mark.parametrize("bug", SHARE_WRONG_MORE)
def test_the_cached_share_checker_rejects_more(bug):
    rejected(SHARE_WRONG_MORE[bug], SHARE)


@pytest.mark.parametrize("right", SHARE_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_cached_share_checker_accepts_more(right):
    accepted(right, SHARE)


# --- own_run_cost, a seventh review -----------------------------------------------------------------------

def previous_updated_too_early(requests, read, write):
    billed, previous = 0.0, []
    for request in requests:
        previous = request  # before the comparison: every request is its own cache
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += cached * read + (sum(t for _, t in request) - cached) * write
    return billed


def longest_prefix_of_any_earlier_request(requests, read, write):
    return bill(requests, read, write, lambda before, req: max(
        [prefix_tokens(r, req, tuple.__eq__) for r in before], default=0))


def each_request_rounded(requests, read, write):
    billed, previous = 0, []
    for request in requests:
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += round(cached * read + (sum(t for _, t in request) - cached) * write)
        previous = request
    return billed


def the_share_rounded_first(requests, read, write):
    billed, previous = 0.0, []
    for request in requests:
        total = sum(t for _, t in request)
        share = round(right_share(previous, request), 2)
        billed += total * (share * read + (1 - share) * write)
        previous = request
    return billed


def pops_the_requests(requests, read, write):
    billed, previous = 0.0, []
    while requests:
        request = requests.pop(0)
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += cached * read + (sum(t for _, t in request) - cached) * write
        previous = request
    return billed


def the_bill_of_each_request(requests, read, write):
    bills, previous = [], []
    for request in requests:
        cached = prefix_tokens(previous, request, tuple.__eq__)
        bills.append(cached * read + (sum(t for _, t in request) - cached) * write)
        previous = request
    return bills


def the_first_request_at_the_plain_price(requests, read, write):
    return bill_of(requests, lambda cached, total: cached * read + (total - cached) * write) - (
        sum(t for _, t in requests[0]) * (write - 1.0) if requests else 0)


def whole_tokens_per_request(requests, read, write):
    return bill_of(requests, lambda cached, total: int(cached * read) + int((total - cached) * write))


def cached_tokens_billed_twice(requests, read, write):
    return bill_of(requests, lambda cached, total: cached * read + total * write - cached * write + cached * read)


def the_run_in_cents(requests, read, write):
    return round(right_run_cost(requests, read, write), 2)


RUN_COST_WRONG_MORE = [previous_updated_too_early, longest_prefix_of_any_earlier_request, each_request_rounded,
                       the_share_rounded_first, pops_the_requests, the_bill_of_each_request,
                       the_first_request_at_the_plain_price, whole_tokens_per_request, cached_tokens_billed_twice,
                       the_run_in_cents]


def run_cost_with_zip_and_takewhile(requests, read_fraction, write_fraction):
    from itertools import takewhile
    total = 0.0
    for before, request in zip([[]] + list(requests), requests):
        cached = sum(new[1] for _, new in takewhile(lambda pair: pair[0] == pair[1], zip(before, request)))
        total += read_fraction * cached + write_fraction * (sum(t for _, t in request) - cached)
    return total


def run_cost_from_ctxlibs_share(requests, read_fraction, write_fraction):
    from ctxlib.cost import cached_share
    billed, previous = 0, []
    for request in requests:
        total = sum(t for _, t in request)
        cached = cached_share(previous, request) * total
        billed += cached * read_fraction + (total - cached) * write_fraction
        previous = request
    return billed


def run_cost_with_a_report(requests, read_fraction, write_fraction, *, show=True):
    billed = 0.0
    for n, request in enumerate(requests):
        cached = prefix_tokens(requests[n - 1] if n else [], request, tuple.__eq__)
        cost = cached * read_fraction + (sum(t for _, t in request) - cached) * write_fraction
        if show:
            print(f"request {n + 1}: {cost:,.1f}")
        billed += cost
    return billed


def run_cost_in_decimals(requests, read_fraction, write_fraction):
    from decimal import Decimal
    read, write, billed, previous = Decimal(str(read_fraction)), Decimal(str(write_fraction)), Decimal(0), []
    for request in requests:
        cached = prefix_tokens(previous, request, tuple.__eq__)
        billed += cached * read + (sum(t for _, t in request) - cached) * write
        previous = request
    return billed


RUN_COST_RIGHT_MORE = [run_cost_with_zip_and_takewhile, run_cost_from_ctxlibs_share, run_cost_with_a_report,
                       run_cost_in_decimals]


@pytest.mark.parametrize("wrong", RUN_COST_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_run_cost_checker_rejects_more(wrong):
    rejected(wrong, RUN_COST)


@pytest.mark.parametrize("right", RUN_COST_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_run_cost_checker_accepts_more(right):
    accepted(right, RUN_COST)


# === Round 8: answers that once passed where they should not (or the reverse), and more slips and styles ===
# Found: paths_compared_by_identity, masks_only_blocks_twice_the_placeholder and a_minimum_cached_size_of_1024
# passed; numpy arrays of indices or sizes were refused.
import functools  # noqa: E402
import itertools  # noqa: E402
import os  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy  # noqa: E402


# --- own_superseded, round 8: more slips and other styles ---------------------------------------------


def position_found_with_index(blocks):
    return [i for i, b in enumerate(blocks) if b[0] != "edit" or b not in blocks[blocks.index(b) + 1:]]


def paths_compared_by_identity(blocks):
    keep = []
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit" and any(k == "edit" and p is path for k, p in blocks[i + 1:]): continue
        keep.append(i)
    return keep


def drops_every_edit_of_a_path_edited_twice(blocks):
    from collections import Counter
    edits = Counter(p for k, p in blocks if k == "edit")
    return [i for i, (k, p) in enumerate(blocks) if k != "edit" or edits[p] == 1]


def the_indices_of_the_dropped(blocks):
    last = {p: i for i, (k, p) in enumerate(blocks) if k == "edit"}
    return [i for i, (k, p) in enumerate(blocks) if k == "edit" and last[p] != i]


def a_numpy_array_of_flags(blocks):
    last = {p: i for i, (k, p) in enumerate(blocks) if k == "edit"}
    return [k != "edit" or last[p] == i for i, (k, p) in enumerate(blocks)]


def only_edits_of_a_py_file(blocks):
    last = {p: i for i, (k, p) in enumerate(blocks) if k == "edit" and p.endswith(".py")}
    return [i for i, (k, p) in enumerate(blocks) if k != "edit" or last.get(p, i) == i]


def paths_compared_by_base_name(blocks):
    last = {os.path.basename(p): i for i, (k, p) in enumerate(blocks) if k == "edit"}
    return [i for i, (k, p) in enumerate(blocks) if k != "edit" or last[os.path.basename(p)] == i]


def superseded_with_numpy(blocks):
    kinds = numpy.array([k == "edit" for k, _ in blocks], dtype=bool)
    last = {p: i for i, (k, p) in enumerate(blocks) if k == "edit"}
    keep = numpy.array([not kinds[i] or last[p] == i for i, (_, p) in enumerate(blocks)], dtype=bool)
    return numpy.flatnonzero(keep)


def superseded_with_a_later_set(blocks):
    later, keep = set(), []
    for i in range(len(blocks) - 1, -1, -1):
        kind, path = blocks[i]
        if kind == "edit":
            if path in later: continue
            later.add(path)
        keep.append(i)
    return keep[::-1]


def superseded_with_rfind_helper(blocks):
    def last_edit_of(path):
        return max(i for i, (k, p) in enumerate(blocks) if k == "edit" and p == path)
    return [i for i, (k, p) in enumerate(blocks) if k != "edit" or last_edit_of(p) == i]


SUPERSEDED_WRONG_8 = [position_found_with_index, paths_compared_by_identity,
                      drops_every_edit_of_a_path_edited_twice, the_indices_of_the_dropped,
                      a_numpy_array_of_flags, only_edits_of_a_py_file,
                      paths_compared_by_base_name]
SUPERSEDED_RIGHT_8 = [superseded_with_numpy, superseded_with_a_later_set, superseded_with_rfind_helper]


@pytest.mark.parametrize("wrong", SUPERSEDED_WRONG_8, ids=lambda f: f.__name__)
def test_the_superseded_checker_rejects_round_8(wrong):
    rejected(wrong, superseded_cases())


@pytest.mark.parametrize("right", SUPERSEDED_RIGHT_8, ids=lambda f: f.__name__)
def test_the_superseded_checker_accepts_round_8(right):
    accepted(right, superseded_cases())


# --- own_masking, round 8: more slips and other styles ---------------------------------------------

TOOLS = ("file_read", "search_results", "diagnostics")


def masks_only_blocks_twice_the_placeholder(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS]
    older = set(outs[:-keep_last])
    return [placeholder if i in older and t >= placeholder * 2 else t for i, (k, t) in enumerate(blocks)]


def kinds_by_substring(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if "read" in k or "result" in k]
    older = set(outs[:-keep_last])
    return [min(t, placeholder) if i in older else t for i, (k, t) in enumerate(blocks)]


def older_by_tokens_not_position(blocks, keep_last, placeholder):
    outs = sorted((i for i, (k, _) in enumerate(blocks) if k in TOOLS), key=lambda i: blocks[i][1])
    older = set(outs[:-keep_last])
    return [min(t, placeholder) if i in older else t for i, (k, t) in enumerate(blocks)]


def masked_blocks_counted_as_zero(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS]
    older = set(outs[:-keep_last])
    return [0 if i in older and t > placeholder else t for i, (k, t) in enumerate(blocks)]


def a_dict_by_index(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS]
    older = set(outs[:-keep_last])
    return {i: (min(t, placeholder) if i in older else t) for i, (k, t) in enumerate(blocks)}


def keep_last_minus_one(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS]
    older = set(outs[:len(outs) - keep_last + 1]) if keep_last <= len(outs) else set()
    return [min(t, placeholder) if i in older else t for i, (k, t) in enumerate(blocks)]


def a_numpy_array(blocks, keep_last, placeholder):
    sizes = numpy.array([t for _, t in blocks], dtype=int)
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS][:-keep_last]
    sizes[outs] = numpy.minimum(sizes[outs], placeholder)
    return sizes


def masking_with_a_counter_from_the_end(blocks, keep_last, placeholder):
    result, seen = [], 0
    for kind, tokens in reversed(blocks):
        if kind in TOOLS:
            seen += 1
            if seen > keep_last: tokens = min(tokens, placeholder)
        result.append(tokens)
    return result[::-1]


def masking_with_early_return(blocks, keep_last, placeholder):
    outs = [i for i, (k, _) in enumerate(blocks) if k in TOOLS]
    if len(outs) <= keep_last: return [t for _, t in blocks]
    cut = set(outs[:len(outs) - keep_last])
    return [min(t, placeholder) if i in cut else t for i, (_, t) in enumerate(blocks)]


def masking_by_recursion(blocks, keep_last, placeholder):
    if not blocks: return []
    *rest, (kind, tokens) = blocks
    if kind in TOOLS:
        tokens = tokens if keep_last > 0 else min(tokens, placeholder)
        keep_last -= 1
    return masking_by_recursion(rest, keep_last, placeholder) + [tokens]


MASKING_WRONG_8 = [masks_only_blocks_twice_the_placeholder, kinds_by_substring, older_by_tokens_not_position,
                   masked_blocks_counted_as_zero, a_dict_by_index, keep_last_minus_one]
MASKING_RIGHT_8 = [a_numpy_array, masking_with_a_counter_from_the_end, masking_with_early_return,
                   masking_by_recursion]


@pytest.mark.parametrize("wrong", MASKING_WRONG_8, ids=lambda f: f.__name__)
def test_the_masking_checker_rejects_round_8(wrong):
    rejected(wrong, masking_cases())


@pytest.mark.parametrize("right", MASKING_RIGHT_8, ids=lambda f: f.__name__)
def test_the_masking_checker_accepts_round_8(right):
    accepted(right, masking_cases())


# --- own_cached_share, round 8: more slips and other styles ---------------------------------------------


def numpy_division_gives_nan(previous, request):
    shared = 0
    for a, b in zip(previous, request):
        if a != b: break
        shared += b[1]
    with numpy.errstate(invalid="ignore"):  # 0 / 0 is nan in numpy, not a ZeroDivisionError
        return numpy.float64(shared) / numpy.float64(sum(t for _, t in request)) if request else 0.0


def compares_tokens_only_up_to_the_shorter(previous, request):
    shared = sum(b[1] for a, b in itertools.takewhile(lambda ab: ab[0][1] == ab[1][1], zip(previous, request)))
    total = sum(t for _, t in request)
    return shared / total if total else 0.0


def the_new_share(previous, request):
    shared = 0
    for a, b in zip(previous, request):
        if a != b: break
        shared += b[1]
    total = sum(t for _, t in request)
    return (total - shared) / total if total else 0.0


def share_of_the_previous_request(previous, request):
    shared = 0
    for a, b in zip(previous, request):
        if a != b: break
        shared += b[1]
    total = sum(t for _, t in previous)
    return shared / total if total else 0.0


def a_fraction_as_text(previous, request):
    shared = 0
    for a, b in zip(previous, request):
        if a != b: break
        shared += b[1]
    total = sum(t for _, t in request)
    return f"{shared}/{total}" if total else "0"


def cached_share_rounded_to_four(previous, request):
    shared = 0
    for a, b in zip(previous, request):
        if a != b: break
        shared += b[1]
    total = sum(t for _, t in request)
    return round(shared / total, 4) if total else 0.0


def share_with_a_while_loop(previous, request):
    i = 0
    while i < min(len(previous), len(request)) and previous[i] == request[i]: i += 1
    total = sum(t for _, t in request)
    return sum(t for _, t in request[:i]) / total if total else 0


def share_with_numpy_cumsum(previous, request):
    sizes = numpy.array([t for _, t in request], dtype=float)
    if not sizes.sum(): return 0.0
    same = [a == b for a, b in zip(previous, request)] + [False]
    return float(numpy.cumsum(sizes)[same.index(False) - 1] / sizes.sum()) if same.index(False) else 0.0


def share_as_a_fraction_object(previous, request):
    total = sum(t for _, t in request)
    n = next((i for i, (a, b) in enumerate(zip(previous, request)) if a != b), min(len(previous), len(request)))
    return Fraction(sum(t for _, t in request[:n]), total) if total else Fraction(0)


CACHED_SHARE_WRONG_8 = [numpy_division_gives_nan, compares_tokens_only_up_to_the_shorter, the_new_share,
                        share_of_the_previous_request, a_fraction_as_text,
                        cached_share_rounded_to_four]
CACHED_SHARE_RIGHT_8 = [share_with_a_while_loop, share_with_numpy_cumsum, share_as_a_fraction_object]


@pytest.mark.parametrize("wrong", CACHED_SHARE_WRONG_8, ids=lambda f: f.__name__)
def test_the_cached_share_checker_rejects_round_8(wrong):
    rejected(wrong, cached_share_cases())


@pytest.mark.parametrize("right", CACHED_SHARE_RIGHT_8, ids=lambda f: f.__name__)
def test_the_cached_share_checker_accepts_round_8(right):
    accepted(right, cached_share_cases())


# --- own_run_cost, round 8: more slips and other styles ---------------------------------------------


def _cached(prev, req):
    c = 0
    for a, b in zip(prev, req):
        if a != b: break
        c += b[1]
    return c


def the_first_compared_with_the_last(requests, read_fraction, write_fraction):
    billed = 0.0
    for i, req in enumerate(requests):
        c = _cached(requests[i - 1], req)
        billed += c * read_fraction + (sum(t for _, t in req) - c) * write_fraction
    return billed


def a_minimum_cached_size_of_1024(requests, read_fraction, write_fraction):
    billed, prev = 0.0, []
    for req in requests:
        c = _cached(prev, req); c = c if c >= 1024 else 0
        billed += c * read_fraction + (sum(t for _, t in req) - c) * write_fraction
        prev = req
    return billed


def write_price_only_on_the_first_request(requests, read_fraction, write_fraction):
    billed, prev = 0.0, []
    for n, req in enumerate(requests):
        c = _cached(prev, req)
        billed += c * read_fraction + (sum(t for _, t in req) - c) * (write_fraction if n == 0 else 1.0)
        prev = req
    return billed


def cached_against_the_previous_cumulative_run(requests, read_fraction, write_fraction):
    billed, seen = 0.0, []
    for req in requests:
        c = _cached(seen, req)
        billed += c * read_fraction + (sum(t for _, t in req) - c) * write_fraction
        seen = seen + req[len(seen):] if c else req
    return billed


def bill_as_an_int(requests, read_fraction, write_fraction):
    billed, prev = 0, []
    for req in requests:
        c = _cached(prev, req)
        billed += int(c * read_fraction) + int((sum(t for _, t in req) - c) * write_fraction)
        prev = req
    return billed


def the_cost_in_a_dict(requests, read_fraction, write_fraction):
    billed, prev = 0.0, []
    for req in requests:
        c = _cached(prev, req)
        billed += c * read_fraction + (sum(t for _, t in req) - c) * write_fraction
        prev = req
    return {"billed": billed}


def run_cost_with_pairwise(requests, read_fraction, write_fraction):
    total = 0
    for prev, req in itertools.pairwise([[]] + list(requests)):
        c = _cached(prev, req)
        total += c * read_fraction + (sum(t for _, t in req) - c) * write_fraction
    return total


def run_cost_with_reduce(requests, read_fraction, write_fraction):
    def step(acc, req):
        billed, prev = acc
        c = _cached(prev, req)
        return billed + c * read_fraction + (sum(t for _, t in req) - c) * write_fraction, req
    return functools.reduce(step, requests, (0.0, []))[0]


def run_cost_in_fractions(requests, read_fraction, write_fraction):
    r, w = Fraction(read_fraction), Fraction(write_fraction)
    return sum((_cached(p, q) * r + (sum(t for _, t in q) - _cached(p, q)) * w
                for p, q in zip([[]] + requests[:-1], requests)), Fraction(0))


RUN_COST_WRONG_8 = [the_first_compared_with_the_last, a_minimum_cached_size_of_1024,
                    write_price_only_on_the_first_request,
                    cached_against_the_previous_cumulative_run, bill_as_an_int,
                    the_cost_in_a_dict]
RUN_COST_RIGHT_8 = [run_cost_with_pairwise, run_cost_with_reduce, run_cost_in_fractions]


@pytest.mark.parametrize("wrong", RUN_COST_WRONG_8, ids=lambda f: f.__name__)
def test_the_run_cost_checker_rejects_round_8(wrong):
    rejected(wrong, run_cost_cases())


@pytest.mark.parametrize("right", RUN_COST_RIGHT_8, ids=lambda f: f.__name__)
def test_the_run_cost_checker_accepts_round_8(right):
    accepted(right, run_cost_cases())


# === Round 9 (a hostile tester's): a small newest output is still one of the last keep_last ===

def small_outputs_not_counted_among_the_last(blocks, keep_last, placeholder):
    tool_outputs = ("file_read", "search_results", "diagnostics")
    maskable = [i for i, (kind, tokens) in enumerate(blocks) if kind in tool_outputs and tokens > placeholder]
    older = set(maskable[:-keep_last])
    return [placeholder if i in older else tokens for i, (kind, tokens) in enumerate(blocks)]


def test_the_masking_checker_rejects_round_9():
    rejected(small_outputs_not_counted_among_the_last, masking_cases())


# --- round s41: ordered collections that are not a list -------------------------------------------------------
# A dict's view keeps its keys in insertion order and a deque is a list with two ends: both hold the items in order,
# as a tuple or a numpy array does, and were refused ("it is a dict_keys, not a list"). Wrong items or a wrong order
# in them are refused as in a list, and a generator (read once) still is.

def superseded_as_a_keys_view(blocks):
    last_edit = {path: i for i, (kind, path) in enumerate(blocks) if kind == "edit"}
    return {i: kind for i, (kind, path) in enumerate(blocks) if kind != "edit" or last_edit[path] == i}.keys()


def superseded_in_a_deque(blocks):
    from collections import deque
    kept, later_edits = deque(), set()
    for i in range(len(blocks) - 1, -1, -1):  # from the end: an edit stays unless a later edit of its path was seen
        kind, path = blocks[i]
        if kind != "edit" or path not in later_edits:
            kept.appendleft(i)
        if kind == "edit":
            later_edits.add(path)
    return kept


def masking_as_dict_values(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    carried = {i: tokens for i, (_, tokens) in enumerate(blocks)}
    for i in outputs[:-keep_last]:
        carried[i] = min(carried[i], placeholder)
    return carried.values()


def superseded_first_edit_kept_as_a_keys_view(blocks):
    first_edit = {}
    for i, (kind, path) in enumerate(blocks):
        if kind == "edit":
            first_edit.setdefault(path, i)
    return {i: None for i, (kind, path) in enumerate(blocks) if kind != "edit" or first_edit[path] == i}.keys()


def superseded_in_a_deque_backwards(blocks):
    return superseded_in_a_deque(blocks).__class__(reversed(superseded_in_a_deque(blocks)))


def masking_as_dict_values_newest_masked(blocks, keep_last, placeholder):
    outputs = [i for i, (kind, _) in enumerate(blocks) if kind in TOOL_OUTPUTS]
    carried = {i: tokens for i, (_, tokens) in enumerate(blocks)}
    for i in outputs[keep_last:]:
        carried[i] = min(carried[i], placeholder)
    return carried.values()


@pytest.mark.parametrize("right, cases", [(superseded_as_a_keys_view, SUPERSEDED), (superseded_in_a_deque, SUPERSEDED),
                                          (masking_as_dict_values, MASKING)], ids=lambda x: getattr(x, "__name__", ""))
def test_a_dict_view_or_a_deque_of_the_right_items_passes(right, cases):
    accepted(right, cases)


@pytest.mark.parametrize("wrong, cases", [(superseded_first_edit_kept_as_a_keys_view, SUPERSEDED),
                                          (superseded_in_a_deque_backwards, SUPERSEDED),
                                          (masking_as_dict_values_newest_masked, MASKING)],
                         ids=lambda x: getattr(x, "__name__", ""))
def test_a_dict_view_or_a_deque_of_wrong_items_is_refused_for_them(wrong, cases):
    message = rejected(wrong, cases).message
    assert "dict_keys, not" not in message and "deque, not" not in message and "dict_values, not" not in message


def test_a_generator_of_the_right_indices_is_still_refused():
    message = rejected(lambda blocks: (i for i in superseded_in_a_deque(blocks)), SUPERSEDED).message
    assert "it is a generator, not a list" in message
