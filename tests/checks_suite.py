"""What every checker test file asserts: its wrong answers rejected, its right answers passed, nothing given away.

Imported by tests/test_checks_lesson*.py (pytest puts tests/ on the path).
"""
import copy
import re
import reprlib

from ctxlib.course.exercises import run_cases


def rejected(answer, cases, lang="en"):
    """The result for a wrong answer: it must not pass, and its message must not hold the expected value."""
    result = run_cases(answer, cases, lang)
    assert result.outcome in ("failed", "error"), f"accepted: {result.message}"
    case = next((c for c in cases if c.about[lang][:1].upper() + c.about[lang][1:] in result.message), None)
    assert case is not None, f"the message names no case: {result.message}"
    about = case.about[lang][:1].upper() + case.about[lang][1:]
    after = result.message.split(about, 1)[1]
    shown, theirs = reprlib.repr(case.expected), _their_value(answer, case)
    if len(shown) >= 3 and shown not in about and shown != theirs:  # short values (0, []) may be counts
        # The answer's own value is shown as it is, even when the right one is inside it ('108', (right, 73)).
        after = after.replace(theirs, "", 1) if theirs else after
        found = re.search(r"(?<![\w.])" + re.escape(shown) + r"(?![\w])", after)  # 0.0 is not in 0.098
        assert not found, f"gives the expected value away: {result.message}"
    return result


def accepted(answer, cases):
    result = run_cases(answer, cases)
    assert result.outcome == "passed", result.message
    return result


def _their_value(answer, case):
    """How the answer's own result for ``case`` is shown (the same text as the expected value when truncated alike)."""
    try:
        return reprlib.repr(answer if case.args is None else answer(*copy.deepcopy(case.args)))
    except Exception:
        return None
