"""The seventh hostile round: inputs the earlier rounds did not try, one test (or a few) per failure found.

Each test fails on the code before its fix: a ``.gitignore`` class that starts with "]" (exponential
matching), a ``.gitignore`` line ``re`` refuses (a traceback) or warns about (Python's warning on the
user's terminal), a query of thousands of words for the term-count scorer (a scan of every
file per word), the MCP ``count`` tool given one path many times, and public functions that took a
negative, NaN or bool size without a word. None is timed: each asserts the behaviour or bounded work.
"""
import math
import warnings

import pytest

from ctxlib import bm25, ignore, ledger, removal, scoring, views
from ctxlib.reasons import Reason
from ctxlib.repo import read_repo
from ctxlib.transcript import Loop, simulate

# --- 1. A class that starts with "]" is one fixed-length piece between stars ---------------------

@pytest.mark.parametrize("klass", ["[]a]", "[!]a]", "[]]", "[!]]", "[]-a]", "[][]"])
def test_a_class_starting_with_a_bracket_leaves_one_star_that_can_backtrack(klass):
    # "*[]a]" 30 times then "c" kept 30 backtracking stars: a 200-character name took minutes.
    source = ignore.LinearPattern(("*" + klass) * 30 + "*c").regex.pattern
    assert source.count("[^/]*") - source.count("(?>[^/]*?") == 1
    spec = ignore.compile_patterns([("*" + klass) * 30 + "c"])
    assert spec.check_file("]a" * 100).include is None  # instant; before the fix, minutes


def test_classes_starting_with_a_bracket_match_what_pathspecs_own_patterns_match():
    import random

    import pathspec

    rng = random.Random(7)
    # Negated classes are left out: pathspec's "[^a]" matches "/", so "*[!a]*[!a]" ignores "b/b" (git does not),
    # and the linear rewrite, which takes a piece at its first place, does not always follow it there.
    pieces = ["*", "a", "]", "[]a]", "[]]", "[]-a]", "[][]", "?", "/", "**", "b"]
    checked = 0
    for _ in range(800):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 7)))
        try:
            theirs, ours = pathspec.GitIgnoreSpec.from_lines([line]), ignore.compile_patterns([line])
        except ValueError:
            continue
        for _ in range(10):
            name = "/".join(filter(None, "".join(rng.choice("ab]/") for _ in range(rng.randint(1, 10))).split("/")))
            assert theirs.check_file(name or "a").include == ours.check_file(name or "a").include, (line, name)
            checked += 1
    assert checked > 3000


# --- 2. A .gitignore line re refuses is left out with a note; one it warns about prints nothing --

@pytest.mark.parametrize("line", ["e[z-a]", "a[a--b]"])
def test_a_gitignore_line_re_refuses_is_left_out_and_noted(tmp_path, line):
    # re.error is no ValueError: the reader stopped with a traceback from inside the re module.
    (tmp_path / ".gitignore").write_text(f"skip.py\n{line}\n")
    (tmp_path / "skip.py").write_text("x = 1\n")
    (tmp_path / "keep.py").write_text("x = 2\n")
    found = read_repo(tmp_path)
    assert [f.path for f in found.files] == [".gitignore", "keep.py"]
    assert [(n.code, n.param("number"), n.param("line")) for n in found.notes] == [(Reason.BAD_PATTERN, 2, line)]


def test_an_exclude_pattern_re_refuses_is_named():
    with pytest.raises(ValueError, match=r"'e\[z-a\]': bad character range z-a"):
        ignore.compile_patterns(["ok.py", "e[z-a]"])


def test_a_gitignore_line_re_warns_about_prints_no_warning(tmp_path):
    (tmp_path / ".gitignore").write_text("[[:alpha:]]x\nb[a&&b]\nc[a||b]\n" + "".join(f"n{i}\n" for i in range(5000)))
    (tmp_path / "keep.py").write_text("x = 2\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a FutureWarning ("Possible nested set") would raise here
        found = read_repo(tmp_path)
        spec = ignore.compile_patterns(["[[:alpha:]]x"] * 5000)
        for _ in range(3):  # past ScreenedSpec's SCREEN_AFTER, so its screens are compiled too
            spec.check_file("keep.py")
    assert "keep.py" in [f.path for f in found.files]


# --- 3. The term-count scorer takes a bounded number of terms ------------------------------------

def test_the_term_count_scorer_refuses_thousands_of_terms_naming_their_number():
    # Each term was a scan of every file: 20,000 words made a pack of a small repository take 84 s. Lesson 1
    # prints score_file's source, so it stays the chapter's plain sum; the bound is on the terms, repeats too.
    with pytest.raises(ValueError, match=r"20,000 terms.*at most 256"):
        scoring.clean_terms([f"w{i}" for i in range(20_000)])
    with pytest.raises(ValueError, match=r"10,000 terms.*at most 256"):
        scoring.score_file("shop/vat.py", "vat", ["vat"] * 10_000)
    assert len(scoring.clean_terms([f"w{i % 3}" for i in range(scoring.MAX_TERMS)])) == 256
    text = "vat invoice vat"
    assert scoring.score_file("a.py", text, ["VAT", "vat", "invoice"]) == 2 + 2 + 1


def test_pack_with_the_terms_scorer_and_a_long_query_is_one_line(tmp_path):
    from ctxlib.fit import pack_files

    with pytest.raises(ValueError, match="5,000 terms"):
        pack_files({"a.py": "w1 = 1\n"}, " ".join(f"w{i}" for i in range(5_000)), 500, scorer="terms")


# --- 4. The MCP count tool reads a path named twice once, and counts a file once ------------------

def test_mcp_count_reads_each_path_once_and_totals_each_file_once(tmp_path):
    from ctxlib.mcp_server import MAX_COUNT_PATHS, ToolInputError, count_tool

    (tmp_path / "a.py").write_text("hello world\n")
    (tmp_path / "b.py").write_text("x = 1\n")
    roots = [tmp_path.resolve()]
    alone = count_tool(roots, ["."])
    twice = count_tool(roots, [".", ".", "a.py", "./a.py"])
    assert twice["total_tokens"] == alone["total_tokens"]  # was 2x the tree plus a.py twice more
    assert len(twice["folders"]) == 1 and [f["path"] for f in twice["files"]] == ["a.py", "b.py", "a.py"]
    with pytest.raises(ToolInputError, match=f"at most {MAX_COUNT_PATHS} .*got 100,000"):
        count_tool(roots, ["."] * 100_000)  # each was a read of the whole tree


# --- 5. Sizes that are not whole numbers are refused, not used -----------------------------------

def test_term_positions_of_an_empty_term_is_none():
    # It raised IndexError from inside the whole-part check.
    assert bm25.term_positions("vat\n", "") == [] and views.hit_lines("vat\n", ["", "vat"]) == [1]


@pytest.mark.parametrize("kwargs", [{"context": -3}, {"context": True}, {"context": 1.5}, {"max_ranges": -1},
                                    {"max_ranges": 0}])
def test_ranges_view_refuses_a_context_or_count_that_is_not_whole(kwargs):
    # context=-3 gave "⋮\n⋮\n", a view of no line; max_ranges=-1 dropped the last range.
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        views.ranges_view("a\nvat\nb\n" * 3, ["vat"], **kwargs)


@pytest.mark.parametrize("call", [lambda b: removal.cut_head(b, -5), lambda b: removal.cut_head(b, math.nan),
                                  lambda b: removal.keep_head_and_tail(b, -10, 50),
                                  lambda b: removal.keep_head_and_tail(b, 200, -150)])
def test_cuts_of_a_negative_or_nan_size_are_refused(call):
    with pytest.raises(ValueError, match="whole number of tokens"):
        call(removal.make_block("diagnostics", 100, "pytest"))


@pytest.mark.parametrize("passes", [True, 1.0])
def test_a_loop_passing_on_attempt_true_is_refused(passes):
    # True equals 1 and was run as attempt 1; 1.0 raised a TypeError from inside the run.
    with pytest.raises(ValueError, match="passes_on_attempt"):
        simulate(Loop(passes_on_attempt=passes))


@pytest.mark.parametrize("tokens", [math.nan, 1.5, -1, True])
def test_round_to_refuses_what_is_not_a_size(tokens):
    # NaN came back as NaN and 1.5 as 0.0.
    with pytest.raises(ValueError, match="tokens must be a whole number"):
        ledger.round_to(tokens)


def test_the_last_tokens_of_a_million_blanks_are_cut_not_refused():
    # tiktoken's encode gives up on the run ("Regex error while tokenizing"); count_tokens already split it itself.
    from ctxlib.tokens import count_tokens, encode_ids
    from ctxlib.transcript import last_tokens

    text = " " * 999_999 + "x"
    assert len(encode_ids(text)) == count_tokens(text) == 7_814
    tail = last_tokens(text, 3)
    assert tail.endswith("x") and not tail.strip(" x") and count_tokens(tail) <= 3
