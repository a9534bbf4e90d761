"""Invoices: lines with net, VAT and gross amounts, numbered per year."""
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .cart import Cart
from .money import format_eur
from .vat import is_reverse_charge, vat_amount, vat_rate

SELLER_COUNTRY = "DE"


@dataclass(frozen=True)
class InvoiceLine:
    description: str
    net: Decimal
    vat_rate: Decimal
    vat: Decimal

    @property
    def gross(self) -> Decimal:
        return self.net + self.vat


@dataclass
class Invoice:
    number: str
    issued: date
    buyer: str
    buyer_country: str
    lines: list[InvoiceLine] = field(default_factory=list)
    reverse_charge: bool = False

    @property
    def net_total(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal("0"))

    @property
    def vat_total(self) -> Decimal:
        # Rounded per line, then summed; the billing handbook asks for rounding per
        # invoice, which can differ by a cent (ticket SHOP-398).
        return sum((line.vat for line in self.lines), Decimal("0"))

    @property
    def gross_total(self) -> Decimal:
        return self.net_total + self.vat_total


class InvoiceBuilder:
    """Turns a cart into an invoice for one buyer."""

    def __init__(self, buyer: str, buyer_country: str, buyer_vat_id: str | None = None):
        self.buyer, self.buyer_country, self.buyer_vat_id = buyer, buyer_country, buyer_vat_id
        self.reverse_charge = is_reverse_charge(SELLER_COUNTRY, buyer_country, buyer_vat_id)

    def _line(self, description: str, net: Decimal, category: str) -> InvoiceLine:
        rate = Decimal("0") if self.reverse_charge else vat_rate(self.buyer_country, category)
        return InvoiceLine(description, net, rate, vat_amount(net, rate))

    def build(self, cart: Cart, number: str, issued: date) -> Invoice:
        """One invoice line per cart line. Coupons are not shown yet (SHOP-377)."""
        invoice = Invoice(number, issued, self.buyer, self.buyer_country,
                          reverse_charge=self.reverse_charge)
        for line in cart.lines:
            description = f"{line.quantity} x {line.product.name}"
            invoice.lines.append(self._line(description, line.net, line.product.category))
        return invoice


def next_invoice_number(year: int, last_number: str | None) -> str:
    """'2024-0001' for the first invoice of 2024; numbering restarts every year."""
    if last_number is None or not last_number.startswith(f"{year}-"):
        return f"{year}-0001"
    return f"{year}-{int(last_number.split('-')[1]) + 1:04d}"


def render_invoice(invoice: Invoice) -> str:
    """The invoice as plain text, for the email body."""
    rows = [f"Invoice {invoice.number}  {invoice.issued.isoformat()}", f"To: {invoice.buyer}", ""]
    for line in invoice.lines:
        rows.append(f"{line.description:<40} {format_eur(line.net):>14}  VAT {line.vat_rate:.1%}")
    rows += ["", f"{'Net':<40} {format_eur(invoice.net_total):>14}",
             f"{'VAT':<40} {format_eur(invoice.vat_total):>14}",
             f"{'Total':<40} {format_eur(invoice.gross_total):>14}"]
    if invoice.reverse_charge:
        rows.append("VAT reverse charge: the buyer accounts for the VAT.")
    return "\n".join(rows)
