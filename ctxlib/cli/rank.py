"""``ctxlib rank``: the full ranking ``pack`` walks, with scores and, with ``--explain``, why."""
from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from ..i18n import N_, Worded, in_lang, message
from .common import UsageError, add_glob_options, add_history_option, add_lang_option, history_of, lang_of


def format_rank_report(ranked, query: str, top: int = 20, explain: bool = False, lang: str = "en") -> str:
    """The ``rank`` report in ``lang``: one line per file (place, score, kind, path), best first, and with
    ``explain`` each file's BM25 part and what each signal did (``ranking.explain_ranked`` in ``lang``; the signals'
    names and the path kinds stay English, as ``signals=`` and ``path_kind`` spell them)."""
    from ..bm25 import shorten
    from ..ranking import explain_ranked

    scored = [r for r in ranked if r.score > 0]
    place, score, kind, file = (message(word, lang) for word in (N_("place"), N_("score"), N_("kind"), N_("file")))
    head = f"  {_right(place, 5)}  {_right(score, 7)}  {kind}{' ' * max(0, 9 - _columns(kind))}  {file}"
    lines = [message("ctxlib rank: {scored:,} of {n:,} files score above 0 for {query}", lang, scored=len(scored),
                     n=len(ranked), query=repr(shorten(query))), head]
    for place, r in enumerate(scored[:top], 1):
        lines.append(f"  {place:>5}  {r.score:>7.2f}  {r.kind:<9}  {r.path}")
        if explain:
            lines += ["         " + line for line in explain_ranked(r, lang).splitlines()[1:]]
    if len(scored) > top:
        lines.append(message("  ... {n:,} more (--top N shows more)", lang, n=len(scored) - top))
    return "\n".join(lines)


def _columns(text: str) -> int:
    # The columns a terminal gives text: a combining mark (a Devanagari vowel sign, a virama) takes none of its own.
    return sum(not unicodedata.category(c).startswith("M") and unicodedata.category(c) != "Cf" for c in text)


def _right(text: str, width: int) -> str:
    return " " * max(0, width - _columns(text)) + text


def cmd_rank(args) -> int:
    """``ctxlib rank PATH``: the ranking ``pack`` walks, as a table or JSON; returns 0 (``ValueError`` for a bad query)."""
    import json

    from .. import ranking, repo

    lang = lang_of(args)
    path = Path(args.path)
    if not path.exists():
        raise UsageError(Worded((N_("{path}: no such directory"), {"path": args.path})))
    if args.top < 1:
        raise UsageError(Worded((N_("--top must be a positive whole number, got {top}"), {"top": args.top})))
    commits = history_of(args)
    files = {f.path: f.text for f in repo.read_repo(path, include=args.include, exclude=args.exclude).files}
    query = ranking.clean_query(args.query, files)
    ranked = ranking.rank_files(files, query, history=commits)
    if args.format == "json":
        rows = [{"path": r.path, "score": round(r.score, 4), "bm25": round(r.bm25, 4), "kind": r.kind,
                 "signals": [{"signal": s, "effect": e} for s, e in r.effects]} for r in ranked if r.score > 0]
        json.dump({"query_terms": list(query.terms), "identifiers": list(query.identifiers),
                   "dropped": list(query.dropped), "note": query.note, "files": rows[:args.top]},
                  sys.stdout, indent=1, ensure_ascii=True)
        print()
    else:
        print(format_rank_report(ranked, args.query, args.top, args.explain, lang))
        if query.note:
            print(message("query: {note}", lang, note=in_lang(query.note, lang)))
    return 0


def add_rank_parser(sub) -> None:
    """Add ``ctxlib rank`` to the subcommands ``sub``."""
    p = sub.add_parser(
        "rank",
        help=N_("rank a repository's files for a query, with scores and why"),
        description=N_("Read a repository as 'ctxlib pack' does and print the ranking pack walks: BM25 on the "
                       "cleaned query plus the ranking's signals (path kind, tests linked to their module, "
                       "identifiers and definitions, stemmed file names, imports; with --history, the recent "
                       "commits). --explain shows each file's BM25 part and what every signal did."),
    )
    p.add_argument("path", metavar="PATH", help=N_("the repository folder to read"))
    p.add_argument("--query", required=True, metavar="TEXT", help=N_("what the task is about"))
    p.add_argument("--top", type=int, default=20, metavar="N", help=N_("show the N best files (default: %(default)s)"))
    p.add_argument("--explain", action="store_true", help=N_("show why each file ranked where it did"))
    p.add_argument("--format", default="text", choices=["text", "json"], help=N_("output format (default: %(default)s)"))
    add_glob_options(p)
    add_history_option(p)
    add_lang_option(p)
    p.set_defaults(func=cmd_rank)
