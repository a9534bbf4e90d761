"""The lesson notebooks as files: twins in English and Hindi, saved outputs, no stray paths.

nbval (``pytest --nbval lessons``) re-runs every notebook and compares the outputs; these tests
check what nbval cannot: that the twins match and that the saved outputs hold the documented figures.
"""
import re

import pytest
from saved_outputs import LESSONS, cells_text, code_cells, source

NAMES = sorted(p.name for p in (LESSONS / "en").glob("*.ipynb"))


def test_every_lesson_has_a_hindi_twin():
    assert NAMES, "no English lessons found"
    assert NAMES == sorted(p.name for p in (LESSONS / "hi").glob("*.ipynb"))
    assert all(name[:2].isdigit() for name in NAMES)


def twin_difference(en_source: str, hi_source: str, is_lang_cell: bool) -> str | None:
    """Why two twin code cells differ, or ``None``. The ``lang`` cell may differ only in its
    ``LANG = "en"`` / ``LANG = "hi"`` line (and that line's comment): every other line must be
    the same in both, so no English-only code can hide in it."""
    if not is_lang_cell:
        return None if en_source == hi_source else "differs between en and hi"

    def split(text, lang):
        lines = text.splitlines()
        marks = [i for i, line in enumerate(lines) if re.fullmatch(rf'LANG = "{lang}"(\s+#.*)?', line)]
        return marks, [line for i, line in enumerate(lines) if i not in marks]

    (en_marks, en_rest), (hi_marks, hi_rest) = split(en_source, "en"), split(hi_source, "hi")
    if len(en_marks) != 1 or len(hi_marks) != 1:
        return 'needs exactly one line LANG = "en" (en) and LANG = "hi" (hi)'
    if en_rest != hi_rest or en_marks != hi_marks:
        return "differs between en and hi beyond its LANG line"
    return None


def test_the_twin_check_catches_extra_code_in_the_lang_cell():
    en = 'LANG = "en"\nfrom ctxlib.course import quiz\n'
    assert twin_difference(en, en.replace('"en"', '"hi"'), True) is None
    assert twin_difference(en + 'print("English only")\n', en.replace('"en"', '"hi"'), True) is not None
    assert twin_difference(en, 'LANG = "hi"\n', True) is not None
    assert twin_difference('LANG = "en"  # en\n', 'LANG = "hi"  # हिंदी\n', True) is None  # comments may differ
    assert twin_difference('LANG = "en"; import os\n', 'LANG = "hi"\n', True) is not None
    assert twin_difference("x = 1\n", "x = 2\n", False) is not None


@pytest.mark.parametrize("name", NAMES)
def test_twins_have_identical_code_cells(name):
    en, hi = code_cells("en", name), code_cells("hi", name)
    assert len(en) == len(hi)
    for i, (a, b) in enumerate(zip(en, hi)):
        problem = twin_difference(source(a), source(b), "lang" in a["metadata"].get("tags", []))
        assert problem is None, f"{name}: code cell {i} {problem}"


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("name", NAMES)
def test_executed_in_order_without_errors(lang, name):
    cells = [c for c in code_cells(lang, name) if source(c).strip() and "NBVAL_SKIP" not in source(c)]
    assert [c["execution_count"] for c in cells] == list(range(1, len(cells) + 1))
    assert not any(o["output_type"] == "error" for c in cells for o in c["outputs"])
    text = cells_text(cells)
    for stray in ("/tmp/", "/work/", " at 0x", "Traceback"):
        assert stray not in text, f"{lang}/{name} saved {stray!r} in an output"


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_lesson1_saves_the_chapters_output(lang):
    # The English twin prints the chapter's two lines verbatim; the Hindi twin the same figures in Hindi.
    text = cells_text(code_cells(lang, "01_window_as_budget.ipynb"))
    chosen = "[('shop/pricing.py', 77), ('tests/test_pricing.py', 46), ('shop/cart.py', 27)]"
    expected = {"en": f"chosen: {chosen}\ntokens used: 150 of 300",
                "hi": f"चुनी गई: {chosen}\nइस्तेमाल हुए tokens: 150 / 300"}[lang]
    assert expected in text
