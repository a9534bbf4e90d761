"""Lesson 1's checkers, "The context window as a budget": the scorer, the packer, two predictions.

Expected values come from ``ctxlib.scoring.score_file`` and ``ctxlib.packing.pack_context``.
"""
from __future__ import annotations

from ctxlib.i18n import N_
from ctxlib.packing import pack_context
from ctxlib.scoring import score_file
from ctxlib.tokens import token_counter

from ..examples import lesson1_example
from ..exercises import Case, describe


def _about_file(name: str, terms: list) -> dict:
    return describe(N_("for file {name} with terms {terms}"), name=repr(name), terms=repr(terms))


def scorer_cases() -> list[Case]:
    """Lesson 1, "own_scorer": ``my_score(name, text, terms)`` against ``ctxlib.scoring.score_file``.

    Lesson 1's four files for its query, then one slip each: case in the name and the text, a term
    twice in the name, a term inside longer words with the query in capitals, no match, a term named
    twice in the query, a term that overlaps itself ("ana" in "banana"), a Hindi name and text, a
    name in capitals, a term in the extension (the whole name counts), a term holding a dot (a plain
    substring: a regular expression made from it unescaped also matches "vat_py", and the name's parts
    split at "/", "." and "_" never hold it), a term only on later lines of a text (every line is counted), a term
    twice in one whitespace-separated word and in one part of the name (every occurrence counts, not words that hold it).
    """
    files, query = lesson1_example()  # not LESSON1_FILES: a notebook cell may have changed it
    cases = [Case((name, text, list(query)), score_file(name, text, query), _about_file(name, list(query)))
             for name, text in files.items()]
    hidden = [
        (("Shop/Pricing.py", "PRICING rules, pricing table", ["pricing"]),
         describe(N_("for a name and a text in mixed case"))),
        (("pricing/pricing.py", "", ["pricing"]), describe(N_("for a term twice in the name and an empty text"))),
        (("notes.txt", "apply_discount() and discounted()", ["Discount"]),
         describe(N_("for a term inside longer words, the query in capitals"))),
        (("shop/cart.py", files["shop/cart.py"], ["tax", "refund"]),
         describe(N_("for terms that occur nowhere in the file"))),
        (("shop/vat.py", "VAT = 0.2  # vat rate", ["vat", "vat"]), describe(N_("for a query that names one term twice"))),
        (("docs/fruit.md", "banana bandana", ["ana"]), describe(N_("for a term that overlaps itself in the text"))),
        (("docs/बजट.md", "बजट: कुल बजट 500", ["बजट"]), describe(N_("for a file name and text in Hindi"))),
        (("src/Billing/TAX.py", "tax = Tax()", ["TAX"]), describe(N_("for a name that holds the term only in capitals"))),
        (("config/settings.json", '{"json_indent": 2}', ["json"]), describe(N_("for a term in the file's extension"))),
        (("shop/vat.py", "import vat  # vat.py replaced vat_py.txt", ["vat.py"]),
         describe(N_("for a term with a dot in it, as a file name has"))),
        (("shop/tax.py", "RATE = 0.2\n\n\ndef tax(amount):\n    return amount * RATE  # tax\n", ["TAX"]),
         describe(N_("for a term only on later lines of the text"))),
        (("shop/tax_taxes.py", "total=apply_tax(price,tax)", ["tax"]),
         describe(N_("for a term twice in one word of the text and in one part of the name"))),
    ]
    return cases + [Case(args, score_file(*args), about) for args, about in hidden]


def predict_75_cases() -> list[Case]:
    """Lesson 1, "predict_75": the learner's prediction of the files ``pack_context`` keeps at 75 tokens.

    One value case: the names, in packing order, of ``pack_context(LESSON1_FILES, LESSON1_QUERY, 75)``
    (rough counts). With 75 the best file (77 tokens) does not fit, and the next two do.
    """
    chosen = [name for name, _ in pack_context(*lesson1_example(), 75).chosen]
    return [Case(None, chosen, describe(N_("for the files kept at a budget of 75 tokens, in packing order")))]


# Files for the packer's extra cases: ties in score and not in cost (kept in the files' own order, the dearer or the
# cheaper first), a file with no text (it still costs 1 token), Hindi text (4 characters per token, not 4 bytes),
# and matches that only score_file's own rule ranks right (a match in a folder's name, in capitals, the name's x3).
_TIES = {"shop/tax_b.py": "tax = 1" * 8, "shop/tax_a.py": "tax=2" * 8, "shop/tax.py": "tax tax " * 10,
         "shop/other.py": "other " * 50}
_CHEAP_TIES = {"shop/vat_tax.py": "tax=2" * 8, "shop/tax_rules.py": "tax = 1" * 8}
_NAMED = {"tax/rates.py": "RATES = {}\n", "docs/notes.md": "tax tax tax\n", "shop/tax.py": "RATE = 0.2  # tax\n",
          "shop/Tax_Tables.py": "TAX = {'DE': 0.19, 'FR': 0.2}\n"}
_EMPTY = {"docs/readme.md": "tax " * 30, "shop/tax.py": "", "shop/tax_rates.py": "tax"}
_HINDI = {"docs/कर.md": "कर की दर: " * 40, "docs/tax_hi.md": "tax: कर " * 60, "shop/tax.py": "tax = 0.2\n" * 9}
# The best file (63 tokens) leaves 37 of 100, where neither of the next two fits; together they would fill 97. A packer
# that fills the budget as full as it can, rather than taking files best first, packs those two.
_ROOM = {"shop/tax.py": "def tax(amount):\n    return round(amount * TAX_RATE, 2)  # tax\n" * 4,
         "shop/invoice.py": ('def invoice_total(lines):\n    """Sum of the lines, before tax."""\n'
                             "    return sum(line.total for line in lines)\n") * 2,
         "docs/tax_rates.md": "Rates by country, reviewed every quarter by finance. tax\n" * 3}


def packer_cases() -> list[Case]:
    """Lesson 1, "own_packer": ``my_pack(files, terms, budget)`` against ``ctxlib.packing.pack_context``.

    Expected values are ``(packed.chosen, packed.used)`` with the rough rule: Lesson 1's files at the budgets
    the lesson uses (300, 120, 100, 75) and one so small that nothing fits; then budgets that a file fills
    exactly (150 = 77 + 46 + 27, 77) and one token short of them (149, 76: a pack one token over passed), a query that leaves files scoring 0 that would fit, one file that is the
    only match and one that matches but never fits, files tied in score (the dearer first, then the cheaper
    first), a file with no text, Hindi text, matches in a folder's name and in capitals (ranked by score_file,
    not by a count of the text alone), a best file that leaves room only two smaller files would fill together
    (greedy by score, not the fullest fit), a query in capitals (the caller's terms are not lower-cased in
    place), and no files at all.
    """
    lesson_files, lesson_query = lesson1_example()  # not LESSON1_FILES: a notebook cell may have changed it
    calls = [(lesson_files, list(lesson_query), budget, None) for budget in (300, 120, 100, 75, 10)]
    calls += [(lesson_files, list(lesson_query), 150, N_("for Lesson 1's files and a budget they fill exactly")),
              (lesson_files, list(lesson_query), 77, N_("for Lesson 1's files and a budget the best file fills exactly")),
              (lesson_files, list(lesson_query), 149, N_("for Lesson 1's files and a budget one token short of all three")),
              (lesson_files, list(lesson_query), 76, N_("for Lesson 1's files and a budget one token short of the best file")),
              (lesson_files, ["cart"], 300, None),
              (lesson_files, ["cart"], 5_000, N_("for Lesson 1's files, a budget that fits every file, and a query most files do not match")),
              (lesson_files, ["history"], 1_000, None), (lesson_files, ["history"], 2_000, None),
              (_TIES, ["tax"], 1_000, N_("for files tied in score")),
              (_TIES, ["tax"], 40, N_("for files tied in score and a budget that fits only some of them")),
              (_CHEAP_TIES, ["tax"], 1_000, N_("for files tied in score with the cheaper one first")),
              (_NAMED, ["tax"], 1_000, N_("for files that match the query in their names, in folders and in capitals")),
              (_EMPTY, ["tax"], 9, N_("for a file with no text and a small budget")),
              (_HINDI, ["tax", "कर"], 300, N_("for files in Hindi")),
              (_ROOM, ["tax"], 100, N_("for a best file that leaves room no other file fits in")),
              (lesson_files, ["Discount", "PRICING"], 150, N_("for Lesson 1's files and a query in capitals")),
              ({}, ["tax"], 100, N_("for no files at all"))]
    cases = []
    for files, terms, budget, about in calls:
        packed = pack_context(files, terms, budget)
        about = (describe(about) if about else
                 describe(N_("for Lesson 1's files, terms {terms}, budget {budget}"), terms=repr(terms), budget=f"{budget:,}"))
        cases.append(Case((dict(files), terms, budget), (list(packed.chosen), packed.used), about))
    return cases


def exact_budget_cases() -> list[Case]:
    """Lesson 1, "exact_budget": the smallest budget, in exact ``o200k_base`` tokens, that keeps all
    three relevant files of Lesson 1's example (found by trying every budget from 1 up with ``pack_context``)."""
    count = token_counter("o200k_base")
    lesson_files, lesson_query = lesson1_example()  # not LESSON1_FILES: a notebook cell may have changed it
    relevant = sum(1 for name, text in lesson_files.items() if pack_context({name: text}, lesson_query, 10**6).chosen)
    budget = next(b for b in range(1, 10_000)
                  if len(pack_context(lesson_files, lesson_query, b, count=count).chosen) == relevant)
    return [Case(None, budget, describe(N_("for the smallest budget that keeps all three relevant files")))]
