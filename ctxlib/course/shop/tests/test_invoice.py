from datetime import date
from decimal import Decimal

import pytest

from shop.cart import Cart
from shop.invoice import InvoiceBuilder, next_invoice_number


def test_numbering_restarts_each_year():
    assert next_invoice_number(2024, None) == "2024-0001"
    assert next_invoice_number(2024, "2024-0041") == "2024-0042"
    assert next_invoice_number(2025, "2024-0042") == "2025-0001"


def test_reverse_charge_invoice_has_no_vat():
    cart = Cart()
    cart.add("TEE-02")
    invoice = InvoiceBuilder("Acme SARL", "FR", "FR123").build(cart, "2024-0001", date(2024, 5, 1))
    assert invoice.vat_total == 0 and invoice.reverse_charge


@pytest.mark.xfail(reason="SHOP-398: VAT is rounded per line, finance wants per invoice")
def test_vat_rounded_per_invoice():
    cart = Cart()
    cart.add("TEE-02")
    cart.add("BAG-05", 3)
    invoice = InvoiceBuilder("Erika", "DE").build(cart, "2024-0002", date(2024, 5, 1))
    assert invoice.vat_total == Decimal("10.43")  # 54.87 net x 19%; per line gives 10.42
