"""Secrets hidden in base64: what ``credentials.find_secrets`` decodes and scans again.

Lesson 3, "Reading a real repository". gitleaks 8 decodes each base64 run of a text once and
scans what it stands for (a kubeconfig's ``client-key-data`` is a PEM key in base64). Two kinds
of hiding a run-by-run decoding misses are read here too:

* a block wrapped over several lines, 64 or 76 characters each, as a key's body, ``base64 -w 76``
  or a YAML block scalar (``tls.key: |`` in a Kubernetes Secret) hold it: each line alone decodes
  to a piece of the whole, which no rule can read. Consecutive runs that fill their lines (only
  indentation before, only ``=`` and blanks after) are joined and decoded as one;
* a private key's own bytes: a key's base64 body with its ``-----BEGIN`` line lost (pasted into a
  YAML value, an environment variable, a JSON field) decodes to DER, not text. ``private_key_der``
  knows the few shapes a private key's DER takes (PKCS #1 RSA, SEC 1 EC, PKCS #8 plain and
  encrypted, PKCS #12), OpenSSH's own format and a Java keystore's; a public key, a certificate or a
  truststore of certificates is none of them.

Runs are found by the caller (``regexscan.run_finditer`` over ``BASE64_RUN``); this module only
groups and decodes them, in time linear in the text.
"""
from __future__ import annotations

import base64
import binascii
import re

BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}={0,2}")
# Every match lies in a run of 40 or more of these characters and ends at most two "=" after it.
BASE64_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
PRIVATE_KEY_DER = "private-key-der"  # the rule a private key's bytes are reported under

# From the end of one wrapped line's run to the start of the next one's: blanks, a newline, indentation.
_LINE_GAP = re.compile(r"[ \t]*\r?\n[ \t]*")
# A wrapped block's last line, shorter than a run: "...\n  AbC9==" then the line's end.
_LAST_LINE = re.compile(r"[ \t]*\r?\n[ \t]*([A-Za-z0-9+/]{1,39}={0,2})[ \t]*(?=\r?\n|\Z)")


def _raw(run: str) -> bytes | None:
    try:
        return (base64.urlsafe_b64decode if "-" in run or "_" in run else base64.b64decode)(run + "=" * (-len(run) % 4))
    except (binascii.Error, ValueError):
        return None


def decoded(run: str) -> str | None:
    """The text a base64 run stands for, or ``None`` if it is not base64 of mostly printable text."""
    return _text(_raw(run))


def _text(raw: bytes | None) -> str | None:
    try:
        text = raw.decode("utf-8") if raw is not None else ""
    except ValueError:
        return None
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if text and printable >= 0.95 * len(text) else None


# Object identifiers of password-based encryption, as their DER bytes: PBES2 (PKCS #5, RFC 8018) and
# PKCS #12's PBE schemes (RFC 7292); an EncryptedPrivateKeyInfo (RFC 5958) names one of them first.
_PBE_OIDS = (bytes.fromhex("06092a864886f70d01050d"), bytes.fromhex("060a2a864886f70d010c01"))


# A Java keystore's magic number (the JDK's sun.security.provider.JavaKeyStore and com.sun.crypto.provider.JceKeyStore)
_JAVA_KEYSTORES = (b"\xfe\xed\xfe\xed", b"\xce\xce\xce\xce")  # JKS, JCEKS


def _java_keystore_holds_a_key(raw: bytes) -> bool:
    """Whether a JKS or JCEKS keystore (version 1 or 2) holds a key: an entry tagged 1 (a private key) or 3 (JCEKS'
    secret key) among those read. A truststore holds trusted certificates only (tag 2: an alias, a date, in version 2
    the certificate's type, then its length and bytes), which are walked over; anything else ends the walk."""
    version = int.from_bytes(raw[4:8], "big")
    if version not in (1, 2):
        return False
    at = 12
    for _ in range(min(int.from_bytes(raw[8:12], "big"), 10_000)):
        tag = int.from_bytes(raw[at:at + 4], "big")
        if tag in (1, 3):
            return True
        if tag != 2 or at + 6 > len(raw):
            return False
        at += 6 + int.from_bytes(raw[at + 4:at + 6], "big") + 8  # the tag, the alias (UTF: length, bytes), the date
        if version == 2:
            at += 2 + int.from_bytes(raw[at:at + 2], "big")  # "X.509"
        at += 4 + int.from_bytes(raw[at:at + 4], "big")
        if at > len(raw):
            return False
    return False


def private_key_der(raw: bytes) -> bool:
    """Whether ``raw`` is a private key's bytes: DER of one whole ASN.1 SEQUENCE that opens as a
    private key does, OpenSSH's ``openssh-key-v1`` format (used only for private keys), or a Java
    keystore (JKS, JCEKS) that holds a key, not only certificates.

    The SEQUENCE's first element: ``INTEGER 0`` then an INTEGER (PKCS #1 RSA, RFC 8017; DSA) or a
    SEQUENCE (PKCS #8 PrivateKeyInfo, RFC 5208); ``INTEGER 1`` then an OCTET STRING (SEC 1 EC, RFC 5915)
    or a SEQUENCE (PKCS #8 v2, RFC 5958); ``INTEGER 3`` then a SEQUENCE (PKCS #12 PFX, RFC 7292); or a
    SEQUENCE naming password-based encryption (an encrypted PKCS #8 key). A public key opens with a
    SEQUENCE (its algorithm) and an RSA public key with a long INTEGER; a certificate with a SEQUENCE.
    """
    if raw.startswith(b"openssh-key-v1\0"):
        return True
    if raw[:4] in _JAVA_KEYSTORES:
        return _java_keystore_holds_a_key(raw)
    if len(raw) < 16 or raw[0] != 0x30:
        return False
    if raw[1] < 0x80:
        head, length = 2, raw[1]
    elif 0x81 <= raw[1] <= 0x83:
        head, length = 2 + (raw[1] & 0x7F), int.from_bytes(raw[2:2 + (raw[1] & 0x7F)], "big")
    else:
        return False
    if head + length != len(raw):
        return False
    body = raw[head:head + 4]
    if body[:3] == b"\x02\x01\x00":
        return body[3:4] in (b"\x02", b"\x30")
    if body[:3] == b"\x02\x01\x01":
        return body[3:4] in (b"\x04", b"\x30")
    if body[:3] == b"\x02\x01\x03":
        return body[3:4] == b"\x30"
    return body[:1] == b"\x30" and any(oid in raw[head:head + 24] for oid in _PBE_OIDS)


def _judged(text: str, start: int, end: int, joined: str):
    """``(start, end, decoded text or None, rule or None)`` for the base64 ``joined``, or ``None``: nothing to scan."""
    raw = _raw(joined)  # decoded once: as text, else as a key's bytes
    inner = _text(raw)
    if inner is not None:
        return start, end, inner, None
    return (start, end, None, PRIVATE_KEY_DER) if raw is not None and private_key_der(raw) else None


def hidden(text: str, runs):
    """What the base64 in ``text`` stands for, in order: for each run (``re.Match`` of ``BASE64_RUN``,
    in the order found), then for each block of runs wrapped over consecutive lines, joined, when the
    block ends. Yields ``(start, end, inner, rule)``: ``inner`` the decoded text to scan, or ``rule``
    (``PRIVATE_KEY_DER``) when the bytes are a private key's; runs that are neither are skipped."""
    block: list = []  # the runs of the wrapped block being read; the first may follow a key on its line
    for run in runs:
        if block and (block[-1].group().endswith("=") or not _LINE_GAP.fullmatch(text, block[-1].end(), run.start())):
            yield from _block(text, block)  # padding ends a block, and so does anything but a line break
            block = []
        block.append(run)
        found = _judged(text, run.start(), run.end(), run.group())
        if found:
            yield found
    yield from _block(text, block)


def _block(text: str, block: list):
    """The wrapped block ``block`` (runs on consecutive lines) decoded as one, with a short last line after it."""
    if not block:
        return
    end, parts = block[-1].end(), [run.group() for run in block]
    last = None if block[-1].group().endswith("=") else _LAST_LINE.match(text, end)
    if last:
        end, parts = last.end(1), parts + [last.group(1)]
    if len(parts) < 2:
        return
    found = _judged(text, block[0].start(), end, "".join(parts))
    if found:
        yield found
