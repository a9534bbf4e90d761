"""Tables: aligned by display width (Devanagari too), and the same table as HTML."""
import pytest
from wcwidth import wcswidth

from ctxlib.course.tables import Table


def test_plain_text_aligns_numbers_right_and_names_left():
    t = Table(["file", "tokens"], [["shop/vat.py", 1234], ["a.py", 7]])
    assert str(t) == "file         tokens\nshop/vat.py   1,234\na.py              7"


def test_hindi_headers_line_up_by_display_width():
    t = Table(["फ़ाइल", "tokens"], [["shop/vat.py", 1234]])
    lines = str(t).splitlines()
    # "फ़ाइल" is 5 code points but 3 columns wide; the second column starts at the same column on both lines
    assert wcswidth(lines[0].split("tokens")[0]) == wcswidth(lines[1].split("1,234")[0]) + len("1,234") - len("tokens")
    assert wcswidth(lines[0]) == wcswidth(lines[1])


def test_html_escapes_and_marks_numeric_columns():
    h = Table(["name", "n"], [["<b>", 1000]], title="t & u")._repr_html_()
    assert "<caption>t &amp; u</caption>" in h and "<td style=\"text-align:left\">&lt;b&gt;</td>" in h
    assert "<td style=\"text-align:right\">1,000</td>" in h


def test_a_short_row_is_named():
    with pytest.raises(ValueError, match="row 1 has 1 cells, the header has 2"):
        Table(["a", "b"], [[1, 2], [3]])
