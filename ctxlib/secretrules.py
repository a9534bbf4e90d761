"""Credentials ctxlib knows beyond gitleaks' rule set: file names, and rules in gitleaks' format.

Lesson 3, "Reading a real repository". ``credentials.py`` applies gitleaks' default rules; this
module holds what ctxlib adds to them, each rule with where it comes from:

* ``CREDENTIAL_FILE_PATTERNS``: the usual names of credential files of common tools (gitignore
  syntax), so the reader never opens ``~/.kube/config`` or ``.pgpass``;
* ``EXTRA_RULES``: rules for the same files under other names (a kubeconfig's ``client-key-data``,
  a registry's ``"auth"``, a ``.netrc`` or ``.pgpass`` line) and for kinds of secret gitleaks'
  ``generic-api-key`` lets through: a password with punctuation in a quoted assignment (its value
  class is ``[\\w.=-]``), a hex key named by its variable, a connection string's ``Password=``, an
  unquoted ``NAME_PASSWORD=`` in a shell, Dockerfile or CI file, a token with a vendor's prefix that
  no vendor rule knows yet.

Rules for particular tools' formats (SQL rows, JWKs, Terraform, Hadoop, prompts and pipes...) are in ``secretformats.py``,
which shares this module's allowlists.

Where a value could be a placeholder, a template or code, the rule's allowlists say so (``_PLACEHOLDER``,
``_TEMPLATE``, ``_NOT_MIXED``): a course repository must still pack its ordinary code. Every
expression is linear in the text: bounded or possessive repeats, a literal or an anchor first
(``tests/test_hostile_linear.py`` feeds each new one 1 MiB of text built against it).
"""
from __future__ import annotations

from .secretnames import _HEX_OR_UUID, _MORE_KEY_NAMES, _TO_VALUE

# Credential files of common tools, by name, in gitignore's syntax (``*``, ``?``, ``**``, ``!`` for
# an exception). A pattern with a "/" is matched against the path (``**/.kube/config``: at any depth);
# one without, against the file's name only, so a folder called ``credentials/`` (code) is not
# taken for the AWS file ``credentials``.
CREDENTIAL_FILE_PATTERNS = [
    # dotenv files, keys and keystores
    "*.env", ".env", ".env.*", "!.env.example", "!.env.sample", "!.env.template", "!.env.dist",
    "*.pem", "*.key", "*.p12", "*.pfx", "*.p8", "*.jks", "*.keystore", "*.ppk", "*.kdbx", "*.ovpn", "*.keytab",
    "secring.*", "**/.gnupg/**", "**/sops/age/keys.txt",  # GnuPG's secret keyring and folder, SOPS' age keys
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
    # mail: Postfix's SMTP relay logins; Kaggle's API key
    "sasl_passwd", "kaggle.json",
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
    # a sixth sweep: direnv's .envrc, Wrangler's .dev.vars, Google's quickstart token.json, Databricks', Sentry's, SnowSQL's,
    # ngrok's, Linode's and Hugging Face's saved tokens, AWS console's key downloads, WireGuard's configs, a deploy key
    ".envrc", ".dev.vars", ".dev.vars.*", "token.json", ".databrickscfg", ".sentryclirc", "**/.snowsql/config",
    "**/.ngrok2/ngrok.yml", "**/ngrok/ngrok.yml", ".linode-cli", "**/huggingface/token", "**/.huggingface/token",
    "accessKeys.csv", "*_accessKeys.csv", "new_user_credentials.csv", "*_credentials.csv", "wg?.conf", "deploy_key", "deploy_key_*",
]


# Rules ctxlib adds, in gitleaks' own format, for formats its rule set does not catch. A placeholder, a template, or a value
# encrypted to be committed: SOPS' ENC[AES256_GCM,...], a SealedSecret's encryptedData (base64 from "Ag", 200 or more)
_PLACEHOLDER = r"""(?i)^(?:ENC\[AES256_GCM,|os\.environ/|(?-i:Ag[A-D])[A-Za-z0-9+/]{200,}={0,2}$|\$|%(?![0-9A-F]{2}[^%\s]*%[0-9A-F]{2})|<|\{|\*+$|x+$|\.\.\.|(?:true|false|yes|no|on|off|null|none|read|write|read-all|write-all|\d+)$|(?:your|my|some|the)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|token|changeme|example|redacted|none|null|dummy|test|user(?:name)?)s?$)"""
# A name's "pass" that is no password: a render or compiler pass, a filter's band, a count or a ticket (render_pass,
# first_pass, high_pass, num_pass, boarding_pass; renderPass, lastRenderPass). bypass, compass, subpass and passes are
# never matched (no separator, or more after "pass"); db_pass, smtp_pass, dbPass, DB_PASS and PASS are passwords.
_PASS_STAGES = ("render", "shadow", "depth", "light", "lighting", "geometry", "gbuffer", "opaque", "transparent", "blur",
                "bloom", "post", "first", "second", "third", "final", "last", "next", "prev", "main", "sub", "multi",
                "single", "one", "two", "compute", "draw", "forward", "deferred", "ui", "high", "low", "band", "all",
                "num", "max", "min", "skip", "compile", "lint", "opt", "boarding", "season", "day")


def _not_a_stage(camel: bool = False) -> str:
    """Lookbehinds, read after a name's "pass", that fail where a word of ``_PASS_STAGES`` is the whole word before it:
    at the name's start or after a separator ("render_pass", not "prerender_pass"; "admin_pass" is not "min_pass"),
    or, in camelCase, as a hump ("lastRenderPass"). One lookbehind for each length, as ``re`` wants a fixed width;
    tried only where "pass" matched, so they cost nothing elsewhere."""
    by_length: dict = {}
    for word in _PASS_STAGES:
        by_length.setdefault(len(word), []).append(word)
    if camel:  # case-sensitive: the word in lower case after no lower-case letter, or capitalized
        return "".join(f"(?<!(?:(?<![a-z])(?:{'|'.join(ws)})|{'|'.join(w.capitalize() for w in ws)})Pass)"
                       for _, ws in sorted(by_length.items()))
    return "(?i:" + "".join(f"(?<!(?<![A-Za-z0-9])(?:{'|'.join(ws)})[_.-]pass)" for _, ws in sorted(by_length.items())) + ")"


_PASS = r"[_.-]pass" + _not_a_stage()  # db_pass, smtp-pass, mail.pass; not render_pass
# Where a bare "password = hunter2" is a credential: client and tool configs, not source code.
_CONFIG_FILES = (r"(?i)(?:^|/)(?:\.[^/]+rc|\.[^/.]+|[^/.]+|[^/]+\.(?:ini|cfg|conf|cnf|config|toml|ya?ml"
                 r"|properties|env|json|xml|txt|tfvars|hcl|nmconnection))$")
# A config file's "name = value" or "name: value" line whose name is a secret's, the value alone on its line.
_CONFIG_LINE = (r"""(?im)^[ \t]*(?:[\w.-]*?(?:password|passwd|pwd|secret_key|secret_access_key|client_secret|api_key"""
                r"""|access_key|auth_token|access_token|passphrase|pass_phrase|token|""" + _PASS + r"""|[_.-]pw)|pass|secret|psk)[ \t]*[=:][ \t]*"""
                r"""["']?([^\s"'#;][^\s"']{3,})["']?(?:[ \t]+[#;][^\n]*)?[ \t]*$""")  # "#" or ";" after blanks: a comment
_CONFIG_KEYWORDS = ["pass", "pwd", "_pw", "-pw", ".pw", "secret", "key", "token", "psk"]
# Documentation, where config lines are quoted in code blocks, and code too: there a value with brackets or a comma
# is an expression ("token = q.get(block=True)", "password = fields.Str(load_only=True)"), not a config's value.
_DOC_VALUE = r"""[^\s"'#;()\[\]{}<>,][^\s"'()\[\]{}<>,]{3,}"""
_DOC_FILES = r"(?i)\.(?:md|markdown|mdx|rst|adoc|asciidoc|org|textile|rdoc)$"
# Allowlists for values that are not a secret, shared by the rules of assignments below.
# A template or a lookup: ${X}, $(cmd), {{ x }}, {name}, %s, %(name)s.
_TEMPLATE = r"""\$[{(]|\{\{|\{[\w.]*\}|%(?:\(\w+\)|\d+\$)?[-+ #0]*\d*(?:\.\d+)?[sd]"""
# Not mixed enough to be a generated key or a chosen password: a value drawn from two or fewer of lower case,
# upper case, digits and symbols, where the separators of names (. _ -) are no symbol: a word or a name
# (Content-Security-Policy, BertTokenizer), a version (v1.2.3-beta), a design token (primary-700), a hex digest
# (hex keys have their own rule). One alternative for each pair of classes.
_NOT_MIXED = r"""^(?:[a-zA-Z._-]*|[a-z0-9._-]*|[^A-Z0-9]*|[A-Z0-9._-]*|[^a-z0-9]*|[^a-zA-Z]*)$"""
# An environment variable's token may be a UUID (CONSUL_HTTP_TOKEN, HEROKU_API_KEY): for env-secret, a UUID is mixed
# enough. Elsewhere it is not: AWS's examples pass --lock-token and "LockToken" UUIDs that guard an update, no secret.
_NOT_MIXED_ENV = r"""^(?!""" + _HEX_OR_UUID + r"""$)""" + _NOT_MIXED[1:]  # a UUID or a hex key (ENV X_TOKEN <32 hex>) is one
# A path, an address or an AWS ARN is not a password (pwd = "/home/me/app1"), nor a module's attribute or a host's port
# ("pwd": "IPython.core.magics.osm:OSMagics", "_win32typing.PyIID", "localhost:5432"). A base64 key may start with "/"
# too: a run of 38 or more base64 characters ending in "=" after it is no path (AccountKey=/RAz6...==).
_PATH = r"""^arn:aws[\w-]*:|^_?[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\.[A-Z][A-Za-z0-9_]*$|^(?:/|\./|\.\./|~/|[A-Za-z]:[\\/]|[a-z]+://)(?![A-Za-z0-9+/]{38,}={1,2}$)|^[\w.-]+(?::[\w.-]+)+$"""
# Words of example and default values (detect-secrets and gitleaks keep such lists): a value holding one is a fixture.
_STOPWORDS = ["example", "sample", "dummy", "fake", "placeholder", "changeme", "change_me", "change-me", "redacted",
              "your", "xxxx", "test", "password", "passw0rd", "p@ssw0rd", "p@ssword", "secret", "s3cr3t", "12345",
              "qwerty", "letmein", "admin", "guest", "demo", "hunter2"]
# Every prefixed-token lies in a run of 33 or more of these and reads one character past it: the rule is tried in
# those runs only (regexscan.run_finditer: 0.2 s over the standard library's 37 MB, not 2.2 s).
_TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_VALUE_ALLOWLISTS = [{"regexes": [_PLACEHOLDER, _TEMPLATE, _NOT_MIXED, _PATH]}, {"stopwords": _STOPWORDS}]
_ALLOW_HEX = [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"^(?!" + _HEX_OR_UUID + r"$)" + _NOT_MIXED[1:], _PATH]}, {"stopwords": _STOPWORDS}]  # or hex
# Names of that shape that are no secret: a form's CSRF token, a page or sync cursor, a public key. The rules match from
# the secret's word on, so these are looked for in the line (an allowlist over the line, once a line).
_NOT_SECRET_NAMES = (r"""(?i)(?:csrf|xsrf|nonce|public|next|page|cursor|continuation|sync|output|input|cache)[_.-]?(?:token|key)"""
                     r"""|(?:request|lock|idempotency|client|change)[_.-]?token""")  # AWS's idempotency tokens (UUIDs)
# A type between a name and its "=": const API_TOKEN: &str = "...", val apiKey: String = "...", let key: string = "..."
_TYPE = r"""(?:[ \t]*:[ \t]*&?[\w.<>\[\]]{1,30}[ \t]*(?==))?"""
# Names that end in a secret's word (detect-secrets' KeywordDetector denylist, gitleaks' generic keywords):
# db_password, dbPassword, API_SECRET, "client_secret", jwtSigningKey... A name that goes on (password_hint,
# tokenizer, secret_name) is not one: each rule below starts at the word and wants the operator right after it.
_SECRET_NAME = (r"""(?:passw(?:or)?d|passwd|pwd|passphrase|secret(?:[_.-]?key)?|token|apikey|credentials?"""
                r"""|(?:api|auth|access|private|signing|encryption|master|hmac|jwt)[_.-]?key|""" + _PASS
                + r"""|(?-i:(?<=[a-z])Pass""" + _not_a_stage(camel=True) + r""")|salt)""")
# PASS alone in capitals (PASS = "..."), and PHP's $pass, are passwords too; where a rule starts at the name (its literals
# then sit at the match's start: a name after up to 60 characters, as in <...PASS>, would try 61 starts at each "pass").
_SECRET_NAME_OR_PASS = _SECRET_NAME[:-1] + r"""|(?-i:(?<![\w.-])PASS|(?<=\$)pass))"""
# Allowlists ctxlib adds to gitleaks' own rules, by rule id. generic-api-key reads "," as an assignment (for
# "token, value" pairs), so code such as "r.trimmed_tokens, total=previous + appended" made "total=previous"
# a secret (entropy 3.52 > 3.5) and Lesson 2's notebook was refused. A keyword argument of plain names, the
# name not a secret's word, is code.
GITLEAKS_ALLOWLISTS = {
    "slack-webhook-url": [{"regexes": [r"(?-i:X{16}|/T0{8}/)"]}],  # docs' https://hooks.slack.com/services/T00000000/B00000000/XXXX...
    "generic-api-key": [{"regexes": [r"^(?i:(?![\w.-]*(?:pass|pwd|secret|token|key|auth|cred|salt|api))[a-z_]\w*)"
                                     r"=[A-Za-z_][A-Za-z_.]*$"]},
                        # a go.sum line, "module version h1:<sha256 in base64>=": gitleaks skips go.sum by its path, which
                        # ctxlib does not (google.golang.org/api, golang.org/x/oauth2 were refused in 47 of 50 go.sum files)
                        {"regexTarget": "line", "regexes": [r"^[\w.~/-]+ v[\w.+-]+(?:/go\.mod)? h1:[A-Za-z0-9+/]{43}=$",
                                                            # Podfile.lock's SPEC CHECKSUMS (a pod's name, its SHA-1)
                                                            r"^(?:  [A-Z][\w+]*+(?:/[\w+-]++)*+|PODFILE CHECKSUM): [0-9a-f]{40}$"]},
                        # a module's attribute (RegEnumKey = win32api.RegEnumKey; a stub's key: x25519.X25519PrivateKey); a
                        # SealedSecret's encryptedData (RSA-OAEP then AES-GCM, base64: "Ag" and the session key's length)
                        {"regexes": [r"^_?[a-z][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\.[A-Z][A-Za-z0-9_]*$"]},
                        {"regexTarget": "line", "regexes": [r"^[ \t]*[\w.-]+:[ \t]*Ag[A-D][A-Za-z0-9+/]{200,}={0,2}[ \t]*$"]},
                        # a cache's key names no secret (CACHE_KEY = "<hex digest>"), nor AWS's idempotency tokens (UUIDs)
                        {"regexTarget": "match", "regexes": [r"(?i)^[\w.-]*?(?:(?:cache|etag|idempotency|dedup|checksum|digest)[_.-]?key"
                                                             r"|(?:request|lock|idempotency|client|change)[_.-]?token)"]}],
}

EXTRA_RULES = [
    {"id": "django-secret-key",  # Django's generated keys use !@#$%^&*(-_=+), which generic-api-key refuses
     "regex": r"""\bSECRET_KEY\s*[:=]\s*[rRbBuU]?["']([^"'\s]{20,})["']""",
     "keywords": ["secret_key"], "entropy": 3.5},
    {"id": "kubeconfig-credential",  # a client key, or a user's token or password, in a kubeconfig
     "regex": r"""(?m)^[ \t-]*(?:client-key-data|token|id-token|refresh-token|password)[ \t]*:[ \t]*["']?([^\s"'#]{8,})""",
     "keywords": ["client-key-data", "token", "password"], "path": _CONFIG_FILES, "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)x{4}"]}]},
    {"id": "registry-auth",  # ~/.docker/config.json, containers/auth.json, .dockercfg: base64 "user:password"
     "regex": r'(?i)"(?:auth|identitytoken|registrytoken|password)"\s*:\s*"([^"\s]{8,})"',
     "keywords": ['"auth"', "identitytoken", "registrytoken", '"password"'],
     "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "netrc-password",  # .netrc, _netrc: "machine host login me password secret"
     "regex": r"""(?i)\b(?:machine\s+\S+|default)(?:\s+(?:login|account|port)\s+\S+)*\s+password\s+(\S{3,})""",
     "keywords": ["machine", "default"], "path": _CONFIG_FILES, "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "npm-auth-token",  # .npmrc and .yarnrc.yml, under any name
     # One line: "^\s*" ran over line ends, so each line start read every blank line after it (20,000 lines of " "
     # after "_auth" took 25 s); blanks and the registry prefix are bounded to the line, possessive.
     "regex": r"""(?im)^[ \t]*+(?:[^\s:]{0,200}:){0,8}(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)[ \t]*+[=:][ \t]*+["']?([^\s"']{6,})""",
     "keywords": ["_authtoken", "_auth", "_password", "npmauthtoken", "npmauthident"], "path": _CONFIG_FILES,
     "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "config-password",  # .pypirc, .my.cnf, .s3cfg, .boto, pip.conf, rclone.conf, application.properties
     "regex": _CONFIG_LINE, "keywords": _CONFIG_KEYWORDS, "path": _CONFIG_FILES,
     # "sk-xxxx...", "xxxx-xxxx": a template's placeholder; "3.3.2": a version (pnpm-lock.yaml's "registry-auth-token: 3.3.2")
     "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)x{4}", r"^v?\d+(?:\.\d+)+$"]}]},
    {"id": "config-password-in-docs",  # the same line quoted in documentation: a README's ```yaml block with
     # "password: ...", an .rst's ".. code-block:: ini". Prose says "token: string" or "password: required", so
     # here the value must be mixed as a generated key or chosen password is (the assignment rules' allowlists).
     "regex": _CONFIG_LINE.replace(r"""[^\s"'#;][^\s"']{3,}""", _DOC_VALUE), "keywords": _CONFIG_KEYWORDS,
     "path": _DOC_FILES, "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "redis-password",  # redis.conf: "requirepass foobared"
     "regex": r"""(?im)^[ \t]*(?:requirepass|masterauth)[ \t]+["']?([^\s"'#]{4,})""",
     "keywords": ["requirepass", "masterauth"], "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "putty-private-key",  # a .ppk file under any name
     "regex": r"""PuTTY-User-Key-File-\d+:[^\n]*\n(?s:.){0,400}?Private-Lines:\s*\d+\s*\n([A-Za-z0-9+/=\n]{20,})""",
     "keywords": ["putty-user-key-file"]},
    {"id": "aws-secret-access-key",  # the 40-character secret beside an AKIA id, in any file; after blanks in
     # "aws configure set aws_secret_access_key ..."
     "regex": r"""(?i)aws_?secret_?(?:access_?)?key["']?(?:\s*[=:]+\s*|[ \t]+)["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])""",
     "keywords": ["aws_secret", "awssecret", "aws_secret_access_key"], "entropy": 3.5},
    {"id": "password-in-url",  # postgres://app:hunter2@db/..., https://me:ghp_...@github.com (.git-credentials)
     "regex": r"""\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@"'<>()\[\]{}]{0,64}:([^\s/@"'<>()\[\]{}]{3,200})@[\w.-]+""",
     "keywords": ["://"], "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)^(?:tiger|foo|bar|baz|foobar)$"]},  # redis://:pw@host
                                         # documentation's logins: Oracle's scott:tiger (SQLAlchemy's docs), foo:bar, and a
                                         # password that is the user's name (postgres:postgres@, a local default)
                                         {"regexTarget": "match", "regexes": [r"://([^\s:/@]{1,64}):\1@"]}]},
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
     # OpenAI project, Groq, Tailscale, Supabase, Doppler, New Relic keys, Telegram bots, Discord webhooks, Azure SAS,
     # Atlassian API tokens (ATATT3..., ~190 characters since 2022), Mailgun's private keys (key- and 32 hex digits)
     "regex": r"""\b(ATATT3[\w=-]{150,}|key-[0-9a-f]{32}|whsec_[A-Za-z0-9+/]{32,}|ya29\.[\w-]{30,}|GOCSPX-[\w-]{24,}|sk-(?:proj|svcacct|admin)-[\w-]{40,}|gsk_\w{48,}"""
              r"""|r8_[A-Za-z0-9]{37}|tskey-(?:auth|api|client|scim|webhook)-[\w-]{20,}|sbp_[a-f0-9]{40}|NRAK-[A-Z0-9]{27}"""
              r"""|dp\.(?:st|sa|ct|scim|audit)\.[\w.-]{40,}|\d{8,10}:AA[\w-]{33}|discord(?:app)?\.com/api/webhooks/\d{17,20}/[\w-]{60,}"""
              r"""|sv=\d{4}-\d\d-\d\d&[^\s"'<>]{0,300}?\bsig=[\w%+/]{30,}"""
              # Third round: Firebase Cloud Messaging's legacy server key, LangSmith's keys, an AWS session token in a
              # presigned URL
              r"""|AAAA[\w-]{7}:APA91b[\w-]{120,}|lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}"""
              r"""|X-Amz-Security-Token=[\w%/+=]{100,})(?![\w-])""",
     "keywords": ["atatt3", "key-", "whsec_", "ya29.", "gocspx-", "sk-proj-", "sk-svcacct-", "sk-admin-", "gsk_", "r8_", "tskey-",
                  "sbp_", "dp.", "nrak-", ":aa", "/api/webhooks/", "sig=", ":apa91b", "lsv2_", "x-amz-security-token"],
     "entropy": 3.0},
    {"id": "authorization-header",  # "Authorization": "Bearer <token>" in code, an .http file, a client config, a JS
     # template literal (`Bearer ...`), a logged request's bytes (...HTTP/1.1\r\nAuthorization: Bearer ...: after a literal \n)
     "regex": r"""(?i)(?:\b|(?<=\\[nr]))authorization["']?\]?(?:\s*[:=,]\s*(?:["']value["'][ \t]*:[ \t]*)?|[ \t]+)[fbr]?["'`]?(?:bearer|token|basic|bot)\s+([\w.~+/=-]{20,})""",
     "keywords": ["authorization"], "entropy": 3.5, "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)your|here|x{6}|\.{3}"]}]},
    {"id": "command-line-password",  # docker login -p pw, sshpass -p pw, mysql -ppw, curl -u me:pw, wget --password=pw;
     # options within 200 characters
     "regex": r"""(?i)\b(?:(?:docker|podman|buildah|skopeo|helm\s+registry)\s+login\b[^\n;&|]{0,200}?\s(?:-p|--password)[ \t=]+"""
              r"""|sshpass\s+-p[ \t]*|mysql(?:dump|admin)?\b[^\n;&|]{0,200}?\s(?:-p|--password=)"""
              r"""|curl\b(?:(?!curl)[^\n;&|]){0,200}?\s(?:-u|--user)[ \t=]*["']?[^\s:"'$]{1,64}:"""  # (?!curl): a window ends
              r"""|wget\b(?:(?!wget)[^\n;&|]){0,200}?\s--(?:http-|ftp-)?password[ \t=]+"""  # at the next command: linear
              r"""|\s-pass(?:in|out)[ \t]+["']?pass:|\s-(?:src|dest|new)?(?:store|key)pass[ \t]+"""  # openssl; keytool
              r"""|\bredis-cli\b[^\n;&|]{0,200}?\s(?-i:-a)[ \t]+|\b(?:sqlcmd|bcp|osql|zip)\b[^\n;&|]{0,200}?\s(?-i:-P)[ \t]+"""
              r"""|\bldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn)\b[^\n;&|]{0,200}?\s(?-i:-w)[ \t]+"""
              r"""|\b(?:mongo(?:sh|dump|restore|export|import)?|az[ \t]+login)\b[^\n;&|]{0,200}?\s(?:-p|--password)[ \t=]+"""
              r"""|\b7za?\b[^\n;&|]{0,200}?\s-p(?=[^\s-])|\bcmdkey\b[^\n;&|]{0,200}?\s/pass(?:word)?:"""  # 7z -pPW; cmdkey /pass:
              r"""|\b(?:smbclient|rpcclient)\b[^\n;&|]{0,200}?\s(?:-U|--user)[ \t=]*[^\s%/"']{1,64}%"""  # smbclient -U me%pw
              r"""|\blftp\b[^\n;&|]{0,200}?\s-u[ \t]+[^\s,"']{1,64},"""  # lftp -u me,pw
              r"""|\bhtpasswd[ \t]+-[a-zA-Z]{0,3}b[a-zA-Z]{0,3}[ \t]+(?:[^\s-]\S{0,200}[ \t]+){1,2})"""  # htpasswd -b file user pw
              r"""["']?([^\s"'`$<{]{4,})""",
     "keywords": ["login", "sshpass", "mysql", "curl", "wget", "pass", "redis-cli", "sqlcmd", "bcp", "osql", "mongo", "ldap",
                  "zip", "7z", "lftp", "smbclient", "rpcclient", "cmdkey", "htpasswd"], "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE]}]},
    {"id": "private-key-block",  # a key's BEGIN line and body without its END line (cut, pasted), or SSH2's "---- BEGIN";
     # a body holds no "-", so the next "-" after it starts its END line or there is none; it is taken whole ({60,}+:
     # a shorter one meets the same "-"; trying each took 50 s on a 100 kB one-line body): linear on any text
     "regex": r"""-{4,5} ?BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}[\s\S]{0,300}?(?:^|\\n|[\s"'])"""
              r"""([A-Za-z0-9+/]{60,}+)(?![^-]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY)""", "keywords": ["private key"],
     "entropy": 4.0},  # not 4.5: a PKCS #8 key's first body line holds ~4.4 bits a character (its header)
    {"id": "secret-assignment",  # a quoted literal assigned to a secret's name, in any language: DB_PASSWORD = "Tr0ub4dor&3",
     # "password": 'x!9...', password="...", $password = '...', jwtKey := []byte("..."), define('DB_PASSWORD', '...').
     # From detect-secrets' KeywordDetector; gitleaks' generic-api-key takes [\w.=-] values only. A "," is taken
     # as the operator only after define( or setenv( and the like: elsewhere it separates the items of a list.
     # A default is a literal too: os.getenv("DB_PASSWORD", "..."), config("SECRET_KEY", default="..."),
     # process.env.API_KEY || "...", ?? "...", ENV.fetch("API_KEY", "..."). A quote may be escaped (\"), as in a notebook's
     # JSON or a string in a string. Also C's #define API_KEY "...", .NET's <add key="ApiKey" value="..."/> and a C#
     # property's initial value (string Password { get; set; } = "..."). Third round: a property set by name
     # (System.setProperty("javax.net.ssl.keyStorePassword", "..."); not .set or .put, words too common to search
     # by), a lookup's fallback after the call (System.get_env("DB_PASSWORD") || "...", getenv('X_KEY') ?: '...',
     # .get("API_KEY") or "..."), R's "<-" and "<<-", Objective-C's @"...".
     "regex": r"""(?i)(?:\#[ \t]{0,8}define[ \t]++\w{0,60}?""" + _SECRET_NAME_OR_PASS + r"""[ \t]++|\bkey[ \t]*=[ \t]*["'][\w.:-]{0,60}?"""
              + _SECRET_NAME + r"""["'][ \t]+value[ \t]*=|"""
              r"""\b(?:define|setenv|putenv|setdefault|SetEnvironmentVariable|getenv|get_env|get|env|config|fetch|setProperty)"""
              r"""[ \t]*\([ \t]*\\?["'][\w.-]{0,60}?""" + _SECRET_NAME + r"""\\?["'][ \t]*(?:,(?:[ \t]*default[ \t]*=)?"""
              r"""|\)[ \t]*(?:\|\||\?\?|\?:|or\b))|""" + _SECRET_NAME_OR_PASS
              + r"""\\?["'`]?(?:\[\w{0,8}\])?\]?""" + _TYPE + r"""(?:[ \t]*\{[ \t]*get;[^{}\n]{0,30}\})?[ \t]*(?:=|:=|:|=>|\?\?=|\|\|=|\|\||\?\?|<<?-))[ \t]*"""
              r"""(?:[\w.:\[\]]{0,40}\([ \t]*[rbu@]?\\?["'`]([^"'`\s\\]{8,200})\\?["'`]"""
              r"""(?![ \t]*(?:,[ \t]*(?:default[ \t]*=[ \t]*)?\\?["'`]|\)[ \t]*(?:\|\||\?\?|\?:|or\b)))"""  # X = getenv("X_KEY", "...")
              r"""|[rbu@]?\\?["'`]([^"'`\s\\]{8,200})\\?["'`])""",  # or getenv("X_KEY") || "...": the name is no value;
     # without a call, what follows is a dict's or a list's next item ({'PASSWORD': '...', 'HOST': 'db'})
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential", "salt"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "env-secret",  # an unquoted NAME=value whose name ends in a secret's word: .env lines, export, ENV and ARG
     # in a Dockerfile (also its "ENV NAME value" form), docker run -e, a compose or CI file's "NAME: value", and in
     # any case with "=" and no blank (an inventory's ansible_ssh_pass=..., a shell's db_password=...). The value stops
     # at a blank or at what a shell reads apart (; | & < > ( ) [ ] ,): "X: Final[int]" is a type, f(password=pw) code.
     "regex": r"""(?:(?m:^)ENV[ \t]+\w{0,60}?(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN|_KEY)[ \t]+|(?:PASSWORD|PASSWD|PASSPHRASE|PWD"""
              r"""|_PASS""" + _not_a_stage() + r"""|_PW|SECRET|TOKEN|APIKEY|_KEY|CREDENTIALS?)[ \t]*(?:[:?]?=|:)[ \t]*|(?i:passw(?:or)?d|passwd|pwd"""
              r"""|_pass""" + _not_a_stage() + r"""|secret"""
              r"""|token|api_?key)=)([^\s"'`$\\{}()\[\];|&<>,=]{8,200}={0,3})(?![^\s\\]|\\(?![nrt]))""",  # "=" only as padding: a=b=c is code
     "keywords": ["password", "passwd", "passphrase", "pwd", "_pass", "_pw", "secret", "token", "key", "credential"],
     "entropy": 2.5, "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, _NOT_MIXED_ENV, _PATH]}, {"stopwords": _STOPWORDS}]},
    {"id": "connection-string-password",  # ADO.NET, ODBC, JDBC, libpq: "Server=db;User Id=app;Password=x;",
     # "Pwd=x;", "jdbc:...?user=app&password=x", "host=db password=x dbname=y" (libpq's key=value, before another key)
     "regex": r"""(?i)(?:[;?&"'][ \t]*(?:password|pwd)[ \t]*=[ \t]*([^;&"'\s<>{}()\[\],]{4,128})(?![^;&"'\s])"""
              r"""|\s(?:password|pwd)=([^;&"'\s<>{}()\[\],]{4,128})(?=["']|[ \t]+\w{1,30}=))""",
     "keywords": ["password", "pwd"], "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"(?i)^my"]}, {"stopwords": ["your"]}]},
    {"id": "sql-password",  # a password set in SQL: CREATE USER app WITH PASSWORD '...' (PostgreSQL), IDENTIFIED BY '...'
     # (MySQL, Oracle), CREATE LOGIN x WITH PASSWORD = '...' (SQL Server), ALTER ROLE ... PASSWORD '...'
     "regex": r"""(?i)\b(?:identified[ \t]++(?:with[ \t]++\w{1,40}[ \t]++(?:by|as)|by(?:[ \t]++password)?)|password)(?:[ \t]++|[ \t]*+=[ \t]*+)N?'([^'\s\\]{4,200})'""",
     "keywords": ["identified", "password"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "plaintext-securestring",  # PowerShell: ConvertTo-SecureString "..." -AsPlainText (Microsoft's docs warn of it)
     "regex": r"""(?i)ConvertTo-SecureString[ \t]++(?:-String[ \t]++)?["']([^"'\s]{4,200})["'][ \t]++-AsPlainText""",
     "keywords": ["convertto-securestring"], "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE]}]},
    {"id": "config-secret-value",  # an unquoted value under a secret's name in any case, in a config file: a Helm
     # values.yaml's "clientSecret: ...", "apiKey = ..." (config-password knows snake_case names only). The value must
     # be mixed, as the assignment rules want: "existingSecret: postgres-credentials" names a secret, it is not one.
     "regex": r"""(?im)^[ \t]{0,40}(?:-[ \t]{1,8})?[\w.:-]{0,60}?""" + _SECRET_NAME + r"""[ \t]*+[:=][ \t]*+(?:&[\w-]{1,40}[ \t]++)?"""  # a YAML anchor
              r"""([^\s"'#;&|`$<>{}()\[\],][^\s"'`]{7,199})[ \t]*+$""",
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential"], "path": _CONFIG_FILES, "entropy": 2.5,
     "allowlists": _ALLOW_HEX + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "csv-password-column",  # a table's password column: a header names it, the first rows fill it (an export of
     # users, a seed file). Columns 1 to 8, comma, semicolon or tab; the value must be mixed, as the assignment rules want.
     "regex": "(?im)" + "|".join(
         rf"""^(?:[^,;\t\n]{{0,60}}[,;\t]){{{k}}}"?[\w .-]{{0,40}}?(?:passw(?:or)?d|passwd|pwd|secret|token|api_?key|(?:private|signing|access|auth)_?key)"?(?:[,;\t][^\n]{{0,500}})?\n"""
         rf"""(?:[^\n]{{0,500}}\n){{0,2}}(?:[^,;\t\n]{{0,60}}[,;\t]){{{k}}}"?([^,;\t\n"\s]{{8,200}})"?(?:[,;\t]|$)"""
         for k in range(8)),
     "keywords": ["pass", "pwd", "secret", "token", "key"], "path": r"(?i)\.(?:csv|tsv|psv)$", "entropy": 2.5,
     "allowlists": _ALLOW_HEX},
    {"id": "env-list-secret",  # a container's environment as a list: "- name: DB_PASSWORD" then "value: ..." (Kubernetes,
     # ECS task definitions, GitHub Actions' inputs); the name ends in a secret's word, the value is a literal
     "regex": r"""(?i)\b(?:name|key)["']?[ \t]*+:[ \t]*+["']?[\w.-]{0,60}?""" + _SECRET_NAME + r"""["']?[ \t]*+,?[ \t]*+(?:\r?\n[ \t]*+)?"""
              r"""["']?value["']?[ \t]*+:[ \t]*+["']?([^\s"'#$<>{}()\[\],][^\s"'<>]{7,199})["']?""",  # blanks possessive: a run
     # of blanks after "name: DB_PASSWORD" was split three ways, 31 s for 2,000 blanks
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "basic-auth-pair",  # a user and password given as a pair: requests' auth=("me", "..."), HTTPBasicAuth("me", "..."),
     # aiohttp's BasicAuth("me", "..."); Elasticsearch's basic_auth=(...), reqwest's .basic_auth("me", Some("...")), httr's
     # authenticate(), paho's username_pw_set(), .NET's NetworkCredential, Java's PasswordAuthentication and
     # UsernamePasswordCredentials, smtplib's and ftplib's .login("me", "..."); and after a first argument, a database
     # login's user and password: new PDO($dsn, "me", "..."), new mysqli("db", "me", "..."), mysqli_connect, DriverManager.getConnection.
     # The user up to 200 characters: an OAuth client's id is one (PayPal's are 80)
     # Read from "auth" on (auth=, basic_auth=, HTTPBasicAuth(, authenticate(, PasswordAuthentication(): one literal to
     # search by, each place tried once
     "regex": r"""(?:(?i:auth)(?:[ \t]*+=[ \t]*+[(\[]|(?i:entication|enticate)?[ \t]*+\()|(?:Network|UsernamePassword)Credentials?[ \t]*+\("""
              r"""|(?:username_pw_set|(?<=\.)login)[ \t]*+\("""
              r"""|(?:\b(?:PDO|mysqli|mysqli_connect)|\bDriverManager\.getConnection)[ \t]*+\([ \t]*+"""
              r"""(?:["'][^"'\n]{0,200}["']|[\w$.>\[\]-]{1,100})[ \t]*+,)"""
              r"""[ \t]*+[rbu]?["'][^"'\n]{1,200}["'][ \t]*+,[ \t]*+(?:Some\([ \t]*+)?[rbu@]?["']([^"'\s]{4,200})["']""",
     "keywords": ["auth", "_pw_set", "credential", "login", "pdo", "mysql", "getconnection"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "hex-secret",  # a hex key named as one: SECRET_KEY = "9f8e...", api_secret: 3f2a..., hmacKey := []byte("..."), Rails' secret_key_base,
     # bytes.fromhex('...'); 32 hex digits (16 bytes) or more, or a UUID. A lowercase hex digest has too little entropy for
     # generic-api-key when it is short, and is no secret under a name like checksum or commit (not matched here). Sixth
     # sweep: vendors' names (DD_APP_KEY, *_LICENSE_KEY, *_PAT) and syntax (k8s env lists, ?? "...") of secretnames.py;
     # ninth: 30 hex digits too (Plaid's secrets, "secret": 30 hex in Plaid's quickstart)
     "regex": r"""(?i)(?:""" + _SECRET_NAME + r"""|pepper|secret_key_base|""" + _MORE_KEY_NAMES + ")" + _TO_VALUE
              + r"""(?:[\w.:\[\]]{0,40}\([ \t]*)?[rbu@]?["'`]?(?:0x)?(""" + _HEX_OR_UUID + r"""|(?-i:[0-9a-f]{30,31}))(?![\w-])""",
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential", "pepper", "pat"], "entropy": 3.0,
     # CircleCI's badge URL for a private project carries a status-only token, meant to be shown in a README
     "allowlists": [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES, r"(?i)[?&]circle-token=[0-9a-f]{40}\b"]},
                    {"regexes": [r"^[0-9-]+$"]}]},  # decimal digits only: a sequence number (AWS logs' nextSequenceToken)
    {"id": "pgpass-format",  # a .pgpass line under any name: host:port:database:user:password, the host a name
     # (letter first), an IPv4 address or "*", the port a number or "*" (PostgreSQL's documentation, "The Password
     # File"); the line holds nothing else, or an echo of it. Anchored at a line's start, possessive, tried only on the
     # lines that hold ":<port>:" (its "lines"): ~0.4 s over the standard library's 37 MB before that.
     "regex": r"""(?m)^[ \t]*+(?:(?:echo|printf)[ \t]++)?["']?(?:\*|[A-Za-z][\w-]*+(?:\.[\w-]++)*+|\d{1,3}(?:\.\d{1,3}){3}):(?:\d{1,5}|\*)"""
              r""":(?:\*|[\d.$-]*+[A-Za-z_][\w.$-]*+):(?:\*|[\d.@$-]*+[A-Za-z_][\w.@$-]*+)"""
              r""":((?:[^:\s\\"']|\\[:\\]){4,128})(?:[ \t]*$|["'])""",  # echo '...' >> ~/.pgpass
     "keywords": [], "lines": r":(?:\d{1,5}|\*):", "allowlists": _VALUE_ALLOWLISTS},  # a mixed password: "ERROR:404:main:handler:timeout" is a log line
    {"id": "prefixed-token",  # a token in the shape vendors now give them (GitHub's 2021 format, then npm, PyPI, Stripe,
     # DigitalOcean...): a short prefix, maybe a second part (live, v1), a separator, then 30 or more random
     # letters and digits of both cases. For a vendor no rule knows yet; a body of one case (hex, ULIDs) is not taken.
     # ASCII only, as its runs are ([0-9], not \d, which takes "٠"): a match outside a run would be missed.
     "regex": r"""(?<![\w+/=.-])([a-z][a-z0-9]{1,9}|[A-Z][A-Z0-9]{1,9})(?:[_.-](?:[a-z]{1,8}|[A-Z]{1,8}|v[0-9]{1,2}|[0-9]{1,2}))?"""
              r"""[_.-]([A-Za-z0-9]{30,200}+)(?![\w+/=-]|\.\w)""",
     "keywords": [], "secretGroup": 2, "entropy": 4.0, "runs": [_TOKEN_CHARS, 33, 2],  # regexscan.run_finditer
     "allowlists": [{"regexes": [r"^(?:[^0-9]*|[^a-z]*|[^A-Z]*)$",  # a body without digits or of one case
                                 r"^(?:[A-Z]*+[a-z]{2,}+|[A-Z]++|\d++)++$",  # or words: tbl_CustomerOrderHistory2024,
                                 # or words with a two-letter one when four runs of 4 small letters show a name's words:
                                 # this.handleSocks5AuthenticationNoAuthHandshakeResponse; AWS docs' ids end in EXAMPLE
                                 r"^(?=(?:[A-Za-z0-9]*?[a-z]{4}){4})(?:[A-Z]*+[a-z]{2,}+|(?<![A-Z])[A-Z][a-z](?![a-z])|[A-Z]++|\d++)++$",
                                 r"(?-i:EXAMPLE)"]},
                    {"regexTarget": "match", "regexes": [r"(?i)^(?:sha\d*|md5|pk|integrity|data)[_.-]"]}]},  # digests;
     # publishable keys (pk_live_...) are public by design
    {"id": "option-secret",  # a secret given to a command line option by its name, after a blank: vercel --token ...,
     # dotnet nuget push --api-key ..., Publish-Module -NuGetApiKey ..., --client-secret ... (with "=", env-secret's);
     # the value mixed, as the assignment rules want: a usage line's "--token TOKEN" is no value. Words joined by "-" before
     # the secret's (airflow's --conn-password, --client-secret); a "%" in the value, not first (%VAR% is a lookup)
     "regex": r"""(?i)[ \t]--?(?:[a-z0-9]{1,20}-){0,3}[a-z0-9]{0,20}?(?:password|passwd|passphrase|token|api-?key|secret"""
              r"""|secret-key|access-key)[ \t]+["']?([^\s"'`$<>{}()\[\]%|;&,=][^\s"'`$<>{}()\[\]|;&,=]{7,199})["']?(?=\s|$)""",
     "keywords": ["password", "passwd", "passphrase", "token", "apikey", "api-key", "secret", "access-key"], "entropy": 3.0,
     # a pager's --next-token (aws ... --next-token ...) is no secret: _NOT_SECRET_NAMES over the line
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "gradle-secret",  # a Gradle build's Groovy DSL, where a property is set by a call without "=": an Android
     # signingConfig's storePassword '...', and buildConfigField "String", "API_KEY", "\"...\"" (a key built into the app)
     "regex": r"""(?im)^[ \t]*(?:\w{0,60}?""" + _SECRET_NAME + r"""[ \t]+|buildConfigField[ \t(]{1,8}["']\w{1,30}["'][ \t]*,[ \t]*"""
              r"""["']\w{0,60}?""" + _SECRET_NAME + r"""["'][ \t]*,[ \t]*)["'](?:\\["'])?([^\s"'\\]{8,200})(?:\\["'])?["']""",
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential"], "path": r"(?i)\.gradle(?:\.kts)?$", "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "named-secret-element",  # an element whose name attribute names a secret, the value its text: Android's
     # res/values strings (<string name="api_key">...), Hibernate's <property name="connection.password">, Jetty's
     # <Set name="password">; and a plist's <key>APIClientSecret</key><string>...</string> (an iOS app's Info.plist)
     "regex": r"""(?i)(?:\bname[ \t]*=[ \t]*["'][\w.:-]{0,60}?""" + _SECRET_NAME + r"""["'][^<>"'\n]{0,100}>|<key>[\w. :-]{0,60}?"""
              + _SECRET_NAME + r"""</key>\s{0,100}<string>)[ \t]*([^<>\s]{8,200})[ \t]*</""",
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential", "salt"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexes": [r"^@"]}, {"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},  # @string/x
    {"id": "maven-server-password",  # ~/.m2/settings.xml
     "regex": r"""<(?:password|passphrase|privateKey)>([^<$]{4,})</""",
     "keywords": ["<password>", "<passphrase>"], "allowlists": [{"regexes": [r"^\{.*\}$", _PLACEHOLDER]}]},
    {"id": "xml-secret-element",  # an element named as a secret: <keystorePassword>, <db.password>, <apiToken>; the
     # value mixed, as the assignment rules want (Maven's {encrypted} form and ${property} are lookups); or in a CDATA section
     "regex": r"""(?i)<[\w.:-]{0,60}?""" + _SECRET_NAME + r""">[ \t]*+(?:([^<>\s]{8,200})|<!\[CDATA\[([^\s\]]{8,200})\]\]>)[ \t]*+</""",
     "keywords": ["pass", "pwd", "secret", "token", "key", "credential"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexes": [r"^\{.*\}$"]}, {"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
]




# The end most of gitleaks' rules require after a token (152 of 237): a quote, a space, ";", an escaped \n or \r, or the
# line's end. A token in a notebook's JSON is followed by \" (42 of 149 kinds were missed in a notebook cell and found
# in the same line of a .py file), in a URL by "&", in code by ")" or ",", in XML by "<". ``wider_end`` lets a token end
# at any of those too: a backslash (any escape), "&", ",", "|", "<", ">", ")", "]", "}", ":" or "@" (a token as a URL's
# user or password). Not for generic-api-key, whose value is any run of [\w.=-]: there "key_func," and "private_key:
# ed25519.Ed25519PrivateKey," would be secrets.
GITLEAKS_END = r"""(?:[\x60'"\s;]|\\[nr]|$)"""
WIDER_END = r"""(?:[\x60'"\s;\\&,|<>)\]}:@]|$)"""


def wider_end(rule_id: str, regex: str) -> str:
    """gitleaks' ``regex`` of rule ``rule_id`` with its token end (``GITLEAKS_END``) widened to ``WIDER_END``;
    ``generic-api-key`` and rules without that end unchanged."""
    return regex if rule_id == "generic-api-key" else regex.replace(GITLEAKS_END, WIDER_END)


def linear_gitleaks_regex(rule_id: str, regex: str) -> str:
    """gitleaks' ``regex`` of rule ``rule_id``, rewritten where Python's engine would be quadratic.

    gitleaks' ``curl-auth-header`` and ``curl-auth-user`` let ``.*`` run from every ``curl`` to the end of
    its line (and up to five lines more) before looking for ``-H`` or ``-u``. Go's engine is linear; Python's
    tries that run again from every ``curl``, so n of them on one line cost n times the line (40 kB of
    ``curl `` took 17 s). A match whose run passes another ``curl`` is also a match from that later one, with
    the same option and secret, so the run may stop at the next ``curl`` that is a word, as the rule's own
    ``\bcurl\b`` is (``xcurl`` is no command): the same verdicts, in linear time.
    Other rules are returned as they are.
    """
    if rule_id not in ("curl-auth-header", "curl-auth-user"):
        return regex
    return regex.replace(".*?", r"(?:(?!\bcurl\b).)*?").replace(".*", r"(?:(?!\bcurl\b).)*")
