#!/usr/bin/env python3
"""Set up the course and run it: the only two commands a learner needs.

    python3 run.py lab        set everything up, then open the lessons in JupyterLab
    python3 run.py test       set everything up, then run every test (unit tests and nbval)

for teaching:

    python3 run.py present NOTEBOOK        show one lesson as a clean page with live controls (Voila)
    python3 run.py wheelhouse [DIR]        while online: save wheels for everything in DIR (default wheelhouse/)
    python3 run.py offline-install DIR     in the room, no internet: set up .venv from DIR's wheels only
    python3 run.py hub [--ip IP] [--port N] [--password P] [--room DIR]
                                           a JupyterHub for a room: each learner signs in with a name
                                           and the room's password and gets a home with the course
    python3 run.py hub-grade [--room DIR] [--csv OUT.csv]
                                           the class's grade table from the hub's homes

Options after ``lab`` go to JupyterLab (``python3 run.py lab --no-browser --port 8899``),
options after ``test`` to pytest (``python3 run.py test tests/test_tokens.py`` runs that file only;
with no file or folder named it runs ``tests`` and ``lessons``), options after the notebook to Voila.

and for maintainers:

    python3 run.py setup      only set up (lab, test and present do it first)
    python3 run.py notebooks  re-execute every lesson notebook in a fresh kernel and save it
    python3 run.py catalogs   extract, update and compile the message catalogs (Babel)

Setting up means: a virtual environment in ``.venv/`` beside this file, with ctxlib and
its test and presenting tools installed into it (editable), and the course's Jupyter settings
written into that environment (never into your home folder). It is made once and reused; delete
``.venv/`` to start again. Standard library only, so it runs on a fresh Python >= 3.10.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".ctxlib-installed"
# The optional extras from pyproject.toml: test (pytest, nbval, playwright) and present (voila).
COURSE = f"{ROOT}[test,present]"
# The build backend from pyproject.toml, and what it asks for to install editable, so that
# ctxlib itself can be installed from the wheelhouse without an index.
BUILD_BACKEND = ["hatchling>=1.24", "editables~=0.3"]


def say(message: str) -> None:
    print(f"[run.py] {message}", flush=True)


def make_venv() -> None:
    if sys.version_info < (3, 10):
        sys.exit(f"run.py: ctxlib needs Python 3.10 or newer, this is {sys.version.split()[0]}")
    if not PY.exists():
        say(f"creating a virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)


def setup(extra: list[str] | None = None) -> int:
    """Create ``.venv`` and install the course into it, unless pyproject.toml is unchanged since."""
    make_venv()
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    if not (STAMP.exists() and STAMP.read_bytes() == pyproject):
        say("installing ctxlib and its dependencies (about a minute the first time)")
        subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
        subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", COURSE], check=True)
        STAMP.write_bytes(pyproject)
    write_lab_settings()
    install_present_template()
    return 0


# JupyterLab's defaults for everyone using this environment (its "overrides.json"): no news
# pop-up over the first lesson and no update check, both of which would ask the internet.
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}


def write_lab_settings() -> Path:
    """Merge ``LAB_OVERRIDES`` into ``<.venv>/share/jupyter/lab/settings/overrides.json``; returns its path.

    Settings already in the file for other plugins are kept. A learner's own settings (in their
    home folder) still win over these defaults.
    """
    path = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        settings = {}
    for plugin, values in LAB_OVERRIDES.items():
        settings.setdefault(plugin, {}).update(values)
    text = json.dumps(settings, indent=2) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


# The presenting template (tools/present/): Voila's lab template without learner-only cells, titled
# with the lesson's title, asking nothing of another machine. Voila finds it by name in the environment.
PRESENT_TEMPLATE = "ctxlib"


def install_present_template() -> Path:
    """Copy ``tools/present/`` to ``<.venv>/share/jupyter/voila/templates/ctxlib``; returns that folder."""
    target = VENV / "share" / "jupyter" / "voila" / "templates" / PRESENT_TEMPLATE
    target.mkdir(parents=True, exist_ok=True)
    for source in (ROOT / "tools" / "present").iterdir():
        if source.is_file() and (not (target / source.name).exists()
                                 or (target / source.name).read_bytes() != source.read_bytes()):
            shutil.copyfile(source, target / source.name)
    return target


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab(extra: list[str]) -> int:
    setup()
    if running_as_root() and "--allow-root" not in extra:
        say("running as root (a container or a workshop VM?), so JupyterLab gets --allow-root")
        extra = ["--allow-root", *extra]
    say("opening JupyterLab; start with lessons/en/ or lessons/hi/ (Ctrl+C here to stop)")
    return subprocess.call([str(PY), "-m", "jupyterlab", f"--notebook-dir={ROOT}",
                            "lessons/en/01_window_as_budget.ipynb", *extra], cwd=ROOT)


def test_command(extra: list[str], cwd: Path | None = None) -> list[str]:
    """The pytest command for ``run.py test EXTRA``: ``tests`` and ``lessons`` only if EXTRA names no path.

    A path is an argument that is not an option and names an existing file or folder (a test
    id's part before ``::`` counts), relative to ``cwd`` (default: the current folder); such
    paths are made absolute, since pytest runs in the course folder.
    """
    cwd = Path.cwd() if cwd is None else cwd
    args, paths = [], 0
    for arg in extra:
        head, sep, tail = arg.partition("::")
        if not arg.startswith("-") and head and (cwd / head).exists():
            arg, paths = str((cwd / head).resolve()) + sep + tail, paths + 1
        args.append(arg)
    defaults = [] if paths else ["tests", "lessons"]
    return [str(PY), "-m", "pytest", *defaults, "--nbval", "--nbval-current-env", "-p", "no:cacheprovider", *args]


def test(extra: list[str]) -> int:
    setup()
    return subprocess.call(test_command(extra), cwd=ROOT)


def notebooks(extra: list[str]) -> int:
    setup()
    return subprocess.call([str(PY), str(ROOT / "tools" / "execute_notebooks.py"), *(extra or ["lessons"])], cwd=ROOT)


def catalogs(extra: list[str]) -> int:
    setup()
    return subprocess.call([str(PY), str(ROOT / "tools" / "catalogs.py"), *extra], cwd=ROOT)


def voila_command(notebook, extra: list[str], python=PY) -> list[str]:
    """The Voila command that shows ``notebook`` without its code; tests/test_browser.py runs it too."""
    return [str(python), "-m", "voila", str(notebook), "--strip_sources=True", "--theme=light",
            f"--template={PRESENT_TEMPLATE}", *extra]


def present(extra: list[str]) -> int:
    if not extra or not extra[0].endswith(".ipynb") or not Path(extra[0]).is_file():
        sys.exit("usage: python3 run.py present lessons/en/01_window_as_budget.ipynb [voila options]")
    setup()
    say("presenting with Voila: it opens in your browser (Ctrl+C here to stop)")
    return subprocess.call(voila_command(Path(extra[0]).resolve(), extra[1:]), cwd=ROOT)


def wheelhouse(extra: list[str]) -> int:
    """Save wheels of ctxlib, everything it needs, and its build backend into DIR (needs the internet).

    The wheels fit this machine's operating system and Python version; build the folder on a
    machine like the ones in the room.
    """
    folder = Path(extra[0]).resolve() if extra else ROOT / "wheelhouse"
    make_venv()
    say(f"saving wheels into {folder} (a few minutes the first time)")
    subprocess.run([str(PY), "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(folder),
                    COURSE, *BUILD_BACKEND], check=True)
    say(f"done: {len(list(folder.glob('*.whl')))} wheels. Copy {folder} and the course folder to the room; "
        f"there, in the course folder: python3 run.py offline-install PATH/TO/{folder.name}")
    return 0


def offline_install(extra: list[str]) -> int:
    """Set up ``.venv`` from the wheels in DIR alone: pip is told not to use any package index."""
    if len(extra) != 1 or not Path(extra[0]).is_dir():
        sys.exit("usage: python3 run.py offline-install DIR   (DIR made by: python3 run.py wheelhouse DIR)")
    make_venv()
    folder = Path(extra[0]).resolve()
    say(f"installing ctxlib and its dependencies from {folder}, without the internet")
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(folder),
                    "-e", COURSE], check=True)
    # Mark the set-up as done, so lab and test do not try to reach the index afterwards.
    STAMP.write_bytes((ROOT / "pyproject.toml").read_bytes())
    write_lab_settings()
    install_present_template()
    say("ready: python3 run.py lab")
    return 0


COMMANDS = {"lab": lab, "test": test, "present": present, "wheelhouse": wheelhouse,
            "offline-install": offline_install, "setup": setup, "notebooks": notebooks,
            "catalogs": catalogs}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
