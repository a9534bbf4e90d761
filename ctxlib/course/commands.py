"""The classroom's subcommands of the ``ctxlib`` command: ``progress`` and ``grade``.

    ctxlib progress [--name NAME] [--lang hi]   your quick-check score per lesson
    ctxlib grade DIR [--csv OUT.csv] [--html OUT.html] [--by-question] [--lang hi]  instructor: a class's progress files as a table

The library's own commands (``count``, ``pack``, ``rank``, ``eval``) and the console script are in
``ctxlib.cli``; this module adds these two to the same parser through the ``ctxlib.commands`` entry
points (pyproject.toml), so the library never imports the course, and ``pip install ctxlib`` without
the ``[course]`` extra still runs. Without the extra, both commands say in one line how to get it.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ctxlib import cli
from ctxlib.cli import UsageError
from ctxlib.i18n import LANGS, N_, in_lang, lang_from_environment, message, message_n, os_problem


def cmd_progress(args) -> int:
    """``ctxlib progress``: save ``--name`` if given, print the score per lesson in ``--lang``; returns 0.

    Raises ``UsageError`` (one line, in that language) for a blank name or a file that cannot be written."""
    from . import progress  # late: only this command needs it
    from .grading import terminal_text
    from .quiz import lesson_question_ids

    lang = args.lang or lang_from_environment()
    if args.name is not None and not args.name.strip():
        raise UsageError(message("--name must not be blank", lang))
    path = progress.progress_path()
    import filelock

    try:
        if args.name is None:
            with progress.lock_to_read(path):  # a corrupt file is moved aside: not while a notebook writes
                data, moved = progress.open_progress(path)
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with progress.progress_lock(path):  # a notebook may be recording at the same moment
                    data, moved = progress.open_progress(path)
                    data["learner"] = args.name.strip()
                    progress.save_progress(data, path)
            except (progress.safefile.Refused, filelock.Timeout):
                raise
            except OSError as exc:  # the lock file named when it is the one refused (a folder in its place, say)
                refused = exc.filename if exc.filename == str(path) + ".lock" else path
                raise UsageError(message("{path}: cannot be written ({problem})", lang, path=terminal_text(refused),
                                         problem=in_lang(os_problem(exc), lang))) from None
    except progress.safefile.Refused as exc:  # a folder or a device where the file should be: said in lang
        raise UsageError(f"{terminal_text(str(exc.filename or path))}: {exc.text(lang)}") from None
    except filelock.Timeout:  # filelock's own words are English: "The file lock '...' could not be acquired."
        raise UsageError(message("{path}: another program has held its lock for {seconds} seconds (a notebook saving "
                                 "an attempt?); try again", lang, path=terminal_text(path),
                                 seconds=progress.LOCK_TIMEOUT_SECONDS)) from None
    if moved:
        print(message("ctxlib: {path} could not be read ({problem}); it is kept as {kept}", lang,
                      path=terminal_text(path), problem=moved[1], kept=terminal_text(moved[0])), file=sys.stderr)
    learner = data.get("learner")
    print(progress.format_scores(progress.lesson_scores(data, lesson_question_ids()),
                                 terminal_text(learner) if learner else None, lang))
    print(message("(progress file: {path})", lang, path=terminal_text(path)))
    return 0


def cmd_grade(args) -> int:
    """``ctxlib grade DIR``: grade the progress files in DIR, write the CSV atomically, print the summary in
    ``--lang``; returns 0. Raises ``UsageError`` (one line) for a missing folder, no readable file, or a
    CSV that cannot be written. The CSV itself is the same in every language."""
    from . import grading, progress, report
    from .quiz import lesson_question_ids

    lang = args.lang or lang_from_environment()
    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(message("{folder}: no such folder", lang, folder=folder))
    try:
        files = sorted(folder.glob("*.json"))
    except OSError as exc:
        raise UsageError(message("{folder}: cannot be read ({problem})", lang, folder=folder,
                                 problem=in_lang(os_problem(exc), lang))) from None
    if not files:
        raise UsageError(message("{folder}: has no progress files (*.json)", lang, folder=folder))
    learners, skipped = [], []
    for f in files:
        try:
            data = progress.read_progress(f)
        except (progress.ProgressError, OSError) as exc:
            # Reported by name and skipped: one broken hand-in must not stop the class's report.
            problem = (exc.text(lang) if isinstance(exc, (progress.safefile.Refused, progress.ProgressError))  # in lang
                       else in_lang(os_problem(exc), lang))
            print(message("ctxlib: {name}: cannot be read, skipped ({problem})", lang, name=grading.terminal_text(f.name),
                          problem=problem), file=sys.stderr)
            skipped.append((f.name, problem))
            continue
        learners.append((grading.short_name(data.get("learner") or f.stem), f.name, progress.summary_record(data)))
    if not learners:
        raise UsageError(message_n("the {n} progress file in {folder} could not be read",
                                   "none of the {n} progress files in {folder} could be read", len(files), lang,
                                   folder=folder))
    learners = grading.distinct_names(learners)
    header, rows = grading.grade_table(learners, lesson_question_ids())
    if Path(args.csv).resolve() in {f.resolve() for f in files}:
        raise UsageError(message("{path}: is one of the progress files being graded; write the table elsewhere",
                                 lang, path=args.csv))
    if not Path(args.csv).resolve().parent.is_dir():
        raise UsageError(message("{path}: cannot be written, its folder {folder} does not exist", lang,
                                 path=args.csv, folder=Path(args.csv).parent))
    try:
        progress.safefile.write_atomically(args.csv, grading.table_csv(header, rows))
    except progress.safefile.Refused as exc:  # a link, a device, a FIFO where the table should go
        raise UsageError(f"{grading.terminal_text(args.csv)}: {exc.text(lang)}") from None
    except OSError as exc:
        raise UsageError(message("{path}: cannot be written ({problem})", lang, path=args.csv,
                                 problem=in_lang(os_problem(exc), lang))) from None
    print(grading.grade_summary(header, rows, lang=lang))
    if args.by_question:
        print("\n" + report.report_text(header, rows, lang))
    if args.html:
        try:
            progress.safefile.write_atomically(args.html, report.report_html(header, rows, lang))
        except progress.safefile.Refused as exc:
            raise UsageError(f"{grading.terminal_text(args.html)}: {exc.text(lang)}") from None
        except OSError as exc:
            raise UsageError(message("{path}: cannot be written ({problem})", lang, path=args.html,
                                     problem=in_lang(os_problem(exc), lang))) from None
    wrote = message_n("wrote {path}: {n} learner x {questions} questions",
                      "wrote {path}: {n} learners x {questions} questions", len(rows), lang,
                      path=args.csv, questions=len(header) - 6)
    if skipped:
        wrote += message_n("; {n} file skipped (see above)", "; {n} files skipped (see above)", len(skipped), lang)
    print("")
    for name, problem in skipped:  # the summary names what was left out, and why, not only stderr
        print(message("skipped: {name} ({problem})", lang, name=grading.terminal_text(name), problem=problem))
    print(wrote)
    if args.html:
        print(message("wrote {path}: the report per question, with a chart of the most-missed questions", lang,
                      path=args.html))
    return 0


# What the classroom's commands import that `pip install ctxlib` alone does not bring.
COURSE_PACKAGES = ("jsonschema", "wcwidth")


def needs_course(func):
    """``func``, or one line saying how to install the course when its extra is missing.

    The classroom's commands live in the same distribution as the library, but their packages are the
    ``[course]`` extra; without it, ``ctxlib progress`` says so in one line instead of a traceback.
    """
    def run(args) -> int:
        import importlib.util

        missing = [name for name in COURSE_PACKAGES if importlib.util.find_spec(name) is None]
        if missing:
            lang = getattr(args, "lang", None) or lang_from_environment()
            raise UsageError(message("{command} is part of the course; install it from the course's folder with: "
                                     "pip install \".[course]\" (missing: {names})", lang, command=args.command,
                                     names=", ".join(missing)))
        return func(args)

    return run


def add_commands(sub) -> None:
    """Add ``progress`` and ``grade`` to the ``ctxlib`` subparsers ``sub``: the entry point (group
    ``ctxlib.commands``) that ``ctxlib.cli.main`` loads."""
    p = sub.add_parser(
        "progress",
        help=N_("your quick-check score per lesson"),
        description=N_("Print how many quick checks you answered correctly in each lesson, and the hints and "
                       "solutions you used, from your progress file ($CTXLIB_PROGRESS, else ~/.ctxlib/progress.json)."),
    )
    p.add_argument("--name", default=None, help=N_("save your name in the progress file, for your instructor's report"))
    p.add_argument("--lang", choices=LANGS, default=None,
                   help=N_("the language to print in (default: $CTXLIB_LANG, else hi under a Hindi locale, else en)"))
    p.set_defaults(func=needs_course(cmd_progress))

    p = sub.add_parser(
        "grade",
        help=N_("instructor: one table of the progress files learners hand in"),
        description=N_("Read every *.json progress file in DIR, skip (and name) unreadable ones, write one CSV row "
                       "per learner with each question's outcome, and print completion and the most-missed questions."),
    )
    p.add_argument("folder", metavar="DIR", help=N_("folder holding the learners' progress files"))
    p.add_argument("--csv", default="grades.csv", metavar="OUT.csv", help=N_("where to write the table (default: %(default)s)"))
    p.add_argument("--lang", choices=LANGS, default=None,
                   help=N_("the language of the summary and messages (default: $CTXLIB_LANG, else hi under a Hindi "
                           "locale, else en); the CSV is the same in every language"))
    p.add_argument("--by-question", action="store_true",
                   help=N_("also print, per lesson and question, who passed, failed or did not try"))
    p.add_argument("--html", default=None, metavar="OUT.html",
                   help=N_("also write that report as an HTML page, with a chart of the most-missed questions"))
    p.set_defaults(func=needs_course(cmd_grade))


def main(argv=None) -> int:
    """The library's commands plus the classroom's, without relying on installed entry points."""
    from ctxlib import mcp_server

    return cli.main(argv, extensions=[add_commands, mcp_server.add_mcp_parser])


if __name__ == "__main__":
    sys.exit(main())
