"""The lesson notebooks as files: twins in English and Hindi, saved outputs, no stray paths.

nbval (``pytest --nbval lessons``) re-runs every notebook and compares the outputs; these tests
check what nbval cannot: that the twins match and that the saved outputs hold the documented figures.
"""
import pytest
from saved_outputs import LESSONS, cells_text, code_cells, source

NAMES = sorted(p.name for p in (LESSONS / "en").glob("*.ipynb"))


def test_every_lesson_has_a_hindi_twin():
    assert NAMES, "no English lessons found"
    assert NAMES == sorted(p.name for p in (LESSONS / "hi").glob("*.ipynb"))
    assert all(name[:2].isdigit() for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_twins_have_identical_code_cells(name):
    en, hi = code_cells("en", name), code_cells("hi", name)
    assert len(en) == len(hi)
    for i, (a, b) in enumerate(zip(en, hi)):
        if "lang" in a["metadata"].get("tags", []):
            assert 'LANG = "en"' in source(a) and 'LANG = "hi"' in source(b), f"cell {i}"
        else:
            assert source(a) == source(b), f"code cell {i} differs between en and hi"


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
