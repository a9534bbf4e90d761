"""Ninth sweep (session 42): vendors' token shapes of 2024-2026 alone or in new contexts, and what must stay unflagged.

Every value is a random fake of the vendor's documented length and alphabet, drawn from a seeded generator: none is a
real secret. The positives are what the eighth sweep left (bare Asana, kubeadm and Okta tokens; Braintree, Mailchimp,
Resend and Airtable keys in a URL's path; Bitwarden Secrets Manager tokens; a Rails master key alone in its file) and
what the ninth found (prefixes no rule read, a token set into the environment by code, a key in a URL's query or a raw
header line, a Plaid secret of 30 hex digits, a prefixed token whose body is base64url or of one case). On the code
before this sweep (2aa9417) 55 of the 73 positives here were missed; the negatives were all unflagged but the
``xxxx`` placeholder (config-password).
"""
from __future__ import annotations

import base64
import json
import random
import string

import pytest

from ctxlib import regexscan
from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_in_text
from fakes import AN, DG, HEX, LO, UP, URL, sweep_fakers

R = random.Random(4242)
rs, mixed, uid = sweep_fakers(R)


def nb(lines: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": lines}], "nbformat": 4}, indent=1)


ASANA = f"2/{rs(DG, 16)}/{rs(DG, 16)}:{rs(HEX, 32)}"
KUBEADM = f"{rs(LO + DG, 6)}.{rs(LO, 4)}{rs(DG, 2)}{rs(LO + DG, 10)}"
OKTA = "00" + mixed(URL, 40)
BITWARDEN = f"0.{uid()}.{mixed(AN, 30)}:{mixed(AN, 22)}=="
MAILCHIMP = rs(HEX, 32) + "-us21"

POSITIVES = [
    # the eighth sweep's leftovers: bare tokens whose shape alone tells
    ("asana bare in a call", "scripts/a.py", f'client = Client("{ASANA}")\n'),
    ("asana bare in a JSON list", "data/x.json", json.dumps({"items": [ASANA]})),
    ("asana old format in a YAML list", "config/l.yaml", f"values:\n  - 1/{rs(DG, 16)}:{rs(HEX, 32)}\n"),
    ("asana in a URL path", "docs/a.md", f"GET https://proxy.acme.io/v1/{ASANA}/me\n"),
    ("kubeadm bare in a JSON list", "data/x.json", json.dumps({"items": [KUBEADM]})),
    ("kubeadm bare in a Go call", "main.go", f'\tjoin("{KUBEADM}")\n'),
    ("kubeadm in a URL path", "docs/k.md", f"GET https://boot.acme.io/join/{KUBEADM}/config\n"),
    ("kubeadm as a Terraform default", "variables.tf", f'variable "token" {{\n  default = "{KUBEADM}"\n}}\n'),
    ("okta bare in a call", "app/okta.py", f'client = OktaClient("{OKTA}")\n'),
    ("okta bare in a JSON list", "data/x.json", json.dumps({"items": [OKTA]})),
    ("okta in a URL path", "docs/o.md", f"GET https://proxy.acme.io/okta/{OKTA}/users\n"),
    ("braintree in a URL path", "docs/b.md", f"POST https://proxy.acme.io/bt/access_token$production${rs(LO + DG, 16)}${rs(HEX, 32)}/charge\n"),
    ("mailchimp in a URL path", "docs/m.md", f"GET https://proxy.acme.io/mc/{MAILCHIMP}/lists\n"),
    ("mailchimp bare in a JSON list", "data/x.json", json.dumps({"items": [rs(HEX, 32) + "-us14"]})),
    ("resend in a URL path", "docs/r.md", f"POST https://proxy.acme.io/mail/re_{mixed(AN, 8)}_{mixed(AN, 24)}/send\n"),
    ("airtable in a URL path", "docs/at.md", f"GET https://proxy.acme.io/at/pat{mixed(AN, 14)}.{rs(HEX, 64)}/bases\n"),
    ("bitwarden in .env", ".env", f"BWS_ACCESS_TOKEN={BITWARDEN}\n"),
    ("bitwarden on bws' command line", "scripts/s.sh", f"bws secret list --access-token {BITWARDEN}\n"),
    ("bitwarden bare in a JSON list", "data/x.json", json.dumps({"items": [BITWARDEN]})),
    ("bitwarden in a URL path", "docs/bw.md", f"GET https://proxy.acme.io/{BITWARDEN}/status\n"),
    ("bitwarden in Rust's set_var", "src/main.rs", f'    std::env::set_var("BWS_ACCESS_TOKEN", "{BITWARDEN}");\n'),
    ("rails master key", "config/master.key", rs(HEX, 32) + "\n"),
    ("rails master key without a newline", "config/master.key", rs(HEX, 32)),
    ("rails environment key", "config/credentials/production.key", rs(HEX, 32) + "\n"),
    # prefixes no rule read alone
    ("convex deploy key", "app/convex.ts", f"const key = 'prod:happy-animal-123|{mixed(AN, 60)}=';\n"),
    ("convex preview key in a list", "keys.yaml", f"keys:\n  - preview:acme:web|{mixed(AN, 60)}=\n"),
    ("fal key bare", "app/fal.py", f'fal_client.Client("{uid()}:{rs(HEX, 32)}")\n'),
    ("intercom token bare", "app/ic.rb", f"Intercom::Client.new('dG9rOj{mixed(AN, 54)}=')\n"),
    ("paddle api key", "app/paddle.js", f"new Paddle('pdl_live_apikey_01{rs(LO + DG, 24)}_{mixed(AN, 22)}_{mixed(AN, 3)}')\n"),
    ("flutterwave secret in a URL query", "docs/f.md", f"GET https://api.acme.io/v1/x?secret_key=FLWSECK-{rs(HEX, 32)}-X\n"),
    ("adyen key in a header line", "requests.http", f"X-API-Key: AQE{mixed(AN, 30)}+{mixed(AN + '+/', 60)}=-{mixed(AN, 40)}=-{mixed(AN, 12)}\n"),
    ("crates.io token bare", "data/x.json", json.dumps({"items": ["cio" + mixed(AN, 32)]})),
    ("honeycomb key bare", "app/h.go", f'\tcfg := honeycomb.Config{{"hcaik_01{rs(LO, 4)}{rs(DG, 4)}{rs(LO + DG, 50)}"}}\n'),
    ("axiom token bare", "notes.md", f"Use `xaat-{uid()}` for staging.\n"),
    ("neon api key bare", "app/neon.py", f'Neon("napi_{rs(LO, 8)}{rs(DG, 8)}{rs(LO + DG, 48)}")\n'),
    ("anthropic oauth token bare", "data/x.json", json.dumps({"items": ["sk-ant-oat01-" + mixed(URL, 93) + "AA"]})),
    ("anthropic oauth token in Rust's set_var", "src/main.rs", f'    std::env::set_var("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-{mixed(URL, 93)}AA");\n'),
    # vendors' prefixes in a URL's path
    ("hugging face org token in a URL path", "docs/x.md", f"GET https://api.example.com/v1/api_org_{mixed(UP + LO, 34)}/status\n"),
    ("heroku key in a URL path", "docs/x.md", f"GET https://api.example.com/v1/HRKU-AA{mixed(URL, 58)}/status\n"),
    ("sonarqube token in a URL path", "docs/x.md", f"GET https://api.example.com/v1/squ_{rs(HEX, 40)}/status\n"),
    ("brevo key in a URL path", "docs/x.md", f"GET https://api.example.com/v1/xkeysib-{rs(HEX, 64)}-{mixed(AN, 16)}/status\n"),
    ("hubspot token in a URL path", "docs/x.md", f"GET https://api.example.com/v1/pat-na1-{uid()}/status\n"),
    ("azure ad secret in a URL path", "docs/x.md", f"GET https://api.example.com/v1/{rs(AN, 3)}8Q~{mixed(AN + '_-.~', 34)}/status\n"),
    ("new relic license key in a URL path", "docs/x.md", f"GET https://api.example.com/v1/{rs(HEX, 36)}NRAL/status\n"),
    # code that sets an environment variable
    ("ruby ENV ||=", "config/initializers/acme.rb", f"ENV['VULTR_API_KEY'] ||= '{rs(UP + DG, 36)}'\n"),
    ("python os.environ in a notebook", "nb/demo.ipynb", nb(["import os\n", f'os.environ["MM_TOKEN"] = "{rs(LO, 10)}{rs(DG, 6)}{rs(LO + DG, 10)}"\n'])),
    ("python os.environ.setdefault", "app/boot.py", f"os.environ.setdefault('TWITCH_CLIENT_SECRET', '{rs(LO, 10)}{rs(DG, 6)}{rs(LO + DG, 14)}')\n"),
    ("node process.env", "src/boot.js", f"process.env.PAGERDUTY_TOKEN = 'u+{mixed(URL, 18)}';\n"),
    ("go os.Setenv", "main.go", f'\tos.Setenv("HONEYCOMB_API_KEY", "hcaik_01{rs(LO, 4)}{rs(DG, 4)}{rs(LO + DG, 50)}")\n'),
    ("java System.setProperty", "App.java", f'System.setProperty("acme.api.token", "{rs(LO, 10)}{rs(DG, 8)}{rs(LO + DG, 8)}");\n'),
    # platforms' CLIs that take a secret after a blank
    ("netlify env:set", "ci.sh", f"netlify env:set ACME_SECRET {mixed(AN, 32)}\n"),
    ("convex env set", "ci.sh", f"npx convex env set OPENAI_API_KEY {mixed(AN, 32)}\n"),
    # a key in a URL's query, a raw header line
    ("token in a URL query", "docs/api.md", f"GET https://api.acme.io/v1/items?token={rs(LO, 10)}{rs(DG, 6)}{rs(LO + DG, 10)}&limit=10\n"),
    ("client secret in a URL query", "docs/api.md", f"GET https://id.acme.io/oauth?client_secret={rs(LO, 10)}{rs(DG, 6)}{rs(LO + DG, 14)}&grant_type=x\n"),
    ("access token in a URL query", "docs/api.md", f"GET https://api.acme.io/me?access_token=dG9rOj{mixed(AN, 54)}%3D\n"),
    ("rest token in a URL query", "docs/api.md", f"GET https://api.acme.io/v1/items?rest_token=AX{mixed(AN, 60)}=&limit=10\n"),
    ("pagerduty token in a header line", "requests.http", f"GET https://api.acme.io/v1/me\nX-Api-Key: u+{mixed(URL, 18)}\n"),
    ("datadog key in a header line", "call.http", f"POST https://api.datadoghq.com/api/v2/series\nDD-API-KEY: {mixed(AN + '+', 32)}\n"),
    # a Plaid secret (30 hex digits)
    ("plaid secret in python", "app/settings.py", f'PLAID_SECRET = "{rs(HEX, 30)}"\n'),
    ("plaid secret in ruby ENV", "config/plaid.rb", f"ENV['PLAID_SECRET'] ||= '{rs(HEX, 30)}'\n"),
    ("plaid secret in a JS client", "src/plaid.js", f"const client = new Client({{ secret: '{rs(HEX, 30)}' }});\n"),
    # a vendor's prefixed token no rule knows, its body of another alphabet
    ("unknown prefix, base64url body, bare", "app.py", f'client = acme.Client("nova-{mixed(URL, 48)}")\n'),
    ("unknown prefix, base64url body, YAML list", "keys.yaml", f"keys:\n  - nova-{mixed(URL, 48)}\n"),
    ("unknown prefix, small letters and digits", "app.py", f'client = acme.Client("kfk_{rs(LO, 10)}{rs(DG, 10)}{rs(LO + DG, 28)}")\n'),
    ("unknown prefix, two parts", "keys.yaml", f"keys:\n  - vx_{mixed(AN, 8)}_{mixed(AN, 32)}\n"),
    ("unknown prefix, capitals and digits", "app.py", f'client = acme.Client("QRT-{rs(UP, 10)}{rs(DG, 10)}{rs(UP + DG, 20)}")\n'),
    # contexts of 2024-2026 keys that were already read (kept so that they stay so)
    ("openai project key in a Markdown curl", "README.md", f"```sh\ncurl https://api.openai.com/v1/responses -H \"Authorization: Bearer sk-proj-{mixed(URL, 156)}T3BlbkFJ{mixed(URL, 20)}\"\n```\n"),
    ("anthropic key in a curl header", "scripts/c.sh", f"curl https://api.anthropic.com/v1/messages -H 'x-api-key: sk-ant-api03-{mixed(URL, 93)}AA'\n"),
    ("gemini key in a URL query", "docs/g.md", f"curl 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key=AIza{mixed(URL, 35)}'\n"),
    ("groq key in a notebook", "nb/g.ipynb", nb([f'client = Groq(api_key="gsk_{mixed(AN, 52)}")\n'])),
    ("mongodb atlas URI", "app/db.py", f'client = MongoClient("mongodb+srv://app:{mixed(AN, 16)}@cluster0.{rs(LO + DG, 5)}.mongodb.net/")\n'),
    ("docker hub token piped to login", ".bash_history", f"echo dckr_pat_{mixed(URL, 27)} | docker login -u acme --password-stdin\n"),
    ("stripe webhook secret in JS", "src/webhook.ts", f"const event = stripe.webhooks.constructEvent(body, sig, 'whsec_{mixed(AN, 32)}');\n"),
]

NEGATIVES = [
    ("placeholders", ".env.example", "OPENAI_API_KEY=your-key-here\nANTHROPIC_API_KEY=your-anthropic-key-here\nGROQ_API_KEY=<your-groq-key>\n"),
    ("x placeholders", "config/app.yaml", "api_key: sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\ntoken: xxxx-xxxx-xxxx\n"),
    ("angle-bracket token", "docs/api.md", "curl -H 'Authorization: Bearer <token>' https://api.acme.io\nexport HF_TOKEN=<your-hf-token>\n"),
    ("shell variables", "scripts/run.sh", 'export OPENAI_API_KEY=${OPENAI_API_KEY}\ncurl -H "Authorization: Bearer ${GROQ_API_KEY}" https://api.groq.com\n'),
    ("actions secrets", ".github/workflows/ci.yml", "env:\n  OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n  BWS_ACCESS_TOKEN: ${{ secrets.BWS_ACCESS_TOKEN }}\n"),
    ("jinja secrets", "templates/app.env.j2", "API_KEY={{ secrets.api_key }}\nDB_PASSWORD={{ vault_db_password }}\n"),
    ("one repeated letter", "tests/test_keys.py", "FAKE = 'sk-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\nTOKEN = 'zq_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\n"),
    ("EXAMPLE keys", "docs/keys.md", "export OPENAI_API_KEY=sk-EXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLE\nAKIAIOSFODNN7EXAMPLE\n"),
    ("okta placeholder", ".env.sample", "OKTA_API_TOKEN=00xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"),
    ("sha256 sums", "SHA256SUMS", "".join(f"{rs(HEX, 64)}  pkg-{i}.whl\n" for i in range(4))),
    ("an md5 file", "dist/app.tar.gz.md5", rs(HEX, 32) + "  app.tar.gz\n"),
    ("hex alone, not a .key file", "data/checksum.txt", rs(HEX, 32) + "\n"),
    ("git SHAs", "docs/changes.md", "".join(f"- {rs(HEX, 40)} fix\n" for _ in range(3))),
    ("UUIDs", "data/ids.json", json.dumps({"ids": [uid() for _ in range(3)]})),
    ("a UUID and a UUID", "ids.txt", f"{uid()}:{uid()}\n"),
    ("UUID in a path", "docs/api.md", f"GET https://api.acme.io/v1/orders/{uid()}/items\n"),
    ("npm integrity", "package-lock.json", json.dumps({"packages": {"node_modules/x": {"integrity": "sha512-" + base64.b64encode(R.randbytes(64)).decode()}}}, indent=2)),
    ("cargo checksum", "Cargo.lock", f'[[package]]\nname = "serde"\nchecksum = "{rs(HEX, 64)}"\n'),
    ("docs prose", "docs/auth.md", "Your API key is shown once. Keys start with sk-proj- and are 164 characters long; tokens expire after 90 days.\n"),
    ("docs formats", "docs/tokens.md", "Bitwarden access tokens look like `0.<client-id>.<secret>:<key>`; Asana's like `2/<user>/<id>:<hash>`.\n"),
    ("kubeadm docs example", "docs/k.md", "kubeadm token create abcdef.0123456789abcdef\n"),
    ("a dotted name with a number", "mod.py", "x = abcdef.ghijklmnop123456\n"),
    ("stripe object ids in a path", "docs/stripe.md", f"GET https://api.stripe.com/v1/customers/cus_{mixed(AN, 14)}/payment_methods/pm_{mixed(AN, 24)}\n"),
    ("env lookups", "app/config.py", "client = OpenAI(api_key=os.environ['OPENAI_API_KEY'])\nos.environ['GOOGLE_APPLICATION_CREDENTIALS'] = '/etc/gcp/sa.json'\n"),
    ("an SPDX id", "licenses.py", "'bsd-3-clause-no-nuclear-license-2014': {'id': 'BSD-3-Clause-No-Nuclear-License-2014'},\n"),
    ("an identifier", "x.py", "def test_handles_unexpected_response_when_cache_is_empty_v2(self): pass\n"),
    ("a notebook's ids", "nb/x.ipynb", nb([f"run_id = '{uid()}'\n", f"sha = '{rs(HEX, 40)}'\n"])),
]


@pytest.mark.parametrize("name,path,text", POSITIVES, ids=[p[0] for p in POSITIVES])
def test_a_credential_of_the_ninth_sweep_is_refused(name, path, text):
    assert credential_in_text(text, path) is not None, name


@pytest.mark.parametrize("name,path,text", NEGATIVES, ids=[n[0] for n in NEGATIVES])
def test_a_look_alike_of_the_ninth_sweep_is_not(name, path, text):
    assert credential_in_text(text, path) is None, (name, credential_in_text(text, path))


def test_the_rules_name_what_they_found():
    assert [f.rule for f in find_secrets(f'join("{KUBEADM}")\n', "main.go")] == ["token-shape-alone"]
    assert [f.rule for f in find_secrets(f"items: [{ASANA}]\n", "a.md")] == ["token-shape-alone"]
    assert [f.rule for f in find_secrets(f"x {BITWARDEN} y\n", "a.md")] == ["bitwarden-access-token"]
    assert [f.rule for f in find_secrets(rs(HEX, 32) + "\n", "config/master.key")] == ["rails-master-key"]
    assert find_secrets(rs(HEX, 32) + "\n", "config/master.txt") == []  # a *.key file's only


def test_run_spans_are_the_maximal_runs_of_the_least_length():
    marked = regexscan.run_marks("ab cdef-gh.ij  k", "abcdefghijk-.")
    assert regexscan.run_spans(marked, 3) == [(3, 13)]
    assert regexscan.run_spans(marked, 2) == [(0, 2), (3, 13)]
    assert regexscan.run_spans(marked, 11) == []


def test_runs_of_given_lengths_are_tried_once_at_their_start():
    import re

    pattern = re.compile(r"(?<![\w.-])[a-z]{3}\d{2}(?![\w-])")
    text = "abc12 xabc12 abcd123 abc12x zz abc99"
    # runs of 5 only: "abc12" twice; the run "xabc12" (6) and "abcd123" (7) are not tried
    found = [m.group() for m in regexscan.run_finditer(pattern, text, string.ascii_lowercase + string.digits, 5, 1,
                                                       lengths=frozenset({5}))]
    assert found == [m.group() for m in pattern.finditer(text)] == ["abc12", "abc99"]
