"""Fake credentials for the sweep tests: random, of the right length and alphabet, the same on every run."""
import random
import string

ALNUM = string.ascii_letters + string.digits


def mixed_faker(rnd: random.Random):
    """``fake(n, alphabet=ALNUM)`` drawing from ``rnd`` (the test module's own, seeded): ``n`` characters of
    ``alphabet``, with a digit and letters of both cases among them when the alphabet has them (a value a
    shape rule would take)."""

    def fake(n, alphabet=ALNUM):
        needs = [kind for kind in (str.isdigit, str.islower, str.isupper) if any(kind(c) for c in alphabet)]
        while True:
            value = "".join(rnd.choice(alphabet) for _ in range(n))
            if all(any(kind(c) for c in value) for kind in needs):
                return value

    return fake


UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN, HEX, URL = UP + LO + DG, "0123456789abcdef", UP + LO + DG + "-_"


def sweep_fakers(rnd: random.Random):
    """``(rs, mixed, uid)`` drawing from ``rnd`` (the test module's own, seeded), for the ninth and later sweeps:
    ``rs(chars, n)``, ``n`` characters of ``chars``; ``mixed(chars, n)``, the same with each of capitals, small
    letters and digits that ``chars`` holds; ``uid()``, a version-4 UUID in small hex."""

    def rs(chars: str, n: int) -> str:
        return "".join(rnd.choice(chars) for _ in range(n))

    def mixed(chars: str, n: int) -> str:
        while True:
            s = rs(chars, n)
            if all(any(c in s for c in group) for group in (UP, LO, DG) if any(c in chars for c in group)):
                return s

    def uid() -> str:
        return "%s-%s-4%s-%s%s-%s" % (rs(HEX, 8), rs(HEX, 4), rs(HEX, 3), rnd.choice("89ab"), rs(HEX, 3), rs(HEX, 12))

    return rs, mixed, uid
