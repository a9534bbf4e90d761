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

The modules: ``main`` (the parser, the failure rule), ``count``, ``pack``, ``rank``, ``evaluation``
(one per subcommand: its parser, its report, its ``cmd_*``), ``common`` (``UsageError``).
"""
from .common import UsageError
from .count import count_rows, format_count_table, format_skipped, format_tree, read_count_paths, tree_totals
from .evaluation import EVAL_BUDGETS_HELP, budget_label, format_eval_report
from .main import build_parser, main
from .pack import format_pack_report, secret_warnings, tokenizer_note
from .rank import format_rank_report

__all__ = ["EVAL_BUDGETS_HELP", "UsageError", "budget_label", "build_parser", "count_rows", "format_count_table",
           "format_eval_report", "format_pack_report", "format_rank_report", "format_skipped", "format_tree",
           "main", "read_count_paths", "secret_warnings", "tokenizer_note", "tree_totals"]
