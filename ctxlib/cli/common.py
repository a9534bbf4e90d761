"""What every ``ctxlib`` subcommand shares: the error a user's mistake raises, file names as
printable text, the ``--include``/``--exclude`` options of ``count``, ``pack`` and ``rank``, and ``--lang``."""
from __future__ import annotations

import os

from ..i18n import N_


class UsageError(Exception):
    """A problem with what the user asked for; printed as one line, exit status 2 (in the command's
    language when raised with an ``i18n.Worded``)."""

    def text(self, lang: str = "en") -> str:
        """The message in ``lang``: a ``Worded`` one worded there, plain text as it is."""
        from ..i18n import in_lang

        return in_lang(self.args[0] if self.args else "", lang)


def add_lang_option(p) -> None:
    """Add ``--lang {en,hi}`` to the parser ``p``: the report's and the errors' language (default: ``CTXLIB_LANG``,
    else the locale's, else English; ``i18n.lang_from_environment``)."""
    from ..i18n import LANGS

    p.add_argument("--lang", choices=LANGS, default=None,
                   help=N_("the language of the report and of errors (default: from CTXLIB_LANG or the locale, else en)"))


def lang_of(args) -> str:
    """The language a command speaks: its ``--lang``, else ``i18n.lang_from_environment()``."""
    from ..i18n import lang_from_environment

    return getattr(args, "lang", None) or lang_from_environment()


def display_name(name) -> str:
    """A file name from an ``OSError`` (str or bytes) as printable text (``repo.display_path``)."""
    from ..repo import display_path

    return display_path(os.fsdecode(name))


def add_glob_options(p) -> None:
    """Add ``--include GLOB`` and ``--exclude GLOB`` (repeatable, gitignore-style) to the parser ``p``."""
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help=N_("read only files matching this gitignore-style pattern, e.g. '*.py' or 'src/'; repeatable"))
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help=N_("also leave out files matching this gitignore-style pattern, e.g. 'site-packages/'; repeatable"))


def add_history_option(p) -> None:
    """Add ``--history`` to the parser ``p`` (``pack`` and ``rank``): rank by the repository's recent commits too."""
    p.add_argument("--history", action="store_true",
                   help=N_("also rank by the last commits of PATH's git history (files changed lately, and files "
                           "changed by commits whose messages are like the query); PATH must be the top folder of "
                           "a git working copy; git reads its objects and refs, never its config"))


def history_of(args) -> list:
    """The recent commits ``--history`` asks for (``history.recent_commits``), ``[]`` without it; a ``UsageError``
    in the command's language when ``args.path`` has no history to read."""
    if not getattr(args, "history", False):
        return []
    from .. import history, recent, safegit

    try:
        return safegit.recent_commits(args.path, recent.HISTORY_COMMITS)
    except history.HistoryError as exc:
        raise UsageError(exc.args[0] if exc.args else str(exc)) from None
