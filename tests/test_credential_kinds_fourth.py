"""A fourth red-team round on the credential detector (ctxlib/secretformats.py, ctxlib/secretcalls.py).

121 fake credentials in formats and placements the first three rounds (tests/test_credential_kinds.py) did not cover:
cloud keys outside a connection string (az storage --account-key, a Service Bus SAS token, StackExchange.Redis'
"host:6380,password=..."), tokens known by their own shape (Discord bots', Docker Hub's, NuGet's, cloudflared's),
servers' password files (Redis ACL, PgBouncer, Dovecot, Mosquitto, htpasswd without its dot), answer files
(unattend.xml, FileZilla), administrators' command lines, secret stores' commands, logins passed by position, keys
written into HMAC and JWT calls, Authorization schemes other than Bearer and Basic, keys split over two literals.
73 of them were packed before this round (FOURTH_ROUND, each with the rule that now refuses it; a WireGuard key was
refused by gitleaks' generic-api-key only when its value happened to be random enough); the other 48 were refused
already (ALREADY_REFUSED, kept so that they stay so). The look-alikes are near misses of the new rules, which must
still be packed. Values are assembled at run time from a seeded generator, so this file holds no
string a scanner would take for a real credential.
"""
import base64
import json
import random
import string
from pathlib import Path

import pytest

from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_file_reason, credential_in_text

_rnd = random.Random(48)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
LOWER_ALNUM = string.ascii_lowercase + string.digits


def fake(n, alphabet=ALNUM):
    return "".join(_rnd.choice(alphabet) for _ in range(n))


def password():
    """A chosen-looking password: letters of both cases, two symbols, digits."""
    return fake(5, string.ascii_uppercase) + fake(6, string.ascii_lowercase) + "%!" + fake(3, string.digits)


def octets(n):
    return bytes(_rnd.getrandbits(8) for _ in range(n))


def b64(n):
    return base64.b64encode(octets(n)).decode()


def b64url(n):
    return base64.urlsafe_b64encode(octets(n)).decode().rstrip("=")


def uuid():
    return f"{fake(8, HEX)}-{fake(4, HEX)}-4{fake(3, HEX)}-a{fake(3, HEX)}-{fake(12, HEX)}"


def discord_token(digits=None):
    """A Discord bot token's shape: the bot's id (17 to 19 digits) in base64 without padding, 6 characters, 27 to 38."""
    user_id = digits or str(_rnd.randint(10 ** 17, 10 ** 19 - 1))
    return base64.b64encode(user_id.encode()).decode().rstrip("=") + "." + fake(6, ALNUM + "_-") + "." + fake(38, ALNUM + "_-")


def wireguard_key():
    raw = bytearray(octets(32))  # a Curve25519 private key, clamped as wg genkey writes it
    raw[0] &= 248
    raw[31] = (raw[31] & 127) | 64
    return base64.b64encode(bytes(raw)).decode()


def jwt(payload):
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"{head}.{body}.{b64url(32)}"


PW = password()
PEM_BODY = "\n".join(fake(64, ALNUM + "+/") for _ in range(6))
PEM = ("-----BEGIN PRIVATE" + " KEY-----\n" + "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + fake(32, ALNUM + "+/") + "\n" + PEM_BODY
       + "\n-----END PRIVATE KEY-----\n")
ACCOUNT_KEY = b64(64)
SAS_KEY = b64(32)
TUNNEL = base64.b64encode(json.dumps({"a": fake(32, HEX), "t": uuid(), "s": b64(32)}, separators=(",", ":")).encode()).decode()
K8S_B64 = base64.b64encode(PW.encode()).decode()

FOURTH_ROUND = [  # (label, path, text, rule): packed before this round
    ("az storage --account-key", "deploy/upload.sh",
     f"az storage blob upload-batch -d '$web' -s dist --account-name shopweb --account-key {b64(64)}\n", "azure-shared-key"),
    ("StackExchange.Redis config string", "src/Web/appsettings.Production.json",
     '{"Redis": "shop.redis.cache.windows.net:6380,password=' + b64(32) + ',ssl=True,abortConnect=False"}\n', "redis-config-string-password"),
    ("Service Bus SAS token", "tools/send.py",
     'HEADERS = {"Authorization": "SharedAccessSignature sr=https%3A%2F%2Fshop.servicebus.windows.net%2Forders&sig='
     + b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D") + '&se=1735689600&skn=RootManageSharedAccessKey"}\n', "azure-shared-key"),
    ("Azure DevOps PAT, exported", "scripts/ado.sh", f"export AZURE_DEVOPS_EXT_PAT={fake(52, 'abcdefghijklmnopqrstuvwxyz234567')}\naz devops project list\n", "azure-devops-pat"),
    ("cloudflared service install token", "setup/tunnel.sh", f"sudo cloudflared service install {TUNNEL}\n", "cloudflare-tunnel-token"),
    ("cloudflared tunnel token in compose", "docker-compose.tunnel.yml",
     f"services:\n  tunnel:\n    image: cloudflare/cloudflared\n    command: tunnel --no-autoupdate run --token {TUNNEL}\n", "cloudflare-tunnel-token"),
    ("netlify deploy --auth", "deploy/netlify.sh", f"netlify deploy --prod --dir=dist --auth {fake(43, ALNUM + '_-')}\n", "admin-command-password"),
    ("Discord bot token, client.login", "bot/index.js", f"client.login('{discord_token()}');\n", "discord-bot-token"),
    ("Discord bot token, bot.run", "bot/main.py", f'bot.run("{discord_token()}")\n', "discord-bot-token"),
    ("Docker Hub PAT, unnamed tuple", "ci/push.py", f'creds = ("ci-bot", "dckr_pat_{fake(27, ALNUM + "_-")}")\n', "registry-token"),
    ("dotnet nuget push -k", "ci/nuget.sh", f"dotnet nuget push bin/*.nupkg -k oy2{fake(43, LOWER_ALNUM)} -s https://api.nuget.org/v3/index.json\n", "registry-token"),
    ("nuget setapikey", "ci/nuget.cmd", f"nuget setapikey oy2{fake(43, LOWER_ALNUM)} -source https://api.nuget.org/v3/index.json\n", "registry-token"),
    ("Go MySQL DSN", "internal/db/db.go", f'db, err := sql.Open("mysql", "root:{PW}@tcp(127.0.0.1:3306)/shop?parseTime=true")\n', "go-mysql-dsn"),
    ("Go smtp.PlainAuth", "internal/mail/mail.go", f'auth := smtp.PlainAuth("", "alerts@example.com", "{PW}", "smtp.gmail.com")\n', "positional-login"),
    ("pymysql positional", "scripts/export.py", f'conn = pymysql.connect("db.internal", "root", "{PW}", "shop")\n', "positional-login"),
    ("ftplib.FTP positional", "scripts/upload.py", f'ftp = ftplib.FTP("ftp.example.com", "deploy", "{PW}")\n', "positional-login"),
    ("Redis ACL user line", "redis/users.acl", f"user default off\nuser app on >{PW} ~cache:* +@read +@write\n", "redis-acl-password"),
    ("PgBouncer userlist.txt", "pgbouncer/userlist.txt", f'"app" "{PW}"\n"report" "md5{fake(32, HEX)}"\n', "pgbouncer-userlist"),
    ("sbt Credentials", "build.sbt",
     f'credentials += Credentials("Sonatype Nexus Repository Manager", "s01.oss.sonatype.org", "shopci", "{PW}")\n', "positional-login"),
    ("Leiningen :password", "project.clj",
     f'(defproject shop "0.1.0"\n  :repositories [["releases" {{:url "https://repo.example.com/releases"\n'
     f'                              :username "deploy" :password "{PW}"}}]])\n', "lisp-secret"),
    ("Emacs setq token", "dotfiles/init.el", f'(setq jiralib2-token "{fake(24)}")\n', "lisp-secret"),
    ("fish set -gx", "dotfiles/config.fish", f"set -gx MISTRAL_API_KEY {fake(32)}\n", "set-command-secret"),
    ("Windows setx", "setup.bat", f'setx API_TOKEN "{fake(40)}"\n', "set-command-secret"),
    ("csh setenv", "env/setup.csh", f"setenv DB_PASSWORD {PW}\n", "set-command-secret"),
    ("plink -pw", "ops/tunnel.bat", f"plink -ssh -batch deploy@10.0.0.5 -pw {PW} uptime\n", "admin-command-password"),
    ("xfreerdp /p:", "ops/rdp.sh", f"xfreerdp /v:win01.corp /u:CORP\\\\ops /p:{PW} /cert:ignore\n", "admin-command-password"),
    ("ipmitool -P", "ops/power.sh", f"ipmitool -I lanplus -H 10.0.0.40 -U ADMIN -P {PW} chassis power cycle\n", "admin-command-password"),
    ("mosquitto_pub -P", "iot/publish.sh", f"mosquitto_pub -h mqtt.example.com -u sensor -P {PW} -t temp -m 21.5\n", "admin-command-password"),
    ("cypher-shell -p", "ops/graph.sh", f"cypher-shell -a bolt://neo4j:7687 -u neo4j -p {PW} -f seed.cypher\n", "admin-command-password"),
    ("nmcli wifi password", "setup/wifi.sh", f"nmcli dev wifi connect OfficeNet password {PW}\n", "admin-command-password"),
    ("wpa_passphrase", "setup/pi.sh", f"wpa_passphrase OfficeNet {PW} >> /etc/wpa_supplicant/wpa_supplicant.conf\n", "admin-command-password"),
    ("net user /add", "setup/users.cmd", f"net user svc_backup {PW} /add /y\n", "admin-command-password"),
    ("echo | sudo -S", "deploy/install.sh", f"echo '{PW}' | sudo -S apt-get install -y nginx\n", "piped-password"),
    ("openssl passwd", "setup/user.sh", f"useradd -m -p $(openssl passwd -6 '{PW}') deploy\n", "admin-command-password"),
    ("curl --oauth2-bearer", "scripts/api.sh", f"curl --oauth2-bearer {fake(40)} https://api.example.com/v1/me\n", "admin-command-password"),
    ("skopeo --src-creds", "ci/mirror.sh", f"skopeo copy --src-creds mirror:{PW} docker://quay.io/shop/api:1 docker://registry.local/api:1\n", "admin-command-password"),
    ("poetry config http-basic", "ci/poetry.sh", f"poetry config http-basic.private deploy {PW}\n", "admin-command-password"),
    ("gh secret set --body", "scripts/secrets.sh", f'gh secret set STRIPE_KEY --body "{fake(40)}"\n', "secret-store-command"),
    ("aws ssm put-parameter --value", "scripts/params.sh",
     f"aws ssm put-parameter --name /prod/db/password --type SecureString --value '{PW}' --overwrite\n", "secret-store-command"),
    ("az keyvault secret set --value", "scripts/kv.sh", f"az keyvault secret set --vault-name shop-kv --name db-password --value '{PW}'\n", "secret-store-command"),
    ("aws secretsmanager --secret-string", "scripts/sm.sh",
     f"aws secretsmanager create-secret --name prod/api --secret-string '{PW}'\n", "secret-store-command"),
    ("ngrok add-authtoken", "scripts/dev.sh", f"ngrok config add-authtoken 2{fake(26)}_{fake(21)}\n", "admin-command-password"),
    ("Okta SSWS header", "scripts/okta.sh",
     f'curl -H "Accept: application/json" -H "Authorization: SSWS 00{fake(40, ALNUM + "_-")}" https://dev-1.okta.com/api/v1/users\n', "authorization-scheme"),
    ("DeepL-Auth-Key header", "tools/translate.py", f'headers = {{"Authorization": "DeepL-Auth-Key {uuid()}:fx"}}\n', "authorization-scheme"),
    ("Splunk HEC header", "scripts/hec.sh",
     f'curl -k https://splunk:8088/services/collector -H "Authorization: Splunk {uuid()}" -d \'{{"event": "x"}}\'\n', "authorization-scheme"),
    ("nginx proxy_set_header X-Api-Key", "nginx/api.conf", f"location /api/ {{\n  proxy_set_header X-Api-Key {fake(32)};\n}}\n", "header-secret-value"),
    ("Bearer joined to a literal", "src/api.ts", f'const headers = {{ Authorization: "Bearer " + "{fake(40)}" }};\n', "split-token"),
    ("Apache RequestHeader set X-Api-Key", "apache/site.conf", f'RequestHeader set X-Api-Key "{fake(32)}"\n', "header-secret-value"),
    ("Java SecretKeySpec literal", "src/main/java/Sig.java",
     f'Mac mac = Mac.getInstance("HmacSHA256");\nmac.init(new SecretKeySpec("{PW}{fake(8)}".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));\n', "crypto-key-literal"),
    ("C# SymmetricSecurityKey literal", "src/Auth/TokenService.cs",
     f'var key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("{fake(32)}"));\n', "crypto-key-literal"),
    ("Go SignedString literal", "internal/auth/jwt.go", f'signed, err := token.SignedString([]byte("{PW}{fake(8)}"))\n', "crypto-key-literal"),
    ("Node createHmac literal", "src/webhook.js", f"const sig = crypto.createHmac('sha256', '{fake(32)}').update(body).digest('hex');\n", "crypto-key-literal"),
    ("Python hmac.new literal", "app/sign.py", f'sig = hmac.new(b"{fake(32)}", body, hashlib.sha256).hexdigest()\n', "crypto-key-literal"),
    ("PHP JWT::encode literal", "src/Auth.php", f"$jwt = JWT::encode($payload, '{PW}{fake(8)}', 'HS256');\n", "crypto-key-literal"),
    ("PHP hash_hmac literal", "src/Webhook.php", f"$sig = hash_hmac('sha256', $body, '{fake(32)}');\n", "crypto-key-literal"),
    ("Fernet key literal", "app/crypto.py", f"f = Fernet(b'{base64.urlsafe_b64encode(octets(32)).decode()}')\n", "crypto-key-literal"),
    ("jjwt signWith literal", "src/main/java/Jwt.java",
     f'String t = Jwts.builder().setSubject(u).signWith(SignatureAlgorithm.HS512, "{PW}{fake(8)}").compact();\n', "crypto-key-literal"),
    ("Stripe key split by +", "app/billing.py", f'STRIPE_KEY = "sk_live_" + "{fake(24)}"\n', "split-token"),
    ("GitHub PAT split by +", "scripts/gh.js", f"const token = 'ghp_' + '{fake(36)}';\n", "split-token"),
    ("OpenAI key in implicit concatenation", "app/llm.py", f'OPENAI_KEY = (\n    "sk-proj-{fake(20)}"\n    "{fake(20)}"\n    "{fake(20)}"\n)\n', "split-token"),
    ("OpenWeatherMap appid in a URL", "src/weather.py",
     f'URL = "https://api.openweathermap.org/data/2.5/weather?q=London&appid={fake(32, HEX)}"\n', "url-query-key"),
    ("htpasswd without its dot, DES crypt", "nginx/htpasswd", f"admin:{fake(13, ALNUM + './')}\n", "htpasswd-file-line"),
    ("Mosquitto password file", "mosquitto/passwd", f"sensor:$7$101${b64(12)}${b64(64)}\n", "password-file-line"),
    ("Dovecot users, {PLAIN}", "dovecot/users", f"me@example.com:{{PLAIN}}{PW}::::::\n", "password-file-line"),
    ("Dovecot users, {SHA512-CRYPT}", "dovecot/users.db", f"ann@example.com:{{SHA512-CRYPT}}$6${fake(16, ALNUM + './')}${fake(86, ALNUM + './')}\n", "password-file-line"),
    ("Windows unattend.xml plain-text password", "deploy/autounattend.xml",
     f"<AdministratorPassword>\n  <Value>{PW}</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n", "windows-unattend-password"),
    ("FileZilla sitemanager base64 Pass", "backup/sitemanager.xml",
     f'<Server><Host>ftp.example.com</Host><User>deploy</User><Pass encoding="base64">{base64.b64encode(PW.encode()).decode()}</Pass></Server>\n', "filezilla-password"),
    ("signify secret key", "release/keys/release.sec",
     "untrusted comment: signify secret key\nRWRCSwAAA" + b64(99).rstrip("=") + "\n", "signing-secret-key-file"),
    ("minisign secret key under another name", "release/minisign.txt",
     "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + b64(150) + "\n", "signing-secret-key-file"),
    ("Flask secret_key as escaped bytes", "app/__init__.py",
     "app.secret_key = b'" + "".join(f"\\x{b:02x}" for b in octets(24)) + "'\n", "escaped-bytes-secret"),
    ("lettre Credentials::new", "src/mailer.rs", f'let creds = Credentials::new("alerts".to_owned(), "{PW}".to_owned());\n', "positional-login"),
    ("MinIO NewStaticV4", "internal/store/s3.go",
     f'c, err := minio.New(endpoint, &minio.Options{{Creds: credentials.NewStaticV4("shop-ci", "{fake(40)}", ""), Secure: true}})\n', "positional-login"),
    ("WireGuard key in a Markdown doc", "docs/vpn.md", f"```ini\n[Interface]\nPrivateKey = {wireguard_key()}\nListenPort = 51820\n```\n", "wireguard-private-key"),
]


@pytest.mark.parametrize("label, path, text, rule", FOURTH_ROUND, ids=[k[0] for k in FOURTH_ROUND])
def test_each_fourth_round_kind_is_refused(label, path, text, rule):
    assert credential_in_text(text, path) is not None, label
    assert rule in [f.rule for f in find_secrets(text, path)], label


ALREADY_REFUSED = [  # (label, path, text): refused before this round, by gitleaks' rules or the earlier rounds'
    ("Azure storage connection string, appsettings.json", "src/Shop/appsettings.json",
     '{\n  "ConnectionStrings": {\n    "Storage": "DefaultEndpointsProtocol=https;AccountName=shopdata;AccountKey='
     + ACCOUNT_KEY + ';EndpointSuffix=core.windows.net"\n  }\n}\n'),
    ("Azure storage connection string, Python", "etl/upload.py",
     'svc = BlobServiceClient.from_connection_string("DefaultEndpointsProtocol=https;AccountName=lake01;AccountKey='
     + b64(64) + ';EndpointSuffix=core.windows.net")\n'),
    ("Azure Service Bus connection string, C#", "src/Bus.cs",
     'var client = new ServiceBusClient("Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;'
     'SharedAccessKey=' + SAS_KEY + '");\n'),
    ("Azure Cosmos DB connection string", "src/Api/appsettings.Development.json",
     '{"Cosmos": "AccountEndpoint=https://shop.documents.azure.com:443/;AccountKey=' + b64(64) + ';"}\n'),
    ("Azure IoT Hub device connection string, Arduino", "fw/sensor.ino",
     'static const char* connectionString = "HostName=hub1.azure-devices.net;DeviceId=sensor-01;SharedAccessKey=' + b64(32) + '";\n'),
    ("Azure publish profile userPWD", "Properties/PublishProfiles/shop.PublishSettings",
     '<publishData><publishProfile profileName="shop - Web Deploy" publishMethod="MSDeploy" userName="$shop" userPWD="'
     + fake(60) + '" destinationAppUrl="https://shop.azurewebsites.net" /></publishData>\n'),
    ("GCP service account JSON under another name", "deploy/gcp-ci.json",
     json.dumps({"type": "service_account", "project_id": "shop-prod", "private_key_id": fake(40, HEX),
                 "private_key": PEM, "client_email": "ci@shop-prod.iam.gserviceaccount.com"}, indent=2) + "\n"),
    ("OCI config under another name, pass_phrase", "infra/oci.ini",
     f"[DEFAULT]\nuser=ocid1.user.oc1..aaaa{fake(56, LOWER_ALNUM)}\nfingerprint=20:3b:97:13:55:1c\nkey_file=~/.oci/oci_api_key.pem\n"
     f"pass_phrase={PW}\nregion=eu-frankfurt-1\n"),
    ("ibmcloud login --apikey", "ci/ibm.sh", f"ibmcloud login --apikey {fake(44, ALNUM + '_-')} -r us-south\n"),
    ("IBM service credentials JSON", "config/cos.json",
     json.dumps({"apikey": fake(44, ALNUM + "_-"), "iam_apikey_description": "Auto-generated", "iam_serviceid_crn": "crn:v1:bluemix:public:iam-identity::a/123::serviceid:ServiceId-1"}) + "\n"),
    ("doctl auth init", "scripts/do.sh", f"doctl auth init --access-token dop_v1_{fake(64, HEX)}\n"),
    ("Cloudflare global key in curl -H X-Auth-Key", "scripts/cf.sh",
     f'curl -X GET "https://api.cloudflare.com/client/v4/zones" -H "X-Auth-Email: ops@example.com" -H "X-Auth-Key: {fake(37, HEX)}"\n'),
    ("Supabase service-role JWT in createClient", "src/lib/supabase.ts",
     "export const admin = createClient(url, '" + jwt({"iss": "supabase", "ref": fake(20, string.ascii_lowercase), "role": "service_role", "iat": 1700000000, "exp": 2000000000}) + "');\n"),
    ("Supabase sb_secret_ key", "jobs/sync.py", f'sb = create_client(URL, "sb_secret_{fake(31, ALNUM)}")\n'),
    ("Firebase RTDB ?auth= secret", "src/orders.js", f'fetch("https://shop-1a2b3.firebaseio.com/orders.json?auth={fake(40)}")\n'),
    ("Firebase admin privateKey literal", "functions/admin.js",
     "admin.initializeApp({ credential: admin.credential.cert({ projectId: 'shop', clientEmail: 'fb@shop.iam.gserviceaccount.com', "
     "privateKey: '" + PEM.replace("\n", "\\n") + "' }) });\n"),
    ("Twilio API key and secret", "sms/client.py", f'client = Client("SK{fake(32, HEX)}", "{fake(32)}", account_sid)\n'),
    ("SendGrid in C#", "src/Mail.cs", f'var client = new SendGridClient("SG.{fake(22, ALNUM + "_-")}.{fake(43, ALNUM + "_-")}");\n'),
    ("Mailgun new-format key", "src/mail.js",
     f"const mg = mailgun.client({{ username: 'api', key: '{fake(32, HEX)}-{fake(8, HEX)}-{fake(8, HEX)}' }});\n"),
    ("Stripe restricted key, Ruby", "config/initializers/stripe.rb", f"Stripe.api_key = 'rk_live_{fake(99)}'\n"),
    ("Shopify access token header, PHP", "src/shopify.php",
     f"$headers = ['X-Shopify-Access-Token: shpat_{fake(32, HEX)}', 'Content-Type: application/json'];\n"),
    ("Slack bot token in WebClient", "bot/slack.py", f'client = WebClient(token="xoxb-{fake(12, string.digits)}-{fake(13, string.digits)}-{fake(24)}")\n'),
    ("Slack webhook, Go", "alert/notify.go",
     f'const hook = "https://hooks.slack.com/services/T{fake(10, string.ascii_uppercase + string.digits)}/B{fake(10, string.ascii_uppercase + string.digits)}/{fake(24)}"\n'),
    ("GitHub fine-grained PAT in a workflow env", ".github/workflows/release.yml",
     f"env:\n  GH_TOKEN: github_pat_{fake(22)}_{fake(59)}\n"),
    ("GitLab runner config.toml token", "runner/config.toml",
     f'[[runners]]\n  name = "ci-1"\n  url = "https://gitlab.example.com"\n  token = "glrt-{fake(20, ALNUM + "_-")}"\n'),
    ("GitHub PAT echoed into .npmrc", "Dockerfile.web", f'RUN echo "//npm.pkg.github.com/:_authToken=ghp_{fake(36)}" > .npmrc\n'),
    ("PyPI token in a publish step", ".github/workflows/pypi.yml",
     f"      - uses: pypa/gh-action-pypi-publish@release/v1\n        with:\n          password: pypi-AgEIcHlwaS5vcmc{fake(70, ALNUM + '_-')}\n"),
    ("Docker config.json under another name", "ci/dockerconfig.json",
     '{"auths": {"https://index.docker.io/v1/": {"auth": "' + base64.b64encode(f"ci-bot:{PW}".encode()).decode() + '"}}}\n'),
    ("Secret manifest as JSON", "k8s/secret.json",
     json.dumps({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "type": "Opaque",
                 "data": {"username": base64.b64encode(b"app").decode(), "password": K8S_B64}}, indent=2) + "\n"),
    ("Secret manifest in a shell heredoc", "scripts/k8s.sh",
     f"kubectl apply -f - <<EOF\napiVersion: v1\nkind: Secret\nmetadata:\n  name: api\ndata:\n  API_TOKEN: {base64.b64encode(fake(24).encode()).decode()}\nEOF\n"),
    ("Secret manifest in a README", "README.md",
     f"## Deploy\n\n```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  DB_PASSWORD: {base64.b64encode(password().encode()).decode()}\n```\n"),
    ("kubeconfig token under another name", "ci/cluster.yml",
     f"users:\n- name: ci\n  user:\n    token: {jwt({'iss': 'kubernetes/serviceaccount', 'sub': 'system:serviceaccount:ci:deployer'})}\n"),
    ("Terraform provider literal keys", "infra/monitoring.tf",
     f'provider "datadog" {{\n  api_key = "{fake(32, HEX)}"\n  app_key = "{fake(40, HEX)}"\n}}\n'),
    ("OkHttp addHeader X-API-Key", "src/main/java/Client.java", f'Request r = new Request.Builder().url(u).addHeader("X-API-Key", "{fake(32)}").build();\n'),
    ("XHR setRequestHeader X-Auth-Token", "static/app.js", f'xhr.setRequestHeader("X-Auth-Token", "{fake(40, HEX)}");\n'),
    ("REST Client .http variable", "api/requests.http",
     f"@host = https://api.example.com\n@token = {fake(40)}\n\nGET {{{{host}}}}/me\nAuthorization: Bearer {{{{token}}}}\n"),
    ("Bruno auth:bearer block", "bruno/users/list.bru", f"get {{\n  url: https://api.example.com/users\n}}\n\nauth:bearer {{\n  token: {fake(40)}\n}}\n"),
    ("Alpha Vantage apikey in a URL", "src/quotes.py",
     f'URL = "https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM&apikey={fake(16, string.ascii_uppercase + string.digits)}"\n'),
    ("ipstack access_key in a URL", "src/geo.js", f"fetch(`http://api.ipstack.com/${{ip}}?access_key={fake(32, HEX)}`)\n"),
    ("Databricks token printed in an output cell", "nb/setup.ipynb",
     '{"cells": [{"cell_type": "code", "outputs": [{"name": "stdout", "output_type": "stream", "text": ["token: dapi'
     + fake(32, HEX) + '\\n"]}], "source": ["print(\\"token:\\", tok)"]}]}\n'),
    ("Group Policy Preferences cpassword", "sysvol/Groups.xml",
     f'<User clsid="{{DF5F1855}}" name="backup"><Properties action="U" cpassword="{b64(32).rstrip("=")}" userName="backup"/></User>\n'),
    ("WireGuard key in a shell heredoc", "setup/vpn.sh",
     f"cat > /etc/wireguard/wg0.conf <<EOF\n[Interface]\nPrivateKey = {wireguard_key()}\nAddress = 10.8.0.2/24\nEOF\n"),
    ("PGP private key in a CI variable", ".gitlab-ci.yml",
     "variables:\n  GPG_KEY: |\n    -----BEGIN PGP PRIVATE" + " KEY BLOCK-----\n\n    " + "\n    ".join(fake(64, ALNUM + "+/") for _ in range(6))
     + "\n    =" + fake(4) + "\n    -----END PGP PRIVATE KEY BLOCK-----\n"),
    ("Django SIMPLE_JWT signing key", "shop/settings.py", f"SIMPLE_JWT = {{'ALGORITHM': 'HS256', 'SIGNING_KEY': '{PW}{fake(12)}'}}\n"),
    ("Rails secret_key_base under another name", "config/app_secrets.yml", f"production:\n  secret_key_base: {fake(128, HEX)}\n"),
    ("ASP.NET Jwt Key", "src/Api/appsettings.json", '{\n  "Jwt": {\n    "Issuer": "shop",\n    "Key": "' + fake(40) + '"\n  }\n}\n'),
    ("Consul token as a UUID", "scripts/consul.sh", f"export CONSUL_HTTP_TOKEN={uuid()}\nconsul members\n"),
    ("Codecov token in a workflow", ".github/workflows/cov.yml", f"      - uses: codecov/codecov-action@v4\n        with:\n          token: {uuid()}\n"),
]


@pytest.mark.parametrize("label, path, text", ALREADY_REFUSED, ids=[k[0] for k in ALREADY_REFUSED])
def test_a_kind_refused_before_is_still_refused(label, path, text):
    assert credential_file_reason(path) is not None or credential_in_text(text, path) is not None, label


def test_discord_token_shape_is_base64_of_digits():
    # discord-bot-token reads an id's base64 by its characters: every 3 digits give [MNO][DTjz][AEIMQUYcgk][w-z0-5],
    # the last 2 [MNO][DTjz][AEIMQUYcgk], the last 1 [MNO][AQgw]. Checked here on every group of digits.
    import re

    group = re.compile(r"[MNO][DTjz][AEIMQUYcgk][w-z0-5]")
    assert all(group.fullmatch(base64.b64encode(f"{n:03d}".encode()).decode()) for n in range(1000))
    assert all(re.fullmatch(r"[MNO][DTjz][AEIMQUYcgk]", base64.b64encode(f"{n:02d}".encode()).decode().rstrip("="))
               for n in range(100))
    assert all(re.fullmatch(r"[MNO][AQgw]", base64.b64encode(str(n).encode()).decode().rstrip("=")) for n in range(10))
    for digits in ("12345678901234567", "123456789012345678", "1234567890123456789"):  # 17, 18 and 19 digits
        token = discord_token(digits)
        assert "discord-bot-token" in [f.rule for f in find_secrets(f"client.login('{token}')\n")], digits


LOOK_ALIKES = {  # path -> text: near misses of this round's rules, which must still be packed
    "docs/search.md": 'const client = algoliasearch("YourApplicationID", "YourAdminAPIKey");\n',
    "search/live.js": "const client = algoliasearch(process.env.ALGOLIA_APP_ID, process.env.ALGOLIA_KEY);\n",
    "docs/azure.md": "az storage blob upload --account-key $AZURE_STORAGE_KEY -f a.txt\naz storage account keys list --account-key <key>\n"
                     "Authorization: SharedAccessSignature sr=<resource>&sig=<signature>&se=<expiry>&skn=<keyname>\n",
    "src/appsettings.json": '{"Redis": "localhost:6379,password=${REDIS_PASSWORD},ssl=False", "Cache": "cache:6379,abortConnect=false"}\n',
    "src/compat.py": 'compat = "' + "abcdefghijklmnopqrstuvwxyz" * 2 + '"\nPAT = os.environ["AZURE_DEVOPS_EXT_PAT"]\n',
    "bot/index.js": "client.login(process.env.DISCORD_TOKEN);\nconst id = 'MTIzNDU2Nzg5MDEyMzQ1Njc4';\n",
    "docs/docker.md": "A token looks like `dckr_pat_xxxxxxxxxxxxxxxxxxxxxxxxxxx`; NuGet's like `oy2aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`.\n"
                      "```ini\n[Interface]\nPrivateKey = <base64 private key>\nPublicKey = " + b64(32) + "\n```\n",
    "internal/db.go": 'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, name)\n'
                      'db, _ := sql.Open("mysql", "root:@tcp(127.0.0.1:3306)/test")\n'
                      'example := "user:password@tcp(localhost:3306)/dbname"\n',
    "redis/users.acl": "user default on nopass ~* &* +@all\nuser app on #" + fake(64, HEX) + " ~cache:* +@read\n"
                       "user ci on >$CI_REDIS_PASSWORD ~* +@all\n",
    "pgbouncer/userlist.txt": '"app" "md5' + fake(32, HEX) + '"\n"report" "SCRAM-SHA-256$4096:' + fake(24) + '"\n"empty" ""\n',
    "dovecot/README": "user:{PLAIN}password\n",
    "nginx/htpasswd.md": "# How to make an htpasswd file\n\nRun htpasswd -c file user.\n",
    "deploy/unattend.xml": "<AdministratorPassword>\n  <Value>*SENSITIVE*DATA*DELETED*</Value>\n  <PlainText>true</PlainText>\n"
                           "</AdministratorPassword>\n<Password><Value></Value><PlainText>false</PlainText></Password>\n",
    "backup/recentservers.xml": '<Server><Host>ftp.example.com</Host><Pass encoding="base64" /><Pass></Pass></Server>\n',
    "release/keys/release.pub": "untrusted comment: signify public key\nRWQ" + b64(40) + "\n",
    "app/consts.py": "SECRET_KEY = b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00'\n"
                     "ESC = b'\\x1b[0m\\x1b[1m\\x1b[2m\\x1b[3m\\x1b[4m\\x1b[5m\\x1b[6m\\x1b[7m'\n",
    "src/weather.js": "const url = `https://api.openweathermap.org/data/2.5/weather?q=${city}&appid=${API_KEY}`;\n"
                      "// appid=YOUR_API_KEY, or a digest: appid=" + fake(64, HEX) + "\n"
                      "fetch('https://shop.firebaseio.com/orders.json?auth=' + idToken)\n",
    "ops/notes.md": "ipmitool -I lanplus -H $IP -U ADMIN -P $IPMI_PASSWORD power status\nplink -ssh host -pw %PASSWORD% uptime\n"
                    "wpa_passphrase \"$SSID\" \"$PSK\"\nnet user guest /active:no\nnet user admin *\nopenssl passwd -6 -stdin\n"
                    "curl --oauth2-bearer $TOKEN https://api.example.com\nskopeo copy --src-creds \"$USER:$PASS\" a b\n"
                    "poetry config http-basic.repo deploy $REPO_PASSWORD\nngrok config add-authtoken <token>\n"
                    "netlify deploy --auth $NETLIFY_AUTH_TOKEN\nmosquitto_pub -u sensor -P changeme -t t -m 1\n",
    "scripts/store.sh": 'gh secret set API_KEY --body "$API_KEY"\naws ssm put-parameter --name /app/flag --value true\n'
                        'aws ssm put-parameter --name /app/version --value "v1.2.3"\n'
                        'az keyvault secret set --vault-name kv --name x --value "$(cat pw.txt)"\n'
                        "aws secretsmanager create-secret --name x --secret-string file://secret.json\n",
    "src/logins.py": 'auth = smtp.PlainAuth("", user, password, host)\nconn = pymysql.connect(host, user, password, db)\n'
                     'ftp = FTP("ftp.gnu.org", "anonymous", "anonymous@")\nftp = ftplib.FTP("ftp.example.com")\n'
                     'creds = credentials.NewStaticV4("minioadmin", "minioadmin", "")\n'
                     'c := credentials.NewStaticV4(os.Getenv("KEY"), os.Getenv("SECRET"), "")\n',
    "src/sign.py": 'mac = hmac.new(key, msg, hashlib.sha256)\nmac = hmac.new(b"key", b"The quick brown fox", "md5")\n'
                   "f = Fernet(Fernet.generate_key())\nsig = crypto.createHmac('sha256', secret)\n"
                   "$jwt = JWT::encode($payload, $key, 'HS256');\n$sig = hash_hmac('sha256', $data, $secret);\n"
                   'var key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes(config["Jwt:Key"]));\n'
                   'signed, _ := token.SignedString([]byte(os.Getenv("JWT_SECRET")))\n',
    "src/headers.py": 'headers = {"Authorization": "SSWS YOUR_API_KEY"}\nh = {"Authorization": "DeepL-Auth-Key " + key}\n'
                      "Authorization: Splunk <token>\n",
    "nginx/proxy.conf": "proxy_set_header X-Api-Key $http_x_api_key;\nproxy_set_header X-Request-Id $request_id;\n"
                        'RequestHeader set X-Api-Key "%{API_KEY}e"\n',
    "src/Client.java": 'req.addHeader("X-API-Key", apiKey);\nres.setHeader("X-Auth-Token", token);\n',
    "src/tokens.js": 'const h = "Bearer " + token;\nconst t = "ghp_" + "x".repeat(36);\nconst cls = "sk-" + "spinner-circle-large";\n'
                     'const fixture = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";\n',
    "dotfiles/config.fish": "set -gx API_KEY (cat ~/.config/api_key)\nset -x PATH $PATH ~/bin\n",
    "setup.bat": 'setx API_TOKEN "%TOKEN%"\n',
    "dotfiles/init.el": '(setq auth-source-pass-filename "~/.password-store")\n(defcustom gptel-api-key nil "The key.")\n',
    "project.clj": '{:password (System/getenv "REPO_PASSWORD") :token "<your token>" :password "changeme"}\n',
    "deploy/install.sh": 'echo "$SUDO_PASSWORD" | sudo -S apt-get update\necho "deb http://example.com stable main" | sudo tee a.list\n'
                         "echo done | sudo -s\n",
    # ordinary code holding the other kinds of look-alike: a digest, a commit, a UUID, a placeholder in a doc
    "src/ids.py": 'NAMESPACE = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")\nrequest_id = "' + uuid() + '"\n'
                  'COMMIT = "' + fake(40, HEX) + '"\nSHA256 = "' + fake(64, HEX) + '"\n',
    "docs/api.md": "Send `Authorization: SSWS ${OKTA_API_TOKEN}` and `X-Api-Key: <your key>`; `appid=xxxxxxxx`.\n",
}


@pytest.mark.parametrize("path", sorted(LOOK_ALIKES))
def test_a_fourth_round_look_alike_is_packed(path):
    assert credential_file_reason(path) is None, path
    assert find_secrets(LOOK_ALIKES[path], path) == [], path


# --- Drawn again ---------------------------------------------------------------------------------------------
# The fakes above are drawn from one seed. Drawn from 40 others, 37 of 5,600 were packed: a SAS signature holding
# "%2F...s" (read as printf's "%s"), a key starting with "/" (read as a path), a UUID token (read as "not mixed"),
# a 40-hex X-Auth-Token or a 16-character Alpha Vantage key of low entropy, an Azure or IBM key whose letters held
# one of gitleaks' stop words ("task"). Each is spelled out here as it was drawn, with what refuses it now.
REDRAWN = [  # (label, path, text, rule)
    ("SAS signature with %2F...s", "tools/send.py",
     'HEADERS = {"Authorization": "SharedAccessSignature sr=https%3A%2F%2Fshop.servicebus.windows.net%2Forders&sig='
     'p2sqapeq%2F%2FzCHNnBEDSPqH0sWFCIZyYVz2%2FRTbiHl%2Fw%3D&se=1735689600&skn=RootManageSharedAccessKey"}\n', "azure-shared-key"),
    ("Cosmos DB key starting with /", "src/Api/appsettings.json",
     '{"Cosmos": "AccountEndpoint=https://shop.documents.azure.com:443/;AccountKey=/RAz6D3gqAe456WyKuHlUl0INETKSjowbA1Dm3mX'
     'wmUg6/8wgPvZgnOUX92QfRIXMx4eFy2aRJEro+vVC0VBmA==;"}\n', "azure-connection-key"),
    ("IoT Hub key holding a stop word", "fw/sensor.ino",
     'static const char* connectionString = "HostName=hub1.azure-devices.net;DeviceId=sensor-01;'
     'SharedAccessKey=kkl7DLcTI3ZMDOoArNbd3FTsEkH8/l0K3p2hoCHESNA=";\n', "azure-connection-key"),
    ("Consul token as a UUID", "ops/consul.sh", "export CONSUL_HTTP_TOKEN=5c58788c-74c2-444e-aaf4-552754d2deea\nconsul members\n",
     "env-secret"),
    ("IBM API key holding 'task'", "creds/ibm.json",
     '{"apikey": "rNkzZJcro98ZAVuo55zm20TAskbiT6J9XOWnBEwtgYPY", "iam_apikey_description": "Auto-generated"}\n',
     "ibm-cloud-api-key"),
    ("X-Auth-Token of 40 hex digits, entropy 3.44", "static/app.js",
     'xhr.setRequestHeader("X-Auth-Token", "00022f846f4fffc091167f79bf7203692401137e");\n', "header-secret-value"),
    ("Alpha Vantage key, entropy 3.45", "src/quotes.py",
     'URL = "https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM&apikey=QT0MZGUGBYA6ZGAI"\n',
     "url-query-key"),
    ("SAS signature starting %2B (read as a %VAR% placeholder)", "tools/send.py",
     'HEADERS = {"Authorization": "SharedAccessSignature sr=https%3A%2F%2Fshop.servicebus.windows.net%2Forders&sig='
     '%2Bq%2Fm3nahSvY1KNJTs9FG2eeEkRFp5WqquAh0TKjcH6I%3D&se=1735689600&skn=RootManageSharedAccessKey"}\n', "azure-shared-key"),
    ("Rails secret_key_base, 128 hex digits", "config/secrets.yml",
     "production:\n  secret_key_base: bf69d7e539e43c14d3e202a619bcdd3316c94d9427a5106058c7aa3b850fccf29ca24f190c9bb8d2f88"
     "709a4964c180eac8bcddead73c5e7464f32fc087f4d8a\n", "hex-secret"),
    ("Algolia admin key by position, JavaScript", "search/client.js",
     'const client = algoliasearch("LATENCY1AB", "6be0576ff61c053d5f9a3225e2a90f76");\n', "search-client-key"),
    ("Algolia admin key by position, Python", "search/index.py",
     'client = SearchClient.create("K3P9QZ0W1E", "b3c0a9d2e1f45a6b7c8d9e0f1a2b3c4d")\n', "search-client-key"),
]
REDRAWN_LOOK_ALIKES = {  # path -> text: still packed
    "docs/search.md": 'const client = algoliasearch("YourApplicationID", "YourAdminAPIKey");\n',
    "search/live.js": "const client = algoliasearch(process.env.ALGOLIA_APP_ID, process.env.ALGOLIA_KEY);\n",
    "src/log.py": 'logging.basicConfig(format="%(asctime)s %(levelname)s", datefmt="%Y-%m-%d")\nsecret_fmt = "%(name)s"\n',
    "src/quotes_demo.py": 'URL = "https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM&apikey=demo"\n',
    "src/paths.py": 'password_file = "/etc/app/secrets/password.txt"\n',
    "src/ids.py": 'request_id = "5c58788c-74c2-444e-aaf4-552754d2deea"\n',
    "deploy/win.bat": 'set DB_PASSWORD=%DB_PASS%\npassword = "%DB_PASSWORD%"\n',
    "static/sha.js": 'xhr.setRequestHeader("X-Content-Sha1", "00022f846f4fffc091167f79bf7203692401137e");\n',
}


@pytest.mark.parametrize("label, path, text, rule", REDRAWN, ids=[k[0] for k in REDRAWN])
def test_a_redrawn_fake_is_refused(label, path, text, rule):
    assert rule in [f.rule for f in find_secrets(text, path)], label


@pytest.mark.parametrize("path", sorted(REDRAWN_LOOK_ALIKES))
def test_a_redrawn_look_alike_is_packed(path):
    assert credential_in_text(REDRAWN_LOOK_ALIKES[path], path) is None, find_secrets(REDRAWN_LOOK_ALIKES[path], path)


def test_the_fakes_drawn_from_other_seeds_are_refused():
    # This file's fakes drawn from seeds 1 to 20 (the rules above were found on seeds 0 to 39 and these two).
    # A miss to expect some day: a fake whose letters hold a stop word ("test" in "...gtesTv...") or no digit (a word).
    import re

    source = Path(__file__).read_text(encoding="utf-8")
    missed = []
    for seed in range(1, 21):
        names = {"__name__": f"redraw{seed}", "__file__": __file__}
        exec(compile(re.sub(r"_rnd = random\.Random\(\d+\)", f"_rnd = random.Random({seed})", source, count=1),
                     f"redraw{seed}", "exec"), names)
        kinds = [(label, path, text) for label, path, text, _ in names["FOURTH_ROUND"]] + names["ALREADY_REFUSED"]
        missed += [(seed, label) for label, path, text in kinds
                   if credential_file_reason(path) is None and credential_in_text(text, path) is None]
    assert len(missed) <= MISSED_OF_REDRAWN, missed


MISSED_OF_REDRAWN = 0  # seeds 1 to 20 (2,800 fakes): none left
