"""Prices before tax: percentage discounts, bulk discounts and coupon codes."""
from dataclasses import dataclass
from decimal import Decimal

from .money import round_cents

BULK_TIERS = [(50, Decimal("0.10")), (10, Decimal("0.05"))]  # (min quantity, discount)


def apply_discount(price: Decimal, percent: Decimal) -> Decimal:
    """Price after a percentage discount, rounded to cents.

    TODO: reject percent > 100; today a 120% coupon makes the price negative.
    """
    return round_cents(price * (1 - percent / 100))


def bulk_discount(quantity: int) -> Decimal:
    """The bulk discount rate for a quantity: 10% from 50 items, 5% from 10."""
    for min_quantity, rate in BULK_TIERS:
        if quantity >= min_quantity:
            return rate
    return Decimal("0")


@dataclass(frozen=True)
class Coupon:
    code: str
    percent: Decimal
    min_subtotal: Decimal = Decimal("0")


COUPONS = {
    "WELCOME10": Coupon("WELCOME10", Decimal("10")),
    "BIGBASKET": Coupon("BIGBASKET", Decimal("15"), min_subtotal=Decimal("100")),
}


def apply_coupon(subtotal: Decimal, code: str) -> Decimal:
    """Subtotal after the coupon `code`; unknown or ineligible codes change nothing."""
    coupon = COUPONS.get(code.strip().upper())
    if coupon is None or subtotal < coupon.min_subtotal:
        return subtotal
    return apply_discount(subtotal, coupon.percent)
