"""Secrets in text (ctxlib/credentials.py): gitleaks' rules on a corpus of true and false positives.

Every key here is assembled at run time from a seeded generator, so this file holds no
string a scanner (or a push protection) would take for a real credential.
"""
import random
import string

import pytest

from ctxlib.credentials import GITLEAKS_VERSION, find_secrets, rules, shannon_entropy
from ctxlib.fit import pack_files
from ctxlib.repo import credential_in_text

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
]


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
