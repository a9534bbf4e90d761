"""Kinds of credential that gitleaks' rules let through, and their look-alikes (ctxlib/secretrules.py, base64scan.py).

A red-team round wrote ~180 fake credentials in many formats and ~95 look-alikes. Each case here stands
for a kind, not for one vendor: a password with punctuation in a quoted assignment (gitleaks'
generic-api-key takes [\\w.=-] values only), an unquoted NAME_PASSWORD=... in a shell, Dockerfile or
inventory, a connection string's Password=, a hex key named by its variable, a .pgpass line under
another name, a token with a prefix no vendor rule knows, base64 wrapped over lines, a private key's
DER without its BEGIN line. Every true positive below is packed (no finding) before the rules that
catch it; every look-alike is packed before and after. Values are assembled at run time from a seeded
generator, so this file holds no string a scanner would take for a real credential.
"""
import base64
import random
import string

import pytest

from ctxlib.base64scan import private_key_der
from ctxlib.credentials import find_secrets, shannon_entropy
from ctxlib.repo import credential_file_reason, credential_in_text

_rnd = random.Random(31)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def fake(n, alphabet=ALNUM):
    return "".join(_rnd.choice(alphabet) for _ in range(n))


def password():
    """A chosen-looking password: letters of both cases, a digit, a symbol."""
    return fake(6, string.ascii_uppercase) + fake(6, string.ascii_lowercase) + "#!" + fake(3, string.digits)


def wrap(text, width=64, indent=""):
    return "\n".join(indent + text[i:i + width] for i in range(0, len(text), width))


def der(*parts: bytes) -> bytes:
    """An ASN.1 SEQUENCE of ``parts`` in DER (long-form length)."""
    body = b"".join(parts)
    return b"\x30\x82" + len(body).to_bytes(2, "big") + body


def octets(n):
    return bytes(_rnd.getrandbits(8) for _ in range(n))


RSA_ALGORITHM = bytes.fromhex("300d06092a864886f70d0101010500")  # AlgorithmIdentifier rsaEncryption, NULL
RSA_KEY = der(b"\x02\x01\x00", b"\x02\x82\x01\x01\x00" + octets(256), b"\x02\x03\x01\x00\x01",
              b"\x02\x82\x01\x00" + octets(256), *(b"\x02\x81\x81\x00" + octets(128) for _ in range(5)))  # RSA-2048's sizes
PKCS8_KEY = der(b"\x02\x01\x00", RSA_ALGORITHM, b"\x04\x82" + len(RSA_KEY).to_bytes(2, "big") + RSA_KEY)  # RFC 5208
EC_KEY = bytes([0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20]) + octets(32) + bytes([0xA0, 0x0A]) + octets(10) + \
    bytes([0xA1, 0x44]) + octets(68)  # SEC 1 ECPrivateKey (RFC 5915), P-256's sizes
PUBLIC_KEY = der(RSA_ALGORITHM, b"\x03\x82\x01\x0f\x00" + octets(270))  # SubjectPublicKeyInfo
CERTIFICATE = der(der(b"\xa0\x03\x02\x01\x02\x02\x01\x01", RSA_ALGORITHM, octets(600)), RSA_ALGORITHM, octets(260))
PEM = "-----BEGIN PRIVATE" + " KEY-----\n" + wrap(base64.b64encode(PKCS8_KEY).decode()) + "\n-----END PRIVATE KEY-----\n"
PW = password()

NEW_KINDS = [  # (label, path, text, rule)
    ("password with symbols, Python", "app/config.py", f'DB_PASSWORD = "{PW}"\n', "secret-assignment"),
    ("password, JS object", "src/conf.ts", f"export const conf = {{ clientSecret: '{PW}' }};\n", "secret-assignment"),
    ("typed constant, Rust", "src/main.rs", f'const API_TOKEN: &str = "{PW}";\n', "secret-assignment"),
    ("PHP define", "config/site.php", f"<?php\ndefine('DB_PASSWORD', '{PW}');\n", "secret-assignment"),
    ("Dockerfile ENV", "Dockerfile", f"FROM postgres:16\nENV POSTGRES_PASSWORD={PW}\n", "env-secret"),
    ("Dockerfile ENV, space form", "docker/Dockerfile.dev", f"ENV API_TOKEN {fake(24)}\n", "env-secret"),
    ("docker run -e", "scripts/run.sh", f"docker run -e MYSQL_ROOT_PASSWORD={PW} mysql:8\n", "env-secret"),
    ("Ansible inventory", "inventory.txt", f"web1 ansible_host=10.0.0.2 ansible_ssh_pass={PW}\n", "env-secret"),
    ("ADO.NET connection string", "src/Db.cs", f'var cs = "Server=db;Database=shop;User Id=app;Password={PW};";\n',
     "connection-string-password"),
    ("JDBC URL", "src/Db.java", f'String url = "jdbc:postgresql://db/shop?user=app&password={PW}";\n',
     "connection-string-password"),
    ("libpq conninfo", "src/db.c", f'PQconnectdb("host=db dbname=shop user=app password={PW}");\n',
     "connection-string-password"),
    ("hex key, YAML", "config/app.yaml", f"api_secret: {fake(32, HEX)}\n", "hex-secret"),
    ("hex key in a call, Go", "main.go", f'var signingKey = []byte("{fake(64, HEX)}")\n', "hex-secret"),
    (".pgpass line under another name", "notes/db.txt", f"db.internal:5432:shop:app:{PW}\n", "pgpass-format"),
    (".pgpass line echoed", "scripts/pg.sh", f"echo '*:*:*:postgres:{PW}' >> ~/.pgpass\n", "pgpass-format"),
    ("a vendor prefix no rule knows", "src/acme.py", f"client = Acme('acme_live_{fake(40)}')\n", "prefixed-token"),
    ("Atlassian API token", "src/jira.py", f"jira = Jira(token='ATATT3xFfGF0{fake(170, ALNUM + '_-')}={fake(8, HEX.upper())}')\n",
     "service-token"),
    ("Mailgun private key", "src/mail.py", f"mg = Mailgun('key-{fake(32, HEX)}')\n", "service-token"),
    ("curl -u", "scripts/api.sh", f"curl -u admin:{PW} https://api.example.com/v1/x\n", "command-line-password"),
    ("wget --password", "scripts/get.sh", f"wget --user=me --password={PW} https://files.example.com/a\n",
     "command-line-password"),
    ("a client config value with '#'", "setup.cfg", f"[upload]\npassword = {PW}\n", "config-password"),
    ("a password in a notebook's JSON", "nb/setup.ipynb",
     '{"cells": [{"cell_type": "code", "source": ["password = \\"' + PW + '\\"\\n"]}]}\n', "secret-assignment"),
    ("a secret env var's default, Python", "app/settings.py", f'SECRET_KEY = os.getenv("SECRET_KEY", "{PW}")\n',
     "secret-assignment"),
    ("a setting's default, python-decouple", "app/settings2.py", f'DB_PASSWORD = config("DB_PASSWORD", default="{PW}")\n',
     "secret-assignment"),
    ("a secret env var's fallback, JS", "src/env.js", f'const key = process.env.API_KEY || "{fake(32)}";\n',
     "secret-assignment"),
    ("camelCase name in a Helm values file", "chart/values.yaml", f"oidc:\n  clientSecret: {PW}\n", "config-secret-value"),
    ("SQL, PostgreSQL", "db/init.sql", f"CREATE USER app WITH PASSWORD '{PW}';\n", "sql-password"),
    ("SQL, MySQL", "db/users.sql", f"CREATE USER 'app'@'%' IDENTIFIED BY '{PW}';\n", "sql-password"),
    ("SQL, SQL Server", "db/login.sql", f"CREATE LOGIN app WITH PASSWORD = N'{PW}';\n", "sql-password"),
    ("PowerShell plain-text SecureString", "deploy/run.ps1",
     f'$pw = ConvertTo-SecureString "{PW}" -AsPlainText -Force\n', "plaintext-securestring"),
    ("a password column in a CSV export", "data/users.csv", f"id,name,password,email\n1,bob,{PW},bob@example.com\n",
     "csv-password-column"),
    ("a token column in a TSV", "seed/keys.tsv", f"email\tapi_key\nann@example.com\t{fake(32)}\n", "csv-password-column"),
    ("C's #define", "src/config.h", f'#define WIFI_PASSWORD "{PW}"\n', "secret-assignment"),
    (".NET appSettings", "web.config", f'<appSettings>\n  <add key="SmtpPassword" value="{PW}" />\n</appSettings>\n',
     "secret-assignment"),
    ("a C# property's initial value", "src/Conf.cs", f'public string Password {{ get; set; }} = "{PW}";\n',
     "secret-assignment"),
    ("Ruby's ENV.fetch default", "config/keys.rb", f'KEY = ENV.fetch("API_KEY", "{fake(32)}")\n', "secret-assignment"),
    ("a name ending in _pw", "conf/ldap.conf", f"ldap_bind_pw = {PW}\n", "config-password"),
    ("an XML element named as a secret", "pom.xml", f"<keystorePassword>{PW}</keystorePassword>\n", "xml-secret-element"),
    ("aws configure set", "setup.sh", f"aws configure set aws_secret_access_key {fake(40)}\n", "aws-secret-access-key"),
    ("a container's env list", "k8s/deploy.yaml", f"env:\n  - name: DB_PASSWORD\n    value: {PW}\n", "env-list-secret"),
    ("an ECS task's env list", "ecs/task.json", f'"environment": [{{"name": "API_TOKEN", "value": "{fake(32)}"}}]\n',
     "env-list-secret"),
    ("requests' auth pair", "src/client.py", f'requests.get(url, auth=("admin", "{PW}"))\n', "basic-auth-pair"),
    ("a config block in a README", "README.md", f"## Setup\n\n```yaml\ndatabase:\n  user: app\n  password: {PW}\n```\n",
     "config-password-in-docs"),
    ("an ini block in reStructuredText", "docs/deploy.rst", f".. code-block:: ini\n\n   [smtp]\n   password = {PW}\n",
     "config-password-in-docs"),
    ("a PKCS #8 key cut before its END line", "docs/key.md",
     "```\n" + "\n".join(PEM.splitlines()[:6]) + "\n```\n", "private-key-block"),
    ("base64 of a PEM key, wrapped at 76", "notes/key.txt", wrap(base64.b64encode(PEM.encode()).decode(), 76) + "\n",
     "private-key (base64)"),
    ("a Kubernetes Secret's tls.key, wrapped", "notes/tls.txt", "kind: Secret\ndata:\n  tls.key: >-\n"
     + wrap(base64.b64encode(PEM.encode()).decode(), 76, "    ") + "\n", "private-key (base64)"),
    ("a key's body without BEGIN, YAML block", "deploy/values.yaml", "signing:\n  key: |\n"
     + wrap(base64.b64encode(PKCS8_KEY).decode(), 64, "    ") + "\n", "private-key-der (base64)"),
    ("a key's body without BEGIN, one line", "deploy/app.txt", f"JWT_KEY={base64.b64encode(EC_KEY).decode()}\n",
     "private-key-der (base64)"),
    # A second red-team round (88 fakes, 51 look-alikes): command lines, build files, app resources, captures
    ("openssl -passout pass:", "scripts/mkcert.sh", f"openssl genrsa -aes256 -passout pass:{PW} -out key.pem 4096\n",
     "command-line-password"),
    ("keytool -storepass", "android/sign.sh", f"keytool -genkey -keystore rel.jks -alias app -storepass {PW}\n",
     "command-line-password"),
    ("redis-cli -a", "ops/flush.sh", f"redis-cli -h cache.internal -a {PW} FLUSHALL\n", "command-line-password"),
    ("sqlcmd -P", "db/restore.cmd", f"sqlcmd -S db01 -U sa -P {PW} -i restore.sql\n", "command-line-password"),
    ("mongosh -p", "ops/mongo.sh", f"mongosh --host db -u admin -p {PW} --authenticationDatabase admin\n",
     "command-line-password"),
    ("ldapsearch -w", "ops/ldap.sh", f"ldapsearch -x -D cn=admin,dc=corp -w {PW} -b dc=corp\n", "command-line-password"),
    ("smbclient -U user%password", "ops/share.sh", f"smbclient //fs01/share -U backup%{PW} -c 'ls'\n",
     "command-line-password"),
    ("htpasswd -b", "ops/users.sh", f"htpasswd -b /etc/nginx/.htusers admin {PW}\n", "command-line-password"),
    ("cmdkey /pass:", "ops/map.bat", f"cmdkey /add:fs01 /user:CORP\\svc /pass:{PW}\n", "command-line-password"),
    ("zip -P", "ops/pack.sh", f"zip -r -P {PW} backup.zip data/\n", "command-line-password"),
    ("lftp -u user,password", "ops/sync.sh", f"lftp -u deploy,{PW} sftp://files.example.com\n", "command-line-password"),
    ("a secret option after a blank", "deploy/publish.sh", f"vercel deploy --prod --token {fake(24)}\n", "option-secret"),
    ("PowerShell's -NuGetApiKey", "deploy/pub.ps1", f"Publish-Module -Name Tools -NuGetApiKey {fake(40)}\n", "option-secret"),
    ("a name ending in _PASS, #define", "fw/arduino_secrets.h", f'#define SECRET_PASS "{PW}"\n', "secret-assignment"),
    ("PHP $db_pass", "inc/db.php", f"<?php\n$db_pass = '{PW}';\n", "secret-assignment"),
    ("Go dbPass :=", "cmd/db.go", f'dbPass := "{PW}"\n', "secret-assignment"),
    ("C char array", "fw/wifi.ino", f'char wifi_password[] = "{PW}";\n', "secret-assignment"),
    ("a salt in a define", "wp/config-local.php", f"define('NONCE_SALT', '{PW}{fake(20)}');\n", "secret-assignment"),
    ("Gradle signingConfig", "app/signing.gradle", f"signingConfigs {{\n  release {{\n    storePassword '{PW}'\n  }}\n}}\n",
     "gradle-secret"),
    ("Gradle buildConfigField", "app/build.gradle", f'buildConfigField "String", "API_KEY", "\\"{fake(32)}\\""\n',
     "gradle-secret"),
    ("Android string resource", "app/src/main/res/values/keys.xml", f'<string name="api_token">{fake(32)}</string>\n',
     "named-secret-element"),
    ("Hibernate property", "src/main/resources/hibernate.cfg.xml",
     f'<property name="hibernate.connection.password">{PW}</property>\n', "named-secret-element"),
    ("iOS plist key/string", "ios/App/Info.plist", f"<key>APIClientSecret</key>\n<string>{fake(40)}</string>\n",
     "named-secret-element"),
    ("Postman bearer auth", "postman/coll.json", '{"bearer": [{"key": "token", "value": "' + fake(40) + '"}]}\n',
     "env-list-secret"),
    ("HAR header pair, hyphenated name", "captures/api.har", '{"headers": [{"name": "x-api-key", "value": "' + fake(40)
     + '"}]}\n', "env-list-secret"),
    ("HAR Authorization pair", "captures/s.har", '{"headers": [{"name": "Authorization", "value": "Bearer ' + fake(40)
     + '"}]}\n', "authorization-header"),
    ("nginx proxy_set_header", "nginx/site.conf", f'proxy_set_header Authorization "Basic {fake(32)}";\n',
     "authorization-header"),
    ("a notebook output's NAME=value", "nb/out.ipynb", '{"outputs": [{"text": ["DB_PASSWORD=' + PW + '\\n"]}]}\n',
     "env-secret"),
    ("NetworkManager keyfile psk", "etc/nm/home.nmconnection", f"[wifi-security]\nkey-mgmt=wpa-psk\npsk={PW}\n",
     "config-password"),
    ("MySQL IDENTIFIED WITH ... AS", "db/dump.sql",
     f"CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password AS '*{fake(40, HEX.upper())}';\n", "sql-password"),
    ("Pulumi namespaced key", "Pulumi.dev.yaml", f"config:\n  shop:dbPassword: {PW}\n", "config-secret-value"),
    ("PASS alone", "scripts/ftp.py", f'PASS = "{PW}"\n', "secret-assignment"),
]


@pytest.mark.parametrize("label, path, text, rule", NEW_KINDS, ids=[k[0] for k in NEW_KINDS])
def test_each_kind_is_refused(label, path, text, rule):
    assert credential_in_text(text, path) is not None, label
    assert rule in [f.rule for f in find_secrets(text, path)], label


@pytest.mark.parametrize("path", ["home/.gnupg/secring.gpg", "secring.kbx", "home/.gnupg/openpgp-revocs.d/A1B2.rev",
                                  "home/.config/sops/age/keys.txt", "krb5/service.keytab"])
def test_key_stores_are_refused_by_name(path):
    assert credential_file_reason(path) is not None, path


def test_a_pkcs8_keys_first_line_is_less_random_than_its_body():
    # Its first 48 bytes are mostly structure (lengths, version, the algorithm): ~4.4 bits a character,
    # under private-key-block's old threshold of 4.5, so a key cut before its END line was packed.
    first = PEM.splitlines()[1]
    assert first.startswith("MIIE") and 4.0 < shannon_entropy(first) < 4.5


def test_a_private_keys_der_is_told_from_public_keys_and_certificates():
    assert private_key_der(PKCS8_KEY) and private_key_der(EC_KEY) and private_key_der(b"openssh-key-v1\0" + octets(64))
    assert not private_key_der(PUBLIC_KEY) and not private_key_der(CERTIFICATE)
    assert not private_key_der(PKCS8_KEY[:-1])  # a DER's length covers it exactly
    assert not private_key_der(b"\x89PNG\r\n\x1a\n" + octets(200))


LOOK_ALIKES = {  # path -> text: ordinary files the rules above must still pack
    "certs/ca.txt": wrap(base64.b64encode(CERTIFICATE).decode()) + "\n",
    "keys/pub.txt": "PUBLIC_KEY=" + base64.b64encode(PUBLIC_KEY).decode() + "\n",
    "tests/data/image.txt": wrap(base64.b64encode(b"\x89PNG\r\n\x1a\n" + octets(900)).decode(), 76) + "\n",
    "tests/data/message.txt": wrap(base64.b64encode(b"Quarterly report, as discussed. " * 20).decode(), 76) + "\n",
    "docs/pgpass.md": "Each line reads hostname:port:database:username:password, for example\n\n"
                      "    localhost:5432:mydb:myuser:mypassword\n",
    "logs/sample.txt": "ERROR:404:main:handler:timeout\nfe80:0:0:0:abcd\n12:30:45:123:4567\n",
    "src/tables.py": 'TABLE = "tbl_CustomerOrderHistoryArchiveRecords2024"\n',
    "package-lock.json": '{"integrity": "sha512-' + fake(86) + '=="}\n',
    "src/checkout.js": "const stripe = Stripe('pk_live_" + fake(99) + "');\n",  # a publishable key: public by design
    "tests/ids.txt": "user_01ARZ3NDEKTSV4RRFFQ69G5FAVXY\n",
    "deploy/release.yaml": f"commit_sha: {fake(40, HEX)}\nchecksum: {fake(64, HEX)}\n",
    "tests/test_forms.py": f'csrf_token = "{fake(40, HEX)}"\n',
    "src/Conn.cs": 'var cs = $"Server={host};Database=shop;User Id={user};Password={password};";\n',
    "docs/connection.md": "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;\n",
    "src/tokenizer.py": 'bos_token = "<s>"\neos_token = "</s>"\npad_token = "[PAD]"\nunk_token = "<|endoftext|>"\n',
    "src/db.py": "conn = connect(host=host,\n               password=password)\n"
                 'url = f"postgres://{user}:{password}@{host}/db"\npwd = "/home/runner/work1"\n',
    "src/lexer.py": 'TOKEN_RE = r"[A-Za-z_][A-Za-z0-9_]*"\nSTRING_TOKEN = "STRING_1"\n',
    "src/theme.ts": 'export const colorToken = "primary-700";\nexport const versionToken = "v1.2.3-beta";\n',
    "docker-compose.yml": "environment:\n  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?err}\n  - API_TOKEN=$API_TOKEN\n",
    "docker/Dockerfile": "ARG NPM_TOKEN\nENV NODE_ENV=production\nRUN --mount=type=secret,id=npm_token cat /run/secrets/npm_token\n",
    "static/chunk.js": "e.rewriteBoldTokens=e.createBoldToken=e.BoldsymbolMethods=void 0;\n",
    "src/magics.py": '    "pwd": "IPython.core.magics.osm:OSMagics",\n',
    "tests/test_urls.py": "CASES = [('http', 'user/name', 'password', 'localhost:22')]\n",
    "stubs/_socket.pyi": "SCM_CREDENTIALS: Final[int]\nTOKEN_TYPE: Token.Error\n",
    "src/login.py": "def login(user):\n    return auth(user, password=getpass.getpass())\n",
    "tests/test_login.py": 'client.login(username="alice", password="Test-Passw0rd!")\n',  # a fixture's word
    "chart/values.yaml": "postgresql:\n  existingSecret: postgres-credentials\n  secretName: tls-secret\n"
                         "apiKey: ${API_KEY}\ntoken: \"\"\n  - password: changeme\n",
    "db/docs.sql": "ALTER USER postgres PASSWORD 'postgres';\nCREATE USER app IDENTIFIED BY 'password';\n"
                   "-- set password = NULL to disable\nSELECT password FROM users WHERE id = 1;\n",
    "app/env.py": 'SECRET_KEY = os.getenv("SECRET_KEY", "")\nTOKEN = os.environ.get("API_TOKEN", None)\n'
                  'pw = settings.get("password", "default")\n',
    "src/env2.js": 'const token = process.env.TOKEN || "";\nconst key = opts.apiKey ?? defaultKey;\n',
    "deploy/login.ps1": "$pw = ConvertTo-SecureString $env:DEPLOY_PW -AsPlainText -Force\n",
    "data/accounts.csv": "id,name,password_hash,token_count\n1,bob,$2b$12$" + fake(53, ALNUM + "./") + ",12345678\n"
                         "2,ann,,0\n",
    "data/empty_password.csv": "id,name,password\n1,bob,\n2,ann,hunter2\n3,joe,changeme\n",
    "src/keys.h": '#define TOKEN_MAX 32\n#define PASSWORD_PROMPT "Password: "\n#define KEY_ESC "\\x1b"\n',
    "web.config": '<add key="ApiKeyHeader" value="X-Api-Key-Header"/>\n<add key="Password" value="{0}"/>\n',
    "pom.xml": "<passwordEncoder>bcrypt</passwordEncoder>\n<apiToken>${env.API_TOKEN}</apiToken>\n<token>EOF</token>\n"
               "<serverPassword>{COQLCE6DU6GtcS5P=}</serverPassword>\n",
    "k8s/deploy.yaml": "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n"
                       '  - name: API_TOKEN\n    value: ""\n  - name: TOKEN_TTL\n    value: "3600"\n',
    "src/session.py": 'requests.get(url, auth=("user", password))\ns.auth = (user, "")\nHTTPBasicAuth("user", "pass")\n',
    "src/Settings.cs": "public string Password { get; set; }\npublic string Token { get; init; } = string.Empty;\n",
    "scripts/aws.sh": "aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY\n",
    "README.md": "# app [![CircleCI](https://circleci.com/gh/me/app.svg?style=svg&circle-token=" + fake(40, HEX)
                 + ")](https://circleci.com/gh/me/app)\n",  # a status-only token, made to be shown
    "scripts/mk.sh": "openssl genrsa -aes256 -passout env:KEY_PASS -out k.pem\nopenssl req -passin file:pass.txt\n"
                     'keytool -genkey -keystore r.jks -storepass "$STORE_PASS" -keypass "$KEY_PASS"\n',
    "docs/ssl.md": "Run `openssl pkcs12 -export -passout pass:<password>`; not `zip -P password` (ps shows it).\n",
    "ops/r.sh": 'redis-cli -a "$REDIS_PASSWORD" ping\nldapsearch -x -D cn=admin,dc=corp -W -b dc=corp\n'
                "cmdkey /add:fs01 /user:CORP\\svc /pass:%SVC_PASS%\nsqlcmd -S db01 -U sa -P %SA_PASSWORD%\n",
    "deploy/p.sh": 'vercel deploy --token "$VERCEL_TOKEN"\nnpm publish --otp ${OTP}\n',
    "docs/cli.rst": "Usage: tool [--token TOKEN] [--api-key API_KEY] [--password PASSWORD]\n",
    "src/cli.py": 'parser.add_argument("--token", help="API token")\nparser.add_argument("--password", default=None)\n',
    "fw/w.ino": "char pass[] = SECRET_PASS;\n#define FIRST_PASS 1\n#define MAX_PASS_LEN 64\n",
    "src/render.py": 'render_pass = "shadow_map_pass"\ncompass = "NorthEast"\n',
    "app/b.gradle": 'buildConfigField "String", "API_KEY", "\\"${apiKey}\\""\nstorePassword System.getenv("STORE_PW")\n',
    "res/values/strings.xml": '<string name="app_name">Shop</string>\n<string name="password_hint">Enter your password</string>\n'
                              '<string name="api_token_label">API token</string>\n<string name="token">@string/t</string>\n',
    "ios/Info2.plist": "<key>CFBundleIdentifier</key>\n<string>com.example.shop</string>\n",
    "postman/c.json": '{"bearer": [{"key": "token", "value": "{{accessToken}}", "type": "string"}]}\n',
    "captures/x.har": '{"headers": [{"name": "Content-Type", "value": "application/json"}]}\n',
    "nginx/s.conf": "proxy_set_header Authorization $http_authorization;\n",
    "nb/e.ipynb": '{"cells": [{"source": ["%env MODEL_NAME=gpt-4o-mini\\n", "api_key = os.environ[\\"OPENAI_API_KEY\\"]\\n"]}]}\n',
    "etc/nm/x.nmconnection": "[wifi-security]\nkey-mgmt=wpa-psk\npsk-flags=1\n",
    ".github/workflows/ci.yml": "      with:\n        api-key: ${{ secrets.API_KEY }}\n",
    "src/hashing.py": 'hashlib.pbkdf2_hmac("sha256", pw, salt=b"salt", iterations=1000)\nSALT_LENGTH = 16\n',
    "docs/ps.md": "Publish-Module -Name Tools -NuGetApiKey <apiKey>\n",
    "src/passes.py": 'render_pass = "ShadowMapPass2"\nfirst_pass = "DepthPrepass1"\nlastRenderPass = "BloomPass3x"\n'
                     'high_pass = "Butterworth4Hz"\nbypass = "CacheLayer2X"\ncompass = "NorthEast9x"\nsubpass = "Gbuffer2Pass"\n'
                     'passes = "Opaque1Transp2"\nRENDER_PASS=ShadowMapPass2\n',
    "docs/api.md": "## Fields\n\ntoken: string\npassword: required\napi_key: <your key>\nsecret: ********\n"
                   "access_token: ${ACCESS_TOKEN}\npassword: MyPassword123\nclient_secret: your-client-secret\n"
                   "```python\ntoken = q.get(block=True)\npassword = fields.Str(load_only=True)\n```\n",
}


@pytest.mark.parametrize("path", sorted(LOOK_ALIKES))
def test_a_look_alike_is_packed(path):
    assert credential_file_reason(path) is None, path
    assert find_secrets(LOOK_ALIKES[path], path) == [], path
