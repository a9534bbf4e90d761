"""A credential sweep's misses and false positives (session 38), fixed by kind in session 39.

Hex and UUID keys under a vendor's name for them and outside a plain assignment (an ECS task definition, a Helm env list,
Ruby's ``||=``, R's ``<-``), an Authorization header in a template literal or a logged request, passwords the value
filters dropped (a Gmail app password, a passphrase of words, a short password, a quote inside), keys handed to crypto
calls, shell values with ``$`` or ``=``, secrets piped into a platform's store, an OpenVPN static key, vendors' shapes;
and ordinary text that was flagged: camelCase names, Podfile.lock, documentation's logins, encrypted values, AWS's
documentation ids and ARNs, type stubs, a cache's key. Each case is another language, file type, name and value than the
sweep's reproducers. Values are drawn at run time from a seeded generator, so this file holds no string a scanner
would take for a real credential.
"""
import random
import string

import pytest

from fakes import mixed_faker
from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_file_reason, credential_in_text

HEX, ALNUM, B64 = "0123456789abcdef", string.ascii_letters + string.digits, string.ascii_letters + string.digits + "+/"
LOWER = string.ascii_lowercase


_rnd = random.Random(639)
fake = mixed_faker(_rnd)


def uuid():
    return f"{fake(8, HEX)}-{fake(4, HEX)}-4{fake(3, HEX)}-b{fake(3, HEX)}-{fake(12, HEX)}"


def words(n):
    pool = ["tundra", "velvet", "quorum", "lantern", "maple", "orbit", "crisp", "tangle", "sofa", "gravel", "pepper",
            "walnut", "harbor", "cobalt", "mosaic", "falcon", "ribbon", "glacier"]
    return " ".join(_rnd.sample(pool, n))


def printable_first_bytes():
    while True:
        raw = bytes([_rnd.randrange(33, 127)]) + bytes(_rnd.randrange(256) for _ in range(23))
        text = repr(raw)
        if text.count("\\x") >= 8 and text[2] not in "\\'\"":
            return text


OPENVPN = ("-----BEGIN OpenVPN Static key V1-----\n" + "".join(fake(32, HEX) + "\n" for _ in range(16))
           + "-----END OpenVPN Static key V1-----\n")

# (path, text, the rule that must find it)
FOUND = {
    # hex and UUID keys under a key's name, in syntax beyond NAME = "..."
    "an ECS task definition's env entry": ("deploy/task-def.json",
                                           '{"environment": [{"name": "ALGOLIA_ADMIN_KEY", "value": "' + fake(32, HEX) + '"}]}\n',
                                           "hex-secret"),
    "a Helm env list, unquoted capitals": ("charts/web/values.yaml",
                                           f"env:\n  - name: MIXPANEL_SERVICE_KEY\n    value: {fake(40, HEX).upper()}\n", "hex-secret"),
    "Go's os.Setenv": ("cmd/boot.go", f'os.Setenv("FASTLY_LICENSE_KEY", "{fake(36, HEX)}")\n', "hex-secret"),
    "Ruby's ||= on ENV": ("config/boot.rb", f'ENV["HONEYBADGER_WRITE_KEY"] ||= "{uuid()}"\n', "hex-secret"),
    "a JS || default, a UUID token": ("src/mail.mjs", f'const t = process.env.POSTMARK_SERVER_TOKEN || "{uuid()}";\n', "hex-secret"),
    "R's <-": ("analysis/setup.R", f'dd_app_key <- "{fake(40, HEX)}"\n', "hex-secret"),
    "C#'s SetEnvironmentVariable": ("src/Startup.cs",
                                    f'Environment.SetEnvironmentVariable("SEARCH_ADMIN_KEY", "{fake(32, HEX)}");\n', "hex-secret"),
    "a personal access token in hex": ("scripts/ci.sh", f'export BITRISE_PAT="{fake(64, HEX)}"\n', "hex-secret"),
    "a storage key in camelCase YAML": ("config/azure.yml", f"azure:\n  storageKey: {fake(86, B64)}==\n", "named-key-value"),
    "a write key as a lookup's default": ("app/analytics.py",
                                          f'os.environ.setdefault("SEGMENT_WRITE_KEY", "{fake(32)}")\n', "named-key-value"),
    "a long session token in TOML": ("config/aws.toml", f'session_token = "{fake(600, B64)}"\n', "named-key-value"),
    # Authorization headers
    "a template literal's Token header": ("src/client.ts", f'req.set("Authorization", `Token {fake(40)}`);\n',
                                          "authorization-header"),
    "http.client's debug output": ("logs/debug.txt", "send: b'POST /v2/items HTTP/1.1\\r\\nHost: api.acme.io\\r\\n"
                                   f"Authorization: Bearer {fake(48)}\\r\\n\\r\\n'\n", "authorization-header"),
    # passwords the value filters dropped
    "a Gmail app password as a default": ("blog/settings.py",
                                          f'EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "{fake(16, LOWER)}")\n',
                                          "password-value"),
    "a Gmail app password in groups": ("src/mailer.ts", "const t = createTransport({ auth: { user: USER, pass: \""
                                       + " ".join(fake(4, LOWER) for _ in range(4)) + '" } });\n', "password-value"),
    "a short password in JSON": ("config/app.json", '{"db_password": "R4t#q9"}\n', "password-value"),
    "a short password in a Go struct": ("internal/db.go", 'cfg := Config{User: "svc", Password: "Zq8!pL3"}\n', "password-value"),
    "a quote inside a password, TOML": ("config/db.toml", "password = \"Gx7'pQ2!vLm9\"\n", "password-value"),
    "a passphrase in .properties": ("src/main/resources/application.properties",
                                    f"spring.mail.password={words(4)}\n", "passphrase-value"),
    "a passphrase in Python": ("app/config.py", f'ADMIN_PASSWORD = "{words(5)}"\n', "passphrase-value"),
    "a passphrase in YAML, quoted": ("deploy/vault.yaml", f"passphrase: '{words(4)}'\n", "passphrase-value"),
    "a passphrase in YAML, mid-file": ("deploy/app.yml", f"db:\n  password: {words(6)}  # rotated\n  host: db\n", "passphrase-value"),
    # keys handed to crypto calls
    "Go's hmac.New with SHA-512": ("pkg/sign/sign.go", f'mac := hmac.New(sha512.New, []byte("{fake(40)}"))\n', "crypto-key-call"),
    "gin's cookie store": ("server.go", f'store := cookie.NewStore([]byte("{fake(32)}"))\n', "crypto-key-call"),
    "Kotlin's SecretKeySpec of base64": ("app/src/Crypto.kt",
                                         f'val spec = SecretKeySpec(Base64.getDecoder().decode("{fake(43, B64)}="), "HmacSHA256")\n',
                                         "crypto-key-call"),
    "Java's SecretKeySpec of hex": ("src/Aes.java", f'key = new SecretKeySpec(Hex.decodeHex("{fake(64, HEX)}"), "AES");\n',
                                    "crypto-key-call"),
    "a TOTP key from hex": ("auth/otp.py", f'TOTP_KEY = bytes.fromhex("{fake(40, HEX)}")\n', "crypto-key-call"),
    "a bytes key starting printable": ("site/settings.py", f"SECRET_KEY = b{printable_first_bytes()[1:]}\n", "bytes-key-literal"),
    "the AWS SDK v2's credentials": ("src/S3.kt", f'AwsBasicCredentials.create(System.getenv("AWS_ID"), "{fake(40, B64)}")\n',
                                     "aws-credentials-call"),
    "a long OAuth client id and secret": ("app/oauth.py", f'auth=HTTPBasicAuth("{fake(100)}", "{fake(60)}")\n',
                                          "basic-auth-pair"),
    # shell values, pipes, key blocks
    "a Braintree token in a Dockerfile": ("docker/Dockerfile", f"ENV BT_TOKEN access_token$sandbox${fake(16, HEX)}${fake(32, HEX)}\n",
                                          "vendor-key-shape"),
    "a Django key in a compose .env": ("compose/.env.web",
                                       "DJANGO_SECRET_KEY=django-insecure-" + fake(50, LOWER + "0123456789!@#$%^&*(-_=+)") + "\n",
                                       "vendor-key-shape"),
    "a shell password with $ and =": ("bin/run.sh", "export SMTP_PASSWORD=Kx9$mPq2=zLw\n", "shell-secret-value"),
    "printf into wrangler": ("scripts/secrets.sh", f"printf '%s' '{fake(40)}' | npx wrangler secret put STRIPE_KEY\n",
                             "secret-pipe-command"),
    "echo into vercel": ("Makefile", f"\techo -n {fake(32)} | vercel env add API_TOKEN production\n", "secret-pipe-command"),
    "an OpenVPN key in a text file": ("ansible/files/tls-auth.txt", OPENVPN, "openvpn-static-key"),
    # vendors' shapes under any name
    "HubSpot's EU token": ("crm/sync.py", f'client = hubspot.Client.create(access_token="pat-eu1-{uuid()}")\n', "vendor-key-shape"),
    "a SonarQube token in a comment": (".gitlab-ci.yml", f"# sonar login: sqp_{fake(40, HEX)}\n", "vendor-key-shape"),
    "a LaunchDarkly mobile key": ("ios/Flags.swift", f'let config = LDConfig(mobileKey: "mob-{uuid()}")\n', "vendor-key-shape"),
    "a New Relic license key": ("newrelic.yml", f"common:\n  license_key: {fake(36, HEX)}NRAL\n", "vendor-key-shape"),
    "a Mailgun key by position": ("app/mail.rb", f'mg = Mailgun::Client.new("{fake(32, HEX)}-{fake(8, HEX)}-{fake(8, HEX)}")\n',
                                  "mailgun-key"),
    "a CircleCI token in a log": ("logs/ci.log", f"auth ok with CCIPAT_{fake(22)}_{fake(40, HEX)} for org\n", "vendor-key-shape"),
    "a Voyage key by position": ("rag/embed.py", f'vo = voyageai.Client("pa-{fake(43, ALNUM + "-_")}")\n', "vendor-key-shape"),
    "an STS token in a JSON dump": ("out/creds.json", '{"SessionToken": "FwoGZXIvYXdzE' + fake(300, B64) + '"}\n',
                                    "vendor-key-shape"),
}


@pytest.mark.parametrize("case", FOUND)
def test_the_sweeps_kinds_are_found_by_their_rule(case):
    path, text, rule = FOUND[case]
    assert rule in [f.rule for f in find_secrets(text, path)], case
    assert credential_in_text(text, path), case


ORDINARY = {
    "a cache key in hex": ("app/thumbs.py", f'THUMBNAIL_CACHE_KEY = "{fake(32, HEX)}"\n'),
    "a sequence token of digits": ("docs/logs.md", '"nextSequenceToken": "' + "".join(_rnd.choice("0123456789") for _ in range(56))
                                   + '"\n'),
    "an idempotency UUID": ("docs/cli.rst", f'"ClientRequestToken": "{uuid()}",\n'),
    "a SOPS file": ("secrets/prod.enc.yaml", f"api_token: ENC[AES256_GCM,data:{fake(24, B64)},iv:{fake(43, B64)}=,tag:"
                                              f"{fake(22, B64)}==,type:str]\n"),
    "a SealedSecret": ("k8s/db-sealed.yaml", "kind: SealedSecret\nspec:\n  encryptedData:\n    apiKey: AgA" + fake(600, B64) + "==\n"),
    "a Podfile.lock": ("ios/Podfile.lock", f"SPEC CHECKSUMS:\n  FirebaseAuth: {fake(40, HEX)}\n  GoogleSignIn: {fake(40, HEX)}\n"
                                           f"\nPODFILE CHECKSUM: {fake(40, HEX)}\n"),
    "SQLAlchemy's documented URL": ("lib/dialects.py", 'e = create_engine("mysql+pymysql://scott:tiger@localhost/foo")\n'),
    "a password that is the user's name": ("tests/conftest.py", 'DB = "postgresql://postgres:postgres@localhost:5432/test"\n'),
    "a camelCase method with two-letter words": ("src/proxy.py", "self.validateSocks5HandshakeOrRaiseProtocolError(reply)\n"),
    "a paginator's JMESPath": ("data/s3/paginators-1.json", '"output_token": "Contents[-1].Key",\n'),
    "a KMS key's ARN": ("docs/kms.md", '"signingKey": "arn:aws:kms:us-east-2:210987654321:alias/app-Signing2",\n'),
    "an AWS docs id ending in EXAMPLE": ("docs/ec2.rst", f'"ReservationId": "rsv-{fake(24)}EXAMPLE",\n'),
    "a type stub's key": ("stubs/keys.pyi", "    signing_key: ed448.Ed448PrivateKey\n"),
    "a win32 alias": ("lib/reg.py", "    RegFlushKey = win32api.RegFlushKey\n"),
    "prose under a password key": ("locales/en.yml", "errors:\n  password: must contain letters and digits\n"),
    "a shell lookup": ("bin/env.sh", "export SECRET_KEY=$(openssl rand -hex 32)\nAPI_TOKEN=$API_TOKEN_PROD\n"),
    "a pipe from a variable": ("scripts/push.sh", 'echo "$CF_TOKEN" | wrangler secret put CF_TOKEN\n'),
    "a bare key from hex in a test": ("tests/test_af_alg.py", f"key = bytes.fromhex('{fake(32, HEX)}')\n"),
    "an HMAC of a variable": ("sign.go", "mac := hmac.New(sha256.New, key)\n"),
    "a template literal with a lookup": ("src/api.ts", "headers: { Authorization: `Bearer ${session.accessToken}` },\n"),
    "a password's hint": ("app/forms.py", 'password_hint = "Ab1cd2"\n'),
    "a kebab-case name after pa-": ("web/styles.css", ".pa-navigation-sidebar-collapsed-state-toggle-btn { margin: 0 }\n"),
}


@pytest.mark.parametrize("case", ORDINARY)
def test_ordinary_text_is_not_flagged(case):
    path, text = ORDINARY[case]
    assert find_secrets(text, path) == [], case


@pytest.mark.parametrize("path", [".envrc", "worker/.dev.vars", "token.json", "home/.databrickscfg", "web/.sentryclirc",
                                  "home/.snowsql/config", "home/.config/ngrok/ngrok.yml", "home/.cache/huggingface/token",
                                  "downloads/ci-bot_accessKeys.csv", "new_user_credentials.csv", "etc/wireguard/wg0.conf",
                                  "keys/deploy_key"])
def test_credential_files_are_known_by_name(path):
    assert credential_file_reason(path) is not None, path


@pytest.mark.parametrize("path", ["tokens.json", "src/token.py", "wg.conf", "keys/deploy_key.pub", "tokenizer.json"])
def test_look_alike_names_are_not(path):
    assert credential_file_reason(path) is None, path
