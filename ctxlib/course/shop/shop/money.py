"""Money helpers: amounts are Decimal euros, rounded half-up to whole cents."""
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_money(value) -> Decimal:
    """Parse a price from a str, int or Decimal; floats are refused (binary rounding)."""
    if isinstance(value, float):
        raise TypeError("use Decimal or str for money, not float")
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def round_cents(amount: Decimal) -> Decimal:
    """Round to whole cents, half up, as the finance team does."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def format_eur(amount: Decimal) -> str:
    """'1,234.50 EUR'."""
    return f"{round_cents(amount):,.2f} EUR"
