"""``ctxlib eval``: recall and reciprocal rank of the ranking on the repository's own history.

``ctxlib.evaluate`` (and its history reader) is imported only when the command runs, so ``count``
and ``pack`` never load it.
"""
from __future__ import annotations

import sys

from .common import UsageError, display_name


def format_eval_report(run, summary: dict, misses=()) -> str:
    """The ``eval`` report: the rules, then per system recall at each budget, MRR, top-1 and
    kind shares, then the worst misses (``misses``: ``(outcome, explanation)`` pairs)."""
    from ..bm25 import shorten
    from ..evaluate import CLEANING_RULES, QUALIFY_RULES
    from ..repo import display_path

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

    from .. import evaluate

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


def add_eval_parser(sub) -> None:
    """Add ``ctxlib eval`` to the subcommands ``sub``."""
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
