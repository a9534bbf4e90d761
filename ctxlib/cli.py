"""The ``ctxlib`` command: thin wiring over the library.

    ctxlib count [PATH ...] [--tree]            exact tokens and the rough estimate, per file or folder
    ctxlib pack PATH --query Q --budget N       the most relevant files in exactly N tokens or fewer
    ctxlib rank PATH --query Q [--explain]      the full ranking pack walks, with scores and why
    ctxlib eval REPO [--every K] [--limit N]    recall and reciprocal rank on the repository's own history

The classroom's commands, ``ctxlib progress`` and ``ctxlib grade``, live in
``ctxlib.course.commands``, which adds them to this parser.

Every failure a person can cause (a missing file, a binary file, a bad option value) ends
with one line on stderr, starting ``ctxlib:``, and exit status 2; never a traceback. A
command that could do part of its job (count a folder with some unreadable files) does it,
names what it skipped on stderr, and exits 0. A closed pipe (``ctxlib count . | head -1``)
ends the command quietly.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import tokens
from .i18n import N_, message
from .reasons import Reason

# Reasons that many files share on a real repository: more than one of them is one report line.
ALWAYS_GROUPED = frozenset({Reason.NO_MATCH, Reason.BUDGET_FULL, Reason.WALK_STOPPED})


MAX_STDIN_BYTES = 64 * 1024 * 1024  # what ``ctxlib count`` reads from standard input at most


class UsageError(Exception):
    """A problem with what the user asked for; printed as one line, exit status 2."""


def read_text_file(path: str) -> str:
    """The text of ``path`` as UTF-8, or ``UsageError`` saying why it cannot be counted: missing, a
    folder, a link, not a regular file, over ``MAX_STDIN_BYTES`` (``safefile.read_regular_file``), binary."""
    from .safefile import Refused, read_regular_file

    try:
        data = read_regular_file(path, MAX_STDIN_BYTES)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except Refused as exc:
        raise UsageError(f"{path}: {exc.reason}") from None
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
    count = tokens.counter_for(sum(len(text) for _, text in named_texts), encoding)
    rows = [(name, len(text), count(text), tokens.estimate_tokens(text)) for name, text in named_texts]
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
    """``ctxlib count``: print the per-file table of ``count_rows`` (and ``--tree``'s per-folder totals).

    Files and folders are read as ``ctxlib pack`` reads them (``repo.read_repo``, ``repo.read_file``):
    skipped files are named on stderr and the rest is counted. Returns 0 when something was
    counted; raises ``UsageError`` when nothing could be (one path: its reason).
    """
    if not args.files:
        try:
            from .safefile import Refused, read_stream

            named = [("<stdin>", read_stream(sys.stdin.buffer, MAX_STDIN_BYTES).decode("utf-8"))]
        except Refused as exc:  # ctxlib count < /dev/zero: stops at the cap, never fills the memory
            raise UsageError(f"<stdin>: {exc.reason}") from None
        except UnicodeDecodeError as exc:
            raise UsageError(f"<stdin>: is not UTF-8 text (bad byte at offset {exc.start})") from None
        print(format_count_table(count_rows(named, args.encoding), args.encoding))
        return 0
    named, skipped, notes = read_count_paths(args.files, include=args.include, exclude=args.exclude)
    if not named:
        if len(skipped) == 1:
            raise UsageError(f"{skipped[0].path}: {skipped[0].reason}")
        raise UsageError(message("nothing to count: all {n:,} paths were skipped", "en", n=len(skipped)))
    rows = count_rows(named, args.encoding)
    from .repo import display_path

    tops = [display_path(p).rstrip("/") + "/" if os.path.isdir(p) else display_path(os.path.dirname(p)) + "/"
            for p in args.files]
    print(format_tree(rows[:len(named)], [t if t != "/" else "" for t in tops]) if args.tree
          else format_count_table(rows, args.encoding))
    for line in format_skipped(skipped, notes):
        print(line, file=sys.stderr)
    return 0


def read_count_paths(paths, include=(), exclude=()):
    """``(named texts, skipped, notes)`` for ``ctxlib count``'s PATH arguments.

    A folder is read by ``repo.read_repo`` (its files named ``folder/rel``); a file by
    ``repo.read_file`` (regular files only, size cap, NUL bytes mean binary). A path that
    does not exist is skipped as ``"no such file"``.
    """
    from . import repo

    named, skipped, notes = [], [], []
    for path in paths:
        shown = repo.display_path(path)
        if os.path.isdir(path):
            found = repo.read_repo(path, include=include, exclude=exclude)
            prefix = shown.rstrip("/") + "/"
            named += [(prefix + f.path, f.text) for f in found.files]
            skipped += [s.at(prefix + s.path) for s in found.skipped]
            notes += [n.at(prefix + n.path) for n in found.notes]
        elif not os.path.lexists(path):
            skipped.append(repo.Skipped(shown, repo.Reason.NO_SUCH_FILE))
        else:
            found, remark = repo.read_file(Path(path), shown, repo.MAX_FILE_BYTES)
            if found:
                named.append((shown, found.text))
            if remark:
                (notes if found else skipped).append(remark)
    return named, skipped, notes


def group_by_reason(skipped) -> list[list]:
    """``Skipped`` entries in groups that one report line can name, in order of first appearance.

    Entries share a group when they share a code and, unless the code has words for a group
    (``Reason.group``: sizes, rules, problems that differ per file), its parameters too.
    """
    groups: dict[tuple, list] = {}
    for s in skipped:
        groups.setdefault(s.group_key(), []).append(s)
    return list(groups.values())


def format_skipped(skipped, notes, listed: int = 8) -> list[str]:
    """stderr lines for what ``count`` skipped or changed: one per path, or one per reason past ``listed``."""
    lines = []
    for label, items in ((N_("skipped"), skipped), (N_("note"), notes)):
        for group in group_by_reason(items):
            if len(group) <= listed:
                lines += [f"ctxlib count: {message(label)}: {s.path}: {s.reason}" for s in group]
            else:
                lines.append(message("ctxlib count: {label}: {n:,} files: {kind} (e.g. {examples})", "en",
                                     label=message(label), n=len(group), kind=group[0].group_text(),
                                     examples=", ".join(s.path for s in group[:3])))
    return lines


def tree_totals(rows, tops=("",)) -> list[tuple[str, int]]:
    """Tokens per folder from ``count_rows``' ``(name, characters, exact, rough)`` rows, largest first.

    ``[("a/b.py", 3, 1, 1), ("a/c/d.py", 8, 2, 2)]`` -> ``[("a/", 3), ("a/c/", 2)]``: each file's
    exact tokens count for every folder above it, as ``du`` counts bytes. Ties by name. Only
    folders at or below one of ``tops`` (the PATH arguments, ``"src/"``) are listed.
    """
    totals: dict[str, int] = {}
    for name, _, exact, _ in rows:
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth]) + "/"
            if any(folder.startswith(top) for top in tops):
                totals[folder] = totals.get(folder, 0) + exact
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def format_tree(rows, tops=("",)) -> str:
    """``count --tree``: one line per folder, ``tokens  folder/``, largest first, then the total."""
    totals = tree_totals(rows, tops)
    total = sum(r[2] for r in rows)
    width = max([len(f"{total:,}")] + [len(f"{t:,}") for _, t in totals])
    lines = [f"{tokens:>{width},}  {folder}" for folder, tokens in totals]
    lines.append(f"{total:>{width},}  " + message("total ({n:,} files)", "en", n=len(rows)))
    return "\n".join(lines)


def format_pack_report(pack, query: str, listed: int = 8) -> str:
    """The ``pack`` report for stderr: packed files, skipped files grouped by reason, the total."""
    from .bm25 import shorten

    lines = [f"ctxlib pack: {pack.files_read:,} files read, {pack.files_tokenized:,} tokenized, "
             f"query {shorten(query)!r}"]
    lines += [f"query: {pack.query_note}"] if pack.query_note else []
    lines.append(f"  {'tokens':>7}  {'view':<10}  {'score':>7}  file")
    lines += [f"  {c.tokens:>7,}  {c.view:<10}  {c.score:>7.2f}  {c.path}" + (f"  ({c.ranges[0]} of {c.ranges[1]} ranges)" if c.ranges else "")
              for c in pack.chosen]
    one_by_one, grouped = [], []
    for items in group_by_reason(pack.skipped):
        if len(items) <= 1 or len(items) <= listed and items[0].code not in ALWAYS_GROUPED:
            one_by_one += [f"  {s.path}: {s.reason}" for s in items]
        else:
            grouped.append(f"  {len(items):,} files: {items[0].group_text()} "
                           f"(e.g. {', '.join(s.path for s in items[:3])})")
    if pack.skipped:
        lines += ["skipped:"] + sorted(one_by_one) + grouped
    if len(pack.notes) <= listed:
        lines += [f"note: {n.path}: {n.reason}" for n in pack.notes]
    else:
        lines.append(f"note: {len(pack.notes):,} files are not valid UTF-8; their undecodable bytes were "
                     f"replaced with U+FFFD (e.g. {', '.join(n.path for n in pack.notes[:3])})")
    lines.append(f"total: {pack.used_tokens:,} of {pack.budget_tokens:,} tokens "
                 f"({pack.encoding}, counted on the rendered text)")
    return "\n".join(lines)


def cmd_pack(args) -> int:
    """``ctxlib pack PATH``: the packed context to stdout, the report to stderr; returns 0 (``ValueError`` when nothing fits)."""
    import contextlib

    from .fit import budget_after_margin, pack_repository

    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{args.path}: no such directory")
    budget = budget_after_margin(args.budget, args.margin)
    if sys.stderr.isatty():  # tqdm only for a person watching: its import costs ~30 ms
        from tqdm import tqdm

        # delay: the bar appears only on trees that take a while to read.
        reading = tqdm(desc="reading", unit=" files", delay=0.5, leave=False, file=sys.stderr)
    else:
        reading = contextlib.nullcontext()
    with reading as bar:
        pack = pack_repository(path, args.query, budget, encoding=args.encoding, scorer=args.scorer,
                               view=args.view, strategy=args.strategy, fmt=args.format,
                               max_file_bytes=args.max_file_bytes, include_secrets=args.include_secrets,
                               include=args.include, exclude=args.exclude,
                               progress=bar.update if bar is not None else None)
    sys.stdout.write(pack.text)
    sys.stdout.flush()
    report = format_pack_report(pack, args.query).split("\n")
    extra = [tokenizer_note(pack)]
    if budget < args.budget:
        extra.insert(0, message("margin: {pct:g} percent of the {budget:,}-token budget is left free; packed for {packed:,}",
                                "en", pct=args.margin, budget=args.budget, packed=budget))
    print("\n".join(report[:-1] + extra + report[-1:]), file=sys.stderr)
    if args.include_secrets:
        for line in secret_warnings(pack):
            print(line, file=sys.stderr)
    return 0


def tokenizer_note(pack) -> str:
    """One report line: the pack's tokens in the other shipped encoding, and that other providers differ too.

    ``"tokenizers differ: this text is 1,993 tokens in o200k_base, 2,210 in cl100k_base (+10.9%); ..."``.
    The budget is exact only for the encoding it was counted in.
    """
    other = next(name for name in sorted(tokens.ENCODINGS) if name != pack.encoding)
    theirs = tokens.count_tokens(pack.text, other)
    change = (theirs - pack.used_tokens) / pack.used_tokens * 100 if pack.used_tokens else 0.0
    return message("tokenizers differ: this text is {ours:,} tokens in {encoding}, {theirs:,} in {other} "
                   "({change:+.1f}%); other providers' tokenizers differ again, so leave room with --margin PCT",
                   "en", ours=pack.used_tokens, encoding=pack.encoding, theirs=theirs, other=other, change=change)


def secret_warnings(pack) -> list[str]:
    """One stderr warning per secret in the packed text (``--include-secrets`` lets them through).

    Each names the file, the line within the packed view and gitleaks' rule; credential files
    packed by name (``.env``) get one warning each too.
    """
    from . import credentials, repo

    lines = []
    for choice in pack.chosen:
        by_name = repo.credential_file_reason(choice.path)
        if by_name:
            lines.append(message("ctxlib: warning: {path} {reason}; packed because of --include-secrets",
                                 "en", path=choice.path, reason=by_name))
        for found in credentials.find_secrets(choice.text, choice.path):
            lines.append(message("ctxlib: warning: {path}, line {line} of its {view} view: a secret "
                                 "(gitleaks: {rule}) packed because of --include-secrets", "en",
                                 path=choice.path, line=found.line, view=choice.view, rule=found.rule))
    return lines


def _add_pack_parser(sub) -> None:
    from . import fit, render, repo

    p = sub.add_parser(
        "pack",
        help="pack the files most relevant to a query into a hard token budget",
        description="Read a repository (honouring .gitignore; skipping binaries, big files and anything "
                    "that looks like a credential), rank its files for the query, and print the best ones "
                    "that fit: whole, as signatures, or as the line ranges around the query's hits. The "
                    "printed text, headers included, is re-counted and never exceeds the budget. The "
                    "packed context goes to stdout; a report of what was packed and skipped to stderr.",
    )
    p.add_argument("path", metavar="PATH", help="the repository folder to read")
    p.add_argument("--query", required=True, metavar="TEXT",
                   help="what the task is about, e.g. \"vat invoice\"; identifiers are split "
                        "(computeVatRate -> compute, vat, rate)")
    p.add_argument("--budget", required=True, type=int, metavar="N",
                   help="hard limit in tokens for everything printed, headers included")
    p.add_argument("--encoding", default=tokens.DEFAULT_ENCODING, choices=sorted(tokens.ENCODINGS),
                   help="tiktoken encoding the budget is counted in (default: %(default)s)")
    p.add_argument("--scorer", default="signals", choices=fit.SCORERS,
                   help="signals: BM25 plus the ranking's signals (see 'ctxlib rank'); bm25: code-aware BM25 "
                        "alone; terms: the lesson's term count; plain: textbook BM25 (default: %(default)s)")
    p.add_argument("--view", default="auto", choices=list(fit.VIEW_LADDERS),
                   help="auto: whole file, else signatures, else hit ranges, whichever fits first; "
                        "signatures: signatures, else hit ranges (non-Python files have no signatures); "
                        "whole, ranges: only that view (default: %(default)s)")
    p.add_argument("--strategy", default="greedy", choices=list(fit.STRATEGIES),
                   help="greedy: by score; density: by score per token; knapsack: exact best, small "
                        "inputs only (default: %(default)s)")
    p.add_argument("--format", default="text", choices=list(render.RENDERERS),
                   help="output format (default: %(default)s)")
    p.add_argument("--max-file-bytes", type=int, default=repo.MAX_FILE_BYTES, metavar="N",
                   help="skip files larger than this many bytes (default: %(default)s)")
    p.add_argument("--include-secrets", action="store_true",
                   help="also pack dotenv files, keys and text that looks like a credential (off by default); "
                        "each secret let through is named on stderr")
    p.add_argument("--margin", type=float, default=0.0, metavar="PCT",
                   help="leave this percentage of the budget free, for tokenizers other than ENCODING that count "
                        "the same text as more tokens (default: %(default)s)")
    _add_glob_options(p)
    p.set_defaults(func=cmd_pack)


def _add_glob_options(p) -> None:
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="read only files matching this gitignore-style pattern, e.g. '*.py' or 'src/'; repeatable")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="also leave out files matching this gitignore-style pattern, e.g. 'site-packages/'; repeatable")


def format_rank_report(ranked, query: str, top: int = 20, explain: bool = False) -> str:
    """The ``rank`` report: one line per file (place, score, kind, path), best first, and with
    ``explain`` each file's BM25 part and signals (``ranking.explain_ranked``)."""
    from .bm25 import shorten
    from .ranking import explain_ranked

    scored = [r for r in ranked if r.score > 0]
    lines = [f"ctxlib rank: {len(scored):,} of {len(ranked):,} files score above 0 for {shorten(query)!r}",
             f"  {'place':>5}  {'score':>7}  {'kind':<9}  file"]
    for place, r in enumerate(scored[:top], 1):
        lines.append(f"  {place:>5}  {r.score:>7.2f}  {r.kind:<9}  {r.path}")
        if explain:
            lines += ["         " + line for line in explain_ranked(r).splitlines()[1:]]
    if len(scored) > top:
        lines.append(f"  ... {len(scored) - top:,} more (--top N shows more)")
    return "\n".join(lines)


def cmd_rank(args) -> int:
    """``ctxlib rank PATH``: the ranking ``pack`` walks, as a table or JSON; returns 0 (``ValueError`` for a bad query)."""
    import json

    from . import ranking, repo

    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{args.path}: no such directory")
    if args.top < 1:
        raise UsageError(f"--top must be a positive whole number, got {args.top}")
    files = {f.path: f.text for f in repo.read_repo(path).files}
    query = ranking.clean_query(args.query, files)
    ranked = ranking.rank_files(files, query)
    if args.format == "json":
        rows = [{"path": r.path, "score": round(r.score, 4), "bm25": round(r.bm25, 4), "kind": r.kind,
                 "signals": [{"signal": s, "effect": e} for s, e in r.effects]} for r in ranked if r.score > 0]
        json.dump({"query_terms": list(query.terms), "identifiers": list(query.identifiers),
                   "dropped": list(query.dropped), "note": query.note, "files": rows[:args.top]},
                  sys.stdout, indent=1, ensure_ascii=True)
        print()
    else:
        print(format_rank_report(ranked, args.query, args.top, args.explain))
        if query.note:
            print(f"query: {query.note}")
    return 0


def _add_rank_parser(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="rank a repository's files for a query, with scores and why",
        description="Read a repository as 'ctxlib pack' does and print the ranking pack walks: BM25 on the "
                    "cleaned query plus the ranking's signals (path kind, tests linked to their module, "
                    "identifiers and definitions, stemmed file names, imports). --explain shows each "
                    "file's BM25 part and what every signal did.",
    )
    p.add_argument("path", metavar="PATH", help="the repository folder to read")
    p.add_argument("--query", required=True, metavar="TEXT", help="what the task is about")
    p.add_argument("--top", type=int, default=20, metavar="N", help="show the N best files (default: %(default)s)")
    p.add_argument("--explain", action="store_true", help="show why each file ranked where it did")
    p.add_argument("--format", default="text", choices=["text", "json"], help="output format (default: %(default)s)")
    p.set_defaults(func=cmd_rank)


def format_eval_report(run, summary: dict, misses=()) -> str:
    """The ``eval`` report: the rules, then per system recall at each budget, MRR, top-1 and
    kind shares, then the worst misses (``misses``: ``(outcome, explanation)`` pairs)."""
    from .bm25 import shorten
    from .evaluate import CLEANING_RULES, QUALIFY_RULES
    from .repo import display_path

    n = len(run.instances)
    lines = [f"ctxlib eval: {n:,} task{'s' * (n != 1)} from the history of {run.repo}"
             + (f" ({len(run.skipped)} could not be read)" if run.skipped else "")]
    lines += [f"  not read: {i.commit[:10]}: {display_path(why)}" for i, why in run.skipped[:5]]
    lines += [f"  and {len(run.skipped) - 5:,} more (--format json lists them all)"] if len(run.skipped) > 5 else []
    lines += ["a commit qualifies if: " + "; ".join(QUALIFY_RULES),
              "its message is cleaned: " + "; ".join(CLEANING_RULES)]
    budgets = run.budgets
    head = "".join(f"  all@{budget_label(b)}  any@{budget_label(b)}" for b in budgets)
    width = {b: max(6, len(f"all@{budget_label(b)}")) for b in budgets}  # a cell as wide as its head
    lines += ["", f"  {'system':<26}{head}    MRR  top-1"]
    for name, s in summary.items():
        cells = "".join(f"  {s['all_recall'][b]:>{width[b]}.1%}  {s['any_recall'][b]:>{width[b]}.1%}"
                        for b in budgets)
        lines.append(f"  {name:<26}{cells}  {s['mrr']:.3f}  {s['top1']:>5.1%}")
    for name, s in summary.items():
        first = ", ".join(f"{k} {v:.0%}" for k, v in s["first_kind"].items())
        share = ", ".join(f"{k} {v:.0%}" for k, v in s["kind_share"][budgets[0]].items())
        lines += [f"{name}: file ranked first is {first}", f"{name}: packed tokens at {budgets[0]:,}: {share}"]
    for outcome, why in misses:
        i = outcome.instance
        where = ", ".join(f"{display_path(t)} (rank {r or 'none'})" for t, r in outcome.ranks.items())
        lines += ["", f"miss: {i.commit[:10]} {shorten(i.query, 100)!r}", f"  edited: {where}"]
        lines += ["  " + line for line in why.splitlines()]
    return "\n".join(lines)


def budget_label(budget: int) -> str:
    """A budget in tokens as the report's column heads show it, exactly: ``500``, ``13k``, ``1.5k``, ``1,234``."""
    if budget < 1000 or budget % 100:
        return f"{budget:,}"
    return f"{budget // 1000}k" if budget % 1000 == 0 else f"{budget / 1000:.1f}k"


def cmd_eval(args) -> int:
    """``ctxlib eval REPO``: recall and reciprocal rank on the repository's history; returns 0.

    Raises ``EvalError`` (a ``ValueError``) for a folder that is not a repository, a history that
    cannot be read or is too short; ``UsageError`` for a negative ``--misses`` or when no task's
    tree could be read. Trees that cannot be read are listed in the report and left out."""
    import json

    from tqdm import tqdm

    from . import evaluate

    if args.misses < 0:
        raise UsageError(f"--misses must be 0 or more, got {args.misses}")
    budgets = tuple(args.budget or evaluate.BUDGETS)
    instances = evaluate.mine_instances(args.path, every=args.every, limit=args.limit)
    systems = (evaluate.CURRENT,) + (() if args.no_baseline else (evaluate.BASELINE,))
    with tqdm(total=len(instances), desc="eval", unit=" tasks", file=sys.stderr, leave=False,
              disable=not sys.stderr.isatty()) as bar:
        run = evaluate.evaluate_repository(args.path, budgets=budgets, systems=systems, instances=instances,
                                           progress=bar.update)
    if not run.instances:  # every tree failed: a table of zeros would look like a measurement
        commit, why = run.skipped[0][0].commit, run.skipped[0][1]
        raise UsageError(f"none of the {len(run.skipped):,} tasks could be read; the first, {commit[:10]}: "
                         f"{display_name(why)}")
    summary = run.summary()
    current = run.outcomes[evaluate.CURRENT.name]
    if args.format == "json":
        json.dump({"repo": run.repo, "rules": {"qualify": evaluate.QUALIFY_RULES, "clean": evaluate.CLEANING_RULES},
                   "budgets": list(budgets), "summary": summary,
                   "outcomes": {name: [evaluate.outcome_json(o) for o in found]
                                for name, found in run.outcomes.items()},
                   "skipped": [{"commit": i.commit, "reason": why} for i, why in run.skipped]},
                  sys.stdout, indent=1, ensure_ascii=True)
        print()
    else:
        misses = [(o, evaluate.explain_miss(args.path, o)) for o in evaluate.worst_misses(current, args.misses)]
        print(format_eval_report(run, summary, misses))
    return 0


# evaluate.BUDGETS, written out so that building the parser does not import the evaluation (and
# its history reader) for every command; tests/test_evaluate.py holds the two equal.
EVAL_BUDGETS_HELP = "13000, 27000, 50000"


def _add_eval_parser(sub) -> None:
    p = sub.add_parser(
        "eval",
        help="measure the ranking and packing on a git repository's own history",
        description="Mine the repository's history for tasks (a commit's cleaned message as the query, the "
                    "code files it edited as the answer), pack each parent commit's tree as 'ctxlib pack' "
                    "would, and report all-files and any-file recall at each budget, the mean reciprocal "
                    "rank of the first edited file, top-1, what kinds of file the tokens went to, and the "
                    "worst misses explained. A plain-BM25 whole-file baseline runs beside it. Uses the git command "
                    "when it is installed (fast), else reads the history in pure Python (dulwich).",
    )
    p.add_argument("path", metavar="REPO", help="a git working copy or bare repository")
    p.add_argument("--every", type=int, default=1, metavar="K", help="keep every K-th qualifying commit, "
                   "newest first (default: %(default)s)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="at most N tasks (default: all)")
    p.add_argument("--budget", type=int, action="append", metavar="N",
                   help=f"a budget in tokens; repeat for several (default: {EVAL_BUDGETS_HELP})")
    p.add_argument("--misses", type=int, default=3, metavar="N", help="explain the N worst misses (default: 3)")
    p.add_argument("--no-baseline", action="store_true", help="skip the plain-BM25 baseline")
    p.add_argument("--format", default="text", choices=["text", "json"], help="output format (default: %(default)s)")
    p.set_defaults(func=cmd_eval)


def _one_line_error(parser: argparse.ArgumentParser, command: str):
    """A subcommand's argument errors as one line, "ctxlib: pack: ...", instead of argparse's usage block."""
    return lambda message: parser.exit(2, f"ctxlib: {command}: {message} (see 'ctxlib {command} --help')\n")


def build_parser(extensions=()) -> argparse.ArgumentParser:
    """The ``ctxlib`` argument parser: one subcommand per function, each with one-line argument errors.

    Args:
        extensions: functions ``add(subparsers)`` that add more subcommands; the course adds its
            classroom commands this way (``ctxlib.course.commands``), so the library never imports it.
    """
    parser = argparse.ArgumentParser(
        prog="ctxlib",
        description="Token counting and context packing from the course "
                    "'The context window as a budget'. Works offline.",
    )
    # One line, "ctxlib: ...", for arguments no subcommand claims (e.g. "ctxlib pack . --bogus").
    parser.error = lambda message: parser.exit(2, f"ctxlib: {message} (see 'ctxlib --help')\n")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser(
        "count",
        help="count a file's tokens, exactly and by the 4-characters rule",
        description="Print each file's size in characters, its exact token count and the rough "
                    "4-characters estimate, and a total. Reads standard input when no file is given.",
    )
    p.add_argument("files", nargs="*", metavar="PATH",
                   help="text files or folders to count (default: standard input); folders are read as "
                        "'ctxlib pack' reads them (.gitignore, binaries, size cap, credentials skipped)")
    p.add_argument("--encoding", default=tokens.DEFAULT_ENCODING, choices=sorted(tokens.ENCODINGS),
                   help="tiktoken encoding for the exact count (default: %(default)s)")
    p.add_argument("--tree", action="store_true",
                   help="print tokens per folder, largest first (like a disk-usage view), instead of per file")
    _add_glob_options(p)
    p.set_defaults(func=cmd_count)

    _add_pack_parser(sub)
    _add_rank_parser(sub)
    _add_eval_parser(sub)
    for add_commands in extensions:
        add_commands(sub)
    for name, p in sub.choices.items():
        p.error = _one_line_error(p, name)
    return parser


def main(argv=None, extensions=()) -> int:
    """Run the ``ctxlib`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status.

    ``extensions`` are passed to ``build_parser``. The console script is
    ``ctxlib.course.commands:main``, which adds ``progress`` and ``grade``.
    """
    parser = build_parser(extensions)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except BrokenPipeError:  # the reader went away (| head -1): stop quietly, and let nothing flush later
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (UsageError, ValueError) as exc:
        print(f"ctxlib: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the file system said no (a folder where a file should be, say)
        where = f"{display_name(exc.filename)}: " if exc.filename else ""
        print(f"ctxlib: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("ctxlib: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def display_name(name) -> str:
    """A file name from an ``OSError`` (str or bytes) as printable text (``repo.display_path``)."""
    from .repo import display_path

    return display_path(os.fsdecode(name))


if __name__ == "__main__":
    sys.exit(main())
