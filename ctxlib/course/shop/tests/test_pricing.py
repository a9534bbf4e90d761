from decimal import Decimal

from shop.pricing import apply_coupon, apply_discount, bulk_discount


def test_apply_discount_rounds_to_cents():
    assert apply_discount(Decimal("9.99"), Decimal("10")) == Decimal("8.99")


def test_bulk_discount_tiers():
    assert bulk_discount(9) == 0
    assert bulk_discount(10) == Decimal("0.05")
    assert bulk_discount(50) == Decimal("0.10")


def test_coupon_needs_minimum_subtotal():
    assert apply_coupon(Decimal("50"), "BIGBASKET") == Decimal("50")
    assert apply_coupon(Decimal("200"), "bigbasket ") == Decimal("170.00")
