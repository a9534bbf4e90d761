"""Code exercises in the learntools style: ``q.check(answer)``, ``q.hint()``, ``q.solution()``.

In a notebook::

    q = exercise("01_window_as_budget", "own_scorer", LANG)
    def my_score(name, text, terms): ...      # the learner's code
    q.check(my_score)

A code question in a quiz file names a checker, ``"ctxlib.course.checks.lesson1:scorer_cases"``: a
function returning the cases to run, each with its expected value computed by ctxlib itself (the
lesson's scorer, the ceiling arithmetic), never a typed constant, so an exercise cannot drift from
the library. The checkers live one module per lesson in ``ctxlib.course.checks`` (as learntools keeps
one file per exercise set); this module is the engine. ``run_cases`` sorts the learner's answer into
one of four outcomes:

    passed          every case gave ctxlib's value ("All 9 checks passed.")
    failed          a case gave another value, or the answer changed its input: says for which
                    input and how the result differs (type, length, order, which item, too high or
                    too low), never the expected value; one that printed, or wrote a body and
                    returned None, is told to return its result
    not attempted   the starter is unchanged: its code is the starter's and it returns None or ``...``
                    (printing nothing), or it raises NotImplementedError
    error           the learner's code raised: their exception and their line, not the checker's

A list and a tuple count as the same answer (the questions say "returns the indices", not which
sequence type), and so do 5, 5.0 and Decimal("5"); a bool is not a count. The learner's function
gets a deep copy of each case's arguments; if it changes that copy (sorts a list in place, pops
from it), the case fails, since a caller still needs its data.

The learner's calls, and a value answer's comparison, share a time limit (``timelimit.TIME_LIMIT_SECONDS`` for the
whole check; their results' own ``==``, deep copy and ``repr`` get what is left and a second): an endless loop is
stopped and named as an error, the cell does not hang (``course/timelimit.py`` says how, and what it cannot stop). What their code prints goes on to the notebook up to ``MAX_SHOWN_CHARS`` characters a check; the rest is
cut with one line saying so, so a print in a loop cannot flood the page; so is what it writes to stderr
(``print(..., file=sys.stderr)``, ``logging``).

Not handled: sandboxing (the learner's code runs in the notebook's own process, as it does anyway).
"""
from __future__ import annotations

import ast
import contextlib
import copy
import reprlib
import sys
import sysconfig
import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

from ctxlib.i18n import LANGS, N_, error_name, in_lang, message

from . import timelimit
from .compare import _answer_name, _as_now, _equal, _explained, _holds, _shown, _unchanged, shown_value  # noqa: F401 (shown_value: the engine's too)
from .progress import record_quietly
from .quiz import Question, load_quiz, question_text, resolve_checker

OUTCOMES = ("passed", "failed", "not attempted", "error")
# What check(), hint() and solution() print, as message ids; MESSAGES holds them translated (ctxlib.i18n).
MESSAGE_IDS = {
    "passed": N_("All {total} checks passed."),
    "passed_one": N_("The check passed."),  # a value exercise has one case
    "failed": N_("Not yet: {passed} of {total} checks passed. {about}, {name} returned {got}."),
    "failed_why": N_("Not yet: {passed} of {total} checks passed. {about}, {name} returned {got}: {why}."),
    "failed_value": N_("Not yet: {about}, {name} is {got}."),
    "failed_value_why": N_("Not yet: {about}, {name} is {got}: {why}."),
    "printed": N_("Not yet: {passed} of {total} checks passed. {about}, {name} printed something and returned None. A function hands its result back with return; print only shows it."),
    "no_return": N_("Not yet: {passed} of {total} checks passed. {about}, {name} returned None. Does it end with return? A function hands its result back with return."),
    "mutated": N_("Not yet: {passed} of {total} checks passed. {about}, {name} changed its input (argument {n}). Work on a copy: the caller still needs its data."),
    "not_callable": N_("Not yet: this exercise wants a function, e.g. q.check({name}); got {got}."),
    "starter": N_("Not attempted yet: your {name} still {does}, as the starter does. Write its body, run that cell, then check again."),
    "starter_value": N_("Not attempted yet: {name} is still ..., as in the starter. Put your answer in it, run that cell, then check again."),
    "untouched": N_("Not attempted yet: {name} still packs the lesson's own example, the sample project for the lesson's query ({passed} of {total} checks pass on it). Make it yours, run that cell, then check again."),
    "returns": N_("returns {got}"),
    "raises": N_("raises NotImplementedError"),
    "undefined": N_("Not attempted yet: there is no {name} in the notebook. Run the starter cell, or pass your answer: q.check({name})."),
    "error": N_("{about}, your code raised {error}"),
    "timeout": N_("{about}, your code was still running after {seconds} seconds, so the check stopped it. Is there a loop that never ends?"),
    "cut": N_("[the rest of what your code printed is not shown: more than {n} characters]"),
    "line": N_("  in {function}, line {lineno}: {line}"),
    "hint": N_("Hint {n} of {total}: {hint}"),
    "no_hint": N_("There are {total} hints; ask for 1 to {total}."),
    "no_more": N_("No more hints: you have seen all {total}. q.solution() shows the solution."),
    "solution": N_("Solution:"),
}
# How a wrong result differs from the right one, never saying the right one.
WHY_IDS = {
    "type": N_("it is a {got}, not a {wanted}"),
    "type_none": N_("it is None, not a {wanted}"),
    "order": N_("the right items, in the wrong order"),
    "item": N_("item {i} (counting from 0) differs"),
    "item_why": N_("item {i} (counting from 0): {why}"),
    "item_at": N_("item {i}"), "item_of": N_("item {i} of {outer}"),  # inside an item: "item 1 of item 0"
    "nested": N_("{where} (counting from 0) differs"), "nested_why": N_("{where} (counting from 0): {why}"),
    "high": N_("too high"),
    "low": N_("too low"),
    "char": N_("the right length, but it differs from character {i} on (counting from 0)"),
    "replacement": N_("it holds U+FFFD, a character cut in two"),
    "keys": N_("other keys than the right answer"),
}
MESSAGES = {lang: {key: message(msgid, lang) for key, msgid in (MESSAGE_IDS | WHY_IDS).items()} | {"lang": lang}
            for lang in LANGS}


_LIBRARY_DIRS = tuple({str(Path(__file__).parents[1])} | {sysconfig.get_path(k) for k in ("stdlib", "purelib", "platlib")})


@dataclass(frozen=True)
class Case:
    """One check: the arguments to call the answer with (``None``: the answer is a value), ctxlib's result, and how to name the inputs in each language."""

    args: tuple | None
    expected: object
    about: dict


@dataclass(frozen=True)
class CheckResult:
    """What ``run_cases`` found: the outcome, how many cases passed of how many, and the message to print."""

    outcome: str
    passed: int
    total: int
    message: str


@dataclass(frozen=True)
class Property:
    """An expected value that is a rule, not a value: ``holds(answer)`` says whether the answer keeps it.

    For exercises with more than one right answer (a capstone checked by properties); ``shown``
    words what the answer gave for the failure message, e.g. ``"2,114 tokens"``, or returns
    ``describe(...)`` when the words need translating.
    """

    holds: object
    shown: object = reprlib.repr
    untouched: object = None  # answer -> True while it is still the lesson's own default (not attempted)


def describe(msgid: str, **params) -> dict:
    """A case's ``about`` in every language: ``describe(N_("for text {text}"), text="'ab'")`` -> ``{"en": ..., "hi": ...}``.

    ``msgid`` is a catalog id (mark it with ``N_`` where it is written, so the catalogs see it);
    ``params`` are filled in as they are, so pass reprs and formatted numbers.
    """
    return {lang: message(msgid, lang, **params) for lang in LANGS}


def _same(got, expected) -> bool:
    if isinstance(expected, Property):
        try:
            return bool(expected.holds(got))
        except Exception:  # a malformed answer breaks the rule; it is not the checker's error
            return False
    try:
        return _equal(got, expected, depth=0)
    except Exception:  # an answer whose == or len raises is not equal to anything
        return False


MAX_SHOWN_CHARS = 20_000  # of what the learner's code prints in one check; a print in a loop could flood the page


class _PrintWatch:
    """``sys.stdout`` while the learner's code runs: writes go on to the real stream, and are noted.

    At most ``MAX_SHOWN_CHARS`` characters a check go on; then one line (``cut``, in the learner's language) says
    the rest is not shown."""

    def __init__(self, stream, cut: str = "", errors=None):
        self.stream, self.written, self.left, self.cut = stream, False, MAX_SHOWN_CHARS, cut
        self.errors = errors  # the watch on sys.stderr, capped the same way (its writes are not "printed")

    def write(self, text):
        self.written = self.written or bool(text)
        shown, self.left = text[:max(self.left, 0)], self.left - len(text)
        if shown:
            self.stream.write(shown)
        if self.left < 0 and self.cut:
            self.stream.write("\n" + self.cut + "\n")
            self.cut = ""
        return len(text)

    def __getattr__(self, name):  # flush, encoding, isatty...: the real stream's
        return getattr(self.stream, name)


def _call(answer, given, watch: _PrintWatch):
    if given is None:
        return answer
    with contextlib.ExitStack() as watching:  # no stdout or stderr at all (pythonw): nothing to watch there
        if watch.stream is not None:
            watching.enter_context(contextlib.redirect_stdout(watch))
        if watch.errors is not None and watch.errors.stream is not None:  # print(..., file=sys.stderr), logging
            watching.enter_context(contextlib.redirect_stderr(watch.errors))
        return answer(*given)


def _timed_call(answer, given, watch: _PrintWatch, expected, deadline: float):
    """The learner's result for ``given`` and whether it equals ``expected``: both under the time limit that is left
    (their result's own ``==`` or ``len`` is their code too). A value (``given`` None) is compared under it too: a
    list of theirs whose ``__len__`` never returns hung the cell. A ``Property`` only in the traced way, which stops
    their code and not ctxlib's: a capstone's property packs a repository with ctxlib's own code."""
    traced = given is None and isinstance(expected, Property)
    with timelimit.time_limit(deadline - time.monotonic(), _LIBRARY_DIRS, traced=traced):
        if given is None:
            return answer, _same(answer, expected)
        got = _call(answer, given, watch)
        return got, _same(got, expected)


def _their_error(exc: BaseException, msgs: dict, lang: str = "en") -> str:
    """The learner's exception (ctxlib's own worded in ``lang``) and the deepest line of their own code in its traceback."""
    try:
        said = in_lang(exc, lang)  # ctxlib's own errors have text(lang): WordedError, WordedTypeError
    except Exception:  # noqa: BLE001  an exception whose __str__ fails, or holds an int too long for str
        said = ""
    lines = [f"{error_name(exc)}: {said}" if said else error_name(exc)]
    frames = traceback.extract_tb(exc.__traceback__)[1:]  # frame 0 is run_cases calling them
    theirs = [f for f in frames if not f.filename.startswith(_LIBRARY_DIRS)]
    if theirs:
        f = theirs[-1]
        lines.append(msgs["line"].format(function=f.name, lineno=f.lineno, line=(f.line or "").strip()))
    return "\n".join(lines)


def run_cases(answer, cases: list[Case], lang: str = "en", name: str = "your function", starter: str | None = None) -> CheckResult:
    """Run the learner's ``answer`` on every case and decide the outcome.

    Args:
        answer: the learner's function (or value, for cases with ``args=None``); ``None`` means no answer.
        cases: from the exercise's checker; expected values computed by ctxlib.
        lang: language of the message ("en" or "hi"); name: what to call the answer in messages.
        starter: the exercise's starter code: a function returning None whose code is not the starter's was
            written and forgot ``return`` (failed, and told so), not left untouched (not attempted).
    Returns:
        a ``CheckResult``. "passed" only if every case passed; on "failed" the message names the
        first failing case's inputs and what the answer gave, never the expected value.
    Raises:
        nothing from the learner's code: its exceptions become the "error" outcome.
    """
    msgs, total = MESSAGES[lang], len(cases)
    starter_defines, name = name, _answer_name(answer, name)
    if answer is Ellipsis:  # a value exercise's starter: ``predicted = ...``
        return CheckResult("not attempted", 0, total, msgs["starter_value"].format(name=name))
    if answer is None and any(c.args is not None for c in cases):  # a value of None is a value: x = xs.append(...)
        return CheckResult("not attempted", 0, total, msgs["starter"].format(name=name, does=msgs["returns"].format(got=answer)))
    if not callable(answer) and any(c.args is not None for c in cases):
        return CheckResult("failed", 0, total, msgs["not_callable"].format(name=name, got=shown_value(answer)))
    rules = [c.expected for c in cases if isinstance(c.expected, Property) and c.expected.untouched is not None]
    try:  # their answer's own code (a dict's __getitem__) runs in the rule too; ctxlib's does not count (traced)
        with timelimit.time_limit(timelimit.TIME_LIMIT_SECONDS, _LIBRARY_DIRS, traced=True):
            untouched = bool(rules) and any(_holds(rule.untouched, answer) for rule in rules)
    except timelimit.TimeLimitReached:
        return _timed_out(cases[0], 0, total, msgs, lang)
    if untouched:
        plain = [Case(c.args, replace(c.expected, untouched=None) if isinstance(c.expected, Property) else c.expected,
                      c.about) for c in cases]
        checked = run_cases(answer, plain, lang, name)
        return CheckResult("not attempted", checked.passed, total,
                           msgs["untouched"].format(name=name, passed=checked.passed, total=total))
    passed, first_failure, no_return = 0, None, False
    cut = msgs["cut"].format(n=f"{MAX_SHOWN_CHARS:,}")
    watch = _PrintWatch(sys.stdout, cut, _PrintWatch(sys.stderr, cut))
    deadline = time.monotonic() + timelimit.TIME_LIMIT_SECONDS
    for i, case in enumerate(cases):
        given = None if case.args is None else copy.deepcopy(case.args)
        watch.written = False
        try:
            got, same = _timed_call(answer, given, watch, case.expected, deadline)
            with _their_objects(deadline):  # their ==, deepcopy (for the message) and repr are their code too
                changed = next((n for n, (a, b) in enumerate(zip(case.args or (), given or ()), 1) if not _unchanged(a, b)), None)
                now = _as_now(got) if first_failure is None and not (changed is None and same) else None
        except timelimit.TimeLimitReached:
            return _timed_out(case, passed, total, msgs, lang)
        except NotImplementedError:
            if i == 0:
                return CheckResult("not attempted", 0, total, msgs["starter"].format(name=name, does=msgs["raises"]))
            got = now = NotImplementedError  # a failed case (same was the case before's: it counted as passed)
            same, changed = False, None
        except (Exception, SystemExit) as exc:  # the learner's bug, reported as theirs (exit() too)
            about = _capital(case.about[lang])
            return CheckResult("error", passed, total, msgs["error"].format(about=about, error=_their_error(exc, msgs, lang)))
        if i == 0 and (got is None or got is Ellipsis) and not watch.written and case.args is not None:
            no_return = _written(answer, starter, starter_defines)  # a body written, and no return in it
            if not no_return:
                return CheckResult("not attempted", 0, total, msgs["starter"].format(name=name, does=msgs["returns"].format(got=got)))
        if changed is None and same:
            passed += 1
        elif first_failure is None:  # as it is now: a list kept outside the function grows with the later calls
            first_failure = (case, now, changed, watch.written, no_return)
    if first_failure is None:
        return CheckResult("passed", passed, total, msgs["passed" if total != 1 else "passed_one"].format(total=total))
    try:
        with _their_objects(deadline):
            return _failed(first_failure, passed, total, msgs, lang, name)
    except timelimit.TimeLimitReached:  # a __repr__ of theirs that never returns: as their call's endless loop
        return _timed_out(first_failure[0], passed, total, msgs, lang)


def _timed_out(case: Case, passed: int, total: int, msgs: dict, lang: str) -> CheckResult:
    return CheckResult("error", passed, total, msgs["timeout"].format(
        about=_capital(case.about[lang]), seconds=f"{timelimit.TIME_LIMIT_SECONDS:,}"))


def _their_objects(deadline: float):
    """The time limit on the learner's objects after their call returned: what is left of the check's, and a second."""
    return timelimit.time_limit(max(deadline - time.monotonic(), 0.0) + 1, _LIBRARY_DIRS)


def _failed(first_failure, passed: int, total: int, msgs: dict, lang: str, name: str) -> CheckResult:
    """The "failed" result for the first failing case: ``(case, result as it was, changed argument, printed,
    a body written with no return)``."""
    case, got, changed, printed, no_return = first_failure
    about = _capital(case.about[lang])
    if changed is not None:
        return CheckResult("failed", passed, total, msgs["mutated"].format(
            passed=passed, total=total, about=about, name=name, n=changed))
    if got is None and (printed or no_return):  # print(result), or nothing, where return result was meant
        return CheckResult("failed", passed, total,
                           msgs["printed" if printed else "no_return"].format(passed=passed, total=total, about=about, name=name))
    if got is NotImplementedError:
        shown, why = "NotImplementedError", None
    elif isinstance(case.expected, Property):
        shown, why = _shown(case.expected, got, lang), None
    else:
        shown, why = shown_value(got), _explained(got, case.expected, msgs, spelled=case.args is not None)
    key = ("failed_value" if case.args is None else "failed") + ("_why" if why else "")
    return CheckResult("failed", passed, total, msgs[key].format(
        passed=passed, total=total, about=about, name=name, got=shown, why=why))


def _code_of(source: str, name: str = "f") -> bytes:
    defined: dict = {}
    exec(compile(source, "<starter>", "exec"), defined)  # ctxlib's own sources (a quiz file's starter), never a learner's
    return defined[name].__code__.co_code


# The bytecode of a body with nothing written in it (a docstring, ..., pass, return None, in any arrangement)
_EMPTY_BODIES = frozenset(_code_of(f"def f():\n{body}\n") for body in (
    "    pass", "    ...", "    return None", "    return", '    """d"""', '    """d"""\n    ...', '    """d"""\n    pass',
    '    """d"""\n    return None'))


def _written(answer, starter: str | None, name: str) -> bool:
    """Whether ``answer`` is a function with a body written in it: its code is neither an empty body's nor the
    starter's ``name``'s (a starter may hold a line or two of its own)."""
    code = getattr(getattr(answer, "__code__", None), "co_code", None)
    if starter is None or not isinstance(code, bytes) or code in _EMPTY_BODIES:
        return False
    try:
        return code != _code_of(starter, name)
    except Exception:  # noqa: BLE001  a starter that defines something else: judge by the result alone
        return False


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def starter_name(starter: str) -> str | None:
    """The name the starter code defines (its first ``def`` or assignment), e.g. ``"my_score"``."""
    for node in ast.parse(starter).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.name
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


_MISSING = object()


class Exercise:
    """One code question in a notebook: ``check``, ``hint`` and ``solution``, recording each check."""

    def __init__(self, question: Question, lang: str | None = None):
        if question.type != "code":
            raise ValueError(f"question {question.id!r} is {question.type}, not a code exercise; use show_quiz")
        self.question, self.lang = question, lang or question.lang
        self.name = starter_name(question.starter) or "answer"
        self.hints_shown, self.solution_viewed = 0, False

    def __repr__(self) -> str:
        # Where widgets cannot render (and for `q` alone in a cell) the exercise reads as plain text.
        return question_text(self.question)

    def run(self, answer) -> CheckResult:
        """Grade ``answer`` against the checker's cases without printing or recording."""
        return run_cases(answer, resolve_checker(self.question.checker)(), self.lang, self.name, self.question.starter)

    def check(self, answer=_MISSING) -> None:
        """Print the outcome for ``answer`` and record the attempt in the progress file.

        An unchanged starter ("not attempted") is printed but not recorded.

        Without an argument, the starter's name (``my_score``) is looked up in the notebook.
        """
        if answer is _MISSING:
            # The notebook's namespace as it is now (IPython may install its own __main__ after import).
            answer = getattr(sys.modules.get("__main__"), self.name, _MISSING)
        if answer is _MISSING:
            result = CheckResult("not attempted", 0, 0, MESSAGES[self.lang]["undefined"].format(name=self.name))
        else:
            result = self.run(answer)
        print(result.message)
        if result.outcome == "not attempted":
            # Running a lesson top to bottom checks the untouched starter; that is not an attempt
            # worth a line in the progress file (a question with no record reads "not attempted").
            return
        record_quietly(self.question.lesson, self.question.id, result.outcome, lang=self.lang,
                       hints_used=self.hints_shown, solution_viewed=self.solution_viewed)

    def hint(self, n: int | None = None) -> None:
        """Print hint ``n`` (1 = the first; default: the next one not yet shown)."""
        msgs, total = MESSAGES[self.lang], len(self.question.hints)
        if n is None and self.hints_shown >= total:
            print(msgs["no_more"].format(total=total))
            return
        n = self.hints_shown + 1 if n is None else n
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= total:
            print(msgs["no_hint"].format(total=total))
            return
        self.hints_shown = max(self.hints_shown, n)
        print(msgs["hint"].format(n=n, total=total, hint=self.question.hints[n - 1]))

    def solution(self) -> None:
        """Print the solution and the explanation; recorded, so the instructor's report can show it."""
        self.solution_viewed = True
        print(f"{MESSAGES[self.lang]['solution']}\n{self.question.solution.rstrip()}\n\n{self.question.explanation}")
        record_quietly(self.question.lesson, self.question.id, None, lang=self.lang,
                       hints_used=self.hints_shown, solution_viewed=True)


def exercise(lesson: str, question_id: str, lang: str = "en") -> Exercise:
    """The code exercise ``question_id`` of ``lesson`` in ``lang``, e.g. ``exercise("01_window_as_budget", "own_scorer", "hi")``.

    Raises as ``ctxlib.course.quiz.load_quiz``, ``KeyError`` for an unknown id, ``ValueError`` if it is not a code question.
    """
    return Exercise(load_quiz(lesson, lang).question(question_id), lang)
