"""Secrets in text (ctxlib/credentials.py): gitleaks' rules on a corpus of true and false positives.

Every key here is assembled at run time from a seeded generator, so this file holds no
string a scanner (or a push protection) would take for a real credential.
"""
import base64 as _b64
import random
import string

import pytest

from ctxlib.credentials import GITLEAKS_VERSION, credential_file_pattern, find_secrets, rules, shannon_entropy
from ctxlib.fit import pack_files
from ctxlib.repo import credential_file_reason, credential_in_text

_rnd = random.Random(2026)
ALNUM = string.ascii_letters + string.digits


def fake(n, alphabet=ALNUM):
    return "".join(_rnd.choice(alphabet) for _ in range(n))


ANTHROPIC = "sk-ant-" + "api03-" + fake(93, ALNUM + "_-") + "AA"
GOOGLE = "AI" + "za" + fake(35)
HUGGING_FACE = "hf" + "_" + fake(34, string.ascii_letters)
GITHUB_PAT = "github" + "_pat_" + fake(82, ALNUM + "_")
AWS_SECRET = fake(40, ALNUM + "/+")
DJANGO = "django-insecure-" + fake(50, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)")

TRUE_POSITIVES = [
    (f'ANTHROPIC_API_KEY="{ANTHROPIC}"\n', "anthropic-api-key"),
    (f"const maps = loadMaps('{GOOGLE}');\n", "gcp-api-key"),
    (f"HF_TOKEN = '{HUGGING_FACE}'\n", "huggingface-access-token"),
    (f"git clone https://x:{GITHUB_PAT}@github.com/o/r\n", "github-fine-grained-pat"),
    (f"[default]\naws_secret_access_key = {AWS_SECRET}\n", "generic-api-key"),  # unquoted
    (f"SECRET_KEY = '{DJANGO}'\n", "django-secret-key"),
    (f"# settings.py\nSECRET_KEY = \"{fake(50)}\"\n", "generic-api-key"),  # gitleaks' own rules come first
    # Formats gitleaks 8.30.1 misses, or finds only beside the service's name (ctxlib's EXTRA_RULES)
    (f"REDIS_URL=redis://:{fake(16)}@cache:6379/0\n", "password-in-url"),  # no user name before the colon
    (f"client = OpenAI(api_key='sk-" + f"proj-{fake(156, ALNUM + '_-')}')\n", "service-token"),  # too long for generic
    (f"endpoint = 'wh" + f"sec_{fake(32)}'\n", "service-token"),  # Stripe webhook secret
    (f"bot = Bot('{fake(10, string.digits)}:AA{fake(33, ALNUM + '_-')}')\n", "service-token"),  # Telegram
    (f"url = 'https://discord.com/api/web" + f"hooks/{fake(18, string.digits)}/{fake(68, ALNUM + '_-')}'\n", "service-token"),
    (f"blob = 'https://shop.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig={fake(43)}%3D'\n", "service-token"),  # SAS
    (f'headers = {{"Authorization": "Bearer {fake(40)}"}}\n', "authorization-header"),
    (f"docker login -u ci -p {fake(20)} registry.example.com\n", "command-line-password"),
    (f"sshpass -p '{fake(14)}' ssh deploy@host\n", "command-line-password"),
    ("-----BEGIN RSA PRIVATE" + " KEY-----\n" + "\n".join(fake(64, ALNUM + "+/") for _ in range(4)) + "\n",
     "private-key-block"),  # cut before its END line
    ("---- BEGIN SSH2 ENCRYPTED PRIVATE" + " KEY ----\n" + "\n".join(fake(64, ALNUM + "+/") for _ in range(4))
     + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n", "private-key-block"),
    (f"c.ServerApp.password = 'argon2:$argon2id$v=19$m=10240,t=10,p=8${fake(22)}${fake(43)}'\n", "password-hash"),
    (f"c.NotebookApp.password = 'sha1:{fake(12, '0123456789abcdef')}:{fake(40, '0123456789abcdef')}'\n", "password-hash"),
]

FALSE_POSITIVES = [
    # Example credentials in documentation URLs, as an HTTP client's docstrings show them.
    '"""Proxies with basic auth::\n\n    proxies = {"https": "http://user:pass@10.10.1.10:1080"}\n"""\n',
    "def get(url):\n    \"\"\"``client.get('https://user:password@example.com/path')`` sends Basic auth.\"\"\"\n",
    "AWS's own documentation example: AKIA" + "IOSFODNN7EXAMPLE\n",
    'password = "changeme"\n',  # too little entropy to be a generated secret
    'api_version = "2024-01-01"\n',
    "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']\n",
    "def private_key_path(home):\n    return home / '.ssh' / 'id_rsa'\n",
    "token = tokenize.generate_tokens(readline)\n",
    "key = self._keyfunc(item)\n",
    'headers["Authorization"] = f"Bearer {token}"\n',
    "curl -H 'Authorization: Bearer <token>' https://api.example.com\n",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9...\n",
    'if line.startswith("-----BEGIN RSA PRIVATE KEY-----"):\n    return parse_pem(lines)\n',
    "mysql -u root -p shop < dump.sql\n",  # -p alone: mysql asks for the password
    'echo "$CR_PAT" | docker login ghcr.io -u ci --password-stdin\n',
    "docker login -u $USER -p $REGISTRY_TOKEN registry.example.com\n",
    # generic-api-key reads "," as an assignment: Lesson 2's own notebook was refused for this line.
    "record(trimmed=r.trimmed_tokens, total=previous + appended - r.trimmed_tokens,\n",
    "counts = dict(max_tokens, default=fallback_value)\n",
]


def test_a_keyword_argument_after_a_tokens_comma_is_code_but_a_secret_there_is_not():
    # GITLEAKS_ALLOWLISTS lets "name=plain_name" through only when the name is no secret's word.
    assert [f.rule for f in find_secrets("api_token, secret=abcdefghijkl\n")] == ["generic-api-key"]
    assert find_secrets("trimmed_tokens, total=previous\n") == []


@pytest.mark.parametrize("text, rule", TRUE_POSITIVES)
def test_each_key_format_is_found(text, rule):
    assert [f.rule for f in find_secrets(text)][:1] == [rule]
    assert str(credential_in_text(text)) == f"holds a secret (gitleaks: {rule})"


@pytest.mark.parametrize("text", FALSE_POSITIVES)
def test_documentation_examples_and_ordinary_code_are_not_secrets(text):
    assert find_secrets(text) == []


def test_the_rule_set_is_gitleaks_default_config():
    compiled, global_allow = rules()
    ids = [r.id for r in compiled]
    assert len(ids) >= 220 and GITLEAKS_VERSION == "8.30.1"
    for rule_id in ("anthropic-api-key", "gcp-api-key", "huggingface-access-token", "github-fine-grained-pat",
                    "aws-access-token", "generic-api-key", "private-key", "stripe-access-token"):
        assert rule_id in ids
    assert global_allow  # gitleaks' own allowlists are applied, not dropped


def test_findings_carry_their_line():
    text = "x = 1\ny = 2\n" + f"HF_TOKEN = '{HUGGING_FACE}'\n"
    assert [(f.rule, f.line) for f in find_secrets(text)] == [("huggingface-access-token", 3)]


def test_path_scoped_rules_apply_only_to_their_files():
    text = f'password = "{fake(16, string.ascii_lowercase)}"\n'
    assert "hashicorp-tf-password" in [f.rule for f in find_secrets(text, "main.tf")]
    assert "hashicorp-tf-password" not in [f.rule for f in find_secrets(text, "main.py")]


def test_shannon_entropy_by_hand():
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abcd") == 2.0
    assert shannon_entropy("") == 0.0


def test_an_http_clients_docstring_url_is_packed():
    # The opposite error of the old rules: a docstring's user:password example refused the file.
    files = {"client.py": '"""Send a request::\n\n    get("https://user:password@example.com")\n"""\n'
                          "def get(url):\n    return url\n"}
    assert [c.path for c in pack_files(files, "get request", 200).chosen] == ["client.py"]


# --- Credential files of common tools: a true/false-positive corpus (issue 23, item 2) ------------
# Each true positive is refused twice: by its usual name (the reader never opens it) and, under a
# neutral name, by its content (the packer refuses it). The look-alikes must pass both.

_PEM = ("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n"
        "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCd\n"
        "-----END PRIVATE KEY-----\n")
_SA = ('{\n  "type": "service_account",\n  "project_id": "shop-prod",\n  "private_key_id": '
       '"3f6c2a9e8b7d4c1f0a5e6d7c8b9a0f1e2d3c4b5a",\n  "private_key": "' + _PEM.replace("\n", "\\n") + '",\n'
       '  "client_email": "ci@shop-prod.iam.gserviceaccount.com",\n  "client_id": "113620938471234567890"\n}\n')
CREDENTIAL_CORPUS = {  # usual path -> contents
    ".kube/config": "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-key-data: "
                    + _b64.b64encode(_PEM.encode()).decode() + "\n",
    "kubeconfig": "apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: eyJhbGciOiJSUzI1NiIsImtpZCI6Ik"
                  "x2c3pQeU1hS0\n",
    ".docker/config.json": '{\n\t"auths": {\n\t\t"registry.example.com": {\n\t\t\t"auth": "'
                           + _b64.b64encode(b"deploy:Tr0ub4dor&3-registry").decode() + '"\n\t\t}\n\t}\n}\n',
    "sa/service-account.json": _SA,
    "gcloud/application_default_credentials.json": '{\n  "client_id": "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.'
        'googleusercontent.com",\n  "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty",\n  "refresh_token": "1//0gWq3nV8yZ'
        'kLmCgYIARAAGBASNwF-L9IrQx7bq2Vt4sPzHk",\n  "type": "authorized_user"\n}\n',
    ".netrc": "machine api.example.com\n  login deploy\n  password s3cr3t-Netrc-9931\n",
    ".pgpass": "db.internal:5432:shop:app:Pg-pa55word-77\n",
    ".my.cnf": "[client]\nuser = app\npassword = My5ql-Secret-Pw\nhost = db.internal\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_Q9a8B7c6D5e4F3g2H1i0J9k8L7m6N5o4P3q2\n",
    ".pypirc": "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJG"
               "FiY2RlZjEyLTM0NTYtNzg5MC1hYmNkLWVmMTIzNDU2Nzg5MAACJXsicGVybWlzc2lvbnMiOiAidXNlciJ9\n",
    ".aws/credentials": "[default]\naws_access_key_id = AKIAZ7VRSQ5TJN2XMWKB\n"
                        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKX\n",
    ".git-credentials": "https://octocat:ghp_R2x9Qm4Lk7Vt1Bz8Nc5Wd3Hf6Jp0Sa9Ye2Ui@github.com\n",
    ".s3cfg": "[default]\naccess_key = AKIAZ7VRSQ5TJN2XMWKB\nsecret_key = Zx8Qm4Lk7Vt1Bz8Nc5Wd3Hf6Jp0Sa9Ye2Ui7Ko3\n",
    ".yarnrc.yml": 'npmRegistryServer: "https://npm.example.com"\nnpmAuthToken: "Yx7Qm4Lk7Vt1Bz8Nc5Wd3Hf6Jp0"\n',
    ".htpasswd": "admin:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/\n",
    "db/database.yml": "production:\n  url: postgres://shop:Hunter2-Prod-Pw@db.internal:5432/shop\n",
    "src/main/resources/application.properties": "spring.datasource.url=jdbc:mysql://db/shop\n"
                                                 "spring.datasource.password=Sp7ing-Db-Pw-99\n",
    "redis/redis.conf": "bind 127.0.0.1\nrequirepass Red1s-Pw-77x\n",
    "group_vars/all.yml": "ansible_user: deploy\nansible_become_pass: B3come-Pw-2291\n",
    "wpa_supplicant.conf": 'network={\n  ssid="office"\n  psk="Wpa-Psk-Secret-77"\n}\n',
    "keys/deploy.ppk": "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 1\n"
                       "AAAAB3NzaC1yc2EAAAADAQABAAABAQC=\nPrivate-Lines: 1\nAAABAQCxyzABCDEFGHIJKLMNOPqrstu=\nPrivate-MAC: ab12\n",
}
CONTENT_ONLY = {"db/database.yml", "src/main/resources/application.properties", "redis/redis.conf",
                "group_vars/all.yml", "wpa_supplicant.conf"}
LOOK_ALIKES = {  # not credentials, under names that could fool a name list or a content rule
    "docs/kubeconfig.md": "Set `client-key-data:` to the base64 of your key; see `kubectl config view`.\n",
    "app/settings.py": 'import os\nPASSWORD = os.environ["DB_PASSWORD"]\nDATABASE_URL = "postgres://user:password@localhost/db"\n',
    "docs/netrc.txt": "A .netrc line looks like: machine example.com login USER password PASSWORD\n",
    "config.yaml": "database:\n  host: localhost\n  password: ${DB_PASSWORD}\n  token: <your token>\n",
    "package.json": '{\n  "name": "shop",\n  "scripts": {"auth": "node auth.js"},\n  "version": "1.0.0"\n}\n',
    "credentials/__init__.py": '"""Credential helpers."""\ndef load(path):\n    return open(path).read()\n',
    "keys/id_rsa.pub": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO0tlO6Fc4Kk6BJlp2pDT1bkyp1lE5fbwGdQAcW6Wd0s me@host\n",
    ".env.example": "DB_PASSWORD=\nAPI_TOKEN=changeme\n",
    "src/docker.py": 'def login(client):\n    return client.login(username="me", password=getpass())\n',
    "settings.ini": "[limits]\nbypass = true\nmax_tokens = 1000\npassword_min_length = 8\n",
    ".github/workflows/ci.yml": "env:\n  token: ${{ secrets.GITHUB_TOKEN }}\n  password: ${DB_PASSWORD}\n",
    # A workflow's permissions (trusted publishing asks for an OIDC id-token): "write" is a scope, not a password.
    ".github/workflows/publish.yaml": "jobs:\n  publish:\n    permissions:\n      id-token: write\n      contents: read\n",
}


@pytest.mark.parametrize("path", sorted(set(CREDENTIAL_CORPUS) - CONTENT_ONLY))  # those names: by content only
def test_a_credential_file_is_refused_by_name(path):
    assert credential_file_reason(path) is not None, path


@pytest.mark.parametrize("path", ["firebase/shop-firebase-adminsdk-x1y2z-0a1b2c3d4e.json", "serviceAccountKey.json",
                                  "client_secret_1234-abcd.apps.googleusercontent.com.json", "infra/prod.auto.tfvars.json",
                                  "ansible/.vault_pass", ".vault_pass.txt"])
def test_files_known_by_their_usual_name_only_are_refused(path):
    # an Ansible vault password file is one bare line: only its name tells; the others' default download names
    assert credential_file_reason(path) is not None, path


@pytest.mark.parametrize("path", sorted(CREDENTIAL_CORPUS))
def test_a_credential_file_under_a_neutral_name_is_refused_by_its_content(path):
    neutral = "notes/" + path.replace("/", "_").lstrip(".") + (".txt" if "." not in path.rsplit("/", 1)[-1][1:] else "")
    assert find_secrets(CREDENTIAL_CORPUS[path], neutral), (path, neutral)


@pytest.mark.parametrize("path", sorted(LOOK_ALIKES))
def test_a_look_alike_is_neither_refused_by_name_nor_by_content(path):
    assert credential_file_reason(path) is None, path
    assert find_secrets(LOOK_ALIKES[path], path) == [], path


@pytest.mark.parametrize("path, named", [(".ENV", ".env"), ("keys/ID_RSA", "id_rsa"), ("id_rsa~", "id_rsa"),
                                         ("deploy/id_rsa.bak", "id_rsa"), (".env~", ".env"), (".env ", ".env"),
                                         ("id_ed25519\u200b", "id_ed25519"), ("home/.SSH/ID_ECDSA", "**/.ssh/id_*"),
                                         ("backup/.pgpass.orig", ".pgpass"), ("Secrets.YAML", "secrets.yaml"),
                                         ("certs/Server.PEM", "*.pem"), (".netrc.old~", ".netrc")])
def test_a_credential_file_whose_name_hides_the_usual_one_is_refused(path, named):
    # a backup's or an editor's suffix, capitals (a case-insensitive file system opens .ENV as .env), a trailing
    # space (Windows drops it) or a zero-width character: the same file under the name a reader sees
    assert credential_file_reason(path) is not None, path
    assert credential_file_pattern(path) == named


@pytest.mark.parametrize("path", ["ID_RSA.PUB", ".ENV.EXAMPLE", "notes.bak", "config.old", "src/Credentials.py",
                                  "docs/SECRETS.md", "Makefile~"])
def test_a_plain_name_that_only_looks_hidden_is_packed(path):
    assert credential_file_reason(path) is None, path


# --- the keywords' search plan, shipped with the rules ----------------------------------------------------------------

def test_the_shipped_keyword_plan_is_the_plan_of_todays_keywords():
    import json

    from ctxlib import credentials, literalset

    stored = json.loads(credentials.KEYWORD_PLAN.read_text("utf-8"))
    assert stored["literals"] == credentials.keyword_list(), "stale: run python3 tools/keyword_plan.py"
    assert stored["plan"] == literalset.plan_of(stored["literals"]), "stale: run python3 tools/keyword_plan.py"
    assert len(stored["literals"]) > 480 and len(stored["plan"]) < 30  # one search per anchor character


def test_a_plan_made_for_other_keywords_is_not_used(monkeypatch, tmp_path):
    import json

    from ctxlib import credentials

    other = tmp_path / "keyword_plan.json"
    other.write_text(json.dumps({"literals": ["key"], "plan": []}), encoding="utf-8")
    monkeypatch.setattr(credentials, "KEYWORD_PLAN", other)
    credentials._keywords.cache_clear()
    try:
        keywords = credentials._keywords()
        assert keywords.literals == frozenset(credentials.keyword_list())  # planned here, not the empty plan
        assert keywords.find("aws_secret_access_key = 1")["key"] == [18]
    finally:
        credentials._keywords.cache_clear()


def test_a_rules_cache_that_is_not_the_shipped_rules_is_parsed_afresh(tmp_path):
    # The parsed gitleaks rules were cached with no check but their own checksum: a cache file saying
    # {"rules": [], "allowlist": {"regexes": [".*"]}} let the planted secrets through, and one saying []
    # gave a KeyError's traceback on every pack (round s42). Only the shipped rules' payload is read now.
    import hashlib
    import os
    import subprocess
    import sys

    from ctxlib import credentials, usercache

    raw = (credentials.Path(credentials.__file__).with_name("data") / credentials.RULES_FILE).read_bytes()
    assert hashlib.sha256(usercache.to_json(credentials._parse_toml(raw))).hexdigest() == credentials.RULES_DIGEST
    key = "AKIA" + "".join(random.Random(7).choices(string.ascii_uppercase + "234567", k=16))
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "deploy.py").write_text(f"aws_access_key_id = '{key}'\n# deploy\n")
    for rules_data in ([], {"rules": [], "allowlist": {"regexes": [".*"]}}):
        payload = usercache.to_json(rules_data)
        cache = tmp_path / "cache" / usercache.cache_file("gitleaks", hashlib.sha256(raw).hexdigest()).name
        cache.parent.mkdir(exist_ok=True)
        cache.write_bytes(hashlib.sha256(payload).hexdigest().encode() + payload)
        done = subprocess.run([sys.executable, "-m", "ctxlib", "pack", str(tmp_path / "repo"), "--query", "deploy",
                               "--budget", "2000"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "CTXLIB_CACHE_DIR": str(tmp_path / "cache")})
        assert "Traceback" not in done.stderr and key not in done.stdout
        assert "deploy.py" in done.stderr and "gitleaks: aws-access-token" in done.stderr


@pytest.mark.parametrize("path, text, refused", [
    # vuejs/core's pnpm-lock.yaml was refused whole for a package named registry-auth-token at 3.3.2 (a user, s43)
    ("pnpm-lock.yaml", "packages:\n  registry-auth-token: 3.3.2\n  rc: 1.2.8\n", False),
    ("config.yaml", "auth_token: v4.2.1\n", False),
    ("config.yaml", "auth_token: 3.3.2x9Kq7Lm\n", True),  # a version's start is not a version
    (".pypirc", "[pypi]\nusername = me\npassword = 7.3.1-Zq8xLm2K\n", True),
])
def test_a_version_number_is_no_configs_password(path, text, refused):
    assert (credential_in_text(text, path) is not None) == refused
