"""A time limit on the learner's code in ``q.check``: an endless loop is stopped and named, the cell does not hang.

``run_cases`` (``course/exercises.py``) runs each call of the learner's function inside ``time_limit(seconds)``;
past the limit the call raises ``TimeLimitReached``, a ``BaseException`` as ``KeyboardInterrupt`` is, so the
learner's own ``except Exception:`` does not swallow it. Two ways to stop it, the first that works here:

- ``SIGALRM`` (``signal.setitimer``), in the main thread where a notebook's cells run, on a system with timer
  signals and while nothing else holds ``SIGALRM`` or the real-time timer. It stops a loop in the learner's code and
  a wait (``time.sleep``) alike. Once the limit has passed it fires again every 0.1 s, so code that goes on after
  its bare ``except:`` swallowed one stop meets the next.
- ``sys.settrace`` anywhere else (Pyodide in the browser has no timer signals; another thread; Windows): the clock is
  read at each line of the learner's own code (at each opcode before Python 3.12, where a loop on one line gives no
  line event after its first round; library code runs untraced, so it is not slowed), so a loop in their code stops; a single long call into library or C code (``time.sleep(10**6)``, a regular expression that
  backtracks for hours) is not interrupted.

Not handled: a loop whose own bare ``except:`` (or ``except BaseException``) swallows every stop raised inside it
(it would swallow the stop button's ``KeyboardInterrupt`` too), and in the traced way code that goes on after it
swallowed the one stop; and a sandbox: the learner's code runs in the notebook's process, as it does anyway.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from pathlib import Path

TIME_LIMIT_SECONDS = 20  # for all the calls of one check together; the slowest right answer takes well under 1 s
_AGAIN_SECONDS = 0.1
_LIBRARY = str(Path(__file__).parents[1])  # ctxlib itself: its code runs untraced in the settrace way
# Before Python 3.12 a loop on one line ("while True: pass") gives no line event after its first round: its learner's
# code is then traced by opcode (slower, and only in the traced way).
_BY_OPCODE = sys.version_info < (3, 12)


class TimeLimitReached(BaseException):
    """The learner's code ran past the check's time limit (a ``BaseException``: ``except Exception`` does not catch it)."""


def _signals_usable() -> bool:
    if sys.platform in ("emscripten", "wasi") or not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        return (signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN)
                and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    except (OSError, ValueError):
        return False


def _stop(signum, frame):
    raise TimeLimitReached


@contextlib.contextmanager
def _by_signal(seconds: float):
    previous = signal.signal(signal.SIGALRM, _stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001), _AGAIN_SECONDS)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)  # first the timer, then the handler: no alarm reaches the default one
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _by_trace(seconds: float, skip: tuple[str, ...]):
    deadline = time.monotonic() + seconds

    def on_line(frame, event, arg):
        if time.monotonic() > deadline:
            raise TimeLimitReached
        return on_line

    def on_call(frame, event, arg):
        if frame.f_code.co_filename.startswith(skip):
            return None  # library code: not traced line by line
        frame.f_trace_opcodes = _BY_OPCODE
        return on_line(frame, event, arg)

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        yield
    finally:
        sys.settrace(previous)


def time_limit(seconds: float, skip: tuple[str, ...] = (_LIBRARY,), traced: bool = False):
    """A context in which code raises ``TimeLimitReached`` once it has run ``seconds``; ``skip``: folders whose code
    the traced way does not read the clock in (the signal way stops anything); ``traced``: the traced way even where
    signals work, so that a long run of the library's own code (a pack of a big repository) is not stopped."""
    return _by_signal(seconds) if _signals_usable() and not traced else _by_trace(seconds, skip)
