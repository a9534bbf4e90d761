"""Lesson 1's checkers reject plausible wrong answers and accept right ones written other ways.

Each wrong answer is a small function with one bug, named by its id; tests/checks_suite.py says
what "rejected" means (not passed, and the expected value not in the message).
"""
import re

import pytest

from checks_suite import accepted, rejected
from ctxlib import estimate_tokens, pack_context, score_file
from ctxlib.course.checks.lesson1 import packer_cases, scorer_cases
from ctxlib.course.examples import LESSON1_FILES
from ctxlib.tokens import count_tokens

SCORER = scorer_cases()
PACKER = packer_cases()


# --- own_scorer: my_score(name, text, terms) ------------------------------------------------

def case_sensitive(name, text, terms):
    return sum(text.count(t) + 3 * name.count(t) for t in terms)


def name_weight_one(name, text, terms):
    return sum(text.lower().count(t.lower()) + name.lower().count(t.lower()) for t in terms)


def weight_on_the_text(name, text, terms):
    return sum(3 * text.lower().count(t.lower()) + name.lower().count(t.lower()) for t in terms)


def presence_not_count(name, text, terms):
    return sum((t.lower() in text.lower()) + 3 * (t.lower() in name.lower()) for t in terms)


def whole_words_only(name, text, terms):
    words, parts = re.findall(r"\w+", text.lower()), re.findall(r"\w+", name.lower())
    return sum(words.count(t.lower()) + 3 * parts.count(t.lower()) for t in terms)


def distinct_terms(name, text, terms):
    return sum(text.lower().count(t) + 3 * name.lower().count(t) for t in {t.lower() for t in terms})


def base_name_only(name, text, terms):
    base = name.lower().rsplit("/", 1)[-1]
    return sum(text.lower().count(t.lower()) + 3 * base.count(t.lower()) for t in terms)


def overlapping_matches(name, text, terms):
    def count(s, t):
        return len(re.findall(f"(?={re.escape(t)})", s))
    return sum(count(text.lower(), t.lower()) + 3 * count(name.lower(), t.lower()) for t in terms)


def terms_not_lowered(name, text, terms):
    return sum(text.lower().count(t) + 3 * name.lower().count(t) for t in terms)


def ascii_only(name, text, terms):
    name, text = (s.encode("ascii", "ignore").decode().lower() for s in (name, text))
    return sum(text.count(t.lower()) + 3 * name.count(t.lower()) for t in terms if t.isascii())


def lowers_terms_in_place(name, text, terms):
    for i, t in enumerate(terms):
        terms[i] = t.lower()
    return sum(text.lower().count(t) + 3 * name.lower().count(t) for t in terms)


def extension_dropped(name, text, terms):
    stem = name.lower().rsplit(".", 1)[0]
    return sum(text.lower().count(t.lower()) + 3 * stem.count(t.lower()) for t in terms)


def lesson_example_hard_coded(name, text, terms):
    return {"shop/pricing.py": 18, "shop/cart.py": 4, "docs/history.md": 0, "tests/test_pricing.py": 15}.get(name, 0)


def text_and_name_together(name, text, terms):
    return sum(3 * (name + " " + text).lower().count(t.lower()) for t in terms)


def terms_as_regular_expressions(name, text, terms):
    return sum(len(re.findall(t, text, re.I)) + 3 * len(re.findall(t, name, re.I)) for t in terms)  # "." matches any


def name_split_into_parts(name, text, terms):
    parts = re.split(r"[/._]", name.lower())
    return sum(text.lower().count(t.lower()) + 3 * sum(part.count(t.lower()) for part in parts) for t in terms)


def reads_the_lessons_query(name, text, terms):
    from ctxlib.course.examples import LESSON1_QUERY
    return score_file(name, text, LESSON1_QUERY)


def name_counted_once(name, text, terms):
    return sum(text.lower().count(t.lower()) + 3 * (t.lower() in name.lower()) for t in terms)


SCORER_WRONG = [case_sensitive, name_weight_one, weight_on_the_text, presence_not_count, whole_words_only,
                distinct_terms, base_name_only, overlapping_matches, terms_not_lowered, ascii_only,
                lowers_terms_in_place, lesson_example_hard_coded, text_and_name_together, extension_dropped,
                terms_as_regular_expressions, name_split_into_parts, reads_the_lessons_query, name_counted_once]


def scorer_with_regex(name, text, terms):
    return sum(len(re.findall(re.escape(t.lower()), text.lower())) + 3 * len(re.findall(re.escape(t.lower()), name.lower()))
               for t in terms)


def scorer_with_find(name, text, terms):
    def count(haystack, needle):
        n, at = 0, haystack.find(needle)
        while at != -1:
            n, at = n + 1, haystack.find(needle, at + len(needle))
        return n
    total = 0
    for term in terms:
        total += count(text.lower(), term.lower()) + 3 * count(name.lower(), term.lower())
    return float(total)  # a float count is still the right count


@pytest.mark.parametrize("wrong", SCORER_WRONG, ids=lambda f: f.__name__)
def test_the_scorer_checker_rejects(wrong):
    rejected(wrong, SCORER)


def scorer_with_casefold(name, text, terms):
    return sum(text.casefold().count(t.casefold()) + 3 * name.casefold().count(t.casefold()) for t in terms)


def scorer_with_an_escaped_pattern(name, text, terms):
    return sum(len(re.findall(re.escape(t), text, re.I)) + 3 * len(re.findall(re.escape(t), name, re.I)) for t in terms)


def scorer_summing_name_and_text_apart(name, text, terms):
    in_text = sum(text.lower().count(t.lower()) for t in terms)
    in_name = sum(name.lower().count(t.lower()) for t in terms)
    return in_text + 3 * in_name


@pytest.mark.parametrize("right", [scorer_with_regex, scorer_with_find, score_file, scorer_with_casefold,
                                   scorer_with_an_escaped_pattern, scorer_summing_name_and_text_apart],
                         ids=lambda f: f.__name__)
def test_the_scorer_checker_accepts(right):
    accepted(right, SCORER)


def test_a_terms_list_changed_in_place_is_named_as_such():
    message = rejected(lowers_terms_in_place, SCORER).message
    assert "changed its input (argument 3)" in message and "Work on a copy" in message


# --- own_packer: my_pack(files, terms, budget) -> (chosen, used) ----------------------------

def greedy(files, terms, budget, order=None, fits=lambda used, cost, budget: used + cost <= budget,
           cost=estimate_tokens, skip_zero=True, stop=False):
    """The right packer with one rule swapped out; each wrong answer below swaps one."""
    scores = {name: score_file(name, text, terms) for name, text in files.items()}
    names = order(files, scores) if order else sorted(files, key=lambda n: -scores[n])
    chosen, used = [], 0
    for name in names:
        if skip_zero and scores[name] == 0:
            continue
        c = cost(files[name])
        if not fits(used, c, budget):
            if stop:
                break
            continue
        chosen.append((name, c))
        used += c
    return chosen, used


def skips_a_file_that_fills_the_rest(files, terms, budget):
    return greedy(files, terms, budget, fits=lambda used, cost, budget: used + cost < budget)


def stops_at_the_first_misfit(files, terms, budget):
    return greedy(files, terms, budget, stop=True)


def keeps_files_that_score_zero(files, terms, budget):
    return greedy(files, terms, budget, skip_zero=False)


def lowest_score_first(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(files, key=lambda n: scores[n]))


def ties_broken_by_name(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(files, key=lambda n: (-scores[n], n)))


def ties_in_reverse(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(reversed(list(files)), key=lambda n: -scores[n]))


def characters_as_tokens(files, terms, budget):
    return greedy(files, terms, budget, cost=len)


def bytes_over_four(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: max(1, len(text.encode()) // 4))


def no_minimum_of_one_token(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: len(text) // 4)


def exact_tokens_instead_of_the_rough_rule(files, terms, budget):
    return greedy(files, terms, budget, cost=count_tokens)


def names_without_costs(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return [name for name, _ in chosen], used


def pops_packed_files(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    for name, _ in chosen:
        files.pop(name)
    return chosen, used


def used_is_the_budget_left(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return chosen, budget - used


def lesson_answers_hard_coded(files, terms, budget):
    if budget >= 150:
        return [("shop/pricing.py", 77), ("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 150
    return greedy(files, terms, budget)


def ties_by_larger_cost(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(
        files, key=lambda n: (-scores[n], -estimate_tokens(files[n]))))


def packed_by_own_score(files, terms, budget, score):
    """The right packer, ranking and skipping by a scorer of its own instead of score_file."""
    chosen, used = [], 0
    for name, text in sorted(files.items(), key=lambda kv: -score(kv[0], kv[1], terms)):
        cost = estimate_tokens(text)
        if score(name, text, terms) == 0 or used + cost > budget:
            continue
        chosen.append((name, cost))
        used += cost
    return chosen, used


def ranks_by_the_text_alone(files, terms, budget):
    return packed_by_own_score(files, terms, budget, lambda name, text, terms: sum(
        text.lower().count(t.lower()) for t in terms))


def ranks_case_sensitively(files, terms, budget):
    return packed_by_own_score(files, terms, budget, lambda name, text, terms: sum(
        text.count(t) + 3 * name.count(t) for t in terms))


def ranks_with_name_weight_one(files, terms, budget):
    return packed_by_own_score(files, terms, budget, lambda name, text, terms: sum(
        text.lower().count(t.lower()) + name.lower().count(t.lower()) for t in terms))


def ranks_by_the_base_name(files, terms, budget):
    return packed_by_own_score(files, terms, budget, lambda name, text, terms: sum(
        text.lower().count(t.lower()) + 3 * name.lower().rsplit("/", 1)[-1].count(t.lower()) for t in terms))


def ties_by_smaller_cost(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(
        files, key=lambda n: (-scores[n], estimate_tokens(files[n]))))


def score_per_token(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(
        files, key=lambda n: -scores[n] / estimate_tokens(files[n])))


def a_quarter_rounded_up(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: max(1, -(-len(text) // 4)))


def the_name_counted_in_the_cost(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: estimate_tokens("## file\n" + text))


def only_the_single_file_against_the_budget(files, terms, budget):
    return greedy(files, terms, budget, fits=lambda used, cost, budget: cost <= budget)


def used_and_chosen_swapped(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return used, chosen


def chosen_as_a_dict(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return dict(chosen), used


PACKER_WRONG = [skips_a_file_that_fills_the_rest, stops_at_the_first_misfit, keeps_files_that_score_zero,
                lowest_score_first, ties_broken_by_name, ties_in_reverse, characters_as_tokens, bytes_over_four,
                no_minimum_of_one_token, exact_tokens_instead_of_the_rough_rule, names_without_costs,
                pops_packed_files, used_is_the_budget_left, lesson_answers_hard_coded, ties_by_larger_cost,
                ranks_by_the_text_alone, ranks_case_sensitively, ranks_with_name_weight_one, ranks_by_the_base_name,
                ties_by_smaller_cost, score_per_token, a_quarter_rounded_up, the_name_counted_in_the_cost,
                only_the_single_file_against_the_budget, used_and_chosen_swapped, chosen_as_a_dict]


def packer_with_index_ties(files, terms, budget):
    ranked = sorted(enumerate(files.items()), key=lambda item: (-score_file(item[1][0], item[1][1], terms), item[0]))
    chosen, left = [], budget
    for _, (name, text) in ranked:
        cost = estimate_tokens(text)
        if score_file(name, text, terms) > 0 and cost <= left:
            chosen.append((name, cost))
            left -= cost
    return tuple(chosen), budget - left  # a tuple of pairs is as good as a list


def packer_sorted_in_reverse(files, terms, budget):
    ranked = sorted(files, key=lambda name: score_file(name, files[name], terms), reverse=True)  # stable: ties keep order
    chosen, used = [], 0
    for name in ranked:
        cost = estimate_tokens(files[name])
        if score_file(name, files[name], terms) and used + cost <= budget:
            chosen.append((name, cost))
            used += cost
    return chosen, used


def packer_from_pack_context(files, terms, budget):
    from ctxlib import pack_context
    chosen, used = pack_context(files, terms, budget)
    return [list(pair) for pair in chosen], used  # [name, cost] lists are as good as tuples


@pytest.mark.parametrize("wrong", PACKER_WRONG, ids=lambda f: f.__name__)
def test_the_packer_checker_rejects(wrong):
    rejected(wrong, PACKER)


def packer_by_recursion(files, terms, budget):
    ranked = sorted(files, key=lambda name: -score_file(name, files[name], terms))

    def take(rest, left):
        if not rest:
            return []
        name, cost = rest[0], estimate_tokens(files[rest[0]])
        if score_file(name, files[name], terms) > 0 and cost <= left:
            return [(name, cost)] + take(rest[1:], left - cost)
        return take(rest[1:], left)

    chosen = take(ranked, budget)
    return chosen, sum(cost for _, cost in chosen)


def packer_taking_the_best_left(files, terms, budget):
    left, chosen, used = dict(files), [], 0
    while left:
        name = max(left, key=lambda n: score_file(n, left[n], terms))  # max keeps the first of a tie
        text = left.pop(name)
        cost = estimate_tokens(text)
        if score_file(name, text, terms) > 0 and used + cost <= budget:
            chosen.append((name, cost))
            used += cost
    return [chosen, used]  # a list of the two is as good as a tuple


def packer_with_nlargest(files, terms, budget):
    import heapq
    chosen, used = [], 0
    for name in heapq.nlargest(len(files), files, key=lambda n: score_file(n, files[n], terms)):  # stable, as sorted
        cost = estimate_tokens(files[name])
        if score_file(name, files[name], terms) and used + cost <= budget:
            chosen.append((name, cost))
            used += cost
    return chosen, float(used)


@pytest.mark.parametrize("right", [packer_with_index_ties, packer_sorted_in_reverse, packer_from_pack_context,
                                   packer_by_recursion, packer_taking_the_best_left, packer_with_nlargest],
                         ids=lambda f: f.__name__)
def test_the_packer_checker_accepts(right):
    accepted(right, PACKER)


def test_the_packer_cases_hold_the_boundary_and_the_ties():
    expected = {c.about["en"]: c.expected for c in PACKER}
    assert expected["for Lesson 1's files and a budget they fill exactly"] == (
        [("shop/pricing.py", 77), ("tests/test_pricing.py", 46), ("shop/cart.py", 27)], 77 + 46 + 27)
    # Tied files keep the order they came in: tax_b before tax_a.
    assert [name for name, _ in expected["for files tied in score"][0]] == ["shop/tax.py", "shop/tax_b.py", "shop/tax_a.py"]
    # A file with no text still costs 1 token by the rough rule.
    assert expected["for a file with no text and a small budget"] == ([("shop/tax_rates.py", 1), ("shop/tax.py", 1)], 2)
    assert all(dict(c.args[0]) == c.args[0] for c in PACKER) and PACKER[0].args[0] == LESSON1_FILES


def test_the_wrong_type_is_named_not_the_value():
    message = rejected(names_without_costs, PACKER).message
    assert message.endswith("item 0 of item 0 (counting from 0): it is a str, not a list.")


# --- own_scorer, a seventh review: wrong answers of other kinds, right answers in other styles ----------

def name_not_lowered(name, text, terms):
    return sum(text.lower().count(t.lower()) + 3 * name.count(t.lower()) for t in terms)


def text_not_lowered(name, text, terms):
    return sum(text.count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def mean_over_the_terms(name, text, terms):
    return sum(text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms) / len(terms)


def returns_inside_the_loop(name, text, terms):
    total = 0
    for t in terms:
        total += text.lower().count(t.lower()) + 3 * name.lower().count(t.lower())
        return total  # indented one level too far: only the first term counts


def best_term_only(name, text, terms):
    return max(text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def terms_at_a_word_start(name, text, terms):
    def count(s, t):
        return len(re.findall(r"\b" + re.escape(t), s))
    return sum(count(text.lower(), t.lower()) + 3 * count(name.lower(), t.lower()) for t in terms)


def punctuation_removed_first(name, text, terms):
    name, text = (re.sub(r"[^\w\s]", " ", s.lower()) for s in (name, text))
    return sum(text.count(t.lower()) + 3 * name.count(t.lower()) for t in terms)


def the_score_as_text(name, text, terms):
    return str(score_file(name, text, terms))


def cached_by_file_name(name, text, terms, _seen={}):
    if name not in _seen:  # a file's score never changes, or so it seems: but the terms and the text may
        _seen[name] = sum(text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)
    return _seen[name]


def the_name_also_in_the_text(name, text, terms):
    whole = (name + "\n" + text).lower()  # the file as it is shown, its name on top
    return sum(whole.count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def the_query_as_one_phrase(name, text, terms):
    phrase = " ".join(terms).lower()
    return text.lower().count(phrase) + 3 * name.lower().count(phrase)


def the_name_weight_added_not_multiplied(name, text, terms):
    return sum(text.lower().count(t.lower()) + (3 + name.lower().count(t.lower()) if t.lower() in name.lower() else 0)
               for t in terms)


SCORER_WRONG_MORE = [name_not_lowered, text_not_lowered, mean_over_the_terms, returns_inside_the_loop, best_term_only,
                     terms_at_a_word_start, punctuation_removed_first, the_score_as_text, cached_by_file_name,
                     the_name_also_in_the_text, the_query_as_one_phrase, the_name_weight_added_not_multiplied]


def scorer_by_splitting(name, text, terms):
    name, text = name.lower(), text.lower()
    return sum((len(text.split(t.lower())) - 1) + 3 * (len(name.split(t.lower())) - 1) for t in terms)


def scorer_with_subn(name, text, terms):
    count = lambda t, s: re.subn(re.escape(t), "", s, flags=re.IGNORECASE)[1]
    return sum(map(lambda t: count(t, text) + 3 * count(t, name), terms))


def scorer_with_a_weight_and_a_print(name, text, terms, weight=3):
    score = 0
    for term in (t.lower() for t in terms):
        score += text.lower().count(term)
        score += weight * name.lower().count(term)
    print(f"{name}: {score}")  # a harmless print: the value returned is what counts
    return score


def scorer_with_reduce(name, text, terms):
    from functools import reduce
    low_name, low_text = name.lower(), text.lower()
    return reduce(lambda total, t: total + low_text.count(t) + 3 * low_name.count(t), [t.lower() for t in terms], 0)


SCORER_RIGHT_MORE = [scorer_by_splitting, scorer_with_subn, scorer_with_a_weight_and_a_print, scorer_with_reduce]


@pytest.mark.parametrize("wrong", SCORER_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_scorer_checker_rejects_more(wrong):
    rejected(wrong, SCORER)


@pytest.mark.parametrize("right", SCORER_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_scorer_checker_accepts_more(right):
    accepted(right, SCORER)


# --- own_packer, a seventh review: wrong answers of other kinds, right answers in other styles ----------

def ascending_sort_reversed(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(files, key=lambda n: scores[n])[::-1])


def words_as_tokens(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: max(1, len(text.split())))


def a_quarter_rounded_to_nearest(files, terms, budget):
    return greedy(files, terms, budget, cost=lambda text: max(1, round(len(text) / 4)))


def used_is_the_number_of_files(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return chosen, len(chosen)


def scores_not_costs(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return [(name, score_file(name, files[name], terms)) for name, _ in chosen], used


def costs_before_names(files, terms, budget):
    chosen, used = greedy(files, terms, budget)
    return [(cost, name) for name, cost in chosen], used


def zero_score_files_use_budget(files, terms, budget):
    chosen, used = [], 0
    for name, text in sorted(files.items(), key=lambda kv: -score_file(kv[0], kv[1], terms)):
        cost = estimate_tokens(text)
        if used + cost > budget:
            continue
        used += cost  # counted before the score is looked at
        if score_file(name, text, terms) > 0:
            chosen.append((name, cost))
    return chosen, used


def best_total_score_that_fits(files, terms, budget):
    from itertools import combinations
    relevant = [n for n in files if score_file(n, files[n], terms) > 0]
    best, best_score = (), -1
    for k in range(len(relevant) + 1):
        for combo in combinations(relevant, k):
            cost = sum(estimate_tokens(files[n]) for n in combo)
            score = sum(score_file(n, files[n], terms) for n in combo)
            if cost <= budget and score > best_score:
                best, best_score = combo, score
    chosen = [(n, estimate_tokens(files[n])) for n in sorted(best, key=lambda n: -score_file(n, files[n], terms))]
    return chosen, sum(cost for _, cost in chosen)


def cheapest_relevant_first(files, terms, budget):
    return greedy(files, terms, budget, order=lambda files, scores: sorted(files, key=lambda n: estimate_tokens(files[n])))


def ranks_by_terms_present(files, terms, budget):
    return packed_by_own_score(files, terms, budget, lambda name, text, terms: sum(
        t.lower() in (name + text).lower() for t in terms))


def lowers_the_terms_in_place(files, terms, budget):
    terms[:] = [t.lower() for t in terms]
    return greedy(files, terms, budget)


def only_the_chosen_files(files, terms, budget):
    return greedy(files, terms, budget)[0]


def fills_the_budget_fullest(files, terms, budget):
    from itertools import combinations
    relevant = [n for n in files if score_file(n, files[n], terms) > 0]
    best = max((combo for k in range(len(relevant) + 1) for combo in combinations(relevant, k)
                if sum(estimate_tokens(files[n]) for n in combo) <= budget),
               key=lambda combo: sum(estimate_tokens(files[n]) for n in combo))
    chosen = [(n, estimate_tokens(files[n])) for n in sorted(best, key=lambda n: -score_file(n, files[n], terms))]
    return chosen, sum(cost for _, cost in chosen)


PACKER_WRONG_MORE = [ascending_sort_reversed, words_as_tokens, a_quarter_rounded_to_nearest, used_is_the_number_of_files,
                     scores_not_costs, costs_before_names, zero_score_files_use_budget, best_total_score_that_fits,
                     cheapest_relevant_first, ranks_by_terms_present, lowers_the_terms_in_place, only_the_chosen_files,
                     fills_the_budget_fullest]


def packer_with_itemgetter(files, terms, budget):
    from operator import itemgetter
    scored = [(score_file(name, text, terms), name, text) for name, text in files.items()]
    chosen, used = [], 0
    for score, name, text in sorted(scored, key=itemgetter(0), reverse=True):  # reverse=True keeps ties in order
        cost = estimate_tokens(text)
        if score > 0 and cost <= budget - used:
            chosen.append((name, cost))
            used += cost
    return chosen, used


def packer_as_a_generator(files, terms, budget):
    def picks():
        left = budget
        for name in sorted(files, key=lambda n: -score_file(n, files[n], terms)):
            cost = estimate_tokens(files[name])
            if score_file(name, files[name], terms) and cost <= left:
                left -= cost
                yield name, cost
    chosen = list(picks())
    return chosen, sum(cost for _, cost in chosen)


def packer_with_a_count_argument_and_a_print(files, terms, budget, count=estimate_tokens, verbose=True):
    chosen, used = [], 0
    ranked = sorted(files.items(), key=lambda kv: score_file(kv[0], kv[1], terms), reverse=True)
    for name, text in ranked:
        if score_file(name, text, terms) == 0:
            if verbose:
                print("skip (score 0):", name)
            continue
        if used + count(text) <= budget:
            chosen.append((name, count(text)))
            used += count(text)
    return chosen, used


def packer_with_cmp_to_key(files, terms, budget):
    from functools import cmp_to_key
    score = {name: score_file(name, text, terms) for name, text in files.items()}
    ranked = sorted(files, key=cmp_to_key(lambda a, b: score[b] - score[a]))  # stable: ties keep their order
    chosen, i = [], 0
    while i < len(ranked):
        name = ranked[i]
        if score[name] > 0 and sum(c for _, c in chosen) + estimate_tokens(files[name]) <= budget:
            chosen.append((name, estimate_tokens(files[name])))
        i += 1
    return chosen, sum(c for _, c in chosen)


PACKER_RIGHT_MORE = [packer_with_itemgetter, packer_as_a_generator, packer_with_a_count_argument_and_a_print,
                     packer_with_cmp_to_key]


@pytest.mark.parametrize("wrong", PACKER_WRONG_MORE, ids=lambda f: f.__name__)
def test_the_packer_checker_rejects_more(wrong):
    rejected(wrong, PACKER)


@pytest.mark.parametrize("right", PACKER_RIGHT_MORE, ids=lambda f: f.__name__)
def test_the_packer_checker_accepts_more(right):
    accepted(right, PACKER)


# --- predict_75 and exact_budget: values, wrong the ways a prediction goes wrong -------------------------

PREDICT_75_WRONG = {
    "the_best_file_first_as_if_it_fit": ["shop/pricing.py", "tests/test_pricing.py"],
    "stops_at_the_first_file_that_does_not_fit": [],
    "cheapest_first": ["shop/cart.py", "tests/test_pricing.py"],
    "only_the_first_that_fits": ["tests/test_pricing.py"],
    "the_file_that_scores_0_too": ["tests/test_pricing.py", "shop/cart.py", "docs/history.md"],
    "one_string": "tests/test_pricing.py, shop/cart.py",
    "a_set_where_an_order_is_asked": {"tests/test_pricing.py", "shop/cart.py"},
    "names_and_costs": [("tests/test_pricing.py", 46), ("shop/cart.py", 27)],
    "file_names_without_folders": ["test_pricing.py", "cart.py"],
    "how_many_files": 2,
    "chosen_and_used": (["tests/test_pricing.py", "shop/cart.py"], 73),
}


@pytest.mark.parametrize("wrong", PREDICT_75_WRONG)
def test_the_predict_75_checker_rejects(wrong):
    from ctxlib.course.checks.lesson1 import predict_75_cases
    rejected(PREDICT_75_WRONG[wrong], predict_75_cases())


@pytest.mark.parametrize("right", [["tests/test_pricing.py", "shop/cart.py"], ("tests/test_pricing.py", "shop/cart.py"),
                                   [name for name, _ in pack_context(LESSON1_FILES, ["discount", "pricing"], 75).chosen],
                                   [*map(str.strip, " tests/test_pricing.py, shop/cart.py".split(","))],
                                   ["./tests/test_pricing.py", "./shop/cart.py"]],
                         ids=["a_list", "a_tuple", "from_pack_context", "split_from_text", "dot_slash_paths"])
def test_the_predict_75_checker_accepts(right):
    from ctxlib.course.checks.lesson1 import predict_75_cases
    accepted(right, predict_75_cases())


EXACT_BUDGET_WRONG = {  # the right answer is 56 + 31 + 21 = 108 o200k_base tokens
    "the_rough_rule": 150,
    "one_token_short": 107,
    "one_token_over": 109,
    "the_three_texts_joined_then_counted": 106,  # tokens merge where the texts meet: pack_context counts each file
    "the_best_file_only": 56,
    "every_file_with_the_one_that_scores_0": 909,
    "characters": 604,
    "the_costs_as_a_list": [56, 31, 21],
    "as_text": "108",
}


@pytest.mark.parametrize("wrong", EXACT_BUDGET_WRONG)
def test_the_exact_budget_checker_rejects(wrong):
    from ctxlib.course.checks.lesson1 import exact_budget_cases
    rejected(EXACT_BUDGET_WRONG[wrong], exact_budget_cases())


def test_the_exact_budget_checker_accepts_the_sum_in_any_numeric_form():
    import numpy
    from ctxlib.course.checks.lesson1 import exact_budget_cases
    for right in (108, 108.0, numpy.int64(108), sum(count_tokens(LESSON1_FILES[n]) for n in
                                                   ("shop/pricing.py", "tests/test_pricing.py", "shop/cart.py"))):
        accepted(right, exact_budget_cases())


# === Round 8: answers that once passed where they should not (or the reverse), and more slips and styles ===
# Found: first_line_only passed every case (every text of the checker was one line); now a term on a later line.
from collections import namedtuple  # noqa: E402
from decimal import Decimal  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy  # noqa: E402


# --- own_scorer, round 8: more slips and other styles ---------------------------------------------


def empty_text_scores_zero(name, text, terms):
    if not text: return 0
    return sum(text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def sum_forgotten_generator(name, text, terms):
    return (text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def sum_forgotten_list(name, text, terms):
    return [text.lower().count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms]


def text_and_name_as_a_pair(name, text, terms):
    return (sum(text.lower().count(t.lower()) for t in terms), sum(3 * name.lower().count(t.lower()) for t in terms))


def whole_words_in_the_name(name, text, terms):
    return sum(text.lower().count(t.lower()) + 3 * len(re.findall(rf"\b{re.escape(t.lower())}\b", name.lower())) for t in terms)


def name_weight_two(name, text, terms):
    return sum(text.lower().count(t.lower()) + 2 * name.lower().count(t.lower()) for t in terms)


def first_line_only(name, text, terms):
    first = text.lower().split("\n", 1)[0]
    return sum(first.count(t.lower()) + 3 * name.lower().count(t.lower()) for t in terms)


def scorer_by_recursion(name, text, terms):
    if not terms: return 0
    t = terms[0].lower()
    return text.lower().count(t) + 3 * name.lower().count(t) + scorer_by_recursion(name, text, terms[1:])


def scorer_with_numpy(name, text, terms):
    low = numpy.array([t.lower() for t in terms])
    return int((numpy.char.count(text.lower(), low) + 3 * numpy.char.count(name.lower(), low)).sum())


def scorer_in_decimal(name, text, terms):
    total = Decimal(0)
    for term in map(str.lower, terms):
        total += text.lower().count(term) + Decimal(3) * name.lower().count(term)
    return total


def scorer_with_a_helper(name, text, terms):
    def hits(where, term): return where.lower().count(term.lower())
    return sum(hits(text, t) for t in terms) + 3 * sum(hits(name, t) for t in terms)


SCORER_WRONG_8 = [empty_text_scores_zero, sum_forgotten_generator, sum_forgotten_list, text_and_name_as_a_pair,
                  whole_words_in_the_name, name_weight_two, first_line_only]
SCORER_RIGHT_8 = [scorer_by_recursion, scorer_with_numpy, scorer_in_decimal, scorer_with_a_helper]


@pytest.mark.parametrize("wrong", SCORER_WRONG_8, ids=lambda f: f.__name__)
def test_the_scorer_checker_rejects_round_8(wrong):
    rejected(wrong, scorer_cases())


@pytest.mark.parametrize("right", SCORER_RIGHT_8, ids=lambda f: f.__name__)
def test_the_scorer_checker_accepts_round_8(right):
    accepted(right, scorer_cases())


# --- own_packer, round 8: more slips and other styles ---------------------------------------------


def _greedy(files, terms, budget, cost=estimate_tokens, order=None, zero=None):
    chosen, used = [], 0
    names = order(files, terms) if order else sorted(files, key=lambda n: -score_file(n, files[n], terms))
    for n in names:
        if (zero or (lambda n, t, terms: score_file(n, t, terms) == 0))(n, files[n], terms): continue
        c = cost(files[n]) if cost is not None else None
        if used + c > budget: continue
        chosen.append((n, c)); used += c
    return chosen, used

Result = namedtuple("Result", "chosen used")


def cost_by_true_division(files, terms, budget): return _greedy(files, terms, budget, cost=lambda t: max(1, len(t) / 4))


def cost_of_the_stripped_text(files, terms, budget): return _greedy(files, terms, budget, cost=lambda t: max(1, len(t.strip()) // 4))


def cost_of_the_name(files, terms, budget):
    chosen, used = [], 0
    for n in sorted(files, key=lambda n: -score_file(n, files[n], terms)):
        c = estimate_tokens(n)
        if score_file(n, files[n], terms) == 0 or used + c > budget: continue
        chosen.append((n, estimate_tokens(files[n]))); used += c
    return chosen, used


def files_in_their_own_order(files, terms, budget): return _greedy(files, terms, budget, order=lambda f, t: list(f))


def zero_judged_on_the_text_alone(files, terms, budget):
    return _greedy(files, terms, budget, zero=lambda n, t, terms: sum(t.lower().count(x.lower()) for x in terms) == 0)


def returns_pack_contexts_result(files, terms, budget): return pack_context(files, terms, budget)


def budget_lowered_by_one_per_file(files, terms, budget):
    chosen, used = [], 0
    for n in sorted(files, key=lambda n: -score_file(n, files[n], terms)):
        c = estimate_tokens(files[n])
        if score_file(n, files[n], terms) == 0 or used + c + 1 > budget: continue  # a separator token per file
        chosen.append((n, c)); used += c
    return chosen, used


def terms_joined_into_one_string(files, terms, budget):
    return _greedy(files, [" ".join(terms)], budget)


def packer_returning_a_namedtuple(files, terms, budget):
    c, u = _greedy(files, terms, budget); return Result(c, u)


def packer_with_a_while_loop(files, terms, budget):
    ranked = sorted(files.items(), key=lambda kv: score_file(*kv, terms), reverse=True)
    chosen, left, i = [], budget, 0
    while i < len(ranked):
        name, text = ranked[i]; i += 1
        if not score_file(name, text, terms): break  # sorted: every file after a 0 scores 0 too
        if estimate_tokens(text) <= left:
            chosen.append([name, estimate_tokens(text)]); left -= estimate_tokens(text)
    return chosen, budget - left


def packer_with_numpy_argsort(files, terms, budget):
    names = list(files)
    scores = numpy.array([score_file(n, files[n], terms) for n in names])
    chosen, used = [], 0
    for i in numpy.argsort(-scores, kind="stable"):
        c = estimate_tokens(files[names[i]])
        if scores[i] and used + c <= budget:
            chosen.append((names[i], c)); used += c
    return chosen, used


PACKER_WRONG_8 = [cost_by_true_division, cost_of_the_stripped_text, cost_of_the_name, files_in_their_own_order,
                  zero_judged_on_the_text_alone, returns_pack_contexts_result,
                  budget_lowered_by_one_per_file, terms_joined_into_one_string]
PACKER_RIGHT_8 = [packer_returning_a_namedtuple, packer_with_a_while_loop, packer_with_numpy_argsort]


@pytest.mark.parametrize("wrong", PACKER_WRONG_8, ids=lambda f: f.__name__)
def test_the_packer_checker_rejects_round_8(wrong):
    rejected(wrong, packer_cases())


@pytest.mark.parametrize("right", PACKER_RIGHT_8, ids=lambda f: f.__name__)
def test_the_packer_checker_accepts_round_8(right):
    accepted(right, packer_cases())


PREDICT_75_WRONG_8 = {
    "every_relevant_file_as_if_the_budget_were_ignored": ["shop/pricing.py", "tests/test_pricing.py", "shop/cart.py"],
    "windows_separators": ["tests\\test_pricing.py", "shop\\cart.py"],
    "split_without_strip": "tests/test_pricing.py, shop/cart.py".split(","),
    "a_dict_of_names_and_costs": {"tests/test_pricing.py": 46, "shop/cart.py": 27},
    "only_the_best_file": ["shop/pricing.py"],
    "an_iterator": iter(["tests/test_pricing.py", "shop/cart.py"]),
}


@pytest.mark.parametrize("wrong", PREDICT_75_WRONG_8)
def test_the_predict_75_checker_rejects_round_8(wrong):
    from ctxlib.course.checks.lesson1 import predict_75_cases
    rejected(PREDICT_75_WRONG_8[wrong], predict_75_cases())


@pytest.mark.parametrize("right", ["split_on_whitespace", "keys_of_the_chosen", "a_numpy_array", "a_keys_view"])
def test_the_predict_75_checker_accepts_round_8(right):
    from ctxlib.course.checks.lesson1 import predict_75_cases
    answer = {"split_on_whitespace": "tests/test_pricing.py shop/cart.py".split(),
              "keys_of_the_chosen": list(dict(pack_context(LESSON1_FILES, ["discount", "pricing"], 75).chosen)),
              "a_numpy_array": numpy.array(["tests/test_pricing.py", "shop/cart.py"]),  # was refused: a ndarray
              # was refused too (round s41): a dict's view holds the names in order, as the list and the array do
              "a_keys_view": dict([("tests/test_pricing.py", 46), ("shop/cart.py", 27)]).keys()}[right]
    accepted(answer, predict_75_cases())


THREE = ("shop/pricing.py", "tests/test_pricing.py", "shop/cart.py")
EXACT_BUDGET_WRONG_8 = {
    "names_counted_with_the_texts": sum(count_tokens(n + "\n" + LESSON1_FILES[n]) for n in THREE),
    "with_units": "108 tokens",
    "a_list_of_one": [108],
    "not_a_number": float("nan"),
    "a_complex_number": complex(108, 0),
    "words": sum(len(LESSON1_FILES[n].split()) for n in THREE),
}


@pytest.mark.parametrize("wrong", EXACT_BUDGET_WRONG_8)
def test_the_exact_budget_checker_rejects_round_8(wrong):
    from ctxlib.course.checks.lesson1 import exact_budget_cases
    rejected(EXACT_BUDGET_WRONG_8[wrong], exact_budget_cases())


@pytest.mark.parametrize("right", [Fraction(216, 2), Decimal("108"), numpy.float32(108)], ids=["fraction", "decimal", "numpy"])
def test_the_exact_budget_checker_accepts_round_8(right):
    from ctxlib.course.checks.lesson1 import exact_budget_cases
    accepted(right, exact_budget_cases())


# === Round 9 (a hostile tester's): every occurrence counts, and a path may be a Path ===

def words_that_hold_the_term(name, text, terms):
    total = 0
    for t in terms:
        t = t.lower()
        total += sum(1 for word in text.lower().split() if t in word)  # one a word, however often it is in it
        total += 3 * name.lower().count(t)
    return total


def name_parts_that_hold_the_term(name, text, terms):
    return sum(text.lower().count(t.lower()) + 3 * sum(t.lower() in part for part in name.lower().split("/"))
               for t in terms)


@pytest.mark.parametrize("wrong", [words_that_hold_the_term, name_parts_that_hold_the_term], ids=lambda f: f.__name__)
def test_the_scorer_checker_rejects_round_9(wrong):
    rejected(wrong, scorer_cases())


def test_the_predict_75_checker_accepts_paths():
    from pathlib import Path

    from ctxlib.course.checks.lesson1 import predict_75_cases
    accepted([Path("tests/test_pricing.py"), Path("shop/cart.py")], predict_75_cases())


# === Round 10 (a hostile tester's, session 40): a pack one token over the budget ===

def one_token_over_the_budget(files, terms, budget):
    chosen, used = [], 0
    for name, text in sorted(files.items(), key=lambda kv: -score_file(kv[0], kv[1], terms)):
        cost = estimate_tokens(text)
        if score_file(name, text, terms) == 0 or used + cost - 1 > budget:  # off by one: passed all 20 checks
            continue
        chosen.append((name, cost)); used += cost
    return chosen, used


def room_counted_from_one(files, terms, budget):
    chosen, left = [], budget + 1  # "tokens left" counted from 1
    for name, text in sorted(files.items(), key=lambda kv: -score_file(kv[0], kv[1], terms)):
        cost = estimate_tokens(text)
        if score_file(name, text, terms) and cost <= left:
            chosen.append((name, cost)); left -= cost
    return chosen, budget + 1 - left


@pytest.mark.parametrize("wrong", [one_token_over_the_budget, room_counted_from_one], ids=lambda f: f.__name__)
def test_the_packer_checker_rejects_a_pack_one_token_over(wrong):
    rejected(wrong, packer_cases())
    from ctxlib.course.exercises import exercise

    result = exercise("01_window_as_budget", "own_packer").run(wrong)
    assert result.outcome == "failed" and "a budget one token short of all three" in result.message


def test_the_checkers_read_lesson_1_as_the_chapter_gives_it_not_as_a_notebook_cell_left_it():
    """A first packer that pops what it packs, tried on the lesson's own dict in a scratch cell, changed
    LESSON1_FILES for the session: the right smallest budget (108) was then "too high", and a packer one token over
    the budget passed all the checks (the boundary cases had lost their best file)."""
    from ctxlib.course.checks.lesson1 import exact_budget_cases, predict_75_cases
    from ctxlib.course.examples import LESSON1_QUERY

    kept = dict(LESSON1_FILES)
    try:
        for name, _ in pack_context(LESSON1_FILES, LESSON1_QUERY, 100).chosen:
            LESSON1_FILES.pop(name)  # what the learner's first packer did to the caller's files
        LESSON1_QUERY.append("history")
        accepted(108, exact_budget_cases())
        accepted(["tests/test_pricing.py", "shop/cart.py"], predict_75_cases())
        rejected(one_token_over_the_budget, packer_cases())
        accepted(scorer_with_casefold, scorer_cases())
    finally:
        LESSON1_FILES.clear()
        LESSON1_FILES.update(kept)
        LESSON1_QUERY.remove("history")


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_wrong_name_in_the_prediction_is_not_measured_against_the_right_one(lang):
    """"item 0 (counting from 0): 15 characters, fewer than the right answer has" left one of Lesson 1's four names
    (tests/test_pricing.py, the only one longer than 15): one wrong guess gave the prediction away."""
    from ctxlib.course.checks.lesson1 import predict_75_cases
    from ctxlib.course.checks.lesson2 import keep_tail_cases
    message = rejected(["shop/pricing.py", "shop/cart.py"], predict_75_cases(), lang).message
    assert message.endswith({"en": "item 0 (counting from 0) differs.", "hi": "item 0 (0 से गिनकर) अलग है।"}[lang]), message
    # A function's result is still measured: its cases vary, and the length says what its code did.
    assert "characters, fewer" in rejected(lambda text, keep: text[-keep * 2:] if keep else "", keep_tail_cases()).message
