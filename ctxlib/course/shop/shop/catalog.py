"""The product catalog: what can be sold, at which net price, in which category."""
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price: Decimal  # net, in euros
    category: str = "standard"  # "standard", "books" or "food": picks the tax rate


CATALOG = {
    "MUG-01": Product("MUG-01", "Enamel mug", Decimal("12.00")),
    "TEE-02": Product("TEE-02", "Organic T-shirt", Decimal("24.90")),
    "BOOK-03": Product("BOOK-03", "Field guide to ferns", Decimal("18.50"), "books"),
    "TEA-04": Product("TEA-04", "Green tea, 100 g", Decimal("6.40"), "food"),
    "BAG-05": Product("BAG-05", "Canvas tote bag", Decimal("9.99")),
}


def find_product(sku: str) -> Product:
    """The product with this SKU; KeyError names the SKU if there is none."""
    try:
        return CATALOG[sku.upper()]
    except KeyError:
        raise KeyError(f"unknown SKU {sku!r}") from None
