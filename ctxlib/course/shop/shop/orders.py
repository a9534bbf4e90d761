"""Placing an order: charge the buyer, issue the invoice, send it by email."""
from datetime import date

from .cart import Cart
from .invoice import InvoiceBuilder, next_invoice_number, render_invoice
from .payments import StripeGateway


def place_order(cart: Cart, buyer: str, country: str, card_token: str,
                last_invoice: str | None, gateway: StripeGateway, send_email) -> str:
    """Charge the gross total, then email the invoice; returns the invoice number."""
    if not cart.lines:
        raise ValueError("cannot place an order for an empty cart")
    today = date.today()
    invoice = InvoiceBuilder(buyer, country).build(
        cart, next_invoice_number(today.year, last_invoice), today)
    gateway.charge(invoice.gross_total, "EUR", card_token)
    send_email(to=buyer, subject=f"Your invoice {invoice.number}", body=render_invoice(invoice))
    return invoice.number
