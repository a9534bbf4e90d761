"""The secret rules' compiled codes kept across processes (ctxlib.compiledre): the same patterns as re.compile."""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from ctxlib import compiledre, credentials, goregex, regexscan

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(compiledre.TAG is None, reason="this Python has no re._compiler to mirror")


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder and an unloaded table; what the test compiled is not saved at exit."""
    monkeypatch.setenv("CTXLIB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiledre, "_table", None)
    monkeypatch.setattr(compiledre, "_added", {})
    return tmp_path


def _readings() -> list[str]:
    """The reading of each rule expression the scanner compiles with re (as credentials._compiled picks it)."""
    rules, allowlists = credentials.rules()
    sources = {rule.regex for rule in rules} | {r for a in allowlists for r in a.regexes}
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for source in sorted(sources):
            for reading in goregex.readings(source):
                try:
                    re.compile(reading)
                except (re.error, FutureWarning):
                    continue
                found.append(reading)
                break
    return found


def test_every_rule_from_the_cache_is_the_pattern_re_compiles(fresh):
    readings = _readings()
    assert len(readings) > 300  # gitleaks 8.30.1's rules and ctxlib's own
    first = [compiledre.compile_cached(r) for r in readings]  # compiled here, kept in the table
    assert compiledre._table.keys() == set(readings)
    compiledre.save()
    compiledre._table = None  # as a new process finds it: read from the file
    again = [compiledre.compile_cached(r) for r in readings]
    assert compiledre._added == {}  # nothing compiled afresh
    for reading, a, b in zip(readings, first, again):
        expected = re.compile(reading)
        # Pattern == compares the flags, the pattern and every code: the same program for the matcher.
        assert a == expected and b == expected and b.groupindex == expected.groupindex, reading


def test_a_template_rules_rest_and_the_keywords_plan_come_from_the_cache_too(fresh):
    credentials._keywords.cache_clear()
    try:
        plan = credentials._keywords()
    finally:
        credentials._keywords.cache_clear()
    assert {search.pattern for _, search, _ in plan.searches} <= compiledre._table.keys()
    regexscan.template_parts.cache_clear()
    try:
        parts = [regexscan.template_parts(reading) for reading in _readings()]
    finally:
        regexscan.template_parts.cache_clear()
    rests = [part[0].pattern for part in parts if part is not None]
    assert len(rests) > 5 and set(rests) <= compiledre._table.keys()


def test_a_damaged_entry_is_compiled_again_and_a_damaged_file_is_not_read(fresh):
    pattern = r"(?i)api[_-]?key\s*=\s*(\w{20,})"
    compiledre.compile_cached(pattern)
    flags, codes, groups, groupindex, indexgroup = compiledre._table[pattern]
    # an unknown code; a length not a whole number of codes; not base64
    for damaged in (b"\xff\x00\x00\x00" * 3, base64.b64decode(codes)[:-1], "*"):
        damaged = base64.b64encode(damaged).decode() if isinstance(damaged, bytes) else damaged
        compiledre._table[pattern] = [flags, damaged, groups, groupindex, indexgroup]
        assert compiledre.compile_cached(pattern) == re.compile(pattern)
    compiledre._table["x"] = ("not", "parts")
    assert compiledre.compile_cached("x") == re.compile("x")
    compiledre.save()
    path = compiledre._cache_path()
    blob = bytearray(path.read_bytes())
    blob[-5] ^= 0xFF  # the payload no longer matches its sha256
    path.write_bytes(bytes(blob))
    compiledre._table = None
    assert compiledre._load() == {}


def test_a_pattern_re_refuses_raises_as_re_compile_does(fresh):
    with pytest.raises(re.error, match="missing \\), unterminated subpattern"):
        compiledre.compile_cached("(abc")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning):
            compiledre.compile_cached("[[a]")
    assert compiledre._table == {}


def test_the_file_is_named_by_the_python_that_wrote_it(fresh):
    compiledre.compile_cached("a+b")
    compiledre.save()
    assert [p.name for p in fresh.iterdir()] == [f"regex-{compiledre.TAG}.json"]
    assert compiledre.TAG.startswith(f"{sys.implementation.name}-{sys.version.split()[0]}-")


def test_a_cache_folder_that_cannot_be_written_is_skipped(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CTXLIB_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(compiledre, "_table", None)
    monkeypatch.setattr(compiledre, "_added", {})
    assert compiledre.compile_cached("a|b") == re.compile("a|b")
    compiledre.save()  # no error
    assert blocker.read_text() == "not a folder"


SCAN = """
import json, sys
from ctxlib import credentials
texts = json.loads(sys.stdin.read())
print(json.dumps([[(f.rule, f.line) for f in credentials.find_secrets(t)] for t in texts]))
"""


def test_a_second_process_finds_the_same_secrets_from_the_cache(tmp_path):
    texts = [path.read_text(encoding="utf-8", errors="replace")
             for path in sorted((ROOT / "tests" / "data").rglob("*")) if path.is_file() and path.stat().st_size < 200_000]
    texts += ['aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY9a"\n',
              "password: 'Tr0ub4dor&3xq'\n", 'ghp_' + "a1B2c3D4" * 4 + "e5F6\n"]
    env = {**os.environ, "CTXLIB_CACHE_DIR": str(tmp_path)}
    cold, warm = (subprocess.run([sys.executable, "-c", SCAN], input=json.dumps(texts), capture_output=True,
                                 text=True, env=env, cwd=ROOT, check=True, timeout=300).stdout for _ in range(2))
    assert (tmp_path / f"regex-{compiledre.TAG}.json").stat().st_size > 10_000  # the first process saved its codes
    assert json.loads(warm) == json.loads(cold) and any(json.loads(cold))


def test_a_pattern_that_warns_warns_again_and_is_not_kept(fresh):
    # credentials._compiled compiles under an "error" filter and takes a FutureWarning ("Possible nested set", a Go
    # [[:alnum:]] class) as a refusal, moving on to the next reading. Kept by a caller that let the warning pass, the
    # pattern came back from the cache without it: a warm cache chose another reading than a cold one (round s41).
    pattern = r"\b(pat[[:alnum:]]{14})\b"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert compiledre.compile_cached(pattern) == re.compile(pattern)
    assert pattern not in compiledre._table and compiledre._added == {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning):
            compiledre.compile_cached(pattern)


def test_the_cache_is_written_where_it_was_read(tmp_path, monkeypatch):
    # A relative CTXLIB_CACHE_DIR, then os.chdir (a notebook moving into a learner's repository): at exit the cache
    # was written as a new folder inside that repository (round s41). A relative one is now ignored, as a relative
    # XDG_CACHE_HOME is (round s42): from inside a hostile repository it named the repository's own planted cache.
    (tmp_path / "home").mkdir()
    (tmp_path / "repo" / "cache").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "repo")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("CTXLIB_CACHE_DIR", "cache")
    monkeypatch.setattr(compiledre, "_table", None)
    monkeypatch.setattr(compiledre, "_added", {})
    compiledre.compile_cached("moved+away")
    monkeypatch.chdir(tmp_path)
    compiledre.save()
    assert list((tmp_path / "repo" / "cache").iterdir()) == []
    assert (tmp_path / "home" / ".cache" / "ctxlib" / f"regex-{compiledre.TAG}.json").is_file()


def test_an_entry_with_more_groups_than_the_pattern_has_is_compiled_again(fresh):
    # _sre.compile checks the codes but takes any group count: an entry saying 10**9 groups (valid sha256) made the
    # first match allocate room for them, a MemoryError or the machine's memory (round s41).
    pattern = r"(?i)api[_-]?key\s*=\s*(\w{20,})"
    compiledre.compile_cached(pattern)
    flags, codes, groups, groupindex, indexgroup = compiledre._table[pattern]
    for wrong in ((10 ** 9, indexgroup), (5, indexgroup), (-1, indexgroup), (groups, indexgroup * 3), ("1", indexgroup)):
        compiledre._table[pattern] = (flags, codes, wrong[0], groupindex, wrong[1])
        built = compiledre.compile_cached(pattern)
        assert built == re.compile(pattern) and built.groups == 1
        assert built.search("api_key = " + "a" * 30).groups() == ("a" * 30,)


def _colliding_marshal_dict(n):
    # marshal's bytes for {k * (2**61 - 1): 0 for k in 1..n}: every key's hash is 0 (ints' hashes are not randomized)
    import marshal

    return b"{" + b"".join(marshal.dumps(k * (2 ** 61 - 1)) + marshal.dumps(0) for k in range(1, n + 1)) + b"0"


def test_a_cache_of_keys_that_all_hash_alike_is_not_loaded_quadratically(fresh):
    # A marshal cache was a dict of ints whose hashes collide: 40,000 keys (0.8 MB) took 9 s to load, in every
    # process, and the 64 MB a cache could hold would take days (round s42). The cache is JSON now: such a file,
    # with a valid sha256 in front, is refused at once, and a JSON of as many keys loads in milliseconds.
    import hashlib
    import time

    from ctxlib import usercache

    for payload in (_colliding_marshal_dict(40_000),
                    json.dumps({str(k * (2 ** 61 - 1)): 0 for k in range(1, 200_000)}).encode()):
        compiledre._cache_path().write_bytes(hashlib.sha256(payload).hexdigest().encode() + payload)
        compiledre._table = None
        started = time.perf_counter()
        assert compiledre.compile_cached("a+b") == re.compile("a+b")
        assert time.perf_counter() - started < 2
    with pytest.raises(ValueError, match="nested too deep"):
        usercache.from_json(b"[" * 100_000 + b"]" * 100_000)


def test_a_pattern_with_a_lone_surrogate_is_kept(fresh):
    # re.compile takes "\ud800"; the JSON cache was written as UTF-8, which has no surrogates: the process
    # ended with a UnicodeEncodeError's traceback from save() (round s42). It is written as ASCII now.
    assert compiledre.compile_cached("\ud800+") == re.compile("\ud800+")
    compiledre.save()
    compiledre._table = None
    assert "\ud800+" in compiledre._load() and compiledre.compile_cached("\ud800+") == re.compile("\ud800+")


def test_a_relative_xdg_cache_home_is_not_a_folder_in_the_packed_repository(tmp_path):
    # XDG_CACHE_HOME=.cache named a folder in the current one: packing a repository from inside it read the
    # repository's own .cache/ctxlib/regex-*.json, whose codes never match, and its AWS key was packed (round s42).
    from ctxlib import usercache

    repo, home = tmp_path / "repo", tmp_path / "home"
    repo.mkdir(), home.mkdir()
    key = "AKIA" + "QWERTYUIOPASDFGH"
    (repo / "deploy.py").write_text(f"aws_access_key_id = '{key}'\n# deploy\n")
    planted = {"CTXLIB_CACHE_DIR": str(repo / ".cache" / "ctxlib"), "PYTHONPATH": str(ROOT)}  # this ctxlib, from repo
    command = [sys.executable, "-m", "ctxlib", "pack", ".", "--query", "deploy", "--budget", "2000"]
    subprocess.run(command, cwd=repo, env={**os.environ, **planted}, capture_output=True, timeout=120, check=False)
    (path,) = (repo / ".cache" / "ctxlib").glob("regex-*.json")
    table = usercache.from_json(usercache.read_payload(path))
    for parts in table.values():  # each entry's codes replaced by those of a pattern that never matches
        parts[1] = compiledre._parts("(?!)" + "()" * parts[2])[1]
    usercache.write_payload(path, usercache.to_json(table))
    env = {k: v for k, v in os.environ.items() if k != "CTXLIB_CACHE_DIR"}
    done = subprocess.run(command, cwd=repo, env={**env, "XDG_CACHE_HOME": ".cache", "HOME": str(home), "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=120)
    assert key not in done.stdout and "gitleaks: aws-access-token" in done.stderr
    assert (home / ".cache" / "ctxlib").is_dir()
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CTXLIB_CACHE_DIR", raising=False)
        patch.setenv("XDG_CACHE_HOME", "relative/cache")
        patch.setenv("HOME", str(home))
        assert usercache.cache_dir() == home / ".cache" / "ctxlib"


def test_a_relative_home_is_not_a_folder_in_the_packed_repository(monkeypatch):
    # HOME=. (and no XDG_CACHE_HOME) made the cache ./.cache/ctxlib, inside the repository being packed, as a
    # relative XDG_CACHE_HOME did (a hostile tester's, round s42): the home is then the password database's
    import pwd

    from ctxlib import usercache

    monkeypatch.delenv("CTXLIB_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", ".")
    assert usercache.cache_dir() == Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "ctxlib"
    assert usercache.cache_dir().is_absolute()
