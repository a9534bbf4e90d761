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
