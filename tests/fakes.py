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
