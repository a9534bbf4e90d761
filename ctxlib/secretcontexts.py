"""Secrets in contexts the other rules do not read: rules ctxlib adds after ``secretvalues.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". A seventh sweep put credentials into places the earlier sweeps had not tried:
a CloudFormation template's parameter default, a URL's query under a secret's name (an f-string's URL too), an
Authorization value written as a literal ("Bearer ..." handed to Swift's ``setValue``, Kotlin's ``to``), .NET's
``AuthenticationHeaderValue``, Rust's keys for JWTs and HMACs, Windows' ``net use`` with a password, a mixed key under a
``*_KEY`` name with a declared type; then a password under "pass" (nodemailer), XML's name and value attributes (Spring,
Ant, HTML's meta), keepalived's and Net-SNMP's passwords, login and Wi-Fi calls by position, OpenSSL's ``pass:``,
``htpasswd`` and ``sudo -S``, a token as a URL's whole userinfo, a YAML block scalar, Kotlin's and Scala's pairs, an HTML
password field filled in, a Markdown table's secret column. Each is read by its documented shape; ``credentials.py`` runs them after
``secretvalues.VALUE_RULES``.

The allowlists are ``secretrules``' (a placeholder, a template, a value not mixed enough to be chosen, a path). Every
expression is linear in the text: bounded or possessive repeats, a literal to start from
(``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretnames import _HEX_OR_UUID
from .secretrules import _ALLOW_HEX, _NOT_SECRET_NAMES, _PATH, _PLACEHOLDER, _SECRET_NAME, _STOPWORDS, _TEMPLATE, _VALUE_ALLOWLISTS

_SECRET_KEYWORDS = ["pass", "pwd", "secret", "token", "key", "credential", "salt"]  # the words of _SECRET_NAME
# Markup and its templates: an XML or HTML element's attributes
_MARKUP_FILES = r"""(?i)\.(?:xml|html?|xhtml|jsp|aspx|cshtml|config|csproj|props|targets|vue|svelte|php|erb|twig|jinja2?|j2|tmpl|hbs|ejs|md)$"""
# An environment variable's name ending in a secret's word (OPENAI_API_KEY, MM_TOKEN, PLAID_SECRET, DB_PASSWORD)
_ENV_NAME = r"""[\w.-]{0,60}?(?:key|token|secret|password|passwd|pass|pwd|credential)s?"""
_ALLOW = _ALLOW_HEX  # mixed as the assignment rules want, or a hex key or UUID (a signing key in hex is as secret)

CONTEXT_RULES = [
    {"id": "cloudformation-parameter-default",  # a CloudFormation (or SAM) template's parameter named as a secret, with
     # a Default: "DbPassword:" then its properties (Type, NoEcho, Description...) on the next lines, then "Default: ...";
     # in JSON, "DbPassword": {"Type": "String", "NoEcho": "true", "Default": "..."}. AWS's docs: NoEcho hides a value
     # from the console, a Default is still in the template.
     "regex": r"""(?im)^[ \t]++\w{0,60}?""" + _SECRET_NAME + r""":[ \t]*+\r?\n(?:[ \t]++(?!default\b)\w{1,40}[ \t]*+:[^\n]{0,300}+\n){0,10}?"""
              r"""[ \t]++Default[ \t]*+:[ \t]*+["']?([^\s"'#]{8,200})["']?[ \t]*+$"""
              r"""|"\w{0,60}?""" + _SECRET_NAME + r""""[ \t]*+:[ \t]*+\{[^{}]{0,1000}?"Default"[ \t]*+:[ \t]*+"([^"\s]{8,200})\"""",
     "keywords": ["default"], "entropy": 2.5, "allowlists": _ALLOW,
     "path": r"""(?i)\.(?:ya?ml|json|template|cfn)$"""},
    {"id": "url-query-secret",  # a secret in a URL's query under a secret's name: ?api_secret=..., &client_secret=...,
     # ?password=..., &access_token=... (OAuth 2.0's RFC 6750 section 2.3 allows it), and a form body's first field
     # (curl -d 'client_secret=...&grant_type=...', RFC 6749's token request); before "&", "#", a quote or the
     # line's end, so an f-string's URL with {placeholders} after it is read too. Letters and digits both, 12 characters or more.
     "regex": r"""(?:[?&]|(?<=["'])|(?<=-d[ \t])|(?<=--data[ \t=])|(?<=--data-raw[ \t=]))(?i:[\w.-]{0,40}?(?:secret|token|passw(?:or)?d|passwd|pwd|api_?key|apikey|(?:auth|access|private|signing)_?key))"""
              r"""=((?=[\w.~%+/-]{0,499}[0-9])(?=[\w.~%+/-]{0,499}[A-Za-z])[\w.~%+/-]{12,500}+)(?=[&#"'`\s]|$)""",
     "keywords": ["secret=", "token=", "password=", "passwd=", "pwd=", "api_key=", "apikey=", "auth_key=", "authkey=", "access_key=",
                  "accesskey=", "private_key=", "privatekey=", "signing_key=", "signingkey="], "entropy": 3.0,
     "allowlists": _ALLOW + [{"regexTarget": "match", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "bearer-literal",  # an Authorization value written as one literal: "Bearer <token>" handed to Swift's
     # request.setValue(_, forHTTPHeaderField:), Kotlin's "Authorization" to "...", a header map; .NET's
     # new AuthenticationHeaderValue("Bearer", "<token>") (RFC 6750's scheme and its token, 20 characters or more)
     "regex": r"""["'`]Bearer[ \t]++([\w.~+/-]{20,500}+=*)["'`]"""
              r"""|\bAuthenticationHeaderValue[ \t]*+\([ \t]*+"(?:Bearer|Basic)"[ \t]*+,[ \t]*+"([\w.~+/-]{20,500}+=*)\"""",
     "keywords": ["bearer"], "entropy": 3.5,
     "allowlists": _ALLOW + [{"regexes": [r"(?i)your|here|x{6}|\.{3}"]}]},
    {"id": "rust-key-call",  # a key written into a Rust crypto call: jsonwebtoken's EncodingKey::from_secret(b"...") and
     # DecodingKey::from_secret / from_base64_secret, the hmac crate's Hmac::<Sha256>::new_from_slice(b"...")
     "regex": r"""\b(?:(?:Encoding|Decoding)Key::from_(?:base64_)?secret|new_from_slice)[ \t]*+\([ \t]*+&?b?"([^"\s\\]{8,200})\"""",
     "keywords": ["from_secret", "from_base64_secret", "new_from_slice"], "entropy": 2.5, "allowlists": _ALLOW},
    {"id": "net-use-password",  # Windows' net use with a password: net use Z: \\host\share <password> /user:DOMAIN\name,
     # or the password after /user:NAME (Microsoft's "net use" reference); "*" asks for it and is none
     "regex": r"""(?i)\bnet[ \t]++use\b(?:(?!net[ \t])[^\n/]){0,200}?(?:[ \t]([^\s/"\\*][^\s/"]{3,199})[ \t]++/user:|/user:[^\s]{1,100}[ \t]++([^\s/"*][^\s/"]{3,199})(?=[ \t]|$))""",
     "keywords": ["net use"], "entropy": 2.0, "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"^[A-Za-z]:$"]}]},
    {"id": "typed-key-value",  # a mixed key under a name ending in KEY (MISTRAL_KEY, mapsKey) in the syntax gitleaks'
     # generic-api-key does not read: a declared type (Rust's const KEY: &str = "...", TypeScript's, Python's annotation),
     # a blank then a quoted literal (C's #define, Apache's SetEnv, setx), Objective-C's @"...", PHP's $_ENV['X'] =, a
     # property list's <key>X</key><string>; read from the name's end, 20 characters or more, entropy as generic's
     "regex": r"""(?-i:(?<![A-Za-z0-9])KEY|_KEY|(?<=[a-z0-9])Key)(?:["']?[ \t]*+:[ \t]*+&?(?:'static[ \t]++)?[\w.<>\[\]]{1,30}[ \t]*+=[ \t]*+"""
              r"""|["']?[ \t]++(?=@?["'])|\\?["']\][ \t]*+=[ \t]*+\\?|</key>[ \t\r\n]{0,20}<string>|[ \t]*+=[ \t]*+(?=@")"""
              r"""|["']?[ \t]*+\r?\n[ \t]*+value[ \t]*+:[ \t]*+)"""  # a k8s env list: "- name: X_KEY", then "value:"
              r"""@?["']?([A-Za-z0-9+/_.~-]{20,200}+={0,2})(?=\\?["'<;\s]|$)""",
     "keywords": ["key"], "entropy": 3.5, "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "env-set-secret",  # code that sets an environment variable named as a secret: Python's os.environ["X_TOKEN"] = "..."
     # and os.environ.setdefault, Ruby's ENV['X_KEY'] ||= '...', Node's process.env.X_SECRET = '...', Go's os.Setenv, Rust's
     # std::env::set_var, C's setenv/putenv, .NET's Environment.SetEnvironmentVariable, Java's System.setProperty; the name
     # ends in a secret's word, the value holds a letter and a digit (a token of one case too: Vultr's, Mattermost's)
     "regex": r"""(?i)(?:(?:\benviron\[[ \t]*+|\bENV\[)["']""" + _ENV_NAME + r"""["'][ \t]*+\][ \t]*+(?:\|\||\?\?)?=|\bprocess\.env\.""" + _ENV_NAME
              + r"""[ \t]*+(?:\|\||\?\?)?=|\b(?:Setenv|set_var|setenv|SetEnvironmentVariable|environ\.setdefault|setProperty)[ \t]*+\([ \t]*+["']""" + _ENV_NAME
              + r"""["'][ \t]*+,)[ \t]*+[rbu]?["'`]((?=[^\s"'`\\]{0,399}[0-9])(?=[^\s"'`\\]{0,399}[A-Za-z])[^\s"'`\\]{12,400}+)["'`]""",
     "keywords": ["environ[", "env['", 'env["', "process.env.", "setenv", "set_var", "environ.setdefault", "setproperty("],
     # a hex key or a UUID is hex-secret's (the same _TO_VALUE reads these names), not found twice
     "entropy": 3.0, "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, _PATH, r"(\w)\1{7}", r"^(?:" + _HEX_OR_UUID + r"|[0-9a-f]{30,31})$"]},
                                      {"stopwords": _STOPWORDS},
                                      {"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "object-pass-key",  # a password under the key "pass" of an object or a map: nodemailer's auth: { user, pass }
     # (its documented transport options), a JSON config's "pass": "..."; the value quoted and mixed
     "regex": r"""(?<![\w.$-])["']?pass["']?[ \t]*+(?::|=>)[ \t]*+["']([^"'\s\\]{8,200})["']""",  # PHP's 'pass' => too
     "keywords": ["pass:", "pass\":", "pass':", "pass :", "pass' =>", "pass\" =>", "pass'=>", "pass\"=>"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "xml-name-value-secret",  # an XML element whose name attribute names a secret and whose value attribute holds
     # it: Spring's <property name="password" value="..."/>, Ant's <property name="db.password" value="..."/>, a
     # <param name="apiKey" value="..."/>, HTML's <meta name="api-key" content="...">; the attributes in either order
     "regex": r"""(?i)\bname[ \t]*+=[ \t]*+["'][\w.:-]{0,60}?""" + _SECRET_NAME + r"""["'][ \t]++(?:value|content)[ \t]*+=[ \t]*+["']([^"'\s<>]{8,200})["']"""
              r"""|\b(?:value|content)[ \t]*+=[ \t]*+["']([^"'\s<>]{8,200})["'][ \t]++name[ \t]*+=[ \t]*+["'][\w.:-]{0,60}?""" + _SECRET_NAME + r"""["']""",
     "keywords": ["value", "content"], "entropy": 2.5, "path": _MARKUP_FILES,
     "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "service-password-line",  # a daemon's password written after its directive and a blank: keepalived's
     # authentication { auth_pass ... } (VRRP's shared password), Net-SNMP's snmpd.conf rocommunity/rwcommunity (an SNMP
     # v1/v2c community is its password; "public" and "private" are the defaults, no secret)
     "regex": r"""(?i)(?<![^\s])(?:auth_pass|r[ow]community6?|com2sec[ \t]++\S{1,60}[ \t]++\S{1,60})[ \t]++([^\s#"']{6,64})(?=\s|$)""",
     "keywords": ["auth_pass", "community", "com2sec"], "entropy": 2.0,
     "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"^(?i:public|private)$"]}, {"stopwords": _STOPWORDS}]},
    {"id": "login-call-password",  # a password passed by position to a login call the pair rules lack: python-ldap's
     # simple_bind_s(dn, "..."), pika's PlainCredentials("user", "..."), Ruby's Net::SMTP.start(..., "user", "...", :login);
     # a Wi-Fi network's passphrase (WPA: 8 to 63 characters): Arduino's WiFi.begin("ssid", "..."), MicroPython's
     # wlan.connect("ssid", "..."), ESP8266's wifiMulti.addAP
     "regex": r"""\b(?:simple_bind(?:_s)?|PlainCredentials)[ \t]*+\([ \t]*+(?:["'][^"'\n]{0,200}["']|[\w.$\[\]]{1,100})[ \t]*+,"""
              r"""[ \t]*+[rbu]?["']([^"'\s]{6,200})["']|\bNet::SMTP\.start\b(?:(?!Net::SMTP)[^\n]){0,200}?"""
              r"""["']([^"'\s]{6,200})["'][ \t]*+,[ \t]*+:(?:login|plain|cram_md5)\b"""
              r"""|\b(?i:wi-?fi\w{0,10}|wlan\w{0,10}|sta_if|station)\.(?:begin|connect|addAP)[ \t]*+\([ \t]*+["'][^"'\n]{1,64}["'][ \t]*+,"""
              r"""[ \t]*+["']([^"'\s]{8,63})["']""",
     "keywords": ["simple_bind", "plaincredentials", "net::smtp", "wifi", "wi-fi", "wlan", "sta_if", "station."], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "command-password-option",  # a password given to a command in its own syntax: OpenSSL's -pass/-passin/-passout
     # pass:... (openssl-passphrase-options(1)), htpasswd -b with its options apart (-b -c file user password), sudo -S
     # reading a here-string (sudo -S cmd <<< '...')
     "regex": r"""(?:\s-pass(?:in|out)?[ \t]++["']?pass:([^\s"']{4,200})"""
              r"""|\bhtpasswd(?:[ \t]++-[A-Za-z]{1,4}){2,3}+[ \t]++[^\s-]\S{0,199}[ \t]++[^\s-]\S{0,99}[ \t]++["']?([^\s"'$<>]{4,200})"""
              r"""|\bsudo[ \t]++-S\b[^\n|;&<]{0,100}+<<<[ \t]*+["']?([^\s"'$]{4,200}))""",
     "keywords": ["pass:", "htpasswd", "sudo"], "entropy": 2.0, "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE]}, {"stopwords": _STOPWORDS}]},
    {"id": "url-token-userinfo",  # a token as a URL's whole userinfo: GitHub's https://<token>@github.com/owner/repo.git
     # (a clone with a personal access token), an API's https://<key>@host; no ":" (password-in-url's), 20 characters or
     # more, letters and digits both
     "regex": r"""\b(?:https?|git|ssh)://((?=[\w-]{0,199}[0-9])(?=[\w-]{0,199}[A-Za-z])[\w-]{20,200}+)@[\w-]++\.[\w.-]""",
     "keywords": ["://"], "entropy": 3.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "yaml-block-secret",  # a YAML block scalar under a secret's name holding one line: password: >- then the
     # value, one word, indented on the next line, token: | (YAML 1.2's literal and folded styles); a PEM key is private-key's
     "regex": r"""(?im)^[ \t]*+(?:-[ \t]++)?[\w.-]{0,60}?""" + _SECRET_NAME + r"""["']?[ \t]*+:[ \t]*+[|>][-+]?[0-9]?[ \t]*+\r?\n"""
              r"""[ \t]++([^\s#"'][^\s]{7,199})[ \t]*+\r?$""",
     "keywords": _SECRET_KEYWORDS, "entropy": 2.5, "path": r"""(?i)\.(?:ya?ml|sls)$""",
     "allowlists": _ALLOW + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "pair-operator-secret",  # a secret's name and its value paired by an operator other than "=" or ":": Kotlin's
     # mapOf("db.password" to "..."), Scala's Map("password" -> "..."), a Groovy or Ruby hash's "api_key" => is secret-assignment's
     "regex": r"""(?i)""" + _SECRET_NAME + r"""["'][ \t]*+(?:->|\bto\b)[ \t]*+["']([^"'\s\\]{8,200})["']""",
     "keywords": _SECRET_KEYWORDS, "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS,
     "path": r"""(?i)(?:\.(?:kts?|scala|sc|sbt|groovy|gradle|gvy|pl|pm|php|md|ipynb)|(?:^|/)Jenkinsfile[^/]*)$"""},
    {"id": "html-password-input",  # an HTML form's password field filled in: <input type="password" ... value="...">
     "regex": r"""(?i)<input\b(?=[^<>]{0,400}?\btype[ \t]*+=[ \t]*+["']?password\b)[^<>]{0,400}?\bvalue[ \t]*+=[ \t]*+["']([^"'\s<>]{6,200})["']""",
     "keywords": ["<input"], "entropy": 2.0, "path": _MARKUP_FILES, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "markdown-table-secret",  # a Markdown table's secret column: a header cell names it (token, db_password,
     # api_key), the delimiter row, then the first rows fill it, as csv-password-column reads a CSV export; columns 1 to 6
     # (its rows start with "|", GitHub's tables' usual form, after up to 3 blanks: the "|" is a literal to start from)
     "regex": r"(?i)(?:(?<![^\n])|(?<=\n )|(?<=\n  )|(?<=\n   ))\|(?:" + "|".join(
         rf"""(?:[^|\n]{{0,60}}\|){{{k}}}[ \t]*+[\w .-]{{0,40}}?(?:passw(?:or)?d|passwd|pwd|secret|token|api_?key"""
         rf"""|(?:private|signing|access|auth)_?key)[ \t]*+\|[^\n]{{0,500}}\n[ \t]*+\|[ \t:|-]{{3,300}}\n(?:[^\n]{{0,500}}\n){{0,2}}"""
         rf"""[ \t]*+\|(?:[^|\n]{{0,60}}\|){{{k}}}[ \t]*+`?([^|`\s]{{8,200}})`?[ \t]*+\|"""
         for k in range(6)) + ")",
     "keywords": _SECRET_KEYWORDS, "entropy": 3.0, "path": r"(?i)\.(?:md|markdown|mdx)$", "allowlists": _ALLOW},
]
