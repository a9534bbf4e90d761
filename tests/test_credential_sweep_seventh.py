"""A seventh credential sweep (session 40): credentials in contexts the earlier sweeps had not tried.

A CloudFormation parameter's default, a secret in a URL's query (an f-string's or a template literal's URL), an
Authorization literal handed to Swift or .NET, Rust's key calls, Windows' ``net use``, a key under a ``*_KEY`` name with
a declared type, ``#define``, ``@"..."`` or a property list, a hex key in those forms, Clojure's and Scheme's bindings,
a CSV column named ``db_password``, a YAML anchor before a value; a second round's (``object-pass-key`` and on): a
password under "pass", XML's name and value attributes, daemons' passwords, login and Wi-Fi calls, OpenSSL's pass:,
htpasswd and sudo -S, a form body, a token as a URL's userinfo, a YAML block scalar, Kotlin's and Scala's pairs, an HTML
password field, a Markdown table's token column; and ordinary code of the same shapes that is no
secret. Each case is another language, name and value than the sweep's generator used (``/tmp/h3c_work/gen7.py``).
Values are drawn at run time from a seeded generator, so this file holds no string a scanner would take for a real
credential.
"""
import random
import string

import pytest

from fakes import mixed_faker
from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_in_text

HEX, ALNUM = "0123456789abcdef", string.ascii_letters + string.digits


_rnd = random.Random(740)
fake = mixed_faker(_rnd)


FOUND = [
    # CloudFormation: a NoEcho parameter named as a secret, with a default (YAML, JSON)
    ("cloudformation-parameter-default", "infra/stack.template.yml",
     f"Parameters:\n  AdminPassword:\n    Type: String\n    NoEcho: true\n    MinLength: 12\n    Default: {fake(18)}\n"),
    ("cloudformation-parameter-default", "cfn/queue.json",
     '{"Parameters": {"ApiSecret": {"Type": "String", "NoEcho": "true", "Default": "%s"}}}\n' % fake(30)),
    ("cloudformation-parameter-default", "sam/template.yaml",
     f"Parameters:\n  WebhookToken:\n    Type: String\n    Default: '{fake(64, HEX)}'\n"),
    # a secret in a URL's query under its name, before "&" or a template's placeholder
    ("url-query-secret", "app/src/main/kotlin/Auth.kt",
     f'val u = "https://login.example.net/oauth/token?grant_type=client_credentials&client_secret={fake(34)}&scope=all"\n'),
    ("url-query-secret", "web/src/feed.js",
     f"const u = `https://feeds.example.org/v2/items?refresh_token={fake(40)}&since=${{since}}`;\n"),
    ("url-query-secret", "tools/sync.py",
     f'resp = httpx.get(f"{{BASE}}/export?format=csv&db_password={fake(14)}&page={{n}}")\n'),
    # an Authorization value written as a literal
    ("bearer-literal", "Sources/Net/Client.swift",
     f'request.addValue("Bearer {fake(24)}.{fake(30)}", forHTTPHeaderField: "Authorization")\n'),
    ("bearer-literal", "src/Api/Http.cs",
     f'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "{fake(44)}");\n'),
    ("bearer-literal", "android/Api.kt", f'val headers = mapOf("Authorization" to "Bearer {fake(36)}")\n'),
    # Rust: jsonwebtoken's keys and the hmac crate
    ("rust-key-call", "src/auth/jwt.rs", f'let key = DecodingKey::from_secret(b"{fake(28)}");\n'),
    ("rust-key-call", "src/sign.rs", f'let mut mac = HmacSha256::new_from_slice(b"{fake(32)}").unwrap();\n'),
    # Windows: net use with the password after /user:
    ("net-use-password", "deploy/mount.cmd", f"net use \\\\fs01\\builds /user:BUILD\\svc-ci {fake(12)} /persistent:no\n"),
    # a mixed key under a *_KEY name, in syntax gitleaks' generic rule does not read
    ("typed-key-value", "src/consts.rs", f'pub static MAPBOX_KEY: &\'static str = "{fake(32)}";\n'),
    ("typed-key-value", "include/weather.h", f'#define WEATHER_KEY "{fake(28)}"\n'),
    ("typed-key-value", "ios/Runner/Info.plist", f"<dict>\n  <key>PLACES_KEY</key>\n  <string>{fake(39)}</string>\n</dict>\n"),
    ("typed-key-value", "ios/Analytics.m", f'NSString *const kAnalyticsKey = @"{fake(26)}";\n'),
    # a hex key in those forms (hex-secret's syntax)
    ("hex-secret", "web/src/hooks.ts", f'export const webhookSigningKey: string = "{fake(64, HEX)}";\n'),
    ("hex-secret", "firmware/secrets.h", f'#define HMAC_SECRET "{fake(40, HEX)}"\n'),
    ("hex-secret", "ios/App/Info.plist", f"<key>API_SECRET</key>\n<string>{fake(32, HEX)}</string>\n"),
    # Lisp's bindings: Clojure's def and defonce, Scheme's define
    ("lisp-secret", "src/billing/core.clj", f'(def stripe-secret "{fake(30)}")\n'),
    ("lisp-secret", "scripts/deploy.rkt", f'(define db-password "{fake(16)}")\n'),
    ("lisp-secret", "src/app/crypto.cljs", f'(defonce hmac-key "{fake(64, HEX)}")\n'),
    # fish's set with a hex token
    ("set-command-secret", "fish/conf.d/tokens.fish", f"set -Ux SENTRY_AUTH_TOKEN {fake(64, HEX)}\n"),
    # a CSV column whose name ends in a secret's word
    ("csv-password-column", "exports/accounts.csv", f"user,db_password,role\nalice,{fake(15)},admin\n"),
    ("csv-password-column", "exports/hooks.csv", f"id;webhook_secret;url\n1;{fake(40, HEX)};https://x.example\n"),
    # a YAML anchor between the name and the value
    ("config-secret-value", "config/base.yaml", f"base: &base\n  client_secret: &cs {fake(32)}\n"),    # a password under "pass" (nodemailer's auth, a JSON config)
    ("object-pass-key", "src/mailer.ts", f"const t = nodemailer.createTransport({{ host, auth: {{ user: 'ops@example.org', pass: '{fake(18)}' }} }});\n"),
    ("object-pass-key", "config/mail.json", '{"imap": {"user": "inbox", "pass": "%s"}}\n' % fake(14)),
    # XML: a name attribute naming a secret and a value attribute holding it
    ("xml-name-value-secret", "src/main/resources/beans.xml", f'<property name="jdbcPassword" value="{fake(15)}"/>\n'),
    ("xml-name-value-secret", "build.xml", f'<property value="{fake(26)}" name="deploy.token"/>\n'),
    # daemons' passwords after their directive: keepalived, Net-SNMP
    ("service-password-line", "etc/keepalived/keepalived.conf",
     f"vrrp_instance VI_1 {{\n    authentication {{\n        auth_type PASS\n        auth_pass {fake(8)}\n    }}\n}}\n"),
    ("service-password-line", "etc/snmp/snmpd.conf", f"rwcommunity {fake(14)} 10.0.0.0/8\n"),
    # a password passed by position to a login call
    ("login-call-password", "auth/directory.py", f'conn.simple_bind_s("uid=svc,ou=apps,dc=corp", "{fake(13)}")\n'),
    ("login-call-password", "worker/queue.py", f'creds = pika.PlainCredentials("worker", "{fake(17)}")\n'),
    ("login-call-password", "lib/notify.rb", f'Net::SMTP.start("mail.example.org", 587, "example.org", "bot", "{fake(12)}", :plain)\n'),
    # a password in a command's own syntax
    ("command-password-option", "scripts/pack.sh", f"openssl pkcs12 -in cert.p12 -nodes -passin pass:{fake(12)} -out cert.pem\n"),
    ("command-password-option", "docker/entry.sh", f"htpasswd -b -c /etc/nginx/.htpasswd admin {fake(11)}\n"),
    ("command-password-option", "provision.sh", f"sudo -S apt-get install -y nginx <<< '{fake(10)}'\n"),
    # a form body's first field, a token as a URL's whole userinfo
    ("url-query-secret", "docs/token.md", f"curl -s https://auth.example.com/oauth/token -d 'client_secret={fake(30)}&grant_type=client_credentials'\n"),
    ("url-token-userinfo", "ci/mirror.sh", f"git push https://{fake(36)}@github.com/acme/mirror.git main\n"),
    # a YAML block scalar of one line, a pair by Kotlin's "to", an HTML password field filled in
    ("yaml-block-secret", "deploy/values.yml", f"smtp:\n  relay_password: >-\n    {fake(17)}\n  port: 587\n"),
    ("pair-operator-secret", "build.gradle.kts", f'val creds = mapOf("nexus.password" to "{fake(15)}")\n'),
    ("pair-operator-secret", "src/main/scala/Db.scala", f'val cfg = Map("jdbc.password" -> "{fake(16)}")\n'),
    ("html-password-input", "templates/login.html", f'<input name="pw" type="password" value="{fake(12)}">\n'),
    ("xml-name-value-secret", "public/index.html", f'<meta name="stripe-token" content="{fake(32)}">\n'),    # a Markdown table's secret column
    ("markdown-table-secret", "docs/environments.md",
     f"| Stage | Host | Deploy token |\n| --- | --- | --- |\n| staging | stg.example.net | `{fake(28)}` |\n"),
]


@pytest.mark.parametrize("rule, path, text", FOUND, ids=[f"{r}:{p}" for r, p, _ in FOUND])
def test_found(rule, path, text):
    assert rule in {f.rule for f in find_secrets(text, path)}, text
    assert credential_in_text(text, path)


NOT_SECRETS = [
    ("app/config.py", "API_KEY: str = Field(default=None)\n"),
    ("app/config.py", 'CACHE_KEY: str = "user_profile_v2_by_region"\n'),
    ("src/db.h", '#define PRIMARY_KEY "id"\n'),
    ("src/limits.rs", "const KEY_LENGTH: usize = 32;\n"),
    ("src/sign.rs", "let mut mac = HmacSha256::new_from_slice(&key_bytes).unwrap();\n"),
    ("ios/Info.plist", "<key>CFBundleIdentifier</key>\n<string>com.example.App2024Build</string>\n"),
    ("ios/Info.plist", "<key>NSCameraUsageDescription</key>\n<string>Scan receipts</string>\n"),
    ("src/api.ts", 'headers = { Authorization: "Bearer " + token };\n'),
    ("src/api.ts", "headers = { Authorization: `Bearer ${token}` };\n"),
    ("src/Api.swift", 'request.addValue("Bearer \\(token)", forHTTPHeaderField: "Authorization")\n'),
    ("infra/stack.yaml", "Parameters:\n  DbPassword:\n    Type: String\n    NoEcho: true\n"),
    ("infra/stack.yaml", "Parameters:\n  DbPassword:\n    Type: String\n    Default: '{{resolve:secretsmanager:prod/db}}'\n"),
    ("infra/stack.yaml", "Parameters:\n  InstanceType:\n    Type: String\n    Default: t3.micro\n"),
    ("docs/api.md", "GET https://api.example.com/v1/items?page_token=AbC123dEf456GhI789xYz&limit=50\n"),
    ("docs/api.md", "GET https://api.example.com/v1/items?token={token}&limit=50\n"),
    ("docs/api.md", "See https://example.com/reset?token=YOUR_TOKEN_HERE&user=me\n"),
    ("deploy/mount.cmd", "net use Z: \\\\fs01\\share /user:CORP\\me *\n"),
    ("deploy/mount.cmd", "net use Z: \\\\fs01\\share /persistent:yes\n"),
    ("src/app/core.clj", '(def cache-key "users-by-id")\n'),
    ("exports/users.csv", "user,password_policy,role\nbob,Min8CharsUpper1,viewer\n"),
    ("config/base.yaml", "base: &base\n  client_secret: &cs ${CLIENT_SECRET}\n"),
    ("src/db.rs", 'const TABLE_KEY: &str = "orders_by_customer";\n'),    ("src/flow.py", "for x in items:\n    pass\n"),
    ("config/mail.json", '{"smtp": {"user": "me", "pass": "${SMTP_PASS}"}}\n'),
    ("src/mailer.js", "const t = nodemailer.createTransport({ auth: { user, pass: process.env.MAIL_PASS } });\n"),
    ("src/main/resources/beans.xml", '<property name="passwordEncoder" ref="bcrypt"/>\n'),
    ("src/main/resources/beans.xml", '<property name="password" value="${db.password}"/>\n'),
    ("etc/snmp/snmpd.conf", "rocommunity public default\n"),
    ("etc/keepalived/keepalived.conf", "auth_type PASS\n"),
    ("auth/directory.py", "conn.simple_bind_s(bind_dn, bind_password)\n"),
    ("scripts/pack.sh", "openssl pkcs12 -in cert.p12 -passin pass:$P12_PASS -out cert.pem\n"),
    ("scripts/pack.sh", "openssl rsa -in key.pem -passin env:KEY_PASS -out plain.pem\n"),
    ("ci/mirror.sh", "git clone https://github.com/acme/mirror.git\n"),
    ("ci/mirror.sh", "git clone ssh://git@github.com/acme/mirror.git\n"),
    ("docs/usage.md", "Mail deploy-notifications@example.com for access.\n"),
    ("provision.sh", "sudo tee /etc/motd <<< 'Welcome to build host 7'\n"),
    ("deploy/values.yml", "smtp:\n  relay_password: |\n    ${RELAY_PASSWORD}\n"),
    ("build.gradle.kts", 'val creds = mapOf("nexus.password" to nexusPassword)\n'),
    ("templates/login.html", '<input name="pw" type="password" value="">\n'),
    ("templates/login.html", '<input name="pw" type="password" value="{{ form.pw }}">\n'),    ("docs/environments.md", "| Variable | Meaning |\n|---|---|\n| DEPLOY_TOKEN | the token CI deploys with |\n"),
    ("docs/environments.md", "| Stage | token |\n|---|---|\n| prod | `${PROD_TOKEN}` |\n"),
]


@pytest.mark.parametrize("path, text", NOT_SECRETS, ids=[f"{p}:{i}" for i, (p, _) in enumerate(NOT_SECRETS)])
def test_not_secret(path, text):
    assert credential_in_text(text, path) is None, [f.rule for f in find_secrets(text, path)]
