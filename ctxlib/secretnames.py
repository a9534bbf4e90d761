"""Names of keys and the syntax between a name and its value, shared by ``secretrules.py`` and ``secretvalues.py``.

Lesson 3, "Reading a real repository". ``secretrules._SECRET_NAME`` holds the names that end in a secret's word
(password, token, api_key...). A sixth sweep found keys under names it lacks, as vendors name them in their docs, and
in syntax its rules do not read (a Kubernetes env list, ``?? "..."``, a lookup's default): both are here, for
``hex-secret`` (a hex or UUID key) and ``named-key-value`` (a mixed key). Plain data and one function: no other
module of ctxlib is imported, so ``secretrules`` can use them.
"""
from __future__ import annotations

# Datadog's DD_APP_KEY, Azure's AZURE_STORAGE_KEY, New Relic's NEW_RELIC_LICENSE_KEY, Segment's SEGMENT_WRITE_KEY,
# Algolia's ALGOLIA_ADMIN_KEY, LaunchDarkly's LD_SDK_KEY, FCM's server key, PagerDuty's service key, a cipher's AES_KEY
_KEY_WORDS = ("app", "application", "storage", "license", "licence", "write", "admin", "sdk", "server", "account", "client",
              "service", "subscription", "ingest", "integration", "webhook", "deploy", "aes", "cipher", "crypto", "encrypt",
              "decrypt", "fernet", "kek", "dek", "mobile", "management", "merchant", "partner", "personal")


def _ending_in_key() -> str:
    """"key" after one of ``_KEY_WORDS`` (a separator between, or none), the word at a name's start, after a separator or
    as a camelCase hump ("ddAppKey"; not "happ_key"). Read from "key", then what may follow a name, then the words in
    lookbehinds, one for each length (``re`` wants a fixed width): searched by "key", not by "app", "client" or "server",
    which code is full of, and the lookbehinds tried only after a name's end (tried first, they took 0.5 s over the
    standard library's 37 MB)."""
    by_length: dict = {}
    for word in _KEY_WORDS:
        by_length.setdefault(len(word), []).append(word)
    words = [(f"(?:(?-i:(?<![A-Za-z]))(?:{'|'.join(ws)})|(?-i:(?<=[a-z])(?:{'|'.join(w.capitalize() for w in ws)})))")
             for _, ws in sorted(by_length.items())]
    return "key(?=[\"'`\\]=:?|,<\\r\\n \\t])(?:" + "|".join(f"(?<={w}[_.-]key)|(?<={w}key)" for w in words) + ")"


# Those names, and a personal access token's (GITLAB_PAT, AZURE_DEVOPS_EXT_PAT, github_pat): for a (?i) expression
_MORE_KEY_NAMES = _ending_in_key() + r"""|(?-i:(?<![A-Za-z0-9])PAT|_pat(?![a-z]))"""
# Between a name and its value: an assignment or a default (=, :, :=, =>, ??, ||, R's <-), a lookup's default after
# the quoted name (getenv("X_KEY", "...")), or a container's env list, "- name: X_KEY" then "value:" on the next line
# (Kubernetes, Datadog's own manifests) or on the same one (an ECS task definition's {"name": ..., "value": ...})
_TO_VALUE = (r"""(?:["'`]?\]?[ \t]*+(?:=|:=|:|=>|\?\?=|\|\|=|\?\?|\|\||<<?-)|["'][ \t]*+,(?:[ \t]*+default[ \t]*+=)?"""
             r"""|["']?[ \t]*+,?[ \t]*+(?:\r?\n[ \t]*+)?["']?value["']?[ \t]*+:"""
             # a seventh sweep's: a declared type (Rust's KEY: &str =, TypeScript's key: string =, a pydantic SecretStr),
             # a blank then a quoted literal (C's #define KEY "...", Apache's SetEnv, setx, a Ruby DSL's api_key "..."),
             # and a property list's <key>NAME</key> then <string> (Info.plist)
             r"""|[ \t]*+:[ \t]*+&?(?:'static[ \t]++)?[\w.<>\[\]]{1,30}[ \t]*+=|["']?[ \t]++(?=@?["'])|</key>[ \t\r\n]{0,20}<string>)[ \t]*+""")
# 32 hex digits (16 bytes) or more in one case, or a UUID (Postmark's, Heroku's, Snyk's tokens)
_HEX_OR_UUID = (r"""(?-i:[0-9a-f]{32,512}|[0-9A-F]{32,512}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"""
                r"""|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})""")
