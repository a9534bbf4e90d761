"""The lesson's sample repository: a small shop service, written to disk deterministically.

Lesson 3, "Choosing context in a real repository". ``build_sample_project(dest)`` writes
the same bytes every time: pricing, cart, VAT and invoice modules with their tests (and a
few bugs a ticket might ask to fix), an account module whose words trap substring counting
("activate", "private" both contain "vat"), long documents that repeat the query words, a
vendored folder listed in ``.gitignore``, a PNG, a legacy CSV export that is not UTF-8, a
``.env`` with a fake Stripe key and a deploy config with AWS's documented example key.

Every secret here is fake. They are assembled from pieces so that this module's own source
does not look like a credential to a scanner; only the written files do.
"""
from __future__ import annotations

import os
import struct
import textwrap
import zlib
from pathlib import Path

QUERY = "vat invoice"
BUDGET = 2_000

_FAKE_STRIPE = "sk_" + "test_" + "FAKE0000000000000000000000NOTAREALKEY"
_AWS_EXAMPLE_KEY_ID = "AKIA" + "IOSFODNN7EXAMPLE"  # AWS's own documentation example
_AWS_EXAMPLE_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"


def _png_1x1() -> bytes:
    """A valid 1x1 white PNG: signature, IHDR, IDAT, IEND (about 70 bytes, NUL bytes inside)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff", 9)) + chunk(b"IEND", b""))


def _changelog() -> str:
    """A long changelog that says "invoice" and "VAT" on nearly every line: the baseline's trap."""
    countries = ["DE", "FR", "NL", "AT", "IT", "ES", "PL", "SE", "BE", "IE", "PT", "DK"]
    themes = [
        "Invoice totals now show VAT per rate for {c}; the VAT summary on each invoice is sorted.",
        "Fixed the invoice PDF when a {c} customer's VAT number has spaces; VAT IDs are trimmed.",
        "Reverse-charge VAT for B2B invoices to {c}: the invoice says 'VAT reverse charge'.",
        "Credit notes copy the VAT breakdown of the original invoice for {c} orders.",
        "Invoice numbering for {c} restarts each year, as the VAT office asks; old invoices keep theirs.",
    ]
    lines = ["# Changelog", "", "All notable changes to the shop service. Newest first.", ""]
    for i in range(60):
        major, minor = divmod(120 - i, 12)
        lines += [f"## 2.{major}.{minor}", ""]
        for j in range(3):
            country = countries[(i * 3 + j) % len(countries)]
            lines.append("- " + themes[(i + j) % len(themes)].format(c=country))
        lines.append("")
    return "\n".join(lines)


def _billing_guide() -> str:
    """A long handbook for the finance team, full of invoice and VAT words, no code."""
    sections = [
        ("What an invoice must show", "Every invoice shows the seller, the buyer, the invoice date, a unique "
         "invoice number, each line with its net price, the VAT rate, the VAT amount and the gross total. "
         "When VAT is not charged, the invoice says why."),
        ("VAT rates", "VAT rates differ by country and by product category. Books and food often have a "
         "reduced VAT rate. The invoice must show each VAT rate that applies and the VAT amount per rate."),
        ("Corrections", "An invoice is never edited after it is sent. To correct an invoice, issue a credit "
         "note for the old invoice and a new invoice with the right VAT."),
        ("Cross-border sales", "For business customers in another EU country, VAT is reverse-charged: the "
         "invoice shows no VAT and names the buyer's VAT number. For consumers, the VAT of the buyer's "
         "country applies once yearly sales pass the threshold."),
        ("Rounding", "Finance rounds VAT per invoice, not per line, so the invoice VAT total matches the "
         "VAT report. Some older invoices rounded VAT per line; see the changelog."),
    ]
    out = ["# Billing handbook", ""]
    for round_ in range(4):
        for title, body in sections:
            out += [f"## {title}" + (f" (part {round_ + 1})" if round_ else ""), "", body, ""]
            out += [f"Example {round_ + 1}: an invoice of 100.00 EUR net with 19% VAT shows 19.00 EUR VAT "
                    f"and 119.00 EUR gross; the VAT line on the invoice names the rate.", ""]
    return "\n".join(out)


def _legacy_export() -> bytes:
    """A customer export from the old system, in cp1252: not valid UTF-8 (replaced, reported)."""
    rows = ["id;name;city;vat_id", "1;Müller GmbH;Köln;DE123456789",
            "2;Société Générale;Paris;FR987654321", "3;Åkesson AB;Malmö;SE556677889901",
            "4;Smith & Söhne;Graz;ATU12345678"]
    return ("\r\n".join(rows) + "\r\n").encode("cp1252")


def sample_files() -> dict[str, bytes]:
    """Every file of the sample project, ``{POSIX path: bytes}``, in a fixed order."""
    files = {path: text.encode("utf-8") for path, text in CODE_FILES.items()}
    files.update({
        ".gitignore": b"vendor/\n*.log\nbuild/\n.venv/\n",
        ".env": (f"# local settings, never commit\nSTRIPE_SECRET_KEY={_FAKE_STRIPE}\n"
                 f"DATABASE_URL=postgres://shop:shop@localhost/shop\n").encode(),
        ".env.example": b"# copy to .env and fill in\nSTRIPE_SECRET_KEY=\nDATABASE_URL=\n",
        "deploy/invoice_archive.ini": (f"[s3]\nregion = eu-central-1\ninvoice_bucket = shop-invoice-pdfs\n"
                           f"aws_access_key_id = {_AWS_EXAMPLE_KEY_ID}\n"
                           f"aws_secret_access_key = {_AWS_EXAMPLE_SECRET}\n").encode(),
        "docs/changelog.md": _changelog().encode(),
        "docs/billing-handbook.md": _billing_guide().encode(),
        "static/logo.png": _png_1x1(),
        "data/legacy_customers.csv": _legacy_export(),
        "server.log": b"2024-05-01 12:00:00 INFO invoice 1001 sent with VAT 19.00\n" * 40,
        "vendor/taxlib/__init__.py": b'"""Vendored copy of taxlib 0.3 (do not edit)."""\n',
        "vendor/taxlib/rates.py": ("".join(
            f'VAT_{c} = {r}  # standard VAT rate, {c}\n'
            for c, r in [("DE", 19), ("FR", 20), ("NL", 21), ("AT", 20), ("IT", 22)]) * 20).encode(),
    })
    return dict(sorted(files.items()))


def build_sample_project(dest) -> Path:
    """Write the sample shop project into ``dest`` and return its path.

    Args:
        dest: a folder (str or Path); created if missing. Files already there with the same
            names are replaced; nothing else is touched.
    Returns:
        ``Path(dest)``. Each file is written atomically (a temporary file, then ``os.replace``).
    Raises:
        OSError: if ``dest`` cannot be written.

    ``ctxlib.fit.pack_repository(build_sample_project(tmp), QUERY, BUDGET)`` is the lesson's
    first run: the repository (~11,000 tokens) does not fit in 2,000.
    """
    root = Path(dest)
    for rel, data in sample_files().items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    return root


def _dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# The shop's source, tests and short docs. Real, importable Python with a few rough edges
# a ticket could ask about (per-line VAT rounding, an unvalidated discount, a TODO rate).
CODE_FILES = {
    "README.md": _dedent("""
        # shop

        A small shop service: a catalog, a cart with coupons, VAT by country and invoices.

        Run the tests with `pytest`. Money is always `Decimal` euros; see `shop/money.py`.
        The finance rules live in `docs/billing-handbook.md`.
    """),
    "pyproject.toml": _dedent("""
        [project]
        name = "shop"
        version = "2.10.0"
        requires-python = ">=3.10"

        [tool.pytest.ini_options]
        testpaths = ["tests"]
    """),
    "shop/__init__.py": '"""The shop service: catalog, cart, pricing, VAT, invoices, orders."""\n',
    "shop/money.py": _dedent('''
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
    '''),
    "shop/catalog.py": _dedent('''
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
    '''),
    "shop/pricing.py": _dedent('''
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
    '''),
    "shop/cart.py": _dedent('''
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
    '''),
    "shop/vat.py": _dedent('''
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
    '''),
    "shop/invoice.py": _dedent('''
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
            return "\\n".join(rows)
    '''),
    "shop/accounts.py": _dedent('''
        """Customer accounts: sign-up, activation by email, deactivation and private profiles."""
        import secrets
        from dataclasses import dataclass, field
        from datetime import datetime, timedelta

        ACTIVATION_TTL = timedelta(days=2)


        @dataclass
        class Account:
            email: str
            active: bool = False
            private_profile: bool = True  # private by default: profiles are opt-in
            activation_token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
            activation_sent: datetime = field(default_factory=datetime.now)
            deactivated_at: datetime | None = None


        def activation_link(account: Account, base_url: str) -> str:
            """The link in the activation email; it activates the account once."""
            return f"{base_url}/activate?token={account.activation_token}"


        def activate_account(account: Account, token: str, now: datetime) -> bool:
            """Activate if the activation token matches and has not expired; reactivation is allowed."""
            if token != account.activation_token:
                return False
            if now - account.activation_sent > ACTIVATION_TTL:
                return False  # expired activation: the user must ask for a new activation email
            account.active, account.deactivated_at = True, None
            return True


        def deactivate_account(account: Account, now: datetime) -> None:
            """Deactivate: keep the data (private) for 30 days so a reactivation can restore it."""
            account.active, account.deactivated_at = False, now


        def reactivate_account(account: Account, now: datetime) -> bool:
            """Reactivate a deactivated account within 30 days of deactivation."""
            if account.deactivated_at is None or now - account.deactivated_at > timedelta(days=30):
                return False
            account.active, account.deactivated_at = True, None
            return True


        def set_private(account: Account, private: bool) -> None:
            """Private profiles hide the order history from other users; activation keeps it private."""
            account.private_profile = private
    '''),
    "shop/payments.py": _dedent('''
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
    '''),
    "shop/orders.py": _dedent('''
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
    '''),
    "tests/test_pricing.py": _dedent('''
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
    '''),
    "tests/test_cart.py": _dedent('''
        from decimal import Decimal

        import pytest

        from shop.cart import Cart


        def test_adding_the_same_sku_twice_merges_lines():
            cart = Cart()
            cart.add("MUG-01")
            cart.add("mug-01", 2)
            assert len(cart.lines) == 1 and cart.lines[0].quantity == 3


        def test_subtotal_applies_bulk_discount():
            cart = Cart()
            cart.add("BAG-05", 10)
            assert cart.subtotal() == Decimal("94.905")


        def test_quantity_must_be_positive():
            with pytest.raises(ValueError):
                Cart().add("MUG-01", 0)
    '''),
    "tests/test_vat.py": _dedent('''
        from decimal import Decimal

        from shop.vat import computeVatRate, is_reverse_charge, vat_amount, vat_rate


        def test_standard_and_reduced_rates():
            assert vat_rate("DE") == Decimal("0.19")
            assert vat_rate("de", "books") == Decimal("0.07")


        def test_vat_amount_rounds_half_up():
            assert vat_amount(Decimal("10.05"), Decimal("0.19")) == Decimal("1.91")


        def test_reverse_charge_only_cross_border_b2b():
            assert is_reverse_charge("DE", "FR", "FR123")
            assert not is_reverse_charge("DE", "DE", "DE123")
            assert not is_reverse_charge("DE", "FR", None)


        def test_legacy_name_matches():
            assert computeVatRate("NL") == vat_rate("NL")
    '''),
    "tests/test_invoice.py": _dedent('''
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
    '''),
    "docs/architecture.md": _dedent("""
        # Architecture

        The service is a plain Python package, `shop`, with one module per concern:

        - `catalog.py`: products and their categories.
        - `pricing.py` and `cart.py`: what the buyer pays before tax.
        - `vat.py`: rates per country and category; the reverse-charge rule.
        - `invoice.py`: invoices built from a cart, numbered per year.
        - `orders.py`: the order flow; `payments.py` talks to Stripe.
        - `accounts.py`: sign-up and activation.

        Secrets are read from the environment (`.env` in development, never committed).
        The vendored `taxlib` in `vendor/` is a frozen copy kept for the old reports.
    """),
}
