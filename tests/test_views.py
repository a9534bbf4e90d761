"""Views of a file (ctxlib/views.py) on one Python snippet, checked line by line."""
import pytest
from ctxlib.views import ELISION, hit_lines, line_ranges, ranges_view, signatures_view, symbol_view

SRC = '''"""VAT rules for the shop.

Rates change; see the handbook.
"""
from decimal import Decimal

VAT_RATES = {"DE": Decimal("0.19")}


@dataclass(frozen=True)
class InvoiceLine:
    """One line of an invoice."""
    net: Decimal
    vat_rate: Decimal

    @property
    def vat(self) -> Decimal:
        # rounded later
        return self.net * self.vat_rate

    def describe(self): return f"{self.net}"


def vat_rate(country: str,
             category: str = "standard") -> Decimal:
    """The VAT rate for a country."""
    def helper():
        return 1
    return VAT_RATES[country.upper()]


class Empty: pass
'''


def test_signatures_keep_decorators_headers_fields_and_first_docstring_lines():
    assert signatures_view(SRC) == '''"""VAT rules for the shop."""

@dataclass(frozen=True)
class InvoiceLine:
    """One line of an invoice."""
    net: Decimal
    vat_rate: Decimal
    @property
    def vat(self) -> Decimal:
        ...
    def describe(self): return f"{self.net}"

def vat_rate(country: str,
             category: str = "standard") -> Decimal:
    """The VAT rate for a country."""
    ...

class Empty: pass
'''


def test_a_signature_over_several_lines_whose_body_starts_on_its_last_line_keeps_that_line():
    # A formatter's overload: requests' models.py showed "def _encode_params(\n    data: ...,\n" and then "..."
    # indented to column 39, without the return annotation.
    src = ("class Model:\n    x: int\n    @overload\n    def encode(\n        data: SupportsRead[str | bytes],\n"
           "    ) -> SupportsRead[str | bytes]: ...\n\n    def close(\n        self,\n    ) -> None:\n"
           "        pass\n\ndef é(\n    x: int,\n) -> int: return x  # after a non-ASCII name\n")
    assert signatures_view(src) == ("class Model:\n    x: int\n    @overload\n    def encode(\n        data: SupportsRead[str | bytes],\n"
                                    "    ) -> SupportsRead[str | bytes]: ...\n    def close(\n        self,\n"
                                    "    ) -> None:\n        ...\n\ndef é(\n    x: int,\n"
                                    ") -> int: return x  # after a non-ASCII name\n")


def test_a_class_whose_first_member_is_decorated_shows_the_decorators_once():
    # The class's header ran to its first member's def line, so it took that member's decorators too: flask's and
    # requests' signatures showed "@staticmethod", "@overload" or a three-line "@pytest.mark.parametrize(" twice.
    src = ("class Model:\n    @pytest.mark.parametrize(\n        'x', [1]\n    )\n    @staticmethod\n"
           "    def make(x):\n        return x\n")
    assert signatures_view(src) == ("class Model:\n    @pytest.mark.parametrize(\n        'x', [1]\n    )\n"
                                    "    @staticmethod\n    def make(x):\n        ...\n")


def test_signatures_view_is_none_for_text_that_is_not_python():
    assert signatures_view("# Changelog\n\n- fixed: the VAT line\n") is None
    assert signatures_view("def broken(:\n    pass\n") is None


def test_symbol_view_returns_one_method_with_its_decorator():
    assert symbol_view(SRC, "InvoiceLine.vat") == (
        "    @property\n    def vat(self) -> Decimal:\n        # rounded later\n"
        "        return self.net * self.vat_rate\n")
    assert symbol_view(SRC, "vat_rate").splitlines()[0] == "def vat_rate(country: str,"
    assert symbol_view(SRC, "InvoiceLine.missing") is None
    assert symbol_view("not python (", "x") is None


def test_hit_lines_and_line_ranges():
    assert hit_lines("a = 1\nvat_rate = 2\nprivate = 3\n", ["vat"]) == [2]
    assert line_ranges([3, 5, 20], 30, context=1) == [(2, 6), (19, 21)]
    assert line_ranges([1, 30], 30, context=2) == [(1, 3), (28, 30)]


def test_ranges_view_numbers_lines_and_marks_elisions():
    assert ranges_view(SRC, ["vat"], context=0) == "\n".join([
        ' 1 | """VAT rules for the shop.',
        ELISION,
        ' 7 | VAT_RATES = {"DE": Decimal("0.19")}',
        ELISION,
        "14 |     vat_rate: Decimal",
        ELISION,
        "17 |     def vat(self) -> Decimal:",
        ELISION,
        "19 |         return self.net * self.vat_rate",
        ELISION,
        "24 | def vat_rate(country: str,",
        ELISION,
        '26 |     """The VAT rate for a country."""',
        ELISION,
        "29 |     return VAT_RATES[country.upper()]",
        ELISION,
    ]) + "\n"


def test_ranges_view_with_context_and_a_limit():
    assert ranges_view(SRC, ["vat"], context=0, max_ranges=2) == (
        '1 | """VAT rules for the shop.\n⋮\n7 | VAT_RATES = {"DE": Decimal("0.19")}\n⋮\n')
    with_context = ranges_view(SRC, ["invoice"], context=1)
    # InvoiceLine splits into "invoice" and "line": hits on lines 11 and 12, one line each side.
    assert with_context == ('⋮\n10 | @dataclass(frozen=True)\n11 | class InvoiceLine:\n'
                            '12 |     """One line of an invoice."""\n13 |     net: Decimal\n⋮\n')
    assert ranges_view(SRC, ["cart"]) is None


def test_line_numbers_count_newlines_only():
    # A form feed (old Python files have them) is not a line break for the numbering.
    assert ranges_view("a\x0cb\nvat = 1\nc\n", ["vat"], context=0) == "⋮\n2 | vat = 1\n⋮\n"
    assert ranges_view("x\r\nvat = 1\r\n", ["vat"], context=1) == "1 | x\n2 | vat = 1\n"
    assert signatures_view("\x0c\ndef f(x):\n    return x\n\x0c\nclass A:\n    def g(self): pass\n") == (
        "def f(x):\n    ...\n\nclass A:\n    def g(self): pass\n")


def test_parsing_a_files_sloppy_code_raises_no_warning(recwarn):
    assert signatures_view('x = 0.19vat if 1 else "\\d"\ndef f(): pass\n') is None
    assert signatures_view('PATTERN = "\\d+"\ndef f():\n    return 1\n') == "def f():\n    ...\n"
    assert len(recwarn) == 0


def test_code_too_deep_for_the_parser_has_no_signatures_view():
    # A generated constant of 5,000 chained additions makes ast.parse raise RecursionError.
    text = "VAT = " + '"a" + ' * 5000 + '"a"\n'
    assert signatures_view(text) is None


def test_a_python_file_saved_with_a_byte_order_mark_has_signatures():
    """Python runs a file that starts with a UTF-8 BOM (Windows editors save one), but ast.parse of the decoded
    text refused U+FEFF, so such a file had no signatures view and no symbols: found by the hostile review."""
    text = "\ufeffimport os\n\n\ndef vat(amount):\n    \"\"\"VAT.\"\"\"\n    return amount * 0.19\n"
    assert signatures_view(text) == 'def vat(amount):\n    """VAT."""\n    ...\n'
    assert symbol_view(text, "vat") == 'def vat(amount):\n    """VAT."""\n    return amount * 0.19\n'


def test_a_byte_order_mark_does_not_hide_the_first_lines_import():
    from ctxlib.imports import import_statements

    assert import_statements("\ufeffimport shop.vat\n") == (("shop.vat",), ())
    assert import_statements("\ufefffrom shop import cart\n") == ((), ((0, "shop", ("cart",)),))
    assert import_statements("x\ufeffimport os\n") == ((), ())  # only at the very start


@pytest.mark.parametrize("text, name, what", [("def f(): pass\n", None, "name"), (b"def f(): pass\n", "f", "text")])
def test_symbol_view_of_a_non_string_is_a_clear_error(text, name, what):
    with pytest.raises(ValueError, match=f"symbol_view: {what} must be a string"):
        symbol_view(text, name)
