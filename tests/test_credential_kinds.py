"""Kinds of credential that gitleaks' rules let through, and their look-alikes (ctxlib/secretrules.py, secretformats.py,
base64scan.py).

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
def b64url(n):
    return base64.urlsafe_b64encode(octets(n)).decode().rstrip("=")


def uuid():
    return f"{fake(8, HEX)}-{fake(4, HEX)}-4{fake(3, HEX)}-a{fake(3, HEX)}-{fake(12, HEX)}"


def java_keystore(tags):
    """A JKS keystore (magic FEEDFEED, version 2) of entries tagged 1 (a private key) or 2 (a trusted certificate)."""
    def utf(text):
        return len(text).to_bytes(2, "big") + text.encode()

    out = bytes.fromhex("feedfeed") + (2).to_bytes(4, "big") + len(tags).to_bytes(4, "big")
    for n, tag in enumerate(tags):
        out += tag.to_bytes(4, "big") + utf(f"alias{n}") + octets(8)
        if tag == 1:
            out += (1218).to_bytes(4, "big") + octets(1218) + (1).to_bytes(4, "big")
        out += utf("X.509") + (900).to_bytes(4, "big") + octets(900)
    return out + octets(20)


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
    # A third red-team round (106 fakes, 62 of them packed before): particular tools' formats (ctxlib/secretformats.py)
    ("SQL INSERT into a password column", "db/seed.sql",
     f"INSERT INTO users (id, username, email, password)\nVALUES (1, 'admin', 'admin@example.com', '{PW}');\n", "sql-row-password"),
    ("pg_dump COPY block", "db/dump.sql", f"COPY public.users (id, username, password, created_at) FROM stdin;\n"
     f"1\tadmin\t{PW}\t2024-01-02 10:00:00\n\\.\n", "sql-row-password"),
    ("private JWK, RSA", "keys/jwks.json", '{"keys": [{"kty": "RSA", "n": "' + b64url(256) + '", "e": "AQAB", "d": "'
     + b64url(256) + '", "p": "' + b64url(128) + '"}]}\n', "jwk-private-key"),
    ("private JWK, EC, members sorted", "src/key.py", f"JWK = {{'crv': 'P-256', 'd': '{b64url(32)}', 'kty': 'EC', 'x': '{b64url(32)}'}}\n",
     "jwk-private-key"),
    ("symmetric JWK", "config/jwk.json", f'{{"kty": "oct", "alg": "HS256", "k": "{b64url(32)}"}}\n', "jwk-private-key"),
    ("Postman apikey auth", "postman/shop.json", '{\n\t"auth": {\n\t\t"type": "apikey",\n\t\t"apikey": [\n\t\t\t{\n\t\t\t\t"key": "value",'
     '\n\t\t\t\t"value": "' + fake(40) + '",\n\t\t\t\t"type": "string"\n\t\t\t}\n\t\t]\n\t}\n}\n', "api-client-credential"),
    ("kaggle.json written by a notebook", "nb/train.ipynb", '{"cells": [{"source": ["json.dump({\\"username\\": \\"ann\\", '
     '\\"key\\": \\"' + fake(32, HEX) + '\\"}, open(\\"/root/.kaggle/kaggle.json\\", \\"w\\"))\\n"]}]}\n',
     "api-client-credential"),
    ("Composer auth.json bearer", "config/auth.txt", f'{{"bearer": {{"repo.example.org": "{fake(40)}"}}}}\n', "api-client-credential"),
    ("Terraform variable default", "infra/variables.tf",
     f'variable "db_password" {{\n  type      = string\n  sensitive = true\n  default   = "{PW}"\n}}\n', "terraform-variable-default"),
    ("Hadoop core-site property", "conf/core-site.xml", f"<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{fake(40)}</value>\n"
     "</property>\n", "hadoop-secret-property"),
    ("Spark Azure account key", "jobs/etl.py", 'spark.conf.set("fs.azure.account.key.lake.dfs.core.windows.net", "'
     + base64.b64encode(octets(64)).decode() + '")\n', "hadoop-secret-property"),
    ("cloud-init chpasswd list", "cloud/user-data", f"#cloud-config\nchpasswd:\n  expire: false\n  list: |\n    ubuntu:{PW}\n",
     "cloud-init-password"),
    ("echo into docker login --password-stdin", "notes/history.txt",
     f'echo "{PW}" | docker login -u deploy --password-stdin registry.example.com\n', "piped-password"),
    ("echo into chpasswd, Vagrantfile", "Vagrantfile", f'config.vm.provision "shell", inline: "echo \'root:{PW}\' | chpasswd"\n',
     "piped-password"),
    ("expect and send", "scripts/login.exp", f'spawn ssh admin@10.0.0.9\nexpect "password:"\nsend "{PW}\\r"\n', "prompt-answer"),
    ("pexpect sendline", "scripts/login.py", f'child.expect("Password:")\nchild.sendline("{PW}")\n', "prompt-answer"),
    ("jwt.sign with a literal key", "src/auth.js", f"const t = jwt.sign({{ sub: id }}, '{fake(32)}', {{ expiresIn: '1h' }});\n",
     "jwt-signing-key"),
    ("java-jwt Algorithm.HMAC256", "src/Jwt.java", f'Algorithm alg = Algorithm.HMAC256("{PW}");\n', "jwt-signing-key"),
    ("mount -o password=", "scripts/mount.sh", f"mount -t cifs //fs01/share /mnt -o username=svc,password={PW},vers=3.0\n",
     "mount-option-password"),
    ("msmtprc password line", "dotfiles/msmtprc", f"account default\nhost smtp.example.com\nuser me\npassword {PW}\n",
     "config-password-blank"),
    ("fetchmailrc user ... password", "dotfiles/fetchmailrc", f'poll imap.example.com protocol IMAP\n  user "me" password "{PW}" ssl\n',
     "config-password-blank"),
    ("HAProxy insecure-password", "haproxy/haproxy.cfg", f"userlist admins\n    user admin insecure-password {PW}\n",
     "insecure-password"),
    ("Postfix sasl_passwd line", "postfix/relay.txt", f"[smtp.gmail.com]:587 alerts@example.com:{PW}\n", "sasl-passwd-line"),
    ("Lua long bracket string", "scripts/config.lua", f"local config = {{ password = [[{PW}]] }}\n", "lua-long-string-secret"),
    ("Laravel env() default APP_KEY", "config/app.php",
     "'key' => env('APP_KEY', 'base64:" + base64.b64encode(octets(32)).decode() + "'),\n", "laravel-app-key"),
    ("Mattermost incoming webhook", "ops/alert.py", f'HOOK = "https://chat.example.com/hooks/{fake(26, HEX + "ghijkmnopqrstuvwxyz")}"\n',
     "webhook-url"),
    ("IFTTT Maker key", "home/ifttt.py", f'requests.post("https://maker.ifttt.com/trigger/door/with/key/{fake(22)}")\n', "webhook-url"),
    ("Tor onion service key", "tor/hs.txt", "ED25519-V3:" + base64.b64encode(octets(64)).decode() + "\n", "private-key-text"),
    ("BIP32 xprv", "wallet/keys.py", f'XPRV = "xprv9s21ZrQH143K{fake(95, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")}"\n',
     "private-key-text"),
    ("NATS nkey seed", "nats/user.creds", f"-----BEGIN USER NKEY SEED-----\nSUA{fake(55, string.ascii_uppercase + '234567')}\n",
     "private-key-text"),
    ("Hardhat accounts", "hardhat.config.js", f'module.exports = {{ networks: {{ sepolia: {{ accounts: ["0x{fake(64, HEX)}"] }} }} }};\n',
     "private-key-text"),
    ("Twilio client", "sms/send.py", f'from twilio.rest import Client\nc = Client("AC{fake(32, HEX)}", "{fake(32, HEX)}")\n',
     "vendor-client-secret"),
    ("Pusher secret", "src/push.js", f"const p = new Pusher({{ appId: '1', key: '{fake(20, HEX)}', secret: '{fake(20, HEX)}' }});\n",
     "vendor-client-secret"),
    ("Oracle JDBC user/password@", "conf/db.txt", f"url=jdbc:oracle:thin:scott/{PW}@//db:1521/ORCL\n", "db-login-string"),
    ("sqlplus user/password@", "ops/run.sh", f"sqlplus -s app/{PW}@ORCL @report.sql\n", "db-login-string"),
    ("ODBC braced PWD", "src/odbc.py", f'pyodbc.connect("Driver={{ODBC Driver 18}};Server=db;UID=sa;PWD={{{PW}}};")\n', "db-login-string"),
    ("openssl enc -k", "scripts/enc.sh", f"openssl enc -aes-256-cbc -salt -k {PW} -in a -out b\n", "tool-command-password"),
    ("net use with a password", "scripts/map.bat", f"net use Z: \\\\fs01\\share {PW} /user:CORP\\svc\n", "tool-command-password"),
    ("rabbitmqctl add_user", "scripts/mq.sh", f"rabbitmqctl add_user app {PW}\n", "tool-command-password"),
    ("composer config http-basic", "Dockerfile.php", f"RUN composer config -g http-basic.repo.example.com deploy {PW}\n",
     "tool-command-password"),
    ("bundle config host user:pw", "Dockerfile.rails", f"RUN bundle config set --global gems.contribsys.com {fake(8, HEX)}:{PW}\n",
     "tool-command-password"),
    ("mix hex --key", "ci/hex.sh", f"mix hex.organization auth acme --key {fake(32, HEX)}\n", "tool-command-password"),
    ("npm config set _authToken", "Dockerfile.node", f"RUN npm config set //registry.npmjs.org/:_authToken {uuid()}\n",
     "tool-command-password"),
    ("cargo login", "ci/publish.sh", f"cargo login cio{fake(32)}\n", "tool-command-password"),
    ("redis-server --requirepass", "docker-compose.yml", f"    command: redis-server --requirepass {PW}\n", "tool-command-password"),
    ("rclone config create", "scripts/backup.sh",
     f"rclone config create r2 s3 provider Cloudflare access_key_id {fake(32, HEX)} secret_access_key {fake(64, HEX)}\n",
     "tool-command-password"),
    # ... and in the kinds' own rules (ctxlib/secretrules.py)
    ("option joined by dashes", "dags/setup.sh", f"airflow connections add pg --conn-login etl --conn-password {PW}\n", "option-secret"),
    ("Java setProperty", "src/Tls.java", f'System.setProperty("javax.net.ssl.keyStorePassword", "{PW}");\n', "secret-assignment"),
    ("a lookup's fallback after the call, Elixir", "config/runtime.exs",
     f'  password: System.get_env("DATABASE_PASSWORD") || "{PW}"\n', "secret-assignment"),
    ("R's <-", "R/api.R", f'api_secret <- "{fake(32)}"\n', "secret-assignment"),
    ("Objective-C @\"...\"", "ios/Keys.m", f'NSString *const kAPISecret = @"{fake(40)}";\n', "secret-assignment"),
    ("PASS alone", "scripts/ftp.py", f'PASS = "{PW}"\n', "secret-assignment"),
    ("basic_auth=(...)", "search/es.py", f'es = Elasticsearch(url, basic_auth=("elastic", "{PW}"))\n', "basic-auth-pair"),
    ("reqwest .basic_auth", "src/client.rs", f'client.get(url).basic_auth("svc", Some("{PW}"))\n', "basic-auth-pair"),
    ("paho username_pw_set", "iot/pub.py", f'client.username_pw_set("sensor", "{PW}")\n', "basic-auth-pair"),
    ("new PDO", "src/db.php", f"$pdo = new PDO('mysql:host=db;dbname=shop', 'root', '{PW}');\n", "basic-auth-pair"),
    ("DriverManager.getConnection", "src/Db.java", f'DriverManager.getConnection(url, "root", "{PW}");\n', "basic-auth-pair"),
    ("smtplib login", "mail/send.py", f'server.login("alerts@example.com", "{PW}")\n', "basic-auth-pair"),
    ("Firebase legacy server key", "functions/push.js", f"const FCM = 'AAAA{fake(7)}:APA91b{fake(134, ALNUM + '_-')}';\n",
     "service-token"),
    ("LangSmith key", "app/llm.py", f'LS = "lsv2_pt_{fake(32, HEX)}_{fake(10, HEX)}"\n', "service-token"),
    ("AWS session token in a presigned URL", "tests/url.txt", "https://b.s3.amazonaws.com/a?X-Amz-Security-Token=IQoJb3JpZ2luX2Vj"
     + fake(300) + "&X-Amz-Signature=" + fake(64, HEX) + "\n", "service-token"),
    ("a Java keystore with a key, base64", "chart/values.yaml",
     "tls:\n  keystore: " + base64.b64encode(java_keystore([2, 1])).decode() + "\n", "private-key-der (base64)"),
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
    # Third round: near misses of the new rules, which must still be packed
    "src/passes.py": 'render_pass = "ShadowMapPass2"\nfirst_pass = "DepthPrepass1"\nlastRenderPass = "BloomPass3x"\n'
                     'high_pass = "Butterworth4Hz"\nbypass = "CacheLayer2X"\ncompass = "NorthEast9x"\nsubpass = "Gbuffer2Pass"\n'
                     'passes = "Opaque1Transp2"\nRENDER_PASS=ShadowMapPass2\n',
    "db/fixtures.sql": "INSERT INTO users (id, name, password) VALUES (1, 'bob', 'changeme');\n"
                       "INSERT INTO users (id, name, password_hash) VALUES (2, 'ann', 'Xy7!abcdefgh');\n"
                       "COPY public.users (id, name, password) FROM stdin;\n1\tbob\t\\N\n\\.\n",
    "keys/public.jwks.json": '{"keys": [{"kty": "RSA", "kid": "k1", "n": "' + b64url(256) + '", "e": "AQAB"}]}\n',
    "postman/c2.json": '{"apikey": [{"key": "value", "value": "{{apiKey}}", "type": "string"}]}\n',
    "config/composer.json": '{"bearer": {"repo.example.org": "${COMPOSER_TOKEN}"}}\n',
    "infra/vars.tf": 'variable "db_password" {\n  type      = string\n  sensitive = true\n}\n'
                     'variable "api_token" {\n  default = ""\n}\n',
    "conf/core-site.xml": "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>${env.AWS_SECRET_ACCESS_KEY}</value>\n</property>\n",
    "cloud/user-data": "#cloud-config\nchpasswd:\n  list: |\n    ubuntu:RANDOM\n",
    "ci/login.sh": 'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin\n'
                   "aws ecr get-login-password | docker login --username AWS --password-stdin 1.dkr.ecr.aws\n",
    "scripts/l.exp": 'expect "password:"\nsend "$password\\r"\nexpect "Password:"\nsend -- "$env(PW)\\r"\n',
    "src/jwt.js": "jwt.sign(payload, process.env.JWT_SECRET);\njwt.decode(token, 'secret', {algorithms: ['HS256']});\n",
    "scripts/m.sh": "mount -t cifs //fs/share /mnt -o credentials=/root/.smbcred,uid=1000\n",
    "dotfiles/msmtprc": 'passwordeval "pass show mail"\npassword <your-password>\n',
    "docs/readme.txt": "Password\npassword reset\npassword protected\n",
    "haproxy/h.cfg": "userlist admins\n  user ops password $6$abc$def\n  user ci insecure-password ${CI_PW}\n",
    "postfix/example.txt": "[smtp.example.com]:587 user@example.com:password\n",
    "config/app.php": "'key' => env('APP_KEY'),\n'cipher' => 'AES-256-CBC',\n",
    "docs/hooks.py": 'URL = "https://your-mattermost-server.com/hooks/xxx-generatedkey-xxx"\nAPI = "/projects/1/hooks/12"\n',
    "chain/tx.js": f'const tx = {{ hash: "0x{fake(64, HEX)}", accounts: [process.env.PRIVATE_KEY] }};\n',
    "sms/s.py": "from twilio.rest import Client\nclient = Client(account_sid, auth_token)\n",
    "ops/db.sh": "sqlplus /nolog @x.sql\nsqlplus scott/tiger@orcl\nurl=jdbc:oracle:thin:@//db:1521/ORCL\n",
    "src/o.py": 'cs = f"Driver={{ODBC Driver 18}};UID={user};PWD={password};"\n',
    "ops/cmds.sh": 'openssl enc -d -k "$KEY" -in a\nnet use Z: \\\\fs\\share /user:CORP\\svc\nnet use Y: \\\\fs\\s * /user:x\n'
                   'rabbitmqctl add_user app "$RABBIT_PW"\ncargo login\nnpm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}\n'
                   'redis-server --requirepass "$REDIS_PASSWORD"\nrclone config create r s3 env_auth true\n'
                   'airflow connections add pg --conn-password "$PG_PW"\n',
    "src/Tls.java": 'System.setProperty("javax.net.ssl.keyStorePassword", System.getenv("KEYSTORE_PASSWORD"));\n',
    "config/runtime.exs": '  password: System.get_env("DATABASE_PASSWORD") || raise "DATABASE_PASSWORD is missing"\n',
    "R/env.R": 'api_secret <- Sys.getenv("API_SECRET")\n',
    "src/conn.php": "$pdo = new PDO($dsn, $user, $pass);\n$db = mysqli_connect('localhost', 'root', '');\nserver.login(user, password)\n",
    "tests/vectors.txt": "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8\n",
    "truststore.txt": base64.b64encode(java_keystore([2, 2])).decode() + "\n",
    "tests/data.sql": "INSERT INTO user (username, password)\nVALUES\n  ('test', 'pbkdf2:sha256:50000$TCI4GzcX$"  # Flask's tutorial
                      + fake(64, HEX) + "'),\n  ('other', 'pbkdf2_sha256$260000$" + fake(22) + "$" + fake(43) + "=');\n",
    "docs/list-builds.rst": "aws codebuild list-builds --next-token 4AEA6u7J...The full token has been omitted...MzY2OA==\n",
    "docs/api.md": "## Fields\n\ntoken: string\npassword: required\napi_key: <your key>\nsecret: ********\n"
                   "access_token: ${ACCESS_TOKEN}\npassword: MyPassword123\nclient_secret: your-client-secret\n"
                   "```python\ntoken = q.get(block=True)\npassword = fields.Str(load_only=True)\n```\n",
}


@pytest.mark.parametrize("path", sorted(LOOK_ALIKES))
def test_a_look_alike_is_packed(path):
    assert credential_file_reason(path) is None, path
    assert find_secrets(LOOK_ALIKES[path], path) == [], path
