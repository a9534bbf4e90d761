"""Values the other rules' filters let through: rules ctxlib adds after ``secretcalls.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". The assignment rules of ``secretrules.py`` keep a value only when it is mixed
as a generated key or a chosen password is (``_NOT_MIXED``), 8 to 200 characters long, without blanks: what keeps a
course repository's ordinary code packable. A sixth sweep found the credentials those filters drop, each of a kind
with a shape of its own, read here by that shape: a mixed key under a vendor's name for it (``secretnames.py``; a hex
or UUID key there is ``hex-secret``'s), a Gmail app password, a passphrase of words, a short password of every class,
a password holding a quote, a key handed to a crypto call in Go's, Java's or Python's own forms, a shell value with
``$`` or ``=`` inside, a secret piped into a platform's secret store, an OpenVPN static key, and vendors' tokens known
by their shape alone (Braintree, Django, Mailgun, HubSpot, SonarQube, LaunchDarkly, New Relic, AWS session tokens).
``credentials.py`` runs them after ``secretcalls.CALL_RULES``.

The allowlists are ``secretrules``' (a placeholder, a template, a path, a fixture's word). Every expression is linear
in the text: bounded or possessive repeats, a literal to start from (``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretnames import _MORE_KEY_NAMES, _TO_VALUE
from .secretrules import (_NOT_MIXED, _NOT_SECRET_NAMES, _PASS, _PATH, _PLACEHOLDER, _STOPWORDS, _TEMPLATE, _TOKEN_CHARS,
                          _VALUE_ALLOWLISTS)

_PASSWORD_NAME = r"""(?:passw(?:or)?d|passwd|passphrase|""" + _PASS + r"""|(?<![\w.-])pass)"""
# Words of prose under a password's name (a form's label, a validation message): no passphrase holds them
_PROSE = r"""(?i)\b(?:the|and|for|your|you|with|must|enter|from|this|that|not|are|user|users|password|required|field"""
_PROSE += r"""|characters|login|account|new|old|confirm|change|reset|invalid|incorrect|wrong|please|match|empty|length|here)\b"""

VALUE_RULES = [
    {"id": "named-key-value",  # a mixed key under a name of secretnames' (SEGMENT_WRITE_KEY = "...", AZURE_STORAGE_KEY: 88
     # of base64, in a k8s env list or after ??), which the assignment rules do not read as a secret's; and an STS session
     # token (AWS_SESSION_TOKEN, SecurityToken: 300 to 1,000 characters of base64), longer than their 200
     "regex": r"""(?i)(?:""" + _MORE_KEY_NAMES + r"""|token(?:(?<=session[_.-]token)|(?<=sessiontoken)|(?<=security[_.-]token)|(?<=securitytoken)))""" + _TO_VALUE + r"""[rbu]?["'`]?"""
              r"""([A-Za-z0-9+/_.-]{20,4000}+={0,2})(?![\w+/=-])""",
     "keywords": ["key", "pat", "token"], "entropy": 3.5,
     # mixed, as the assignment rules want, or an Azure DevOps PAT (52 of base32 in lower case, a digit among them)
     "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, _PATH, r"^(?!(?=[a-z]{0,51}[2-7])[a-z2-7]{52}$)" + _NOT_MIXED[1:]]},
                    {"stopwords": _STOPWORDS}, {"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "password-value",  # a password under a password's name that the assignment rules' filters drop: a Gmail app
     # password (16 lower-case letters, shown as 4 groups of 4: Google's "Sign in with app passwords"), a short password of
     # 6 or 7 characters with capitals, small letters and digits, a password holding a quote of the other kind
     "regex": r"""(?i)""" + _PASSWORD_NAME + r"""(?:["'`]?\]?[ \t]*+(?:=|:=|:|=>)|["'][ \t]*+,)[ \t]*+[rbu]?(?:["'`]((?-i:[a-z]{16}|[a-z]{4}(?: [a-z]{4}){3}"""
              r"""|(?=[^"'`\s]{0,6}[a-z])(?=[^"'`\s]{0,6}[A-Z])(?=[^"'`\s]{0,6}[0-9])[^"'`\s\\]{6,7}))["'`]"""
              r"""|"((?=[^"\n]{0,200}')[^"\s\\]{8,200})"|'((?=[^'\n]{0,200}")[^'\s\\]{8,200})'"""
              # unquoted, an .env line's app password (SMTP_PASSWORD=...): the name in capitals, "=" and no blank
              r"""|(?-i:(?<=PASSWORD=)|(?<=PASSWD=)|(?<=_PASS=))((?-i:[a-z]{16}))(?=\s|$))""",
     "keywords": ["pass", "pwd"], "entropy": 2.5,
     "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, _PATH]}, {"stopwords": _STOPWORDS}]},
    {"id": "passphrase-value",  # a passphrase of four to eight words under a password's name (xkcd's "correct horse
     # battery staple", Diceware), quoted or a YAML value alone on its line; in code and config files, not prose
     "regex": r"""(?i)(?:passw(?:or)?d|passwd|passphrase)["'`]?[ \t]*+(?:=|:=|:|=>)[ \t]*+["'`]?"""
              r"""((?-i:[a-z]{3,12}(?: [a-z]{3,12}){3,7}))(?:["'`]|[ \t]*+(?:#[^\n]*+)?(?m:$))""",
     "keywords": ["passw", "passphrase"], "entropy": 3.0, "allowlists": [{"regexes": [_PROSE]}, {"stopwords": _STOPWORDS}],
     "path": r"""(?i)(?:\.(?:ya?ml|py|pyw|env|ini|cfg|conf|toml|json|properties|[cm]?js|ts|rb|php|go|java|kt|cs|rs|sh|tf|tfvars"""
             r"""|hcl|xml)|(?:^|/)(?:\.env[^/]*|Dockerfile[^/]*))$"""},
    {"id": "crypto-key-call",  # a key handed to a crypto call in forms crypto-key-literal lacks: Go's hmac.New(sha256.New,
     # []byte("...")) and gorilla's sessions.NewCookieStore([]byte("...")), securecookie.New, gin's cookie.NewStore; Java's
     # new SecretKeySpec(Base64.getDecoder().decode("..."), "AES"); Python's X_KEY = bytes.fromhex("...") and unhexlify
     "regex": r"""(?:\bhmac\.New[ \t]*+\([ \t]*+[\w.]{1,40}[ \t]*+,[ \t]*+\[\]byte[ \t]*+\([ \t]*+"""
              r"""|\b(?:New(?:Cookie|Filesystem)Store|securecookie\.New|cookie\.NewStore)[ \t]*+\((?:[ \t]*+"[^"\n]{0,200}"[ \t]*+,)?[ \t]*+\[\]byte[ \t]*+\([ \t]*+"""
              r"""|\bSecretKeySpec[ \t]*+\([ \t]*+(?:[\w$]{1,40}(?:\(\))?\.){1,4}(?:decode\w{0,12}|parse\w{0,20})[ \t]*+\([ \t]*+"""
              # a name ending in _KEY or Key before: searched from the call, the name in fixed-width lookbehinds
              r"""|(?:(?<=(?i:[_.-]key) = )|(?<=(?i:[_.-]key)=)|(?<=[a-z]Key = )|(?<=[a-z]Key=))"""
              r"""(?:bytes\.fromhex|bytearray\.fromhex|(?:binascii\.)?(?:unhexlify|a2b_hex))[ \t]*+\([ \t]*+[rbu]?)"""
              r"""["'`]([^"'`\s\\]{8,512})["'`]""",
     "keywords": ["hmac.new", "cookiestore", "filesystemstore", "cookie.newstore", "securecookie.new", "secretkeyspec", "fromhex", "unhexlify", "a2b_hex"], "entropy": 2.5,
     "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE]}, {"stopwords": _STOPWORDS}]},
    {"id": "bytes-key-literal",  # a key written as Python prints os.urandom's bytes, its first byte printable (about a third
     # of them; escaped-bytes-secret takes those that start with an escape): app.secret_key = b'A\x94\xcb...', 16 bytes or more,
     # 6 of them escapes at most 8 printable bytes apart
     "regex": r"""(?i)(?:secret|key|token|salt|pepper)["']?\]?[ \t]*+[=:][ \t]*+b["']((?:[^\n'"\\]|\\['"\\nrt])"""
              r"""(?=(?:(?:[^\n'"\\]|\\['"\\nrt]){0,8}\\x[0-9a-f]{2}){6})(?:[^\n'"\\]|\\['"\\nrt]|\\x[0-9a-f]{2}){15,400}+)["']""",
     "keywords": ["secret", "key", "token", "salt", "pepper"], "entropy": 3.0},
    {"id": "aws-credentials-call",  # an AWS secret access key (40 characters of base64) passed by position after its key id:
     # Java's new BasicAWSCredentials(id, "...") and BasicSessionCredentials, the SDK v2's AwsBasicCredentials.create, the
     # JavaScript SDK's new AWS.Credentials(id, "...")
     "regex": r"""(?:\bnew[ \t]++(?:BasicAWSCredentials|BasicSessionCredentials|AWS\.Credentials)|\bAwsBasicCredentials\.create)"""
              r"""[ \t]*+\([ \t]*+[^,\n]{1,200}+,[ \t]*+["']([A-Za-z0-9/+]{40})["']""",  # the id: any argument
     "keywords": ["basicawscredentials", "basicsessioncredentials", "aws.credentials", "awsbasiccredentials"], "entropy": 3.0,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "shell-secret-value",  # an unquoted NAME=value of a shell, a Dockerfile's ENV or an .env file whose value holds
     # "$" or "=" inside, which env-secret stops at: Braintree's access_token$production$..., Django's generated keys
     # (!@#$%^&*(-_=+) in Django's get_random_secret_key); letters and digits both, not a lookup ($X, ${X}, $(cmd))
     "regex": r"""(?-i:(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|_KEY|APIKEY|_PASS|_PW)(?:[ \t]*+=[ \t]*+|(?<=_KEY)[ \t]++))"""
              r"""((?![$%])(?=[^\s]{0,200}?[$=][^\s=])(?=[^\s]{0,200}?[0-9])(?=[^\s]{0,200}?[A-Za-z])[^\s"'`\\;|&<>(){}\[\],]{8,200})(?=\s|$)""",
     "keywords": ["password", "passwd", "passphrase", "secret", "token", "_key", "apikey", "_pass", "_pw"], "entropy": 3.0,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexes": [r"\$\w{1,60}\$?$|^[\w.-]{1,60}=\$"]}]},
    {"id": "secret-pipe-command",  # a secret echoed into a platform's secret store: echo ... | wrangler secret put NAME
     # (Cloudflare's docs), vercel env add NAME production, gh secret set NAME, gcloud secrets versions add --data-file=-
     "regex": r"""\b(?:echo|printf)[ \t]++(?:-[neE]{1,2}[ \t]++)?(?:["']%s["'][ \t]++)?["']?([^\s"'`$|<>;&]{8,200})["']?[ \t]*+\|[ \t]*+"""
              r"""(?:npx[ \t]++|bunx[ \t]++)?(?:wrangler[ \t]++(?:pages[ \t]++)?secret[ \t]++put|vercel[ \t]++env[ \t]++add"""
              r"""|gh[ \t]++secret[ \t]++set|gcloud[ \t]++secrets[ \t]++(?:create|versions[ \t]++add)|netlify[ \t]++env:set)\b""",
     "keywords": ["wrangler", "vercel", "secret set", "gcloud", "netlify"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "openvpn-static-key",  # an OpenVPN static key (openvpn --genkey: 16 lines of 32 hex digits between its BEGIN and
     # END lines; tls-auth's ta.key), in a file of any name or inline in a profile's <tls-auth>
     "regex": r"""-----BEGIN OpenVPN Static key V1-----[ \t]*+\r?\n((?:[ \t]*+[0-9a-fA-F]{32}[ \t]*+\r?\n){4,16}+)""",
     "keywords": ["openvpn static key"]},
    {"id": "vendor-key-shape",  # vendors' keys known by their documented shape, under any name: Braintree's access tokens
     # (access_token$production$...), Django's startproject keys (django-insecure- and 50 of its alphabet), HubSpot's private
     # app tokens (pat-na1-<uuid>), SonarQube's tokens (squ_, sqp_, sqa_ and 40 hex), LaunchDarkly's SDK, mobile and API keys
     # (sdk-<uuid>), New Relic's license keys (36 hex and NRAL), AWS STS session tokens (base64 of "\n\torigin_ec"...), CircleCI's
     # personal tokens (CCIPAT_ 22 _ 40 hex), Voyage AI's keys (pa- and 43 of base64url)
     "regex": r"""(?<![\w./-])(access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"""
              r"""|django-insecure-[a-z0-9!@#$%^&*(\-_=+)]{40,60}+(?=["'`\s]|$)"""
              r"""|pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|sq[upa]_[0-9a-f]{40}"""
              r"""|(?:sdk|mob|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{36}NRAL"""
              r"""|(?:[A-Za-z0-9]{2}oJb3JpZ2luX2Vj|F[wQ]oGZXIvYXdz)[A-Za-z0-9+/]{100,3000}+={0,2}"""
              r"""|CCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40}|pa-(?=[\w-]{0,42}[0-9])(?=[\w-]{0,42}[A-Z])[\w-]{43})(?![\w-])""",
     "keywords": ["access_token$", "django-insecure-", "pat-", "squ_", "sqp_", "sqa_", "sdk-", "mob-", "api-", "nral",
                  "ojb3jpz2lux2vj", "ogzxivyxdz", "ccipat_", "pa-"], "entropy": 3.0,
     "allowlists": [{"regexes": [r"(?-i:EXAMPLE)"]}]},
    {"id": "mailgun-key",  # Mailgun's API keys since 2023: 32 hex digits, then two groups of 8 ("<32>-<8>-<8>", Mailgun's
     # docs); the older key- form is service-token's. Tried in runs of 50 token characters only (regexscan.run_finditer)
     "regex": r"""(?<![\w./-])([0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![\w-])""", "keywords": [], "entropy": 3.0,
     "runs": [_TOKEN_CHARS, 50, 1]},
]
