"""The message catalogs: every message id in the code has an English and a Hindi entry, compiled."""
import gettext
import io
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from ctxlib.i18n import DOMAIN, LANGS, LOCALE_DIR, check_lang, message, message_n

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"message": None, "message_n": (1, 2), "N_": None, "N_n": (1, 2)}


def method_map():
    """babel.cfg, as (pattern, method) pairs."""
    pairs, aliases = [], {}
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        if line.startswith("[") and ":" in line:
            method, _, pattern = line.strip("[]").partition(":")
            pairs.append((pattern.strip(), method.strip()))
        elif "=" in line and not line.startswith("#"):  # [extractors]: alias = module:function
            alias, _, target = line.partition("=")
            aliases[alias.strip()] = target.strip()
    return [(pattern, aliases.get(method, method)) for pattern, method in pairs]


def ids_in_code() -> set:
    found = set()
    for _, _, msg, _, _ in extract_from_dir(str(ROOT), method_map(), keywords=KEYWORDS):
        found.add(msg if isinstance(msg, str) else msg[0])
    return found


def catalog(lang):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_every_message_in_the_code_is_in_both_catalogs():
    in_code = ids_in_code()
    assert "tokens used: {used:,} of {budget:,}" in in_code  # the extraction really reads the code
    for lang in LANGS:
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(lang) if m.id}
        assert sorted(in_code - ids) == [], f"not in the {lang} catalog: run python3 run.py catalogs"


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_is_translated_and_keeps_its_fields(lang):
    fields = lambda s: sorted(f for _, f, _, _ in string.Formatter().parse(s) if f is not None)
    problems = []
    for m in catalog(lang):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if not all(strings) or m.fuzzy:
            problems.append(("untranslated", ids[0]))
        elif any(fields(s) != fields(ids[0]) for s in strings):
            problems.append(("fields differ", ids[0]))
    assert problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogs_match_their_po_files(lang):
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    plain = lambda value: tuple(value) if isinstance(value, (list, tuple)) else value  # plural entries
    with mo.open("rb") as f:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(f) if m.id}
    source = {plain(m.id): plain(m.string) for m in catalog(lang) if m.id}
    assert compiled == source, f"{mo} is out of date: run python3 run.py catalogs"


def test_hindi_and_english_messages():
    assert message("tokens used: {used:,} of {budget:,}", "en", used=1500, budget=3000) == "tokens used: 1,500 of 3,000"
    assert message("tokens used: {used:,} of {budget:,}", "hi", used=150, budget=300) == "इस्तेमाल हुए tokens: 150 / 300"
    assert message("budget", "hi") == "बजट"


def test_an_unknown_language_is_named():
    with pytest.raises(ValueError, match=r"lang must be one of \['en', 'hi'\], got 'fr'"):
        message("budget", "fr")
    with pytest.raises(ValueError, match="got None"):
        check_lang(None)


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogs_are_byte_for_byte_what_the_tool_writes(lang, tmp_path, monkeypatch):
    # tools/catalogs.py used to stamp each .mo with the time of the run: a clean tree changed on every run.
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    catalogs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogs)
    po = tmp_path / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    po.parent.mkdir(parents=True)
    po.write_bytes(catalogs.po_path(lang).read_bytes())
    monkeypatch.setattr(catalogs, "po_path", lambda _lang: po)
    catalogs.compile_mo(lang)
    assert po.with_suffix(".mo").read_bytes() == (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes()


def test_an_os_errors_reason_is_the_oss_in_english_and_worded_in_hindi():
    import errno

    from ctxlib.i18n import in_lang, os_problem

    denied = os_problem(PermissionError(errno.EACCES, "Permission denied"))
    assert denied == "Permission denied" and in_lang(denied, "en") == "Permission denied"
    assert in_lang(denied, "hi") == "अनुमति नहीं है"
    assert os_problem(OSError(errno.ENOSPC, "No space left on device")).text("hi") == "disk में जगह नहीं बची"
    odd = os_problem(OSError(errno.EXDEV, "Invalid cross-device link"))  # no words of ours: the OS's own
    assert odd.text("hi") == "Invalid cross-device link"
    assert os_problem(OSError("no errno at all")).text("hi") == "no errno at all"
    with pytest.raises(ValueError):
        denied.text("fr")
