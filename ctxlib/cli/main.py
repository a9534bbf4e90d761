"""The ``ctxlib`` parser and its one rule for failures: one ``ctxlib:`` line on stderr, exit status 2."""
from __future__ import annotations

import argparse
import os
import re
import sys

from . import count, evaluation, pack, rank
from ..i18n import N_, in_lang, message, os_problem
from .common import UsageError, display_name, lang_of
from .words import in_language, lang_in, word_help


def _short(message: str) -> str:
    # argparse quotes the value it could not read ("invalid int value: '999...'"): a pasted value of
    # thousands of characters is shown by its start and its length (bm25.shorten), never whole.
    from ..bm25 import shorten

    return re.sub(r"'([^'\n]{81,})'", lambda m: repr(shorten(m.group(1))), message)


def _one_line_error(parser: argparse.ArgumentParser, command: str, lang: str = "en", report: str = "text"):
    """Argument errors as one line, "ctxlib: pack: ...", instead of argparse's usage block, in ``lang``; as
    ``{"error": ...}`` when the command line asked for ``--report json`` (``pack.report_in``)."""
    where = f"ctxlib {command}".strip()

    def error(said):
        text = message(N_("{problem} (see '{command} --help')"), lang, problem=_short(said), command=where)
        if report == "json":
            parser.exit(2, pack.json_line({"error": text}, sys.stderr) + "\n")
        parser.exit(2, "ctxlib: " + (f"{command}: " if command else "") + text + "\n")
    return error


def build_parser(extensions=(), lang: str = "en", report: str = "text") -> argparse.ArgumentParser:
    """The ``ctxlib`` argument parser: one subcommand per function, each with one-line argument errors.

    Args:
        extensions: functions ``add(subparsers)`` that add more subcommands; the course adds its
            classroom commands this way (``ctxlib.course.commands``), so the library never imports it.
        lang: the language of its help texts and errors (``i18n.LANGS``); argparse's own words are in it only
            while ``words.in_language(lang)`` holds, as ``main`` does.
        report: ``"json"``: its errors are ``{"error": ...}`` lines, as ``pack --report json`` promises a program.
    Raises:
        ValueError: for a ``lang`` not in ``i18n.LANGS``.
    """
    parser = argparse.ArgumentParser(
        prog="ctxlib",
        description=N_("Token counting and context packing from the course "
                       "'The context window as a budget'. Works offline."),
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"ctxlib {__version__}",
                        help=N_("print ctxlib's version and exit"))
    # One line, "ctxlib: ...", for an error before any subcommand (e.g. "ctxlib --bogus").
    parser.error = _one_line_error(parser, "", lang, report)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in (count.add_count_parser, pack.add_pack_parser, rank.add_rank_parser,
                        evaluation.add_eval_parser):
        add_command(sub)
    for add_commands in extensions:
        add_commands(sub)
    for name, p in sub.choices.items():
        p.error = _one_line_error(p, name, lang, report)
    return word_help(parser, lang)


def installed_commands() -> list:
    """The ``add(subparsers)`` functions other parts of the installed distribution register for ``ctxlib``.

    They are the entry points of the group ``ctxlib.commands`` (pyproject.toml): the classroom's
    ``progress`` and ``grade``, and ``mcp``. One that cannot be loaded is left out, so a broken extra never
    stops ``count`` or ``pack``. Returns ``[]`` when ctxlib is not installed (run from a source tree).
    """
    from importlib.metadata import entry_points

    found = []
    for point in sorted(entry_points(group="ctxlib.commands"), key=lambda p: p.name):
        try:
            found.append(point.load())
        except Exception:  # noqa: BLE001  an extension's own problem is said when its command runs
            continue
    return found


def main(argv=None, extensions=None) -> int:
    """Run the ``ctxlib`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status.

    ``extensions`` are passed to ``build_parser``; by default they are ``installed_commands()``. This is
    the console script (``ctxlib.cli:main``): the library owns it, and the classroom adds ``progress`` and
    ``grade`` through the ``ctxlib.commands`` entry points, so ``pip install ctxlib`` without the course works.
    """
    if extensions is None:
        extensions = installed_commands()
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = lang_in(argv)
    with in_language(lang):  # argparse's own words ("usage:", "invalid choice") in the command's language
        parser = build_parser(extensions, lang, pack.report_in(argv))
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # told by the command that was given, so the help it points to lists that command's options
            commands = next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            commands.get(args.command, parser).error(argparse._("unrecognized arguments: %s") % " ".join(unknown))
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (| head -1): stop quietly, and let nothing flush later
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except UnicodeEncodeError as exc:
        if not _is_stdouts(exc.encoding):
            return _failed(args, in_lang(exc, lang_of(args)))
        # An ASCII or code-page stdout (LC_ALL=C, a Windows pipe) and Hindi text or a file's characters to show
        return _failed(args, message(N_("{encoding} cannot write the characters {characters} that this output holds; "
                                        "set PYTHONIOENCODING=utf-8 and run it again"), lang_of(args),
                                     encoding=exc.encoding, characters=ascii(exc.object[exc.start:exc.end][:5])))
    except (UsageError, ValueError) as exc:  # in the command's language when the error can be worded there
        return _failed(args, in_lang(exc, lang_of(args)))
    except OSError as exc:  # the file system said no (a folder where a file should be, say)
        where = f"{display_name(exc.filename)}: " if exc.filename else ""
        return _failed(args, f"{where}{in_lang(os_problem(exc), lang_of(args))}")
    except RecursionError:
        return _failed(args, message(N_("the input is nested too deeply to read"), lang_of(args)))
    except KeyboardInterrupt:
        return 130


def _is_stdouts(encoding: str) -> bool:
    """Whether ``encoding`` is stdout's (``"ascii"`` and ``"ANSI_X3.4-1968"`` are one codec)."""
    import codecs

    try:
        return codecs.lookup(encoding).name == codecs.lookup(getattr(sys.stdout, "encoding", None) or "utf-8").name
    except LookupError:
        return False


def _failed(args, text: str) -> int:
    """Say a command's error on stderr, one line: ``ctxlib: text``, or ``{"error": text}`` when the command was asked
    for a report a program reads (``pack --report json``: "nothing fits" is then JSON too). Returns 2."""
    if getattr(args, "report", None) == "json":
        from .pack import json_line

        print(json_line({"error": str(text)}, sys.stderr), file=sys.stderr)
    else:
        print(f"ctxlib: {text}", file=sys.stderr)
    return 2
