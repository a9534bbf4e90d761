"""Credentials in the formats of particular tools: rules ctxlib adds after ``secretrules.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". ``secretrules.py`` holds the rules for kinds of secret (an assignment,
an unquoted ``NAME=value``, a command line's option, a vendor's token); this module holds what a third red-team
round found in the shapes of particular tools and formats, each rule with where its shape comes from: rows of a
table (an SQL ``INSERT``, a ``pg_dump``'s ``COPY``), keys as data (a private JWK, a Tor or BIP32 key, a NATS
seed, a wallet's hex key), a client's saved auth (Postman, Kaggle, Composer), a build or cluster tool's own
syntax (Terraform's variable default, Hadoop's properties, cloud-init's ``chpasswd``, HAProxy, Postfix,
fetchmail and msmtp), a secret handed over at a prompt or a pipe (``expect``/``send``, ``echo ... |
docker login --password-stdin``, ``| chpasswd``), a JWT's signing key in a call, a webhook's URL, an Oracle
``user/password@`` login. A fourth round added Azure's keys outside a connection string, tokens known by their own
shape (Discord bots', Docker Hub's, NuGet's, cloudflared's, WireGuard's keys), servers' password files (Redis ACL,
PgBouncer, Dovecot, Mosquitto, htpasswd under another name), Windows' and FileZilla's saved passwords, signify's
secret keys, a Go MySQL DSN; its rules for commands and calls are in ``secretcalls.py``. ``credentials.py`` runs
these after ``secretrules.EXTRA_RULES``, so a file both catch is still reported under the older rule.

The allowlists are ``secretrules``' (a placeholder, a template, a value not mixed enough to be chosen). Every
expression is linear in the text: bounded or possessive repeats, a literal to start from
(``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretrules import (_ALLOW_HEX, _CONFIG_FILES, _NOT_SECRET_NAMES, _PLACEHOLDER, _SECRET_NAME, _TEMPLATE, _TOKEN_CHARS,
                          _VALUE_ALLOWLISTS)

_LOOKUPS = [{"regexes": [_PLACEHOLDER, _TEMPLATE]}]  # what command-line-password allows: a variable, a template
_SECRET_KEYWORDS = ["pass", "pwd", "secret", "token", "key", "credential", "salt"]  # the words of _SECRET_NAME
_BLANK = r"[ \t\r\n]{0,20}"  # between a JSON or SQL list's items, over a line break
# A password's hash as its scheme writes it: Werkzeug's pbkdf2:sha256:..., Django's pbkdf2_sha256$..., argon2, scrypt,
# crypt's $id$..., LDAP's {SSHA}...
_HASHED = r"""(?i)^(?:(?:pbkdf2|scrypt|argon2(?:id|i|d)?|bcrypt|sha\d{0,3}|md5)[:_$]|\$\w{1,10}\$|\{(?:s?sha\d{0,3}|s?md5|crypt|bcrypt)\})"""


def _sql_rows(most: int = 8) -> str:
    """INSERT INTO t (c1, ..., password, ...) VALUES (v1, ..., '...'), and pg_dump's COPY t (c1, ..., password) FROM
    stdin; with its first row, tab-separated: one alternative for each of the first ``most`` places of the column,
    after the statement's start, read once."""
    column = _BLANK + r"""["`\[]?[\w.-]{1,60}["`\]]?""" + _BLANK + ","
    value = _BLANK + r"""(?:N?'(?:[^'\n]|''){0,200}'|\w{1,30}\(\)|[^,'()\n]{1,60}),"""
    password = r"""["`\[]?(?:passw(?:or)?d|passwd|pwd|pass|user_?password|plain_?password)["`\]]?"""
    inserts = [rf"""(?:{column}){{{k}}}{_BLANK}{password}{_BLANK}[,)][^;]{{0,500}}?\bvalues{_BLANK}\((?:{value}){{{k}}}"""
               rf"""{_BLANK}N?'([^'\s]{{4,200}})'""" for k in range(most)]
    copies = [rf"""(?:[ \t]{{0,4}}"?[\w.-]{{1,60}}"?[ \t]{{0,4}},){{{k}}}[ \t]{{0,4}}{password}[ \t]{{0,4}}[,)][^\n]{{0,500}}?"""
              rf"""\b(?-i:FROM)[ \t]++stdin;[ \t]*+\r?\n(?:[^\t\n]{{0,200}}\t){{{k}}}([^\t\n]{{4,200}})(?:\t|\r?\n)""" for k in range(most)]
    return (r"""(?im)\binsert[ \t]++into[ \t]++[\w."`\[\]]{1,100}[ \t]*+\((?:""" + "|".join(inserts)
            + r""")|^(?-i:COPY)[ \t]++[\w."]{1,100}[ \t]*+\((?:""" + "|".join(copies) + ")")  # pg_dump's capitals: not copy()


FORMAT_RULES = [
    {"id": "sql-row-password",  # a users table's rows with their passwords: a seed file's INSERT, a pg_dump's COPY block.
     # The value mixed, as the assignment rules want; a password's hash is what such a column should hold, not a password
     # (Flask's tutorial seeds "pbkdf2:sha256:50000$...", Django "pbkdf2_sha256$...", crypt "$2b$...")
     "regex": _sql_rows(), "keywords": ["pass", "pwd"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS + [{"regexes": [_HASHED]}]},
    {"id": "jwk-private-key",  # a JSON Web Key with its private part (RFC 7517, 7518): "d" of an RSA, EC or OKP key,
     # "k" of a symmetric ("oct") one, before or after "kty" (jwcrypto sorts the members: "d" first)
     "regex": r"""["']?kty["']?[ \t]*+:[ \t]*+["'](?:RSA|EC|OKP)["'][^{}]{0,3000}?["']d["'][ \t]*+:[ \t]*+["']([\w-]{20,}+)["']"""
              r"""|(?:"d"|'d')[ \t]*+:[ \t]*+["']([\w-]{20,}+)["'][^{}]{0,1500}?["']?kty["']?[ \t]*+:[ \t]*+["'](?:RSA|EC|OKP)["']"""
              r"""|["']?kty["']?[ \t]*+:[ \t]*+["']oct["'][^{}]{0,1000}?["']k["'][ \t]*+:[ \t]*+["']([\w-]{16,}+)["']"""
              r"""|(?:"k"|'k')[ \t]*+:[ \t]*+["']([\w-]{16,}+)["'][^{}]{0,1000}?["']?kty["']?[ \t]*+:[ \t]*+["']oct["']""",
     "keywords": ["kty"], "entropy": 3.5, "allowlists": [{"regexes": [_PLACEHOLDER]}]},
    {"id": "api-client-credential",  # a client's saved auth: a Postman collection's "apikey" block (the entry whose "key"
     # is "value"), a kaggle.json ({"username": ..., "key": 32 hex}, also written from a notebook), Composer's
     # auth.json ("bearer", "gitlab-token", "gitlab-oauth", "github-oauth": {"host": "token"}). Keywords with a character
     # the scan already searches for (literalset's anchors: "kaggle", not "username"), as the other rules' are
     "regex": r"""\\?"apikey\\?\"""" + _BLANK + ":" + _BLANK + r"""\[[^\]]{0,400}?\{""" + _BLANK + r"""\\?"key\\?\"""" + _BLANK + ":" + _BLANK
              + r"""\\?"value\\?\"""" + _BLANK + "," + _BLANK + r"""\\?"value\\?\"""" + _BLANK + ":" + _BLANK + r"""\\?"([^"\\\s]{8,200})\\?\""""
              r"""|\\?"username\\?"[ \t]{0,20}:[ \t]{0,20}\\?"[^"\\\n]{1,64}\\?\"""" + _BLANK + "," + _BLANK
              + r"""\\?"key\\?"[ \t]{0,20}:[ \t]{0,20}\\?"([0-9a-f]{32})\\?\""""
              r"""|"(?:bearer|gitlab-token|gitlab-oauth|github-oauth)\"""" + _BLANK + ":" + _BLANK + r"""\{""" + _BLANK
              + r"""\"[\w.-]{1,100}\"""" + _BLANK + ":" + _BLANK + r""""([^"\s]{16,200})\"""",
     "keywords": ["apikey", "kaggle", "bearer", "gitlab-token", "gitlab-oauth", "github-oauth"], "entropy": 3.0,
     "allowlists": _LOOKUPS + [{"stopwords": ["example", "your", "xxxx", "placeholder", "redacted"]}]},
    {"id": "terraform-variable-default",  # variable "db_password" { sensitive = true  default = "..." }: a secret's
     # default in a .tf file (Terraform's docs: never give a sensitive variable one)
     "regex": r"""(?i)\bvariable[ \t]++"[\w-]{0,60}?(?:""" + _SECRET_NAME + r"""|_key)"[ \t]*+\{[^{}]{0,500}?\bdefault[ \t]*+=[ \t]*+"([^"\s$]{8,200})\"""",
     "keywords": _SECRET_KEYWORDS, "path": r"(?i)\.tf$", "entropy": 2.5, "allowlists": _ALLOW_HEX},  # a hex key too
    {"id": "hadoop-secret-property",  # Hadoop's and Hive's XML properties (core-site.xml, hive-site.xml): <name>fs.s3a.secret.key
     # </name> then <value>...</value>, javax.jdo.option.ConnectionPassword; and an Azure storage account's key
     # (64 bytes, 88 base64 characters) under fs.azure.account.key.<account>... in any syntax (spark.conf.set, a .conf)
     "regex": r"""(?i)<name>[ \t]*+[\w.:-]{0,100}?""" + _SECRET_NAME + r"""[ \t]*+</name>\s{0,100}<value>[ \t]*+([^<>\s]{8,200})[ \t]*+</value>"""
              r"""|fs\.azure\.account\.key\.[\w.-]{1,100}?(?:["']?[ \t]*+[,=:][ \t]*+["']?|[ \t]*+</name>\s{0,100}<value>[ \t]*+)"""
              r"""([A-Za-z0-9+/]{86}==)""",
     "keywords": ["<name>", "fs.azure.account.key"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "cloud-init-password",  # cloud-init's user-data: chpasswd: then list: | and "user:password" lines
     "regex": r"""(?m)^[ \t]{0,40}chpasswd[ \t]*+:[^\n]{0,100}\n(?:[ \t]++[^\n]{0,200}\n){0,8}?[ \t]++list[ \t]*+:[ \t]*+\|?[ \t]*+\n"""
              r"""[ \t]++(?:-[ \t]++)?[\w.-]{1,32}:(\S{4,200})""",
     "keywords": ["chpasswd"], "allowlists": _LOOKUPS + [{"regexes": [r"^RANDOM$"]}]},
    {"id": "piped-password",  # a password echoed into a command that reads it: echo "..." | docker login --password-stdin
     # (podman, helm registry, any --password-stdin or --token-stdin; gh auth login --with-token), echo 'user:...' | chpasswd
     # (a Vagrantfile's inline provisioner), echo ... | passwd --stdin user
     "regex": r"""(?i)\b(?:echo|printf)[ \t]++(?:-[a-z]{1,3}[ \t]++)?["']?(?:[\w.@-]{1,64}:)?([^\s"'`$<>{}|;&:\\]{4,200})(?:\\n)?["']?"""
              r"""[ \t]*+\|[ \t]*+(?:sudo[ \t]++(?-i:(?:-[a-zA-Z]{1,3}[ \t]++){0,3}-[a-zA-Z]{0,3}S)\b|(?:sudo[ \t]++)?(?:chpasswd\b"""
              r"""|passwd[ \t]++--stdin|[^\n|;&]{0,200}?--(?:password-stdin|token-stdin|with-token)\b"""
              r"""|gcloud[ \t]++secrets\b[^\n|;&]{0,200}?--data-file[ \t=]++-(?![\w-])))""",
     # fourth round: echo ... | sudo -S (sudo reads the password from its input), | gcloud secrets ... --data-file=-
     "keywords": ["-stdin", "chpasswd", "with-token", "sudo", "--data-file"], "allowlists": _LOOKUPS},
    {"id": "prompt-answer",  # a password typed at its prompt by a script: Tcl expect's expect "password:" then send "...\r",
     # pexpect's child.expect("Password:") then child.sendline("...")
     "regex": r"""(?i)\bexpect\b[^\n]{0,30}?pass(?:word|phrase)?[^\n]{0,12}?(?:\n[ \t]*+|\{[ \t]*+)(?:[\w.]{1,40}\.)?send(?:line)?\b"""
              r"""[ \t(]{0,4}(?:--[ \t]++)?[rbu]?["']([^"'\s$\\]{4,200})(?:\\[rn])?["']""",
     "keywords": ["expect"], "allowlists": _LOOKUPS},
    {"id": "jwt-signing-key",  # a JWT's HMAC key written into the call: jwt.sign(payload, '...'), jwt.encode(payload,
     # "...", algorithm="HS256"), jwt.verify / jwt.decode, java-jwt's Algorithm.HMAC256("..."), jjwt's hmacShaKeyFor("...")
     "regex": r"""\b(?:jwt|jsonwebtoken|JWT|jose|Jwts?)\.(?:sign|verify|encode|decode)[ \t]*+\([ \t]*+(?:\{[^{}\n]{0,300}\}"""
              r"""|[\w.$\[\]]{1,100}(?:\([^()\n]{0,100}\))?)[ \t]*+,[ \t]*+[rbu]?["']([^"'\s]{8,200})["']"""
              r"""|\bAlgorithm\.HMAC(?:256|384|512)[ \t]*+\([ \t]*+"([^"\s]{8,200})"|\bhmacShaKeyFor[ \t]*+\([ \t]*+"([^"\s]{8,200})\"""",
     "keywords": ["jwt", "hmac"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "tool-command-password",  # a particular tool's command that takes a password or token as an argument:
     # openssl enc -k pw; net use Z: \\host\share pw /user:... (not "*" or an option); rabbitmqctl add_user me pw; composer
     # config http-basic.host me pw (bearer.host, gitlab-token.host, github-oauth.host: a token); bundle config host me:pw;
     # cargo login token; mix hex.* --key key; npm config set //registry/:_authToken token; redis-server --requirepass pw
     # (a compose file's command); rclone config create name s3 ... secret_access_key key. Commands are written with one
     # space between their words, and each alternative starts with a keyword: literals the scan already has the places of
     "regex": r"""(?i)(?:\bopenssl\b[^\n;&|]{0,200}?\s(?-i:-k)[ \t]++|\bnet use\b[^\n;&|]{0,100}?[ \t]\\\\\S{1,200}[ \t]++(?=[^\s/*])"""
              r"""|\brabbitmqctl\b[^\n;&|]{0,100}?\s(?:add_user|change_password)[ \t]++\S{1,64}[ \t]++"""
              r"""|\bcomposer\b (?:global )?config\b[^\n;&|]{0,100}?\s(?:http-basic\.\S{1,200}[ \t]++\S{1,64}"""
              r"""|(?:bearer|gitlab-token|gitlab-oauth|github-oauth)\.\S{1,200})[ \t]++"""
              r"""|\bbundle config\b[^\n;&|]{0,100}?\s[\w.-]{1,100}\.[a-z]{2,10}/?[ \t]++[^\s:"']{1,64}:"""
              r"""|\bcargo login(?:[ \t]++--registry[ \t=]{1,4}\S{1,100})?[ \t]++|\bmix hex\.\w{1,30}\b[^\n;&|]{0,200}?\s--key[ \t=]{1,4}"""
              r"""|\b(?:npm|pnpm|yarn) \bconfig set[ \t]++\S{0,200}?(?:_authToken|_auth|_password|npmAuthToken)[ \t]++"""
              r"""|\s--(?:requirepass|masterauth)[ \t]++|\brclone\b config (?:create|update)\b[^\n;&|]{0,300}?\s(?:secret_access_key|pass"""
              r"""|password|client_secret|token|key|account_key|sas_url)[ \t]++)["']?([^\s"'`$<{]{4,200})""",
     "keywords": ["openssl", "/user:", "rabbitmqctl", "composer", "bundle config", "cargo login", "mix hex.", "config set",
                  "requirepass", "masterauth", "rclone"], "allowlists": _LOOKUPS},
    {"id": "mount-option-password",  # mount -t cifs ... -o username=me,password=...,vers=3.0; an fstab line's cifs options
     "regex": r"""(?i)(?:\s-o[ \t]++|\bcifs[ \t]++)(?:[^\s,"']{1,100},){0,10}(?:password|pass)=([^\s,"'$]{4,200})""",
     "keywords": ["password=", "pass="], "allowlists": _LOOKUPS},
    {"id": "config-password-blank",  # "password value" with a blank, no "=": msmtp's msmtprc, a line alone; fetchmail's
     # .fetchmailrc: user "me" there with password "..."
     "regex": r"""(?im)^[ \t]*+(?:password|passwd|passphrase|pass)[ \t]++["']?([^\s"'#;=:][^\s"']{3,199})["']?[ \t]*+$"""
              r"""|\buser(?:name)?[ \t]++(?:"[^"\n]{1,100}"|[^\s"]{1,100})(?:[ \t]++there)?(?:[ \t]++(?:with|has|is))?[ \t]++pass(?:word)?[ \t]++"""
              r"""(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|([^\s"']{4,200}))""",
     "keywords": ["pass"], "path": _CONFIG_FILES, "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "insecure-password",  # HAProxy's userlist: user admin insecure-password ... (a plain-text password, by name)
     "regex": r"""\binsecure-password[ \t]++(\S{4,200})""", "keywords": ["insecure-password"], "allowlists": _LOOKUPS},
    {"id": "sasl-passwd-line",  # Postfix's sasl_passwd under any name: [smtp.host]:587 user:password (a relay's name holds "smtp")
     "regex": r"""(?m)^\[[\w.-]{1,200}\]:\d{1,5}[ \t]++[^\s:]{1,200}:(\S{4,200})[ \t]*+$""", "keywords": ["smtp"],
     "allowlists": _LOOKUPS},
    {"id": "lua-long-string-secret",  # Lua's long bracket string: password = [[...]], api_key = [==[...]==] (one "=" at most)
     "regex": r"""(?i)""" + _SECRET_NAME + r"""[ \t]*+=[ \t]*+\[=?\[([^\]\s]{8,200})\]=?\]""",
     "keywords": _SECRET_KEYWORDS, "path": r"(?i)\.lua$", "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "laravel-app-key",  # Laravel's APP_KEY, "base64:" and 32 bytes: in .env, or as env('APP_KEY', '...')'s default
     # in config/app.php ('key' => ...)
     "regex": r"""\b(?:APP_KEY|APP_PREVIOUS_KEYS|key)\b[^\n]{0,80}?\bbase64:([A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])""",
     "keywords": ["base64:"], "entropy": 4.0},
    {"id": "webhook-url",  # a webhook's URL is its credential: Mattermost's incoming hooks (/hooks/ and a 26-character id),
     # IFTTT's Maker key, Zapier's catch hooks (Slack's, Discord's and Teams' are gitleaks' or service-token's)
     "regex": r"""https?://[\w.-]{1,100}/hooks/([a-z0-9]{26})(?![\w-])|\bmaker\.ifttt\.com/(?:trigger/[\w-]{1,100}/(?:json/)?with/)?key/"""
              r"""([\w-]{20,64})|\bhooks\.zapier\.com/hooks/catch/(\d{3,12}/[a-z0-9]{5,12})""",
     "keywords": ["/hooks/", "maker.ifttt.com"], "entropy": 3.0},
    {"id": "private-key-text",  # private keys written as text, not PEM: a Tor v3 onion service's key (ED25519-V3:...), a
     # BIP32 extended private key (xprv, tprv...), a NATS nkey seed (S and the key's kind, base32, after its BEGIN line or
     # a name "seed"), an Ethereum key in a Hardhat or Truffle network's accounts: ["0x..."] or given to ethers' Wallet,
     # viem's privateKeyToAccount
     "regex": r"""\bED25519-V3:([A-Za-z0-9+/]{86}==)|\b([xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{107,108})(?!\w)"""
              r"""|NKEY SEED-{5,6}[ \t]*+\r?\n(S[UACNOX][A-Z2-7]{56})\b|(?i:seed)["']?[ \t]{0,4}[=:][ \t]{0,4}["']?(S[UACNOX][A-Z2-7]{56})\b"""
              r"""|\baccounts["']?[ \t]*+:[ \t]*+\[[ \t]*+["'](?:0x)?([0-9a-fA-F]{64})["']"""
              r"""|(?:\bWallet|\bprivateKeyToAccount|\bfromPrivateKey|\bAccount\.from_key)[ \t]*+\([ \t]*+["'](?:0x)?"""
              r"""([0-9a-fA-F]{64})["']""",
     "keywords": ["ed25519-", "xprv", "tprv", "yprv", "zprv", "nkey seed", "_seed", "accounts", "wallet", "keytoaccount", "fromp", "from_key"],
     "entropy": 3.0},
    {"id": "vendor-client-secret",  # a client built with its secret, where the vendor's name is in the file: Twilio's
     # Client("AC...", auth token: 32 hex), Pusher's { secret: 20 hex }
     "regex": r"""\bAC[0-9a-f]{32}["']?[ \t]*+,[ \t]*+["']([0-9a-f]{32})["']|\bsecret["']?[ \t]*+:[ \t]*+["']([0-9a-f]{20})["']""",
     "keywords": ["twilio", "pusher"], "entropy": 3.0},
    {"id": "db-login-string",  # a database login as user/password@: Oracle's JDBC thin URL (jdbc:oracle:thin:scott/...@//db),
     # sqlplus, rman, expdp and the like, SQL*Plus' CONNECT; and ODBC's braced value, PWD={...}
     "regex": r"""(?i)\bjdbc:oracle:(?:thin|oci\d?|kprb):[\w$#.]{1,64}/([^@\s"'/;]{3,200})@"""
              r"""|\b(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)(?:\.exe)?(?:[ \t]++-\w{1,20}){0,4}[ \t]++["']?[\w$#.]{1,64}/([^@\s"'/]{3,200})@"""
              r"""|(?m:^)connect [ \t]*+[\w$#.]{1,64}/([^@\s"'/;]{3,200})@|[;?&"'][ \t]{0,8}(?:password=|pwd=)\{([^{}\n]{4,128})\}"""
              r"""|(?m:^)conn [ \t]*+[\w$#.]{1,64}/([^@\s"'/;]{3,200})@""",  # apart: "connect |conn " would be read as "conn"
     "keywords": ["oracle", "sqlplus", "rman target", "expdp", "impdp", "sqlldr", "dgmgrl", "connect ", "pwd={", "password={"],
     "allowlists": _VALUE_ALLOWLISTS},
    # A fourth red-team round (121 fakes, 72 of them packed before): cloud keys outside a connection string, tokens by
    # their own shape, servers' password files
    {"id": "azure-shared-key",  # Azure's keys where gitleaks' generic rule does not look: az storage's --account-key (64
     # bytes, 88 base64 characters), a Service Bus or Event Hubs SAS token (Authorization: SharedAccessSignature sr=...
     # &sig=...; Microsoft's "Service Bus access control with Shared Access Signatures")
     "regex": r"""--account-key[ \t=]{1,4}["']?([A-Za-z0-9+/]{86}==)|\bSharedAccessSignature[ \t]++(?:[\w%.-]{1,20}=[^\s&"']{0,300}&){0,6}?"""
              r"""sig=([\w%+/]{30,120}+)""",
     "keywords": ["--account-key", "sharedaccesssignature"], "entropy": 3.0, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "azure-connection-key",  # the key of an Azure connection string (Storage, Cosmos DB, Service Bus, Event Hubs, IoT
     # Hub): AccountKey= or SharedAccessKey=, base64 of 64 bytes (88 characters) or 32 (44). gitleaks' generic rule misses
     # one whose random letters hold one of its stop words ("task", "para"). Azurite's well-known development key is public
     "regex": r"""(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{86}==|[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])""",
     "keywords": ["accountkey=", "sharedaccesskey="], "entropy": 3.0,
     "allowlists": [{"stopwords": ["Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="]}]},
    {"id": "ibm-cloud-api-key",  # an IBM Cloud API key in the service credentials JSON the console hands out ("apikey": 44
     # characters beside "iam_apikey_description"): generic-api-key misses one whose letters hold a stop word
     "regex": r"""["']apikey["'][ \t]*+:[ \t]*+["']([A-Za-z0-9_-]{44})["']""", "keywords": ['"apikey"', "'apikey'"],
     "entropy": 3.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "redis-config-string-password",  # StackExchange.Redis' configuration string, host:6380,password=...,ssl=True (how
     # Azure Cache for Redis shows its access key): searched from ",password=", its line holding the host's ":port,"
     "regex": r""",(?i:password)=([^\s,"']{8,200})""", "keywords": [",password="], "entropy": 3.0,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [r"^(?:(?!:\d{2,5},)[^\n])*+$"]}]},
    {"id": "azure-devops-pat",  # an Azure DevOps personal access token (52 characters of base32 in lower case) under a name
     # ending in "pat" (AZURE_DEVOPS_EXT_PAT, the az devops extension's variable); _NOT_MIXED lets such a value through
     "regex": r"""(?i)pat["']?[ \t]*+[=:][ \t]*+["']?((?-i:(?=[a-z]{0,51}[2-7])[a-z2-7]{52}))(?![A-Za-z0-9])""",
     "keywords": ["pat=", "pat =", "pat:", 'pat"', "pat'"], "entropy": 4.0},  # a digit among the 52: "compat = <52 letters>"
    {"id": "cloudflare-tunnel-token",  # cloudflared's tunnel token: base64 of {"a":account,"t":tunnel id,"s":secret}, given
     # to cloudflared service install or tunnel run --token (Cloudflare's docs, "Tunnel tokens")
     "regex": r"""\b(eyJhIjoi[A-Za-z0-9+/]{100,800}+={0,2})""", "keywords": ["eyjhijoi"], "entropy": 4.0},
    {"id": "discord-bot-token",  # a Discord bot's token: the bot's id (17 to 19 digits) in base64, ".", 6 characters, ".",
     # 27 to 38 more (Discord's developer docs; gitleaks knows only hex keys beside the word "discord"). Base64 of digits
     # is read as such: each 4 characters of 3 digits are [MNO][DTjz][AEIMQUYcgk][w-z0-5], which words are not (the
     # last one or two digits: [MNO][DTjz][AEIMQUYcgk] or [MNO][AQgw]). ASCII only, as its runs are (\w takes "ª")
     "regex": r"""(?<![\w.-])((?:[MNO][DTjz][AEIMQUYcgk][w-z0-5]){5,6}(?:[MNO][DTjz][AEIMQUYcgk]|[MNO][AQgw])?\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![\w.-])""",
     "keywords": [], "entropy": 3.0, "runs": [_TOKEN_CHARS, 55, 1]},  # regexscan.run_finditer: runs of 55 or more (20+1+6+1+27)
    {"id": "wireguard-private-key",  # a WireGuard config's PrivateKey or PresharedKey (wg(8): 32 bytes in base64, 44
     # characters, the last before "=" one of 16) in any file: a heredoc writing wg0.conf, a README's ini block; generic-api-key
     # found it only when the key happened to be random enough
     "regex": r"""(?i)\b(?:PrivateKey|PresharedKey)[ \t]*+=[ \t]*+((?-i:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=))(?![A-Za-z0-9+/=])""",
     "keywords": ["privatekey", "presharedkey"], "entropy": 3.5},
    {"id": "model-provider-key",  # model providers' API keys whose body prefixed-token cannot take: one case (OpenRouter's
     # sk-or-v1- and 64 hex digits, DeepSeek's sk- and 32, Cerebras' csk- and lower case), shorter than 30 (Fireworks' fw_),
     # or in parts (Pinecone's pcsk_XXXXX_..., Together's tgp_v1_ with - and _). Found by prefix under any name, in a
     # comment or passed by position, where no secret's word stands near
     "regex": r"""(?<![\w-])(sk-or-v1-[0-9a-f]{64}|sk-[0-9a-f]{32}|csk-[a-z0-9]{40,64}|pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,100}"""
              r"""|fw_[A-Za-z0-9]{20,40}|tgp_v1_[A-Za-z0-9_-]{40,64})(?![\w-])""",
     "keywords": ["sk-or-v1-", "sk-", "csk-", "pcsk_", "fw_", "tgp_v1_"], "entropy": 3.0,
     "allowlists": [{"regexes": [r"^(?:fw|tgp_v1|pcsk)_[^0-9]*$", r"^(?:fw|tgp_v1|pcsk)_(?:[^a-z]*|[^A-Z]*)$"]}]},  # words
    {"id": "registry-token",  # registries' tokens by their prefix: Docker Hub's personal and organization access tokens
     # (dckr_pat_, dckr_oat_; 27 characters: too short for prefixed-token), NuGet.org's API keys ("oy2" and 43 characters
     # in lower case, which _NOT_MIXED lets through under any name)
     "regex": r"""\b(dckr_(?:pat|oat)_[\w-]{24,64}+|oy2[a-z0-9]{43})(?![\w-])""", "keywords": ["dckr_", "oy2"], "entropy": 3.5},
    {"id": "vendor-token",  # vendors' tokens known by prefix and shape alone, under any name or passed by position: ElevenLabs
     # (sk_ and 48 hex digits), Bitbucket app passwords (ATBB, 32, and an 8-digit hex check), Figma (figd_), Contentful
     # (CFPAT-), Buildkite (bkua_ and 40 hex), Resend (re_ 8_24), Mapbox secret tokens (sk.eyJ...), Airtable (pat 14 . 64
     # hex), Google OAuth refresh tokens (1//0...), Mailchimp (32 hex and -us and a data centre). A credential sweep found
     # each missed where no secret's word stood near
     "regex": r"""(?<![\w./-])(sk_[0-9a-f]{48}|ATBB[A-Za-z0-9]{32}[0-9A-F]{8}|figd_[\w-]{30,60}|CFPAT-[\w-]{40,50}"""
              r"""|bkua_[0-9a-f]{40}|re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}|sk\.eyJ[\w-]{20,400}\.[\w-]{20,100}"""
              r"""|pat[A-Za-z0-9]{14}\.[0-9a-f]{64}|1//0[\w-]{40,400}|[0-9a-f]{32}-us\d{1,2})(?![\w-])""",
     "keywords": ["sk_", "atbb", "figd_", "cfpat-", "bkua_", "re_", "sk.eyj", "pat", "1//0", "-us"], "entropy": 3.0,
     "allowlists": [{"regexes": [r"^(?:figd|CFPAT|re)[_-][^0-9]*$"]}]},  # words
    {"id": "telegram-bot-url",  # a Telegram bot's token in its Bot API URL (.../bot<id>:AA...): the gitleaks rule wants a
     # word boundary before the id, and "bot" is a word's end
     "regex": r"""api\.telegram\.org/(?:file/)?bot(\d{8,10}:AA[\w-]{33})(?![\w-])""", "keywords": ["telegram.org/"]},
    {"id": "go-mysql-dsn",  # Go's MySQL driver's DSN, user:password@tcp(host:port)/db (go-sql-driver/mysql's README): no
     # scheme, so password-in-url does not read it. 60 characters at most: "@tcp(" then lies near enough to the start to be
     # searched for, not each ":"
     "regex": r""":([^\s@"'`:/]{4,60})(?:@tcp\(|@unix\(|@udp\()""", "keywords": ["@tcp(", "@unix(", "@udp("],
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "redis-acl-password",  # Redis 6's ACL rules: user app on >password ~keys +@all (redis.conf, users.acl) and ACL
     # SETUSER (admin-command-password's); ">" adds a password in plain text ("#" and 64 hex digits add its hash). In an
     # ACL file or a Redis config only: "user" starts lines of many texts
     "regex": r"""(?im)^[ \t]{0,20}user[ \t]++[^\s>]{1,64}+(?:[ \t]++[^\s>]{1,200}+){0,12}?[ \t]++>([^\s]{4,200})""",
     "keywords": [], "path": r"(?i)(?:\.acl|redis[^/]*\.conf|redis/[^/]*\.conf)$", "allowlists": _LOOKUPS},
    {"id": "pgbouncer-userlist",  # PgBouncer's auth_file (userlist.txt): "user" "password", a line each; a password in plain
     # text, not "md5..." or "SCRAM-SHA-256$..." (PgBouncer's docs, "Authentication file format")
     "regex": r"""(?m)^"[^"\s]{1,64}"[ \t]++"(?!md5[0-9a-f]{32}"|SCRAM-SHA-256\$)([^"\s]{4,200})"[ \t]*+\r?$""",
     "keywords": [], "path": r"(?i)userlist[^/]*\.txt$", "allowlists": _LOOKUPS},
    {"id": "password-file-line",  # user:password lines of servers' password files under any name: Dovecot's and nginx's
     # {PLAIN} (plain text) and hashed schemes ({SHA512-CRYPT}$6$..., {SSHA}...: Dovecot's "Password schemes"), Mosquitto's
     # $7$ (PBKDF2-SHA512, written by mosquitto_passwd); htpasswd-hash reads the bare $6$, $apr1$, {SHA}. A name of 60 at
     # most: the scheme then lies near enough to the start to search by
     "regex": r"""(?m)^[\w.@+-]{1,60}:(?:\{(?:PLAIN|CLEARTEXT|CLEAR)\}([^\s:]{4,200})|\{(?:SHA512-CRYPT|SHA256-CRYPT|BLF-CRYPT|MD5-CRYPT"""
              r"""|ARGON2I|ARGON2ID|SSHA512|SSHA256|SSHA|SHA512|SHA256|SMD5|PBKDF2|CRYPT)\}([^\s:]{13,300})"""
              r"""|(\$7\$\d{1,3}\$[A-Za-z0-9+/]{12,32}={0,2}\$[A-Za-z0-9+/]{40,120}={0,2}))""",
     "keywords": ["{plain}", "{cleartext}", "{clear}", "-crypt}", "{argon2", "{ssha", "{sha", "{smd5}", "{pbkdf2}", "{crypt}", "$7$"],
     "allowlists": [{"regexes": [_TEMPLATE, r"(?i)^(?:<|\*+$|x+$|(?:pass(?:word)?|secret|changeme)$)"]}]},  # a hash starts with "$"
    {"id": "htpasswd-file-line",  # in a file named as an htpasswd or htdigest (nginx's conf/htpasswd, htpasswd.users): the
     # old DES crypt hash (13 characters, Apache's "crypt" format), htdigest's user:realm:md5 (Apache's htdigest docs)
     "regex": r"""(?m)^[\w.@+-]{1,100}:(?:([./A-Za-z0-9]{13})|[^:\n]{1,100}:([0-9a-f]{32}))[ \t]*+\r?$""",
     "keywords": [], "path": r"(?i)(?:^|/)[^/]*(?:htpasswd|htdigest|htusers)[^/]*$", "entropy": 2.5},
    {"id": "windows-unattend-password",  # Windows Setup's answer file (unattend.xml): <AdministratorPassword>, <Password>,
     # <AutoLogon>'s, as <Value> then <PlainText>: "true" holds it as written, "false" as base64 of the password and the
     # element's name, which anyone reverses (Microsoft's unattend reference); Windows' own copy reads *SENSITIVE*DATA*DELETED*
     "regex": r"""<Value>[ \t]*+([^<>\s]{4,300})[ \t]*+</Value>\s{0,100}<PlainText>[ \t]*+(?:true|false)[ \t]*+</PlainText>""",
     "keywords": ["<plaintext>"], "allowlists": _LOOKUPS + [{"regexes": [r"^\*SENSITIVE\*DATA\*DELETED\*$"]}]},
    {"id": "filezilla-password",  # FileZilla's sitemanager.xml and recentservers.xml: <Pass encoding="base64">, the password
     # in base64 (FileZilla 3), or <Pass> in plain text (older versions)
     "regex": r"""<Pass(?:[ \t]++encoding="base64")?>([^<>\s]{4,300})</Pass>""", "keywords": ["<pass"], "allowlists": _LOOKUPS},
    {"id": "signing-secret-key-file",  # signify's and minisign's secret key files under any name: "untrusted comment: ...
     # secret key", then the key in base64, "RW..." (its algorithm "Ed", its KDF's name)
     "regex": r"""untrusted comment:[^\n]{0,100}?secret key[ \t]*+\r?\n(RW[A-Za-z0-9+/]{40,400}+={0,2})""",
     "keywords": ["untrusted comment:"], "entropy": 4.0},
    {"id": "escaped-bytes-secret",  # a key assigned as a bytes literal of escapes, as Python prints os.urandom's bytes:
     # app.secret_key = b'\x8f\x1a...' (Flask's docs generate it so); 8 escapes or more, the first at the literal's start: a
     # literal (the quote and "\x") at the match's start to search by, once a bytes literal, not at each "\x" of a dump (a key
     # whose first byte prints as itself, about a third of them, is left to the assignment rules). The line must name a
     # secret (an allowlist over the line, once a line): searched from a secret's word, it was tried at each "key" of a tree
     "regex": r"""[=:] ?b(?:'\\x|"\\x)(?=[0-9a-fA-F]{2}(?:[^"'\s]{0,200}?\\x[0-9a-fA-F]{2}){7})([0-9a-fA-F]{2}"""
              r"""(?:\\x[0-9a-fA-F]{2}|\\[nrt\\]|[^\s"'\\]){14,400}+)["']""",
     "keywords": ["b'\\x", 'b"\\x'], "entropy": 3.0,
     "allowlists": [{"regexTarget": "line", "regexes": [r"(?i)^(?:(?!secret|key|token|pass|pwd|salt)[^\n])*+$"]}]},
    {"id": "url-query-key",  # a key in a URL's query under a name the assignment rules do not read: OpenWeatherMap's appid
     # (32 hex digits), Firebase Realtime Database's ?auth= (a database secret or an ID token); and an API key in a query
     # whose letters are of one case, which generic-api-key's entropy can miss: Alpha Vantage's apikey= (16 capitals and
     # digits), ipstack's access_key= (32 hex); letters and digits both, so "apikey=demo" or "YOUR_API_KEY" is none
     "regex": r"""[?&]appid=([0-9a-f]{32})(?![0-9A-Za-z])|\.firebaseio\.com/[^\s"'?#]{0,300}\?(?:[^\s"'#&]{0,200}&){0,8}?auth=([\w.-]{30,2000}+)"""
              r"""|[?&](?i:api_?key|access_key)=((?=[A-Za-z]{0,127}[0-9])(?=[0-9]{0,127}[A-Za-z])[A-Za-z0-9]{16,128})(?![\w-])"""
              # ninth sweep: a token or a secret under any such name (?token=, ?access_token=, ?client_secret=, &rest_token=),
              # its value of one case or with "-", "+", "=" (Mattermost's 26 small letters and digits, Intercom's base64)
              r"""|[?&](?i:[a-z_]{0,30}(?:token|secret|api_?key))=((?=[\w.~+/%-]{0,299}[0-9])(?=[\w.~+/%-]{0,299}[A-Za-z])[\w.~+/%-]{16,300}+={0,2})(?![\w.~+/%=-])""",
     "keywords": ["appid=", "firebaseio.com", "apikey=", "api_key=", "access_key=", "token=", "secret="], "entropy": 3.0,
     "allowlists": _LOOKUPS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}, {"regexes": [r"(\w)\1{7}", r"(?-i:EXAMPLE)"]}]},
]
