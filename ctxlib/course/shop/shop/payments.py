"""Payments through Stripe. The secret key comes from the environment, never from code."""
import os
from decimal import Decimal


class PaymentError(Exception):
    """The card was declined or the payment service failed."""


class StripeGateway:
    def __init__(self, api_key: str | None = None):
        self.api_key = api_key or os.environ.get("STRIPE_SECRET_KEY", "")
        if not self.api_key:
            raise PaymentError("STRIPE_SECRET_KEY is not set; copy .env.example to .env")

    def charge(self, amount: Decimal, currency: str, card_token: str) -> str:
        """Charge the card; returns the payment id. Network call omitted in this sample."""
        if amount <= 0:
            raise PaymentError(f"amount must be positive, got {amount}")
        return f"pay_{card_token[-6:]}_{int(amount * 100)}"
