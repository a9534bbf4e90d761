"""Value added tax: the rate for a country and product category, and the amount due."""
from decimal import Decimal

from .money import round_cents

# Rates by country: standard and reduced (books, food). Checked 2024-01.
VAT_RATES = {
    "DE": {"standard": Decimal("0.19"), "books": Decimal("0.07"), "food": Decimal("0.07")},
    "FR": {"standard": Decimal("0.20"), "books": Decimal("0.055"), "food": Decimal("0.055")},
    "NL": {"standard": Decimal("0.21"), "books": Decimal("0.09"), "food": Decimal("0.09")},
    "AT": {"standard": Decimal("0.20"), "books": Decimal("0.10"), "food": Decimal("0.10")},
    "IE": {"standard": Decimal("0.23"), "books": Decimal("0.135"), "food": Decimal("0.135")},
}
# TODO: books are zero-rated in IE, not 13.5%; finance ticket SHOP-412.


def vat_rate(country: str, category: str = "standard") -> Decimal:
    """The VAT rate for a country code and product category, e.g. 0.19 for DE standard."""
    rates = VAT_RATES.get(country.upper())
    if rates is None:
        raise KeyError(f"no VAT rates for country {country!r}")
    return rates.get(category, rates["standard"])


def vat_amount(net: Decimal, rate: Decimal) -> Decimal:
    """VAT on a net amount, rounded to cents."""
    return round_cents(net * rate)


def is_reverse_charge(seller_country: str, buyer_country: str, buyer_vat_id: str | None) -> bool:
    """B2B sales to another EU country: the buyer accounts for the VAT, the invoice shows none."""
    return bool(buyer_vat_id) and seller_country.upper() != buyer_country.upper()


def computeVatRate(countryCode, productCategory="standard"):  # noqa: N802
    """Old name kept for the mobile app's API; use vat_rate."""
    return vat_rate(countryCode, productCategory)
