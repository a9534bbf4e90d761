"""Hostile texts that made the secret scan, the import graph or a percentile slow or wrong; each test fails before its fix.

Not timed: each asserts the result, or counts the work done (characters scanned, regex searches, files compared).
Before the fixes: a 1 MiB line of ``api_key = '...'`` matches allowed by a line rule took 19 s to scan
(first_only, as the packer scans), 100 kB of ``mysql `` 17 s, a 100 kB one-line key body with its END
line over 60 s; two 1 MiB files of ``def first_turn_ceiling;`` took 4.7 s to rank, a file importing
``a0.x`` ... ``a4999.x`` beside 1,000 ``x.py`` 6 s.
"""
import re
from re import _parser

import pytest

from ctxlib import credentials, imports, ledger, ranking, regexscan
from ctxlib.linecursor import LineCursor
from ctxlib.credentials import find_secrets


class CountingText(str):
    """A str that adds up how many characters count/find/rfind looked at."""

    scanned = 0

    def _span(self, start, end):
        return len(self) if end is None else min(end, len(self)), start

    def count(self, sub, start=0, end=None):
        stop, start = self._span(start, end)
        CountingText.scanned += max(0, stop - start)
        return str.count(self, sub, start, stop)

    def find(self, sub, start=0, end=None):
        stop, start = self._span(start, end)
        found = str.find(self, sub, start, stop)
        CountingText.scanned += max(0, (found + 1 if found >= 0 else stop) - start)
        return found

    def rfind(self, sub, start=0, end=None):
        stop, start = self._span(start, end)
        found = str.rfind(self, sub, start, stop)
        CountingText.scanned += max(0, stop - (found if found >= 0 else start))
        return found


def test_line_numbers_of_many_matches_are_counted_in_one_pass():
    text = CountingText("x" * 5_000 + "\n" + "postgres://app:hunter2x@db " * 2_000 + "\n")
    cursor, CountingText.scanned = LineCursor(text), 0
    starts = [m.start() for m in re.finditer("postgres", text)]
    got = [cursor.at(s, s + 26, text) for s in starts]
    assert {n for n, _ in got} == {2} and {len(line) for _, line in got} == {2_000 * 27}
    assert CountingText.scanned < 3 * len(text)  # counted from 0 for each match: 2,000 x 30,000 characters


def test_line_cursor_agrees_with_counting_from_the_start():
    import random

    rng = random.Random(7)
    for _ in range(500):
        text = "".join(rng.choice("ab\n") for _ in range(rng.randint(0, 30)))
        cursor = LineCursor(text)
        for _ in range(8):
            start = rng.randint(0, len(text))
            after = start + rng.randint(0, 4)
            end = text.find("\n", after)
            assert cursor.at(start, after, text) == (
                text.count("\n", 0, start) + 1, text[text.rfind("\n", 0, start) + 1:end if end >= 0 else len(text)])


def test_many_findings_get_their_own_line_numbers():
    text = "x = 1\n" * 3 + "url = 'postgres://app:hunter2x@db/x'\n" * 500 + "ab://u:pw1234@h " * 300
    found = [f for f in find_secrets(text) if f.rule == "password-in-url"]
    assert [f.line for f in found] == list(range(4, 504)) + [504] * 300


def test_a_line_allowlist_is_searched_once_a_line_not_once_a_match(monkeypatch):
    unit = "api_key = Ab3dEf6hIj9kLm2nQ ; "  # unquoted: generic-api-key's, not secret-assignment's
    text = unit * 2_000 + "--mount=type=secret,"  # generic-api-key's line allowlist lets every match through
    searches = []
    real = credentials._compiled

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, target, *args):
            searches.append(len(target))
            return self.pattern.search(target, *args)

    monkeypatch.setattr(credentials, "_compiled",
                        lambda source: Counting(real(source)) if "mount=type=secret" in source else real(source))
    assert find_secrets(text, first_only=True) == []
    assert 1 <= len(searches) <= 2  # was one 66 kB search per match: 2,000 of them


def _body_repeat(source):
    # The repeat of private-key-block's body group ([A-Za-z0-9+/]{60,}).
    for op, av in _parser.parse(source):
        if op is _parser.SUBPATTERN:
            return av[-1][0][0]
    raise AssertionError("no group")


def test_a_one_line_key_body_before_its_end_line_is_not_tried_at_every_length():
    rule = next(r for r in credentials.EXTRA_RULES if r["id"] == "private-key-block")
    assert _body_repeat(rule["regex"]) is _parser.POSSESSIVE_REPEAT
    body = "Ab1/" * 25_000  # one 100 kB line: the greedy body backed off 100,000 times, each scanning to END
    assert find_secrets("---- BEGIN SSH2 PRIVATE KEY ----\n" + body + "\n-----END RSA PRIVATE KEY-----\n") == []
    cut = find_secrets("-----BEGIN RSA PRIVATE KEY-----\n" + "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n")
    assert [f.rule for f in cut] == ["private-key-block"]  # a key cut before its END line is still found


@pytest.mark.parametrize("command, password", [("docker login", "-p Hunter2Secret"), ("mysql", "-pHunter2Secret")])
def test_a_command_line_password_is_looked_for_within_200_characters(command, password):
    near = f"{command} -u me " + "--opt " * 30 + password + "\n"
    far = f"{command} -u me " + "--opt " * 40 + password + "\n"  # 240 characters of options
    assert [f.rule for f in find_secrets(near)] == ["command-line-password"]
    assert find_secrets(far) == []  # unbounded, each of 100 kB of "mysql mysql ..." scanned to the line's end
    assert find_secrets(f"{command} " * 20_000, first_only=True) == []


def test_an_import_is_at_a_line_start_read_back_from_it_only():
    text = "x = 1;" + "import a;" * 20_000
    real = imports.at_line_start.__code__
    assert "rfind" not in real.co_names  # the head of the line was sliced from its start for each match
    assert imports.import_statements(text) == ((), ())
    assert imports.import_statements("  import a\n\tasync import b\nx import c") == (("a", "b"), ())
    assert ranking._definitions("python", "x;" + "def a;" * 1000 + "\n  def b(): pass") == frozenset({"b"})


def test_a_module_name_is_looked_for_among_files_of_its_length_once(monkeypatch):
    paths = [f"d{i}/x.py" for i in range(300)] + ["src/a.b/c.py", "pkg/__init__.py", "pkg/mod.py"]
    index = imports.ModuleIndex(paths)
    calls = []
    real = imports._dotted
    monkeypatch.setattr(imports, "_dotted", lambda path: calls.append(path) or real(path))
    assert [index.get(f"a{i}.x") for i in range(200)] == [None] * 200
    assert len(calls) == 300  # each x.py read once, not once per import (60,000 comparisons)
    assert index.get("d7.x") == "d7/x.py" and index.get("x") is None
    assert index.get("a.b.c") == "src/a.b/c.py" and index.get("src.a.b.c") == "src/a.b/c.py"
    assert index.get("b.c") is None  # "a.b" is one folder: b.c names no file
    assert index.get("pkg") == "pkg/__init__.py" and index.get("pkg.mod") == "pkg/mod.py"


@pytest.mark.parametrize("values, shown", [([3, float("nan"), 1, 2], "nan at position 1"),
                                           ([1, "2"], "'2' at position 1"), ([True, 2], "True at position 0")])
def test_a_percentile_of_what_is_not_a_number_is_refused(values, shown):
    with pytest.raises(ValueError, match=re.escape(f"percentile needs numbers, got {shown}")):
        ledger.percentile(values, 25)  # [3, nan, 1, 2] stayed unsorted: its p25 was 3


def test_a_percentile_of_numbers_is_unchanged():
    assert ledger.percentile([5, 1, 4, 2, 3], 50) == 3 and ledger.percentile([1.5, -3, 2], 25) == -3
    assert ledger.percentile(iter(range(1, 101)), 55) == 55


# --- The rules of the red-team round on credential kinds (ctxlib/secretrules.py, base64scan.py) -------------
NEW_RULES = ["secret-assignment", "env-secret", "connection-string-password", "hex-secret", "pgpass-format", "option-secret",
             "gradle-secret", "named-secret-element",
             "prefixed-token", "vendor-token", "telegram-bot-url"]
_BLANKS = {(_parser.LITERAL, 32), (_parser.LITERAL, 9)}  # a space, a tab


def _unbounded_repeats(items):
    """Each greedy or lazy repeat of unbounded length in a parsed pattern, as (op, repeated items)."""
    for op, av in items:
        if op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT):
            if av[1] == _parser.MAXREPEAT:
                yield op, list(av[2])
            yield from _unbounded_repeats(av[2])
        elif op is _parser.POSSESSIVE_REPEAT:
            yield from _unbounded_repeats(av[2])
        elif op is _parser.SUBPATTERN:
            yield from _unbounded_repeats(av[3])
        elif op is _parser.ATOMIC_GROUP:
            yield from _unbounded_repeats(av)
        elif op in (_parser.ASSERT, _parser.ASSERT_NOT):
            yield from _unbounded_repeats(av[1])
        elif op is _parser.BRANCH:
            for alternative in av[1]:
                yield from _unbounded_repeats(alternative)


def _blanks_only(items):
    return all((op is _parser.LITERAL and (op, av) in _BLANKS) or (op is _parser.IN and set(av) <= _BLANKS)
               for op, av in items)


@pytest.mark.parametrize("rule_id", NEW_RULES)
def test_a_new_rule_repeats_without_bound_only_possessively_or_over_blanks(rule_id):
    # A bounded repeat costs at most its bound at each place tried; a possessive one never gives back; a run of
    # blanks comes after a keyword, and is read at most twice. So each rule's search is linear in the text.
    source = next(r["regex"] for r in credentials.EXTRA_RULES if r["id"] == rule_id)
    assert [items for _, items in _unbounded_repeats(_parser.parse(source)) if not _blanks_only(items)] == []


# The rules of the fourth round: every unbounded repeat possessive, blanks too. Blanks "read at most twice" holds
# only with one run between two literals: env-list-secret's "[ \t]*,?[ \t]*\r?\n?[ \t]*" split a run of blanks
# three ways (31 s for 2,000 blanks after "name: DB_PASSWORD"), and sql-password's "[ \t]*=?[ \t]*" two ways.
POSSESSIVE_RULES = ["sql-password", "plaintext-securestring", "config-secret-value", "env-list-secret",
                    "basic-auth-pair", "xml-secret-element", "csv-password-column",
                    # the third round's (ctxlib/secretformats.py)
                    "sql-row-password", "jwk-private-key", "api-client-credential", "terraform-variable-default",
                    "hadoop-secret-property", "cloud-init-password", "piped-password", "prompt-answer", "jwt-signing-key",
                    "tool-command-password", "mount-option-password", "config-password-blank", "insecure-password",
                    "sasl-passwd-line", "lua-long-string-secret", "laravel-app-key", "webhook-url", "private-key-text",
                    "vendor-client-secret", "db-login-string",
                    # the fourth red-team round's (ctxlib/secretformats.py, ctxlib/secretcalls.py)
                    "azure-shared-key", "redis-config-string-password", "azure-devops-pat", "cloudflare-tunnel-token",
                    "discord-bot-token", "wireguard-private-key", "registry-token", "go-mysql-dsn", "redis-acl-password",
                    "pgbouncer-userlist", "password-file-line", "htpasswd-file-line", "windows-unattend-password",
                    "filezilla-password", "signing-secret-key-file", "escaped-bytes-secret", "url-query-key",
                    "admin-command-password", "secret-store-command", "positional-login", "crypto-key-literal",
                    "authorization-scheme", "header-secret-value", "split-token", "set-command-secret", "lisp-secret",
                    # found by drawing the fourth round's fakes again
                    "search-client-key", "azure-connection-key", "ibm-cloud-api-key",
                    # the ninth sweep's (ctxlib/secretshapes.py, secretcontexts.py, secretplaces.py)
                    "token-shape-alone", "bitwarden-access-token", "prefixed-token-2026",
                    "prefixed-token-wide", "rails-master-key", "url-path-key-2026", "env-set-secret",
                    # the tenth sweep's (ctxlib/secretshapes.py)
                    "prefixed-token-body"]


@pytest.mark.parametrize("rule_id", POSSESSIVE_RULES)
def test_a_fourth_round_rule_repeats_without_bound_only_possessively(rule_id):
    source = next(r["regex"] for r in credentials.EXTRA_RULES if r["id"] == rule_id)
    assert list(_unbounded_repeats(_parser.parse(source))) == []


def test_the_walk_sees_an_unbounded_repeat():
    assert len(list(_unbounded_repeats(_parser.parse(r"a(?:b|c[^x]*)d[ \t]*(?=e+)f{1,3}g++")))) == 3


MiB_TENTH = 100_000
HOSTILE = {  # 100 kB each, built against one new rule; none holds a secret
    "secret-assignment": ['password = "' * (MiB_TENTH // 12), "define('" + "a" * MiB_TENTH, "token: str" * 10_000,
                          "#define PASSWORD" + " " * MiB_TENTH, 'key="password" ' * 6_600],
    "env-secret": ["PASSWORD=" * 11_000, "ENV " + "A" * MiB_TENTH, "_KEY" * 25_000, "e.token=e.b" * 9_000],
    "connection-string-password": [";password=" * 10_000, " password=" + "a" * MiB_TENTH],
    "hex-secret": ["secret=" + "a" * MiB_TENTH + "g", ("secret=" + "ab12" * 10 + "g ") * 2_000],
    "pgpass-format": ["a:1:b:c:" * 12_000, "'a:1:b:c:d" * 10_000, "a" + ".a" * 50_000 + ":1:2:3"],
    "prefixed-token": ["ab-" * 33_000, "ab_" + "Ab3" * 33_000 + "_", ("ab_" + "Ab" * 20 + " ") * 2_000],
    "env-list-secret": ["name: DB_PASSWORD" + " " * MiB_TENTH + "x", "- name: API_TOKEN\n" + " " * MiB_TENTH,
                        "name: password " * 6_600],
    "sql-password": ["password" + " " * MiB_TENTH + "x", "identified by " * 7_000, "identified with " * 6_000],
    "command-line-password": ["wget " * 20_000],  # "curl ..." runs gitleaks' curl rules: see the test below
    "npm-auth-token": ["_auth\n" + "\n " * (MiB_TENTH // 2), "a:" * (MiB_TENTH // 2) + "_auth"],  # 20,000 lines: 25 s
    "option-secret": [" --token " * 11_000, " -" + "a-" * 50_000, " --api-key " + "aB3" * 33_000 + "'"],
    "named-secret-element": ['name="password"' * 6_000, "<key>token</key>" + " " * MiB_TENTH, 'name="token">' + "a" * MiB_TENTH],
    # the third round's
    "sql-row-password": ["insert into t (" + "a," * 50_000, "INSERT INTO users (password) " + "x" * MiB_TENTH,
                         "COPY t (password) FROM stdin;\n" + "a\t" * 50_000, "insert into t (a, password) values (" + "'x'," * 25_000],
    "jwk-private-key": ['"kty": "RSA"' + " " * MiB_TENTH, ('"d": "' + "A" * 30 + '" ') * 2_500 + "kty", '"k": "' + "a" * MiB_TENTH],
    "api-client-credential": ['"apikey": [' + "{" * MiB_TENTH, '"bearer": {"' + "a" * MiB_TENTH, '"username": "a",' + " " * MiB_TENTH],
    "terraform-variable-default": ['variable "password" {' + " " * MiB_TENTH, 'variable "' + "a" * MiB_TENTH],
    "hadoop-secret-property": ["<name>" + "a" * MiB_TENTH, "<name>password</name>" + " " * MiB_TENTH,
                               "fs.azure.account.key." + "a" * MiB_TENTH],
    "cloud-init-password": ["chpasswd:\n" + "  a\n" * 25_000, "chpasswd:" + " " * MiB_TENTH],
    "piped-password": ["echo " * 20_000, "echo a |" + " " * MiB_TENTH + "-stdin"],
    "prompt-answer": ["expect password " * 6_000, "expect password\n" + " " * MiB_TENTH],
    "jwt-signing-key": ["jwt.sign(" * 11_000, "jwt.sign({" + "a" * MiB_TENTH],
    "tool-command-password": ["net use \\\\a " * 9_000 + "/user:", "composer config " * 6_000, "rclone config create " * 4_700,
                              "npm config set " * 6_600],
    "mount-option-password": [" -o " + "a," * 50_000 + "pass=", " -o " * 25_000 + "pass="],
    "config-password-blank": ["user a " * 14_000 + "pass", "password" + " " * MiB_TENTH + "x"],
    "insecure-password": ["insecure-password" + " " * MiB_TENTH],
    "sasl-passwd-line": ["[a]:1 " * 16_000 + "smtp"],
    "lua-long-string-secret": ["password = [[" * 7_000, "password=[[" + "a" * MiB_TENTH],
    "laravel-app-key": ["key base64:" * 9_000],
    "webhook-url": ["https://a/hooks/" * 6_000],
    "private-key-text": ["ED25519-V3:" + "A" * MiB_TENTH, "xprv" * 25_000, "accounts: [" * 9_000, "nkey seed" + "S" * MiB_TENTH],
    "vendor-client-secret": ["twilio AC" + "a" * MiB_TENTH, "pusher secret: '" * 6_000],
    "db-login-string": ["jdbc:oracle:thin:" + "a" * MiB_TENTH, "sqlplus " + "-a " * 33_000, ";pwd={" * 16_000],
    # the fourth round's
    "azure-shared-key": ["--account-key " + "A" * MiB_TENTH, "SharedAccessSignature " + "a=b&" * 25_000, "sig=" * 25_000],
    "redis-config-string-password": ["a:6380,password=" * 6_000, ",password=" + "a" * MiB_TENTH],
    "azure-devops-pat": ["pat=" * 25_000, "pat: " + "a" * MiB_TENTH],
    "cloudflare-tunnel-token": ["eyJhIjoi" + "A" * MiB_TENTH],
    "discord-bot-token": ["MTIz" * 25_000, ("MTIzNDU2Nzg5MDEyMzQ1Njc4." + "a" * 40 + " ") * 1_500],
    "wireguard-private-key": ["PrivateKey = " + "A" * MiB_TENTH, "PrivateKey=" * 9_000],
    "registry-token": ["dckr_pat_" + "a" * MiB_TENTH, "oy2" * 33_000],
    "go-mysql-dsn": [":" * MiB_TENTH + "@tcp(", ":aaaa" * 20_000 + "@tcp("],
    "redis-acl-password": ["user " + "a " * 50_000, "user a" + " >" * 50_000],
    "pgbouncer-userlist": ['"a" "' * 20_000, '"a" "' + "a" * MiB_TENTH],
    "password-file-line": ["a:{PLAIN}" * 11_000, "a:$7$1$" + "A" * MiB_TENTH],
    "htpasswd-file-line": ["a:" * 50_000, "a:b:" + "a" * MiB_TENTH],
    "windows-unattend-password": ["<Value>" + "a" * MiB_TENTH, "<Value>a</Value>" + " " * MiB_TENTH + "<PlainText>"],
    "filezilla-password": ['<Pass encoding="base64">' + "a" * MiB_TENTH],
    "signing-secret-key-file": ["untrusted comment: " * 5_000 + "secret key\n", "untrusted comment: secret key\nRW" + "A" * MiB_TENTH],
    "escaped-bytes-secret": ["key = b'" + "\\x41" * 25_000, "key = b'\\x" * 8_000],
    "url-query-key": ["?appid=" * 14_000, "a.firebaseio.com/a?" + "a&" * 50_000],
    "admin-command-password": ["plink " * 16_000, "net user " * 11_000, "openssl passwd " + "-a " * 33_000, "acl setuser a" + " b" * 50_000],
    "secret-store-command": ["gh secret set " * 7_000, " --secret-string " * 5_800],
    "positional-login": ["PlainAuth(\"\", " * 7_000, "pymysql.connect(a, " * 5_000, "Credentials(\"a\", " * 6_000],
    "crypto-key-literal": ["new SecretKeySpec(" * 5_000, "hash_hmac('a', " * 6_000, "JWT::encode(" + "a" * MiB_TENTH],
    "authorization-scheme": ["Authorization: SSWS " * 5_000],
    "header-secret-value": ["proxy_set_header X-Api-Key " * 3_500, "addHeader(\"" + "a" * MiB_TENTH],
    "split-token": ['"ghp_" + ' * 11_000, '"ghp_' + "a" * MiB_TENTH],
    "set-command-secret": ["set -gx API_KEY " * 6_000, "setx " * 20_000],
    "lisp-secret": ["(setq a-token " * 7_000, ":password " * 10_000],
    "search-client-key": ["algoliasearch(" * 7_000, 'algoliasearch("ABCDEFGHIJ", "' + "a" * MiB_TENTH,
                          "SearchClient.create(" + " " * MiB_TENTH],
    "azure-connection-key": ["AccountKey=" * 9_000, "SharedAccessKey=" + "A" * MiB_TENTH],
    "ibm-cloud-api-key": ['"apikey": "' * 9_000, '"apikey":' + " " * MiB_TENTH + '"'],
    # the tenth sweep's
    "prefixed-token-body": ["ab." + "aB3" * 33_000, ("ab." + "Ab3" * 5 + "." + "Ab3" * 8 + " ") * 2_000, "ab_eyJ" + "a" * MiB_TENTH,
                            ("ab_eyJ" + "a" * 30 + ".") * 2_700, ("ab_v1_" + "a" * 40 + " ") * 2_000],
    "token-shape-alone": ["1/" * 50_000 + ":", ("2/" + "9" * 20 + "/") * 4_000 + ":" + "0" * 32, ("1/1:" + "0" * 32 + " ") * 2_700],
}
# The path a rule wants to run on (its "path"); other rules run on any
HOSTILE_PATHS = {"terraform-variable-default": "a.tf", "lua-long-string-secret": "a.lua", "config-password-blank": "a.conf",
                 "redis-acl-password": "users.acl", "pgbouncer-userlist": "userlist.txt", "htpasswd-file-line": "htpasswd",
                 "lisp-secret": "init.el"}


@pytest.mark.parametrize("rule_id", sorted(HOSTILE))
def test_text_built_against_a_new_rule_holds_no_secret(rule_id):
    for text in HOSTILE[rule_id]:
        assert rule_id not in [f.rule for f in find_secrets(text, HOSTILE_PATHS.get(rule_id, "a.txt"))]


def test_a_wrapped_block_is_decoded_once_and_each_line_once(monkeypatch):
    from ctxlib import base64scan

    lines = [base64scan.BASE64_CHARS[:64]] * 2_000  # 130 kB, one block of 2,000 lines of 64
    decoded = []
    real = base64scan._raw
    monkeypatch.setattr(base64scan, "_raw", lambda run: decoded.append(len(run)) or real(run))
    assert find_secrets("\n".join(lines) + "\n") == []
    assert sum(decoded) == 2 * 64 * 2_000  # each line once, the joined block once


def test_a_command_window_ends_at_the_next_command():
    # command-line-password's curl and wget windows stop at the next "curl" or "wget": 100 kB of "curl -x " is
    # read once, not 200 characters from each of 12,000 places. (gitleaks' own curl-auth-header and curl-auth-user,
    # whose ".*" runs to the end of the line from each "curl", are not changed here; that text takes them ~60 s.)
    source = next(r["regex"] for r in credentials.EXTRA_RULES if r["id"] == "command-line-password")
    assert "(?!curl)" in source and "(?!wget)" in source
    pattern = credentials._compiled(source)
    assert list(pattern.finditer("curl -x " * 12_000)) == []
    assert [m.group(1) for m in pattern.finditer("curl -x a curl -u me:Hunter2Pw https://x")] == ["Hunter2Pw"]


def test_gitleaks_curl_rules_stop_their_run_at_the_next_curl_with_the_same_verdicts():
    # gitleaks' curl-auth-header and curl-auth-user ran ".*" from every "curl" to the end of its line:
    # 40 kB of "curl " took 17 s (Python's engine backtracks where Go's does not). Now no run passes a "curl".
    import random

    from ctxlib.secretrules import linear_gitleaks_regex

    config_rules = {r["id"]: r["regex"] for r in credentials._config()["rules"] if "regex" in r}
    rng = random.Random(25)
    pieces = ["curl", "curl ", "xcurl", " ", "-H", "--header ", "-u ", "--user=", "\n", "\r\n", "x", "https://h.io ",
              '"Authorization: Bearer abcdefgh12"', "'X-Api-Key: zq8Kx2LmP9'", "admin:s3cretpw", '"me:pw12345"']
    texts = ["curl " + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14))) for _ in range(6_000)]
    for rule_id in ("curl-auth-header", "curl-auth-user"):
        original = config_rules[rule_id]
        rewritten = linear_gitleaks_regex(rule_id, original)
        assert ".*" not in rewritten.replace(r"(?:(?!\bcurl\b).)*", "")  # every run stops at the next curl
        before, after = credentials._compiled(original), credentials._compiled(rewritten)
        assert [bool(before.search(t)) for t in texts] == [bool(after.search(t)) for t in texts]
        assert sum(bool(after.search(t)) for t in texts) > 100  # the cases hold matches, not only misses
    assert linear_gitleaks_regex("aws-access-token", "x.*y") == "x.*y"


# Rules tried at every position of every file they run on: regexscan proves no literal to start from. A new rule
# for every file must start from a literal (a '#define' alternative behind blanks of any length made secret-assignment
# one of these: the 80 files bench_pack packs took 1.2 s to scan, not 0.2).
SCANNED_WHOLE = {"redis-password", "htpasswd-hash", "connection-string-password", "pgpass-format"}


def test_rules_for_every_file_start_from_a_literal():
    from ctxlib import regexscan

    whole = {r["id"] for r in credentials.EXTRA_RULES if not r.get("path") and not r.get("runs")
             and not regexscan.required_literals(r["regex"]) and not regexscan.template_parts(r["regex"])}
    assert whole == SCANNED_WHOLE
