#!/usr/bin/env python3
"""Set up the course and run it: the only two commands a learner needs.

    python3 run.py lab        set everything up, then open the lessons in JupyterLab
    python3 run.py test       set everything up, then run every test (unit tests and nbval)

and one for maintainers:

    python3 run.py notebooks  re-execute every lesson notebook in a fresh kernel and save it

Setting up means: a virtual environment in ``.venv/`` beside this file, with ctxlib and
its test tools installed into it (editable). It is made once and reused; delete ``.venv/``
to start again. Standard library only, so it runs on a fresh Python >= 3.10.
"""
from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".ctxlib-installed"


def say(message: str) -> None:
    print(f"[run.py] {message}", flush=True)


def setup() -> None:
    """Create ``.venv`` and install ctxlib with its test extra, unless pyproject.toml is unchanged since."""
    if sys.version_info < (3, 10):
        sys.exit(f"run.py: ctxlib needs Python 3.10 or newer, this is {sys.version.split()[0]}")
    if not PY.exists():
        say(f"creating a virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    if STAMP.exists() and STAMP.read_bytes() == pyproject:
        return
    say("installing ctxlib and its dependencies (about a minute the first time)")
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"], check=True)
    STAMP.write_bytes(pyproject)


def lab(extra: list[str]) -> int:
    setup()
    say("opening JupyterLab; start with lessons/en/ or lessons/hi/ (Ctrl+C here to stop)")
    return subprocess.call([str(PY), "-m", "jupyterlab", f"--notebook-dir={ROOT}",
                            "lessons/en/01_window_as_budget.ipynb", *extra], cwd=ROOT)


def test(extra: list[str]) -> int:
    setup()
    return subprocess.call([str(PY), "-m", "pytest", "tests", "lessons", "--nbval",
                            "--nbval-current-env", "-p", "no:cacheprovider", *extra], cwd=ROOT)


def notebooks(extra: list[str]) -> int:
    setup()
    return subprocess.call([str(PY), str(ROOT / "tools" / "execute_notebooks.py"), *(extra or ["lessons"])], cwd=ROOT)


COMMANDS = {"lab": lab, "test": test, "notebooks": notebooks}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
