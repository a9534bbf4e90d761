"""Tenth sweep (session 43): the ninth's leftovers, read in general and not by vendor, and what must stay unflagged.

Every value is a random fake of the right length and alphabet, drawn from a seeded generator (the held-out probe drew
its own with another seed and other vendors): none is a real secret. The positives are an unknown vendor's prefixed
token as a segment of a URL's path; an unknown prefix with a hex body after a mark of a key's kind (``_v1_``, ``_live_``,
``_sk_``, ``-key-``), a JWT-like body or a dotted body of random parts; a random base64url body that ``-``/``_`` split
into short parts; an Asana token whose ids are shorter than 10 or longer than 19 digits. The negatives are what lives
in the same places: object ids, UUIDs, digests and slugs in a path, digests and widget ids with a prefix, a Mapbox
public token, dotted names in code, hosts and hashed assets.
"""
from __future__ import annotations

import base64
import json
import random

import pytest

from ctxlib.credentials import find_secrets
from ctxlib.repo import credential_in_text
from fakes import AN, DG, HEX, LO, UP, URL, sweep_fakers

R = random.Random(4848)
rs, mixed, uid = sweep_fakers(R)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def split_body(n: int) -> str:
    """``n`` of base64url, a "-" or "_" every 3 to 8 characters: no part of 10 or more."""
    parts = []
    while sum(map(len, parts)) + len(parts) < n:
        parts.append(mixed(AN, R.randint(3, 8)))
    return R.choice("-_").join(parts)


def jwt_like(parts: int) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = b64u(json.dumps({"sub": rs(DG, 10), "exp": 1790000000}).encode())
    return ".".join(([head] if parts == 3 else []) + [claims, mixed(URL, 43)])


def asana(user: int, token: int) -> str:
    return f"2/{R.choice(DG[1:])}{rs(DG, user - 1)}/{R.choice(DG[1:])}{rs(DG, token - 1)}:{rs(HEX, 32)}"


POSITIVES = [
    # an unknown vendor's token as a URL's path segment: with a "/" after, at the URL's end, before "?" and "#"
    ("path, slash after", "docs/hooks.md", f"POST https://in.ferrow.dev/hook/frw_live_{mixed(AN, 40)}/batch\n"),
    ("path, URL's end", "README.md", f"curl -d @e.json https://api.glimt.io/v1/collect/glm-{mixed(URL, 44)}\n"),
    ("path, before a query", "app.js", f"fetch('https://push.orvel.net/p/ORV_{rs(UP + DG, 40)}?region=eu')\n"),
    ("path, before a fragment", "notes.txt", f"https://relay.yonder.sh/r/ynd_{rs(LO + DG, 44)}#top\n"),
    ("path, in a log's request", "logs/access.log", f'"POST /ingest/frw_prod_{mixed(AN, 36)} HTTP/1.1" 200 2\n'),
    # an unknown prefix with a hex, a JWT-like or a dotted body
    ("hex after a version mark", "a.py", f'client = Ferrow("frw_v1_{rs(HEX, 64)}")\n'),
    ("hex after live", "k.yaml", f"keys:\n  - glm_live_{rs(HEX, 40)}\n"),
    ("hex after sk", "k.csv", f"env,key\nprod,orv_sk_{rs(HEX, 48)}\n"),
    ("capital hex after SECRET", "k.json", json.dumps([f"YND_SECRET_{rs(HEX.upper(), 48)}"])),
    ("hex after a version, two-part prefix", "a.env.example.md", f"`sk-zq-v1-{rs(HEX, 64)}`\n"),
    ("hex after key, dashes", "setup.md", f"run `ferrow login frw-key-{rs(HEX, 32)}`\n"),
    ("hex in a path", "docs/x.md", f"https://api.ferrow.dev/t/frw_v2_{rs(HEX, 64)}/events\n"),
    ("a JWT after a prefix", "a.py", f'Client("glm_{jwt_like(3)}")\n'),
    ("two JWT parts after a prefix", "a.sh", f"ferrow auth frw-{jwt_like(2)}\n"),
    ("a JWT after a dotted prefix", "keys.js", f"export default ['yd.{jwt_like(3)}'];\n"),
    ("two dotted parts", "a.py", f'connect("lk.{mixed(AN, 24)}.{mixed(AN, 40)}")\n'),
    ("three dotted parts", "k.yaml", f"- fw2.{mixed(AN, 12)}.{mixed(AN, 20)}.{mixed(AN, 32)}\n"),
    ("a part then a dotted one", "k.md", f"`orv_{mixed(AN, 20)}.{mixed(AN, 36)}`\n"),
    # random base64url split by "-" or "_" into parts shorter than 10
    *[(f"split body {n}", "a.py", f'connect("{pre}{split_body(n)}")\n')
      for pre, n in (("frw_", 40), ("glm-", 48), ("orv_live_", 56), ("YND-", 64), ("zq_", 36))],
    # Asana tokens with ids outside 10-19 digits, both formats
    ("asana short ids", "a.py", f'asana.Client.access_token("{asana(7, 6)}")\n'),
    ("asana long ids", "a.yaml", f"- {asana(22, 21)}\n"),
    ("asana one-digit ids", "a.md", f"token `{asana(1, 1)}`\n"),
    ("asana old format, 5 digits", "a.py", f'Asana("1/{rs(DG[1:], 5)}:{rs(HEX, 32)}")\n'),
    ("asana old format, 24 digits", "a.py", f'Asana("1/{rs(DG[1:], 24)}:{rs(HEX, 32)}")\n'),
]

NEGATIVES = [
    ("stripe ids in a path", "api.md", f"GET /v1/payment_intents/pi_{mixed(AN, 24)}/confirm\nGET /v1/customers/cus_{mixed(AN, 14)}\n"),
    ("stripe checkout session", "pay.md", f"https://checkout.stripe.com/c/pay/cs_live_{mixed(AN, 58)}\nhttps://checkout.stripe.com/c/pay/cs_test_{mixed(AN, 58)}#x\n"),
    ("ksuid and clerk ids", "api.md", f"GET /v1/users/user_{mixed(AN, 27)}\nGET /msg/msg_{mixed(AN, 27)}/attempts\n"),
    ("uuid and ulid in a path", "api.md", f"/orders/01{rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)}/items/{uid()}/\n"),
    ("digests in a path", "log.md", f"https://github.com/a/b/commit/{rs(HEX, 40)}\nhttps://cdn.x.io/b/sha256-{rs(HEX, 64)}/a.js\n"),
    ("google docs ids", "links.md", f"https://docs.google.com/document/d/1{mixed(URL, 43)}/edit\nhttps://docs.google.com/document/d/e/2PACX-1v{mixed(URL, 78)}/pub\n"),
    ("slugs", "blog.md", "https://blog.x.dev/posts/how-to-Use-OAuth2-with-NextJS-14-and-Prisma-5-in-2024/\n"
     "https://x.dev/docs/Getting_Started_With_Python3_And_Django42_On_Ubuntu2204/\n"),
    ("a nix store path", "build.log", f"/nix/store/{rs('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.11.7/lib/\n"),
    ("a placeholder in a path", "x.md", "https://in.ferrow.dev/hook/frw_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/batch\n"),
    ("digests with a prefix", "cache.py", f"KEY = 'sha256_{rs(HEX, 64)}'\nB = 'build-{rs(HEX, 40)}'\nC = 'cache_v1_{rs(HEX, 64)}'\nE = 'etag_live_{rs(HEX, 32)}'\n"),
    ("hex without a mark", "ids.txt", f"frw_{rs(HEX, 64)}\nglm-{rs(HEX, 40)}\n"),
    ("artifacts' versioned digests", "cache.py", f"M = 'model_v2_{rs(HEX, 64)}'\nD = 'data_v1_{rs(HEX, 40)}'\n"),
    ("deploy tags", "deploy.yaml", f"image: registry.x.io/shop:web-prod-{rs(HEX, 40)}\ntag: api-test-{rs(HEX, 40)}\n"),
    ("widget ids", "nb.json", json.dumps({"a": f"IPY_MODEL_{rs(HEX, 32)}", "b": f"NODE_SEA_FUSE_{rs(HEX, 32)}"})),
    ("a mapbox public token", "map.js", f"const PUBLIC = ['pk.{b64u(json.dumps({'u': 'x', 'a': rs(LO + DG, 12)}).encode())}.{mixed(URL, 22)}'];\n"),
    ("a source map", "app.js", "//# sourceMappingURL=data:application/json;charset=utf-8;base64,"
     + base64.b64encode(json.dumps({"version": 3, "sources": ["a.ts"], "mappings": "AAAA;AACA"}).encode()).decode() + "\n"),
    ("dotted names in code", "x.ts", "this.someLongCamelCase2Name.anotherCamelCaseName3x = 1;\n"
     "String s = com.example.MyApplication2Activity.someField2Value;\n"),
    ("hosts", "hosts.txt", f"{rs(LO + DG, 10)}.execute-api.us-east-1.amazonaws.com\nd{rs(LO + DG, 13)}.cloudfront.net\n"),
    ("hashed assets", "index.html", f'<script src="/assets/index.{mixed(URL, 8)}.js"></script>\n'),
    ("asana-like numbers", "notes.md", "see 2/3:4 and 1/2: a\nhttps://app.asana.com/0/1200000000000000/1200000000000001\n"),
    ("an identifier of words", "x.py", "def test_Handles_Unexpected_Response_When_Cache_Is_Empty_v2_and_Retry_3_times(): pass\n"),
    ("capital words and numbers", "x.py", "X = 'ZQ_HTTP2_PROXY_CONFIG_FOR_REGION_EU_WEST_1_AND_US_EAST_2'\n"),
]


@pytest.mark.parametrize("name,path,text", POSITIVES, ids=[p[0] for p in POSITIVES])
def test_a_credential_of_the_tenth_sweep_is_refused(name, path, text):
    assert credential_in_text(text, path) is not None, name


@pytest.mark.parametrize("name,path,text", NEGATIVES, ids=[n[0] for n in NEGATIVES])
def test_a_look_alike_of_the_tenth_sweep_is_not(name, path, text):
    assert credential_in_text(text, path) is None, (name, credential_in_text(text, path))


def test_the_rules_name_what_they_found():
    assert [f.rule for f in find_secrets(f'x("frw_v1_{rs(HEX, 64)}")\n', "a.py")] == ["prefixed-token-body"]
    assert [f.rule for f in find_secrets(f"GET /t/frw_live_{mixed(AN, 40)}/x\n", "a.md")] == ["prefixed-token-wide"]
    assert [f.rule for f in find_secrets(f"- {asana(4, 21)}\n", "a.yaml")] == ["token-shape-alone"]


def test_a_random_split_body_is_read_at_its_usual_lengths():
    """Of 300 random bodies of 48 base64url characters split by "-"/"_" into parts shorter than 10, none is missed
    (the ninth sweep's prefixed-token-wide missed such bodies: its allowlist wanted a mixed part of 10)."""
    missed = [b for b in (split_body(48) for _ in range(300)) if credential_in_text(f'f("acme_{b}")\n', "a.py") is None]
    assert missed == []
