"""Crafted queries, files and tool arguments that made ranking, counting or checking slow, crash or say too little.

Not timed: each asserts the answer, the shape of a pattern (no repeat that can back off into another), or counts
the work done (rank look-ups, paths joined). Before the fixes: a query of 20,000 backticks took 3.6 s to clean;
``from`` before 1 MiB of spaces in a file that names a top module hung the ranking (hours);
``'"' + '\\"' * 8,000`` in a hand-in took 1.4 s to check for depth; counting 4,000 characters of ``.-`` in Python
took 3.8 s (a one-line 50 kB file in a small repository: minutes); o200k_base's tiktoken raised "Regex error while
tokenizing" for 999,999 blanks in a row (``ctxlib count`` and ``pack`` stopped); 2,000 copies of an index.ts with
1,000 imports took 12.8 s to rank; an MCP budget of "²" or of 5,000 digits and a query of ``5`` gave errors that
named neither; a query of 80,000 capital letters took 43 s to clean (each capital scanned the rest of the run for a
small letter); a 150 kB ``.gitignore`` of 10,000 lines made reading 1,000 files take 5 s (40,000 lines: 18 s), every
pattern tried in Python for every name; 1 MB of ``sumo_`` took 14 s to scan for secrets (five gitleaks rules
start with two lazy prefixes, and the rest after the first was tried at every place), and 1 MB of ``key=`` on one
line 7.5 s (each keyword's line was looked for from the text's start and to its end).
"""
import random
import re
from re import _parser

import pytest

from counting import CountingRegex, count_searches
from ctxlib import credentials, fit, ignore, imports, ranking, regexscan, safefile, tokens


def _ops(pattern):
    return list(_parser.parse(pattern.pattern))


def test_a_run_of_backticks_in_a_query_is_entered_at_its_first_only():
    first, run = _ops(ranking._QUOTED)[:2]
    assert first[0] is _parser.ASSERT_NOT and run[0] is _parser.POSSESSIVE_REPEAT  # each start scanned the run
    old = re.compile(r"`+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:\(\))?`+")
    rng = random.Random(1)
    for _ in range(20_000):
        text = "".join(rng.choice("``a_.() b1") for _ in range(rng.randint(0, 20)))
        assert ranking._QUOTED.findall(text) == old.findall(text), text
    assert ranking.clean_query("`" * 20_000 + " see `Router` and ``app.on_event()``").identifiers == (
        "Router", "app.on_event", "on_event")


def test_a_from_import_line_takes_its_blanks_once():
    ops = _ops(imports._PY_FROM)
    assert ops[4][0] is _parser.POSSESSIVE_REPEAT  # "from" then its blanks, split at every point before
    old = re.compile(r"from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)")
    rng = random.Random(2)
    parts = ["from", "import", " ", "\t", ".", "a", "b.c", "(", ",", "\n", "x", "  "]
    for _ in range(20_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 12)))
        assert [(m.start(), m.group(1) or "", m.group(2)) for m in imports._PY_FROM.finditer(text)] == [
            (m.start(), m.group(1), m.group(2)) for m in old.finditer(text)], text
    assert imports.import_statements("from" + " " * 100_000 + "cart") == ((), ())
    assert imports.import_statements("from .. import a\nfrom  import b") == ((), ((2, "", ("a",)), (0, "", ("b",))))


def test_a_json_string_never_closed_runs_to_the_end():
    assert safefile.json_depth('"[[[') == 0  # each later quote started a string again, scanned to the end
    assert safefile.json_depth('[["]]') == 2 and safefile.json_depth('{"a": [1, {"b": "]"}]}') == 3
    assert safefile.json_depth('[["a\\') == 2 and safefile.json_depth('[' + '"\\"' * 1_000) == 1
    assert safefile.json_depth('["\\"[", [[]]]') == 3


class CountingRanks(dict):
    gets = 0

    def get(self, key, default=None):
        CountingRanks.gets += 1
        return dict.get(self, key, default)


@pytest.mark.parametrize("piece", [b".-" * 2_000, b"[" * 4_000, "\u0915\u094d".encode() * 700])
def test_a_long_piece_is_merged_with_a_few_lookups_a_byte(piece):
    ranks = CountingRanks(tokens.mergeable_ranks("o200k_base"))
    CountingRanks.gets = 0
    assert tokens._merge_count(ranks, piece) == tokens.count_tokens(piece.decode(), "o200k_base")
    assert CountingRanks.gets < 4 * len(piece)  # every pair looked up again after each merge: ~n * n / 2


def test_a_merge_agrees_with_tiktoken_on_short_random_pieces():
    rng = random.Random(5)
    alphabet = ["a", "b", " ", "[", "=", "-", "\u0915", "\u4e2d", "e", "t", "h", "\n", "0", "'s"]
    for encoding in ("o200k_base", "cl100k_base"):
        for _ in range(2_000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            assert tokens.bpe_count(text, encoding) == tokens.count_tokens(text, encoding), text


def test_a_million_blanks_are_counted_not_refused():
    assert tokens.count_tokens(" " * 999_999 + "x", "o200k_base") == 7_814  # was tiktoken's "Regex error"
    assert tokens.count_tokens("x = 1" + "\t" * 999_999, "o200k_base") == 62_504


@pytest.mark.parametrize("text", ["def f():\n" + " " * 5_000 + "return 1\n\t \t x", "a \udcff\u3000 b  'll\r\n\n\n 12345 é"])
def test_what_tiktoken_refuses_is_counted_as_tiktoken_counts(text, monkeypatch):
    for encoding in ("o200k_base", "cl100k_base"):
        expected = tokens.count_tokens(text, encoding)
        encoder = tokens.get_encoding(encoding)

        def refuse(*args, **kwargs):
            raise ValueError("Regex error while tokenizing: Error executing regex: Max stack size exceeded")

        monkeypatch.setattr(encoder, "encode", refuse)
        assert tokens.count_tokens(text, encoding) == expected
        monkeypatch.setattr(encoder, "_encode_single_piece", None, raising=False)
        assert tokens.count_tokens(text, encoding) == expected  # the merge in Python, where tiktoken has none
        monkeypatch.undo()


def test_copies_of_a_javascript_file_resolve_only_what_can_name_a_top_file(monkeypatch):
    body = "export const cart = 1;\n" + "".join(f'import x{i} from "./m{i}";\n' for i in range(100))
    files = {f"p{i}/index.ts": body for i in range(200)} | {"cart.ts": "export function cart() {}\n",
                                                           "a/b.ts": 'import {cart} from "../cart.js"; cart'}
    joined = []
    real = imports.posixpath.join
    monkeypatch.setattr(imports.posixpath, "join", lambda *a: joined.append(a) or real(*a))
    found = imports.neighbours(files, list(files), ["cart.ts"])
    assert found == {"a/b.ts": ["cart.ts"]}
    assert len(joined) < 400  # each copy's 100 specifiers were joined and tried 17 ways: 20,000 joins
    assert imports.js_targets("src/cart/index.ts") == {"src/cart/index.ts", "src/cart/index", "src/cart",
                                                       "src/cart/index.js"}


@pytest.mark.parametrize("budget, said", [("²", "got '²'"), ("9" * 5_000, "got a number of 5,000 digits"),
                                          (10 ** 40, "got a number of more than 30 digits"),
                                          ("0", "got 0"), (" 8000 ", None)])
def test_an_mcp_budget_is_refused_naming_the_budget(budget, said):
    mcp_server = pytest.importorskip("ctxlib.mcp_server")
    if said is None:
        assert mcp_server.check_budget_arg(budget) == 8000
        return
    with pytest.raises(mcp_server.ToolInputError, match="^budget must be") as caught:
        mcp_server.check_budget_arg(budget)
    assert said in str(caught.value) and len(str(caught.value)) < 120


@pytest.mark.parametrize("query", [5, None, b"vat", ["vat", 5]])
def test_a_query_that_is_not_text_is_named(query):
    with pytest.raises(TypeError, match=re.escape(f"the query must be text or a list of texts, got {query!r}")):
        fit.pack_files({"vat.py": "vat = 1\n"}, query, 100)
    assert fit.pack_files({"vat.py": "vat = 1\n"}, ("vat", "rate"), 100).chosen[0].path == "vat.py"


def test_tokens_at_most_counts_words_marks_and_line_ends():
    from ctxlib.views import tokens_at_most

    assert tokens_at_most("x = f(a, b)\n") == 9  # x = f ( a , b ) and the line end
    assert tokens_at_most("") == 0
    assert tokens_at_most("déjà_vu = 1") == 3  # a non-ASCII identifier is one word
    assert tokens_at_most('"a b c"') == 3  # a string's words count: an over-estimate, never under
    assert tokens_at_most("a\n" * 1000) == 2000


def test_a_file_too_dense_to_parse_cheaply_gets_ranges_not_signatures(monkeypatch):
    # 1 MiB of one-letter lines made ast.parse take ~9 s and 874 MB; it is not parsed now.
    from ctxlib import views

    parsed = []
    monkeypatch.setattr(views.ast, "parse", lambda text: parsed.append(len(text)))
    dense = "def f():\n    pass\n" + "a\n" * 500_000
    assert views.signatures_view(dense) is None and views.symbol_view(dense, "f") is None
    assert parsed == []  # refused before the parser, not by it
    assert views.signatures_view("def f():\n    pass\n" + "a\n" * 1_000) is None  # the stub parsed it, returned None
    assert len(parsed) == 1
    pack = fit.pack_files({"dense.py": dense + "vat = 1\n"}, "vat", 200)
    assert [(c.path, c.view) for c in pack.chosen] == [("dense.py", "ranges")]


def test_real_modules_stay_under_the_parse_limit():
    # The densest module of the standard library and site-packages measured here (sympy's test_spin.py) was
    # 152,462 by tokens_at_most; the limit leaves room above every ordinary module this test can find.
    import sysconfig
    from pathlib import Path

    from ctxlib.views import MAX_PARSE_TOKENS, tokens_at_most

    root = Path(sysconfig.get_paths()["stdlib"])
    densest = max(tokens_at_most(p.read_text("utf-8", "replace")) for p in root.glob("*.py"))
    assert 20_000 < densest < MAX_PARSE_TOKENS


def test_a_run_of_capitals_is_looked_at_once_for_an_identifier():
    def repeats(ops):
        for op, arg in ops:
            if op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT):
                yield arg[1]
            for sub in (arg[1] if op is _parser.BRANCH else ()):
                yield from repeats(sub)

    assert list(repeats(_ops(ranking._IDENT))) == [2]  # [A-Z]{2,} was entered at every capital of a run
    old = re.compile(r"_|[a-z][A-Z]|[A-Z]{2,}[a-z]|\.")
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice("AaBb_.1") for _ in range(rng.randint(0, 12)))
        assert bool(ranking._IDENT.search(text)) == bool(old.search(text)), text
    assert ranking.clean_query("A" * 80_000 + " HTTPServer").identifiers == ("HTTPServer",)


def test_a_gitignore_of_many_lines_tries_only_a_block_of_them_a_name():
    spec = ignore.compile_patterns([f"pat{i}_*.log" for i in range(10_000)] + ["*.tmp", "!keep.tmp"])
    count_searches(spec)
    assert [spec.check_file(name).include for name in ("a.py", "x/pat7_b.log", "c.tmp", "keep.tmp")] == [
        None, True, True, False]
    assert spec.check_file("x/pat7_b.log").index == 7
    assert CountingRegex.asked < 600  # a block or two a name (64 lines each); pathspec tried all 10,002 for each


def test_screened_patterns_decide_as_pathspec_does(monkeypatch):
    import pathspec

    monkeypatch.setattr(ignore, "SCREEN_BLOCK", 3)
    monkeypatch.setattr(ignore, "SCREEN_AFTER", 0)
    rng = random.Random(29)
    pieces = ["*", "a", "b", "?", "[ab]", "/", "**", "c", "!", "\\*", "a/", "b/"]
    checked = 0
    for _ in range(700):  # repeated lines (kept once) and re-included folders (decisive screens) included
        lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(1, 12))]
        lines += rng.sample(lines, rng.randint(0, len(lines)))
        try:
            theirs = pathspec.GitIgnoreSpec.from_lines(lines, ignore.LinearPattern)
            ours = ignore.compile_patterns(lines)
        except ValueError:
            continue
        for _ in range(15):
            name = "/".join(filter(None, "".join(rng.choice("ab/c*") for _ in range(rng.randint(1, 12))).split("/")))
            name = (name or "a") + rng.choice(["", "/"])
            want, got = theirs.check_file(name), ours.check_file(name)
            assert (got.include, got.index) == (want.include, want.index), (lines, name)
            checked += 1
    assert checked > 7_000


def test_a_rule_with_two_lazy_prefixes_is_tried_at_its_keywords_only():
    rule = next(r for r in credentials.rules()[0] if r.id == "sumologic-access-id")
    rest, literals, runs = regexscan.template_parts(rule.regex)
    assert literals == (("sumo", True, 0, 0), ("SUMO", False, 0, 0)) and len(runs) == 2
    text = "sumo_" * 2_000
    assert len(regexscan.candidate_starts(text, text.lower(), literals, 0, len(text))) == 2_000  # was all 10,000
    pattern = re.compile(rule.regex)
    for text in ("x" * 120 + "sumo = su0123456789ab\n", "a.b-" * 40 + "SUMO: 'su0123456789ab'", "_sumo=" * 30):
        assert [m.span() for m in regexscan.template_finditer(pattern, (rest, literals, runs), text, text.lower(), 0,
                                                               len(text))] == [m.span() for m in pattern.finditer(text)]


class Scanned(str):
    """A text that counts the characters ``find`` and ``rfind`` pass over."""

    chars = 0

    def find(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        at = str.find(self, sub, start, end)
        Scanned.chars += (end if at < 0 else at) - start
        return at

    def rfind(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        at = str.rfind(self, sub, start, end)
        Scanned.chars += end - (start if at < 0 else at)
        return at


@pytest.mark.parametrize("text", ["key=" * 20_000, ("a key = 1 and key: 2 " * 30 + "\n") * 40])
def test_keyword_windows_look_for_line_ends_once_a_line(text):
    def windows(text):  # as they were: each keyword's line searched for from the start and to the end
        found = []
        for at in range(len(text)):
            if text.startswith("key", at) and regexscan._OPERATOR_AFTER.match(text, at + 3):
                end = text.find("\n", at + regexscan._REACH_AFTER)
                found.append((max(text.rfind("\n", 0, at) + 1, at - regexscan._REACH_BEFORE),
                              len(text) if end < 0 else end + 1))
        return found

    Scanned.chars = 0
    assert regexscan.keyword_windows("key", Scanned(text), text.lower()) == windows(text)
    assert Scanned.chars < 3 * len(text)  # "key=" * 20,000: 1.6 billion


@pytest.mark.parametrize("call, said", [
    (lambda m, roots: m.rank_tool(roots, "vat", top=10 ** 5_000), "got a number of more than 30 digits"),
    (lambda m, roots: m.rank_tool(roots, ["v"] * 100_000), "got ['v', 'v'"),
    (lambda m, roots: m.pack_tool(roots, "vat", 100, include=[5] * 100_000), "got [5, 5"),
    (lambda m, roots: m.resolve_path(roots, "a" * 300), "File name too long"),
])
def test_an_mcp_argument_is_named_in_a_short_sentence(tmp_path, call, said):
    mcp_server = pytest.importorskip("ctxlib.mcp_server")
    (tmp_path / "vat.py").write_text("vat = 1\n")
    with pytest.raises(mcp_server.ToolInputError) as caught:  # a raw OSError, "Exceeds the limit (4300 digits)"
        call(mcp_server, [tmp_path.resolve()])
    assert said in str(caught.value) and len(str(caught.value)) < 400 + len(str(tmp_path))


@pytest.mark.parametrize("tool, arguments", [
    ("pack_tool", {"query": "plans", "budget": 500, "path": "sub"}),
    ("rank_tool", {"query": "plans", "path": "sub"}),
    ("count_tool", {"paths": ["sub"]}),
    ("count_tool", {"paths": ["sub/plans.py"]}),
])
def test_mcp_a_folder_swapped_for_a_link_after_the_check_is_not_read_through(tmp_path, monkeypatch, tool, arguments):
    """resolve_path checked the path by name (no link below the root), then the tool read it by name again,
    following links: a folder the repository's own process swaps for a link between the two led the read
    outside the roots. Found by the hostile review; the swap is made right after the check."""
    mcp_server = pytest.importorskip("ctxlib.mcp_server")
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "plans.py").write_text("inside = 'plans'\n")
    outside.mkdir()
    (outside / "plans.py").write_text("secret_plans = 'outside the root'\n")
    real = mcp_server.resolve_path

    def resolve_then_swap(roots, path):
        found = real(roots, path)
        (root / "sub" / "plans.py").unlink()
        (root / "sub").rmdir()
        (root / "sub").symlink_to(outside, target_is_directory=True)
        return found

    monkeypatch.setattr(mcp_server, "resolve_path", resolve_then_swap)
    roots = mcp_server.check_roots([root])
    with pytest.raises(mcp_server.ToolInputError, match="sub.*: is or passes through a symbolic link"):
        getattr(mcp_server, tool)(roots, **arguments)
