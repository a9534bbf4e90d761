"""``ctxlib pack``: the files most relevant to a query in exactly N tokens or fewer.

The packed context goes to stdout (``fit.pack_repository``); the report to stderr: the packed
files, the skipped ones grouped by reason code, the other shipped encoding's count, the total
(``--report json``: one JSON object, ``render.pack_report``).
"""
from __future__ import annotations

import sys
from pathlib import Path

from .. import tokens
from ..i18n import N_, Worded, message
from ..reasons import Reason, group_by_reason
from .common import UsageError, add_glob_options, add_history_option, add_lang_option, history_of, lang_of

# Reasons that many files share on a real repository: more than one of them is one report line.
ALWAYS_GROUPED = frozenset({Reason.NO_MATCH, Reason.BUDGET_FULL, Reason.WALK_STOPPED, Reason.STOPPED_AT,
                            Reason.NOT_WEIGHED})


def format_pack_report(pack, query: str, listed: int = 8, lang: str = "en") -> str:
    """The ``pack`` report for stderr, in ``lang`` (``"en"`` or ``"hi"``): packed files, skipped files grouped
    by reason, the total. Column heads and views stay in English, as the glossary keeps them. ``ValueError``
    for an unknown ``lang``."""
    from ..bm25 import shorten
    from ..i18n import in_lang

    lines = [message("ctxlib pack: {read:,} files read, {tokenized:,} tokenized, query {query}", lang,
                     read=pack.files_read, tokenized=pack.files_tokenized, query=repr(shorten(query)))]
    lines += [message("query: {note}", lang, note=in_lang(pack.query_note, lang))] if pack.query_note else []
    lines.append(f"  {'tokens':>7}  {'view':<10}  {'score':>7}  file")
    lines += [f"  {c.tokens:>7,}  {c.view:<10}  {c.score:>7.2f}  {c.path}" + (
        "  (" + message("{kept} of {total} ranges", lang, kept=c.ranges[0], total=c.ranges[1]) + ")" if c.ranges else "")
        for c in pack.chosen]
    one_by_one, grouped = [], []
    for items in group_by_reason(pack.skipped):
        if len(items) <= 1 or len(items) <= listed and items[0].code not in ALWAYS_GROUPED:
            one_by_one += [f"  {s.path}: {_with_line(s, lang)}" for s in items]
        else:
            n, examples = format(len(items), ","), ", ".join(s.path for s in items[:3])
            grouped.append(message("  {n} files: {reason} (e.g. {examples})", lang, n=n,
                                   reason=items[0].group_text(lang), examples=examples))
    if pack.skipped:
        lines += [message("skipped:", lang)] + sorted(one_by_one) + grouped
    for items in group_by_reason(pack.notes):  # each kind as itself: 9 bad .gitignore lines were "9 files not UTF-8"
        examples = ", ".join(list(dict.fromkeys(n.path for n in items))[:3])
        if len(items) <= listed:
            lines += [message("note: {path}: {reason}", lang, path=n.path, reason=n.text(lang)) for n in items]
        elif items[0].code is Reason.NOT_UTF8:
            lines.append(message("note: {n:,} files are not valid UTF-8; their undecodable bytes were replaced with "
                                 "U+FFFD (e.g. {examples})", lang, n=len(items), examples=examples))
        else:
            lines.append(message("note: {n:,} times: {reason} (e.g. in {examples})", lang, n=len(items),
                                 reason=items[0].group_text(lang), examples=examples))
    lines.append(message("total: {used:,} of {budget:,} tokens ({encoding}, counted on the rendered text)", lang,
                         used=pack.used_tokens, budget=pack.budget_tokens, encoding=pack.encoding))
    return "\n".join(lines)


def _with_line(skipped, lang: str) -> str:
    """A skipped file's reason, and for a secret the line of the one found (``at_line``), so that a person can see
    whether it is one: "holds a secret (gitleaks: generic-api-key), on line 610"."""
    line = skipped.param("at_line") if skipped.code is Reason.SECRET else None
    return message("{reason}, on line {line:,}", lang, reason=skipped.text(lang), line=line) if line \
        else skipped.text(lang)


def json_line(report: dict, stream) -> str:
    """``report`` as one line of JSON that ``stream`` can write as it is: Hindi and every other character as itself,
    unless the stream's encoding cannot write one (ASCII, cp1252): then the whole line in ``\\u`` escapes. Python
    writes such a character as ``\\U0001f600`` or ``\\xe9`` (backslashreplace), which no JSON reader takes."""
    import json

    text = json.dumps(report, ensure_ascii=False)
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):  # a lone surrogate (a query of invalid UTF-8 bytes) too
        return json.dumps(report)
    return text


def write_context(text: str, stream) -> None:
    """Write the packed ``text`` to ``stream`` as it is: in the stream's encoding when that holds every character of it,
    else all of it as UTF-8, the one encoding that holds any. Windows writes a pipe or a file in its code page (cp1252),
    and a pack holds any file's characters (and its views' "⋮"): the pack ended in "'charmap' codec can't encode
    character", nothing written. Replacing characters would change the tokens the budget was counted in."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8", getattr(stream, "errors", None) or "strict")
    except (UnicodeEncodeError, LookupError):
        if hasattr(stream, "buffer"):
            stream.flush()
            stream.buffer.write(text.encode("utf-8", "surrogateescape"))
            stream.buffer.flush()
            return
    stream.write(text)
    stream.flush()


def report_in(argv) -> str:
    """The report a command line asks for: the value of its last ``--report X`` (or ``--report=X``, or a prefix of
    ``--report`` as argparse takes one), else ``"text"``. Found before argparse reads the line, so that its own
    errors (a missing ``--query``, a ``--budget`` that is no number) are JSON too when a program asked for JSON."""
    import argparse

    reader = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    reader.add_argument("--report", action="append", default=[])
    try:
        asked = reader.parse_known_args(list(argv))[0].report
    except argparse.ArgumentError:  # "--report" with no value: argparse says so itself
        return "text"
    return asked[-1] if asked else "text"


def cmd_pack(args) -> int:
    """``ctxlib pack PATH``: the packed context to stdout, the report to stderr; returns 0 (``ValueError`` when nothing fits)."""
    import contextlib

    from ..fit import pack_repository
    from ..packing import budget_after_margin, percent_text

    lang = lang_of(args)
    path = Path(args.path)
    if not path.exists():
        raise UsageError(Worded((N_("{path}: no such directory"), {"path": args.path})))
    budget = budget_after_margin(args.budget, args.margin)
    if sys.stderr.isatty() and args.report != "json":  # tqdm only for a person watching: its import costs ~30 ms
        from tqdm import tqdm

        # delay: the bar appears only on trees that take a while to read.
        reading = tqdm(desc="reading", unit=" files", delay=0.5, leave=False, file=sys.stderr)
    else:
        reading = contextlib.nullcontext()
    with reading as bar:
        pack = pack_repository(path, args.query, budget, encoding=args.encoding, scorer=args.scorer,
                               view=args.view, strategy=args.strategy, fmt=args.format,
                               max_file_bytes=args.max_file_bytes, max_tree_bytes=args.max_tree_bytes,
                               include_secrets=args.include_secrets,
                               include=args.include, exclude=args.exclude, history=history_of(args),
                               progress=bar.update if bar is not None else None)
    write_context(pack.text, sys.stdout)
    if args.report == "json":
        from ..render import pack_report

        report = pack_report(pack, args.query, lang)
        if budget < args.budget:
            report["margin"] = {"percent": args.margin, "budget_tokens_given": args.budget}
        if args.include_secrets:
            report["secret_warnings"] = secret_warnings(pack, lang)
        print(json_line(report, sys.stderr), file=sys.stderr)
        return 0
    report = format_pack_report(pack, args.query, lang=lang).split("\n")
    extra = [tokenizer_note(pack, count_other=args.compare_encodings, lang=lang, margin=budget < args.budget)]
    if budget < args.budget:
        extra.insert(0, message("margin: {pct} percent of the {budget:,}-token budget is left free; packed for {packed:,}",
                                lang, pct=percent_text(args.margin), budget=args.budget, packed=budget))
    print("\n".join(report[:-1] + extra + report[-1:]), file=sys.stderr)
    if args.include_secrets:
        for line in secret_warnings(pack, lang):
            print(line, file=sys.stderr)
    return 0


NOTE_CHARS = 50_000  # a pack this long or shorter is counted in the other encoding by default (~0.05 s)


def tokenizer_note(pack, count_other: bool | None = None, lang: str = "en", margin: bool = False) -> str:
    """One report line: the pack's tokens in the other shipped encoding, and that other providers differ too.

    ``"tokenizers differ: this text is 1,993 tokens in o200k_base, 2,210 in cl100k_base (+10.9%); ..."``.
    The budget is exact only for the encoding it was counted in. ``count_other``: count the text in the
    other encoding (``True``), say how to ask for it (``False``), or count it only when the text is at
    most ``NOTE_CHARS`` characters (``None``, the default): a long pack would pay for loading a second
    encoding (~0.2 s) just for this line, so ``--compare-encodings`` asks for it. ``lang``: ``"en"`` or ``"hi"``.
    ``margin``: a ``--margin`` left room already, so the line says so instead of advising one.
    """
    other = next(name for name in sorted(tokens.ENCODINGS) if name != pack.encoding)
    if not (count_other or count_other is None and len(pack.text) <= NOTE_CHARS):
        if margin:
            return message("tokenizers differ: the budget is exact in {encoding} only; {other} and other providers' "
                           "tokenizers count this text differently, and --margin left room for them "
                           "(--compare-encodings counts it in {other})", lang, encoding=pack.encoding, other=other)
        return message("tokenizers differ: the budget is exact in {encoding} only; {other} and other providers' "
                       "tokenizers count this text differently, so leave room with --margin PCT "
                       "(--compare-encodings counts it in {other})", lang, encoding=pack.encoding, other=other)
    theirs = tokens.counter_for(len(pack.text), other)(pack.text)
    change = (theirs - pack.used_tokens) / pack.used_tokens * 100 if pack.used_tokens else 0.0
    counts = {"ours": pack.used_tokens, "encoding": pack.encoding, "theirs": theirs, "other": other, "change": change}
    if margin:
        return message("tokenizers differ: this text is {ours:,} tokens in {encoding}, {theirs:,} in {other} "
                       "({change:+.1f}%); other providers' tokenizers differ again, and --margin left room for them",
                       lang, **counts)
    return message("tokenizers differ: this text is {ours:,} tokens in {encoding}, {theirs:,} in {other} "
                   "({change:+.1f}%); other providers' tokenizers differ again, so leave room with --margin PCT",
                   lang, **counts)


def secret_warnings(pack, lang: str = "en") -> list[str]:
    """One stderr warning per secret in the packed text (``--include-secrets`` lets them through), in ``lang``.

    Each names the file, the line within the packed view and gitleaks' rule; credential files
    packed by name (``.env``) get one warning each too.
    """
    from .. import credentials, repo

    lines = []
    for choice in pack.chosen:
        by_name = repo.credential_file_reason(choice.path)
        if by_name:
            lines.append(message("ctxlib: warning: {path} {reason}; packed because of --include-secrets",
                                 lang, path=choice.path, reason=by_name.text(lang)))
        for found in credentials.find_secrets(choice.text, choice.path):
            lines.append(message("ctxlib: warning: {path}, line {line} of its {view} view: a secret "
                                 "(gitleaks: {rule}) packed because of --include-secrets", lang,
                                 path=choice.path, line=found.line, view=choice.view, rule=found.rule))
    return lines


def add_pack_parser(sub) -> None:
    """Add ``ctxlib pack`` to the subcommands ``sub``."""
    from .. import fit, render, repo

    p = sub.add_parser(
        "pack",
        help=N_("pack the files most relevant to a query into a hard token budget"),
        description=N_("Read a repository (honouring .gitignore; skipping binaries, big files and anything "
                       "that looks like a credential), rank its files for the query, and print the best ones "
                       "that fit: whole, as signatures, or as the line ranges around the query's hits. The "
                       "printed text, headers included, is re-counted and never exceeds the budget. The "
                       "packed context goes to stdout; a report of what was packed and skipped to stderr."),
    )
    p.add_argument("path", metavar="PATH", help=N_("the repository folder to read"))
    p.add_argument("--query", required=True, metavar="TEXT",
                   help=N_("what the task is about, e.g. \"vat invoice\"; identifiers are split "
                           "(computeVatRate -> compute, vat, rate)"))
    p.add_argument("--budget", required=True, type=int, metavar="N",
                   help=N_("hard limit in tokens for everything printed, headers included"))
    p.add_argument("--encoding", default=tokens.DEFAULT_ENCODING, choices=sorted(tokens.ENCODINGS),
                   help=N_("tiktoken encoding the budget is counted in (default: %(default)s)"))
    p.add_argument("--scorer", default="signals", choices=list(fit.SCORERS),
                   help=N_("signals: BM25 plus the ranking's signals (see 'ctxlib rank'); bm25: code-aware BM25 "
                           "alone; terms: the lesson's term count; plain: textbook BM25 (default: %(default)s)"))
    p.add_argument("--view", default="auto", choices=list(fit.VIEW_LADDERS),
                   help=N_("auto: whole file, else signatures, else hit ranges, whichever fits first; "
                           "signatures: signatures, else hit ranges (non-Python files have no signatures); "
                           "whole, ranges: only that view (default: %(default)s)"))
    p.add_argument("--strategy", default=fit.DEFAULT_STRATEGY, choices=list(fit.STRATEGIES),
                   help=N_("footholds: every file's cheapest view in rank order, then widened (more budget "
                           "never loses a file); greedy: by score; density: by score per token; knapsack: "
                           "exact best, small inputs only (default: %(default)s)"))
    p.add_argument("--format", default="text", choices=list(render.RENDERERS),
                   help=N_("output format (default: %(default)s)"))
    p.add_argument("--report", default="text", choices=("text", "json"),
                   help=N_("the report on stderr: text, for a person; json, one object for a program (the packed "
                           "files with their exact tokens and scores, the skipped ones with a reason code) "
                           "(default: %(default)s)"))
    p.add_argument("--max-file-bytes", type=int, default=repo.MAX_FILE_BYTES, metavar="N",
                   help=N_("skip files larger than this many bytes (default: %(default)s)"))
    p.add_argument("--max-tree-bytes", type=int, default=repo.MAX_TREE_BYTES, metavar="N",
                   help=N_("read no more files once those read hold this many bytes (default: %(default)s)"))
    p.add_argument("--include-secrets", action="store_true",
                   help=N_("also pack dotenv files, keys and text that looks like a credential (off by default); "
                           "each secret let through is named on stderr"))
    p.add_argument("--margin", type=float, default=0.0, metavar="PCT",
                   help=N_("leave this percentage of the budget free, for tokenizers other than ENCODING that count "
                           "the same text as more tokens (default: %(default)s)"))
    p.add_argument("--compare-encodings", action="store_true", default=None,
                   help=Worded((N_("count the packed text in the other shipped encoding too, however long it is (by "
                                   "default only a pack of at most {n:,} characters is counted again)"), {"n": NOTE_CHARS})))
    add_glob_options(p)
    add_history_option(p)
    add_lang_option(p)
    p.set_defaults(func=cmd_pack)
