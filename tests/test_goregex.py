"""Go's regular expressions rewritten for Python's re (ctxlib/goregex.py) match what Go matches.

The reference for Go's reading here is the ``regex`` package in version 1 mode (scoped inline
flags, POSIX classes), which ctxlib used for these rules before: every rewritten gitleaks rule
must give the same matches (spans and groups) on generated secrets in code, and on odd letters,
once ``go_case`` has taken out the two letters ``re`` folds onto ``i`` and Go does not.
"""
import os
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from ctxlib import credentials
from ctxlib.goregex import go_case, readings, to_python


def test_a_flag_group_holds_to_the_end_of_its_group():
    assert to_python(r"\bSG\.(?i)[a-z]{3}") == r"\bSG\.(?i:[a-z]{3})"
    assert to_python(r"x((?:a|b)(?i)c)d") == r"x((?:a|b)(?i:c))d"  # the group closes the scope
    assert to_python(r"a(?i)b|c") == r"a(?i:b)|(?i:c)"  # a later alternative of the group is inside it
    assert to_python(r"(x(?i)y|z)w") == r"(x(?i:y)|(?i:z))w"
    assert to_python(r"a(?i)b(?-i)c") == r"a(?i:b(?-i:c))"
    assert to_python(r"(?i)\bpw_(?i)[a-z]") == r"(?i)\bpw_(?i:[a-z])"  # leading global flags stay global


def test_end_of_text_and_posix_classes():
    assert to_python(r"[[:alnum:]]{14}\z") == r"[0-9A-Za-z]{14}\Z"
    assert to_python(r"[^[:space:]x]") == "[^\\t\\n\\v\\f\\r x]"
    assert to_python(r"[]a]") == r"[\]a]"  # a "]" first in a class is a literal in Go
    assert to_python(r"a[\w.-]+\.b(?:c|d)") == r"a[\w.-]+\.b(?:c|d)"  # nothing to rewrite: unchanged


@pytest.mark.parametrize("source", [r"\Qa.b\E", r"\pL+", r"a(?U)b", r"[[:nope:]]", r"(a", r"\x{41}", r"(\w)\1"])
def test_what_it_does_not_know_gives_none(source):
    assert to_python(source) is None


def test_readings_try_the_pattern_first_and_a_rewriting_only_when_it_differs():
    assert list(readings(r"ab")) == ["ab"]
    assert list(readings(r"a(?i)b")) == ["a(?i)b", "a(?i:b)"]
    assert list(readings(r"\Qa\E")) == [r"\Qa\E"]


def test_go_case_takes_out_the_letters_re_folds_onto_i_and_go_does_not():
    # Go folds along unicode.SimpleFold: the orbit of "i" is i, I; of "k" is k, K, the Kelvin sign;
    # of "s" is s, S, the long s. re under IGNORECASE also folds dotless ı and dotted İ onto "i".
    letters = "\u0131\u0130\u017f\u212a"
    assert [bool(re.fullmatch("(?i)[a-z]", c)) for c in letters] == [True, True, True, True]
    assert [bool(re.fullmatch("(?i)[a-z]", c)) for c in go_case(letters)] == [False, False, True, True]
    assert [bool(re.fullmatch("(?i)i", c)) for c in go_case(letters)] == [False, False, False, False]
    assert [bool(re.fullmatch(r"\w", c)) for c in go_case(letters)] == [True] * 4  # still word characters
    assert go_case("k\u0131d \u0130") == "k\u0138d \u018d" and len(go_case(letters)) == len(letters)
    assert go_case("plain ascii") == "plain ascii"


def test_a_secret_run_into_a_dotless_i_is_not_one_in_go():
    # authress-service-client-access-key: its last part is (?i)[a-z0-9+/_=-]{30,120}, then an end.
    secret = "sc_k8x2m.q7wz.acc_r4n9v2k7b1.Zq8Xw3Ty6Uo1Pa5Sd9Fg2Hj4Kl7Mn0Bv3Cx6"
    assert [f.rule for f in credentials.find_secrets(secret + "\n")] == ["authress-service-client-access-key"]
    assert [f.rule for f in credentials.find_secrets(secret + "\u017f\n")] == ["authress-service-client-access-key"]
    assert credentials.find_secrets(secret + "\u0131\n") == []  # Go stops at ı; no end follows
    assert credentials.find_secrets(secret + "\u0130\n") == []


def _go_rules():
    found = []
    for rule in credentials.rules()[0]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                re.compile(rule.regex)
                continue
            except (re.error, FutureWarning):
                found.append(rule)
    return found


GO_RULES = _go_rules()


def test_every_gitleaks_rule_is_compiled_by_re():
    assert len(GO_RULES) == 26  # gitleaks 8.30.1: Go's syntax that re reads otherwise or not at all
    compiled = [credentials._compiled(rule.regex) for rule in credentials.rules()[0]]
    assert all(isinstance(p, re.Pattern) for p in compiled)  # so the browser build runs them all too


regex = pytest.importorskip("regex")
_PRINTABLE = [chr(c) for c in range(32, 127)] + ["\t", "\n", "\r"]
ODD = ["K\u212aelvin", "\u0131\u017f\u0130", "stra\u00dfe", "\u00df" * 70, "\u212a" * 60, "\n", "\t", "\u00e9t\u00e9"]


@st.composite
def _texts(draw):
    rule = draw(st.sampled_from(GO_RULES))
    rewritten = re.compile(to_python(rule.regex))
    # Secrets are printable ASCII. re and regex read ``\w`` and ``\s`` apart on a few other characters
    # (re counts "²" a word character and \x1c-\x1f white space; Go reads both as ASCII only), as the
    # rules' other 209 expressions, compiled by re as they are, always did.
    secret = draw(st.from_regex(rewritten, fullmatch=True, alphabet=st.sampled_from(_PRINTABLE)))
    if draw(st.booleans()):
        secret = draw(st.sampled_from([str.upper, str.lower, str.swapcase]))(secret)
    pieces = [draw(st.sampled_from(ODD + ["key = '", "'\n", " ", "curl -H ", "x"])) for _ in range(draw(st.integers(0, 3)))]
    at = draw(st.integers(0, len(pieces)))
    return rule, "".join(pieces[:at]) + secret + "".join(pieces[at:])


EXAMPLES = int(os.environ.get("GOREGEX_EXAMPLES", "300"))  # more for a deeper search by hand


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(_texts())
def test_each_rewritten_rule_matches_what_go_syntax_matched(case):
    rule, text = case
    ours = re.compile(to_python(rule.regex))
    # Go folds case simply: one character for one. regex's V1 folds fully under (?i) ("ss" is one item, as "ß"), so
    # "[\w]{32,64}" took 62 zeros and "SS" as 64 and a 76-character token matched: (?-f) turns full folding off.
    theirs = regex.compile("(?-f)" + rule.regex, regex.V1)
    # Where Go's case folding and re's part (ı and İ: go_case), the scanner runs rules over go_case(text).
    text = go_case(text)
    try:  # the regex package's full case folding ("ß" is "ss") can backtrack for hours on a run of "ß"
        expected = [(m.span(), m.groups()) for m in theirs.finditer(text, timeout=5)]
    except TimeoutError:
        reject()  # the reference could not answer; re's own answer came at once
    assert [(m.span(), m.groups()) for m in ours.finditer(text)] == expected, rule.id


def test_a_long_s_is_an_s_for_the_keyword_rules_anywhere_in_the_text():
    # re (and Go) fold "ſ" onto "s", lower() keeps it: the keyword windows, found in the lowered
    # text, would miss "ſecret", so a text holding "ſ" is searched whole (CI's hypothesis test).
    text = ("def parse(headers):\n    return headers.get('key')\nKelvin \u017fecret blob = "
            "'a2V5ID0gIkEzLTAwMDAwMC0wMDAwMDAwMDAwMC0wMDAwMC0wMDAwMC0wMDAwMSIK'\n")
    assert [(f.rule, f.line) for f in credentials.find_secrets(text, "a.py")] == [("generic-api-key", 3)]
