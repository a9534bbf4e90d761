"""Check that the secret scanner's speed work changed no finding: old against new, text by text.

``old_find_secrets`` below is ``ctxlib.credentials.find_secrets`` as it was at commit 50982dc
(before issue 25's scanner work), kept here only, never in the package. It shares the rule set,
the compiled expressions and the base64 decoding with the package (26 of the expressions are now
Go's syntax rewritten for re, held to the regex package's matches by tests/test_goregex.py).
For every text file under the folders given (default: the running Python's standard library),
and for the corpus of ``tests/test_credentials.py``, both are called with ``first_only`` False
and True, with the file's path as ``ctxlib.repo.read_repo`` gives it; every difference is
printed and the exit status is 1. tests/test_secret_scan_same.py uses the same comparison on
hypothesis-generated texts.

    nice -n 10 .venv/bin/python benchmarks/check_same_secrets.py              # the standard library
    nice -n 10 .venv/bin/python benchmarks/check_same_secrets.py /some/tree /other/tree
"""
from __future__ import annotations

import argparse
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ctxlib import credentials  # noqa: E402
from ctxlib.credentials import Finding, _compiled, rules, shannon_entropy, unescaped_lines  # noqa: E402
from ctxlib import base64scan  # noqa: E402
from ctxlib import regexscan  # noqa: E402
from ctxlib.goregex import go_case  # noqa: E402

# --- the old implementation (50982dc) ------------------------------------------------------------
import re  # noqa: E402


def _allowed(allowlists, secret, match, line):
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


_NEAR_KEYWORD = "(?i)[\\w.-]{0,50}?"
_REACH_BEFORE, _REACH_AFTER = 50, 260
_OPERATOR_AFTER = re.compile(r"""[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:|\|\||\?=|,)""")


def _keyword_windows(keyword, text, lowered):
    windows = []
    at = lowered.find(keyword)
    while at >= 0:
        if _OPERATOR_AFTER.match(text, at + len(keyword)):
            start = max(text.rfind("\n", 0, at) + 1, at - _REACH_BEFORE)
            end = text.find("\n", at + _REACH_AFTER)
            windows.append((start, len(text) if end < 0 else end + 1))
        at = lowered.find(keyword, at + 1)
    return windows


def _matches(rule, text, lowered, seen=None):
    pattern = _compiled(rule.regex)
    # Three fixes made after the speed work are made here too, so that only the speed work is compared:
    # no keyword windows over a text with "ſ" or "ı" (re folds them onto ASCII, lower() does not),
    # nor for a rule whose keywords are not right before its operator (regexscan.windows_hold: lob-api-key's
    # are its values' "live_"), and the rules run over goregex.go_case(text) (Go's case folding), below.
    if not rule.regex.startswith(_NEAR_KEYWORD) or not rule.keywords or len(lowered) != len(text) \
            or any(c in text for c in regexscan.CASE_FOLD_EXCEPTIONS) \
            or not regexscan.windows_hold(rule.regex, rule.keywords):
        yield from pattern.finditer(text)
        return
    seen = {} if seen is None else seen
    windows = []
    for keyword in rule.keywords:
        if keyword not in seen:
            seen[keyword] = _keyword_windows(keyword, text, lowered)
        windows += seen[keyword]
    windows.sort()
    merged = []
    for start, end in windows:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in merged:
        yield from pattern.finditer(text, start, end)




def _holds(words, lowered, keyword):
    return keyword in (words if len(keyword.split()) == 1 and not keyword[0].isspace()
                       and not keyword[-1].isspace() else lowered)


def old_find_secrets(text, path="", first_only=False, decode=True):
    compiled, global_allow = rules()
    original, text = text, go_case(text)
    lowered = text.lower()
    found = []
    present = {}
    windows = {}
    words = " ".join(set(lowered.split()))
    for rule in compiled:
        if rule.path and not (path and _compiled(rule.path).search(path)):
            continue
        if rule.keywords and not any(present[k] if k in present else present.setdefault(k, _holds(words, lowered, k))
                                     for k in rule.keywords):
            continue
        for m in _matches(rule, text, lowered, windows):
            match = original[m.start():m.end()].strip("\n")
            groups = tuple(None if a < 0 else original[a:b] for a, b in map(m.span, range(1, len(m.groups()) + 1)))
            if rule.secret_group and rule.secret_group <= len(groups):
                secret = groups[rule.secret_group - 1] or ""
            else:
                secret = next((g for g in groups if g), match)
            if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                continue
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start() + len(match))
            line = original[start:end if end >= 0 else len(text)]
            if _allowed(global_allow, secret, match, line) or _allowed(rule.allowlists, secret, match, line):
                continue
            first = text.count("\n", 0, m.start()) + 1
            found.append(Finding(rule.id, first, first + m.group().count("\n", 0, len(m.group().rstrip("\n")))))
            if first_only:
                return found
    if decode and '\\"' in text:  # the lines holding an escaped quote, unescaped (a rule of the scan, not of its speed)
        seen_at = {(f.rule, f.line) for f in found}
        for hidden in old_find_secrets(unescaped_lines(original), path, first_only, decode=False):
            if (hidden.rule, hidden.line) not in seen_at:
                found.append(Finding(f"{hidden.rule} (escaped)", hidden.line, hidden.last_line))
                if first_only:
                    return found
    if decode:  # what base64 stands for: each run, then wrapped blocks and keys' DER (the package's base64scan)
        for start, end, inner, rule in base64scan.hidden(text, base64scan.BASE64_RUN.finditer(text)):
            hidden = [Finding(rule, 0)] if rule else old_find_secrets(inner, path, first_only=True, decode=False)
            if hidden:
                first = text.count("\n", 0, start) + 1
                found.append(Finding(f"{hidden[0].rule} (base64)", first, first + text.count("\n", start, end)))
                if first_only:
                    return found
    return found
# --- end of the old implementation ---------------------------------------------------------------


def full(findings) -> list[tuple]:
    """Findings with ``last_line`` too (``Finding``'s equality leaves it out)."""
    return [(f.rule, f.line, f.last_line) for f in findings]


def differences(text: str, path: str) -> list[str]:
    """Every way old and new disagree on ``text`` under ``path``: ``[]`` when they agree."""
    out = []
    for first_only in (False, True):
        old = full(old_find_secrets(text, path, first_only=first_only))
        new = full(credentials.find_secrets(text, path, first_only=first_only))
        if old != new:
            out.append(f"{path!r} first_only={first_only}: old {old} new {new}")
    return out


def corpus_texts() -> dict[str, str]:
    """The texts of ``tests/test_credentials.py`` and ``tests/test_credential_kinds.py``: true and false
    positives, credential files, look-alikes."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import test_credentials as t

    texts = {f"tp{i}.py": text for i, (text, _) in enumerate(t.TRUE_POSITIVES)}
    texts |= {f"fp{i}.py": text for i, text in enumerate(t.FALSE_POSITIVES)}
    texts |= dict(t.CREDENTIAL_CORPUS) | dict(t.LOOK_ALIKES)
    import test_credential_kinds as k  # the kinds of credential ctxlib's own rules catch, and their look-alikes

    texts |= {f"kind{i}/{path}": text for i, (_, path, text, _) in enumerate(k.NEW_KINDS)}
    texts |= {f"kind-look-alike/{path}": text for path, text in k.LOOK_ALIKES.items()}
    return texts


def tree_texts(root: str) -> dict[str, str]:
    """Every text file under ``root`` as ``ctxlib.repo.read_repo`` reads it (site-packages left out)."""
    from ctxlib.repo import read_repo

    return {f.path: f.text for f in read_repo(root, exclude=["site-packages/", "dist-packages/"]).files}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", default=[sysconfig.get_paths()["stdlib"]])
    args = parser.parse_args(argv)
    rules()
    problems, count, chars = [], 0, 0
    t0 = time.perf_counter()
    sources = [("corpus", corpus_texts())] + [(folder, tree_texts(folder)) for folder in args.folders]
    for name, texts in sources:
        for path, text in texts.items():
            found = differences(text, path)
            problems += found
            for line in found:
                print(f"{name}: {line}", flush=True)
            count += 1
            chars += len(text)
    print(f"{count} texts, {chars:,} characters, {len(problems)} differences, {time.perf_counter() - t0:.0f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
