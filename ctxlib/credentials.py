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

Credential files of common tools are a class, recognized twice: by name
(``CREDENTIAL_FILE_PATTERNS``, gitignore syntax, plus gitleaks' own path-only rules such as
``pkcs12-file``), so the reader never opens ``~/.kube/config``, ``.docker/config.json``,
``.pgpass`` or a service-account key under its usual name; and by content (``EXTRA_RULES``,
in gitleaks' format), so the same file under another name is refused by the packer: a
kubeconfig's ``client-key-data``, a registry's ``"auth"``, a ``.netrc`` password, an npm
``_authToken``, a ``password =`` in a client config, a password inside a URL. As gitleaks 8
does, long base64 runs are decoded once and scanned again (a base64 private key is a private
key). ``tests/test_credentials.py`` holds a corpus of such files and of look-alikes that are not.

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

from . import goregex, ignore, regexscan
from .literalset import LiteralSet, holds_any

GITLEAKS_VERSION = "8.30.1"
RULES_FILE = "gitleaks.toml"


@dataclass(frozen=True)
class Finding:
    """One secret found: the gitleaks rule's id, the 1-based line it starts on and the line it ends on."""

    rule: str
    line: int
    last_line: int = field(default=0, compare=False)  # 0: the same as ``line``


# Credential files of common tools, by name, in gitignore's syntax (``*``, ``?``, ``**``, ``!`` for
# an exception). A pattern with a "/" is matched against the path (``**/.kube/config``: at any depth);
# one without, against the file's name only, so a folder called ``credentials/`` (code) is not
# taken for the AWS file ``credentials``.
CREDENTIAL_FILE_PATTERNS = [
    # dotenv files, keys and keystores
    "*.env", ".env", ".env.*", "!.env.example", "!.env.sample", "!.env.template", "!.env.dist",
    "*.pem", "*.key", "*.p12", "*.pfx", "*.p8", "*.jks", "*.keystore", "*.ppk", "*.kdbx", "*.ovpn",
    "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "**/.ssh/id_*", "!*.pub",
    # cloud clients
    "credentials.json", "credentials", "**/.aws/config", "**/.aws/credentials", "**/.aws/sso/cache/*.json",
    "application_default_credentials.json", "**/gcloud/credentials.db", "**/gcloud/access_tokens.db",
    "**/gcloud/legacy_credentials/**", "service-account*.json", "service_account*.json", "*-sa-key.json",
    "serviceAccountKey*.json", "*-firebase-adminsdk-*.json", "client_secret*.json",  # Firebase's, Google OAuth's
    "**/.azure/accessTokens.json", "**/.azure/msal_token_cache.*", "**/.azure/azureProfile.json",
    "**/.oci/config", ".s3cfg", ".boto", ".passwd-s3fs", "rclone.conf", "**/doctl/config.yaml",
    # containers and clusters
    "kubeconfig", "*.kubeconfig", "kubeconfig.y*ml", "**/.kube/config", "**/.kube/config.*", ".dockercfg",
    "**/.docker/config.json", "**/containers/auth.json", ".vault-token", ".vault_pass*", "**/.helm/repository/repositories.yaml",
    # databases
    ".pgpass", "pgpass.conf", ".my.cnf", ".mylogin.cnf", ".dbshell", ".rediscli_auth",
    # package registries and version control
    ".netrc", "_netrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", "pip.conf", "pip.ini", ".gem/credentials",
    "**/.gem/credentials", "**/.cargo/credentials", "**/.cargo/credentials.toml", "**/.composer/auth.json",
    "**/.m2/settings.xml", "**/.m2/settings-security.xml", "**/.gradle/gradle.properties", ".git-credentials",
    "**/.config/gh/hosts.yml", "**/.config/hub", ".terraformrc", "terraform.rc", "credentials.tfrc.json",
    "*.tfstate", "*.tfstate.backup", ".htpasswd", "wp-config.php", "*.tfvars", "*.tfvars.json", "!*.example.tfvars",
    # secrets kept on purpose
    "secrets.json", "secrets.yaml", "secrets.yml", "secrets.toml", ".secrets",
]


# Rules ctxlib adds, in gitleaks' own format, for formats its rule set does not catch.
_PLACEHOLDER = r"""(?i)^(?:\$|%|<|\{|\*+$|x+$|\.\.\.|(?:true|false|yes|no|on|off|null|none|read|write|read-all|write-all|\d+)$|(?:your|my|some|the)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|token|changeme|example|redacted|none|null|dummy|test|user(?:name)?)s?$)"""
# Where a bare "password = hunter2" is a credential: client and tool configs, not source code.
_CONFIG_FILES = (r"(?i)(?:^|/)(?:\.[^/]+rc|\.[^/.]+|[^/.]+|[^/]+\.(?:ini|cfg|conf|cnf|config|toml|ya?ml"
                 r"|properties|env|json|xml|txt|tfvars|hcl))$")
EXTRA_RULES = [
    {"id": "django-secret-key",  # Django's generated keys use !@#$%^&*(-_=+), which generic-api-key refuses
     "regex": r"""\bSECRET_KEY\s*[:=]\s*[rRbBuU]?["']([^"'\s]{20,})["']""",
     "keywords": ["secret_key"], "entropy": 3.5},
    {"id": "kubeconfig-credential",  # a client key, or a user's token or password, in a kubeconfig
     "regex": r"""(?m)^[ \t-]*(?:client-key-data|token|id-token|refresh-token|password)[ \t]*:[ \t]*["']?([^\s"'#]{8,})""",
     "keywords": ["client-key-data", "token", "password"], "path": _CONFIG_FILES, "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "registry-auth",  # ~/.docker/config.json, containers/auth.json, .dockercfg: base64 "user:password"
     "regex": r'(?i)"(?:auth|identitytoken|registrytoken|password)"\s*:\s*"([^"\s]{8,})"',
     "keywords": ['"auth"', "identitytoken", "registrytoken", '"password"'],
     "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "netrc-password",  # .netrc, _netrc: "machine host login me password secret"
     "regex": r"""(?i)\b(?:machine\s+\S+|default)(?:\s+(?:login|account|port)\s+\S+)*\s+password\s+(\S{3,})""",
     "keywords": ["machine", "default"], "path": _CONFIG_FILES, "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "npm-auth-token",  # .npmrc and .yarnrc.yml, under any name
     "regex": r"""(?im)^\s*(?:\S*:)?(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)\s*[=:]\s*["']?([^\s"']{6,})""",
     "keywords": ["_authtoken", "_auth", "_password", "npmauthtoken", "npmauthident"], "path": _CONFIG_FILES,
     "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "config-password",  # .pypirc, .my.cnf, .s3cfg, .boto, pip.conf, rclone.conf, application.properties
     "regex": r"""(?im)^[ \t]*(?:[\w.-]*?(?:password|passwd|pwd|secret_key|secret_access_key|client_secret|api_key"""
              r"""|access_key|auth_token|access_token|passphrase|pass_phrase|token|[_.-]pass)|pass|secret|psk)[ \t]*[=:][ \t]*"""
              r"""["']?([^\s"'#;]{4,})["']?[ \t]*$""",
     "keywords": ["pass", "pwd", "secret", "key", "token", "psk"], "path": _CONFIG_FILES,
     "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "redis-password",  # redis.conf: "requirepass foobared"
     "regex": r"""(?im)^[ \t]*(?:requirepass|masterauth)[ \t]+["']?([^\s"'#]{4,})""",
     "keywords": ["requirepass", "masterauth"], "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "putty-private-key",  # a .ppk file under any name
     "regex": r"""PuTTY-User-Key-File-\d+:[^\n]*\n(?s:.){0,400}?Private-Lines:\s*\d+\s*\n([A-Za-z0-9+/=\n]{20,})""",
     "keywords": ["putty-user-key-file"]},
    {"id": "aws-secret-access-key",  # the 40-character secret beside an AKIA id, in any file
     "regex": r"""(?i)aws_?secret_?(?:access_?)?key["']?\s*[=:]+\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])""",
     "keywords": ["aws_secret", "awssecret", "aws_secret_access_key"], "entropy": 3.5},
    {"id": "password-in-url",  # postgres://app:hunter2@db/..., https://me:ghp_...@github.com (.git-credentials)
     "regex": r"""\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@"'<>()\[\]{}]{0,64}:([^\s/@"'<>()\[\]{}]{3,200})@[\w.-]+""",
     "keywords": ["://"], "allowlists": [{"regexes": [_PLACEHOLDER]}]},  # redis://:pw@host: no user name
    {"id": "oauth-token-json",  # gcloud's application_default_credentials.json, Azure's token caches
     "regex": r'(?i)"(?:refresh_?token|access_?token|client_?secret|id_?token|private_key_id|secret)"\s*:\s*"([^"\s]{16,})"',
     "keywords": ["token", "secret", "private_key_id"], "entropy": 3.0},
    {"id": "password-hash",  # Jupyter's c.ServerApp.password / hashed_password, a crypt or argon2 hash as a password
     "regex": r"""(?i)(?:passw(?:or)?d|passwd|pwd)["']?\s*[:=]\s*[rbu]?["']((?:sha1|sha256|sha512):[0-9a-f]{8,}:[0-9a-f]{32,}"""
              r"""|(?:argon2:)?\$argon2(?:id|i|d)\$[^\s"']{30,}|\$(?:2[aby]|5|6|apr1)\$[./A-Za-z0-9$]{20,})""",
     "keywords": ["sha1:", "sha256:", "sha512:", "$argon2", "$2a$", "$2b$", "$2y$", "$5$", "$6$", "$apr1$"]},
    {"id": "htpasswd-hash",  # .htpasswd lines: a crackable password hash
     "regex": r"""(?m)^[\w.@-]+:(\$(?:apr1|2[aby]|5|6)\$[./A-Za-z0-9$]{8,}|\{SHA\}[A-Za-z0-9+/=]{27,28})""",
     "keywords": ["$apr1$", "$2y$", "$2a$", "$2b$", "$5$", "$6$", "{sha}"]},
    {"id": "pgpass-line",  # host:port:database:user:password
     "regex": r"""(?m)^[^\s:#][^:\n]*:(?:\d{1,5}|\*):[^:\n]+:[^:\n]+:([^:\n]{3,})$""",
     "path": r"(?i)pgpass", "keywords": []},
    {"id": "service-token",  # formats gitleaks lacks or finds only by a service's name: Stripe webhook, Google OAuth,
     # OpenAI project, Groq, Tailscale, Supabase, Doppler, New Relic keys, Telegram bots, Discord webhooks, Azure SAS
     "regex": r"""\b(whsec_[A-Za-z0-9+/]{32,}|ya29\.[\w-]{30,}|GOCSPX-[\w-]{24,}|sk-(?:proj|svcacct|admin)-[\w-]{40,}|gsk_\w{48,}"""
              r"""|r8_[A-Za-z0-9]{37}|tskey-(?:auth|api|client|scim|webhook)-[\w-]{20,}|sbp_[a-f0-9]{40}|NRAK-[A-Z0-9]{27}"""
              r"""|dp\.(?:st|sa|ct|scim|audit)\.[\w.-]{40,}|\d{8,10}:AA[\w-]{33}|discord(?:app)?\.com/api/webhooks/\d{17,20}/[\w-]{60,}"""
              r"""|sv=\d{4}-\d\d-\d\d&[^\s"'<>]{0,300}?\bsig=[\w%+/]{30,})(?![\w-])""",
     "keywords": ["whsec_", "ya29.", "gocspx-", "sk-proj-", "sk-svcacct-", "sk-admin-", "gsk_", "r8_", "tskey-",
                  "sbp_", "dp.", "nrak-", ":aa", "/api/webhooks/", "sig="], "entropy": 3.0},
    {"id": "authorization-header",  # "Authorization": "Bearer <token>" in code, an .http file, a client config
     "regex": r"""(?i)\bauthorization["']?\]?\s*[:=,]\s*[fbr]?["']?(?:bearer|token|basic|bot)\s+([\w.~+/=-]{20,})""",
     "keywords": ["authorization"], "entropy": 3.5, "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)your|here|x{6}|\.{3}"]}]},
    {"id": "command-line-password",  # docker login -p pw, sshpass -p pw, mysql -ppw; options within 200 characters
     "regex": r"""(?i)\b(?:(?:docker|podman|buildah|skopeo|helm\s+registry)\s+login\b[^\n;&|]{0,200}?\s(?:-p|--password)[ \t=]+"""
              r"""|sshpass\s+-p[ \t]*|mysql(?:dump|admin)?\b[^\n;&|]{0,200}?\s(?:-p|--password=))["']?([^\s"'$<{]{4,})""",
     "keywords": ["login", "sshpass", "mysql"], "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "private-key-block",  # a key's BEGIN line and body without its END line (cut, pasted), or SSH2's "---- BEGIN";
     # a body holds no "-", so the next "-" after it starts its END line or there is none; it is taken whole ({60,}+:
     # a shorter one meets the same "-"; trying each took 50 s on a 100 kB one-line body): linear on any text
     "regex": r"""-{4,5} ?BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}[\s\S]{0,300}?(?:^|\\n|[\s"'])"""
              r"""([A-Za-z0-9+/]{60,}+)(?![^-]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY)""", "keywords": ["private key"], "entropy": 4.5},
    {"id": "maven-server-password",  # ~/.m2/settings.xml
     "regex": r"""<(?:password|passphrase|privateKey)>([^<$]{4,})</""",
     "keywords": ["<password>", "<passphrase>"], "allowlists": [{"regexes": [r"^\{.*\}$", _PLACEHOLDER]}]},
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
    # A scan compiles few of the ~230 expressions (the keyword prefilter); re compiles ~5x faster than
    # regex, and reads all of gitleaks 8.30.1's as Go does, 26 of them rewritten (goregex.to_python).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pattern in goregex.readings(source):
            try:
                return re.compile(pattern)
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

    from .tokens import cached

    raw = (Path(__file__).with_name("data") / RULES_FILE).read_bytes()
    return cached("gitleaks", hashlib.sha256(raw).hexdigest(), lambda: _parse_toml(raw))


@functools.cache
def rules() -> tuple[tuple[_Rule, ...], tuple[_Allowlist, ...]]:
    """gitleaks' rules that have a regular expression, then ``EXTRA_RULES``, and the global allowlists."""
    config = _config()
    found = tuple(
        _Rule(r["id"], r["regex"], tuple(k.lower() for k in r.get("keywords", [])), float(r.get("entropy", 0.0)),
              int(r.get("secretGroup", 0)), r.get("path", ""), _allowlists(r.get("allowlists", [])))
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


def credential_file_pattern(path: str) -> str | None:
    """The rule by which the file at ``path`` (POSIX, relative) is a credential file, or ``None``.

    ``credential_file_pattern("home/.kube/config")`` -> ``"**/.kube/config"``;
    ``credential_file_pattern("certs/bundle.p12")`` -> ``"*.p12"``; a name gitleaks' path-only rules
    know but the list does not gives ``"gitleaks: <rule>"``; ``credential_file_pattern("a/.env.example")``
    -> ``None`` (a template). About 4 microseconds a file.
    """
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
    source = pattern.pattern if isinstance(pattern, re.Pattern) else None  # as re reads it (goregex)
    if None not in seen:
        seen[None] = regexscan.case_safe(text, lowered)
    # Windows come from the lowered text: only when it holds every place a keyword matches (case_safe: no ſ, ı).
    windowed = rule.regex.startswith(regexscan.TEMPLATE_PREFIX) and rule.keywords and seen[None]
    spans = _windows(rule, text, lowered, seen) if windowed else [(0, len(text))]
    parts = regexscan.template_parts(source) if source else None
    literals = parts[1] if parts else regexscan.required_literals(source) if source else None
    if not spans or not literals or not (seen[None] or not any(icase for _, icase, _, _ in literals)):
        for start, end in spans:
            yield from pattern.finditer(text, start, end)
        return
    index = (seen[""], _keywords().literals)
    literals = regexscan.possible(literals, index)
    if parts:  # the windows share one list of the places where the rest could start
        parts, starts = (parts[0], literals, parts[2]), regexscan.candidate_starts(
            text, lowered, literals, spans[0][0], spans[-1][1], index)
        for start, end in spans:
            yield from regexscan.template_finditer(pattern, parts, text, lowered, start, end, index, starts)
    else:
        for start, end in spans:
            yield from regexscan.anchored_finditer(pattern, text, lowered, literals, start, end, index)


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


_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}={0,2}")
# Every match lies in a run of 40 or more of these characters and ends at most two "=" after it.
_BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
def _decoded(run: str) -> str | None:
    """The text a base64 run stands for, or ``None`` if it is not base64 of mostly printable text."""
    import base64
    import binascii

    try:
        raw = (base64.urlsafe_b64decode if "-" in run or "_" in run else base64.b64decode)(
            run + "=" * (-len(run) % 4))
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if text and printable >= 0.95 * len(text) else None


@functools.cache
def _keywords() -> LiteralSet:
    return LiteralSet(k for rule in rules()[0] for k in rule.keywords)


@functools.cache
def _rules_of() -> tuple[dict, tuple]:
    """``({keyword: (number of each rule that has it, ...)}, (rules without keywords, ...))``."""
    by_keyword: dict[str, list] = {}
    for n, rule in enumerate(rules()[0]):
        for keyword in rule.keywords:
            by_keyword.setdefault(keyword, []).append(n)
    return {k: tuple(v) for k, v in by_keyword.items()}, tuple(n for n, r in enumerate(rules()[0]) if not r.keywords)


def find_secrets(text: str, path: str = "", first_only: bool = False, decode: bool = True) -> list[Finding]:
    """Every secret gitleaks' rules find in ``text``, in rule order then position.

    Args:
        text: a file's contents.
        path: the file's name, for the few rules that hold only for some files (``*.tf``,
            ``*.yaml``); without it those rules are not applied.
        first_only: stop at the first finding (what the packer needs: one is enough to refuse).
        decode: also scan what each base64 run of 40 or more characters decodes to, when that
            is text (gitleaks' decoding, one level deep); a finding there spans the run's lines.
    Returns:
        ``[Finding(rule, line, last_line), ...]``; ``[]`` when nothing is found. A line
        ``key = "sk-ant-api03-..."`` gives ``[Finding("anthropic-api-key", 1)]``; a private key
        from its BEGIN line to its END line gives both lines' numbers.
    """
    compiled, global_allow = rules()
    original, text = text, goregex.go_case(text)  # Go's case folding: same length, same offsets
    lowered = text.lower()
    found = []
    # Rules share keywords (329 keywords, 275 distinct): which of them the text holds is found
    # once, in one pass per anchor character (``literalset``); only their rules are visited.
    places = _keywords().find(lowered)
    seen: dict = {"": places}
    by_keyword, unkeyed = _rules_of()
    run = set(unkeyed).union(*(by_keyword[k] for k in places))  # the rules a keyword lets run
    lines = regexscan.LineCursor(text)  # a rule's matches come in order: lines are counted once a rule, not a match
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
    if decode:
        for run in regexscan.run_finditer(_BASE64_RUN, text, _BASE64_CHARS, 40, 2):
            inner = _decoded(run.group())
            if inner is None:
                continue
            hidden = find_secrets(inner, path, first_only=True, decode=False)
            if hidden:
                first = lines.at(run.start(), run.start(), text)[0]
                found.append(Finding(f"{hidden[0].rule} (base64)", first, first + run.group().count("\n")))
                if first_only:
                    return found
    return found
