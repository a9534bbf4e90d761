"""The faster regular-expression search (ctxlib/regexscan.py) and keyword search (ctxlib/literalset.py).

Each helper is checked against what it replaces: ``anchored_finditer`` and ``template_finditer``
against ``finditer``, ``LiteralSet.find`` against ``startswith`` at every place, on hand-made cases and
on hypothesis-generated texts; ``required_literals`` on hand-computed answers, including the
patterns where it must give up.
"""
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxlib import literalread, regexscan
from ctxlib.credentials import _compiled, rules
from ctxlib.literalset import LiteralSet, _consistent, holds_any
from ctxlib.regexscan import (anchored_finditer, candidate_starts, case_safe, required_literals, template_finditer,
                              template_parts)


# --- required_literals, by hand ---------------------------------------------------------------

@pytest.mark.parametrize("source, expected", [
    (r"\bey[a-z]{3}", (("ey", False, 0, 0),)),  # \b is zero width
    (r"(?i)x{1,5}(?:key|pass)", (("key", True, 1, 5), ("pass", True, 1, 5))),  # every alternative has one
    (r"ab[0-9]{2,4}cd", (("ab", False, 0, 0),)),  # "cd" could sit at 4, 5 or 6: dearer
    (r"(?i:ab)CDEF", (("CDEF", False, 2, 2),)),  # a scoped flag; the longer literal wins
    (r"(?i)Secret_Key", (("secret_key", True, 0, 0),)),  # (?i) literals are given lower-cased
    (r"(?:xyz){2,3}q", (("xyz", False, 0, 0),)),  # the first repetition is certain
    (r"(?:xyz)?abcd", (("abcd", False, 0, 3),)),  # an optional part only widens the offset
    (r"(a)\1key", (("a", False, 0, 0),)),  # nothing is known after a back reference
    (r"(?i)\u00e9abc", (("abc", True, 1, 1),)),  # a non-ASCII (?i) literal is not used
    (r"\b(?:hvs\.|s\.)[a-z]{24}", (("hvs.", False, 0, 0), ("s.", False, 0, 0))),
    (r"[a-z]{1,20}://x", (("://x", False, 1, 20),)),
    (r"(?-i:[Aa]pi|API)_", (("api", True, 0, 0), ("API", False, 0, 0))),  # [Aa]: a case-blind "a"
    (r"\u03a3[Aa]bc", (("abc", True, 1, 1),)),  # ... never joined to a non-ASCII character
])
def test_required_literals_by_hand(source, expected):
    assert required_literals(source) == expected


@pytest.mark.parametrize("source", [
    r"[a-z]+key",  # an unbounded prefix: the literal could be anywhere
    r"\w*token",
    r"(?:key|\d{3})x{0,99}",  # an alternative without a literal, then one too far apart
    r"(?<=key=)[a-z]{8}",  # a literal only inside a lookbehind
    r"(?=secret)[a-z]{6}",  # ... or a lookahead
    r"[a-z]{0,80}key",  # a spread wider than 64 characters
    r"\d{3}-\d{4}",  # no literal but "-", after a spread... here at 3: allowed
    r"(",  # not a pattern
])
def test_required_literals_gives_up(source):
    found = required_literals(source)
    if source == r"\d{3}-\d{4}":
        assert found == (("-", False, 3, 3),)
    else:
        assert found is None


READ_RULES = [r for r in rules()[0] if isinstance(_compiled(r.regex), re.Pattern)]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(READ_RULES).flatmap(
    lambda r: st.tuples(st.just(r), st.from_regex(_compiled(r.regex), fullmatch=True))))
def test_every_match_of_a_rule_holds_a_required_literal_at_its_offset(case):
    # The guarantee itself, on gitleaks' rules (and on the rest of each template): a match
    # hypothesis builds from the rule's own expression holds one of the literals where the
    # analysis says, as it is (case-sensitive) or lower-cased (ignorecase).
    rule, text = case
    if not case_safe(text, text.lower()):
        return
    own = _compiled(rule.regex).pattern  # as re reads it: Go's syntax rewritten (goregex) for 26 rules
    for source in [own] + ([template_parts(own)[0].pattern] if template_parts(own) else []):
        literals, m = required_literals(source), re.compile(source).match(text)
        if literals is None or m is None:
            continue
        hay = {True: text.lower(), False: text}
        assert any(hay[icase].startswith(literal, d) and d + len(literal) <= m.end()
                   for literal, icase, lo, hi in literals for d in range(lo, hi + 1)), (rule.id, source, text)


def test_template_parts_keep_the_groups():
    for rule in READ_RULES:
        parts = template_parts(_compiled(rule.regex).pattern)
        if parts:
            assert parts[0].groups == _compiled(rule.regex).groups, rule.id


# --- case folding ---------------------------------------------------------------------------------

@pytest.mark.skipif(sys.maxunicode < 0x10FFFF, reason="narrow build")
def test_lowered_text_holds_every_place_re_folds_an_ascii_letter_onto():
    # For every ASCII character c and every code point x that (?i)c matches, x.lower() is c's
    # lower case, unless x is one of CASE_FOLD_EXCEPTIONS or lowers to more than one character.
    everything = "".join(map(chr, range(0x110000))).replace("\n", "")
    for c in map(chr, range(32, 127)):
        for m in re.finditer("(?i)" + re.escape(c), everything):
            x = m.group()
            if x.lower() != c.lower():
                assert x in regexscan.CASE_FOLD_EXCEPTIONS or len(x.lower()) != 1, (c, hex(ord(x)))


def test_case_safe():
    assert case_safe("AbC", "abc")
    assert case_safe("caf\u00e9", "caf\u00e9")
    assert not case_safe("\u0130x", "\u0130x".lower())  # "İ" lowers to two characters
    assert not case_safe("pa\u017fsword", "pa\u017fsword")  # long s: re folds it onto "s"
    for text in ("\u0130x PASSWORD", "pa\u017fsword", "\u0131d_key \u00c9T\u00c9", "K\u212a"):
        assert case_safe(text, regexscan.fold(text)) and len(regexscan.fold(text)) == len(text)
    assert regexscan.fold("\u0130D_\u017fECRET \u0131") == "id_secret i" and regexscan.fold("Caf\u00c9") == "caf\u00e9"


# --- anchored_finditer and template_finditer against finditer ------------------------------------

def spans(matches):
    return [(m.span(), m.groups()) for m in matches]


PATTERNS = [r"\bey[a-z]{3}", r"(?i)x{1,5}(?:key|pass)", r"ab[0-9]{2,4}cd", r"(?:xyz)?abcd", r"[a-z]{1,20}://x",
            r"\b(?:hvs\.|s\.)[a-z]{4}", r"(?i)\b(?:sk|pk)_(?:live|test)_[a-z0-9]{4}\b", r"aa(a)?", r"(?m)^key=(\w+)$"]
ALPHABET = st.sampled_from(["ey", "key", "KEY", "pass", "x", "ab", "cd", "12", "xyz", "://", "hvs.", "s.", "sk_",
                            "live_", "aa", "a", "b", "=", "\n", " ", "z", "\u017f", "_", "ABCD"])
texts = st.lists(ALPHABET, max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATTERNS), texts, st.integers(0, 10), st.integers(0, 10))
def test_anchored_finditer_is_finditer(source, text, cut_start, cut_end):
    pattern, literals, lowered = re.compile(source), required_literals(source), regexscan.fold(text)
    assert literals is not None and case_safe(text, lowered)  # folded: "ſ" too is found at its offset
    pos, endpos = min(cut_start, len(text)), max(min(cut_start, len(text)), len(text) - cut_end)
    assert spans(anchored_finditer(pattern, text, lowered, literals, pos, endpos)) == spans(
        pattern.finditer(text, pos, endpos))


TEMPLATE = (r"(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|key|secret|token)(?:[ \t\w.-]{0,20})[\s'" + '"'
            + r"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'" + '"' + r"\s=]{0,5}([\w.=-]{10,150})(?:[\x60'" + '"'
            + r"\s;]|\\[nr]|$)")
PIECES = st.sampled_from(["api", "Api", "API", "aPi", "key", "my_key", "TOKEN", "auth.", " = ", "=", ":", " : ",
                          "'", '"', "\n", " ", "abcdefghij", "0123456789", "x" * 30, "-", ".", ",", "=>", "\\n",
                          "secret", "access_token", "\u017f", "pass"])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join), st.integers(0, 40), st.integers(0, 40))
def test_template_finditer_is_finditer(text, cut_start, cut_end):
    pattern, lowered = re.compile(TEMPLATE), text.lower()
    parts = template_parts(TEMPLATE)
    assert parts is not None and parts[1]
    if not case_safe(text, lowered):
        return
    pos, endpos = min(cut_start, len(text)), max(min(cut_start, len(text)), len(text) - cut_end)
    assert spans(template_finditer(pattern, parts, text, lowered, pos, endpos)) == spans(
        pattern.finditer(text, pos, endpos))


PLAIN = (r"[\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:(?-i:[Oo]kta|OKTA))(?:[ \t\w.-]{0,20})[\s'" + '"' + r"]{0,3})"
         r"(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'" + '"' + r"\s=]{0,5}(00[\w=\-]{10})(?:[\x60'" + '"'
         + r"\s;]|\\[nr]|$)")
PLAIN_PIECES = st.sampled_from(["okta", "Okta", "OKTA", "oKTA", "_", "my.", "x" * 30, " = ", ":", "'", "\n", " ",
                                "00abcdefghij", "00", "-", "\u017f"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PLAIN_PIECES, max_size=25).map("".join))
def test_template_finditer_on_a_case_sensitive_prefix_is_finditer(text):
    # okta-access-token's form: [\w.-]{0,50}? then (?i:[\w.-]{0,50}?...), searched over the whole text
    pattern, lowered, parts = re.compile(PLAIN), text.lower(), template_parts(PLAIN)
    assert parts is not None and parts[1] == (("okta", True, 0, 0), ("OKTA", False, 0, 0))  # both prefixes read
    if case_safe(text, lowered):
        assert spans(template_finditer(pattern, parts, text, lowered, 0, len(text))) == spans(pattern.finditer(text))


def test_template_finditer_takes_the_nearest_start_and_the_lazy_prefix():
    pattern = re.compile(TEMPLATE)
    parts = template_parts(TEMPLATE)
    text = "a.b-c_d " + "x" * 60 + "_api_key = 'abcdefghijkl'\nfoo.token: 0123456789ab\n"
    found = spans(template_finditer(pattern, parts, text, text.lower(), 0, len(text)))
    assert found == spans(pattern.finditer(text)) and len(found) == 2


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATTERNS), texts)
def test_anchored_finditer_with_known_places_is_finditer(source, text):
    # The places LiteralSet found stand in for searching: (?i) literals' exactly, case-sensitive
    # ones' through their lower case (more places, never fewer).
    pattern, literals, lowered = re.compile(source), required_literals(source), text.lower()
    if not case_safe(text, lowered) and any(icase for _, icase, _, _ in literals):
        return
    keys = {lit.lower() for lit, _, _, _ in literals} | {"zz"}
    index = (LiteralSet(keys).find(lowered), keys)
    assert spans(anchored_finditer(pattern, text, lowered, literals, index=index)) == spans(pattern.finditer(text))


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join), st.sampled_from(["api", "key", "token", "auth.", "pass"]))
def test_keyword_windows_from_known_places(text, keyword):
    lowered = text.lower()
    places = LiteralSet([keyword]).find(lowered).get(keyword, [])
    assert regexscan.keyword_windows(keyword, text, lowered, places) == regexscan.keyword_windows(keyword, text, lowered)


def test_candidate_starts_by_hand():
    literals = (("key", True, 1, 3),)
    assert candidate_starts("a KEY b key", "a key b key", literals, 0, 11) == [0, 1, 5, 6, 7]
    assert candidate_starts("a KEY b key", "a key b key", literals, 3, 11) == [5, 6, 7]


# --- LiteralSet against startswith at every place -----------------------------------------------------------------------

def every_place(keywords, text):
    found = {k: [i for i in range(len(text)) if text.startswith(k, i)] for k in keywords}
    return {k: v for k, v in found.items() if v}


def test_literal_set_by_hand():
    keywords = ["ghp_", "key", "adafruit", "s.", "xoxb", "xoxb-", "b-", "a", "://", "$5$", "(?i)", "q~", "aa", "aaa"]
    found = LiteralSet(keywords)
    for text in ["", "x = 'ghp_abc'", "xoxb-1", "xoxb", "a b", "http://h", "$5$x", "(?i)", "q~q", "adafruitkey",
                 "ab-xoxb-", "s.", "abc" * 100 + "adafruit", "aaaaa", "key = 'ghp_x' # key"]:
        assert found.find(text) == every_place(keywords, text), text
    assert LiteralSet(["ghp_", "key"]).find("key = 'ghp_x' # key") == {"key": [0, 16], "ghp_": [7]}


def test_consistent_places():
    assert _consistent("xoxb", 1, "xoxb-", 1)  # one is the start of the other
    assert not _consistent("xoxa", 1, "xoxb", 1)
    assert _consistent("ab", 1, "b-", 0)  # "ab-" holds both, at the same "b"


KEYWORD_PIECES = st.text(alphabet="abkey_-.:/$", min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(KEYWORD_PIECES, min_size=1, max_size=25), st.lists(KEYWORD_PIECES, max_size=60).map("".join))
def test_literal_set_finds_every_place(keywords, text):
    assert LiteralSet(keywords).find(text) == every_place(keywords, text)


def test_literal_set_on_gitleaks_keywords():
    compiled, _ = rules()
    keywords = {k for r in compiled for k in r.keywords}
    found = LiteralSet(keywords)
    text = "x = 'ghp_1' # xoxe.xoxb- -----BEGIN s.x https://u:p@h key token " + "".join(sorted(keywords))[::7]
    assert found.find(text.lower()) == every_place(keywords, text.lower())


# --- run_finditer against finditer -------------------------------------------------------------------

BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}={0,2}")
BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
RUN_PIECES = st.sampled_from(["A" * 20, "b" * 19, "+", "/", "_", "-", "=", "==", "===", " ", "\n", "\u00e9", "9" * 41,
                              "x", "Zz0/", "Q-_"])


@settings(max_examples=400, deadline=None)
@given(st.lists(RUN_PIECES, max_size=30).map("".join))
def test_run_finditer_is_finditer(text):
    assert spans(regexscan.run_finditer(BASE64_RUN, text, BASE64_CHARS, 40, 2)) == spans(BASE64_RUN.finditer(text))


def test_run_finditer_by_hand():
    run = "A" * 45 + "-" + "B" * 44
    text = f"x = '{run}=='\ny = '{'C' * 39}'\n\u00e9 {'D' * 40}="
    assert spans(regexscan.run_finditer(BASE64_RUN, text, BASE64_CHARS, 40, 2)) == spans(BASE64_RUN.finditer(text))
    assert len(spans(BASE64_RUN.finditer(text))) == 3  # "A..A" (45), "-B..B==" by the second form, "D..D="


# --- holds_any and possible --------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abcde_", max_size=4), min_size=0, max_size=60).map(tuple),
       st.text(alphabet="abcde_x", max_size=40))
def test_holds_any_is_any_in(words, text):
    assert holds_any(words, text) == any(w in text for w in words)


def test_holds_any_by_hand():
    words = tuple(f"w{n:02d}x" for n in range(40)) + ("q",)
    assert holds_any(words, "aaw17xb") and holds_any(words, "zq") and not holds_any(words, "w1x w99x")
    assert not holds_any((), "anything") and holds_any(("",), "")


def test_possible_drops_literals_a_missing_keyword_rules_out():
    literals = (("ghp_", False, 0, 0), ("xoxb-", True, 0, 0), ("zz", False, 1, 1))
    places, indexed = {"ghp_": [3]}, frozenset({"ghp_", "xoxb", "key"})
    assert regexscan.possible(literals, (places, indexed)) == (("ghp_", False, 0, 0), ("zz", False, 1, 1))


# --- the credential rules that are searched by runs (credentials._matches) -----------------------

try:
    from re import _parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_parse as _sre_parse

RUN_RULES = [r for r in rules()[0] if r.runs]


def test_some_rules_are_searched_by_runs():
    assert {"prefixed-token", "discord-bot-token"} <= {r.id for r in RUN_RULES}


@pytest.mark.parametrize("rule", RUN_RULES, ids=lambda r: r.id)
def test_a_rules_least_run_is_no_longer_than_its_shortest_match(rule):
    # A least longer than the shortest match drops real secrets (discord-bot-token said 58; its
    # regex matches 55 characters: 5 groups of 4, ".", 6, ".", 27).
    shortest = _sre_parse.parse(_compiled(rule.regex).pattern).getwidth()[0]
    assert rule.runs[1] <= shortest, (rule.id, rule.runs[1], shortest)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_run_rules_find_what_finditer_finds(data):
    rule = data.draw(st.sampled_from(RUN_RULES))
    pattern = _compiled(rule.regex)
    secret = data.draw(st.from_regex(pattern, fullmatch=True))
    before = data.draw(st.sampled_from(["", " ", "x = '", "token: ", "\n", "a.b-"]))
    after = data.draw(st.sampled_from(["", " ", "'\n", ";", ".x", "\u00e9"]))
    text = before + secret + after
    assert spans(regexscan.run_finditer(pattern, text, *rule.runs[:3], None, *rule.runs[3:])) == spans(pattern.finditer(text))


# --- the rules' readings, shipped with them (tools/rule_literals.py) ---------------------------------------------------

def test_the_shipped_readings_are_this_pythons_readings_of_todays_rules():
    import json
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    try:
        import rule_literals
    finally:
        sys.path.pop(0)
    stored = json.loads(regexscan.KNOWN_READINGS.read_text("utf-8"))
    assert {"3.11", "3.12", "3.13"} <= set(stored["python"])  # the Pythons CI and the browser build run
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" in stored["python"], "run python3 tools/rule_literals.py here"
    assert stored["readings"] == rule_literals.readings(), "stale: run python3 tools/rule_literals.py"
    assert len(stored["readings"]) > 300 and sum(r is None for r in stored["readings"].values()) < 20
    # the file is what required_literals answers, and each answer is the reading made here
    known = regexscan.known_readings()
    assert known.keys() == stored["readings"].keys()
    for source, reading in known.items():
        assert required_literals(source) == reading == literalread._read_literals(source)


def test_readings_made_on_another_python_are_not_used(monkeypatch, tmp_path):
    import json

    other = tmp_path / "rule_literals.json"
    source = r"\bey[a-z]{3}"
    other.write_text(json.dumps({"python": ["2.7"], "readings": {source: [["zz", False, 0, 0]]}}), encoding="utf-8")
    monkeypatch.setattr(literalread, "KNOWN_READINGS", other)
    regexscan.known_readings.cache_clear()
    try:
        assert regexscan.known_readings() == {}
        assert literalread._read_literals(source) == (("ey", False, 0, 0),)  # read here, not the file's wrong "zz"
        other.write_text("{not json", encoding="utf-8")
        regexscan.known_readings.cache_clear()
        assert regexscan.known_readings() == {}
    finally:
        regexscan.known_readings.cache_clear()


# --- a line rule's probe, and literals looked for once a text (the tenth sweep's speed work) ------------------------

LINE_PIECES = st.sampled_from(["db", "*", ":", "5432", ":*:", "app", "user", "s3cr3t-Pw", "\n", " ", "\t", "echo ",
                               "'", '"', "10.0.0.1", "\\:", "$", "@", "x.y", "-", "99999", "123456"])


@settings(max_examples=400, deadline=None)
@given(st.lists(LINE_PIECES, max_size=40).map("".join))
def test_line_finditer_is_finditer(text):
    rule = next(r for r in rules()[0] if r.id == "pgpass-format")
    pattern = _compiled(rule.regex)
    found = spans(regexscan.line_finditer(pattern, text, _compiled(rule.lines)))
    assert found == spans(pattern.finditer(text))


def test_line_finditer_by_hand():
    rule = next(r for r in rules()[0] if r.id == "pgpass-format")
    pattern, probe = _compiled(rule.regex), _compiled(rule.lines)
    text = "x: 1\ndb:5432:app:user:Tr0ub4dor3\n1:2:3:4:5:6\n*:*:*:*:Hunter2pw\nend"
    assert spans(regexscan.line_finditer(pattern, text, probe)) == spans(pattern.finditer(text))
    assert len(spans(pattern.finditer(text))) == 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PATTERNS), min_size=1, max_size=4), texts)
def test_literals_looked_for_once_a_text_give_the_same_matches(sources, text):
    # The third item of index keeps a literal's places for the next rule: the matches stay finditer's.
    lowered, looked = text.lower(), {}
    if not case_safe(text, lowered):
        return
    for source in sources:
        pattern, literals = re.compile(source), required_literals(source)
        index = ({}, frozenset(), looked)
        assert spans(anchored_finditer(pattern, text, lowered, literals, index=index)) == spans(pattern.finditer(text))
