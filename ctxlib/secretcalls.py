"""Credentials handed to a command or a call: rules ctxlib adds after ``secretformats.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". A fourth red-team round found secrets that no name announces, because the
command or the function they are given to is what makes them one: an administrator's command line (``plink -pw``,
``ipmitool -P``, ``net user name password /add``), a secret store's own command (``aws ssm put-parameter --value``,
``gh secret set --body``), a login passed by position (Go's ``smtp.PlainAuth``, ``pymysql.connect(host, user,
password)``, sbt's ``Credentials(...)``), an HMAC or JWT key written into the call that uses it (``new
SecretKeySpec("...".getBytes(), ...)``, ``crypto.createHmac('sha256', '...')``), a search service's key passed to
its client after the application's id (Algolia's ``algoliasearch(appId, apiKey)``), an ``Authorization`` scheme other
than Bearer or Basic (Okta's ``SSWS``, ``DeepL-Auth-Key``, Splunk's), an API key header set by a server's config
(``proxy_set_header X-Api-Key ...``), a vendor's token split over two literals (``"sk_live_" + "..."``), and a
secret set by a shell or Lisp form (fish's ``set -gx``, Windows' ``setx``, csh's ``setenv``, Emacs' ``setq``,
Clojure's ``:password "..."``). ``credentials.py`` runs them after ``secretformats.FORMAT_RULES``.

The allowlists are ``secretrules``' (a placeholder, a template, a value not mixed enough to be chosen). Every
expression is linear in the text: bounded or possessive repeats, a literal to start from
(``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretrules import _ALLOW_HEX, _NOT_MIXED, _PATH, _PLACEHOLDER, _SECRET_NAME, _STOPWORDS, _TEMPLATE, _VALUE_ALLOWLISTS

_SECRET_KEYWORDS = ["pass", "pwd", "secret", "token", "key", "credential", "salt"]  # the words of _SECRET_NAME
_VALUE = r"""["']?([^\s"'`$<>{}]{4,200})"""  # a command line's argument: quoted or not, not a variable or a template
_ARG = r"""(?:["'][^"'\n]{1,200}["']|[\w.$>\[\]-]{1,100})"""  # a call's argument before the secret: a literal or a name
_COMMA = r"""[ \t]*+,[ \t]*+"""


def _window(command: str, most: int = 200) -> str:
    """Up to ``most`` characters of one command line after its name, stopping at the next ``command``: a line of n
    such names is read once, not ``most`` characters from each (command-line-password's curl window)."""
    return rf"""(?:(?!{command})[^\n;&|]){{0,{most}}}?"""


CALL_RULES = [
    {"id": "admin-command-password",  # a password or token as an argument of an administrator's tool: PuTTY's plink, pscp
     # and psftp -pw; FreeRDP's /p:; ipmitool -P; Mosquitto's clients -P; Neo4j's cypher-shell -p; nmcli ... password;
     # wpa_passphrase SSID passphrase; Windows' net user NAME PASSWORD; openssl passwd PASSWORD; curl --oauth2-bearer;
     # skopeo, podman and buildah --creds user:password; Poetry's config http-basic.REPO user password and pypi-token.REPO;
     # ngrok's (config add-)authtoken; netlify --auth; Redis' ACL SETUSER name ... >password. Each tool's name starts its
     # alternative: a literal to search by
     "regex": r"""(?i)(?:\b(?:plink|pscp|psftp)(?:\.exe)?\b""" + _window("plink|pscp|psftp") + r"""\s(?-i:-pw)[ \t]++"""
              r"""|\b(?:xfreerdp|wlfreerdp|sdl-freerdp)\b""" + _window("freerdp", 300) + r"""\s[/+]p:|\bipmitool\b""" + _window("ipmitool") + r"""\s(?-i:-P)[ \t]++"""
              r"""|\bmosquitto_(?:pub|sub|rr)\b""" + _window("mosquitto_") + r"""\s(?-i:-P|--pw)[ \t]++"""
              r"""|\bcypher-shell\b""" + _window("cypher-shell") + r"""\s(?:-p|--password)[ \t=]{1,4}"""
              r"""|\bnmcli\b""" + _window("nmcli") + r"""\s(?:password|wifi-sec\.psk|802-11-wireless-security\.psk)[ \t]++"""
              r"""|\bwpa_passphrase[ \t]++(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|[^\s"']{1,64})[ \t]++"""
              r"""|\bnet[ \t]++user[ \t]++(?:"[^"\n]{1,64}"|[^\s/"*]{1,64})[ \t]++(?=[^\s/*])"""
              r"""|\bopenssl[ \t]++passwd\b(?:[ \t]++-\w{1,10}(?:[ \t]++[\w./]{1,20})?){0,4}?[ \t]++(?=[^\s-])"""
              r"""|\bcurl\b(?:(?!curl)[^\n;&|]){0,200}?\s--oauth2-bearer[ \t=]{1,4}"""
              r"""|\b(?:skopeo|podman|buildah)\b""" + _window("skopeo|podman|buildah") + r"""\s--(?:src-|dest-)?creds[ \t=]{1,4}["']?[^\s:"']{1,64}:"""
              r"""|\bpoetry[ \t]++config[ \t]++(?:http-basic\.\S{1,100}[ \t]++\S{1,64}|pypi-token\.\S{1,100})[ \t]++"""
              r"""|\bngrok\b""" + _window("ngrok", 100) + r"""\s(?:add-)?authtoken[ \t=]{1,4}|\bnetlify\b""" + _window("netlify") + r"""\s--auth[ \t=]{1,4}"""
              r"""|\bacl[ \t]++setuser[ \t]++[^\s>]{1,64}+(?:[ \t]++[^\s>]{1,200}+){0,12}?[ \t]++>)""" + _VALUE,
     "keywords": ["plink", "pscp", "psftp", "freerdp", "ipmitool", "mosquitto_", "cypher-shell", "nmcli", "wpa_passphrase",
                  "net user", "openssl", "oauth2-bearer", "creds", "poetry", "authtoken", "netlify", "setuser"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "secret-store-command",  # a value written into a secret store from the command line: gh secret set NAME --body
     # (-b), aws ssm put-parameter ... --value, az keyvault secret set ... --value, --secret-string (aws secretsmanager);
     # the value mixed, as the assignment rules want: a parameter's "true" or "v1.2" is no secret
     "regex": r"""(?i)(?:\bgh[ \t]++secret[ \t]++set\b""" + _window("secret set") + r"""\s(?:--body|-b)[ \t=]{0,4}"""
              r"""|\baws[ \t]++ssm[ \t]++put-parameter\b""" + _window("put-parameter", 300) + r"""\s--value[ \t=]{1,4}"""
              r"""|\baz[ \t]++keyvault[ \t]++secret[ \t]++set\b""" + _window("secret set", 300) + r"""\s--value[ \t=]{1,4}|\s--secret-string[ \t=]{1,4})""" + _VALUE,
     "keywords": ["secret set", "put-parameter", "--secret-string"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "positional-login",  # a login's password passed by position: Go's smtp.PlainAuth("", user, password, host) and
     # sasl.NewPlainClient; Python's DB-API connect(host, user, password, ...) (pymysql, MySQLdb, mysql.connector, pymssql)
     # and ftplib.FTP(host, user, password); sbt's Credentials(realm, host, user, password); lettre's Credentials::new(user,
     # password); MinIO's and aws-sdk-go's static credentials, NewStaticV4(id, secret, token)
     "regex": r"""(?:\b(?:PlainAuth|NewPlainClient)[ \t]*+\([ \t]*+"[^"\n]{0,100}\"""" + _COMMA + _ARG + _COMMA
              + r"""|\b(?:pymysql|MySQLdb|mysql\.connector|pymssql)\.connect[ \t]*+\([ \t]*+""" + _ARG + _COMMA + _ARG + _COMMA
              + r"""|\b(?:ftplib\.)?FTP(?:_TLS)?[ \t]*+\([ \t]*+""" + _ARG + _COMMA + _ARG + _COMMA
              + r"""|\bCredentials[ \t]*+\([ \t]*+"[^"\n]{0,200}\"""" + _COMMA + r""""[^"\n]{1,200}\"""" + _COMMA + _ARG + _COMMA
              + r"""|\bCredentials::new[ \t]*+\([ \t]*+""" + _ARG + r"""(?:\.(?:to_owned|to_string|into)\(\))?""" + _COMMA
              + r"""|\bNewStatic(?:V4|V2|Credentials|CredentialsProvider)[ \t]*+\([ \t]*+""" + _ARG + _COMMA
              + r""")[rbu]?["']([^"'\s]{4,200})["']""",
     "keywords": ["plainauth", "newplainclient", ".connect", "ftp", "credentials", "newstatic"], "entropy": 2.5,
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "crypto-key-literal",  # an HMAC, JWT or Fernet key written into the call that uses it: Java's new SecretKeySpec(
     # "...".getBytes(), ...) and jjwt's signWith(SignatureAlgorithm.HS256, "..."), .NET's SymmetricSecurityKey(Encoding.
     # UTF8.GetBytes("...")), Go's SignedString([]byte("...")), Node's crypto.createHmac('sha256', '...'), Python's
     # hmac.new(b"...", ...) and Fernet(b"..."), PHP's hash_hmac('sha256', $data, '...') and firebase/php-jwt's
     # JWT::encode($payload, '...', 'HS256') and new Key('...', 'HS256'), Ruby's OpenSSL::HMAC.hexdigest('SHA256', '...', data)
     "regex": r"""(?:\bnew[ \t]++SecretKeySpec[ \t]*+\([ \t]*+|\bsignWith[ \t]*+\([ \t]*+(?:SignatureAlgorithm\.\w{2,10}""" + _COMMA + r""")?"""
              r"""|\bSymmetricSecurityKey[ \t]*+\([ \t]*+Encoding\.\w{2,10}\.GetBytes[ \t]*+\([ \t]*+"""
              r"""|\bSignedString[ \t]*+\([ \t]*+\[\]byte[ \t]*+\([ \t]*+|\bcreateHmac[ \t]*+\([ \t]*+["'`][\w-]{2,20}["'`]""" + _COMMA
              + r"""|\bhmac\.new[ \t]*+\([ \t]*+(?:key[ \t]*+=[ \t]*+)?|\bFernet[ \t]*+\([ \t]*+(?=b?["'][\w-]{43}=)"""
              r"""|\bhash_hmac[ \t]*+\([ \t]*+["'][\w-]{2,20}["']""" + _COMMA + r"""[^,()\n]{1,100}""" + _COMMA
              + r"""|\bJWT::(?:encode|decode)[ \t]*+\([ \t]*+[^,()\n]{1,100}""" + _COMMA + r"""(?:new[ \t]++Key[ \t]*+\([ \t]*+)?"""
              r"""|\bOpenSSL::HMAC\.\w{2,20}[ \t]*+\([ \t]*+[^,()\n]{1,60}""" + _COMMA + r""")[rbu]?["'`]([^"'`\s]{8,200})["'`]""",
     "keywords": ["secretkeyspec", "signwith", "symmetricsecuritykey", "signedstring", "createhmac", "hmac.new", "fernet",
                  "hash_hmac", "jwt::", "openssl::hmac"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "authorization-scheme",  # an Authorization header with a vendor's scheme, not Bearer or Basic (authorization-header's):
     # Okta's SSWS, DeepL-Auth-Key, Splunk HEC's Splunk, Opsgenie's GenieKey, Klaviyo-API-Key, Zoho-oauthtoken, GoDaddy's
     # sso-key, Api-Key, Unsplash's Client-ID
     "regex": r"""(?i)\bauthorization["']?\]?(?:[ \t]*+[:=,][ \t]*+|[ \t]++)[fbr]?["'`]?(?:SSWS|DeepL-Auth-Key|Splunk|GenieKey"""
              r"""|Klaviyo-API-Key|Zoho-oauthtoken|sso-key|Api-?Key|Client-ID)[ \t]++([\w.~+/:=-]{20,200})""",
     "keywords": ["authorization"], "entropy": 3.0, "allowlists": [{"regexes": [_PLACEHOLDER, r"(?i)your|here|x{6}|\.{3}"]}]},
    {"id": "header-secret-value",  # an API key header given its value by a server's config or an HTTP client's call: nginx's
     # proxy_set_header and more_set_headers, Apache's RequestHeader set, HAProxy's http-request set-header, and
     # addHeader("X-API-Key", "..."), setHeader, setRequestHeader; names ending in a key's or token's word
     # (X-Api-Key, X-Auth-Token, PRIVATE-TOKEN, Ocp-Apim-Subscription-Key, x-functions-key)
     "regex": r"""(?i)(?:\b(?:proxy_set_header|more_set_headers|RequestHeader[ \t]++(?:set|append|add)|http-(?:request|response)[ \t]++"""
              r"""(?:set|add)-header)[ \t]++["']?|\b(?:add|set|setRequest)?Header\([ \t]*+["'])"""
              r"""[\w-]{0,40}?(?:api-?key|auth-?token|access-?token|api-?token|private-token|subscription-key|functions-key|secret)"""
              r"""(?::?["']?[ \t]*+,?[ \t]*+["']?)([^\s"';$<>{}]{16,200})"""
              # ninth sweep: a raw request's header line (an .http file, a curl -H, a log): X-Api-Key: ..., DD-API-KEY: ...
              # whose value holds "+", "-", "." or ":" (PagerDuty's u+..., Adyen's, Bitwarden's); a letter and a digit in it
              r"""|(?<![^\s"'])(?:[A-Za-z0-9]{1,20}-){0,2}[A-Za-z0-9]{1,20}(?:-api-?key|-auth-?token|-access-?token|-api-?token|-token|-secret)[ \t]*+:[ \t]*+"""
              r"""((?=[^\s"';<>{}]{0,299}[0-9])(?=[^\s"';<>{}]{0,299}[A-Za-z])[^\s"';$<>{}]{16,300}+)(?=\s|["']|$)""",
     "keywords": ["proxy_set_header", "more_set_headers", "requestheader", "-header", "header(", "-key", "-apikey", "-token", "-authtoken", "-accesstoken", "-apitoken",
                  "-secret"], "entropy": 3.0,
     # a key's header holding 32 or more hex digits holds a key (X-Auth-Token: 40 of them), not a digest: _NOT_MIXED
     # lets no such value through here
     "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"^(?!(?=[0-9a-f]*[a-f])[0-9a-f]*[0-9][0-9a-f]{30,}$)" + _NOT_MIXED[1:],
                                 _PATH]}, {"stopwords": _STOPWORDS}]},
    {"id": "split-token",  # a vendor's token split over two literals, so no rule sees it whole: "sk_live_" + "...",
     # 'ghp_' + '...', Python's implicit concatenation ("sk-proj-..." "..."), "Bearer " + "..."; the second part is read
     "regex": r"""["'`](?:sk_live_|rk_live_|sk_test_|rk_test_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[abposr]-|sk-(?:proj-|ant-)?"""
              r"""|hf_|npm_|pypi-|AKIA"""
              r"""|SG\.|shpat_|dop_v1_|AIza|(?i:bearer[ \t]))[\w.-]{0,200}+["'`][ \t]*+(?:[+.][ \t]*+(?:\\?\r?\n[ \t]*+)?|\\?\r?\n[ \t]*+)"""
              r"""["'`]([\w.-]{12,200})["'`]""",
     "keywords": ["sk_live_", "rk_live_", "sk_test_", "rk_test_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
                  "xox", "sk-", "hf_", "npm_", "pypi-", "akia", "sg.", "shpat_", "dop_v1_", "aiza", "bearer"], "entropy": 3.0,
     # a fixture's sequence is made up, not drawn: "ghp_" + "a1B2c3D4e5F6..." (tests/test_repo.py)
     "allowlists": _VALUE_ALLOWLISTS + [{"stopwords": ["a1b2c3", "abc123", "abcdef", "123456"]}]},
    {"id": "search-client-key",  # a search service's API key passed by position to its client, after the application's id:
     # Algolia's algoliasearch(appId, apiKey) (JavaScript), SearchClient.create (Python, PHP's ::create), algoliasearch.Client,
     # Java's DefaultSearchClient.create, Go's search.NewClient; the key is 32 hexadecimal digits (an admin key can write)
     "regex": r"""(?:\balgoliasearch(?:\.Client)?|\b(?:Default)?SearchClient(?:\.|::)create|\bsearch\.NewClient)[ \t]*+\("""
              r"""[ \t]*+["'][A-Za-z0-9]{6,12}["']""" + _COMMA + r"""["']([a-f0-9]{32})["']""",
     "keywords": ["algoliasearch", "searchclient", "search.newclient"], "entropy": 3.0},
    {"id": "set-command-secret",  # a secret set by a shell's own command, with a blank, not "=": fish's set -gx NAME value,
     # Windows' setx NAME "value", csh's setenv NAME value, launchctl setenv, Emacs Lisp's (setenv "NAME" "value"); and
     # platforms' CLIs that take the value after a blank (Netlify's netlify env:set NAME value, Convex's npx convex env set)
     "regex": r"""(?i)(?:\bset -[gxul]{1,4}(?:[ \t]++-[gxul]{1,4})?|\bsetx|\bsetenv|\bnetlify[ \t]++env:set|\bconvex[ \t]++env[ \t]++set)[ \t]++["']?\w{0,60}?(?:""" + _SECRET_NAME
              + r"""|(?-i:[A-Z0-9]_KEY))["']?[ \t]++["']?([^\s"'`$%<>{}()][^\s"'`$<>{}()]{7,199})["']?""",  # %VAR%: a lookup
     "keywords": ["set -", "setx", "setenv", "env:set", "env set"], "entropy": 2.5, "allowlists": _ALLOW_HEX},  # a hex key too  # "set -": fish's usual spacing
    {"id": "lisp-secret",  # a secret in Lisp: Emacs' (setq name-token "..."), defvar, defcustom; Clojure's and EDN's
     # keywords, {:password "..."}, Leiningen's :repositories credentials (no operator between name and value). In Lisp
     # files only: a ":" to start from is in every line of Python
     "regex": r"""(?i)(?:\((?:setq(?:-default|-local)?|defvar|defcustom|defconst|defparameter|def|defonce|define)[ \t]++[\w:*/.-]{0,60}?|(?<![\w:-]):[\w.-]{0,60}?)"""
              + _SECRET_NAME + r"""[ \t,]*+"([^"\s]{8,200})\"""",
     "keywords": _SECRET_KEYWORDS, "entropy": 2.5, "allowlists": _ALLOW_HEX,
     "path": r"(?i)(?:\.(?:clj[sc]?|edn|el|lisp|lsp|cl|scm|ss|rkt|fnl|hy|boot)|(?:^|/)\.(?:emacs|spacemacs|lein/profiles\.clj))$"},
]
