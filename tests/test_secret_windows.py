"""Keyword windows hold every match of the rules searched in them (regexscan.windows_hold).

The scanner searches a keyword-template rule only near its keywords. That holds when every match has
a keyword right before its operator. lob-api-key's keywords are its values' "live_" and "test_", so
its windows held none of its matches: "lob: live_<35 hex>" was never found (found by hypothesis,
comparing the scan before and after the case-folding work; the whole-text search found it).
"""
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxlib import credentials, regexscan

RULES = credentials.rules()[0]
TEMPLATE_RULES = [r for r in RULES if r.regex.startswith(regexscan.TEMPLATE_PREFIX) and r.keywords
                  and isinstance(credentials._compiled(r.regex), re.Pattern)]
RNG = random.Random(41)


def _fake(n: int, alphabet: str) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


HEX, UPPER = "0123456789abcdef", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _windowed(rule, text: str) -> list[tuple[int, int]]:
    lowered = regexscan.fold(text, text.lower())
    return [m.span() for m in credentials._matches(rule, text, lowered, {"": credentials._keywords().find(lowered)})]


@pytest.mark.parametrize("rule_id, holds", [
    ("generic-api-key", True), ("adafruit-api-key", True), ("etsy-access-token", True), ("linkedin-client-id", True),
    ("lob-api-key", False), ("lob-pub-api-key", False), ("typeform-api-token", False),  # keywords in the value
    ("new-relic-insert-key", False), ("new-relic-user-api-key", False), ("new-relic-browser-api-token", False),
    ("snyk-api-token", False), ("sonar-api-token", False),  # a name longer than its keyword before the operator
    ("mailchimp-api-key", False),  # "MailchimpSDK.initialize": "." is any character
    ("atlassian-api-token", False),  # a second form, ATATT3... alone, beside the template
])
def test_windows_are_used_only_where_they_hold_every_match(rule_id, holds):
    rule = next(r for r in RULES if r.id == rule_id)
    assert regexscan.windows_hold(rule.regex, rule.keywords) is holds


@pytest.mark.parametrize("rule_id, line", [
    ("lob-api-key", f"lob: live_{_fake(35, HEX)}\n"),
    ("lob-api-key", f'key = "lob=live_{_fake(35, HEX)}:"\n'),
    ("lob-pub-api-key", f"lob_publishable = test_pub_{_fake(31, HEX)}\n"),
    ("new-relic-insert-key", f'new-relic = "NRII-{_fake(32, ALNUM)}"\n'),
    ("new-relic-user-api-key", f"NEWRELIC: NRAK-{_fake(27, UPPER)}\n"),
    ("typeform-api-token", f"typeform=tfp_{_fake(59, ALNUM)}\n"),
    ("atlassian-api-token", f"ATATT3{_fake(186, ALNUM)}\n"),
    ("sonar-api-token", f"sonar_token{'x' * 15}_ab = squ_{_fake(40, HEX)}\n"),  # 20 name characters after "token"
])
def test_the_rules_whose_windows_missed_now_find_their_secrets(rule_id, line):
    rule = next(r for r in RULES if r.id == rule_id)
    text = "x = 1\n" + line
    expected = [m.span() for m in credentials._compiled(rule.regex).finditer(text)]
    assert expected and _windowed(rule, text) == expected
    assert rule_id in {f.rule for f in credentials.find_secrets(text, "settings.py")}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.data())
def test_every_template_rule_finds_in_its_windows_what_the_whole_text_search_finds(data):
    rule = data.draw(st.sampled_from(TEMPLATE_RULES))
    pattern = credentials._compiled(rule.regex)
    found = data.draw(st.from_regex(pattern, fullmatch=True).filter(lambda s: "\n" not in s))
    text = "x " + found + "\n"
    assert _windowed(rule, text) == [m.span() for m in pattern.finditer(text)], rule.id

