"""``ctxlib count``: exact tokens and the rough estimate, per file, per folder (``--tree``), or of stdin.

Files and folders are read as ``ctxlib pack`` reads them (``repo.read_repo``, ``repo.read_file``);
what was skipped is named on stderr, grouped by reason code (``reasons.group_by_reason``).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import tokens
from ..i18n import N_, Worded, in_lang, message
from ..reasons import Reason, group_by_reason
from .common import UsageError, add_glob_options, add_lang_option, lang_of

MAX_STDIN_BYTES = 64 * 1024 * 1024  # what ``ctxlib count`` reads from standard input at most


def count_rows(named_texts: list[tuple[str, str]], encoding: str) -> list[tuple[str, int, int, int]]:
    """``[(name, characters, exact tokens, rough tokens), ...]`` plus a ``total`` row when there are several."""
    count = tokens.counter_for(sum(len(text) for _, text in named_texts), encoding)
    rows = [(name, len(text), count(text), tokens.estimate_tokens(text)) for name, text in named_texts]
    if len(rows) > 1:
        rows.append(("total", *(sum(r[i] for r in rows) for i in (1, 2, 3))))
    return rows


def format_count_table(rows, encoding: str, lang: str = "en") -> str:
    """The ``count`` report as aligned plain text, one line per file; the rough column's head in ``lang``
    (``file`` and ``characters`` stay English, as the glossary keeps them)."""
    head = ("file", "characters", encoding, message("rough (chars/4)", lang))
    width = max([len(head[0])] + [len(r[0]) for r in rows])
    lines = [f"{head[0]:<{width}}  {head[1]:>10}  {head[2]:>11}  {head[3]:>15}"]
    lines += [f"{n:<{width}}  {c:>10,}  {e:>11,}  {r:>15,}" for n, c, e, r in rows]
    return "\n".join(lines)


def cmd_count(args) -> int:
    """``ctxlib count``: print the per-file table of ``count_rows`` (and ``--tree``'s per-folder totals).

    Files and folders are read as ``ctxlib pack`` reads them (``repo.read_repo``, ``repo.read_file``):
    skipped files are named on stderr and the rest is counted. Returns 0 when something was
    counted; raises ``UsageError`` when nothing could be (one path: its reason).
    """
    lang = lang_of(args)
    if not args.files:
        try:
            from ..safefile import Refused, read_stream

            try:  # ctxlib count < /dev/zero: stops at the cap, never fills the memory
                named = [("<stdin>", read_stream(sys.stdin.buffer, MAX_STDIN_BYTES).decode("utf-8"))]
            except Refused as exc:
                raise UsageError(f"<stdin>: {in_lang(exc, lang)}") from None
        except UnicodeDecodeError as exc:
            raise UsageError(Worded((N_("<stdin>: is not UTF-8 text (bad byte at offset {offset:,})"),
                                     {"offset": exc.start}))) from None
        print(format_count_table(count_rows(named, args.encoding), args.encoding, lang))
        return 0
    named, skipped, notes = read_count_paths(args.files, include=args.include, exclude=args.exclude)
    if not named:
        if len(skipped) == 1:
            raise UsageError(f"{skipped[0].path}: {skipped[0].text(lang)}")
        if not skipped:
            raise UsageError(message("nothing to count: all {n:,} paths were skipped", lang, n=0))
        commonest = max(group_by_reason(skipped), key=len)[0]  # why most were: --include "*.rs" in a Python project
        raise UsageError(message("nothing to count: all {n:,} paths were skipped (e.g. {path}: {reason})", lang,
                                 n=len(skipped), path=commonest.path, reason=commonest.text(lang)))
    rows = count_rows(named, args.encoding)
    if len(rows) > len(named):  # the total row, named in the command's language
        rows[-1] = (message("total", lang), *rows[-1][1:])
    from ..repo import display_path

    tops = [display_path(p).rstrip("/") + "/" if os.path.isdir(p) else display_path(os.path.dirname(p)) + "/"
            for p in args.files]
    print(format_tree(rows[:len(named)], [t if t != "/" else "" for t in tops], lang) if args.tree
          else format_count_table(rows, args.encoding, lang))
    for line in format_skipped(skipped, notes, lang=lang):
        print(line, file=sys.stderr)
    return 0


def read_count_paths(paths, include=(), exclude=()):
    """``(named texts, skipped, notes)`` for ``ctxlib count``'s PATH arguments.

    A folder is read by ``repo.read_repo`` (its files named ``folder/rel``); a file by
    ``repo.read_file`` (regular files only, size cap, NUL bytes mean binary). A path that
    does not exist is skipped as ``"no such file"``. A file reached twice (``src src``, or
    ``src/app.py`` and ``src``) is listed once, under the name it was first reached by, so the
    total counts it once (as the MCP server's ``count`` does).
    """
    from .. import repo

    named, skipped, notes, seen = [], [], [], set()

    def first(key: str) -> bool:  # True the first time a file's real path is met
        if key in seen:
            return False
        seen.add(key)
        return True

    for path in paths:
        shown = repo.display_path(path)
        if os.path.isdir(path):
            found = repo.read_repo(path, include=include, exclude=exclude)
            prefix, real = shown.rstrip("/") + "/", os.path.realpath(path)
            named += [(prefix + f.path, f.text) for f in found.files if first(os.path.join(real, f.path))]
            skipped += [s.at(prefix + s.path) for s in found.skipped if first(os.path.join(real, s.path))]
            notes += [n.at(prefix + n.path) for n in found.notes]
        elif not os.path.lexists(path):
            skipped.append(repo.Skipped(shown, Reason.NO_SUCH_FILE))
        elif first(os.path.join(os.path.realpath(os.path.dirname(path) or "."), os.path.basename(path))):
            found, remark = repo.read_file(Path(path), shown, repo.MAX_FILE_BYTES)
            if found:
                named.append((shown, found.text))
            if remark:
                (notes if found else skipped).append(remark)
    return named, skipped, notes


def format_skipped(skipped, notes, listed: int = 8, lang: str = "en") -> list[str]:
    """stderr lines for what ``count`` skipped or changed, in ``lang``: one per path, or one per reason past ``listed``."""
    lines = []
    for label, items in ((N_("skipped"), skipped), (N_("note"), notes)):
        for group in group_by_reason(items):
            if len(group) <= listed:
                lines += [f"ctxlib count: {message(label, lang)}: {s.path}: {s.text(lang)}" for s in group]
            else:
                lines.append(message("ctxlib count: {label}: {n:,} files: {kind} (e.g. {examples})", lang,
                                     label=message(label, lang), n=len(group), kind=group[0].group_text(lang),
                                     examples=", ".join(s.path for s in group[:3])))
    return lines


def tree_totals(rows, tops=("",)) -> list[tuple[str, int]]:
    """Tokens per folder from ``count_rows``' ``(name, characters, exact, rough)`` rows, largest first.

    ``[("a/b.py", 3, 1, 1), ("a/c/d.py", 8, 2, 2)]`` -> ``[("a/", 3), ("a/c/", 2)]``: each file's
    exact tokens count for every folder above it, as ``du`` counts bytes. Ties by name. Only
    folders at or below one of ``tops`` (the PATH arguments, ``"src/"``) are listed.
    """
    # Each file's tokens go to its own folder once, and each folder's total to its parent, deepest first: a
    # folder's path is made once, not once per file below it (a chain 2,048 folders deep, a file in each,
    # joined ~2,048 paths per file: 24 s for --tree).
    totals: dict[str, int] = {}
    by_depth: dict[int, list[str]] = {}
    for name, _, exact, _ in rows:
        folder = name[:name.rfind("/") + 1]
        if folder:
            if folder not in totals:
                totals[folder] = 0
                by_depth.setdefault(folder.count("/"), []).append(folder)
            totals[folder] += exact
    for depth in range(max(by_depth, default=0), 0, -1):
        for folder in by_depth.get(depth, ()):  # parents join the list one level up, walked next
            parent = folder[:folder.rfind("/", 0, len(folder) - 1) + 1]
            if not parent:
                continue
            if parent not in totals:
                totals[parent] = 0
                by_depth.setdefault(depth - 1, []).append(parent)
            totals[parent] += totals[folder]
    listed = [(folder, n) for folder, n in totals.items() if any(folder.startswith(top) for top in tops)]
    return sorted(listed, key=lambda kv: (-kv[1], kv[0]))


def format_tree(rows, tops=("",), lang: str = "en") -> str:
    """``count --tree``: one line per folder, ``tokens  folder/``, largest first, then the total (in ``lang``)."""
    totals = tree_totals(rows, tops)
    total = sum(r[2] for r in rows)
    width = max([len(f"{total:,}")] + [len(f"{t:,}") for _, t in totals])
    lines = [f"{tokens:>{width},}  {folder}" for folder, tokens in totals]
    lines.append(f"{total:>{width},}  " + message("total ({n:,} files)", lang, n=len(rows)))
    return "\n".join(lines)


def add_count_parser(sub) -> None:
    """Add ``ctxlib count`` to the subcommands ``sub``."""
    p = sub.add_parser(
        "count",
        help=N_("count a file's tokens, exactly and by the 4-characters rule"),
        description=N_("Print each file's size in characters, its exact token count and the rough "
                       "4-characters estimate, and a total. Reads standard input when no file is given."),
    )
    p.add_argument("files", nargs="*", metavar="PATH",
                   help=N_("text files or folders to count (default: standard input); folders are read as "
                           "'ctxlib pack' reads them (.gitignore, binaries, size cap, credentials skipped)"))
    p.add_argument("--encoding", default=tokens.DEFAULT_ENCODING, choices=sorted(tokens.ENCODINGS),
                   help=N_("tiktoken encoding for the exact count (default: %(default)s)"))
    p.add_argument("--tree", action="store_true",
                   help=N_("print tokens per folder, largest first (like a disk-usage view), instead of per file"))
    add_glob_options(p)
    add_lang_option(p)
    p.set_defaults(func=cmd_count)
