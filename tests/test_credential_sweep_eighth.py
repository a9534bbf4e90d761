"""An eighth credential sweep (session 41): places administrators and testers write secrets, and 2024-2026 shapes.

A YAML flow map, .NET's user-secrets store, a kubeadm bootstrap token under a name, an Asana token, an Azure SAS whose
sig= comes first, a Teams webhook's older URL, network devices' configurations (Cisco IOS, a BGP neighbor, an SNMP
community, an IPsec pre-shared key), a browser test typing a password, a password told in prose, a session cookie,
ldap3's and Twilio's clients by position, Supabase's and Square's secrets by shape, a vendor's token as a segment of a
URL's path; widened rules: a ``*_KEY`` name for fish's ``set -x`` and csh's ``setenv``, PHP's ``'pass' =>``, a
notebook's escaped ``os.environ[\\"X_KEY\\"]`` and a k8s env list for ``typed-key-value``, a hex key in a Dockerfile's
``ENV X_TOKEN <hex>`` and a Terraform default, a dict's password before its next item (``{'PASSWORD': '...', 'HOST':
'db'}``); and what looks like a secret but is none. Each case is another name and value than the sweep's generator
used (``/work/notes/cred_sweep_s41_scripts/gen8.py``). Values are drawn at run time from a seeded generator, so this
file holds no string a scanner would take for a real credential.
"""
import json
import random
import string

import pytest

from fakes import mixed_faker
from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_in_text

HEX, ALNUM, LOWER_DIGITS = "0123456789abcdef", string.ascii_letters + string.digits, string.ascii_lowercase + string.digits
URLSAFE = ALNUM + "-_"


_rnd = random.Random(841)
fake = mixed_faker(_rnd)


def uuid():
    h = fake(32, HEX)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def kubeadm_token():
    return f"{fake(6, LOWER_DIGITS)}.{fake(16, LOWER_DIGITS)}"


def notebook(lines):
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": lines}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


FOUND = [
    # a YAML flow map
    ("yaml-flow-secret", "deploy/values.yml", f"redis: {{host: cache, port: 6379, auth_token: {fake(28)}}}\n"),
    ("yaml-flow-secret", "ansible/vars.yaml", f'smtp: {{ "user": "mailer", "password": "{fake(15)}" }}\n'),
    # .NET's Secret Manager
    ("dotnet-user-secret", "docs/dev-setup.md", f'    dotnet user-secrets set "SendGrid:ApiKey" "{fake(40)}"\n'),
    ("dotnet-user-secret", "scripts/init.ps1", f"dotnet user-secrets set Github:ClientSecret {fake(40, HEX)} --project src/Web\n"),
    # kubeadm bootstrap tokens
    ("kubeadm-token", "scripts/add-node.sh", f"sudo kubeadm join 192.168.1.10:6443 --token {kubeadm_token()} --discovery-token-unsafe-skip-ca-verification\n"),
    ("kubeadm-token", "infra/cluster.yaml", f"bootstrapTokens:\n  - token: {kubeadm_token()}\n    ttl: 2h\n"),
    ("kubeadm-token", "deploy/job.yaml", f"env:\n  - name: JOIN_TOKEN\n    value: '{kubeadm_token()}'\n"),
    ("kubeadm-token", "src/join.rs", f'const BOOTSTRAP_TOKEN: &str = "{kubeadm_token()}";\n'),
    # Asana
    ("asana-token", "tools/asana_sync.py", f'HEADERS = {{"Authorization": "Bearer 2/{fake(16, "0123456789")}/{fake(16, "0123456789")}:{fake(32, HEX)}"}}\n'),
    ("asana-token", "config/asana.json", f'{{"asana": {{"workspace": "123", "pat": "1/{fake(16, "0123456789")}:{fake(32, HEX)}"}}}}\n'.replace(
        "1/", "1/" + fake(16, "0123456789") + "/")),
    # Azure SAS, sig= first
    ("azure-sas-signature", "scripts/backup.ps1",
     f'$url = "https://bk01.blob.core.windows.net/db?sig={fake(44)}%3D&se=2027-01-01&sp=rw&sv=2023-01-03&sr=c"\n'),
    # Teams' older webhook URL
    ("teams-legacy-webhook", "ops/alert.sh",
     f"curl -H 'Content-Type: application/json' -d @card.json https://outlook.office.com/webhook/{uuid()}@{uuid()}/IncomingWebhook/{fake(32, HEX)}/{uuid()}\n"),
    # network devices
    ("network-device-password", "net/core-sw.cfg", f"!\nenable password 7 {fake(12)}\n"),
    ("network-device-password", "net/access.cfg", f"username backup password {fake(11)}\n"),
    ("network-device-password", "net/frr.conf", f"router bgp 64512\n  neighbor 10.255.0.2 password {fake(16)}\n"),
    ("network-device-password", "net/edge.cfg", f"snmp-server community {fake(10)} RW 99\n"),
    ("network-device-password", "vpn/ipsec.secrets", f'vpn.example.net : PSK "{fake(30)}"\n'),
    # browser tests
    ("browser-test-password", "tests/e2e/test_admin.py", f'browser.find_element(By.NAME, "passwd").send_keys("{fake(13)}")\n'),
    ("browser-test-password", "cypress/e2e/signup.cy.ts", f"cy.get('[data-test=password-input]').type(\"{fake(12)}\");\n"),
    ("browser-test-password", "e2e/auth.spec.js", f"await page.locator('input[type=password]').fill('{fake(14)}');\n"),
    ("browser-test-password", "tests/robot/login.robot", f"    Input Password    id:pwd    {fake(13)}\n"),
    # prose
    ("prose-password", "docs/runbook.md", f"Connect to the bastion; the password is {fake(9)}#{fake(3)} (rotate it monthly).\n"),
    ("prose-password", "notes/staging.txt", f"grafana admin / password: {fake(12)}\n"),
    ("prose-password", "docs/onboarding.md", f"The staging API key is {fake(36)}, ask ops for prod.\n"),
    ("prose-password", "TODO.txt", f"- deploy token: `{fake(28, URLSAFE)}`\n"),
    # HTTPie's saved session
    ("httpie-session-auth", "home/.config/httpie/sessions/api.example.net/ops.json",
     json.dumps({"auth": {"type": "basic", "raw_auth": f"ops:{fake(15)}"}, "headers": []}, indent=4)),
    # cookies
    ("session-cookie", "docs/troubleshooting.md", f"curl --cookie 'connect.sid={fake(48, URLSAFE)}' https://app.example.net/api\n"),
    ("session-cookie", "captures/login.txt", f"HTTP/2 302\nset-cookie: _app_session={fake(60, URLSAFE)}; path=/; secure; httponly\n"),
    ("session-cookie", "tests/fixtures/headers.py", f'HEADERS = {{"Cookie": "theme=dark; PHPSESSID={fake(26, LOWER_DIGITS)}"}}\n'),
    # clients by position
    ("positional-client-secret", "auth/directory.py", f'c = Connection(srv, "uid=svc,ou=apps,dc=example,dc=org", "{fake(16)}")\n'),
    ("positional-client-secret", "notify/sms.py", f"twilio = Client(\"AC{fake(32, HEX)}\", \"{fake(32, HEX)}\")\n"),
    ("positional-client-secret", "src/models/index.js", f"const db = new Sequelize('orders', 'orders_rw', '{fake(15)}', {{ dialect: 'postgres' }});\n"),
    ("positional-client-secret", "lib/fetch.rb", f"request.basic_auth('reporter', '{fake(15)}')\n"),
    ("positional-client-secret", "tools/mirror.py", f"handler.add_password(None, 'https://repo.example.net/', 'mirror', '{fake(15)}')\n"),
    # setters
    ("setter-secret", "src/main/java/DataSourceConfig.java", f'dataSource.setPassword("{fake(16)}");\n'),
    ("setter-secret", "app/Services/Mailer.php", f"$client->setClientSecret('{fake(32)}');\n"),
    ("setter-secret", "fixtures/load.py", f'admin.set_password("{fake(14)}")\n'),
    # shapes
    ("vendor-key-shape-2025", "web/.env.local.example", f"SUPABASE_SERVICE=sb_secret_{fake(34, URLSAFE)}\n"),
    ("vendor-key-shape-2025", "pay/config.rb", f"Square.app_secret = 'sq0csp-{fake(43, URLSAFE)}'\n"),
    ("vendor-key-shape-2025", "ci/mirror.sh", f"git push https://ATBB{fake(32)}@bitbucket.example.org/team/repo.git\n".replace("https://", "https://x-token-auth:")),
    ("vendor-key-shape-2025", "integrations/clickup.py", f'TOKEN = "pk_{fake(8, "0123456789")}_{fake(32, string.ascii_uppercase + string.digits)}"\n'),
    ("vendor-key-shape-2025", "src/vision.ts",
     f'const key = "{fake(52)}JQQJ99B{"ACDEFGHIJKL"[_rnd.randrange(11)]}{fake(16)}Z{fake(7)}";\n'),
    ("vendor-key-shape-2025", "deploy/run.sh", f"infisical run --token st.{fake(24, HEX)}.{fake(32, HEX)}.{fake(32, HEX)} -- npm start\n"),
    # a vendor's token as a segment of a URL's path
    ("url-path-token", "docs/proxy.md", f"GET https://proxy.example.net/gh/ghp_{fake(36)}/repos/acme/app\n"),
    ("url-path-token", "nginx/routes.conf", f"location /hooks/xoxb-{fake(12, '0123456789')}-{fake(24)}/ {{ return 403; }}\n"),
    ("url-path-token", "logs/access.log", f'10.0.0.3 - - "GET /v1/sk_live_{fake(40)}/charges HTTP/1.1" 200\n'),
    # widened rules
    ("xml-secret-element", "src/main/resources/service.xml", f"<service>\n  <clientSecret><![CDATA[{fake(36)}]]></clientSecret>\n</service>\n"),
    ("set-command-secret", "home/.config/fish/conf.d/keys.fish", f"set -Ux TOGETHER_KEY {fake(40)}\n"),
    ("set-command-secret", "env/prod.csh", f"setenv PADDLE_VENDOR_KEY '{fake(30)}'\n"),
    ("object-pass-key", "app/config/mail.php", f"<?php\nreturn ['smtp' => ['user' => 'noreply', 'pass' => '{fake(16)}']];\n"),
    ("typed-key-value", "notebooks/load.ipynb", notebook(["import os\n", f'os.environ["COHERE_KEY"] = "{fake(40)}"\n'])),
    ("typed-key-value", "k8s/worker.yaml", f"        env:\n        - name: MAPS_KEY\n          value: {fake(39)}\n"),
    ("env-secret", "services/api/Dockerfile", f"FROM golang:1.22\nENV PAGERDUTY_TOKEN {fake(32, HEX)}\n"),
    ("terraform-variable-default", "infra/maps.tf", f'variable "maps_key" {{\n  default = "{fake(39)}"\n}}\n'),
    ("terraform-variable-default", "infra/dns.tf", f'variable "cf_api_token" {{\n  sensitive = true\n  default   = "{fake(40, HEX)}"\n}}\n'),
    ("secret-assignment", "mysite/settings.py", f"CACHES = {{'default': {{'LOCATION': 'redis://cache:6379', 'PASSWORD': '{fake(18)}', 'DB': 1}}}}\n"),
]


@pytest.mark.parametrize("rule, path, text", FOUND, ids=[f"{r}:{p}" for r, p, _ in FOUND])
def test_found(rule, path, text):
    assert rule in {f.rule for f in find_secrets(text, path)}, text
    assert credential_in_text(text, path)


NOT_SECRETS = [
    # ids and digests in paths, lockfiles and logs
    ("docs/orders.md", f"GET https://shop.example.net/api/orders/{uuid()}/items\n"),
    ("docs/stripe.md", f"curl https://api.stripe.com/v1/checkout/sessions/cs_live_b1{fake(58)}/line_items\n"),
    ("README.md", f"Fixed in https://github.com/acme/app/commit/{fake(40, HEX)}/\n"),
    ("uv.lock", f'sdist = {{ url = "https://files.pythonhosted.org/x-1.0.tar.gz", hash = "sha256:{fake(64, HEX)}" }}\n'),
    # placeholders and lookups
    ("docs/slack.md", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX\n"),
    ("docs/proxy.md", "GET https://proxy.example.net/gh/ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/repos\n"),
    ("deploy/values.yml", "db: {user: app, password: ${DB_PASSWORD}}\n"),
    ("deploy/values.yml", "db: {user: app, password: '{{ vault_db_password }}'}\n"),
    ("README.md", 'dotnet user-secrets set "Stripe:SecretKey" "<your-stripe-key>"\n'),
    ("docs/k8s.md", "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef\n"),
    ("docs/k8s.md", "kubeadm token create --print-join-command --ttl 2h\n"),
    ("cypress/e2e/login.cy.js", "cy.get('#password').type(Cypress.env('ADMIN_PASSWORD'), { log: false })\n"),
    ("tests/test_login.py", 'driver.find_element(By.ID, "password").send_keys(settings.TEST_PASSWORD)\n'),
    ("tests/robot/login.robot", "    Input Password    id:pwd    ${ADMIN_PASSWORD}\n"),
    ("docs/account.md", "The password is required; it must have at least 12 characters.\n"),
    ("docs/account.md", "Choose a password: something_long_and_unguessable.\n"),
    ("docs/setup.md", "The file holds the username and password entries (both in clear text).\n"),
    # oauthlib's docstring, indented as a configuration line is: the value "login," is a word of prose
    ("oauthlib/endpoints/authorization.py", "    username and password login, session cookies) is beyond the scope of\n"),
    ("src/prompt.py", "        password (bool, optional): Enable password input. Defaults to False.\n"),
    ("docs/api.md", "curl -H 'Cookie: session=<your-session-cookie>' https://app.example.net/\n"),
    ("net/r1.cfg", "enable secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM\n"),
    ("net/r1.cfg", "snmp-server community public RO\n"),
    ("vpn/ipsec.secrets", ': PSK "<pre-shared-key>"\n'),
    ("app/ldap.py", "conn = Connection(server, user=bind_dn, password=bind_password, auto_bind=True)\n"),
    ("config.fish", "set -x OPENAI_API_KEY (security find-generic-password -s openai -w)\n"),
    ("scripts/env.csh", "setenv PRIMARY_KEY id\n"),
    ("db/seed.sql", f"INSERT INTO users (email, password_hash) VALUES ('a@example.org', '$2b$12${fake(53)}');\n"),
    ("app/settings.py", "DATABASES = {'default': {'PASSWORD': os.environ['DB_PASSWORD'], 'HOST': 'db'}}\n"),
    ("app/settings.py", "OPTIONS = {'password': 'password', 'user': 'admin'}\n"),
    ("tests/test_auth.py", "user.set_password('top_secret')\n"),
    ("conf/app.xml", "<apiKey><![CDATA[${ACME_API_KEY}]]></apiKey>\n"),
    ("litellm/config.yaml", "model_list:\n  - model_name: gpt\n    litellm_params:\n      api_key: os.environ/AZURE_API_KEY\n"),
    ("docs/auth.md", "The API token is sent in the Authorization header; the token: see Settings > Tokens.\n"),
    ("infra/vars.tf", 'variable "ssh_public_key" {\n  default = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG4m ops@example"\n}\n'),
    ("infra/vars.tf", 'variable "kms_key" {\n  default = "arn:aws:kms:eu-west-1:123456789012:key/abcd1234"\n}\n'),
    ("src/Config.java", "ds.setPassword(System.getenv(\"DB_PASSWORD\"));\n"),
    ("src/models/index.js", "const db = new Sequelize(process.env.DB, process.env.DB_USER, process.env.DB_PASS);\n"),
    ("lib/version.py", "__version__ = '0.4.0'; first.step = 1; st.write('ok')\n"),
]


@pytest.mark.parametrize("path, text", NOT_SECRETS, ids=[f"{p}:{i}" for i, (p, _) in enumerate(NOT_SECRETS)])
def test_not_secret(path, text):
    assert credential_in_text(text, path) is None, [f.rule for f in find_secrets(text, path)]
