"""What every ``ctxlib`` subcommand shares: the error a user's mistake raises, file names as
printable text, and the ``--include``/``--exclude`` options of ``count`` and ``pack``."""
from __future__ import annotations

import os


class UsageError(Exception):
    """A problem with what the user asked for; printed as one line, exit status 2."""


def display_name(name) -> str:
    """A file name from an ``OSError`` (str or bytes) as printable text (``repo.display_path``)."""
    from ..repo import display_path

    return display_path(os.fsdecode(name))


def add_glob_options(p) -> None:
    """Add ``--include GLOB`` and ``--exclude GLOB`` (repeatable, gitignore-style) to the parser ``p``."""
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="read only files matching this gitignore-style pattern, e.g. '*.py' or 'src/'; repeatable")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="also leave out files matching this gitignore-style pattern, e.g. 'site-packages/'; repeatable")
