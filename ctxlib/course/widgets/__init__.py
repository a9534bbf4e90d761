"""The lessons' interactive controls, built with ipywidgets; one module per lesson.

Every callback is an ordinary function of plain values that tests call without a browser,
and every control prints its result at the default settings, so static viewers and nbval
see a real number. Functions that show a control return None: nbval runs cells with
``store_history=False``, where a trailing ``;`` does not hide a returned widget.

    quickchecks   show_quiz, quiz_widget, check_answer, hint_text, answer_outcome, ui_text, QuestionView
    lesson1       describe_pack, repack, make_pack_explorer, pack_explorer, token_pieces, request_table,
                  tokenizer_table
    lesson2       describe_ceiling, ledger_table, occupant_table, describe_loop, rerun_loop, make_loop_explorer, loop_explorer
    lesson3       describe_repo_pack, repack_repository, make_repo_explorer, repo_explorer, localized_reason,
                  skipped_table, explain_table
    lesson4       compare_rules, describe_turns, cost_table, runs_table, rerun_removal, make_removal_explorer,
                  removal_explorer, show_checks (quick checks placed after the section they practise)
    explorer      Explorer, the ``interactive`` whose plain-text form is a short note
"""
from .explorer import Explorer
from .lesson1 import describe_pack, make_pack_explorer, pack_explorer, repack
from .lesson2 import (DIAGNOSTICS_PRESETS, LEDGER_COLUMNS, describe_ceiling, describe_loop, ledger_table,
                      loop_explorer, make_loop_explorer, occupant_table, rerun_loop)
from .lesson3 import REPO_TEXT, describe_repo_pack, make_repo_explorer, repack_repository, repo_explorer
from .lesson4 import (compare_rules, cost_table, describe_turns, make_removal_explorer, removal_explorer,
                      rerun_removal, runs_table, show_checks)
from .quickchecks import (QUIZ_UI, QuestionView, QuizBox, answer_outcome, check_answer, hint_text, option_label,
                          quiz_widget, show_quiz, ui_text)

__all__ = [
    "DIAGNOSTICS_PRESETS", "Explorer", "LEDGER_COLUMNS", "QUIZ_UI", "QuestionView", "QuizBox",
    "answer_outcome", "check_answer", "describe_ceiling", "describe_loop", "describe_pack",
    "hint_text", "ledger_table", "loop_explorer", "make_loop_explorer", "make_pack_explorer", "occupant_table",
    "option_label", "ui_text",
    "pack_explorer", "quiz_widget", "repack", "rerun_loop", "show_quiz",
    "REPO_TEXT", "describe_repo_pack", "make_repo_explorer", "repack_repository", "repo_explorer",
    "compare_rules", "cost_table", "describe_turns", "make_removal_explorer", "removal_explorer",
    "rerun_removal", "runs_table", "show_checks",
]
