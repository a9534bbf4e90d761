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

What ctxlib adds to the rule set is in ``secretrules.py`` (kinds of secret), ``secretformats.py``
(particular tools' formats), ``secretcalls.py`` (secrets handed to commands and calls), ``secretvalues.py`` (values the
others' filters drop), ``secretcontexts.py`` (contexts the others do not read), ``secretplaces.py`` (places administrators
and testers write secrets) and ``secretshapes.py`` (tokens known by their shape alone). Credential files of common tools are
a class, recognized twice: by name (``CREDENTIAL_FILE_PATTERNS``, gitignore syntax, plus gitleaks'
own path-only rules such as ``pkcs12-file``), so the reader never opens ``~/.kube/config``,
``.docker/config.json``, ``.pgpass`` or a service-account key under its usual name; and by content
(``EXTRA_RULES``, in gitleaks' format), so the same file under another name is refused by the
packer: a kubeconfig's ``client-key-data``, a registry's ``"auth"``, a ``.netrc`` or ``.pgpass``
line, an npm ``_authToken``, a ``password =`` in a client config, a password inside a URL or a
connection string, a password or a hex key assigned to a secret's name, a vendor-shaped token.
As gitleaks 8 does, long base64 runs are decoded once and scanned again (a base64 private key is a
private key); ``base64scan.py`` also joins a block wrapped over lines and knows a private key's
DER. ``tests/test_credentials.py`` and ``tests/test_credential_kinds.py`` hold corpora of such
files and of look-alikes that are not.

Speed (issue 25): the keywords are looked for all at once (``literalset``), and each rule's
expression is tried only where the literals every match holds allow (``regexscan``); the
findings are the same as one ``finditer`` per rule (``benchmarks/check_same_secrets.py``).

Go's RE2 syntax is compiled with ``re`` where it reads it the same, else rewritten for it
(``goregex``: scoped inline flags, ``\\z``, POSIX classes); the ``regex`` package only for what
neither reads. Not handled (as gitleaks' ``detect`` without git): allowlists by path or commit,
hex segments, decoding more than one level deep, ``requiredRules``, the ``gitleaks:allow`` comment.
"""
from __future__ import annotations

import functools
import math
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import base64scan, compiledre, goregex, ignore, regexscan
from .linecursor import LineCursor
from .literalset import LiteralSet, holds_any
from .secretcalls import CALL_RULES  # ctxlib's own rules for secrets handed to commands and calls
from .secretcontexts import CONTEXT_RULES  # ctxlib's own rules for contexts the others do not read
from .secretformats import FORMAT_RULES  # ctxlib's own rules for particular tools' formats
from .secretplaces import PLACE_RULES  # ctxlib's own rules for places administrators and testers write secrets
from .secretshapes import SHAPE_RULES  # ctxlib's own rules for tokens known by their shape alone, with no name near
from .secretrules import CREDENTIAL_FILE_PATTERNS, GITLEAKS_ALLOWLISTS, linear_gitleaks_regex, wider_end  # ctxlib's own
from .secretrules import EXTRA_RULES as _KIND_RULES
from .secretvalues import VALUE_RULES  # ctxlib's own rules for values the others' filters drop
EXTRA_RULES = _KIND_RULES + FORMAT_RULES + CALL_RULES + VALUE_RULES + CONTEXT_RULES + PLACE_RULES + SHAPE_RULES  # every rule ctxlib adds, in the order they run after gitleaks'

GITLEAKS_VERSION = "8.30.1"
RULES_FILE = "gitleaks.toml"
# sha256 of the rules parsed, as usercache.to_json writes them: only that cache is read (tests/test_credentials.py)
RULES_DIGEST = "e3edafaca0db7ad5ca56df59f80ada25d6d616ddb7b7d2bc2a78e89e4643e21e"


@dataclass(frozen=True)
class Finding:
    """One secret found: the gitleaks rule's id, the 1-based line it starts on and the line it ends on."""

    rule: str
    line: int
    last_line: int = field(default=0, compare=False)  # 0: the same as ``line``


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
    runs: tuple = ()  # ctxlib's key: (characters, least, tail[, lengths]) every match lies in a run of (regexscan.run_finditer)
    lines: str = ""  # ctxlib's key: what the line of every match holds (regexscan.line_finditer)


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text``'s character frequencies: ``"aaaa"`` -> 0.0, ``"abcd"`` -> 2.0."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


@functools.cache
def _compiled(source: str):
    # A scan compiles few of the ~280 expressions (the keyword prefilter); re compiles ~5x faster than
    # regex, and reads all of gitleaks 8.30.1's as Go does, 26 of them rewritten (goregex.to_python).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pattern in goregex.readings(source):
            try:
                return compiledre.compile_cached(pattern)  # re.compile's pattern, its codes kept across processes
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
def _config() -> dict:
    import hashlib

    from .usercache import cached

    # A cache whose rules are not the shipped ones (a rule dropped, an allowlist of ".*") is parsed afresh.
    raw = (Path(__file__).with_name("data") / RULES_FILE).read_bytes()
    return cached("gitleaks", hashlib.sha256(raw).hexdigest(), lambda: _parse_toml(raw), expected=RULES_DIGEST)


@functools.cache
def rules() -> tuple[tuple[_Rule, ...], tuple[_Allowlist, ...]]:
    """gitleaks' rules that have a regular expression (with ``GITLEAKS_ALLOWLISTS`` added), then ``EXTRA_RULES``, and
    the global allowlists."""
    config = _config()
    found = tuple(
        _Rule(r["id"], wider_end(r["id"], linear_gitleaks_regex(r["id"], r["regex"])), tuple(k.lower() for k in r.get("keywords", [])), float(r.get("entropy", 0.0)),
              int(r.get("secretGroup", 0)), r.get("path", ""),
              _allowlists(r.get("allowlists", []) + GITLEAKS_ALLOWLISTS.get(r["id"], [])), tuple(r.get("runs", ())), r.get("lines", ""))
        for r in config["rules"] + EXTRA_RULES if "regex" in r)
    return found, _allowlists([config.get("allowlist", {})])


@functools.cache
def _name_rules():
    # Compiled once (~8 ms). Names are matched against the file's name, paths (patterns with a "/")
    # against the whole path, and only when one of its folders is one those patterns name (".kube"):
    # about 1 microsecond a file. The last pattern that matches is named, as in a .gitignore.
    def alternation(patterns):
        return re.compile("|".join(f"(?P<p{i}>{ignore.glob_regex(p)})" for i, p in patterns))

    kept = [(i, p) for i, p in enumerate(CREDENTIAL_FILE_PATTERNS) if not p.startswith("!")][::-1]
    literal = {p: i for i, p in kept[::-1] if "/" not in p and not any(c in p for c in "*?[")}
    names = [(i, p) for i, p in kept if "/" not in p and p not in literal]
    paths = [(i, p) for i, p in kept if "/" in p]
    folders = {part for _, p in paths for part in p.split("/")[:-1] if part and "*" not in part and "?" not in part}
    templates = [(i, p[1:]) for i, p in enumerate(CREDENTIAL_FILE_PATTERNS) if p.startswith("!")]
    by_gitleaks = [(r["id"], _compiled(r["path"])) for r in _config()["rules"] if "regex" not in r and "path" in r]
    return literal, alternation(names), alternation(paths), frozenset(folders), alternation(templates), by_gitleaks


# What hides a credential file's usual name: a backup's or an editor's suffix ("id_rsa.bak", ".env~"), capitals
# (a case-insensitive file system opens ".ENV" as ".env"), and characters nobody sees at the end or inside
# (a trailing space or dot, which Windows drops; a zero-width space).
_BACKUP_SUFFIX = re.compile(r"(?:~|\.(?:bak|backup|old|orig|save|copy|tmp|prev))+$")
_UNSEEN = re.compile("[\u200b-\u200f\u2060\ufeff\u00ad]")


def _plain(path: str) -> str:
    folders, _, name = path.rpartition("/")
    name = _BACKUP_SUFFIX.sub("", _UNSEEN.sub("", name).rstrip(" .\t")) or name
    return ((folders + "/" if folders else "") + name).lower()


def credential_file_pattern(path: str) -> str | None:
    """The rule by which the file at ``path`` (POSIX, relative) is a credential file, or ``None``.

    ``credential_file_pattern("home/.kube/config")`` -> ``"**/.kube/config"``;
    ``credential_file_pattern("certs/bundle.p12")`` -> ``"*.p12"``; a name gitleaks' path-only rules
    know but the list does not gives ``"gitleaks: <rule>"``; ``credential_file_pattern("a/.env.example")``
    -> ``None`` (a template). A name that only hides a known one counts as that name:
    ``"keys/ID_RSA"``, ``"keys/id_rsa.bak"``, ``".env~"``, ``".env "`` (a backup's suffix, capitals, a trailing
    space or dot, a zero-width character). About 4 microseconds a file (8 when the name has capitals).
    """
    found = _pattern_of(path)
    if found is None:
        plain = _plain(path)
        if plain != path:
            found = _pattern_of(plain)
    return found


def _pattern_of(path: str) -> str | None:
    literal, by_name, by_path, folders, templates, by_gitleaks = _name_rules()
    name = path.rsplit("/", 1)[-1]
    if templates.match(name):  # ".env.example", "id_rsa.pub": a template or a public half
        return None
    found = [int(m.lastgroup[1:]) for m in (by_name.match(name), by_path.match(path)
                                            if folders.intersection(path.split("/")[:-1]) else None) if m]
    if name in literal:
        found.append(literal[name])
    if found:
        return CREDENTIAL_FILE_PATTERNS[max(found)]
    return next((f"gitleaks: {rule}" for rule, regex in by_gitleaks if regex.search(path)), None)


def _parse_toml(raw: bytes) -> dict:
    import tomllib  # late, and only once per user: the parsed rules are cached (~0.08 s saved a run)

    return tomllib.loads(raw.decode("utf-8"))


def _allowed(allowlists, secret: str, match: str, line: str, memo=None) -> bool:
    lowered, memo = secret.lower(), {} if memo is None else memo  # memo: {regex: found in line}, once a line
    for a in allowlists:
        target = {"match": match, "line": line}.get(a.target, secret)
        by_regex = bool(target) and any((memo[r] if r in memo else memo.setdefault(r, bool(_compiled(r).search(line))))
                                        if a.target == "line" else _compiled(r).search(target) for r in a.regexes)
        by_word = bool(secret) and holds_any(a.stopwords, lowered)
        if a.both:
            checks = ([by_regex] if a.regexes else []) + ([by_word] if a.stopwords else [])
            if checks and all(checks):
                return True
        elif by_regex or by_word:
            return True
    return False


def _matches(rule: _Rule, text: str, lowered: str, seen: dict):
    """The rule's matches in ``text``, as ``finditer`` gives them. A keyword-template rule is
    searched only in windows around its keywords (~50x faster than the whole text). Where
    ``regexscan`` proves literals every match holds, only the places they allow are tried, with
    the same matches. ``seen``: what is known of this text, shared by the rules of one scan:
    keyword windows, each keyword's places (key ``""``), ``case_safe`` (key ``None``)."""
    pattern = _compiled(rule.regex)
    if rule.runs:
        chars = rule.runs[0]  # the text marked once, its runs found once, for the rules whose runs are of the same characters
        marked = seen[chars] if chars in seen else seen.setdefault(chars, regexscan.run_marks(text, chars))
        key = (chars, "spans")
        spans = seen[key] if key in seen else seen.setdefault(key, regexscan.run_spans(marked, _shortest_runs()[chars]))
        yield from regexscan.run_finditer(pattern, text, *rule.runs[:3], marked, *(rule.runs[3:] or [None]), spans)  # [3]: lengths
        return
    if rule.lines:
        yield from regexscan.line_finditer(pattern, text, _compiled(rule.lines))
        return
    source = pattern.pattern if isinstance(pattern, re.Pattern) else None  # as re reads it (goregex)
    if None not in seen:
        seen[None] = regexscan.case_safe(text, lowered)
    # Windows come from the lowered text: only when it holds every place a keyword matches (case_safe: no ſ, ı),
    # and only for a rule whose every match has a keyword right before its operator (windows_hold).
    windowed = rule.regex.startswith(regexscan.TEMPLATE_PREFIX) and rule.keywords and seen[None] \
        and regexscan.windows_hold(rule.regex, rule.keywords)
    spans = _windows(rule, text, lowered, seen) if windowed else [(0, len(text))]
    parts = regexscan.template_parts(source) if source else None
    literals = parts[1] if parts else regexscan.required_literals(source) if source else None
    if not spans or not literals or not (seen[None] or not any(icase for _, icase, _, _ in literals)):
        for start, end in spans:
            yield from pattern.finditer(text, start, end)
        return
    index = (seen[""], _keywords().literals, seen.setdefault(("looked",), {}))  # [2]: other literals' places
    literals = regexscan.possible(literals, index)
    if parts:  # the windows share one list of the places where the rest could start
        parts, starts = (parts[0], literals, parts[2]), regexscan.candidate_starts(
            text, lowered, literals, spans[0][0], spans[-1][1], index)
        for start, end in spans:
            yield from regexscan.template_finditer(pattern, parts, text, lowered, start, end, index, starts)
    else:
        for start, end in spans:
            yield from regexscan.anchored_finditer(pattern, text, lowered, literals, start, end, index)


@functools.cache
def _shortest_runs() -> dict[str, int]:
    """``{characters: the least run any rule searched by runs of them needs}``: their runs are found once a text."""
    least: dict[str, int] = {}
    for rule in rules()[0]:
        if rule.runs:
            least[rule.runs[0]] = min(rule.runs[1], least.get(rule.runs[0], rule.runs[1]))
    return least


def _windows(rule: _Rule, text: str, lowered: str, seen: dict) -> list:
    """The merged windows around the rule's keywords (``regexscan.keyword_windows``)."""
    windows = []
    for keyword in rule.keywords:
        if keyword not in seen:
            places = seen[""].get(keyword)
            seen[keyword] = regexscan.keyword_windows(keyword, text, lowered, places) if places else []
        windows += seen[keyword]
    merged: list[list[int]] = []
    for start, end in sorted(windows):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


KEYWORD_PLAN = Path(__file__).with_name("data") / "keyword_plan.json"  # the keywords' plan (tools/keyword_plan.py)


def keyword_list() -> list[str]:
    """Every rule's keywords, each once, sorted: what the prefilter looks for."""
    return sorted({k for rule in rules()[0] for k in rule.keywords if k})


@functools.cache
def _keywords() -> LiteralSet:
    # The plan shipped beside the rules is used when it was made for these keywords (~50 ms of planning saved a
    # process); tests/test_credentials.py holds it equal to literalset.plan_of's, so it cannot go stale unseen.
    words = keyword_list()
    try:
        import json

        stored = json.loads(KEYWORD_PLAN.read_text(encoding="utf-8"))
        plan = stored["plan"] if stored.get("literals") == words else None
    except (OSError, ValueError, KeyError, TypeError):
        plan = None
    return LiteralSet(words, plan)


@functools.cache
def _rules_of() -> tuple[dict, tuple]:
    """``({keyword: (number of each rule that has it, ...)}, (rules without keywords, ...))``."""
    by_keyword: dict[str, list] = {}
    for n, rule in enumerate(rules()[0]):
        for keyword in rule.keywords:
            by_keyword.setdefault(keyword, []).append(n)
    return {k: tuple(v) for k, v in by_keyword.items()}, tuple(n for n, r in enumerate(rules()[0]) if not r.keywords)


_ESCAPES = re.compile(r'\\[\\"/nrt]')
_UNESCAPED = {'\\"': '"', "\\\\": "\\", "\\/": "/", "\\n": " ", "\\r": " ", "\\t": " "}
ESCAPED_REACH = 512  # characters kept on each side of an escaped quote in a long line (a match spans far fewer)


def unescaped_lines(text: str) -> str:
    """``text`` with each line that holds an escaped quote (``\\"``) read as a JSON string's contents, the other
    lines empty: ``\\"`` is ``"``, ``\\\\`` is ``\\``, ``\\/`` is ``/``, and ``\\n``, ``\\r``, ``\\t`` are spaces, so a
    line stays one line and keeps its number. A notebook's cell ``"KEY = \\"hf_...\\"\\n"`` reads ``KEY = "hf_..." ``,
    as in a ``.py`` file: most of gitleaks' rules want a quote or a space after a token, never a backslash. Of a line
    longer than that (minified code), only ``ESCAPED_REACH`` characters each side of each escaped quote are kept,
    the parts a space apart: a 956 kB bundle with one escaped quote was scanned twice whole (3.5 s more)."""
    return "\n".join(_ESCAPES.sub(lambda m: _UNESCAPED[m.group()], _near_escapes(line)) if '\\"' in line else ""
                     for line in text.split("\n"))


def _near_escapes(line: str) -> str:
    if len(line) <= 4 * ESCAPED_REACH:
        return line
    spans: list[list[int]] = []
    at = line.find('\\"')
    while at >= 0:
        start, end = max(0, at - ESCAPED_REACH), at + 2 + ESCAPED_REACH
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
        at = line.find('\\"', at + 2)
    return " ".join(line[start:end] for start, end in spans)


def find_secrets(text: str, path: str = "", first_only: bool = False, decode: bool = True) -> list[Finding]:
    """Every secret gitleaks' rules find in ``text``, in rule order then position.

    Args:
        text: a file's contents.
        path: the file's name, for the few rules that hold only for some files (``*.tf``,
            ``*.yaml``); without it those rules are not applied.
        first_only: stop at the first finding (what the packer needs: one is enough to refuse).
        decode: also scan what each base64 run of 40 or more characters decodes to, when that
            is text (gitleaks' decoding, one level deep); a finding there spans the run's lines. And the
            lines holding an escaped quote, unescaped (``unescaped_lines``): a finding there is named
            ``"<rule> (escaped)"``.
    Returns:
        ``[Finding(rule, line, last_line), ...]``; ``[]`` when nothing is found. A line
        ``key = "sk-ant-api03-..."`` gives ``[Finding("anthropic-api-key", 1)]``; a private key
        from its BEGIN line to its END line gives both lines' numbers.
    """
    compiled, global_allow = rules()
    original, text = text, goregex.go_case(text)  # Go's case folding: same length, same offsets
    plain = text.lower()
    lowered = regexscan.fold(text, plain)  # same offsets too, whatever the letters
    found = []
    # Rules share keywords (548 keywords, 387 distinct): which of them the text holds is found
    # once, in one pass per anchor character (``literalset``); only their rules are visited.
    places = _keywords().find(lowered)
    seen: dict = {"": places}
    by_keyword, unkeyed = _rules_of()
    # The rules a keyword lets run, as gitleaks decides (in the plain lower case: "ſecret" holds no "secret");
    # the folded text's places only tell where those rules' matches can be.
    present = places if lowered is plain else _keywords().find(plain)
    run = set(unkeyed).union(*(by_keyword[k] for k in present))
    lines = LineCursor(text)  # a rule's matches come in order: lines are counted once a rule, not a match
    for rule in map(compiled.__getitem__, sorted(run)):
        if rule.path and not (path and _compiled(rule.path).search(path)):
            continue
        for m in _matches(rule, text, lowered, seen):
            match = original[m.start():m.end()].strip("\n")
            groups = m.groups() if text is original else tuple(
                None if a < 0 else original[a:b] for a, b in map(m.span, range(1, len(m.groups()) + 1)))
            if rule.secret_group and rule.secret_group <= len(groups):
                secret = groups[rule.secret_group - 1] or ""
            else:
                secret = next((g for g in groups if g), match)
            if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                continue
            first, line = lines.at(m.start(), m.start() + len(match), original)
            if _allowed(global_allow, secret, match, line) or _allowed(rule.allowlists, secret, match, line, lines.memo):
                continue
            found.append(Finding(rule.id, first, first + m.group().count("\n", 0, len(m.group().rstrip("\n")))))
            if first_only:
                return found
    if decode and '\\"' in text:  # a string inside a string: a notebook's cells, JSON holding code or a command
        seen_at = {(f.rule, f.line) for f in found}
        for hidden in find_secrets(unescaped_lines(original), path, first_only, decode=False):
            if (hidden.rule, hidden.line) not in seen_at:
                found.append(Finding(f"{hidden.rule} (escaped)", hidden.line, hidden.last_line))
                if first_only:
                    return found
    if decode:
        runs = regexscan.run_finditer(base64scan.BASE64_RUN, text, base64scan.BASE64_CHARS, 40, 2)
        for start, end, inner, rule in base64scan.hidden(text, runs):
            hidden = [Finding(rule, 0)] if rule else find_secrets(inner, path, first_only=True, decode=False)
            if hidden:
                first = lines.at(start, start, text)[0]
                found.append(Finding(f"{hidden[0].rule} (base64)", first, first + text.count("\n", start, end)))
                if first_only:
                    return found
    return found
