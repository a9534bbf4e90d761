"""Tokens known by their shape alone, with no name near: rules ctxlib adds after ``secretplaces.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". A ninth sweep put vendors' tokens of 2024-2026 where nothing names them: a
bare argument (``Client("...")``), an item of a JSON or YAML list, a Markdown line, a segment of a URL's path. The
earlier rules read most vendors by a prefix; these read the shapes that have no such prefix, or whose prefix no rule
knew: an Asana token (``2/<user>/<id>:<32 hex>``), a kubeadm bootstrap token (``[a-z0-9]{6}.[a-z0-9]{16}``), an Okta
API token (``00`` and 40), a Mailchimp key (``<32 hex>-us21``), a Bitwarden Secrets Manager access token
(``0.<uuid>.<secret>:<key>``), a Convex deploy key, a fal key (``<uuid>:<32 hex>``), a crates.io token, and prefixes of
Intercom, Paddle, Flutterwave, Adyen, Honeycomb, Axiom, Neon and Anthropic's OAuth tokens; a vendor's prefixed token
whose body is base64url or of one case, alone or as a URL's path segment; and a Rails master key, 32 hex digits alone in a
``*.key`` file. A tenth sweep read an unknown vendor's prefix before a hex body (after a mark of a key's kind, ``_live_``,
``_sk_``, or a version after a short prefix, ``orb_v1_``), a JWT-like body or a dotted one, and Asana ids of 1 to 25 digits.

Each is read by its vendor's documented shape; the shapes without a literal are tried only at the start of runs of
token characters of their own lengths (``regexscan.run_finditer``'s ``lengths``), the runs found once a text for all
of them. The allowlists drop a docs' example (``EXAMPLE``, eight x, one repeated letter), words joined by ``_``, ``-``
or ``.``, and ids a path holds (Stripe's ``cs_live_`` Checkout sessions, ``sha256_``/``build-`` digests, a widget's
``IPY_MODEL_<hex>``). Not read: a prefix with a hex body and no mark (``sha256_<hex>`` is a digest's shape), a Mapbox
``pk.`` token (public). ``credentials.py`` runs them after ``secretplaces.PLACE_RULES``.
"""
from __future__ import annotations

from .secretrules import _TOKEN_CHARS  # letters, digits, "_", "." and "-": the runs prefixed-token is tried in

_FIXTURE = [{"regexes": [r"(?-i:EXAMPLE|x{8}|X{8})", r"(\w)\1{11}"]}]  # a docs' example: EXAMPLE, xxxxxxxx, aaaaaaaaaaaa
# A part of a token, between "-" or "_", that holds both cases not in a word's order (capitals, small letters, digits):
# aB3x, x9Kq, not Model, HTTPServer2 or MODEL
_RANDOM_PART = r"(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])(?![A-Z]*+[a-z]*+[0-9]*+(?![A-Za-z0-9]))[A-Za-z0-9]++"
# Fewer than three runs of small letters with no vowel in them (a word's have one but in abbreviations: cfg, msg; of a
# random token's runs of two or more small letters, more than half have none)
_FEW_BARE = r"^(?!(?:.*?(?<![a-z])[bcdfghj-np-tv-xz]{2,}+(?![a-z])){3})"
_MIXED = r"(?=[A-Za-z0-9]{0,127}[0-9])(?=[A-Za-z0-9]{0,127}[a-z])(?=[A-Za-z0-9]{0,127}[A-Z])[A-Za-z0-9]"  # then a count
_UUID = r"""[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"""
# What comes before an Asana personal access token's secret (Asana's 2022 format "2/<user id>/<token id>:<32 hex>", the
# older "1/<user id>:<32 hex>"; ids of 1 to 25 digits): one lookbehind a width of what lies between "2/" or "1/" and the
# ":", each of a fixed width, its digits and "/" checked by a lookahead inside it (which has no width)
_ASANA_BEFORE = "(?<=[0-9]:)(?:" + "|".join(
    rf"(?<=(?<![\w.-])(?:1/(?=[0-9]{{1,25}}:)|2/(?=[0-9]{{1,25}}/[0-9]{{1,25}}:))[0-9/]{{{n}}}:)" for n in range(1, 52)) + ")"

SHAPE_RULES = [
    {"id": "token-shape-alone",  # tokens of a fixed length and alphabet, alone: an Okta API token ("00" and 40 of
     # base64url, Okta's "Create an API token"; letters of both cases and a digit), a kubeadm bootstrap token (6, ".", 16
     # of small letters and digits, Kubernetes' "Authenticating with Bootstrap Tokens"; the secret part holds a digit and
     # two letters, not the docs' abcdef.0123456789abcdef or a dotted name), a Mailchimp API key (32 hex digits, "-us"
     # and its data center, Mailchimp's Marketing API docs), a fal.ai key's secret (32 hex digits after its id, a UUID, and
     # ":": fal's FAL_KEY is "key_id:key_secret") or an Asana token's secret (its 32 hex digits after "2/<user id>/<token
     # id>:", the ids' digits, slashes and colon no word, date or path has in that order), a crates.io API token ("cio" and 32 letters and digits, crates.io's
     # token format since 2020; mixed). Each is a run of token characters of its own length (a "." after it at
     # most), so only runs of those lengths are searched (regexscan.run_finditer's lengths)
     "regex": r"""(?<![\w.-])(00(?=[A-Za-z0-9_-]{0,39}[0-9])(?=[A-Za-z0-9_-]{0,39}[a-z])(?=[A-Za-z0-9_-]{0,39}[A-Z])[A-Za-z0-9_-]{40}"""
              r"""|[a-z0-9]{6}\.(?=[a-z]{0,15}[0-9])(?=(?:[0-9]{0,15}[a-z]){2})[a-z0-9]{16}|[0-9a-f]{32}-us[0-9]{1,2}"""
              r"""|(?:(?<=(?<![\w.-])""" + _UUID + r""":)|""" + _ASANA_BEFORE + r""")[0-9a-f]{32}"""
              r"""|cio(?=[A-Za-z0-9]{0,31}[0-9])(?=[A-Za-z0-9]{0,31}[a-z])(?=[A-Za-z0-9]{0,31}[A-Z])[A-Za-z0-9]{32})(?![\w-]|\.[\w.-])""",
     "keywords": [], "entropy": 3.0, "runs": [_TOKEN_CHARS, 23, 2, frozenset({23, 24, 32, 33, 35, 36, 37, 38, 42, 43})],
     "allowlists": _FIXTURE + [{"regexes": [r"^abcdef\.0123456789abcdef$", r"^[a-z]{6}\.[a-z]{2,15}[0-9]{1,8}$"]}]},  # a name and a number
    {"id": "bitwarden-access-token",  # a Bitwarden Secrets Manager access token: "0.<client id, a UUID>.<client secret>:
     # <encryption key in base64>" (Bitwarden's SDK and bws CLI, BWS_ACCESS_TOKEN); "0." and a UUID start no number. Its
     # "0.<uuid>.<secret>" is a run of 59 or more token characters, the key read past it
     "regex": r"""(?<![\w.-])(0\.""" + _UUID + r"""\.[A-Za-z0-9]{20,40}:[A-Za-z0-9+/]{20,64}(?:={1,2}(?![\w+=-])|(?![\w+/=-])))""",  # padded: a "/" may follow
     "keywords": [], "entropy": 3.0, "runs": [_TOKEN_CHARS, 59, 68, frozenset(range(59, 80))]},
    {"id": "prefixed-token-2026",  # vendors' tokens by a prefix no other rule reads alone: Convex deploy keys
     # ("prod:<deployment>|<key>", preview:<team>:<project>|...), Intercom's access tokens (base64 of "tok:<uuid>..."),
     # Paddle Billing's API keys (pdl_live_apikey_ / pdl_sdbx_apikey_), Flutterwave's secret keys (FLWSECK-<32 hex>-X,
     # FLWSECK_TEST-), Adyen's API keys (AQE..., three base64 parts joined by "-"),
     # Honeycomb's keys (hcaik_, hcxik_, hcxlk_ and 58 or more), Axiom's tokens (xaat-/xapt- and a UUID), Neon's API keys
     # (napi_ and 64), Anthropic's OAuth access and refresh tokens (sk-ant-oat01-, sk-ant-ort01-)
     "regex": r"""(?<![\w.-])((?:prod:|dev:|preview:)[a-z0-9-]{1,64}(?::[a-z0-9-]{1,64})?\|[A-Za-z0-9+/=_-]{40,400}+"""
              r"""|dG9rOj[A-Za-z0-9+/]{40,200}+={0,2}|pdl_(?:live|sdbx)_apikey_[a-z0-9]{20,30}_[A-Za-z0-9]{16,30}_[A-Za-z0-9]{2,4}"""
              r"""|FLWSECK(?:_TEST)?-[0-9a-f]{32}-X|AQE[A-Za-z0-9+/]{40,300}+={0,2}-[A-Za-z0-9+/]{20,100}+={0,2}-[\w+/=-]{4,100}+"""
              r"""|(?:hcaik|hcxik|hcxlk|hcamk|hcxmk)_(?=[a-z0-9]{0,69}[0-9])[a-z0-9]{50,70}|(?:xaat-|xapt-)""" + _UUID + r"""|napi_[a-z0-9]{64}"""
              r"""|sk-ant-o[ar]t\d\d-[\w-]{80,120}+)(?![\w-])""",
     "keywords": ["prod:", "dev:", "preview:", "dg9roj", "pdl_", "flwseck", "aqe", "hcaik_", "hcxik_", "hcxlk_", "hcamk_", "hcxmk_", "xaat-", "xapt-", "napi_",
                  "sk-ant-o"],
     "entropy": 3.0, "allowlists": _FIXTURE},
    {"id": "prefixed-token-wide",  # a token in vendors' prefixed shape whose body prefixed-token does not take: base64url
     # with "-" or "_" inside (letters of both cases and a digit), small letters and digits (8 of each at least, 40 or
     # more, not hex), or capitals and digits (8 of each, 32 or more, not hex); for a vendor no rule knows yet; alone or
     # as a URL's path segment (a "/" on either side: "-" and "_" are in no standard base64, "/" in no base64url). A
     # name's words joined by "_" or "-" (test_Handles_Response_v2) are none, nor are parts none of which is mixed
     "regex": r"""(?<![\w+=.-])(?:[a-z][a-z0-9]{1,9}|[A-Z][A-Z0-9]{1,9})(?:[_-](?:[a-z]{1,8}|[A-Z]{1,8}|v[0-9]{1,2}|[0-9]{1,2}))?[_-]"""
              r"""((?=[A-Za-z0-9_-]{0,199}[0-9])(?=[A-Za-z0-9_-]{0,199}[a-z])(?=[A-Za-z0-9_-]{0,199}[A-Z])[A-Za-z0-9_-]{32,200}+"""
              r"""|(?=(?:[a-z]{0,40}[0-9]){8})(?=(?:[0-9]{0,40}[a-z]){8})(?=[a-z0-9]{0,199}[g-z])[a-z0-9]{40,200}+"""
              r"""|(?=(?:[A-Z]{0,40}[0-9]){8})(?=(?:[0-9]{0,40}[A-Z]){8})(?=[A-Z0-9]{0,199}[G-Z])[A-Z0-9]{32,200}+)(?![\w+=-]|\.[\w.-])""",
     "keywords": [], "entropy": 4.0, "runs": [_TOKEN_CHARS, 35, 2, frozenset(range(35, 233))],  # a "." after it at most
     "allowlists": _FIXTURE + [{"regexes": [_FEW_BARE + r"(?=[^a-z]*[a-z])(?:[A-Z]*+[a-z]{2,}+|[A-Z]++|\d++|[_-]++)++$",  # words
                                            r"^(?:(?:[A-Z]?[a-z]++|[A-Z]++|\d++)(?:[_-]|$))++$",  # one word a part: No-Nuclear-License-2014
                                            # parts, none of 10 or more mixed as a random one is nor two of both cases out of
                                            # a word's order: a widget's IPY_MODEL_<hex>, NODE_SEA_FUSE_<hex>; texinfo's
                                            # ids, "_" written _005f (NETTLE_005fCURVE25519)
                                            r"^(?=[^_-]*[_-])(?!(?:[A-Za-z0-9]*+[_-])*?(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{10})"
                                            r"(?!(?:[A-Za-z0-9]*+[_-])*?" + _RANDOM_PART + r"(?:[_-][A-Za-z0-9]*+)*?[_-]" + _RANDOM_PART + ")",
                                            r"_00[2-7][0-9a-f]",
                                            r"(?-i:EXAMPLE)"]},
                               # cs_live_, cs_test_: a Stripe Checkout session's id, in its URL's path
                               {"regexTarget": "match", "regexes": [r"(?i)^(?:sha\d*|md5|pk|integrity|data|cs_live|cs_test)[_.-]"]}]},
    {"id": "prefixed-token-body",  # an unknown vendor's prefixed token whose body prefixed-token-wide does not take: hex
     # after a mark of a key's kind (acme_live_, _sk_, -key-, _auth_) or a version after a vendor's short prefix (orb_v1_,
     # sk-or-v1-): a digest's sha256_<hex>, an artifact's model_v2_<hex> or a deploy tag's web-prod-<sha> has none; a
     # JWT or its last two parts (tok_eyJ...: "eyJ" is base64 of '{"', a signature of 20 or more after), or two or three
     # dotted parts of letters of both cases and digits (lk.<24>.<40>). Alone or as a URL's path segment
     "regex": r"""(?<![\w+=.-])((?:[a-z][a-z0-9]{1,2}|[A-Z][A-Z0-9]{1,3})(?:[_-][a-z]{1,8})?[_-][vV][0-9]{1,2}[_-](?:[0-9a-f]{32,128}+|[0-9A-F]{32,128}+)"""
              r"""|(?:[a-z][a-z0-9]{1,9}|[A-Z][A-Z0-9]{1,9})(?:[_-](?:[a-z]{1,8}|[A-Z]{1,8}))?"""
              r"""(?:[_-](?i:live|sk|key|secret|token|api|pat|auth|access|priv)[_-](?:[0-9a-f]{32,128}+|[0-9A-F]{32,128}+)"""
              r"""|[_.-]eyJ[A-Za-z0-9_-]{10,600}+(?:\.[A-Za-z0-9_-]{10,600}+)?\.(?=[A-Za-z0-9_-]{0,99}[0-9])(?=[A-Za-z0-9_-]{0,99}[A-Za-z])[A-Za-z0-9_-]{20,100}+"""
              r"""|[._-]""" + _MIXED + r"""{12,64}+(?:\.""" + _MIXED + r"""{12,64}+)?\.""" + _MIXED + r"""{20,128}+))(?![\w+=-]|\.[\w.-])""",
     "keywords": [], "entropy": 3.0, "runs": [_TOKEN_CHARS, 36, 2, frozenset(range(36, 1330))],  # a "." after it at most
     # dotted words: fewer than three small letters alone (anotherCamelCaseName3x) and three runs with no vowel
     "allowlists": _FIXTURE + [{"regexes": [_FEW_BARE + r"(?=[^.]*\.)(?![^.]*[_.-]eyJ)(?!(?:.*?(?<![a-z])[a-z](?![a-z])){3})",
                                            r"(?i)^(?:pk|cache|build|hash|digest|sha\d*|md5|etag|rev|commit|blob|obj|file|chunk|asset|sum|checksum)[_.-]"]}]},
    {"id": "rails-master-key",  # Rails' master key (config/master.key) or an environment's (config/credentials/production.key):
     # 32 hex digits alone in the file, which decrypts credentials.yml.enc; by its name the file is refused already, this
     # reads the same key under any *.key name
     "regex": r"""\A[ \t\r\n]{0,8}([0-9a-f]{32})[ \t\r\n]{0,8}\Z""", "keywords": [], "entropy": 2.5,
     "path": r"""(?i)\.key$"""},
]
