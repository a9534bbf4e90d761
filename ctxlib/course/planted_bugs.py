"""Real diagnostics: the sample shop project with planted bugs, and its real pytest output.

Lesson 2, "Six occupants, one window": a failing test run emits its tracebacks first and its
summary line last, and its size grows with the failures. ``PLANTED`` holds four broken copies
of ``ctxlib/course/shop/`` (one, two and three independent bugs, and one bad signature that
breaks every caller); ``diagnostics(name)`` copies the project to a temporary folder, patches
the copy, runs the real ``pytest`` on it in a subprocess (``sys.executable -m pytest``, no
network, no plugins but pytest's own) and returns its output with what varies between runs
stripped: durations, the temporary folder's path, memory addresses.

``shop/`` itself is never changed: every patch is applied to a copy, at run time. In the
browser build (Pyodide has no subprocesses) the same pytest, with the same options, runs inside
the kernel's own interpreter instead (``_pytest_in_process``).
Not handled: pytest versions whose output format differs (the lesson's saved outputs are
pytest 9's).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ctxlib.i18n import N_

from .sample_project import build_sample_project

# (file, exact text, replacement): each bug is one small edit an agent's attempt might make.
_REVERSE_CHARGE = ("shop/vat.py", "return bool(buyer_vat_id) and seller_country.upper()",
                   "return seller_country.upper()")
_COUPON_SPACES = ("shop/pricing.py", "COUPONS.get(code.strip().upper())", "COUPONS.get(code.upper())")
_INVOICE_NUMBER = ("shop/invoice.py", "int(last_number.split('-')[1]) + 1", "int(last_number.split('-')[1]) + 2")
_BAD_SIGNATURE = ("shop/money.py", "def round_cents(amount: Decimal) -> Decimal:",
                  "def round_cents(amount: Decimal, places: int) -> Decimal:")

# Keys are message ids: a lesson shows them with message(name, lang).
PLANTED = {
    N_("one failure"): (_REVERSE_CHARGE,),
    N_("two failures"): (_REVERSE_CHARGE, _COUPON_SPACES),
    N_("three failures"): (_REVERSE_CHARGE, _COUPON_SPACES, _INVOICE_NUMBER),
    N_("cascade from one bad signature"): (_BAD_SIGNATURE,),
}


def plant(dest, name: str) -> Path:
    """Copy the sample project into ``dest`` and apply the patches of ``PLANTED[name]``.

    Returns the project's path. Raises: KeyError for an unknown name (the message lists the
    known ones); ValueError if a patch's text is not found exactly once in its file.
    """
    if name not in PLANTED:
        raise KeyError(f"no planted bug {name!r}; known: {', '.join(PLANTED)}")
    root = build_sample_project(dest)
    for relative, old, new in PLANTED[name]:
        path = root / relative
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise ValueError(f"{relative}: expected {old!r} once, found it {text.count(old)} times")
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root


_DURATION = re.compile(r" in \d+(\.\d+)?s( \(\d+:\d\d:\d\d\))?")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def normalize(output: str, root) -> str:
    """pytest's output with what varies between runs removed.

    ``root``'s path becomes ``<project>``, durations (" in 3.74s") go, memory addresses
    become ``0x...``. Example: "== 1 failed, 12 passed in 3.74s ==" -> "== 1 failed, 12 passed ==".
    """
    text = output.replace(str(root), "<project>")
    text = _ADDRESS.sub("0x...", text)
    return "\n".join(_DURATION.sub("", line) for line in text.splitlines()) + "\n"


def run_pytest(root, timeout_seconds: float = 300) -> str:
    """Run the real pytest on the project at ``root`` and return its normalized output.

    ``sys.executable -m pytest -p no:cacheprovider --color=no -q`` with ``COLUMNS=80`` (so the
    separator lines have one width), third-party plugins off, no bytecode written, and ``CI`` and
    ``BUILD_NUMBER`` unset (pytest prints untruncated assertion details when either is set).
    Raises: RuntimeError if pytest could not run the tests at all (exit status 2 to 5),
    naming the status and the last line it printed; subprocess.TimeoutExpired after
    ``timeout_seconds``.
    """
    if sys.platform == "emscripten":
        code, stdout = _pytest_in_process(root)
        if code not in (0, 1):
            raise RuntimeError(f"pytest exited with status {code}: {(stdout.strip().splitlines() or ['(no output)'])[-1]}")
        return normalize(stdout, root)
    env = {**os.environ, "COLUMNS": "80", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "NO_COLOR": "1"}
    # pytest stops truncating assertion details when CI or BUILD_NUMBER is set, which would
    # change the counts on a CI machine; the lesson measures what a developer's run prints.
    for name in ("PYTEST_ADDOPTS", "CI", "BUILD_NUMBER"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--color=no",
                           "-q"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout_seconds)
    if done.returncode not in (0, 1):
        last = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["(no output)"]
        raise RuntimeError(f"pytest exited with status {done.returncode}: {last[0]}")
    return normalize(done.stdout, root)


def _pytest_in_process(root) -> tuple[int, str]:
    # The browser build: pytest.main in this interpreter, from root, output captured; sys-level
    # capture (Pyodide has no file descriptors to redirect); the project's modules are forgotten
    # afterwards, so the next planted copy is imported afresh.
    import contextlib
    import io

    import pytest

    cwd, path, columns = os.getcwd(), list(sys.path), os.environ.get("COLUMNS")
    saved = {name: os.environ.pop(name) for name in ("CI", "BUILD_NUMBER", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")
             if name in os.environ}
    out = io.StringIO()
    os.environ["COLUMNS"] = "80"
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # as run_pytest's subprocess: no third-party plugins
    try:
        os.chdir(root)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = pytest.main(["-p", "no:cacheprovider", "--color=no", "-q", "--capture=sys"])
    finally:
        os.chdir(cwd)
        sys.path[:] = path
        os.environ.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
        os.environ.update(saved)  # set back what run_pytest's subprocess never sees either
        if columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = columns
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", None) or "").startswith(str(root)):
                del sys.modules[name]
    return int(code), out.getvalue()


def diagnostics(name: str) -> str:
    """The normalized pytest output of the sample project with ``PLANTED[name]`` applied.

    Works in a temporary folder, removed afterwards. Same pytest version, same text.
    Raises: as ``plant`` and ``run_pytest``.
    """
    with tempfile.TemporaryDirectory(prefix="ctxlib-planted-") as folder:
        return run_pytest(plant(Path(folder) / "shop", name))


def summary_line(output: str) -> str:
    """The last line of a pytest run, e.g. "==== 2 failed, 11 passed, 1 xfailed ====", stripped of "="."""
    return output.strip().splitlines()[-1].strip("= ")
