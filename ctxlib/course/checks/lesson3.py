"""Lesson 3's checkers, "Choosing context in a real repository": the secret filter, the identifier
splitter, the line ranges, the knapsack prediction and the capstone.

Expected values come from ``ctxlib.repo.credential_in_text``, ``ctxlib.bm25.code_terms``,
``ctxlib.views.line_ranges``, ``ctxlib.strategies.knapsack`` and ``ctxlib.fit.pack_repository``.
"""
from __future__ import annotations

import os
import reprlib
import tempfile
from collections.abc import Collection
from pathlib import Path, PurePath

from ctxlib.bm25 import code_terms
from ctxlib.fit import pack_repository, rank
from ctxlib.i18n import LANGS, N_, error_name, in_lang, message
from ctxlib.repo import credential_in_text, read_repo
from ctxlib.strategies import Option, knapsack
from ctxlib.tokens import count_tokens
from ctxlib.views import line_ranges

from ..exercises import Case, Property, describe
from ..sample_project import QUERY, build_sample_project, sample_files


def _sample_repo():
    """Lesson 3's sample project, read with ``ctxlib.repo.read_repo``, from a fresh temporary copy."""
    with tempfile.TemporaryDirectory() as folder:
        return read_repo(build_sample_project(Path(folder) / "shop"))


def _is_sample_project(root) -> bool:
    """Whether the folder ``root`` holds exactly the sample project's files, byte for byte.

    It stops at the first file the sample project does not have: a learner's first capstone often keeps the lesson's
    task and names their own repository, and listing all of it first (untimed, uncapped) took 6.9 s for a folder of
    140,000 files. Folders are walked without following links; ``__pycache__`` and ``.pyc`` files (left by running
    the project's tests) are not the project's, as ``sample_files`` has it.
    """
    root = Path(root)
    if not root.is_dir():
        return False
    expected, found = sample_files(), {}
    for folder, folders, names in os.walk(root):
        folders[:] = [f for f in folders if f != "__pycache__"]
        for name in names:
            path = Path(folder, name)
            if name.endswith(".pyc"):
                continue
            rel = path.relative_to(root).as_posix()
            if rel not in expected:
                return False
            found[rel] = path
    return found.keys() == expected.keys() and all(found[k].read_bytes() == v for k, v in expected.items())


# Fake secrets, each caught by one of gitleaks' rules: random base64, an AWS-shaped key id, a Slack-shaped token.
_PRIVATE_KEY = ("-----BEGIN RSA PRIVATE KEY-----\n"
                "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n"
                "7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFc\n"
                "-----END RSA PRIVATE KEY-----\n")
_AWS = "\n# archive upload\naws_access_key_id = AKIAZ7QWERTYUIOP3XYZ\n"
_SLACK = "सूचना भेजने के लिए: xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx\n"


def candidates_cases() -> list[Case]:
    """Lesson 3, "own_candidates": ``my_candidates(files)``, the paths a packer may consider.

    ``files`` is ``{path: text}`` as the reader kept them; a path is a candidate unless
    ``ctxlib.repo.credential_in_text`` finds a secret in its text. Cases: the sample project, and no files;
    then a private key planted in a file with an ordinary name, a key at the end and one in the middle of a
    long file (a scan of the head or the tail alone misses one of them), files named like secrets that hold
    none, a file that only talks about passwords and empty files, the files in another order than by path,
    Hindi text with and without a token, only secrets, and files with the same text (each path stays).
    """
    files = {f.path: f.text for f in _sample_repo().files}
    planted = dict(files, **{"shop/shipping.py": "SHIPPING_RATES = {'DE': 4.9}\n" + _PRIVATE_KEY})
    at_end = dict(files, **{"shop/invoice.py": files["shop/invoice.py"] * 4 + _AWS})
    in_middle = dict(files, **{"shop/orders.py": files["shop/orders.py"] * 3 + _AWS + files["shop/orders.py"] * 3})
    named = dict(files, **{"notes/keys.txt": "Keys to the office: ask Asha.\n", "config/secrets.md":
                           "Secrets live in the vault, never in the repository.\n",
                           "certs/README.pem.txt": "Put certificates here.\n"})
    talk = dict(files, **{"docs/security.md": "Never commit a password or an API key; use the vault.\n",
                          "tests/__init__.py": "", "docs/blank.md": "\n\n"})
    reordered = dict(reversed(list(files.items())))
    hindi = {"docs/सूचना.md": "हर invoice पर VAT दिखाएँ।\n", "ops/notify.md": _SLACK, "shop/vat.py": files["shop/vat.py"]}
    only = {"a/key.txt": _PRIVATE_KEY, "b/deploy.ini": _AWS}
    # A copy of a file and two empty ones: each path is a candidate of its own, however alike the texts.
    same = dict(files, **{"shop/vat_copy.py": files["shop/vat.py"], "shop/__init__.py": "", "tests/__init__.py": ""})
    given = [(files, N_("for the sample project's files")),
             ({}, N_("for no files at all")),
             (planted, N_("for the sample project with a secret planted in a file with an ordinary name")),
             (at_end, N_("for the sample project with a secret at the end of a long file")),
             (in_middle, N_("for the sample project with a secret in the middle of a long file")),
             (named, N_("for the sample project plus files whose names sound secret but hold none")),
             (talk, N_("for the sample project plus a file that only talks about passwords, and empty files")),
             (reordered, N_("for the sample project's files in another order")),
             (hindi, N_("for files in Hindi, one of them with a token")),
             (only, N_("for files that all hold a secret")),
             (same, N_("for files that hold the same text"))]
    return [Case((files,), [path for path, text in files.items() if credential_in_text(text) is None], describe(about))
            for files, about in given]


def code_terms_cases() -> list[Case]:
    """Lesson 3, "own_terms": ``my_terms(text)`` against ``ctxlib.bm25.code_terms``.

    camelCase, snake_case, an acronym before a word (``HTTPServer``), digits, a path, a dunder name, the two
    words that trap substring counting (``private``, ``activate``: no "vat" part), and text with no identifier
    at all; then repeated parts (all kept), an acronym inside a name, digits inside a word, capitals next to
    digits (an acronym ends at a digit), letters outside a-z and digits outside 0-9 (they separate parts), an
    empty text, and parts out of alphabetical order.
    """
    shown = ["computeVatRate", "vat_rate", "VAT_RATES = {}", "HTTPServer", "parseJSONResponse",
             "shop/vat2.py", "__init__", "private activate deactivateAccount", "IOError, x", "  ...  "]
    hidden = [("vat = vat_rate * VAT  # vat", N_("for a text that repeats a part")),
              ("getHTTPResponseCode(XMLParser)", N_("for acronyms inside names")),
              ("sha256sum md5 utf8Decode", N_("for digits inside words")),
              ("MD5 = hashSHA256(UTF8Text)", N_("for capitals next to digits")),
              ("# बजट की जाँच\ncheckBudget(naïveTotal)", N_("for letters outside a to z")),
              ("दर = १८  # rate18 in Devanagari digits", N_("for digits outside 0 to 9")),
              ("", N_("for an empty text")),
              ("zeta_Beta alphaGamma", N_("for parts out of alphabetical order")),
              ("ALL_CAPS_NAME = Total", N_("for a name in capitals")),
              ("pointX = setY(Z) + nA", N_("for single capital letters"))]
    return ([Case((text,), code_terms(text), describe(N_("for text {text}"), text=repr(text))) for text in shown]
            + [Case((text,), code_terms(text), describe(about)) for text, about in hidden])


def ranges_cases() -> list[Case]:
    """Lesson 3, "own_ranges": ``my_ranges(hits, n_lines, context)`` against ``ctxlib.views.line_ranges``.

    One hit; hits close enough to merge; ranges that only touch (merged too); hits at the first and
    the last line (clipped to the file); unsorted hits; context 0; no hits; then ranges one line
    apart (not merged), a hit repeated, a range inside the one before, a context wider than the
    file, a one-line file, unsorted hits that merge, and a call without context (the statement's default, 2).
    """
    shown = [([10], 100, 2), ([10, 12, 200], 300, 2), ([3, 8], 20, 2), ([1, 20], 20, 2),
             ([50, 5, 7], 60, 1), ([4, 5, 9], 12, 0), ([], 30, 2)]
    hidden = [(([3, 9], 20, 2), N_("for two ranges one line apart")),
              (([10, 18, 40], 50, 3), N_("for ranges one line apart with a wider context")),
              (([7, 7, 7], 30, 2), N_("for a hit repeated")),
              (([5, 6, 30], 40, 0), N_("for hits on neighbouring lines with no context")),
              (([4, 9], 10, 20), N_("for a context wider than the file")),
              (([1], 1, 2), N_("for a file of one line")),
              (([30, 12, 14, 2, 28], 31, 2), N_("for unsorted hits that merge")),
              # The statement's default, context=2: a caller may leave it out.
              (([6, 11, 25], 26), N_("for the default context, called without it"))]
    return ([Case((hits, n, context), line_ranges(hits, n, context),
                  describe(N_("for hits {hits} in {n} lines, context {context}"), hits=repr(hits), n=n, context=context))
             for hits, n, context in shown]
            + [Case(args, line_ranges(*args), describe(about)) for args, about in hidden])


def lesson3_small_case():
    """Lesson 3's small case: ``(options, cost)`` for the four best-ranked Python files of the sample
    project for its query, ranked by BM25 as the lesson's table ranks them (``ctxlib.fit.rank(...,
    scorer="bm25")``; the default scorer, BM25 plus signals, picks another four), each whole, priced at
    its exact ``o200k_base`` tokens."""
    files = {f.path: f.text for f in _sample_repo().files}
    four = [(path, score) for path, score in rank(files, QUERY, scorer="bm25") if path.endswith(".py")][:4]
    return [[Option.of(path, "whole", files[path], score)] for path, score in four], \
        (lambda option, limit: count_tokens(files[option.path]))


def predict_knapsack_cases() -> list[Case]:
    """Lesson 3, "predict_knapsack": which files the exact knapsack packs, whole, in 1,000 tokens,
    for ``lesson3_small_case()``. The answer is compared as a set of paths, in any order; a path may be a ``Path``."""
    options, cost = lesson3_small_case()
    chosen = {option.path for option, _ in knapsack(options, 1_000, cost)}

    def paths(got):  # as text or as a Path ("./shop/vat.py", Path("shop/vat.py")): the paths as the pack names them
        return [PurePath(p).as_posix() if isinstance(p, (str, os.PathLike)) else p for p in got]

    return [Case(None, Property(lambda got: set(paths(got)) == chosen and len(paths(got)) == len(chosen)),
                 describe(N_("for the files the exact knapsack packs at 1,000 tokens")))]


def capstone_cases() -> list[Case]:
    """Lesson 3, "capstone": a pack of the learner's repository for their task, checked by properties.

    The answer is ``{"root": folder, "task": words, "budget": tokens, "essential": [paths]}``; the
    check packs it with ``ctxlib.fit.pack_repository`` (defaults). The lesson's own default, the sample
    project for the lesson's query, is "not attempted" (with how many checks pass on it), so running
    the lesson top to bottom records nothing. Properties: pack_repository packs it (a folder that is
    not there, a budget too small for anything: its own error is shown, not a failed budget); the
    rendered text holds the budget in exact tokens (counted again here, not read from the pack); no
    secret is in it (``credential_in_text``); at least one essential file is named, in a list (a
    single string would be read as its characters; a generator or ``map`` would be used up by this
    check, and an empty one is packed whatever it named); every one of them is packed, each named as text or a
    Path, relative to the root or under it ("./shop/vat.py" and ``root / "shop/vat.py"`` name shop/vat.py).
    """
    packs = {}

    def pack(a):
        key = (str(a["root"]), repr(a["task"]), repr(a["budget"]))  # repr: a task may be a list of words
        if key not in packs:
            try:
                packs[key] = pack_repository(a["root"], a["task"], a["budget"])
            except Exception as exc:  # pack_repository's own ValueError says what is wrong; keep it to show
                packs[key] = exc
        if isinstance(packs[key], Exception):
            raise packs[key]
        return packs[key]

    def refused(a):
        try:
            pack(a)
        except Exception as exc:  # its own reason, in the learner's language where the library words it
            return {lang: message(N_("not something pack_repository can pack ({error})"), lang, error=f"{error_name(exc)}: "
                                  f"{in_lang(exc, lang)}") for lang in LANGS}
        return reprlib.repr(a)

    def used(a):
        return count_tokens(pack(a).text, pack(a).encoding)

    def packed(a):
        return {c.path for c in pack(a).chosen}

    def untouched(a):
        return a["task"] == QUERY and _is_sample_project(a["root"])

    def named(a):
        # A collection, not an iterator: a generator read here would be empty when the next check reads it.
        # Each one a path, as text or a Path: a list inside the list names no file.
        given = a["essential"]
        return (isinstance(given, Collection) and not isinstance(given, str) and len(given) > 0
                and all(isinstance(p, (str, os.PathLike)) for p in given))

    def essential(a):
        """The essential paths as the pack names files, relative to the root, with '/': "./shop/vat.py",
        Path("shop/vat.py") and root / "shop/vat.py" all name shop/vat.py."""
        root, paths = Path(a["root"]), set()
        for given in a["essential"]:
            path = Path(given)
            if path.is_absolute():
                try:
                    path = path.resolve().relative_to(root.resolve())
                except ValueError:  # outside the root: it cannot be packed, and is named as written
                    pass
            paths.add(path.as_posix())
        return paths

    def not_packed(a):
        return describe(N_("{paths} not packed"), paths=", ".join(sorted(essential(a) - packed(a))))

    return [
        Case(None, Property(lambda a: pack(a) is not None, refused, untouched),
             describe(N_("for packing it: pack_repository must accept its root, task and budget"))),
        Case(None, Property(lambda a: used(a) <= a["budget"], lambda a: f"{used(a):,} > {a['budget']!r}"),
             describe(N_("for the budget: the rendered pack, counted again in exact tokens, must be at most the budget"))),
        Case(None, Property(lambda a: credential_in_text(pack(a).text) is None,
                            lambda a: credential_in_text(pack(a).text)),
             describe(N_("for secrets: no secret may be in the rendered pack"))),
        Case(None, Property(named, lambda a: repr(a["essential"])),
             describe(N_("for the essential files: name at least one, in a list of paths"))),
        Case(None, Property(lambda a: essential(a) <= packed(a), not_packed),
             describe(N_("for the essential files: every one must be in the pack"))),
    ]
