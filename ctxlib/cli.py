"""The ``ctxlib`` command: thin wiring over the library.

    ctxlib count [FILE ...] [--encoding NAME]   exact tokens and the rough estimate

Every failure a person can cause (a missing file, a binary file, a bad option value) ends
with one line on stderr, starting ``ctxlib:``, and exit status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import tokens


class UsageError(Exception):
    """A problem with what the user asked for; printed as one line, exit status 2."""


def read_text_file(path: str) -> str:
    """The text of ``path`` as UTF-8, or ``UsageError`` saying why it cannot be counted."""
    p = Path(path)
    if not p.exists():
        raise UsageError(f"{path}: no such file")
    if p.is_dir():
        raise UsageError(f"{path}: is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror})") from None
    if b"\x00" in data[:8192]:
        raise UsageError(f"{path}: looks binary (it has NUL bytes), not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: is not UTF-8 text (bad byte at offset {exc.start})") from None


def count_rows(named_texts: list[tuple[str, str]], encoding: str) -> list[tuple[str, int, int, int]]:
    """``[(name, characters, exact tokens, rough tokens), ...]`` plus a ``total`` row when there are several."""
    rows = [(name, len(text), tokens.count_tokens(text, encoding), tokens.estimate_tokens(text))
            for name, text in named_texts]
    if len(rows) > 1:
        rows.append(("total", *(sum(r[i] for r in rows) for i in (1, 2, 3))))
    return rows


def format_count_table(rows, encoding: str) -> str:
    """The ``count`` report as aligned plain text, one line per file."""
    head = ("file", "characters", encoding, "rough (chars/4)")
    width = max([len(head[0])] + [len(r[0]) for r in rows])
    lines = [f"{head[0]:<{width}}  {head[1]:>10}  {head[2]:>11}  {head[3]:>15}"]
    lines += [f"{n:<{width}}  {c:>10,}  {e:>11,}  {r:>15,}" for n, c, e, r in rows]
    return "\n".join(lines)


def cmd_count(args) -> int:
    if args.files:
        named = [(f, read_text_file(f)) for f in args.files]
    else:
        named = [("<stdin>", sys.stdin.read())]
    print(format_count_table(count_rows(named, args.encoding), args.encoding))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ctxlib",
        description="Token counting and context packing from the course "
                    "'The context window as a budget'. Works offline.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser(
        "count",
        help="count a file's tokens, exactly and by the 4-characters rule",
        description="Print each file's size in characters, its exact token count and the rough "
                    "4-characters estimate, and a total. Reads standard input when no file is given.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="text files to count (default: standard input)")
    p.add_argument("--encoding", default=tokens.DEFAULT_ENCODING, choices=sorted(tokens.ENCODINGS),
                   help="tiktoken encoding for the exact count (default: %(default)s)")
    p.set_defaults(func=cmd_count)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``ctxlib`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except (UsageError, ValueError) as exc:
        print(f"ctxlib: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
