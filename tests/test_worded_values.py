"""A worded error shows the learner's bad value bounded and never fails itself (round s41's hostile tester).

A value whose ``repr`` raises (a class's own ``__repr__``, a list nested 100,000 deep, an int of 100,000 digits, which
Python refuses to turn into text), or whose ``repr`` is 10 MB long, reached the message code as it was: the learner
saw their own class's RuntimeError, a RecursionError or "Exceeds the limit (4300 digits) for integer string conversion"
from ctxlib's own line, or a 10 MB message. ``i18n.shown`` is the value as a message shows it: at most a few hundred
characters, and never an exception.
"""
from __future__ import annotations

import pytest

from ctxlib import ceiling, cost, fit, ledger, overflow, packing, ranking, removal, scoring, tokens, transcript, views
from ctxlib.i18n import WordedError, WordedTypeError, shown


class _LoudRepr:
    def __repr__(self):
        raise RuntimeError("a learner's __repr__ failed")


class _LoudInt(int):
    def __repr__(self):
        raise RuntimeError("a learner's __repr__ failed")


def _deep(n: int = 100_000) -> list:
    value: list = []
    for _ in range(n):
        value = [value]
    return value


HOSTILE = {"repr raises": _LoudRepr(), "int whose repr raises": _LoudInt(-1), "nested 100,000 deep": _deep(),
           "int of 100,000 digits": -10 ** 100_000, "10 MB string": "x" * 10_000_000}

CALLS = {
    "packing.check_budget": packing.check_budget,
    "ceiling.check_tokens": lambda v: ceiling.check_tokens("patch_tokens", v),
    "ceiling.check_attempts": ceiling.check_attempts,
    "ceiling.route": ceiling.route,
    "ledger.percentile": lambda v: ledger.percentile([1, 2], v),
    "ledger.percentile values": lambda v: ledger.percentile([1, v], 50),
    "ledger.round_to": lambda v: ledger.round_to(1_000, v),
    "cost.Pricing": lambda v: cost.Pricing("mine", v, 1.25),
    "views.line_ranges": lambda v: views.line_ranges([3], 10, context=v),
    "removal.make_block": lambda v: removal.make_block(v, 5, "a memo"),
    "tokens.count_tokens encoding": lambda v: tokens.count_tokens("x", v),
    "fit.rank": lambda v: fit.rank({"a.py": "x"}, "x", scorer=v),
    "fit.pack_files": lambda v: fit.pack_files({"a.py": "x"}, "x", 100, strategy=v),
    "ranking.clean_query": ranking.clean_query,
    "scoring.clean_terms": lambda v: scoring.clean_terms(["discount", v]),
    "overflow.Run": lambda v: overflow.Run(steps=[overflow.Step(v, 10)]),
    "transcript.simulate": lambda v: transcript.simulate(transcript.Loop(passes_on_attempt=v)),
}


@pytest.mark.parametrize("value_name", list(HOSTILE))
@pytest.mark.parametrize("call_name", list(CALLS))
def test_a_hostile_value_gives_a_bounded_worded_error(call_name, value_name):
    try:
        CALLS[call_name](HOSTILE[value_name])
    except (WordedError, WordedTypeError) as exc:
        for text in (str(exc), exc.text("hi")):
            assert len(text) < 2_000, text[:300]
    # Anything else (the learner's RuntimeError, RecursionError, Python's int-digits ValueError) fails the test.


def test_shown_is_repr_when_it_is_short_and_bounded_otherwise():
    assert shown(-5) == "-5" and shown("gpt2") == "'gpt2'" and shown(("fix", "a.py")) == "('fix', 'a.py')"
    assert shown(2000.0) == "2000.0" and shown([1, 2, 3]) == "[1, 2, 3]"
    long = shown("x" * 10_000_000)
    assert long.startswith("'xxx") and len(long) < 300 and "(10,000,000 characters)" in long
    assert "about 100,001 digits" in shown(-10 ** 100_000)
    assert "_LoudRepr" in shown(_LoudRepr()) and "_LoudInt" in shown(_LoudInt(3))
    assert len(shown(_deep())) < 300
