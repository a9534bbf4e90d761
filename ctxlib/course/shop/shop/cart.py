"""The shopping cart: lines of products and quantities, with net totals."""
from dataclasses import dataclass, field
from decimal import Decimal

from .catalog import Product, find_product
from .pricing import apply_coupon, bulk_discount


@dataclass
class CartLine:
    product: Product
    quantity: int

    @property
    def net(self) -> Decimal:
        """Line total before tax, after the bulk discount."""
        rate = bulk_discount(self.quantity)
        return self.product.price * self.quantity * (1 - rate)


@dataclass
class Cart:
    lines: list[CartLine] = field(default_factory=list)
    coupon: str = ""

    def add(self, sku: str, quantity: int = 1) -> None:
        """Add `quantity` of a product; adding an SKU again increases its line."""
        if quantity <= 0:
            raise ValueError(f"quantity must be positive, got {quantity}")
        product = find_product(sku)
        for line in self.lines:
            if line.product.sku == product.sku:
                line.quantity += quantity
                return
        self.lines.append(CartLine(product, quantity))

    def remove(self, sku: str) -> None:
        self.lines = [line for line in self.lines if line.product.sku != sku.upper()]

    def subtotal(self) -> Decimal:
        """Sum of the lines' net totals, before coupons and tax."""
        return sum((line.net for line in self.lines), Decimal("0"))

    def total_net(self) -> Decimal:
        """Subtotal after the coupon, before tax."""
        return apply_coupon(self.subtotal(), self.coupon) if self.coupon else self.subtotal()
