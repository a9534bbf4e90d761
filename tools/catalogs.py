#!/usr/bin/env python3
"""Extract, update and compile the message catalogs (Babel), as ``python3 run.py catalogs`` does.

    1. extract every message id from the code and the English notebooks into ctxlib/locale/ctxlib.pot
       (keywords: message, message_n, N_; see babel.cfg for where it looks);
    2. update ctxlib/locale/<lang>/LC_MESSAGES/ctxlib.po for each language (new ids added with an
       empty translation, ids no longer used dropped); English translations are the ids themselves;
    3. compile each .po to its .mo, which is what ``ctxlib.i18n`` reads.

Then translate the new empty entries in hi/LC_MESSAGES/ctxlib.po and run it again.
``tests/test_i18n.py`` fails while any entry is untranslated or any .mo is out of date.
"""
from __future__ import annotations

import datetime
import io
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ctxlib.i18n import DOMAIN, LANGS, LOCALE_DIR  # noqa: E402

POT = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = ["-k", "message", "-k", "message_n:1,2", "-k", "N_", "-k", "N_n:1,2"]
# The .mo's header would carry the time of the run (POT-Creation-Date) and change the file's bytes on a
# tree whose messages did not change; a fixed date keeps a clean tree clean.
HEADER_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_mo(lang: str) -> None:
    """Compile ``lang``'s .po to its .mo, as ``pybabel compile --use-fuzzy`` does, with a fixed header date;
    the file is written only when its bytes change."""
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.creation_date = HEADER_DATE
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=True)
    mo = po_path(lang).with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != out.getvalue():
        mo.write_bytes(out.getvalue())


def main() -> int:
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), *KEYWORDS, "--no-location", "--sort-output",
            "--omit-header", "-o", str(POT), str(ROOT))
    for lang in LANGS:
        po = po_path(lang)
        if not po.exists():
            pybabel("init", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)
        pybabel("update", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang,
                "--no-fuzzy-matching", "--ignore-obsolete", "--omit-header")
        if lang == "en":  # the ids are the English text
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
            for m in catalog:
                if m.id and not (m.string if isinstance(m.string, str) else all(m.string)):
                    m.string = m.id
            with po.open("wb") as f:
                write_po(f, catalog, omit_header=True, no_location=True, sort_output=True)
        compile_mo(lang)
    with po_path("hi").open("rb") as f:
        missing = [m.id for m in read_po(f, locale="hi") if m.id and not m.string]
    for msgid in missing:
        print(f"untranslated in hi: {msgid!r}")
    print(f"catalogs: {len(missing)} untranslated hi entries")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
