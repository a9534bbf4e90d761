"""Secrets in contexts the other rules do not read: rules ctxlib adds after ``secretvalues.py``'s, in gitleaks' format.

Lesson 3, "Reading a real repository". A seventh sweep put credentials into places the earlier sweeps had not tried:
a CloudFormation template's parameter default, a URL's query under a secret's name (an f-string's URL too), an
Authorization value written as a literal ("Bearer ..." handed to Swift's ``setValue``, Kotlin's ``to``), .NET's
``AuthenticationHeaderValue``, Rust's keys for JWTs and HMACs, and Windows' ``net use`` with a password. Each is read
by its documented shape; ``credentials.py`` runs them after ``secretvalues.VALUE_RULES``.

The allowlists are ``secretrules``' (a placeholder, a template, a value not mixed enough to be chosen, a path). Every
expression is linear in the text: bounded or possessive repeats, a literal to start from
(``tests/test_hostile_linear.py``).
"""
from __future__ import annotations

from .secretrules import _ALLOW_HEX, _NOT_SECRET_NAMES, _PLACEHOLDER, _SECRET_NAME, _TEMPLATE, _VALUE_ALLOWLISTS

_ALLOW = _ALLOW_HEX  # mixed as the assignment rules want, or a hex key or UUID (a signing key in hex is as secret)

CONTEXT_RULES = [
    {"id": "cloudformation-parameter-default",  # a CloudFormation (or SAM) template's parameter named as a secret, with
     # a Default: "DbPassword:" then its properties (Type, NoEcho, Description...) on the next lines, then "Default: ...";
     # in JSON, "DbPassword": {"Type": "String", "NoEcho": "true", "Default": "..."}. AWS's docs: NoEcho hides a value
     # from the console, a Default is still in the template.
     "regex": r"""(?im)^[ \t]++\w{0,60}?""" + _SECRET_NAME + r""":[ \t]*+\r?\n(?:[ \t]++(?!default\b)\w{1,40}[ \t]*+:[^\n]{0,300}+\n){0,10}?"""
              r"""[ \t]++Default[ \t]*+:[ \t]*+["']?([^\s"'#]{8,200})["']?[ \t]*+$"""
              r"""|"\w{0,60}?""" + _SECRET_NAME + r""""[ \t]*+:[ \t]*+\{[^{}]{0,1000}?"Default"[ \t]*+:[ \t]*+"([^"\s]{8,200})\"""",
     "keywords": ["default"], "entropy": 2.5, "allowlists": _ALLOW,
     "path": r"""(?i)\.(?:ya?ml|json|template|cfn)$"""},
    {"id": "url-query-secret",  # a secret in a URL's query under a secret's name: ?api_secret=..., &client_secret=...,
     # ?password=..., &access_token=... (OAuth 2.0's RFC 6750 section 2.3 allows it); before "&", "#", a quote or the
     # line's end, so an f-string's URL with {placeholders} after it is read too. Letters and digits both, 12 characters or more.
     "regex": r"""[?&](?i:[\w.-]{0,40}?(?:secret|token|passw(?:or)?d|passwd|pwd|api_?key|apikey|(?:auth|access|private|signing)_?key))"""
              r"""=((?=[\w.~%+/-]{0,499}[0-9])(?=[\w.~%+/-]{0,499}[A-Za-z])[\w.~%+/-]{12,500}+)(?=[&#"'`\s]|$)""",
     "keywords": ["secret=", "token=", "password=", "passwd=", "pwd=", "key="], "entropy": 3.0,
     "allowlists": _ALLOW + [{"regexTarget": "match", "regexes": [_NOT_SECRET_NAMES]}]},
    {"id": "bearer-literal",  # an Authorization value written as one literal: "Bearer <token>" handed to Swift's
     # request.setValue(_, forHTTPHeaderField:), Kotlin's "Authorization" to "...", a header map; .NET's
     # new AuthenticationHeaderValue("Bearer", "<token>") (RFC 6750's scheme and its token, 20 characters or more)
     "regex": r"""["'`]Bearer[ \t]++([\w.~+/-]{20,500}+=*)["'`]"""
              r"""|\bAuthenticationHeaderValue[ \t]*+\([ \t]*+"(?:Bearer|Basic)"[ \t]*+,[ \t]*+"([\w.~+/-]{20,500}+=*)\"""",
     "keywords": ["bearer"], "entropy": 3.5,
     "allowlists": _ALLOW + [{"regexes": [r"(?i)your|here|x{6}|\.{3}"]}]},
    {"id": "rust-key-call",  # a key written into a Rust crypto call: jsonwebtoken's EncodingKey::from_secret(b"...") and
     # DecodingKey::from_secret / from_base64_secret, the hmac crate's Hmac::<Sha256>::new_from_slice(b"...")
     "regex": r"""\b(?:(?:Encoding|Decoding)Key::from_(?:base64_)?secret|new_from_slice)[ \t]*+\([ \t]*+&?b?"([^"\s\\]{8,200})\"""",
     "keywords": ["from_secret", "from_base64_secret", "new_from_slice"], "entropy": 2.5, "allowlists": _ALLOW},
    {"id": "net-use-password",  # Windows' net use with a password: net use Z: \\host\share <password> /user:DOMAIN\name,
     # or the password after /user:NAME (Microsoft's "net use" reference); "*" asks for it and is none
     "regex": r"""(?i)\bnet[ \t]++use\b(?:(?!net[ \t])[^\n/]){0,200}?(?:[ \t]([^\s/"\\*][^\s/"]{3,199})[ \t]++/user:|/user:[^\s]{1,100}[ \t]++([^\s/"*][^\s/"]{3,199})(?=[ \t]|$))""",
     "keywords": ["net use"], "entropy": 2.0, "allowlists": [{"regexes": [_PLACEHOLDER, _TEMPLATE, r"^[A-Za-z]:$"]}]},
    {"id": "typed-key-value",  # a mixed key under a name ending in KEY (MISTRAL_KEY, mapsKey) in the syntax gitleaks'
     # generic-api-key does not read: a declared type (Rust's const KEY: &str = "...", TypeScript's, Python's annotation),
     # a blank then a quoted literal (C's #define, Apache's SetEnv, setx), Objective-C's @"...", PHP's $_ENV['X'] =, a
     # property list's <key>X</key><string>; read from the name's end, 20 characters or more, entropy as generic's
     "regex": r"""(?-i:(?<![A-Za-z0-9])KEY|_KEY|(?<=[a-z0-9])Key)(?:["']?[ \t]*+:[ \t]*+&?(?:'static[ \t]++)?[\w.<>\[\]]{1,30}[ \t]*+=[ \t]*+"""
              r"""|["']?[ \t]++(?=@?["'])|'\][ \t]*+=[ \t]*+|</key>[ \t\r\n]{0,20}<string>|[ \t]*+=[ \t]*+(?=@"))"""
              r"""@?["']?([A-Za-z0-9+/_.~-]{20,200}+={0,2})(?=["'<;\s]|$)""",
     "keywords": ["key"], "entropy": 3.5, "allowlists": _VALUE_ALLOWLISTS + [{"regexTarget": "line", "regexes": [_NOT_SECRET_NAMES]}]},
]
