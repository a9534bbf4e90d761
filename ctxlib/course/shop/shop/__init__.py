"""The shop service: catalog, cart, pricing, VAT, invoices, orders."""
