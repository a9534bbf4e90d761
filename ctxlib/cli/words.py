"""The command line in the learner's language: argparse's own messages and ctxlib's help texts.

argparse writes its messages in English through gettext (``argparse._``): "usage:", "the following
arguments are required", "invalid choice". While ``in_language("hi")`` holds, they come from ctxlib's
catalog instead (the ones a person can meet are marked below, so the catalog holds them). Every
description and help text of ctxlib's commands is marked ``N_`` where it is written (or is a
``Worded``), and ``word_help`` words a built parser's texts in the language. ``lang_in`` finds the
language before argparse reads the line, so that its errors are worded too.
"""
from __future__ import annotations

import argparse
import contextlib

from ..i18n import LANGS, N_, N_n, in_lang, lang_from_environment, message, translation

# argparse's messages a person can meet (Python 3.11 to 3.13), exactly as argparse writes them.
ARGPARSE_MESSAGES = (
    N_("usage: "), N_("options"), N_("positional arguments"), N_("subcommands"),
    N_("show this help message and exit"), N_(" (default: %(default)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("expected one argument"), N_("expected at least one argument"),
    N_("expected at most one argument"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"), N_("can't open '%(filename)s': %(error)s"),
)
ARGPARSE_PLURALS = (N_n("expected %s argument", "expected %s arguments"),)


def lang_in(argv) -> str:
    """The language a command line asks for: the value of its last ``--lang X`` or ``--lang=X`` if that is one of
    ``LANGS``, else ``i18n.lang_from_environment()``. Found before argparse reads the line, so its errors are
    worded in it; a wrong value is left for argparse to refuse."""
    chosen = None
    argv = list(argv)
    for i, arg in enumerate(argv):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else argv[i + 1] if (
            arg == "--lang" and i + 1 < len(argv)) else None
        if value in LANGS:
            chosen = value
    return chosen or lang_from_environment()


@contextlib.contextmanager
def in_language(lang: str):
    """While it holds, argparse's messages come from ctxlib's catalog in ``lang`` (English: argparse's own).

    argparse looks its gettext functions up each time it words a message, so they are swapped for the
    duration and put back after, whatever happens. Raises ``ValueError`` for a ``lang`` not in ``LANGS``.
    """
    catalog = translation(lang)  # raises for an unknown language
    saved = argparse._, argparse.ngettext
    if lang != "en":  # English: argparse's own words, as they are
        argparse._, argparse.ngettext = catalog.gettext, catalog.ngettext
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


def word_help(parser: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """Word ``parser``'s description and every help text, its subcommands' too, in ``lang``; returns ``parser``.

    A text marked ``N_`` is looked up in the catalog, a ``Worded`` worded again; one with no entry stays as it is.
    In English every text is already its own words, and nothing is looked up.
    """
    if lang == "en":
        return parser
    def worded(text):
        if text is None or text == argparse.SUPPRESS:
            return text
        return in_lang(text, lang) if hasattr(text, "text") else message(text, lang)

    parser.description = worded(parser.description)
    for action in parser._actions:
        action.help = worded(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = worded(choice.help)
            for sub in action.choices.values():
                word_help(sub, lang)
    return parser
