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
