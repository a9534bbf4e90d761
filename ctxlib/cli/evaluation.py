"""``ctxlib eval``: recall and reciprocal rank of the ranking on the repository's own history.

``ctxlib.evaluate`` (and its history reader) is imported only when the command runs, so ``count``
and ``pack`` never load it.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..i18n import N_, Worded, in_lang, message, message_n
from .common import UsageError, add_lang_option, display_name, lang_of


def format_eval_report(run, summary: dict, misses=(), lang: str = "en") -> str:
    """The ``eval`` report in ``lang``: the rules, then per system recall at each budget, MRR, top-1 and
    kind shares, then the worst misses (``misses``: ``(outcome, explanation)`` pairs). Column heads, path
    kinds and the signals' names stay English, as the glossary keeps them."""
    from ..bm25 import shorten
    from ..evaluate import cleaning_rules, qualify_rules
    from ..repo import display_path

    n = len(run.instances)
    lines = [message_n("ctxlib eval: {n:,} task from the history of {repo}",
                       "ctxlib eval: {n:,} tasks from the history of {repo}", n, lang, repo=run.repo)
             + (message(" ({n:,} could not be read)", lang, n=len(run.skipped)) if run.skipped else "")]
    lines += [message("  not read: {commit}: {why}", lang, commit=i.commit[:10], why=display_path(in_lang(why, lang)))
              for i, why in run.skipped[:5]]
    if len(run.skipped) > 5:
        lines.append(message("  and {n:,} more (--format json lists them all)", lang, n=len(run.skipped) - 5))
    lines += [message("a commit qualifies if: {rules}", lang, rules="; ".join(qualify_rules(lang))),
              message("its message is cleaned: {rules}", lang, rules="; ".join(cleaning_rules(lang)))]
    budgets = run.budgets
    head = "".join(f"  all@{budget_label(b)}  any@{budget_label(b)}" for b in budgets)
    width = {b: max(6, len(f"all@{budget_label(b)}")) for b in budgets}  # a cell as wide as its head
    lines += ["", f"  {'system':<26}{head}    MRR  top-1"]
    for name, s in summary.items():
        cells = "".join(f"  {s['all_recall'][b]:>{width[b]}.1%}  {s['any_recall'][b]:>{width[b]}.1%}"
                        for b in budgets)
        lines.append(f"  {message(name, lang):<26}{cells}  {s['mrr']:.3f}  {s['top1']:>5.1%}")
    for name, s in summary.items():
        first = ", ".join(f"{k} {v:.0%}" for k, v in s["first_kind"].items())
        share = ", ".join(f"{k} {v:.0%}" for k, v in s["kind_share"][budgets[0]].items())
        lines += [message("{system}: file ranked first is {kinds}", lang, system=message(name, lang), kinds=first),
                  message("{system}: packed tokens at {budget:,}: {kinds}", lang, system=message(name, lang),
                          budget=budgets[0], kinds=share)]
    for outcome, why in misses:
        i = outcome.instance
        where = ", ".join(message("{path} (rank {rank})", lang, path=display_path(t), rank=r or message("none", lang))
                          for t, r in outcome.ranks.items())
        lines += ["", message("miss: {commit} {query}", lang, commit=i.commit[:10], query=repr(shorten(i.query, 100))),
                  message("  edited: {files}", lang, files=where)]
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

    from .. import evaluate

    lang = lang_of(args)
    if args.misses < 0:
        raise UsageError(Worded((N_("--misses must be 0 or more, got {n}"), {"n": args.misses})))
    check_top_folder(args.path)
    budgets = tuple(args.budget or evaluate.BUDGETS)
    instances = evaluate.mine_instances(args.path, every=args.every, limit=args.limit)
    systems = ((evaluate.CURRENT,) + ((evaluate.HISTORY,) if args.history else ())
               + (() if args.no_baseline else (evaluate.BASELINE,)))
    with tqdm(total=len(instances), desc="eval", unit=" tasks", file=sys.stderr, leave=False,
              disable=not sys.stderr.isatty()) as bar:
        run = evaluate.evaluate_repository(args.path, budgets=budgets, systems=systems, instances=instances,
                                           progress=bar.update)
    if not run.instances:  # every tree failed: a table of zeros would look like a measurement
        commit, why = run.skipped[0][0].commit, run.skipped[0][1]
        raise UsageError(message("none of the {n:,} tasks could be read; the first, {commit}: {why}", lang,
                                 n=len(run.skipped), commit=commit[:10], why=display_name(in_lang(why, lang))))
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
        misses = [(o, evaluate.explain_miss(args.path, o, lang=lang)) for o in evaluate.worst_misses(current, args.misses)]
        print(format_eval_report(run, summary, misses, lang))
    return 0


def check_top_folder(path) -> None:
    """Refuse a subfolder of a git working copy: the history read would be the whole repository's, every
    task's tree and edits included, reported under the subfolder's name (``eval ctxlib/course --limit 3``
    ranked files outside ctxlib/course). Only the names ``.git`` and ``HEAD`` are looked at, nothing is read.

    Args:
        path: the folder ``ctxlib eval`` was given.
    Raises:
        UsageError: ``path`` holds no ``.git`` (nor a bare repository's ``HEAD``) while a folder above it
            holds a ``.git``; the message names that folder, to evaluate instead.
    """
    from ..safegit import working_copy_above

    here = Path(os.path.abspath(path))
    if not here.is_dir() or any(os.path.lexists(here / name) for name in (".git", "HEAD")):
        return  # a repository, or no folder at all (the history reader says which)
    top = working_copy_above(here)
    if top is not None:
        raise UsageError(Worded((N_("{path} is a folder inside the git working copy {top}: ctxlib eval reads the "
                                    "whole repository's history, so give it the top folder (ctxlib eval {top})"),
                                 {"path": str(path), "top": str(top)})))


# evaluate.BUDGETS, written out so that building the parser does not import the evaluation (and
# its history reader) for every command; tests/test_evaluate.py holds the two equal.
EVAL_BUDGETS_HELP = "13000, 27000, 50000"


def add_eval_parser(sub) -> None:
    """Add ``ctxlib eval`` to the subcommands ``sub``."""
    p = sub.add_parser(
        "eval",
        help=N_("measure the ranking and packing on a git repository's own history"),
        description=N_("Mine the repository's history for tasks (a commit's cleaned message as the query, the "
                       "code files it edited as the answer), pack each parent commit's tree as 'ctxlib pack' "
                       "would, and report all-files and any-file recall at each budget, the mean reciprocal "
                       "rank of the first edited file, top-1, what kinds of file the tokens went to, and the "
                       "worst misses explained. A plain-BM25 whole-file baseline runs beside it. Uses the git command "
                       "when it is installed (fast), else reads the history in pure Python (dulwich)."),
    )
    p.add_argument("path", metavar="REPO", help=N_("a git working copy or bare repository"))
    p.add_argument("--every", type=int, default=1, metavar="K",
                   help=N_("keep every K-th qualifying commit, newest first (default: %(default)s)"))
    p.add_argument("--limit", type=int, default=None, metavar="N", help=N_("at most N tasks (default: all)"))
    p.add_argument("--budget", type=int, action="append", metavar="N",
                   help=Worded((N_("a budget in tokens; repeat for several (default: {budgets})"),
                                {"budgets": EVAL_BUDGETS_HELP})))
    p.add_argument("--misses", type=int, default=3, metavar="N", help=N_("explain the N worst misses (default: 3)"))
    p.add_argument("--no-baseline", action="store_true", help=N_("skip the plain-BM25 baseline"))
    p.add_argument("--history", action="store_true",
                   help=N_("also measure 'ctxlib pack --history': each task ranked with its parent commit's recent history too"))
    p.add_argument("--format", default="text", choices=["text", "json"], help=N_("output format (default: %(default)s)"))
    add_lang_option(p)
    p.set_defaults(func=cmd_eval)
