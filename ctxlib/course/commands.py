"""The classroom's subcommands of the ``ctxlib`` command, and its console-script entry point.

    ctxlib progress [--name NAME] [--lang hi]   your quick-check score per lesson
    ctxlib grade DIR [--csv OUT.csv]            instructor: a class's progress files as a table

The library's own commands (``count``, ``pack``) are in ``ctxlib.cli``; this module adds these
two to the same parser, so the library never imports the course.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ctxlib import cli
from ctxlib.cli import UsageError
from ctxlib.i18n import LANGS, lang_from_environment, message


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
    if args.name is None:
        data, moved = progress.open_progress(path)
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with progress.progress_lock(path):  # a notebook may be recording at the same moment
                data, moved = progress.open_progress(path)
                data["learner"] = args.name.strip()
                progress.save_progress(data, path)
        except progress.safefile.Refused:
            raise
        except OSError as exc:
            raise UsageError(message("{path}: cannot be written ({problem})", lang, path=terminal_text(path),
                                     problem=exc.strerror or exc)) from None
    if moved:
        print(message("ctxlib: {path} could not be read ({problem}); it is kept as {kept}", lang,
                      path=terminal_text(path), problem=moved[1], kept=terminal_text(moved[0])), file=sys.stderr)
    learner = data.get("learner")
    print(progress.format_scores(progress.lesson_scores(data, lesson_question_ids()),
                                 terminal_text(learner) if learner else None, lang))
    print(message("(progress file: {path})", lang, path=terminal_text(path)))
    return 0


def cmd_grade(args) -> int:
    """``ctxlib grade DIR``: grade the progress files in DIR, write the CSV atomically, print the summary; returns 0."""
    from . import grading, progress
    from .quiz import lesson_question_ids

    folder = Path(args.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder")
    try:
        files = sorted(folder.glob("*.json"))
    except OSError as exc:
        raise UsageError(f"{folder}: cannot be read ({exc.strerror or exc})") from None
    if not files:
        raise UsageError(f"{folder}: has no progress files (*.json)")
    learners = []
    for f in files:
        try:
            data = progress.read_progress(f)
        except (progress.ProgressError, OSError) as exc:
            # Reported by name and skipped: one broken hand-in must not stop the class's report.
            print(f"ctxlib: {grading.terminal_text(f.name)}: cannot be read, skipped "
                  f"({getattr(exc, 'strerror', None) or exc})", file=sys.stderr)
            continue
        learners.append((data.get("learner") or f.stem, f.name, data))
    if not learners:
        raise UsageError(f"none of the {len(files)} progress files in {folder} could be read")
    header, rows = grading.grade_table(learners, lesson_question_ids())
    if Path(args.csv).resolve() in {f.resolve() for f in files}:
        raise UsageError(f"{args.csv}: is one of the progress files being graded; write the table elsewhere")
    if not Path(args.csv).resolve().parent.is_dir():
        raise UsageError(f"{args.csv}: cannot be written, its folder {Path(args.csv).parent} does not exist")
    try:
        progress.write_atomically(args.csv, grading.table_csv(header, rows))
    except OSError as exc:
        raise UsageError(f"{args.csv}: cannot be written ({exc.strerror})") from None
    print(grading.grade_summary(header, rows))
    skipped = len(files) - len(learners)
    print(f"\nwrote {args.csv}: {len(rows)} learner{'s' * (len(rows) > 1)} x {len(header) - 6} questions"
          + (f"; {skipped} file{'s' * (skipped > 1)} skipped (see above)" if skipped else ""))
    return 0


def add_course_commands(sub) -> None:
    """Add ``progress`` and ``grade`` to the ``ctxlib`` subparsers ``sub``."""
    p = sub.add_parser(
        "progress",
        help="your quick-check score per lesson",
        description="Print how many quick checks you answered correctly in each lesson, and the hints and "
                    "solutions you used, from your progress file ($CTXLIB_PROGRESS, else ~/.ctxlib/progress.json).",
    )
    p.add_argument("--name", default=None, help="save your name in the progress file, for your instructor's report")
    p.add_argument("--lang", choices=LANGS, default=None,
                   help="the language to print in (default: $CTXLIB_LANG, else hi under a Hindi locale, else en)")
    p.set_defaults(func=cmd_progress)

    p = sub.add_parser(
        "grade",
        help="instructor: one table of the progress files learners hand in",
        description="Read every *.json progress file in DIR, skip (and name) unreadable ones, write one CSV row "
                    "per learner with each question's outcome, and print completion and the most-missed questions.",
    )
    p.add_argument("folder", metavar="DIR", help="folder holding the learners' progress files")
    p.add_argument("--csv", default="grades.csv", metavar="OUT.csv", help="where to write the table (default: %(default)s)")
    p.set_defaults(func=cmd_grade)


def main(argv=None) -> int:
    """Entry point of the ``ctxlib`` console script: the library's commands plus the classroom's."""
    return cli.main(argv, extensions=[add_course_commands])


if __name__ == "__main__":
    sys.exit(main())
