"""Secrets in text: gitleaks' maintained rule set, run in Python.

Lesson 3, "Reading a real repository". A packer must never copy a credential into a
model's context. Which texts hold one is decided by the rules of gitleaks, a widely used
secret scanner: ``ctxlib/data/gitleaks.toml`` is its default configuration, version
``GITLEAKS_VERSION``, unchanged (MIT licence, copyright Zachary Rice; see ``gitleaks.LICENSE``
beside it). Each of its ~220 rules names a key format (``anthropic-api-key``,
``gcp-api-key``, ``github-fine-grained-pat``, ``generic-api-key``...) and is applied the way
gitleaks applies it (``detect/detect.go``):

1. keywords: the rule runs only if one of its keywords is in the lower-cased text (the
   prefilter that makes a scan fast: most rules never run on a given file);
2. the rule's regular expression finds a match; the secret is the ``secretGroup``, else
   the first non-empty group, else the whole match;
3. a rule with ``entropy`` keeps only secrets whose Shannon entropy (bits per character)
   is above it, so ``password = "changeme"`` is not a finding;
4. the global and the rule's allowlists drop findings: a regex over the secret, the match
   or the line (``regexTarget``), or a stopword inside the secret.

Not handled (as gitleaks' ``detect`` without git): path-only rules (credential file names
are ``repo.credential_file_reason``'s job), allowlists by path or commit, decoding of
base64/hex segments, ``requiredRules`` and the ``gitleaks:allow`` comment. Go's RE2 syntax
is compiled with the standard ``re`` where it reads it the same, else with the ``regex``
package (version 1 behaviour: scoped inline flags, POSIX classes), which reads them all.
"""
from __future__ import annotations

import functools
import math
import re
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

GITLEAKS_VERSION = "8.30.1"
RULES_FILE = "gitleaks.toml"


@dataclass(frozen=True)
class Finding:
    """One secret found: the gitleaks rule's id, and the 1-based line it starts on."""

    rule: str
    line: int


# Rules ctxlib adds, in gitleaks' own format, for formats its rule set does not catch.
EXTRA_RULES = [
    {"id": "django-secret-key",  # Django's generated keys use !@#$%^&*(-_=+), which generic-api-key refuses
     "regex": r"""\bSECRET_KEY\s*[:=]\s*[rRbBuU]?["']([^"'\s]{20,})["']""",
     "keywords": ["secret_key"], "entropy": 3.5},
]


@dataclass(frozen=True)
class _Allowlist:
    target: str  # "secret", "match" or "line"
    regexes: tuple  # sources, compiled on first use
    stopwords: tuple
    both: bool  # condition = "AND": every given check must hold


@dataclass(frozen=True)
class _Rule:
    id: str
    regex: str
    keywords: tuple
    entropy: float
    secret_group: int
    path: str
    allowlists: tuple


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text``'s character frequencies: ``"aaaa"`` -> 0.0, ``"abcd"`` -> 2.0."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


@functools.cache
def _compiled(source: str):
    # The keyword prefilter means a scan compiles few of the ~220 expressions. The standard
    # library's re compiles ~5x faster than regex and reads 196 of them alike; the rest (Go's
    # scoped inline flags, POSIX classes, nested sets, which re would misread with a warning)
    # go to regex in version 1 mode.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return re.compile(source)
        except (re.error, FutureWarning):
            pass
    try:
        import regex
    except ImportError:  # the browser build (Pyodide): regex is compiled; such a rule never matches there
        return _NEVER
    return regex.compile(source, regex.V1)


_NEVER = re.compile(r"(?!)")


def _allowlists(entries) -> tuple:
    return tuple(_Allowlist(a.get("regexTarget", "secret"), tuple(a.get("regexes", [])),
                            tuple(w.lower() for w in a.get("stopwords", [])), a.get("condition", "OR") == "AND")
                 for a in entries if a.get("regexes") or a.get("stopwords"))


@functools.cache
def rules() -> tuple[tuple[_Rule, ...], tuple[_Allowlist, ...]]:
    """gitleaks' rules that have a regular expression, then ``EXTRA_RULES``, and the global allowlists."""
    import hashlib

    from .tokens import cached

    raw = (Path(__file__).with_name("data") / RULES_FILE).read_bytes()
    config = cached("gitleaks", hashlib.sha256(raw).hexdigest(), lambda: _parse_toml(raw))
    found = tuple(
        _Rule(r["id"], r["regex"], tuple(k.lower() for k in r.get("keywords", [])), float(r.get("entropy", 0.0)),
              int(r.get("secretGroup", 0)), r.get("path", ""), _allowlists(r.get("allowlists", [])))
        for r in config["rules"] + EXTRA_RULES if "regex" in r)
    return found, _allowlists([config.get("allowlist", {})])


def _parse_toml(raw: bytes) -> dict:
    import tomllib  # late, and only once per user: the parsed rules are cached (~0.08 s saved a run)

    return tomllib.loads(raw.decode("utf-8"))


def _allowed(allowlists, secret: str, match: str, line: str) -> bool:
    for a in allowlists:
        target = {"match": match, "line": line}.get(a.target, secret)
        by_regex = bool(target) and any(_compiled(r).search(target) for r in a.regexes)
        by_word = bool(secret) and any(w in secret.lower() for w in a.stopwords)
        if a.both:
            checks = ([by_regex] if a.regexes else []) + ([by_word] if a.stopwords else [])
            if checks and all(checks):
                return True
        elif by_regex or by_word:
            return True
    return False


# gitleaks' "keyword, then an assignment, then a value" template: a match starts at most 50
# characters before its keyword, on the keyword's line, and ends within ~200 after it.
_NEAR_KEYWORD = "(?i)[\\w.-]{0,50}?"
_REACH_BEFORE, _REACH_AFTER = 50, 260
# What every such rule needs right after its keyword: an assignment operator (a looser form
# of the template's own). A keyword without one cannot start a match, so its window is skipped.
_OPERATOR_AFTER = re.compile(r"""[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:|\|\||\?=|,)""")


def _matches(rule: _Rule, text: str, lowered: str):
    """The rule's matches in ``text``. A keyword-template rule is searched only in windows
    around its keywords' occurrences, which finds the same secrets ~50x faster than one search
    over the whole text (the template's lazy prefix is tried at every position)."""
    pattern = _compiled(rule.regex)
    if not rule.regex.startswith(_NEAR_KEYWORD) or not rule.keywords or len(lowered) != len(text):
        yield from pattern.finditer(text)
        return
    windows = []
    for keyword in rule.keywords:
        at = lowered.find(keyword)
        while at >= 0:
            if not _OPERATOR_AFTER.match(text, at + len(keyword)):
                at = lowered.find(keyword, at + 1)
                continue
            start = max(text.rfind("\n", 0, at) + 1, at - _REACH_BEFORE)
            end = text.find("\n", at + _REACH_AFTER)
            windows.append((start, len(text) if end < 0 else end + 1))
            at = lowered.find(keyword, at + 1)
    windows.sort()
    merged = []
    for start, end in windows:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in merged:
        yield from pattern.finditer(text, start, end)


def find_secrets(text: str, path: str = "", first_only: bool = False) -> list[Finding]:
    """Every secret gitleaks' rules find in ``text``, in rule order then position.

    Args:
        text: a file's contents.
        path: the file's name, for the few rules that hold only for some files (``*.tf``,
            ``*.yaml``); without it those rules are not applied.
        first_only: stop at the first finding (what the packer needs: one is enough to refuse).
    Returns:
        ``[Finding(rule, line), ...]``; ``[]`` when nothing is found. A line
        ``key = "sk-ant-api03-..."`` gives ``[Finding("anthropic-api-key", 1)]``.
    """
    compiled, global_allow = rules()
    lowered = text.lower()
    found = []
    for rule in compiled:
        if rule.keywords and not any(k in lowered for k in rule.keywords):
            continue
        if rule.path and not (path and _compiled(rule.path).search(path)):
            continue
        for m in _matches(rule, text, lowered):
            match = m.group().strip("\n")
            groups = m.groups()
            if rule.secret_group and rule.secret_group <= len(groups):
                secret = groups[rule.secret_group - 1] or ""
            else:
                secret = next((g for g in groups if g), match)
            if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                continue
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start() + len(match))
            line = text[start:end if end >= 0 else len(text)]
            if _allowed(global_allow, secret, match, line) or _allowed(rule.allowlists, secret, match, line):
                continue
            found.append(Finding(rule.id, text.count("\n", 0, m.start()) + 1))
            if first_only:
                return found
    return found
