"""How a learner's result is compared with ctxlib's, and how a wrong one is shown: the words of ``q.check``.

``course/exercises.py`` runs the learner's answer on each case; this module decides whether what came back
equals the expected value (``_equal``: a list and a tuple are one kind, and a numpy array, a dict's view or a deque
is the list it holds; 5 and 5.0 one value, a bool is not a count), and says how a wrong one differs without giving
the right one away (``_why``: too high, the wrong order, item 2, 4 items where fewer are right). ``shown_value``
shows what the answer gave, as ``reprlib`` does, and never raises: an int too long for ``str`` (Python refuses
past 4,300 digits) made ``q.check`` raise. The words come from the exercise's messages (``msgs``,
``exercises.MESSAGES``), in the learner's language.
"""
from __future__ import annotations

import collections
import copy
import decimal
import math
import numbers
import reprlib
import sys
from pathlib import PurePath

from ctxlib.i18n import message_n


def _count_why(got_len: int, expected_len: int, unit: str, lang: str) -> str:
    """``"4 items, more than the right answer has"`` (or characters, or fewer), singular for 1."""
    if unit == "items" and got_len > expected_len:
        return message_n("{n} item, more than the right answer has", "{n} items, more than the right answer has", got_len, lang)
    if unit == "items":
        return message_n("{n} item, fewer than the right answer has", "{n} items, fewer than the right answer has", got_len, lang)
    if got_len > expected_len:
        return message_n("{n} character, more than the right answer has", "{n} characters, more than the right answer has",
                         got_len, lang)
    return message_n("{n} character, fewer than the right answer has", "{n} characters, fewer than the right answer has",
                     got_len, lang)


class _ShortRepr(reprlib.Repr):
    """reprlib's short form, for an int too long for ``str`` too (Python refuses past 4,300 digits)."""

    def repr_int(self, x, level):
        limit = sys.get_int_max_str_digits()
        if not limit or x.bit_length() < 3 * limit:  # 3 bits a digit is fewer than log2(10): str() works
            return super().repr_int(x, level)
        # The 18 first and 19 last digits, as reprlib shows a long int: ~x // 10**k has a short quotient.
        sign, x = ("-" if x < 0 else ""), abs(x)
        digits = int(x.bit_length() * 0.30102999566398120)  # log10(2): the digit count, or one short of it
        digits += x >= 10 ** digits
        lead = 18 - len(sign)  # reprlib keeps 18 characters of the start, the sign one of them
        return f"{sign}{x // 10 ** (digits - lead)}...{x % 10 ** 19:019d}"


def shown_value(value) -> str:
    """``value`` as a failure message shows it: ``reprlib.repr``'s short form, never an exception.

    ``shown_value(10 ** 5000)`` -> ``"100000000000000000...0000000000000000000"`` (``repr`` raises there);
    a value whose repr fails reads as its type, ``"<Foo instance at 0x...>"``.
    """
    try:
        return _ShortRepr().repr(value)
    except Exception:  # noqa: BLE001  a learner's object may break anything reprlib calls
        return f"<{type(value).__name__}>"


# Ordered collections that hold a sequence's items as a list does: a dict's views keep insertion order
# ({path: text ...}.keys() is the paths in order), and a deque is a list with two ends. Not a set (no order),
# and not a generator or map (used up by one reading: a caller who reads the result twice gets nothing).
_ORDERED = (type({}.keys()), type({}.values()), type({}.items()), collections.deque)


def _plain(value):
    """A numpy array as the list it holds (``tolist``: numpy's numbers and strings become Python's, a 2-D array a list
    of lists), a numpy scalar as its Python value (``list(array)`` holds ``numpy.str_``), a path (``Path``) as its text
    with "/", a dict's view or a deque as the list of its items; anything else as it is. numpy is not imported for it:
    a learner who used it has it loaded."""
    if isinstance(value, _ORDERED):
        return list(value)
    if type(value).__module__ == "numpy" and type(value).__name__ != "matrix":
        try:
            return value.tolist() if type(value).__name__ == "ndarray" else value.item()
        except Exception:  # noqa: BLE001  an array of objects whose conversion fails stays an array: another kind
            return value
    if isinstance(value, PurePath):
        return value.as_posix()
    return value


def _kind(value) -> str:
    """The kind of value a question asks for: list and tuple are one kind, int and float another."""
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, (numbers.Real, decimal.Decimal)) and not isinstance(value, bool):  # Decimal: an exact bill
        return "number"
    if isinstance(value, (set, frozenset)):
        return "set"
    return type(value).__name__


def _equal(got, expected, depth: int) -> bool:
    got, kind = _plain(got), _kind(expected)
    if isinstance(got, str) and isinstance(expected, str) and got.startswith("./") and not expected.startswith("./"):
        got = PurePath(got).as_posix()  # "./tests/x.py" names tests/x.py, as Path("./tests/x.py") does
    if kind != _kind(got) or depth > 20:
        return False
    if kind == "number":  # by value (5 == 5.0); a bool is not a count, even though True == 1
        try:
            return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-9)
        except OverflowError:  # an int past a float's range: not close to anything a check expects
            return got == expected
    if kind == "list":
        return len(got) == len(expected) and all(_equal(g, e, depth + 1) for g, e in zip(got, expected))
    if isinstance(expected, dict):
        return got.keys() == expected.keys() and all(_equal(got[k], expected[k], depth + 1) for k in expected)
    return type(got) is type(expected) and got == expected


def _why(got, expected, msgs: dict, depth: int = 0, spelled: bool = True) -> str | None:
    """How ``got`` differs from ``expected``, in words that do not give ``expected`` away (None: no words for it).

    A difference inside an item is named by where it is: "item 1 of item 0 (counting from 0): too low" (the
    second number of the first range), not "item 0 (counting from 0): item 1 (counting from 0): too low".
    ``spelled`` False: a text is not measured against the right one (its length, where it differs). A prediction
    names a few files: "item 0: 15 characters, fewer than the right answer has" left one name of four.
    """
    path, why = _difference(got, expected, msgs, depth, spelled)
    if not path:
        return why
    if len(path) == 1:
        return msgs["item_why"].format(i=path[0], why=why) if why else msgs["item"].format(i=path[0])
    where = msgs["item_at"].format(i=path[0])
    for i in path[1:]:
        where = msgs["item_of"].format(i=i, outer=where)
    return msgs["nested_why"].format(where=where, why=why) if why else msgs["nested"].format(where=where)


def _difference(got, expected, msgs: dict, depth: int, spelled: bool = True) -> tuple[tuple, str | None]:
    """Where ``got`` differs (the item indices, outermost first; ``()`` for the whole) and how, in words."""
    got = _plain(got)
    kind, got_kind = _kind(expected), _kind(got)
    if kind != got_kind:
        return (), msgs["type_none" if got is None else "type"].format(got=got_kind, wanted=kind)
    if kind == "number":
        return (), None if isinstance(got, float) and math.isnan(got) else msgs["high" if got > expected else "low"]
    if kind == "str" and not spelled:
        return (), None
    if kind == "str":
        if "\ufffd" in got and "\ufffd" not in expected:
            return (), msgs["replacement"]
        if len(got) != len(expected):
            return (), _count_why(len(got), len(expected), "characters", msgs["lang"])
        return (), msgs["char"].format(i=next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b))
    if kind == "list":
        if len(got) != len(expected):
            return (), _count_why(len(got), len(expected), "items", msgs["lang"])
        if _is_rearranged(got, expected):
            return (), msgs["order"]
        i = next(i for i, (g, e) in enumerate(zip(got, expected)) if not _equal(g, e, 0))
        path, inner = _difference(got[i], expected[i], msgs, depth + 1, spelled) if depth < 3 else ((), None)
        return (i, *path), inner
    if isinstance(expected, dict) and got.keys() != expected.keys():
        return (), msgs["keys"]
    return (), None


def _is_rearranged(got, expected) -> bool:
    """Whether ``got`` holds the same items as ``expected``, each as often, in another order."""
    left = list(expected)
    for item in got:
        match = next((i for i, e in enumerate(left) if _equal(item, e, 0)), None)
        if match is None:
            return False
        left.pop(match)
    return not left


def _explained(got, expected, msgs: dict, spelled: bool = True) -> str | None:
    try:
        return _why(got, expected, msgs, spelled=spelled)
    except Exception:  # a hostile answer (len or > raising) gets no explanation, only its value
        return None


def _answer_name(answer, default: str) -> str:
    """What to call the learner's answer in a message: the name of the function they passed (``my_score2``), else
    ``default``. A lambda or a callable object has no name worth showing, so it is called by ``default``."""
    try:
        name = getattr(answer, "__name__", None)
    except Exception:  # noqa: BLE001  an attribute dict's __getattr__ raises KeyError: it is a value, not a function
        name = None
    return name if isinstance(name, str) and name.isidentifier() and callable(answer) else default


def _holds(test, answer) -> bool:
    """``test(answer)`` as a bool; ``False`` if it raises (a malformed answer breaks the rule)."""
    try:
        return bool(test(answer))
    except Exception:
        return False


def _shown(rule, got, lang: str) -> str:
    """``got`` as the exercise's ``Property`` ``rule`` shows it in ``lang``, else as ``shown_value`` shows it."""
    try:
        shown = rule.shown(got)
        return str(shown[lang] if isinstance(shown, dict) and lang in shown else shown)  # describe(...): one per language
    except Exception:
        return shown_value(got)


def _as_now(got):
    """A deep copy of the learner's result, or the result itself if it cannot be copied (shown as it is at the end)."""
    try:
        return copy.deepcopy(got)
    except Exception:  # noqa: BLE001
        return got


def _unchanged(before, after) -> bool:
    try:
        return before == after
    except Exception:
        return False
