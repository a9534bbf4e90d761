"""A Jupyter server extension that serves the course's Devanagari font to JupyterLab.

A fresh machine often has no Devanagari font, and then every Hindi sentence in JupyterLab is
boxes. JupyterLab links ``/custom/custom.css`` into its page when ``LabApp.custom_css`` is on,
and serves that URL from the folders in the server's ``static_custom_path`` setting (the user's
``~/.jupyter/custom`` first). This extension appends two folders of the package to that list:
``data/jupyter/custom`` (``custom.css``, an ``@font-face`` for the bundled face) and
``data/fonts`` (``NotoSansDevanagari-Regular.ttf``), so the browser gets the font from the
course's own server, with no system font and no network. A learner's own ``custom.css`` still
wins. ``python3 run.py setup`` turns the extension and ``custom_css`` on for the course's
environment (``run.py``'s ``write_jupyter_config``); Voila gets the same file through the
``ctxlib`` Voila template.
"""
from __future__ import annotations

import warnings
from pathlib import Path


DATA = Path(__file__).with_name("data")
CUSTOM_DIR = DATA / "jupyter" / "custom"
FONT_DIR = DATA / "fonts"
FONT_FAMILY = "ctxlib Noto Sans Devanagari"


def _jupyter_server_extension_points():
    return [{"module": "ctxlib.course.jupyter_fonts"}]


def _link_jupyter_server_extension(serverapp) -> None:
    """Before the extensions are linked: keep one warning about an option the course never set out of the log.

    Voila's package turns traitlets' DeprecationWarnings back on when the server imports it, and
    notebook_shim then reads every attribute of the server, ServerApp.token among them, which warns
    "ServerApp.token config is deprecated". Every extension is imported before any is linked, so a
    filter added here comes before Voila's. Only that message is silenced.
    """
    warnings.filterwarnings("ignore", message="ServerApp.token config is deprecated", category=DeprecationWarning)


def _load_jupyter_server_extension(serverapp) -> None:
    """Add the folders of ``custom.css`` and the font to the server's ``/custom/`` search path."""
    # LabApp's /custom/ handler holds this very list and reads it on each request, so
    # extending it in place works whichever extension loads first.
    paths = serverapp.web_app.settings.setdefault("static_custom_path", [])
    for folder in (str(CUSTOM_DIR), str(FONT_DIR)):
        if folder not in paths:
            paths.append(folder)
    serverapp.log.info("ctxlib: serving the Devanagari font from %s", FONT_DIR)
