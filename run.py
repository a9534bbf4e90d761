#!/usr/bin/env python3
"""Set up the course and run it: the only two commands a learner needs.

    python3 run.py lab        set everything up, then open the lessons in JupyterLab
    python3 run.py test       set everything up, then run every test (unit tests and nbval)

for teaching:

    python3 run.py present NOTEBOOK        show one lesson as a clean page with live controls (Voila)
    python3 run.py wheelhouse [DIR]        while online: save wheels for everything in DIR (default wheelhouse/)
    python3 run.py offline-install DIR     in the room, no internet: set up .venv from DIR's wheels only
    python3 run.py hub --install-only      while online: install JupyterHub and its proxy (npm)
    python3 run.py hub [--ip IP] [--port N] [--password P] [--room DIR] [--shared-account]
                                           a JupyterHub for a room: each learner signs in with a name
                                           and the room's password and gets a home with the course
                                           (as root: a system user of their own each)
    python3 run.py hub-grade [--room DIR] [--csv OUT.csv] [--lang hi]
                                           the class's grade table and report from the hub's homes
    python3 run.py lite DIR                while online: build the course as a static site in DIR (JupyterLite)
    python3 run.py lite-serve DIR [--port P] [--https]
                                           serve that site; learners open it in a browser, no install

to publish the course as a site to read (docs/publishing.md):

    python3 run.py site DIR                the lessons as static pages in DIR, both languages, offline
    python3 run.py publish DIR [--serve] [--port P]
                                           the site and the browser build side by side in DIR
                                           (online once: the browser build needs npm and the index)

Options after ``lab`` go to JupyterLab (``python3 run.py lab --no-browser --port 8899``),
options after ``test`` to pytest (``python3 run.py test tests/test_tokens.py`` runs that file only;
with no file or folder named it runs ``tests`` and ``lessons``), options after the notebook to Voila.

and for maintainers:

    python3 run.py setup         only set up (lab, test and present do it first)
    python3 run.py notebooks     re-execute every lesson notebook in a fresh kernel and save it
    python3 run.py catalogs      extract, update and compile the message catalogs (Babel)
    python3 run.py refresh       after changing printed text: catalogs, the changed notebooks, the figures
    python3 run.py bench-tables  write the READMEs' benchmark tables from benchmarks/results/

Setting up means: a virtual environment in ``.venv/`` beside this file, with ctxlib and
its test and presenting tools installed into it (editable), and the course's Jupyter settings
written into that environment (never into your home folder). It is made once and reused; delete
``.venv/`` to start again. Standard library only, so it runs on a fresh Python >= 3.11.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import stat
import string
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
# The optional extras from pyproject.toml: course (Jupyter, widgets, charts), mcp (the MCP server),
# test (pytest, nbval, playwright) and present (voila).
COURSE = f"{ROOT}[course,mcp,test,present]"
# The build backend from pyproject.toml, and what it asks for to install editable, so that
# ctxlib itself can be installed from the wheelhouse without an index.
BUILD_BACKEND = ["hatchling>=1.24", "editables~=0.3"]


# The lines run.py prints, in Hindi, for learners (setup, lab, offline-install) and instructors (the room, the
# browser build, the site). run.py uses only the standard library, so these cannot come from ctxlib's catalog:
# they are in tools/run_hi.json, {English: Hindi}; tests/test_run.py holds every line run.py says to that table.
HINDI_FILE = ROOT / "tools" / "run_hi.json"


def hindi() -> dict[str, str]:
    """``HINDI_FILE``'s lines, read once; ``{}`` (so English) if it is missing or not a JSON object of strings."""
    global _HINDI
    if _HINDI is None:
        try:
            table = json.loads(HINDI_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            table = {}
        ok = isinstance(table, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in table.items())
        _HINDI = table if ok else {}
    return _HINDI


_HINDI: dict[str, str] | None = None


def _fields(text: str) -> list | None:
    """The ``{fields}`` of format string ``text`` as (name, conversion, spec), sorted; ``None`` if it is no format string."""
    try:
        return sorted((name, conversion or "", spec or "") for _, name, spec, conversion in string.Formatter().parse(text)
                      if name is not None)
    except ValueError:  # "{" alone
        return None


def worded(message: str, lang: str = "en", /, **params) -> str:
    """``message`` in ``lang`` (``hindi()`` for "hi"; English otherwise), its ``{fields}`` filled from ``params``.

    A Hindi line whose fields are not the English one's (``{path.__class__}``, ``{0}``, a lone ``{``) is not used:
    its English is said, so a damaged table never raises here nor shows more of a value than the English does."""
    text = hindi().get(message, message) if lang == "hi" else message
    return (text if text is message or _fields(text) == _fields(message) else message).format(**params)


def say(message: str, lang: str = "en", /, **params) -> None:
    print(f"[run.py] {worded(message, lang, **params) if params or lang != 'en' else message}", flush=True)


def environment_lang(environ=None) -> str:
    """The learner's language when no ``--lang`` is given: ``$CTXLIB_LANG``, else "hi" under a Hindi locale, else "en"."""
    environ = os.environ if environ is None else environ
    setting = environ.get("CTXLIB_LANG") or environ.get("LC_ALL") or environ.get("LANG") or ""
    return "hi" if setting.lower().startswith("hi") else "en"


def make_venv(lang: str = "en") -> None:
    if sys.version_info < (3, 11):
        sys.exit("run.py: " + worded("ctxlib needs Python 3.11 or newer, this is {version}", lang,
                                     version=sys.version.split()[0]))
    if not PY.exists():
        say("creating a virtual environment in {path}", lang, path=VENV)
        venv.EnvBuilder(with_pip=True).create(VENV)


def write_jupyter_config(config_dir: Path, data_dir: Path) -> None:
    """Make JupyterLab and Voila show Hindi in the course's bundled font, on a machine with none.

    Writes ``config_dir/jupyter_server_config.d/ctxlib.json`` (turns on the ``ctxlib.course.jupyter_fonts``
    server extension, which serves the font and ``custom.css``), sets ``LabApp.custom_css`` in
    ``config_dir/jupyter_lab_config.json`` (JupyterLab then links that CSS into its page; the
    ``.d`` folders only enable extensions), and copies the same CSS and the font into the static
    folder of the presenting template, ``data_dir/voila/templates/ctxlib/static`` (its page links
    them; ``install_present_template`` installs the template itself). ``setup`` writes them into ``.venv``
    (``etc/jupyter``, ``share/jupyter``), so the learner's own Jupyter folders stay untouched;
    tests/test_browser.py writes them into its temporary folders.
    """
    data = ROOT / "ctxlib" / "course" / "data"
    server = config_dir / "jupyter_server_config.d"
    server.mkdir(parents=True, exist_ok=True)
    (server / "ctxlib.json").write_text(json.dumps(
        {"ServerApp": {"jpserver_extensions": {"ctxlib.course.jupyter_fonts": True}}}, indent=2) + "\n", encoding="utf-8")
    lab_config = config_dir / "jupyter_lab_config.json"
    settings = json.loads(lab_config.read_text(encoding="utf-8")) if lab_config.exists() else {}
    settings.setdefault("LabApp", {})["custom_css"] = True
    lab_config.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    static = data_dir / "voila" / "templates" / PRESENT_TEMPLATE / "static"
    static.mkdir(parents=True, exist_ok=True)
    for source in (data / "jupyter" / "custom" / "custom.css", data / "fonts" / "NotoSansDevanagari-Regular.ttf",
                   data / "fonts" / "OFL.txt"):
        shutil.copyfile(source, static / source.name)
    # The course's accessibility extension (ctxlib/course/data/jupyter/labextension): JupyterLab,
    # Voila and the browser build load it from data_dir/labextensions.
    extension = data_dir / "labextensions" / "ctxlib-a11y"
    shutil.rmtree(extension, ignore_errors=True)
    shutil.copytree(data / "jupyter" / "labextension" / "ctxlib-a11y", extension)


def setup(extra: list[str] | None = None, lang: str | None = None) -> int:
    """Create ``.venv`` and install the course into it, unless pyproject.toml is unchanged since; ``lang``: the
    language of its lines (default: ``environment_lang()``)."""
    lang = lang or environment_lang()
    make_venv(lang)
    write_jupyter_config(VENV / "etc" / "jupyter", VENV / "share" / "jupyter")
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    if not (STAMP.exists() and STAMP.read_bytes() == pyproject):
        say("installing ctxlib and its dependencies (about a minute the first time)", lang)
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


def lang_option(extra: list[str], environ=None) -> tuple[str, list[str]]:
    """The language a command speaks (the lessons ``lab`` opens, the instructor's ``present``, ``wheelhouse``,
    ``offline-install``, ``lite``...), and ``extra`` without ``--lang``: ``--lang hi`` (or ``--lang=hi``) if
    given, else ``$CTXLIB_LANG``, else "hi" under a Hindi locale (``LC_ALL``, ``LANG``), else "en"."""
    environ = os.environ if environ is None else environ
    rest, lang = [], None
    items = iter(extra)
    for arg in items:
        if arg == "--lang":
            lang = next(items, "")  # "--lang" last, with no value, is refused, not read as no --lang
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    if lang is not None and lang not in ("en", "hi"):
        sys.exit("run.py: " + worded("--lang must be en or hi, got {lang!r}", environment_lang(environ), lang=lang))
    return lang or environment_lang(environ), rest


def lab_command(extra: list[str], lang: str) -> list[str]:
    """The JupyterLab command ``lab`` runs: it opens (and prints the link to) Lesson 1 in ``lang``.

    Kernels talk to the server over Unix sockets where there are any (``ipc``), so no kernel warns
    "running over TCP without encryption"; Windows has only TCP. (The "ServerApp.token is deprecated"
    line is kept out by the course's server extension, ``ctxlib.course.jupyter_fonts``.)
    """
    lesson = f"lessons/{lang}/01_window_as_budget.ipynb"
    ipc = ["--KernelManager.transport=ipc"] if os.name == "posix" else []
    return [str(PY), "-m", "jupyterlab", f"--notebook-dir={ROOT}",
            f"--LabApp.default_url=/lab/tree/{lesson}", *ipc, *extra]


def lab(extra: list[str]) -> int:
    lang, extra = lang_option(extra)
    setup(lang=lang)
    if running_as_root() and "--allow-root" not in extra:
        say("running as root (a container or a workshop VM?), so JupyterLab gets --allow-root", lang)
        extra = ["--allow-root", *extra]
    say("opening JupyterLab at Lesson 1 in {language} (--lang en or --lang hi to choose; Ctrl+C here to stop)", lang,
        language=worded("Hindi" if lang == "hi" else "English", lang))
    env = dict(os.environ)
    runtime = None
    if os.name == "posix" and "JUPYTER_RUNTIME_DIR" not in env:
        # A kernel's socket path must stay under ~100 bytes: a short private folder, not ~/.local/share/...
        runtime = tempfile.mkdtemp(prefix="ctxlib-lab-", dir="/tmp" if os.path.isdir("/tmp") else None)
        env["JUPYTER_RUNTIME_DIR"] = runtime
    try:
        return subprocess.call(lab_command(extra, lang), cwd=ROOT, env=env)
    finally:
        if runtime is not None:
            shutil.rmtree(runtime, ignore_errors=True)


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


def refresh(extra: list[str]) -> int:
    """After changing printed text: catalogs, the notebooks that changed re-executed, the figure report (tools/refresh.py)."""
    setup()
    return subprocess.call([str(PY), str(ROOT / "tools" / "refresh.py"), *extra], cwd=ROOT)


# Where presenting keeps notebook signatures (``present`` signs the lesson it shows): in .venv, not
# the learner's ~/.local/share/jupyter. The notary makes neither the folder nor the database itself.
NOTARY_DIR = VENV / "share" / "jupyter" / "ctxlib-notary"
NOTARY_OPTIONS = [f"--NotebookNotary.data_dir={NOTARY_DIR}", f"--NotebookNotary.db_file={NOTARY_DIR / 'nbsignatures.db'}",
                  f"--NotebookNotary.secret_file={NOTARY_DIR / 'notebook_secret'}"]


def trust_command(notebook, python=PY) -> list[str]:
    """``jupyter trust`` for ``notebook`` in ``NOTARY_DIR``: Voila then does not log that it "is not trusted"."""
    return [str(python), "-m", "nbformat.sign", *NOTARY_OPTIONS, str(notebook)]


def voila_command(notebook, extra: list[str], python=PY) -> list[str]:
    """The Voila command that shows ``notebook`` without its code; tests/test_browser.py runs it too.

    Voila starts through ``tools/start_voila.py``, which works around a known hang
    (a cell's reply missed, the page stopped for good). Makes ``NOTARY_DIR`` if it is missing.
    """
    NOTARY_DIR.mkdir(parents=True, exist_ok=True)
    return [str(python), str(ROOT / "tools" / "start_voila.py"), str(notebook),
            "--strip_sources=True", "--theme=light",
            f"--template={PRESENT_TEMPLATE}", *NOTARY_OPTIONS, *extra]


def present(extra: list[str]) -> int:
    lang, extra = lang_option(extra)
    if not extra or not extra[0].endswith(".ipynb") or not Path(extra[0]).is_file():
        sys.exit(worded("usage: python3 run.py present lessons/en/01_window_as_budget.ipynb [voila options]", lang))
    setup(lang=lang)
    notebook = Path(extra[0]).resolve()
    command = voila_command(notebook, extra[1:])
    # The course's own lesson, with its saved outputs: signed, so Voila does not warn it is untrusted.
    subprocess.run(trust_command(notebook), cwd=ROOT, capture_output=True)
    if "--no-browser" in extra[1:]:
        say("presenting with Voila: open the link it prints below in a browser (Ctrl+C here to stop)", lang)
    else:
        say("presenting with Voila: it opens in your browser (Ctrl+C here to stop)", lang)
    env, runtime = dict(os.environ), None
    if os.name == "posix" and "JUPYTER_RUNTIME_DIR" not in env:
        # The kernel over a Unix socket (no "running over TCP without encryption"), whose path must be short.
        runtime = tempfile.mkdtemp(prefix="ctxlib-present-", dir="/tmp" if os.path.isdir("/tmp") else None)
        env["JUPYTER_RUNTIME_DIR"] = runtime
        command.append("--KernelManager.transport=ipc")
    try:
        return subprocess.call(command, cwd=ROOT, env=env)
    finally:
        if runtime is not None:
            shutil.rmtree(runtime, ignore_errors=True)


def wheelhouse(extra: list[str]) -> int:
    """Save wheels of ctxlib, everything it needs, and its build backend into DIR (needs the internet).

    The wheels fit this machine's operating system and Python version; build the folder on a
    machine like the ones in the room.
    """
    lang, extra = lang_option(extra)
    folder = Path(extra[0]).resolve() if extra else ROOT / "wheelhouse"
    make_venv(lang)
    say("saving wheels into {folder} (a few minutes the first time)", lang, folder=folder)
    subprocess.run([str(PY), "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(folder),
                    COURSE, *BUILD_BACKEND], check=True)
    say("done: {count} wheels. Copy {folder} and the course folder to the room; "
        "there, in the course folder: python3 run.py offline-install PATH/TO/{name}", lang,
        count=len(list(folder.glob("*.whl"))), folder=folder, name=folder.name)
    return 0


def offline_install(extra: list[str]) -> int:
    """Set up ``.venv`` from the wheels in DIR alone: pip is told not to use any package index."""
    lang, extra = lang_option(extra)
    if len(extra) != 1 or not Path(extra[0]).is_dir():
        sys.exit(worded("usage: python3 run.py offline-install DIR   (DIR made by: python3 run.py wheelhouse DIR)", lang))
    make_venv(lang)
    folder = Path(extra[0]).resolve()
    say("installing ctxlib and its dependencies from {folder}, without the internet", lang, folder=folder)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "--no-index", "--find-links", str(folder),
                    "-e", COURSE], check=True)
    # Mark the set-up as done, so lab and test do not try to reach the index afterwards.
    STAMP.write_bytes((ROOT / "pyproject.toml").read_bytes())
    write_jupyter_config(VENV / "etc" / "jupyter", VENV / "share" / "jupyter")
    write_lab_settings()
    install_present_template()
    say("ready: python3 run.py lab", lang)
    return 0


# A room on JupyterHub (docs/instructors.md): JupyterHub from the package index, into .venv, and
# its proxy from npm, into .venv/hub-proxy/. Both once, while online; then the hub runs offline.
HUB_CONFIG = ROOT / "tools" / "jupyterhub_config.py"
HUB_PROXY_PACKAGE = "configurable-http-proxy@5.3.0"
HUB_PROXY_DIR = VENV / "hub-proxy"
HUB_PROXY = HUB_PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
ROOM = ROOT / "room"
HUB_PASSWORD_MIN = 8  # JupyterHub's SharedPasswordAuthenticator refuses shorter ones


def hub_installed() -> bool:
    """Whether ``.venv`` has JupyterHub and its proxy (``run.py hub --install-only`` puts them there)."""
    return (BIN / "jupyterhub").exists() and (BIN / "jupyterhub-singleuser").exists() and HUB_PROXY.exists()


def install_hub(lang: str = "en") -> None:
    """Install JupyterHub (the ``hub`` extra of pyproject.toml) into ``.venv`` and its proxy with npm; needs the internet.
    ``lang``: the language of its lines. Raises ``SystemExit`` (one line) if npm is missing."""
    setup(lang=lang)
    if hub_installed():
        return
    say("installing JupyterHub into .venv (a minute)", lang)
    subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[course,mcp,test,present,hub]"], check=True)
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("run.py: " + worded("the hub's proxy comes from npm, which is not installed "
                                     "(install Node.js 20 or newer; Debian: apt-get install npm)", lang))
    say("installing the hub's proxy, {package}, into {folder} (npm)", lang, package=HUB_PROXY_PACKAGE, folder=HUB_PROXY_DIR)
    HUB_PROXY_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(HUB_PROXY_DIR),
                    HUB_PROXY_PACKAGE], check=True)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def room_private(room: Path) -> Path:
    """``<room>/private``, made mode 0700: the hub's database, cookie secret and password, and the grades.

    Files an older ``run.py`` kept at the top of the room folder are moved in. As root the room
    folder itself is made 0755 (learners pass through it to their homes) and ``homes`` 0711.
    """
    private = room / "private"
    private.mkdir(parents=True, exist_ok=True)
    os.chmod(private, 0o700)
    for name in ("password", "jupyterhub.sqlite", "jupyterhub_cookie_secret", "grades.csv"):
        if (room / name).is_file() and not (private / name).exists():
            os.replace(room / name, private / name)
    (room / "homes").mkdir(exist_ok=True)
    if running_as_root():
        os.chmod(room, 0o755)
        os.chmod(room / "homes", 0o711)
    return private


def room_password(room: Path, given: str | None, lang: str = "en") -> str:
    """The room's shared password: ``given`` (saved for next time), else the saved one, else a new one.

    Saved in ``<room>/private/password``, readable by this user only. Raises ``SystemExit`` with one
    line, in ``lang``, if ``given`` is shorter than 8 characters (JupyterHub's minimum).
    """
    saved = room_private(room) / "password"
    if given is not None and len(given) < HUB_PASSWORD_MIN:
        sys.exit("run.py: " + worded("the room's password must have at least {least} characters, got {count}", lang,
                                     least=HUB_PASSWORD_MIN, count=len(given)))
    password = given or (saved.read_text(encoding="utf-8").strip() if saved.exists() else secrets.token_hex(4))
    if not saved.exists() or saved.read_text(encoding="utf-8").strip() != password:
        saved.touch(mode=0o600)
        saved.write_text(password + "\n", encoding="utf-8")
    return password


def closed_to_learners(path: Path) -> Path | None:
    """The first folder on the way to ``path`` that other users cannot pass through (no o+x), or ``None``."""
    for folder in [*reversed(Path(path).resolve().parents), Path(path).resolve()]:
        if folder.is_dir() and not folder.stat().st_mode & 0o001:
            return folder
    return None


def isolation_report(shared_account: bool, lang: str = "en") -> list[str]:
    """What ``run.py hub`` can keep apart on this machine, in plain lines for the instructor, in ``lang``."""
    if running_as_root():
        return [worded("each learner's server and kernels run as a system user of their own (ctx-NAME, made on first "
                       "sign-in), in a private home (mode 0700); the hub's database, cookie secret, password and the "
                       "grades are in ROOM/private (mode 0700, root's); nothing a learner runs is root", lang)]
    import getpass
    lines = [worded("not running as root: every learner's server runs as you ({user}); a learner can read "
                    "every other learner's home, the room's password, the grades and all your files", lang,
                    user=getpass.getuser())]
    lines.append(worded("--shared-account: any number of learners may sign in, all under this one account (a trusted room)"
                        if shared_account else
                        "so this hub serves one learner only (the first name that signs in); start it as root (sudo) to "
                        "give each learner a user of their own, or pass --shared-account for a trusted room", lang))
    return lines


def hub_environment(room: Path, ip: str, port: int, password: str, shared_account: bool = False) -> dict:
    """The environment ``tools/jupyterhub_config.py`` reads: the room folder, the addresses, the password,
    and whether many learners may share one account (``--shared-account``, without root)."""
    return {**os.environ, "CTXLIB_HUB_ROOM": str(room), "CTXLIB_HUB_IP": ip, "CTXLIB_HUB_PORT": str(port),
            "CTXLIB_HUB_PASSWORD": password, "CTXLIB_HUB_PROXY": str(HUB_PROXY),
            "CTXLIB_HUB_SHARED_ACCOUNT": "1" if shared_account else "0",
            "CTXLIB_HUB_PROXY_API_PORT": str(free_port()), "CTXLIB_HUB_INTERNAL_PORT": str(free_port())}


def room_addresses(ip: str, port: int) -> list[str]:
    """The addresses to give learners; for all interfaces (0.0.0.0), this machine's name and main address."""
    import socket
    if ip not in ("0.0.0.0", ""):
        return [f"http://{ip}:{port}/"]
    hosts = [socket.gethostname()]
    try:  # the address of the interface the default route uses; connecting a UDP socket sends nothing
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            hosts.append(s.getsockname()[0])
    except OSError:
        pass  # no network at all: the machine's name is all there is
    return [f"http://{host}:{port}/" for host in hosts]


def hub_command() -> list[str]:
    """The JupyterHub command ``run.py hub`` runs (in the room folder, with ``hub_environment``); tests run it too."""
    return [str(BIN / "jupyterhub"), "-f", str(HUB_CONFIG)]


def hub(extra: list[str]) -> int:
    """``run.py hub``: a JupyterHub for a room, until Ctrl+C; ``--install-only`` installs it and stops."""
    parser = argparse.ArgumentParser(prog="python3 run.py hub", description="A JupyterHub for a room.")
    parser.add_argument("--ip", default="0.0.0.0", help="the address to listen on (default: all interfaces)")
    parser.add_argument("--port", type=int, default=8000, help="the port learners open (default: %(default)s)")
    parser.add_argument("--password", default=None,
                        help="the room's shared password, 8 characters or more (default: the saved one, else a new one)")
    parser.add_argument("--room", type=Path, default=ROOM,
                        help="the folder for the learners' homes and the hub's files (default: room/)")
    parser.add_argument("--install-only", action="store_true", help="install JupyterHub and its proxy, then stop")
    parser.add_argument("--shared-account", action="store_true",
                        help="not as root: let more than one learner sign in although all run as you (no isolation)")
    parser.add_argument("--lang", choices=("en", "hi"), default=None,
                        help="the language of these lines (default: $CTXLIB_LANG, else the locale)")
    args = parser.parse_args(extra)
    lang = args.lang or environment_lang()
    install_hub(lang)
    if args.install_only:
        say("the hub is installed: {hub} and {proxy}", lang, hub=BIN / "jupyterhub", proxy=HUB_PROXY)
        return 0
    room = args.room.resolve()
    password = room_password(room, args.password, lang)
    for line in isolation_report(args.shared_account, lang):
        say(line)
    closed = running_as_root() and (closed_to_learners(room) or closed_to_learners(ROOT))
    if closed:
        sys.exit("run.py: " + worded("learners' users cannot pass through {folder} (mode {mode}) to reach the course "
                                     "or their homes; chmod o+x {folder}, or use a --room elsewhere", lang,
                                     folder=closed, mode=f"{closed.stat().st_mode & 0o777:o}"))
    say("the room's folder: {room} (each learner's home is in homes/, the hub's secrets in private/)", lang, room=room)
    say("learners open {addresses}, sign in with any name and the password {password}", lang,
        addresses=worded(" or ", lang).join(room_addresses(args.ip, args.port)), password=password)
    say("grade the room any time: python3 run.py hub-grade{room}   (Ctrl+C here stops the hub)", lang,
        room=f" --room {room}" if room != ROOM else "")
    process = subprocess.Popen(hub_command(), cwd=room,
                               env=hub_environment(room, args.ip, args.port, password, args.shared_account))
    try:
        return process.wait()
    except KeyboardInterrupt:  # the hub got the Ctrl+C too, and is stopping the learners' servers
        return process.wait()


def hub_grade(extra: list[str]) -> int:
    """``run.py hub-grade``: ``ctxlib grade`` on the progress files in the hub's homes; nothing is handed in."""
    parser = argparse.ArgumentParser(prog="python3 run.py hub-grade",
                                     description="The class's grade table and report from the hub's homes.")
    parser.add_argument("--room", type=Path, default=ROOM, help="the hub's room folder (default: room/)")
    parser.add_argument("--csv", type=Path, default=None,
                        help="where to write the table (default: ROOM/private/grades.csv, which no learner can read); "
                             "the HTML report goes beside it")
    parser.add_argument("--lang", choices=("en", "hi"), default=None, help="the report's language")
    args = parser.parse_args(extra)
    setup(lang=args.lang)
    return grade_room(args.room, args.csv or args.room / "private" / "grades.csv", args.lang)


MAX_HAND_IN_BYTES = 16 * 1024 * 1024  # ctxlib.course.progress.MAX_PROGRESS_BYTES (run.py does not import ctxlib)


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink()
    except OSError:
        return False


def _read_hand_in(home: Path, parts: tuple[str, ...], lang: str = "en") -> bytes:
    """The bytes of ``home/<parts>``, each folder and the file opened without following a link,
    the file read only if it is regular and at most ``MAX_HAND_IN_BYTES`` (``fstat``, before any
    byte is read: a 3 GB sparse file is refused, not copied). Raises ``OSError`` saying why not, in ``lang``."""
    nofollow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(home, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow, dir_fd=fd)
            os.close(fd)
            fd = inner
        inner = os.open(parts[-1], os.O_RDONLY | os.O_NONBLOCK | nofollow, dir_fd=fd)
        os.close(fd)
        fd = inner
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, worded("not a regular file", lang))
        if info.st_size > MAX_HAND_IN_BYTES:
            raise OSError(0, worded("larger than the size cap ({size} bytes > {cap})", lang,
                                    size=f"{info.st_size:,}", cap=f"{MAX_HAND_IN_BYTES:,}"))
        data = os.read(fd, MAX_HAND_IN_BYTES + 1)
        if len(data) > MAX_HAND_IN_BYTES:
            raise OSError(0, worded("larger than the size cap", lang))
        return data
    finally:
        os.close(fd)


def grade_room(room: Path, csv: Path, lang: str | None = None) -> int:
    """Run ``ctxlib grade`` on a copy of the progress files in ``<room>/homes/*/.ctxlib/``; returns its exit status.

    Each learner's file is graded as ``<name>.json``, ``name`` being their home's folder (their
    sign-in name), which ``ctxlib grade`` uses when the file holds no name. Homes without a
    progress file are named on one line, and so is every file that cannot be graded (unreadable, a
    link, not a regular file, over 16 MiB) with its reason; the others are graded. Writes ``csv`` and,
    beside it, the report page ``<csv stem>.html``; prints the report per question. Raises
    ``SystemExit`` (one line) if ``room`` has no ``homes`` folder or no home has a progress file. Its lines are
    in ``lang`` (default: ``environment_lang()``).
    """
    said = lang or environment_lang()
    homes = Path(room).resolve() / "homes"
    if not homes.is_dir():
        sys.exit("run.py: " + worded("{homes}: no such folder; is {room} the folder run.py hub used (--room)?", said,
                                     homes=homes, room=room))
    try:
        names = sorted(home.name for home in homes.iterdir() if _is_folder(home))
    except OSError as exc:
        sys.exit("run.py: " + worded("{homes}: cannot be read ({why})", said, homes=homes, why=exc.strerror or exc))
    copies, problems = {}, {}
    for name in names:
        try:
            copies[name] = _read_hand_in(homes / name, (".ctxlib", "progress.json"), said)
        except FileNotFoundError:
            continue
        except OSError as exc:  # unreadable, a link, a FIFO, too large: named, and the others graded
            problems[name] = exc.strerror or str(exc)
    if problems:
        say("skipped: {learners}", said, learners=", ".join(f"{name} ({why})" for name, why in problems.items()))
    if not copies:
        sys.exit("run.py: " + worded("none of the {count} learners in {homes} has answered a quick check yet", said,
                                     count=len(names), homes=homes))
    if len(copies) + len(problems) < len(names):
        say("no progress yet: {learners}", said,
            learners=", ".join(name for name in names if name not in copies and name not in problems))
    csv = Path(csv).resolve()
    if csv.parent == homes.parent / "private":
        room_private(homes.parent)
    with tempfile.TemporaryDirectory(prefix="ctxlib-hub-grade-") as folder:
        # ctxlib grade reads one folder of NAME.json files. A copy is a consistent snapshot: a
        # progress file is only ever replaced whole (written atomically), never changed in place.
        for name, data in copies.items():
            (Path(folder) / f"{name}.json").write_bytes(data)
        return subprocess.call([str(BIN / "ctxlib"), "grade", folder, "--csv", str(csv), "--by-question",
                                "--html", str(csv.with_suffix(".html")), *(["--lang", lang] if lang else [])],
                               cwd=ROOT)


def lite(extra: list[str]) -> int:
    """Build the whole course as a static JupyterLite site in DIR (needs npm and the package index once)."""
    lang, extra = lang_option(extra)
    if len(extra) != 1:
        sys.exit(worded("usage: python3 run.py lite DIR   (DIR is replaced by the built site)", lang))
    setup(lang=lang)
    if subprocess.call([str(PY), "-c", "import jupyterlite_core, jupyterlite_pyodide_kernel"],
                       stderr=subprocess.DEVNULL) != 0:
        say("installing the JupyterLite build tools into .venv", lang)
        subprocess.run([str(PY), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[course,mcp,test,present,lite]"], check=True)
    return subprocess.call([str(PY), str(ROOT / "tools" / "build_lite.py"), *extra], cwd=ROOT)


def lite_server(directory: Path, bind: str = "127.0.0.1", port: int = 8000, certificate: tuple | None = None):
    """An HTTP(S) server for the built site in ``directory`` (not started); tests/test_lite.py uses it too.

    Static files only; ``.wasm`` and ``.mjs`` get the MIME types browsers insist on for
    WebAssembly and JavaScript modules. Port 0 picks a free port (``server.server_address[1]``).
    With ``certificate`` = ``(cert.pem, key.pem)`` it serves HTTPS (see ``make_certificate``).
    """
    import functools
    import http.server
    import ssl

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                          ".json": "application/json", ".ipynb": "application/json"}

        def log_message(self, format, *args):  # quiet: a room of learners makes thousands of requests
            pass

    handler = functools.partial(Handler, directory=str(Path(directory).resolve()))
    server = http.server.ThreadingHTTPServer((bind, port), handler)
    if certificate is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*map(str, certificate))
        server.socket = context.wrap_socket(server.socket, server_side=True)
    return server


LITE_CERT_DIR = ROOT / "build" / "lite-https"


def make_certificate(folder: Path, hosts: list[str], lang: str = "en") -> tuple[Path, Path, str]:
    """A self-signed certificate for ``hosts`` (names and IP addresses) in ``folder``, made once with
    ``openssl``, valid 90 days; returns (cert.pem, key.pem, its SHA-256 fingerprint). The key is mode 0600.
    Raises ``SystemExit`` (one line, in ``lang``) if ``openssl`` is missing or fails."""
    import hashlib
    import ipaddress
    import ssl
    cert, key = folder / "cert.pem", folder / "key.pem"
    if not (cert.is_file() and key.is_file()):
        openssl = shutil.which("openssl")
        if openssl is None:
            sys.exit("run.py: " + worded("--https makes its certificate with openssl, which is not installed "
                                         "(Debian: apt-get install openssl)", lang))
        folder.mkdir(parents=True, exist_ok=True)
        names = []
        for host in dict.fromkeys(["localhost", "127.0.0.1", *hosts]):
            try:
                names.append(f"IP:{ipaddress.ip_address(host)}")
            except ValueError:
                names.append(f"DNS:{host}")
        done = subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "90",
                               "-keyout", str(key), "-out", str(cert), "-subj", "/CN=ctxlib course site",
                               "-addext", "subjectAltName=" + ",".join(names)], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("run.py: " + worded("openssl could not make the certificate: {error}", lang,
                                         error=done.stderr.strip()[-300:]))
        os.chmod(key, 0o600)
    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    digest = hashlib.sha256(der).hexdigest().upper()
    return cert, key, ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def lite_serve(extra: list[str]) -> int:
    """Serve the site built by ``lite`` (standard library only), on every interface by default; ``--https``
    with a self-signed certificate, so that learners' progress is kept in their browsers."""
    parser = argparse.ArgumentParser(prog="run.py lite-serve")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--https", action="store_true",
                        help=f"serve HTTPS with a self-signed certificate (made once in {LITE_CERT_DIR})")
    parser.add_argument("--lang", choices=("en", "hi"), default=None,
                        help="the language of these lines (default: $CTXLIB_LANG, else the locale)")
    args = parser.parse_args(extra)
    lang = args.lang or environment_lang()
    if not (args.dir / "jupyter-lite.json").is_file():
        sys.exit("run.py: " + worded("{folder} is not a built site (no jupyter-lite.json); build it: "
                                     "python3 run.py lite {folder}", lang, folder=args.dir))
    addresses = [a.split("//")[1].split(":")[0] for a in room_addresses(args.bind, args.port)]
    certificate, scheme = None, "http"
    if args.https:
        cert, key, fingerprint = make_certificate(LITE_CERT_DIR, addresses, lang)
        certificate, scheme = (cert, key), "https"
    with lite_server(args.dir, args.bind, args.port, certificate) as server:
        say("serving {folder}: open {scheme}://localhost:{port}/ on this machine; from the room: {addresses} "
            "(Ctrl+C to stop)", lang, folder=args.dir, scheme=scheme, port=args.port,
            addresses=worded(" or ", lang).join(f"{scheme}://{host}:{args.port}/" for host in addresses))
        if args.https:
            say("the certificate is self-signed ({cert}); its SHA-256 fingerprint: {fingerprint}", lang,
                cert=cert, fingerprint=fingerprint)
            say("until a learner's browser trusts it, the browser warns (Chrome: \"Your connection is not private\", "
                "Firefox: \"Warning: Potential Security Risk Ahead\") and, even past the warning, keeps no progress; "
                "install {cert} as a trusted certificate on the room's machines (docs/browser-build.md)", lang, cert=cert)
        else:
            say("over http:// from another machine, browsers keep no progress (it is gone when the tab closes); "
                "use --https for a room", lang)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def site(extra: list[str], lang: str | None = None) -> int:
    """Build the course as a static site to read in DIR, from the saved notebooks, with no network (tools/build_site.py);
    ``lang``: the language of run.py's own lines (default: ``environment_lang()``)."""
    lang = lang or environment_lang()
    if not extra or extra[0].startswith("-"):
        sys.exit(worded("usage: python3 run.py site DIR [--lite URL]   (DIR: a new or empty folder, or an earlier site; "
                        "it is replaced)", lang))
    setup(lang=lang)
    return subprocess.call([str(PY), str(ROOT / "tools" / "build_site.py"), *extra], cwd=ROOT)


def publish(extra: list[str]) -> int:
    """The site (DIR/index.html, DIR/en, DIR/hi) and the browser build (DIR/lite) in one static folder.

    Each lesson page's "run it in your browser" link opens DIR/lite. ``--serve`` then serves DIR
    (``lite_server``: the MIME types WebAssembly needs) on ``--bind`` (default every interface) and
    ``--port`` (8000), for a laptop serving a room. Raises ``SystemExit`` when a build fails.
    """
    parser = argparse.ArgumentParser(prog="run.py publish")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--serve", action="store_true", help="serve DIR once it is built (Ctrl+C to stop)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--lang", choices=("en", "hi"), default=None,
                        help="the language of these lines (default: $CTXLIB_LANG, else the locale)")
    args = parser.parse_args(extra)
    lang = args.lang or environment_lang()
    target = args.dir.resolve()
    if site([str(target), "--lite", "../lite"], lang) != 0:
        sys.exit("run.py publish: " + worded("the site did not build", lang))
    if lite([str(target / "lite"), "--lang", lang]) != 0:
        sys.exit("run.py publish: " + worded("the browser build did not build", lang))
    say("published in {folder}: open index.html from any static host (docs/publishing.md)", lang, folder=target)
    if not args.serve:
        return 0
    with lite_server(target, args.bind, args.port) as server:
        say("serving {folder} on port {port}: http://localhost:{port}/ here, "
            "http://THIS-MACHINE'S-ADDRESS:{port}/ from the room (Ctrl+C to stop)", lang, folder=target, port=args.port)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def bench_tables(extra: list[str]) -> int:
    """Write the READMEs' benchmark tables from benchmarks/results/*.json (``--check``: only compare)."""
    return subprocess.call([sys.executable, str(ROOT / "benchmarks" / "tables.py"), *extra], cwd=ROOT)


COMMANDS = {"lab": lab, "test": test, "present": present, "wheelhouse": wheelhouse,
            "offline-install": offline_install, "setup": setup, "notebooks": notebooks, "refresh": refresh,
            "catalogs": catalogs, "hub": hub, "hub-grade": hub_grade, "lite": lite,
            "lite-serve": lite_serve}
COMMANDS.update(site=site, publish=publish)

COMMANDS["bench-tables"] = bench_tables

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
