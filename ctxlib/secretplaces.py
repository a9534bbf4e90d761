"""Secrets in places the other rules do not read: rules ctxlib adds after ``secretcontexts.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". An eighth sweep put credentials where administrators and testers write them:
a YAML flow map ({user: app, password: ...}), .NET's user-secrets store, a kubeadm bootstrap token, an Asana token, an
Azure SAS whose signature comes first, a Teams webhook's older URL, network devices' configurations (Cisco IOS's enable
secret and username lines, a BGP neighbor's password, an SNMP community, an IPsec pre-shared key), a browser test typing
a password, a password told in prose, a session cookie, an LDAP bind by position, Twilio's client by position, vendors'
keys of 2024 and 2025 known by their shape (Supabase's sb_secret_, Square's application secret). Each is read by its
documented shape; ``credentials.py`` runs them after ``secretcontexts.CONTEXT_RULES``.

Not read: a Cisco type 5, 8 or 9 secret (a hash: an offline attack's start, not a password); a bare Asana or kubeadm
token with no name near (``secretshapes.py`` reads those, in runs of their own lengths); a vendor's token inside a URL's
path but by a prefix listed here (object ids such as Stripe's checkout sessions live there too). The allowlists are ``secretrules``' (a placeholder, a
template, a value not mixed enough to be chosen). Every expression is linear in the text: bounded or possessive
repeats, a literal to start from (``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretnames import _TO_VALUE
from .secretrules import _ALLOW_HEX, _NOT_SECRET_NAMES, _PLACEHOLDER, _SECRET_NAME, _STOPWORDS, _TEMPLATE, _VALUE_ALLOWLISTS

_SECRET_KEYWORDS = ["pass", "pwd", "secret", "token", "key", "credential", "salt"]  # the words of _SECRET_NAME
_PLAIN = [{"regexes": [_PLACEHOLDER, _TEMPLATE]}, {"stopwords": _STOPWORDS}]  # a placeholder, a template, a fixture's word

PLACE_RULES = [
    {"id": "yaml-flow-secret",  # a secret's name and its value in a YAML flow map: db: {user: app, password: ...}
     # (YAML 1.2, section 7.4.2), quoted or not, after "{" or ","
     "regex": r"""(?i)(?:(?<=[{,])|(?<=[{,][ \t]))["']?[\w.-]{0,60}?""" + _SECRET_NAME + r"""["']?[ \t]*+:[ \t]++["']?([^\s"',{}\[\]#]{8,200})["']?[ \t]*+[,}]""",
     "keywords": _SECRET_KEYWORDS, "entropy": 2.5, "path": r"""(?i)\.(?:ya?ml|sls)$""",
     "allowlists": _ALLOW_HEX + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "dotnet-user-secret",  # .NET's Secret Manager: dotnet user-secrets set "Section:Key" "value" stores a secret
     # for development (Microsoft's "Safe storage of app secrets"); every value it is given is one, a connection string too
     "regex": r"""(?i)\bdotnet[ \t]++user-secrets[ \t]++set[ \t]++(?:"[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s"']{1,200})[ \t]++"""
              r"""(?:"([^"\n]{8,400})"|'([^'\n]{8,400})'|([^\s"'|;&<>]{8,400}))""",
     "keywords": ["user-secrets"], "entropy": 3.0, "allowlists": _PLAIN},
    {"id": "kubeadm-token",  # a kubeadm bootstrap token ([a-z0-9]{6}.[a-z0-9]{16}, Kubernetes' "Authenticating with
     # Bootstrap Tokens") given to kubeadm join --token, in an InitConfiguration's bootstrapTokens, or under a name with
     # "token" in it; the docs' abcdef.0123456789abcdef is none
     "regex": r"""(?i)(?:--token[ \t=]++|token[\w-]{0,40}(?:\\?["']\][ \t]*+=[ \t]*+|""" + _TO_VALUE + r"""|[ \t]++))[rbu]?\\?["'`]?"""
              r"""(?-i:([a-z0-9]{6}\.(?=[a-z]{0,15}[0-9])(?=[0-9]{0,15}[a-z])[a-z0-9]{16}))(?![\w.-])""",
     "keywords": ["token"], "allowlists": [{"regexes": [r"^abcdef\.0123456789abcdef$"]}]},
    {"id": "asana-token",  # an Asana personal access token ("2/<user id>/<token id>:<32 hex>", the 2022 format; "1/"
     # before it) under a name with "token", after Bearer, or near Asana's name; digits and a ":" are too plain to read bare
     "regex": r"""(?i)(?:token|bearer|asana)[^\n]{0,60}?(?<![\w/])([12]/[0-9]{10,20}/[0-9]{10,20}:[0-9a-f]{32})(?![\w-])""",
     "keywords": ["token", "bearer", "asana"]},
    {"id": "azure-sas-signature",  # an Azure shared access signature whose sig= comes before its sv= (a SAS's fields
     # may be in any order; service-token reads sv= first): the signature is the HMAC that grants the access
     "regex": r"""[?&]sig=([\w%+/]{30,200}+)(?=[^\s"'<>]{0,300}?[?&]sv=\d{4}-\d\d-\d\d)""",
     "keywords": ["sig="], "entropy": 3.0},
    {"id": "teams-legacy-webhook",  # a Microsoft Teams incoming webhook's older URL, outlook.office.com/webhook/ (or
     # outlook.office365.com): <group>@<tenant>/IncomingWebhook/<32 hex>/<owner> (gitleaks knows webhook.office.com)
     "regex": r"""\boutlook\.office(?:365)?\.com/webhook/([0-9a-f-]{36}@[0-9a-f-]{36}/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36})""",
     "keywords": ["incomingwebhook"]},
    {"id": "network-device-password",  # network devices' passwords in their configurations: Cisco IOS's enable secret
     # and enable password, username NAME [privilege N] password|secret (type 0: plain text, type 7: reversible), a BGP
     # neighbor's MD5 password (IOS, FRR, Junos' authentication-key), an SNMP community (snmp-server community NAME RO;
     # "public" and "private" are the defaults, no secret), an IPsec pre-shared key (strongSwan's ipsec.secrets: PSK "...");
     # a configuration's line, not prose ("username and password entries"), and not one word of small letters
     "regex": r"""(?i)(?<![^\n])[ \t]{0,8}(?:enable[ \t]++(?:secret|password)|username[ \t]++\S{1,64}+(?:[ \t]++privilege[ \t]++\d{1,2})?[ \t]++(?:secret|password)"""
              r"""|neighbor[ \t]++\S{1,64}+[ \t]++password|snmp-server[ \t]++community)(?:[ \t]++(?:level[ \t]++\d{1,2}|[07]))?[ \t]++"""
              r"""["']?([^\s"'$!#]\S{3,127})["']?(?=\s|$)|(?<=\s:[ \t])PSK[ \t]++"([^"\n]{6,200})\"""",
     "keywords": ["enable", "username", "neighbor", "snmp-server", "psk"], "entropy": 2.0,
     "allowlists": _PLAIN + [{"regexes": [r"^(?i:public|private|RO|RW)$", r"^[a-z]+[.,;:)]?$"]}]},  # a word: prose
    {"id": "browser-test-password",  # a browser test typing a password into a password field: Selenium's
     # find_element(By.ID, "password").send_keys("..."), Cypress' cy.get('#password').type('...'), Playwright's
     # page.fill('#password', '...') and getByLabel('Password').fill('...'), Robot Framework's Input Password; a literal,
     # not Cypress.env('PASSWORD') or Robot's ${PASSWORD}
     "regex": r"""(?i)pass(?:word|wd)?\b[^\n]{0,120}?(?:\.(?:send_?keys|type|fill)[ \t]*+\(|\.fill[ \t]*+\([^\n,]{0,100},)[ \t]*+["'`]([^"'`\s\\]{6,200})["'`]"""
              # Robot Framework's SeleniumLibrary: Input Password, its locator, then the password (cells apart by 2 blanks)
              r"""|\bInput[ \t]Password(?:[ \t]{2,8}+|\t)[^\s]{1,200}+(?:[ \t]{2,8}+|\t)([^\s$%&@][^\s]{5,199})(?=\s|$)""",
     "keywords": ["pass"], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "prose-password",  # a password told in prose or notes: "the password is ...", "password: ..." in a Markdown,
     # text or reStructuredText file; mixed as a chosen password is (letters and a digit or a sign), not "required";
     # a token or an API key told so, 16 characters or more ("the API token is ...", "staging api key: `...`")
     "regex": r"""(?i)\b(?:passw(?:or)?d|passwd|passphrase)(?:[ \t]++(?:is|was)|[ \t]*+:|[ \t]++=)[ \t]++["'`]?"""
              r"""((?=[^\s"'`]{0,63}[0-9!@#$%^&*])(?=[^\s"'`]{0,63}[A-Za-z])[^\s"'`<>{}]{5,63}[^\s"'`<>{}.,;:)])"""
              r"""|\b(?:token|api[ _-]?key|secret)(?:[ \t]++(?:is|was)|[ \t]*+:|[ \t]++=)[ \t]++["'`]?"""
              r"""((?=[\w.~+/-]{0,199}[0-9])(?=[\w.~+/-]{0,199}[A-Za-z])[\w.~+/-]{16,200}+)(?=["'`]|[.,;:)]?(?:\s|$))""",
     "keywords": ["passw", "passphrase", "token", "api key", "api_key", "api-key", "apikey", "secret"], "entropy": 2.5, "path": r"""(?i)(?:\.(?:md|markdown|txt|rst|adoc|org)|(?:^|/)[A-Z]+)$""",
     "allowlists": _VALUE_ALLOWLISTS},
    {"id": "session-cookie",  # a session cookie is a login: Cookie: / Set-Cookie: headers, curl -b/--cookie, with a
     # session's, token's or auth's name (session, sessionid, connect.sid, PHPSESSID, _gh_sess, auth_token, jwt);
     # 20 characters or more (a test's "_oauth_request_token=enhjdg==|MTIzNA==" is a fixture's)
     "regex": r"""(?i)(?:\b(?:set-)?cookie["']?[ \t]*+[:=][ \t]*+["']?|(?<=[ \t])--cookie[ \t]++["']?|(?<=[ \t])-b[ \t]++["']?)(?:[^\s=;"']{1,60}=[^\s;"']{0,300};[ \t]*+){0,8}?"""
              r"""[\w.-]{0,30}?(?:sess\w{0,10}|sid|token|auth\w{0,10}|jwt)=([^\s;"'<>]{20,500})""",
     "keywords": ["cookie", "-b "], "entropy": 3.0, "allowlists": _PLAIN},
    {"id": "httpie-session-auth",  # an HTTPie session file's saved login: "auth": {"type": "basic", "raw_auth":
     # "user:password"} (HTTPie's docs: sessions store the credentials in plain text)
     "regex": r""""raw_auth"[ \t]*+:[ \t]*+"[^":\s]{1,100}:([^"\s]{6,200})\"""", "keywords": ["raw_auth"], "allowlists": _PLAIN},
    {"id": "positional-client-secret",  # a secret passed by position where a known first argument shows what it is:
     # ldap3's Connection(server, "cn=admin,dc=...", "password"), Twilio's Client("AC<32 hex>", "<auth token>"), or where
     # the call's signature does
     "regex": r"""\bConnection[ \t]*+\([ \t]*+\w{1,40}[ \t]*+,[ \t]*+(?:user[ \t]*+=[ \t]*+)?["'](?i:cn|uid|ou)=[^"'\n]{1,200}["'][ \t]*+,"""
              r"""[ \t]*+(?:password[ \t]*+=[ \t]*+)?["']([^"'\s]{6,200})["']"""
              r"""|\bClient[ \t]*+\([ \t]*+["']AC[0-9a-f]{32}["'][ \t]*+,[ \t]*+["']([0-9a-f]{32})["']"""
              # Sequelize's new Sequelize(database, username, password, options), Ruby's Net::HTTP basic_auth(user,
              # password), urllib's HTTPPasswordMgr.add_password(realm, uri, user, password)
              r"""|(?<=new[ \t])Sequelize[ \t]*+\([ \t]*+["'][^"'\n]{1,100}["'][ \t]*+,[ \t]*+["'][^"'\n]{1,100}["'][ \t]*+,[ \t]*+["']([^"'\s]{6,200})["']"""
              r"""|\bbasic_auth[ \t]*+\(?[ \t]*+["'][^"'\n]{1,100}["'][ \t]*+,[ \t]*+["']([^"'\s]{6,200})["']"""
              r"""|\badd_password[ \t]*+\([^,\n]{1,100},[^,\n]{1,200},[ \t]*+["'][^"'\n]{1,100}["'][ \t]*+,[ \t]*+["']([^"'\s]{6,200})["']""",
     "keywords": ["connection", "client", "sequelize", "basic_auth", "add_password"], "entropy": 2.5, "allowlists": _ALLOW_HEX},
    {"id": "setter-secret",  # a secret handed to a setter named for it: Java's and PHP's setPassword("..."),
     # setClientSecret, setApiKey, setAccessToken (a DataSource, an SDK's client builder), Python's set_password("...")
     "regex": r"""(?:\.|->)set_?(?:[A-Z][A-Za-z]{0,30}|[a-z_]{0,30}_)?(?:Password|Passwd|Secret|SecretKey|ApiKey|Token|AccessKey|PrivateKey"""
              r"""|Passphrase|password|passwd|secret|secret_key|api_key|token|access_key|private_key|passphrase)[ \t]*+\([ \t]*+["']([^"'\s\\]{8,200})["'][ \t]*+\)""",
     "keywords": ["password(", "passwd(", "secret(", "secretkey(", "secret_key(", "apikey(", "api_key(", "token(", "accesskey(",
                  "access_key(", "privatekey(", "private_key(", "passphrase("], "entropy": 2.5, "allowlists": _VALUE_ALLOWLISTS},
    {"id": "url-path-token",  # a vendor's secret token as a segment of a URL's path (an API that takes its key in the
     # path, a proxy's route, a logged request): the other rules refuse a "/" after a token, since base64 runs on over
     # it. Only prefixes that vendors give secrets alone (GitHub's, GitLab's, Slack's, OpenAI's, Anthropic's, Stripe's
     # sk_ and rk_...), between two "/": a path's object ids (Stripe's cs_live_ checkout sessions, UUIDs) are none.
     # Each prefix written out whole, so that the search starts from it (regexscan), not from "gh" or "sk"
     "regex": r"""(?<=/)((?:ghp_[A-Za-z0-9]{36}|gho_[A-Za-z0-9]{36}|ghu_[A-Za-z0-9]{36}|ghs_[A-Za-z0-9]{36}|ghr_[A-Za-z0-9]{36}"""
              r"""|github_pat_\w{82}|glpat-[\w.-]{20,80}|gldt-[\w.-]{20,80}|glrt-[\w.-]{20,80}|glptt-[\w.-]{20,80}|glft-[\w.-]{20,80}"""
              r"""|glsoat-[\w.-]{20,80}|xoxb-[\w-]{20,200}|xoxa-[\w-]{20,200}|xoxp-[\w-]{20,200}|xoxr-[\w-]{20,200}|xoxs-[\w-]{20,200}"""
              r"""|xoxe-[\w-]{20,200}|sk-proj-[\w-]{40,200}|sk-svcacct-[\w-]{40,200}|sk-admin-[\w-]{40,200}|sk-ant-(?:api|admin|oat|ort)\d\d-[\w-]{80,120}"""
              r"""|hf_[A-Za-z]{34}|xai-[A-Za-z0-9]{80}|gsk_\w{52}|pplx-\w{48}|r8_\w{37}|(?:sk_live|sk_test|rk_live|rk_test)_\w{24,200}"""
              r"""|SG\.[\w-]{22}\.[\w-]{43}|npm_\w{36}|(?:dop|doo|dor)_v1_[0-9a-f]{64}|nfp_\w{36}|figd_[\w-]{40}|dapi[0-9a-f]{32}"""
              r"""|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|(?:sntryu|sntrys)_\w{40,400}|(?:pscale_tkn|pscale_pw)_[\w.-]{32,64}|tvly-\w{32}|ntn_\w{46}"""
              r"""|(?:shpat|shpss|shpca|shppa)_[0-9a-f]{32}|lin_api_\w{40}|glsa_\w{32}_[0-9a-f]{8}|hvs\.[\w-]{90,200}|hvb\.[\w-]{90,200}|EAAA[\w-]{60}"""
              r"""|sq0csp-[\w-]{43}|sb_secret_[\w-]{31,80}|fo1_[\w-]{43}|sk\.eyJ[\w.-]{60,300}|sk_[0-9a-f]{48}|AIza[\w-]{35}|pcsk_\w{5}_\w{63}"""
              r"""|(?:lsv2_pt|lsv2_sk)_[0-9a-f]{32}_[0-9a-f]{10}|tskey-\w{1,10}-[\w-]{20,80}))(?=/)""",
     "keywords": ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "xoxb-",
                  "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xoxe-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-ant-", "hf_", "xai-", "gsk_",
                  "pplx-", "r8_", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "sg.", "npm_", "dop_v1_", "doo_v1_", "dor_v1_", "nfp_",
                  "figd_", "dapi", "pmak-", "sntryu_", "sntrys_", "pscale_tkn_", "pscale_pw_", "tvly-", "ntn_", "shpat_", "shpss_",
                  "shpca_", "shppa_", "lin_api_", "glsa_", "hvs.", "hvb.", "eaaa", "sq0csp-", "sb_secret_", "fo1_", "sk.eyj", "sk_",
                  "aiza", "pcsk_", "lsv2_", "tskey-"],
     "entropy": 3.0, "allowlists": [{"regexes": [r"(?-i:EXAMPLE|x{8}|X{8})"]}]},
    {"id": "url-path-key-2026",  # more vendors' keys as a URL's path segment, each after its "/" so that the search starts
     # from "/re_", "/pat", "/access_token$" (the words alone are in every Python file): Resend's API keys (re_, 8, _, 24),
     # Airtable's personal access tokens (pat, 14, ".", 64 hex), Braintree's access tokens (access_token$production$...)
     # and the ninth sweep's vendors whose own rules want no "/" before: Hugging Face's org tokens (api_org_), Voyage AI's
     # (pa-), Stability's (sk- and 48), Heroku's (HRKU-AA), Render's (rnd_), Mollie's (live_ and 30), CircleCI's (CCIPAT_),
     # SonarQube's (squ_, sqp_, sqa_), Pulumi's (pul-), Buildkite's (bkua_), Sourcegraph's (sgp_), Prefect's (pnu_),
     # RubyGems' (rubygems_), Xata's (xau_), HubSpot's (pat-na1-), Brevo's (xkeysib-), Azure AD client secrets (8Q~)
     "regex": r"""/(re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}|pat[A-Za-z0-9]{14}\.[0-9a-f]{64}"""
              r"""|access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}|api_org_[A-Za-z]{34}|pa-[\w-]{43}|sk-[A-Za-z0-9]{48}"""
              r"""|HRKU-AA[\w-]{58}|rnd_[A-Za-z0-9]{32}|live_[A-Za-z0-9]{30}|CCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40}|sq[upa]_[0-9a-f]{40}"""
              r"""|pul-[0-9a-f]{40}|bkua_[0-9a-f]{40}|sgp_(?:[0-9a-f]{16}_)?[0-9a-f]{40}|pnu_[A-Za-z0-9]{36}|rubygems_[0-9a-f]{48}"""
              r"""|xau_[A-Za-z0-9]{32,64}|pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"""
              r"""|xkeysib-[0-9a-f]{64}-[A-Za-z0-9]{16}|[\w.~-]{3}8Q~[\w.~-]{31,34}|[0-9a-f]{36}NRAL)(?=/)""",
     "keywords": ["/re_", "/pat", "/access_token$", "/api_org_", "/pa-", "/sk-", "/hrku-aa", "/rnd_", "/live_", "/ccipat_", "/squ_",
                  "/sqp_", "/sqa_", "/pul-", "/bkua_", "/sgp_", "/pnu_", "/rubygems_", "/xau_", "/pat-", "/xkeysib-", "8q~", "nral/"], "entropy": 3.0, "allowlists": [{"regexes": [r"(?-i:EXAMPLE|x{8}|X{8})"]}]},
    {"id": "vendor-key-shape-2025",  # vendors' keys known by their shape that no other rule reads: Supabase's secret API
     # keys (sb_secret_ and 31 or more of base64url; sb_publishable_ is public), Square's application secrets (sq0csp-, 43),
     # Bitbucket's app passwords (ATBB and 32), ClickUp's personal tokens (pk_<user id>_<32>), Microsoft's common annotated
     # security keys (84 characters, JQQJ9 at 52: Azure AI services' and others' keys since 2024), Infisical's service tokens
     "regex": r"""(?<![\w./-])(sb_secret_[\w-]{31,80}+|sq0csp-[\w-]{43}|ATBB[A-Za-z0-9]{32}|pk_[0-9]{6,10}_[A-Z0-9]{32}"""
              r"""|[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?"""
              r"""|st\.[0-9a-f]{24}\.[0-9a-f]{32}\.[0-9a-f]{32})(?![\w-])""",
     "keywords": ["sb_secret_", "sq0csp-", "atbb", "pk_", "jqqj9", "st."], "entropy": 3.0, "allowlists": [{"regexes": [r"(?-i:EXAMPLE|x{8})"]}]},
]
